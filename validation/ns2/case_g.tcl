# Differential case G: applications that start and stop. Five TCP flows (Reno and
# NewReno), each on its own path, start at different times and are stopped with
# Application/FTP `stop` at chosen moments. Twin of validation/ns2/case_g.toml.
#
#   s_i --100Mb/1ms-- a_i --RATE_i/DELAY_i, DropTail LIMIT_i-- b_i --100Mb/1ms-- d_i
#
# The flows share no link: with a shared DropTail bottleneck the per-flow shares depend
# on how exactly simultaneous events are ordered (see README.md, "Tied events"), which
# would hide the effect of the stop rule. Each path alone is deterministic, so the stop
# moments can be picked from the trajectory (ns-2 seed 1, times in seconds):
#
#   flow  agent    start  stop    state of the sender at the stop
#   0     Reno     0.0    6.7665  fast recovery (dupacks_ >= 3)
#   1     Newreno  0.7    1.33    go-back-N after a timeout (t_seqno_ <= maxseq_)
#   2     Newreno  1.9    5.2725  fast recovery
#   3     Reno     3.1    4.0     go-back-N after a timeout
#   4     Newreno  4.4    12.2    large window (about 45 packets), no loss
#
# FTP `stop` is `$agent advance 0` (then `close`, a no-op for one-way TCP); TcpAgent's
# `advance` sets curseq_ to maxseq_ when 0 <= maxseq_ (tcp.cc, TcpAgent::command).
# Each flow prints its sender state just before the stop ("stop I t=.. cwnd=.. ack=..
# maxseq=.. t_seqno=.. dupacks=.. timeouts=..") and curseq_ (seqno_) after it.
#
# Agent/TCP packetSize_ 1000 (1040 B on the wire), window_ 1000, windowInit_ 2;
# Agent/TCPSink; delays chosen off round multiples so that no two paths tie.
#
# usage: ns case_g.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 15.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 2

set n 5
set kinds  {Reno Newreno Newreno Reno Newreno}
set rates  {10Mb 5Mb 10Mb 4Mb 8Mb}
set delays {10.013ms 15.137ms 7.271ms 20.829ms 12.103ms}
set limits {20 15 8 25 20}
set starts {0.0 0.7 1.9 3.1 4.4}
set stops  {6.7665 1.33 5.2725 4.0 12.2}

proc stop_flow {i} {
    global ns src ftp
    set s $src($i)
    puts "stop $i t=[$ns now] cwnd=[$s set cwnd_] ack=[$s set ack_] maxseq=[$s set maxseq_] t_seqno=[$s set t_seqno_] dupacks=[$s set dupacks_] timeouts=[$s set nrexmit_]"
    $ftp($i) stop
    puts "stopped $i curseq=[$s set seqno_]"
}

for {set i 0} {$i < $n} {incr i} {
    set s($i) [$ns node]; set a($i) [$ns node]; set b($i) [$ns node]; set d($i) [$ns node]
    $ns duplex-link $s($i) $a($i) 100Mb 1ms DropTail
    $ns duplex-link $a($i) $b($i) [lindex $rates $i] [lindex $delays $i] DropTail
    $ns duplex-link $b($i) $d($i) 100Mb 1ms DropTail
    $ns queue-limit $a($i) $b($i) [lindex $limits $i]
    monitor_link $ns $a($i) $b($i) "a$i->b$i"
    set src($i) [new Agent/TCP/[lindex $kinds $i]]; set snk($i) [new Agent/TCPSink]
    $ns attach-agent $s($i) $src($i); $ns attach-agent $d($i) $snk($i)
    $ns connect $src($i) $snk($i)
    set ftp($i) [new Application/FTP]; $ftp($i) attach-agent $src($i)
    $ns at [lindex $starts $i] "$ftp($i) start"
    $ns at [lindex $stops $i] "stop_flow $i"
}

proc finish {} {
    global ns n src snk
    for {set i 0} {$i < $n} {incr i} { report_tcp $i $src($i) $snk($i) }
    finish_run $ns G
}
$ns at $T "finish"
$ns run
