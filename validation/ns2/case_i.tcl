# Differential case I: a symmetric dumbbell, where only the order of simultaneous events
# tells the flows apart. Twin of validation/ns2/case_i.toml.
#
#   s0..s3 --100Mb/5ms-- r1 --10Mb/10ms, DropTail 50-- r2 --100Mb/1ms-- d0..d3
#
# Four Agent/TCP/Newreno -> Agent/TCPSink flows with the same round-trip time (32 ms), all
# started by `$ns at 0.0 "$ftp start"` in flow order. The scheduler runs events of equal
# time first in, first out, so the SYNs leave, and every later tie breaks, in that order;
# the flow started first ends with the most packets. Starting the flows in the reverse
# order permutes the per-flow counts exactly (17821 17932 17955 17971 instead of 17971
# 17955 17932 17821 over 60 s).
#
# packetSize_ 1000 (1040 B on the wire), window_ 1000, windowInit_ 2; every queue keeps
# ns-2's default limit_ 50.
#
# usage: ns case_i.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2

set n 4
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 10ms DropTail
monitor_link $ns $r1 $r2 r1->r2
monitor_link $ns $r2 $r1 r2->r1
for {set i 0} {$i < $n} {incr i} {
    set s($i) [$ns node]; set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb 5ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
    set src($i) [new Agent/TCP/Newreno]; set snk($i) [new Agent/TCPSink]
    $ns attach-agent $s($i) $src($i); $ns attach-agent $d($i) $snk($i)
    $ns connect $src($i) $snk($i)
    set ftp($i) [new Application/FTP]; $ftp($i) attach-agent $src($i)
    $ns at 0.0 "$ftp($i) start"
}

proc finish {} {
    global ns n src snk
    for {set i 0} {$i < $n} {incr i} { report_tcp $i $src($i) $snk($i) }
    finish_run $ns I
}
$ns at $T "finish"
$ns run
