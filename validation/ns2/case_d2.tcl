# Differential case D2: RTT unfairness. Four NewReno flows with different access delays
# share a DropTail bottleneck. Twin of validation/ns2/case_d2.toml.
#
#   s0..s3 --100Mb / 1,5,12,25 ms-- r1 --10Mb/10ms, DropTail 50-- r2 --100Mb/1ms-- d0..d3
#
# Round-trip propagation delays 24, 32, 46 and 72 ms. Agent/TCP/Newreno -> Agent/TCPSink,
# FTP, packetSize_ 1000 (1040 B on the wire), window_ 1000 (never limits), windowInit_ 2;
# flow i starts at 0.1*i s. Every queue keeps ns-2's default limit_ 50.
#
# The only random draws are the agents' boot_time_ (clock phase), yet they change the
# per-flow shares by a few per cent (DropTail phase effects), so the harness runs this
# script with several seeds (second argument) and compares means.
#
# usage: ns case_d2.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 120.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2

set n 4
set delays {1ms 5ms 12ms 25ms}
dumbbell_routers $ns 10Mb 10ms DropTail
monitor_link $ns $r1 $r2 r1->r2
monitor_link $ns $r2 $r1 r2->r1
dumbbell_pairs $ns $n $delays 1ms
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $s($i) $d($i) [expr 0.1*$i]] src($i) snk($i)
}

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns D2
}
$ns at $T "finish"
$ns run
