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
dumbbell_routers $ns 10Mb 10ms DropTail
monitor_link $ns $r1 $r2 r1->r2
monitor_link $ns $r2 $r1 r2->r1
dumbbell_pairs $ns $n 5ms 1ms
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $s($i) $d($i) 0.0] src($i) snk($i)
}

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns I
}
$ns at $T "finish"
$ns run
