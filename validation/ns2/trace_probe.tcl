# ns-2 trace-format probe: the lines the tests of
# crates/tcpsim/src/monitor/trace/ns2.rs and crates/tcpsim/tests/trace_formats.rs copy.
#
#   n0 (Reno, ECN) --10Mb/2ms--+
#                              n2 --1.5Mb/20ms, RED 15 pkts, setbit_-- n3 (TCPSink, Null)
#   n1 (CBR 1Mb/s, 500 B) ----+
#
# One Reno flow (fid 1, ECN on: an ECN-setup SYN, ECT data, CE marks, CWR, ECN-Echo ACKs)
# and one CBR flow (fid 2, started at 12.3 us to show the time rounding), both for 3 s.
#
# usage: ns trace_probe.tcl [TRACEFILE]     (default out.tr)
set trace_file out.tr
if {$argc >= 1} { set trace_file [lindex $argv 0] }
set ns [new Simulator]
set tf [open $trace_file w]
$ns trace-all $tf
Queue/RED set setbit_ true
Agent/TCP set ecn_ 1

set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 2ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 20ms RED
$ns queue-limit $n2 $n3 15

set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 500
$cbr set rate_ 1Mb

$ns at 0.1 "$ftp start"
$ns at 0.0000123 "$cbr start"
$ns at 3.0 "$cbr stop"
$ns at 3.0 "$ftp stop"
$ns at 3.1 "close $tf; exit 0"
$ns run
