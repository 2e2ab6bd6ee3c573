# Differential case ECN: eight ECN-capable NewReno flows through a marking RED queue.
# Twin of validation/ns2/case_ecn.toml.
#
#   s0..s7 --100Mb/2ms-- r1 ==10Mb/20ms, RED setbit_== r2 --100Mb/2ms-- d0..d7
#
# Queue/RED as case F (packet mode: queue_in_bytes_ false, bytes_ false, thresh_ 10,
# maxthresh_ 30, q_weight_ 0.002, linterm_ 10, gentle_ true, limit 100 on r1->r2) with
# setbit_ true: an early decision marks an ECT packet (CE) instead of dropping it while
# p_b < mark_p_ (use_mark_p_ true, mark_p_ 0.1, the defaults), i.e. while the average is
# below maxthresh_; above it, and for packets without ECT (the SYN, ACKs), RED drops.
# duplex-link makes r2->r1 a RED queue too (limit_ 50); ACKs never queue there.
# Access links DropTail, limit_ 50.
# Flows: Agent/TCP/Newreno with ecn_ 1 -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B
# on the wire), window_ 1000, windowInit_ 2; flow i starts at 0.1*i s. ns-2.35 defaults
# otherwise (SetCWRonRetransmit_ true, old_ecn_ 0; TCPSink ecn_syn_ false).
#
# usage: ns case_ecn.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2
Agent/TCP set ecn_ 1
Queue/RED set queue_in_bytes_ false
Queue/RED set bytes_ false
Queue/RED set thresh_ 10
Queue/RED set maxthresh_ 30
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
Queue/RED set gentle_ true
Queue/RED set setbit_ true

set n 8
newreno_dumbbell $ns $n 10Mb 20ms RED 100 0.1

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns ECN
}
$ns at $T "finish"
$ns run
