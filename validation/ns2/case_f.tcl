# Differential case F: packet-mode RED with eight NewReno flows and one CBR/UDP flow.
# Twin of validation/ns2/case_f.toml.
#
#   s0..s8 --100Mb/2ms-- r1 ==10Mb/20ms, RED== r2 --100Mb/2ms-- d0..d8
#
# Queue/RED in packet mode: queue_in_bytes_ false, bytes_ false, thresh_ 10,
# maxthresh_ 30, q_weight_ 0.002, linterm_ 10 (max_p 0.1), gentle_ true, limit 100
# packets on r1->r2; ns-2.35 defaults otherwise (wait_ true, use_mark_p_ true,
# setbit_ false, mean_pktsize_ 500, which only sets the idle-time correction rate).
# duplex-link makes r2->r1 a RED queue too (same settings, limit_ 50); ACKs never build
# a queue there, so it never reaches thresh_ and never draws a random number.
# Access links DropTail, limit_ 50.
# Flows 0..7: Agent/TCP/Newreno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the
# wire), window_ 1000, windowInit_ 2; flow i starts at 0.1*i s.
# Flow 8: Application/Traffic/CBR over Agent/UDP, 1000-byte packets at 2 Mb/s (one every
# 4 ms), random_ 0, from t = 0, received by an Agent/LossMonitor.
#
# usage: ns case_f.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2
Queue/RED set queue_in_bytes_ false
Queue/RED set bytes_ false
Queue/RED set thresh_ 10
Queue/RED set maxthresh_ 30
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
Queue/RED set gentle_ true

set n 8
newreno_dumbbell $ns $n 10Mb 20ms RED 100 0.1 [expr {$n + 1}]   ;# one more pair for the CBR flow
set lm [cbr_flow $ns $s($n) $d($n) 2Mb]

proc finish {} {
    global ns n lm
    report_flows $n
    report_cbr 0 $lm
    finish_run $ns F
}
$ns at $T "finish"
$ns run
