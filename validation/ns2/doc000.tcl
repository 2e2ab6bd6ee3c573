# The ns-2.35 twin of reference document 000's experiments (experiments/000/*.toml,
# Chang's 2004 thesis on Reno/Vegas fairness with RED): the same networks, queues, flows
# and agents, so that ns-2 itself can say whether a miss of `tcpsim reproduce 000` comes
# from the reconstruction (ns-2 misses it too) or from tcpsim (ns-2 does not).
#
#   exp=dumbbell: s(i) --ACCESS-- r1 ==RATE/40ms, LIMIT packets== r2 --ACCESS-- d(i)
#                 (E1: 10Mb/0.4ms access, 1.5Mb; E2: 50Mb/1ms, 1.5Mb; E3: 50Mb/1ms, 2Mb)
#   exp=e5:       S1 (Reno, 10 s), S2 (Vegas, 0 s) -- R3 --+               +-- R5 -- D1, D2
#                                                          R1 ==2Mb/40ms== R2
#                 S3 (Vegas, 0 s), S4 (Vegas, 20 s) -- R4 -+               +-- R6 -- D3, D4
#
# usage: ns doc000.tcl KEY=VALUE ...
#   exp=dumbbell|e5
#   flows=reno,vegas,...   (dumbbell) one agent per source S1, S2, ...: Agent/TCP/Reno or
#                          Agent/TCP/Vegas, each to an Agent/TCPSink, all from 0 s
#   starts=0,0,10,...      (dumbbell) each flow's start time, s (default: all at 0)
#   rate=1.5Mb  access=10Mb  access_delay=0.4ms  limit=20   (dumbbell)
#   delay=40ms             (dumbbell) the bottleneck's delay (Fig. 3.3 and 4.1: 40 ms; the
#                          off-grid comparison of tests/test_ns2_doc000.py moves it)
#   queue=droptail|red     (dumbbell) the r1->r2 queue
#   red=MIN/MAX            RED's thresh_/maxthresh_ (dumbbell)
#   red_at=none|r1|r3|all  (e5) the routers whose data-direction queues run RED, with
#                          thresholds min(B, 3n), min(B, 4n) of the n flows through them
#   weight=0.002|auto      RED's q_weight_ (auto: -1, ns-2.27's default)
#   window=A/B             also report each sink's bytes received between A and B s
#   start_jitter=SECONDS   every flow starts at its start plus a uniform draw from
#                          [0, SECONDS) of an RNG of its own, on substream seed= (default
#                          0: no draw). The distribution of tcpsim's start_jitter, not its
#                          numbers (tcpsim draws from its own streams): each line
#                          "flowstart I t=.." says when flow I started
#   T=SECONDS  seed=N  trace=FILE
#
# Every other setting as experiments/000/document.toml's assumptions: 1000-byte packets
# on the wire (below), windowInit_ 1,
# window_ 1000, every-packet TCPSink; RED max_p 0.1 (linterm_ 10), gentle_, wait_, packet
# mode (ns-2.35's use_mark_p_ only acts with ECN here). Output: lib.tcl's report, plus
# doc000's own lines "flowname I name=S1", "flowstart I t=..", "window0 I bytes=.. seconds=.."
# and "bottleneck rate_bps=..".
source [file join [file dirname [info script]] lib.tcl]

array set opt {exp dumbbell flows reno,reno rate 1.5Mb delay 40ms access 10Mb access_delay 0.4ms limit 20
               starts "" queue droptail red 4/6 red_at none weight 0.002 window "" start_jitter 0
               T 100 seed 1 trace ""}
foreach a $argv {
    set kv [split $a =]
    if {[llength $kv] != 2 || ![info exists opt([lindex $kv 0])]} {
        puts stderr "doc000.tcl: bad argument '$a' (expected one of: [lsort [array names opt]] as KEY=VALUE)"
        exit 2
    }
    set opt([lindex $kv 0]) [lindex $kv 1]
}
set T $opt(T); set SEED $opt(seed); set TRACE $opt(trace)
foreach k {rate access} { set opt($k) [string map {bps b} $opt($k)] }

set ns [new Simulator]
apply_seed_and_trace $ns
# 1000-byte packets on the wire: Vegas puts packetSize_ on the wire with no header;
# Reno adds tcpip_base_hdr_size_ 40 (0 would make its SYN an empty packet, which
# TCPSink refuses), so Reno carries 960 bytes of payload in 1000 (tcpsim: 1000 + 0).
Agent/TCP set packetSize_ 1000
Agent/TCP/Reno set packetSize_ 960
Agent/TCP set windowInit_ 1
Agent/TCP set window_ 1000
Queue/RED set linterm_ 10
Queue/RED set gentle_ true
Queue/RED set wait_ true
Queue/RED set queue_in_bytes_ false
Queue/RED set bytes_ false
Queue/RED set mean_pktsize_ 500
Queue/RED set q_weight_ [expr {$opt(weight) eq "auto" ? -1 : $opt(weight)}]

# start_jitter: an RNG of the twin's own (created only with a jitter, so that runs without
# one create no RNG) on substream number seed= of its stream (ns-2's way to independent
# replications: `$rng seed N` with small N gives first draws nearly proportional to N, as
# measured: 1.70e-5 s for seed 1, 3.37e-5 s for seed 2); one draw per flow, in flow order.
if {$opt(start_jitter) > 0} {
    set jitter_rng [new RNG]
    for {set k 0} {$k < $SEED} {incr k} { $jitter_rng next-substream }
}
set flow_starts {}
proc jittered {start} {
    global opt jitter_rng flow_starts
    if {$opt(start_jitter) > 0} { set start [expr {$start + [$jitter_rng uniform 0 $opt(start_jitter)]}] }
    lappend flow_starts $start
    return $start
}

proc agent_of {cc} {
    switch $cc {
        reno  { return Agent/TCP/Reno }
        vegas { return Agent/TCP/Vegas }
        default { puts stderr "doc000.tcl: a flow is reno or vegas, not '$cc'"; exit 2 }
    }
}

# A simplex link FROM->TO with QUEUE (DropTail, or RED with thresholds MIN/MAX) and
# LIMIT packets.
proc doc000_simplex {ns from to rate delay limit {red ""}} {
    if {$red eq ""} {
        $ns simplex-link $from $to $rate $delay DropTail
    } else {
        lassign [split $red /] th maxth
        Queue/RED set thresh_ $th
        Queue/RED set maxthresh_ $maxth
        $ns simplex-link $from $to $rate $delay RED
    }
    $ns queue-limit $from $to $limit
}

# A duplex link whose two directions have their own limits; RED (if given) only FROM->TO.
proc doc000_link {ns from to rate delay limit reverse_limit {red ""}} {
    doc000_simplex $ns $from $to $rate $delay $limit $red
    doc000_simplex $ns $to $from $rate $delay $reverse_limit
}

# The flows' names in the experiment files: S1, S2, ... (Tables 3.1, 4.1, 4.2), or with
# starts= (E4, Table 4.3) Vegas1.. and Reno1.. in the order of their sources.
proc flow_name {cc i} {
    global opt vegas_seen reno_seen
    if {$opt(starts) eq ""} { return S[expr {$i + 1}] }
    set k ${cc}_seen
    incr $k
    return [string totitle $cc][set $k]
}
set vegas_seen 0; set reno_seen 0

set names {}
if {$opt(exp) eq "dumbbell"} {
    set flows [split $opt(flows) ,]
    set r1 [$ns node]; set r2 [$ns node]
    set red [expr {$opt(queue) eq "red" ? $opt(red) : ""}]
    set opt(limit) [string trimright $opt(limit) p]   ;# the sweep's "20p" is 20 packets
    doc000_link $ns $r1 $r2 $opt(rate) $opt(delay) $opt(limit) $opt(limit) $red
    monitor_link $ns $r1 $r2 r1->r2
    puts "bottleneck rate_bps=[expr {int([bw_parse $opt(rate)])}]"
    set i 0
    foreach cc $flows {
        set s($i) [$ns node]; set d($i) [$ns node]
        doc000_link $ns $s($i) $r1 $opt(access) $opt(access_delay) 50 50
        doc000_link $ns $r2 $d($i) $opt(access) $opt(access_delay) 50 50
        set start [expr {$opt(starts) eq "" ? 0.0 : [lindex [split $opt(starts) ,] $i]}]
        lassign [ftp_flow $ns [agent_of $cc] Agent/TCPSink $s($i) $d($i) [jittered $start]] src($i) snk($i)
        $src($i) set fid_ $i
        lappend names [flow_name $cc $i]
        incr i
    }
} elseif {$opt(exp) eq "e5"} {
    foreach n {r1 r2 r3 r4 r5 r6} { set $n [$ns node] }
    # RED at a router: its data-direction queues, thresholds min(B, 3n), min(B, 4n)
    set at [expr {$opt(red_at) eq "all" ? {r1 r2 r3 r4 r5 r6} : $opt(red_at)}]
    proc red_if {router at spec} { expr {[lsearch $at $router] >= 0 ? $spec : ""} }
    doc000_link $ns $r3 $r1 1.5Mb 20ms 20 100 [red_if r3 $at 6/8]
    doc000_link $ns $r4 $r1 1.5Mb 20ms 20 100 [red_if r4 $at 6/8]
    doc000_link $ns $r1 $r2 2Mb 40ms 100 100 [red_if r1 $at 12/16]
    doc000_link $ns $r2 $r5 1.5Mb 20ms 100 20 [red_if r2 $at 6/8]
    doc000_link $ns $r2 $r6 1.5Mb 20ms 100 20 [red_if r2 $at 6/8]
    monitor_link $ns $r1 $r2 r1->r2
    monitor_link $ns $r3 $r1 r3->r1
    puts "bottleneck rate_bps=2000000"
    # S1 Reno at 10 s, S2 and S3 Vegas at 0 s, S4 Vegas at 20 s
    set i 0
    foreach {cc start src_router dst_router} {reno 10 r3 r5  vegas 0 r3 r5  vegas 0 r4 r6  vegas 20 r4 r6} {
        set s($i) [$ns node]; set d($i) [$ns node]
        doc000_link $ns $s($i) [set $src_router] 10Mb 1ms 50 20
        doc000_link $ns [set $dst_router] $d($i) 10Mb 1ms 20 50 [red_if $dst_router $at 3/4]
        lassign [ftp_flow $ns [agent_of $cc] Agent/TCPSink $s($i) $d($i) [jittered $start]] src($i) snk($i)
        $src($i) set fid_ $i
        lappend names S[expr {$i + 1}]
        incr i
    }
} else {
    puts stderr "doc000.tcl: exp must be dumbbell or e5"; exit 2
}
set nflows [llength $names]

# window=A/B: each sink's bytes_ at A and at B
if {$opt(window) ne ""} {
    lassign [split $opt(window) /] wa wb
    proc mark_bytes {tag} {
        global nflows snk marked
        for {set i 0} {$i < $nflows} {incr i} { set marked($tag,$i) [$snk($i) set bytes_] }
    }
    $ns at $wa "mark_bytes a"
    $ns at $wb "mark_bytes b"
}

proc finish {} {
    global ns nflows names opt marked wa wb flow_starts
    report_flows $nflows
    for {set i 0} {$i < $nflows} {incr i} { puts "flowname $i name=[lindex $names $i]" }
    for {set i 0} {$i < $nflows} {incr i} { puts "flowstart $i t=[format %.9f [lindex $flow_starts $i]]" }
    if {$opt(window) ne ""} {
        for {set i 0} {$i < $nflows} {incr i} { puts "window0 $i bytes=[expr {$marked(b,$i) - $marked(a,$i)}] seconds=[expr {$wb - $wa}]" }
    }
    finish_run $ns "doc000 [join [lmap k {exp flows queue red red_at weight start_jitter} {string cat $k=$opt($k)}]]"
}
$ns at $T "finish"
$ns run
