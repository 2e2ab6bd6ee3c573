# Diagnostic twin of bench/ns2/dumbbell.tcl (same network, same ns-2.35 defaults) that
# also prints per-flow counters and the bottleneck queue's counters, for investigating
# differences with tcpsim. The differential test itself uses bench/ns2/dumbbell.tcl.
# Monitors use no random numbers, so the run is the same as dumbbell.tcl's.
#
# usage: ns dumbbell_stats.tcl N SECONDS TCP QUEUE BOTTLENECK
# prints: "flow i bytes=.. data_pkts=.. rexmit_pkts=.. timeouts=.. cwnd_cuts=.. cwnd=.." per flow
#         (cwnd_cuts = ncwndcuts1_: fast retransmits + timeouts with data outstanding),
#         "queue r1->r2 arrivals=.. departures=.. drops=.. early_drops=.." and the
#         dumbbell.tcl summary line.
set n [lindex $argv 0]; set T [lindex $argv 1]; set tcp [lindex $argv 2]; set qtype [lindex $argv 3]
set bw [lindex $argv 4]; set qlen 250
set ns [new Simulator]
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100000
Agent/TCP set windowInit_ 2
Queue/RED set thresh_ [expr $qlen/5]
Queue/RED set maxthresh_ [expr 3*$qlen/5]
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $r1 $r2 $bw 10ms $qtype
$ns queue-limit $r1 $r2 $qlen
# bottleneck monitor with early-drop accounting (as Simulator attach-fmon does)
set bl [$ns link $r1 $r2]
set qm [new QueueMonitor/ED]
$bl attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm
if {$qtype == "RED"} {
  set eds [new SnoopQueue/EDrop]; $eds set-monitor $qm
  [$bl queue] early-drop-target $eds; $eds target [$ns set nullAgent_]
}
for {set i 0} {$i < $n} {incr i} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 1Gb 1ms DropTail
  $ns duplex-link $r2 $d($i) 1Gb 1ms DropTail
  $ns queue-limit $s($i) $r1 100000
  set src($i) [new Agent/TCP/$tcp]; set snk($i) [new Agent/TCPSink]
  $ns attach-agent $s($i) $src($i); $ns attach-agent $d($i) $snk($i); $ns connect $src($i) $snk($i)
  set ftp($i) [new Application/FTP]; $ftp($i) attach-agent $src($i)
  $ns at [expr 0.1*$i/$n] "$ftp($i) start"
}
proc finish {} { global n snk src T tcp qtype qm; set tot 0; set s1 0; set s2 0
  for {set i 0} {$i < $n} {incr i} {
    puts "flow $i bytes=[$snk($i) set bytes_] data_pkts=[$src($i) set ndatapack_] rexmit_pkts=[$src($i) set nrexmitpack_] timeouts=[$src($i) set nrexmit_] cwnd_cuts=[$src($i) set ncwndcuts1_] cwnd=[$src($i) set cwnd_]"
    set b [expr [$snk($i) set bytes_]*8.0/$T/1e6]; set tot [expr $tot+$b]; set s2 [expr $s2+$b*$b] }
  puts "queue r1->r2 arrivals=[$qm set parrivals_] departures=[$qm set pdepartures_] drops=[$qm set pdrops_] early_drops=[$qm set epdrops_]"
  puts "ns2 tcp=$tcp n=$n queue=$qtype goodput_mbps=$tot jain=[expr $tot*$tot/($n*$s2)]"; exit 0 }
$ns at $T "finish"
$ns run
