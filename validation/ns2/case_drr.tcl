# Differential case DRR: deficit round robin with TCP flows of different RTTs and an
# aggressive CBR flow. Twin of validation/ns2/case_drr.toml.
#
#   s0..s4 --100Mb / 1,5,12,25,1 ms-- r1 --10Mb/10ms, DRR-- r2 --100Mb/1ms-- d0..d4
#
# Queue/DRR on both directions of r1-r2 (duplex-link): blimit_ 52000 bytes (50 packets
# of 1040 B), ns-2.35 defaults otherwise: quantum_ 250, buckets_ 10, mask_ 0.
# DRR::hash classifies by IP source address (the sending node), not by fid_: node ids
# are r1 0, r2 1, s(i) 2+2i, d(i) 3+2i, which hash into buckets 2, 4, 6, 8, 0 (data) and
# 3, 5, 7, 9 (ACKs), so no two senders share a bucket (ns-2 would print "Collisions").
# fid_ is set to the flow index anyway, for the flow monitor on r1->r2.
# Flows 0..3: Agent/TCP/Newreno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the
# wire), window_ 1000, windowInit_ 2; flow i starts at 0.1*i s.
# Flow 4: Application/Traffic/CBR over Agent/UDP, 1000-byte packets at 6 Mb/s (three
# times its fair share of 2 Mb/s), random_ 0, from t = 0, to an Agent/LossMonitor.
# Access links DropTail, limit_ 50.
#
# usage: ns case_drr.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2
Queue/DRR set blimit_ 52000

set n 4
set delays {1ms 5ms 12ms 25ms 1ms}
dumbbell_routers $ns 10Mb 10ms DRR
monitor_link_flows $ns $r1 $r2 r1->r2
monitor_link $ns $r2 $r1 r2->r1
dumbbell_pairs $ns [expr {$n + 1}] $delays 1ms
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $s($i) $d($i) [expr 0.1*$i]] src($i) snk($i)
    $src($i) set fid_ $i
}
set lm [cbr_flow $ns $s($n) $d($n) 6Mb $n]

proc finish {} {
    global ns n lm
    report_flows $n
    report_cbr 0 $lm
    report_fid_flows
    finish_run $ns DRR
}
$ns at $T "finish"
$ns run
