# The ns-2.35 twin of reference document 003's experiments (experiments/003/*.toml;
# Zhang & Tsaoussidis, NOSSDAV 2003): the same dumbbell, queues, agents and sinks, so
# that ns-2 itself can say whether a miss of `tcpsim reproduce 003` comes from the
# reconstruction (ns-2 misses it too) or from tcpsim (ns-2 does not).
#
#   s(i) --100Mb/5ms-- r1 ==RATE/30ms, BUFFER packets== r2 --100Mb/5ms-- d(i),  i = 0..FLOWS-1
#
# usage: ns doc003.tcl KEY=VALUE ...
#   flows=N               bulk flows s(i) -> d(i) (default 10)
#   rate=RATE             the bottleneck (10Mb or 10Mbps); default FLOWS x 1 Mb (E1's fair share)
#   buffer=PACKETS        the r1->r2 limit_; default 10 x FLOWS (80 ms x RATE in 1000-byte packets)
#   variant=reno|gaimd|vegas|tfrc
#                         Agent/TCP/Reno; Agent/TCP/Reno with increase_num_ 0.31 and
#                         decrease_num_ 0.875 (TCP(0.31, 0.875), as case_gaimd.tcl);
#                         Agent/TCP/Vegas, each TCP sink an Agent/TCPSink/DelAck; or
#                         Agent/TFRC -> Agent/TFRCSink, all at their defaults (as
#                         case_tfrc.tcl: 1000-byte packets plus a 32-byte header)
#   queue=droptail|red    the r1->r2 queue; RED: thresh_ BUFFER/6, maxthresh_ BUFFER/2,
#                         q_weight_ 0.002, linterm_ 10, gentle_, packet mode, mean_pktsize_ 1000
#   starts=uniform|zero   each flow starts at a uniform draw from [0, start_window) s (an
#                         RNG seeded with seed=), or all at 0 s
#   start_window=S        the end of the uniform starts' interval, seconds (default 1)
#   delays=fixed|uniform  the sources' access delays: 5 ms, or d(i) = 5 + 10 x(i+1)/M ms
#                         (to 1 us; x(0) = 1, x(k+1) = 16807 x(k) mod M, M = 2^31 - 1: the
#                         minimal standard generator, the draws experiments/003/e4 lists)
#   blackout=START:END    the r2-d0 link loses every packet, both ways, from START to END s
#                         (an ErrorModel per direction, as case_j.tcl); default none
#   sample=SECONDS        print the sinks' bytes_ and the r1->r2 queue at this interval
#   window=PACKETS (window_, default 1000)
#   T=SECONDS (default 100)     seed=N (default 1)     trace=FILE (trace-all; optional)
#
# Every other setting is ns-2.35's default (packetSize_ 1000 + 40-byte header, windowInit_
# 2, DelAck interval_ 100 ms). Queue limits: r2->r1 10000, access links 1000 both ways,
# so only r1->r2 queues. Output: lib.tcl's report, and per sample
#   start I t=..                       each flow's start time (once)
#   sinks t=.. bytes=B0,B1,..          each sink's bytes_: a TCPSink's wire bytes in order, SYN
#                                      included; a TFRCSink's wire bytes of the data packets
#                                      received (TFRC retransmits nothing)
#   qlen t=.. pkts=..                  packets waiting in r1->r2
source [file join [file dirname [info script]] lib.tcl]

array set opt {flows 10 rate "" buffer "" variant reno queue droptail starts uniform start_window 1
               delays fixed blackout "" sample 0 window 1000 T 100 seed 1 trace ""}
parse_keyword_args doc003.tcl opt
if {$opt(rate) eq ""} { set opt(rate) [expr {$opt(flows)}]Mb }
if {$opt(buffer) eq ""} { set opt(buffer) [expr {10 * $opt(flows)}] }
set opt(rate) [string map {bps b} $opt(rate)]   ;# tcpsim's "10Mbps" is ns-2's "10Mb"

set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ $opt(window)

switch $opt(variant) {
    reno  { set sender Agent/TCP/Reno }
    gaimd { set sender Agent/TCP/Reno }
    vegas { set sender Agent/TCP/Vegas }
    tfrc  { set sender Agent/TFRC }
    default { puts stderr "doc003.tcl: variant must be reno, gaimd, vegas or tfrc"; exit 2 }
}
switch $opt(queue) {
    droptail { set qclass DropTail }
    red {
        set qclass RED
        Queue/RED set thresh_ [expr {$opt(buffer) / 6.0}]
        Queue/RED set maxthresh_ [expr {$opt(buffer) / 2.0}]
        Queue/RED set q_weight_ 0.002
        Queue/RED set linterm_ 10
        Queue/RED set gentle_ true
        Queue/RED set queue_in_bytes_ false
        Queue/RED set bytes_ false
        Queue/RED set mean_pktsize_ 1000
    }
    default { puts stderr "doc003.tcl: queue must be droptail or red"; exit 2 }
}

# The routers and the bottleneck (30 ms, Sect. 4.1): r1->r2 with the chosen queue.
set r1 [$ns node]; set r2 [$ns node]
$ns simplex-link $r1 $r2 $opt(rate) 30ms $qclass
$ns simplex-link $r2 $r1 $opt(rate) 30ms DropTail
$ns queue-limit $r1 $r2 $opt(buffer)
$ns queue-limit $r2 $r1 10000
set bottleneck [monitor_link $ns $r1 $r2 r1->r2]
monitor_link $ns $r2 $r1 r2->r1

# The sources' access delays: 5 ms, or the minimal standard generator's draws.
proc access_delays {n kind} {
    if {$kind eq "fixed"} { return 5ms }
    if {$kind ne "uniform"} { puts stderr "doc003.tcl: delays must be fixed or uniform"; exit 2 }
    set m 2147483647; set x 1; set out {}
    for {set i 0} {$i < $n} {incr i} {
        set x [expr {16807 * $x % $m}]
        lappend out [format %.3fms [expr {5 + 10.0 * $x / $m}]]
    }
    return $out
}
dumbbell_pairs $ns $opt(flows) [access_delays $opt(flows) $opt(delays)] 5ms
for {set i 0} {$i < $opt(flows)} {incr i} {
    foreach {a b} [list $s($i) $r1 $r1 $s($i) $r2 $d($i) $d($i) $r2] { $ns queue-limit $a $b 1000 }
}

if {$opt(blackout) ne ""} {
    lassign [split $opt(blackout) :] from to
    foreach {a b} [list $r2 $d(0) $d(0) $r2] {
        set em [new ErrorModel]
        $em unit pkt
        $em set rate_ 0.0
        $em drop-target [new Agent/Null]
        $ns lossmodel $em $a $b
        $ns at $from "$em set rate_ 1.0"
        $ns at $to "$em set rate_ 0.0"
    }
}

# A TFRC flow sends on its own (no application), from START s.
proc tfrc_flow {ns from to start} {
    set tfrc [new Agent/TFRC]; set sink [new Agent/TFRCSink]
    $ns attach-agent $from $tfrc; $ns attach-agent $to $sink
    $ns connect $tfrc $sink
    $ns at $start "$tfrc start"
    return [list $tfrc $sink]
}

# lib.tcl's flow line for a TFRC flow: the TFRCSink's bytes_ and the sender's data
# packets, with the sizes that turn bytes_ into payload (no SYN; the header counts on the
# wire only with useHeaders_). A TFRC flow has no retransmissions or timeouts to report.
proc report_tfrc {i src snk} {
    set header [expr {[$src set useHeaders_] ? [$src set headersize_] : 0}]
    puts "flow $i bytes=[$snk set bytes_] data_pkts=[$src set ndatapack_] packet_size=[$src set packetSize_] header_size=$header syn_size=0 agent=[$src info class]"
}

set rng [new RNG]
$rng seed $SEED
for {set i 0} {$i < $opt(flows)} {incr i} {
    switch $opt(starts) {
        uniform { set start [$rng uniform 0 $opt(start_window)] }
        zero    { set start 0.0 }
        default { puts stderr "doc003.tcl: starts must be uniform or zero"; exit 2 }
    }
    if {$opt(variant) eq "tfrc"} {
        lassign [tfrc_flow $ns $s($i) $d($i) $start] src($i) snk($i)
    } else {
        lassign [ftp_flow $ns $sender Agent/TCPSink/DelAck $s($i) $d($i) $start] src($i) snk($i)
    }
    $src($i) set fid_ $i
    if {$opt(variant) eq "gaimd"} {
        $src($i) set increase_num_ 0.31
        $src($i) set decrease_num_ 0.875
    }
    puts "start $i t=$start"
}

proc print_sinks {} {
    global ns opt snk bottleneck
    set bytes {}
    for {set i 0} {$i < $opt(flows)} {incr i} { lappend bytes [$snk($i) set bytes_] }
    puts "sinks t=[$ns now] bytes=[join $bytes ,]"
    puts "qlen t=[$ns now] pkts=[$bottleneck set pkts_]"
}
if {$opt(sample) > 0} {
    # times k x interval, not a running sum, as tcpsim's monitor samples
    for {set k 1} {$k * $opt(sample) <= $T + 1e-9} {incr k} {
        $ns at [expr {$k * $opt(sample)}] print_sinks
    }
}

proc finish {} {
    global ns opt
    if {$opt(variant) eq "tfrc"} {
        for {set i 0} {$i < $opt(flows)} {incr i} { report_tfrc $i $::src($i) $::snk($i) }
    } else {
        report_flows $opt(flows)
    }
    finish_run $ns "doc003 [join [lmap k {flows rate buffer variant queue starts delays blackout} {string cat $k=$opt($k)}]]"
}
$ns at $T "finish"
$ns run
