# The ns-2.35 twin of reference document 002's experiments (experiments/002/*.toml;
# R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
# 2003): the thesis' T3 dumbbell with its subnets of Reno hosts, RED or ECN over RED at
# rt-1, so that ns-2 itself can say whether a miss of `tcpsim reproduce 002` comes from
# the reconstruction (ns-2 misses it too) or from tcpsim (ns-2 does not). The thesis ran
# OPNET; ns-2 has RED and ECN over RED (RED with setbit_), not MECN, DRED, FECN or MFFECN.
#
#   s(i) --45Mb/D(subnet of i)-- r1 ==45Mb/10ms, RED limit_ 586== r2 --45Mb/10ms-- d(i)
#
# with SUBNETS subnets of HOSTS hosts each (s(i), d(i) for i = subnet x HOSTS + host:
# every host has its own access link, the thesis' three links from source to sink), the
# source access delay D per subnet (the thesis' heterogeneous RTTs: 2 (D + 20 ms)), and
# one Agent/TCP/Reno -> Agent/TCPSink flow s(i) -> d(i) per host (FTP, always data).
#
# usage: ns doc002.tcl KEY=VALUE ...
#   subnets=N           source subnets (default 1)
#   hosts=N             hosts per subnet (default 100)
#   sources=N           instead of subnets: N / HOSTS subnets (Table 3-2's "sources")
#   delays=D0,D1,..     each subnet's source access delay (one value: every subnet's;
#                       default 10ms), or "spread": the subnets' RTTs evenly from 60 to
#                       140 ms (Table 3-2: 60/100/140 for 3 subnets, 60/80/../140 for 5),
#                       access delay = RTT / 2 - 20 ms (the thesis' other two links 10 ms)
#   queue=red|ecn_red|droptail
#                       the r1->r2 queue: Queue/RED as Table 3-1 (thresh_ 118,
#                       maxthresh_ 352, linterm_ 10 so max_p 0.1, q_weight_ 0.002,
#                       gentle_ false, wait_ false, packet mode, mean_pktsize_ 576 for the
#                       idle correction); ecn_red: the same with setbit_ true and every
#                       agent ecn_ 1 (ns-2's ECN over RED: its average counts the marked
#                       packets in the queue, the thesis' excludes them, §3.1.1 / ref
#                       section 4.2); droptail: DropTail limit_ 586
#   rto=SECONDS         the initial RTO, rtxcur_init_ (default 3: RFC 2988, and OPNET's
#                       and ns-2's default; the thesis says 1 s or 3 s)
#   starts=zero|uniform every flow starts at 0 s, or at a uniform draw from
#                       [0, start_window) s (an RNG seeded with seed=)
#   start_window=S      (default 1)
#   from=S              the start of the measurement window (default 20; the thesis
#                       discards the first 20 s, §2.3)
#   sample=S            print the r1->r2 queue at this interval (default 0.01: the
#                       thesis samples every 10 ms; 0 = none)
#   T=SECONDS (default 100)     seed=N (default 1)     trace=FILE (trace-all; optional)
#
# TCP (thesis §2.2, Appendix A): Agent/TCP/Reno, packetSize_ 536 (+ tcpip_base_hdr_size_
# 40 = 576 B on the wire), window_ 10000, windowInit_ 1, tcpTick_ 0.5, minrto_ 1, the
# initial RTO as rto=; Agent/TCPSink ACKs every packet. ns-2.35 defaults otherwise
# (maxrto_ 60, a 40-byte SYN; ECN: at most one response per window of data, CWR on the
# next packet).
#
# Queue limits: ns-2's Queue/RED drops an arrival when the packets WAITING in it
# (q_->length(), the one being transmitted not counted) number limit_ or more, so it
# holds 586 waiting packets plus the one on the wire; DropTail drops when waiting + 1
# >= limit_, so it holds 585 waiting plus one on the wire. tcpsim's red counts as
# Queue/RED does. Every other queue (access links both ways, r2->r1, r2->d(i)) has
# limit_ 100000: the thesis' rt-2 buffer is infinite and nothing but rt-1 queues.
#
# Output: lib.tcl's report (a flow line per flow, a queue line per monitored direction,
# whole-run counters), and for the measurement window:
#   window t=.. arrivals=.. departures=.. drops=.. early_drops=.. marks=.. departed_bytes=..
#          rexmit_pkts=.. timeouts=.. data_pkts=..
#                              at t = from and t = T: r1->r2's QueueMonitor counters and
#                              the agents' nrexmitpack_, nrexmit_ and ndatapack_ summed
#   groups t=.. pkts=P0,P1,..  at t = from and t = T: each subnet's data packets
#                              delivered in order so far (its sinks' bytes_, less the
#                              SYN, over 576 B, summed)
#   qdelay mean=.. count=..    the mean queueing delay (s) of the packets that left r1->r2
#                              in [from, T] (QueueMonitor delay samples: arrival in the
#                              queue to departure, the transmission not included)
#   qlen t=.. pkts=..          the packets waiting in r1->r2, every sample= seconds
#   subnet K hosts=.. delay=.. each subnet's hosts and access delay (once)
#   bottleneck rate_bps=..     the r1->r2 rate (once)
source [file join [file dirname [info script]] lib.tcl]

array set opt {subnets 1 hosts 100 sources "" delays 10ms queue red rto 3 starts zero start_window 1
               from 20 sample 0.01 T 100 seed 1 trace ""}
parse_keyword_args doc002.tcl opt
if {$opt(sources) ne ""} {
    if {$opt(sources) % $opt(hosts) != 0} {
        puts stderr "doc002.tcl: sources=$opt(sources) is not a whole number of subnets of $opt(hosts) hosts"; exit 2
    }
    set opt(subnets) [expr {$opt(sources) / $opt(hosts)}]
}

# The thesis' numbers (Table 3-1, §2.2, §2.4.2.1).
set B 586
set rate 45Mb

set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 536
Agent/TCP set window_ 10000
Agent/TCP set windowInit_ 1
Agent/TCP set tcpTick_ 0.5
Agent/TCP set minrto_ 1
Agent/TCP set rtxcur_init_ $opt(rto)

switch $opt(queue) {
    droptail { set qclass DropTail }
    red - ecn_red {
        set qclass RED
        Queue/RED set thresh_ 118
        Queue/RED set maxthresh_ 352
        Queue/RED set linterm_ 10
        Queue/RED set q_weight_ 0.002
        Queue/RED set gentle_ false
        Queue/RED set wait_ false
        Queue/RED set queue_in_bytes_ false
        Queue/RED set bytes_ false
        Queue/RED set mean_pktsize_ 576
        Queue/RED set setbit_ [expr {$opt(queue) eq "ecn_red"}]
        Agent/TCP set ecn_ [expr {$opt(queue) eq "ecn_red"}]
    }
    default { puts stderr "doc002.tcl: queue must be red, ecn_red or droptail"; exit 2 }
}

if {$opt(delays) eq "spread"} {
    set delays {}
    for {set k 0} {$k < $opt(subnets)} {incr k} {
        set rtt [expr {$opt(subnets) > 1 ? 60.0 + 80.0 * $k / ($opt(subnets) - 1) : 60.0}]
        lappend delays [format %gms [expr {$rtt / 2 - 20}]]
    }
} else {
    set delays [split $opt(delays) ,]
}
if {[llength $delays] == 1} { set delays [lrepeat $opt(subnets) $delays] }
if {[llength $delays] != $opt(subnets)} {
    puts stderr "doc002.tcl: delays gives [llength $delays] delays for $opt(subnets) subnets"; exit 2
}

# The routers and the bottleneck: r1->r2 with the chosen queue, r2->r1 for the ACKs.
set r1 [$ns node]; set r2 [$ns node]
$ns simplex-link $r1 $r2 $rate 10ms $qclass
$ns simplex-link $r2 $r1 $rate 10ms DropTail
$ns queue-limit $r1 $r2 $B
$ns queue-limit $r2 $r1 100000
set bottleneck [monitor_link $ns $r1 $r2 r1->r2]
puts "bottleneck rate_bps=[bw_parse $rate]"
monitor_link $ns $r2 $r1 r2->r1
set delay_samples [new Samples]
$bottleneck set-delay-samples $delay_samples

# The hosts, subnet by subnet, each with its own access links.
set n [expr {$opt(subnets) * $opt(hosts)}]
for {set k 0} {$k < $opt(subnets)} {incr k} {
    puts "subnet $k hosts=$opt(hosts) delay=[lindex $delays $k]"
    for {set h 0} {$h < $opt(hosts)} {incr h} {
        set i [expr {$k * $opt(hosts) + $h}]
        set s($i) [$ns node]; set d($i) [$ns node]
        $ns duplex-link $s($i) $r1 $rate [lindex $delays $k] DropTail
        $ns duplex-link $r2 $d($i) $rate 10ms DropTail
        foreach {a b} [list $s($i) $r1 $r1 $s($i) $r2 $d($i) $d($i) $r2] { $ns queue-limit $a $b 100000 }
    }
}

set rng [new RNG]
$rng seed $SEED
for {set i 0} {$i < $n} {incr i} {
    switch $opt(starts) {
        uniform { set start [$rng uniform 0 $opt(start_window)] }
        zero    { set start 0.0 }
        default { puts stderr "doc002.tcl: starts must be zero or uniform"; exit 2 }
    }
    lassign [ftp_flow $ns Agent/TCP/Reno Agent/TCPSink $s($i) $d($i) $start] src($i) snk($i)
    $src($i) set fid_ $i
}

# The window lines: r1->r2's counters and the agents' sums; each subnet's in-order packets.
proc print_window {} {
    global ns opt n src snk bottleneck
    set rexmit 0; set timeouts 0; set data 0
    for {set i 0} {$i < $n} {incr i} {
        incr rexmit [$src($i) set nrexmitpack_]
        incr timeouts [$src($i) set nrexmit_]
        incr data [$src($i) set ndatapack_]
    }
    set q $bottleneck
    puts "window t=[$ns now] arrivals=[$q set parrivals_] departures=[$q set pdepartures_] drops=[$q set pdrops_] early_drops=[$q set epdrops_] marks=[$q set pmarks_] departed_bytes=[$q set bdepartures_] rexmit_pkts=$rexmit timeouts=$timeouts data_pkts=$data"
    set groups {}
    for {set k 0} {$k < $opt(subnets)} {incr k} {
        set pkts 0
        for {set h 0} {$h < $opt(hosts)} {incr h} {
            set i [expr {$k * $opt(hosts) + $h}]
            lassign [wire_sizes $src($i)] payload header syn
            set b [$snk($i) set bytes_]
            if {$b > $syn} { incr pkts [expr {($b - $syn) / ($payload + $header)}] }
        }
        lappend groups $pkts
    }
    puts "groups t=[$ns now] pkts=[join $groups ,]"
}
proc open_window {} {
    global delay_samples
    $delay_samples reset
    print_window
}
$ns at $opt(from) open_window

proc print_qlen {} {
    global ns bottleneck
    puts "qlen t=[$ns now] pkts=[$bottleneck set pkts_]"
}
if {$opt(sample) > 0} {
    # times k x interval, not a running sum, as tcpsim's monitor samples
    for {set k 0} {$k * $opt(sample) <= $T + 1e-9} {incr k} {
        $ns at [expr {$k * $opt(sample)}] print_qlen
    }
}

proc finish {} {
    global ns opt n delay_samples
    print_window
    puts "qdelay mean=[$delay_samples mean] count=[$delay_samples cnt]"
    report_flows $n
    finish_run $ns "doc002 [join [lmap k {subnets hosts delays queue rto starts} {string cat $k=$opt($k)}]]"
}
$ns at $T "finish"
$ns run
