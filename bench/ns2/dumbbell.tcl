# Copied verbatim (below this header) from the project's shared bench/ns2/dumbbell.tcl;
# kept here so CI clones have it. Used by bench/run.py (B1, B2) and validation/ns2 (case B1).
# ns-2 reference for benchmark B1/B2: N bulk TCP flows over one RED or DropTail bottleneck.
# usage: ns dumbbell.tcl N SECONDS TCP(Newreno|Reno|Vegas|Sack1) QUEUE(RED|DropTail) BOTTLENECK(100Mb|1Gb) [ACCESS [TRACEFILE]]
# ACCESS (optional, default 1Gb) is the access links' rate; bench/curves.py sets it above
# bottleneck rates of 1Gb and more. TRACEFILE (optional, for issue 22's trace cost in
# bench/trace_cost.py): `$ns trace-all` to that file, every link, as tcpsim's
# [trace] ns2 = "all" writes it.
set n [lindex $argv 0]; set T [lindex $argv 1]; set tcp [lindex $argv 2]; set qtype [lindex $argv 3]
set bw [lindex $argv 4]; set qlen 250
set access [expr {[llength $argv] > 5 ? [lindex $argv 5] : "1Gb"}]
set ns [new Simulator]
if {[llength $argv] > 6} { set tracefile [open [lindex $argv 6] w]; $ns trace-all $tracefile }
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
for {set i 0} {$i < $n} {incr i} {
  set s($i) [$ns node]; set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 $access 1ms DropTail
  $ns duplex-link $r2 $d($i) $access 1ms DropTail
  $ns queue-limit $s($i) $r1 100000
  set src($i) [new Agent/TCP/$tcp]; set snk($i) [new Agent/TCPSink]
  $ns attach-agent $s($i) $src($i); $ns attach-agent $d($i) $snk($i); $ns connect $src($i) $snk($i)
  set ftp($i) [new Application/FTP]; $ftp($i) attach-agent $src($i)
  $ns at [expr 0.1*$i/$n] "$ftp($i) start"
}
proc finish {} { global n snk T tcp qtype; set tot 0; set s1 0; set s2 0
  for {set i 0} {$i < $n} {incr i} { set b [expr [$snk($i) set bytes_]*8.0/$T/1e6]; set tot [expr $tot+$b]; set s2 [expr $s2+$b*$b] }
  global tracefile; if {[info exists tracefile]} { close $tracefile }
  puts "ns2 tcp=$tcp n=$n queue=$qtype goodput_mbps=$tot jain=[expr $tot*$tot/($n*$s2)]"; exit 0 }
$ns at $T "finish"
$ns run
