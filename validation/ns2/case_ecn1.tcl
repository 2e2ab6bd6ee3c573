# Differential case ECN1: forty ECN-capable NewReno flows whose windows hover around one
# packet, so that ECN responses often find cwnd <= 1 (cwnd falls to 0.5 and the flow
# waits for its retransmission timer, backed off at the second such echo; ns-2
# TcpAgent::ecn, newtimer, timeout). Twin of validation/ns2/case_ecn1.toml.
#
#   s0..s39 --100Mb/2ms-- r1 ==1.5Mb/20ms, RED setbit_== r2 --100Mb/2ms-- d0..d39
#
# Path: about 9 packets in flight plus a RED queue of 5-15: under one packet per flow.
# Queue/RED packet mode (queue_in_bytes_ false, bytes_ false), thresh_ 5, maxthresh_ 15,
# q_weight_ 0.002, linterm_ 10, gentle_ true, limit 50 on r1->r2, setbit_ true and
# mark_p_ 1.0 (use_mark_p_ true): ECT packets are marked, not dropped, up to an average
# of 2 * maxthresh_. r2->r1 is RED too (limit_ 50); ACKs never queue there. Access links
# DropTail, limit_ 50.
# Flows: Agent/TCP/Newreno with ecn_ 1 -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B
# on the wire), window_ 1000, windowInit_ 2; flow i starts at 0.02*i s.
#
# usage: ns case_ecn1.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
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
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
Queue/RED set gentle_ true
Queue/RED set setbit_ true
Queue/RED set mark_p_ 1.0

set n 40
newreno_dumbbell $ns $n 1.5Mb 20ms RED 50 0.02

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns ECN1
}
$ns at $T "finish"
$ns run
