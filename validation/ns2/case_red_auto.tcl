# Differential case RED-AUTO: Queue/RED at ns-2.35's defaults, thresholds and queue
# weight computed from the link. Twin of validation/ns2/case_red_auto.toml.
#
#   s0..s7 --100Mb/2ms-- r1 ==20Mb/40ms, RED== r2 --100Mb/2ms-- d0..d7
#
# Queue/RED is left at every ns-2.35 default: thresh_ 0, maxthresh_ 0, q_weight_ -1,
# targetdelay_ 0.005 (automatic: REDQueue::initialize_params, when duplex-link attaches
# the queue to its link), queue_in_bytes_ true, bytes_ true, mean_pktsize_ 500,
# linterm_ 10, gentle_ true, wait_ true, use_mark_p_ true, setbit_ false. Only the limit
# is set: queue-limit r1->r2 100 (byte mode: 100 x 500 = 50000 bytes); r2->r1 (RED too,
# as duplex-link builds it) keeps limit_ 50. On 20 Mb/s / 40 ms, with ptc = 20e6 / (8 x
# 500) = 5000 packets/s:
#   thresh_    = max(5, 0.005 x 5000 / 2)              = 12.5 packets (6250 bytes)
#   maxthresh_ = 3 x thresh_                            = 37.5 packets (18750 bytes)
#   q_weight_  = 1 - exp(-1 / (10 x rtt x 5000)), rtt = 3 x (0.04 + 1/5000) = 0.1206 s
# The script prints them ("red r1->r2 ..."), as ns-2 wrote them back, once the run has
# started. Access links DropTail, limit_ 50.
# Flows 0..7: Agent/TCP/Newreno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the
# wire), window_ 1000, windowInit_ 2; flow i starts at 0.1*i s.
#
# usage: ns case_red_auto.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2

set n 8
newreno_dumbbell $ns $n 20Mb 40ms RED 100 0.1

proc report_red {name q} {
    set line "red $name"
    foreach var {thresh_ maxthresh_ q_weight_ thresh_queue_ maxthresh_queue_} {
        append line " $var=[$q set $var]"
    }
    puts $line
}
$ns at 0.0 [list report_red r1->r2 [[$ns link $r1 $r2] queue]]

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns RED-AUTO
}
$ns at $T "finish"
$ns run
