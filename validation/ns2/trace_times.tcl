# ns-2 trace time-column probe: how `trace-all` prints times (rounded to 1 us, then
# %.15g: exponent form below 1e-4 s, no trailing zeros). One 100-byte CBR packet is
# started at each of 0.000005, 0.0000999, 0.00012345, 1.0, 12.25 and 1234.5678915 s
# (fids 10..15) on a node 0 -> node 1 link of 100 Mb/s, 1 ms. The test
# lines_match_ns2_trace_times_output in crates/tcpsim/src/monitor/trace/ns2.rs copies
# its output.
#
# usage: ns trace_times.tcl [TRACEFILE]     (default times.tr)
set trace_file times.tr
if {$argc >= 1} { set trace_file [lindex $argv 0] }
set ns [new Simulator]
set tf [open $trace_file w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 100Mb 1ms DropTail
set null [new Agent/Null]
$ns attach-agent $n1 $null
set i 0
foreach t {0.000005 0.0000999 0.00012345 1.0 12.25 1234.5678915} {
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ [expr $i + 10]
    $ns attach-agent $n0 $udp($i)
    $ns connect $udp($i) $null
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) attach-agent $udp($i)
    $cbr($i) set packetSize_ 100
    # One packet per start: the next would come 100000 s later, after the end.
    $cbr($i) set interval_ 100000
    $ns at $t "$cbr($i) start"
    incr i
}
$ns at 1300 "close $tf; exit 0"
$ns run
