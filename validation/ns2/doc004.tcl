# The ns-2.35 twin of reference document 004's reconstructed experiments
# (experiments/004/*.toml): the same 22-node dumbbell, queues, flows and agents, so that
# ns-2 itself can say whether a miss of `tcpsim reproduce 004` comes from the
# reconstruction (ns-2 misses it too) or from tcpsim (ns-2 does not).
#
#   s0..s9 --100Mb/2ms (Part 2/3: 2.0-2.4 ms)-- r1 ==5Mb/15ms, 10 packets== r2 --100Mb/2ms-- d0..d9
#
# usage: ns doc004.tcl KEY=VALUE ...
#   part=p1|p2            p1: one TCP flow s0->d0 and a UDP/CBR flow s1->d1 (210-byte
#                         packets, random_ 0); p2: five TCP flows s(i)->d(i), i = 0..4
#   variant=tahoe|vegas|sack|fack
#                         Agent/TCP, Agent/TCP/Vegas, Agent/TCP/Sack1, Agent/TCP/Fack;
#                         Sack and Fack with Agent/TCPSink/Sack1, the others Agent/TCPSink
#   queue=droptail|red|red25|red50|red_ns235|management_n
#                         the r1->r2 queue, limit_ 10: DropTail; RED thresh_ 5,
#                         maxthresh_ 15 (red), 2.5/10 (red25), 5/10 (red50), q_weight_
#                         0.002, linterm_ 10, gentle_, packet mode; red_ns235 is Queue/RED
#                         at ns-2.35's own defaults (automatic thresholds and weight, byte
#                         mode); management_n is DropTail with limit_ 11 (n packets wait
#                         besides the one sent)
#   cbr=RATE (p1; 0.5Mb or 0.5Mbps)   window=PACKETS (window_, default 100)
#   T=SECONDS (default 100)     seed=N (default 1)     trace=FILE (trace-all; optional)
#   sample=SECONDS          print flow 0's cwnd and the r1->r2 queue at this interval
#   delay=TIME (bottleneck, default 15ms)   access=TIME (access links, default 2ms; p2's
#                         five sources get access + 0, 1, 2, 3, 4 x step)   step=MS (default 0.1)
#
# Every other setting is ns-2.35's default (packetSize_ 1000, every-packet sinks, the
# r2->r1 queue DropTail limit_ 10, access queues limit_ 50). Output: lib.tcl's report.
source [file join [file dirname [info script]] lib.tcl]

array set opt {part p1 variant sack queue droptail cbr 0.5Mb window 100 T 100 seed 1 trace "" sample 0 delay 15ms access 2ms step 0.1}
parse_keyword_args doc004.tcl opt
set opt(cbr) [string map {bps b} $opt(cbr)]   ;# tcpsim's "0.5Mbps" is ns-2's "0.5Mb"

set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ $opt(window)

switch $opt(variant) {
    tahoe { set sender Agent/TCP;       set receiver Agent/TCPSink }
    vegas { set sender Agent/TCP/Vegas; set receiver Agent/TCPSink }
    sack  { set sender Agent/TCP/Sack1; set receiver Agent/TCPSink/Sack1 }
    fack  { set sender Agent/TCP/Fack;  set receiver Agent/TCPSink/Sack1 }
    default { puts stderr "doc004.tcl: variant must be tahoe, vegas, sack or fack"; exit 2 }
}

# The routers and the bottleneck: r1->r2 with the chosen queue, r2->r1 DropTail; both 10.
set r1 [$ns node]; set r2 [$ns node]
set limit 10
switch $opt(queue) {
    droptail     { set qclass DropTail }
    management_n { set qclass DropTail; set limit 11 }
    red          { set qclass RED; set th 5;   set maxth 15 }
    red25        { set qclass RED; set th 2.5; set maxth 10 }
    red50        { set qclass RED; set th 5;   set maxth 10 }
    red_ns235    { set qclass RED }
    default { puts stderr "doc004.tcl: queue must be droptail, red, red25, red50 or management_n"; exit 2 }
}
if {$qclass == "RED" && $opt(queue) != "red_ns235"} {
    Queue/RED set thresh_ $th
    Queue/RED set maxthresh_ $maxth
    Queue/RED set q_weight_ 0.002
    Queue/RED set linterm_ 10
    Queue/RED set gentle_ true
    Queue/RED set queue_in_bytes_ false
    Queue/RED set bytes_ false
    Queue/RED set mean_pktsize_ 500
}
$ns simplex-link $r1 $r2 5Mb $opt(delay) $qclass
$ns simplex-link $r2 $r1 5Mb $opt(delay) DropTail
$ns queue-limit $r1 $r2 $limit
$ns queue-limit $r2 $r1 10
set bottleneck [monitor_link $ns $r1 $r2 r1->r2]
monitor_link $ns $r2 $r1 r2->r1

# Ten host pairs (s(i), d(i)); Parts 2 and 3 give the five sources almost equal delays.
# (access + 0, 1, 2, 3, 4 x step: 2.0-2.4 ms by default).
if {![regexp {^([0-9.]+)ms$} $opt(access) -> access_ms]} {
    puts stderr "doc004.tcl: access must be a time in ms, such as 2ms"; exit 2
}
set delays $opt(access)
if {$opt(part) == "p2"} {
    set delays {}
    for {set i 0} {$i < 10} {incr i} { lappend delays [expr {$access_ms + ($i < 5 ? $opt(step) * $i : 0)}]ms }
}
dumbbell_pairs $ns 10 $delays $opt(access)

if {$opt(part) == "p1"} {
    lassign [ftp_flow $ns $sender $receiver $s(0) $d(0) 0.0] src(0) snk(0)
    $src(0) set fid_ 0
    set lm [cbr_flow $ns $s(1) $d(1) $opt(cbr) 1 210]
    set nflows 1
} else {
    for {set i 0} {$i < 5} {incr i} {
        lassign [ftp_flow $ns $sender $receiver $s($i) $d($i) 0.0] src($i) snk($i)
        $src($i) set fid_ $i
    }
    set nflows 5
}
if {$opt(sample) > 0} { sample_every $ns $opt(sample) $src(0) $bottleneck }

proc finish {} {
    global ns nflows opt lm
    report_flows $nflows
    if {$opt(part) == "p1"} { report_cbr 0 $lm }
    finish_run $ns "doc004 [join [lmap k {part variant queue cbr window} {string cat $k=$opt($k)}]]"
}
$ns at $T "finish"
$ns run
