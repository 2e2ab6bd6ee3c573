# Differential case H: routing over two paths of equal hop count. Twin of
# validation/ns2/case_h.toml.
#
#                 .--10Mb/5ms-- p --10Mb/5ms--.
#   s0, s1 -- r1 <                             > r2 -- d0, d1
#                 '--5Mb/15ms-- q --5Mb/15ms--'
#
# Node ids (creation order): r1 0, r2 1, p 2, q 3, s0 4, d0 5, s1 6, d1 7. ns-2's static
# routing (route.cc RouteLogic::compute_routes, unit costs) gives each node the route of
# its lowest-id neighbour one hop closer to the origin, so r1 -> r2 and r2 -> r1 both go
# through p (2 < 3): data and ACKs take the fast path. The twin declares its links in an
# order (r1-q, p-r2, r1-p, q-r2) in which tcpsim's former rule (first link declared wins)
# sent the data through q and the ACKs through p.
#
# Two Agent/TCP/Newreno -> Agent/TCPSink flows, FTP, packetSize_ 1000 (1040 B on the
# wire), window_ 1000, windowInit_ 2; flow i starts at 0.3*i s. r1->p and r1->q are
# DropTail 20; every other queue keeps ns-2's default limit_ 50. Access delays are off
# round multiples so the two flows' packets do not tie.
#
# usage: ns case_h.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 30.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2

set r1 [$ns node]; set r2 [$ns node]; set p [$ns node]; set q [$ns node]
$ns duplex-link $r1 $p 10Mb 5ms DropTail
$ns duplex-link $p $r2 10Mb 5ms DropTail
$ns duplex-link $r1 $q 5Mb 15ms DropTail
$ns duplex-link $q $r2 5Mb 15ms DropTail
$ns queue-limit $r1 $p 20
$ns queue-limit $r1 $q 20
foreach {a b name} [list $r1 $p r1->p $r1 $q r1->q $r2 $p r2->p $r2 $q r2->q] {
    monitor_link $ns $a $b $name
}

set n 2
set delays {1.013ms 2.371ms}
dumbbell_pairs $ns $n $delays 1ms
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $s($i) $d($i) [expr 0.3*$i]] src($i) snk($i)
}

proc finish {} {
    global ns n
    report_flows $n
    finish_run $ns H
}
$ns at $T "finish"
$ns run
