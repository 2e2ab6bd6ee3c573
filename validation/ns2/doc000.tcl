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
#   queue=droptail|red|red_n  (dumbbell) the r1->r2 queue; red_n: RED whose thresholds
#                          follow the number n of flows started so far (E4, Sect. 3.4
#                          and 4.2): min(B, beta n'), min(B, (beta + 1) n') with
#                          n' = max(1, n (1 + n_error)), not rounded, set again at each
#                          start time (tcpsim's red_n, n_source "exact" or "scaled")
#   red=MIN/MAX            RED's thresh_/maxthresh_ (dumbbell, queue=red)
#   beta=3  n_error=0      red_n's beta and relative error of n
#   red_n_update=reset|thresh  how red_n changes ns-2's thresholds: reset (the queue's
#                          reset, keeping its packets and average: below), or thresh
#                          (only set thresh_/maxthresh_, which a running ns-2.35 RED
#                          ignores: kept for tests/test_ns2_doc000.py to show it)
#   red_at=none|r1|r3|all  (e5) the routers whose data-direction queues run RED, with
#                          thresholds min(B, 3n), min(B, 4n) of the n flows through them
#   weight=0.002|auto      RED's q_weight_ (auto: -1, ns-2.27's default)
#   max_p=0.1              RED's 1/linterm_ (linterm_ 10; max_p=0.02 is linterm_ 50)
#   gentle=true|false      RED's gentle_
#   byte_mode=false|true   RED's queue_in_bytes_ and bytes_ together (ns-2.35's defaults
#                          are true: average, thresholds and limit in mean_pktsize_ 500
#                          bytes; ns-2.27's are false)
#   tick=0.01  min_rto=1  initial_rto=6  max_rto=100000
#                          Agent/TCP tcpTick_, minrto_, rtxcur_init_ and maxrto_ (ns-2.27's
#                          defaults, which the thesis ran; ns-2.35's are 0.01, 0.2, 3 and 60)
#   initial_window=1  max_window=1000
#                          Agent/TCP windowInit_ and window_ (the receiver's window)
#   vegas=ALPHA/BETA       every Vegas agent's v_alpha_/v_beta_ (default 1/3, the
#                          thesis' Sect. 2.1.2; E6's larger thresholds, e.g. 3/5)
#   window=A/B             also report each sink's bytes received between A and B s
#   start_jitter=SECONDS   every flow starts at its start plus a uniform draw from
#                          [0, SECONDS) of an RNG of its own, on substream seed= (default
#                          0: no draw). The distribution of tcpsim's start_jitter, not its
#                          numbers (tcpsim draws from its own streams): each line
#                          "flowstart I t=.." says when flow I started
#   T=SECONDS  seed=N  trace=FILE
#
# The defaults of these arguments are experiments/000/document.toml's assumptions (its
# main reading); the variant experiments (`variant_of`) pass others. Every other setting
# as the assumptions: 1000-byte packets on the wire (below), every-packet TCPSink, RED's
# wait_ (ns-2.35's use_mark_p_ only acts with ECN here). Output: lib.tcl's report, plus
# doc000's own lines "flowname I name=S1", "flowstart I t=.." (when flow I started),
# "window0 I bytes=.. seconds=..", "bottleneck rate_bps=..", with queue=red_n one line per threshold setting, "red_n t=.. n=..
# min_th=.. max_th=.. early_drops=.. drops=.. drops_after=.. qlen=.." (the r1->r2
# monitor's counts then; drops_after: after the change, which must not drop the packets
# it holds), and, read back from the objects ns-2 built (so a test can see that an
# argument arrived), "settings red FROM->TO VAR=VALUE ..." per RED queue and "settings
# tcp S1 VAR=VALUE ..." per agent.
source [file join [file dirname [info script]] lib.tcl]

array set opt {exp dumbbell flows reno,reno rate 1.5Mb delay 40ms access 10Mb access_delay 0.4ms limit 20
               starts "" queue droptail red 4/6 red_at none weight 0.002 max_p 0.1 gentle true
               byte_mode false tick 0.01 min_rto 1 initial_rto 6 max_rto 100000
               initial_window 1 max_window 1000 vegas 1/3 window "" start_jitter 0 T 100 seed 1 trace ""
               beta 3 n_error 0 red_n_update reset}
parse_keyword_args doc000.tcl opt
foreach k {rate access} { set opt($k) [string map {bps b} $opt($k)] }

set ns [new Simulator]
apply_seed_and_trace $ns
# 1000-byte packets on the wire: Vegas puts packetSize_ on the wire with no header;
# Reno adds tcpip_base_hdr_size_ 40 (0 would make its SYN an empty packet, which
# TCPSink refuses), so Reno carries 960 bytes of payload in 1000 (tcpsim: 1000 + 0).
Agent/TCP set packetSize_ 1000
Agent/TCP/Reno set packetSize_ 960
Agent/TCP set windowInit_ $opt(initial_window)
Agent/TCP set window_ $opt(max_window)
Agent/TCP set tcpTick_ $opt(tick)
Agent/TCP set minrto_ $opt(min_rto)
Agent/TCP set rtxcur_init_ $opt(initial_rto)
Agent/TCP set maxrto_ $opt(max_rto)
Queue/RED set linterm_ [expr {1.0 / $opt(max_p)}]
Queue/RED set gentle_ $opt(gentle)
Queue/RED set wait_ true
Queue/RED set queue_in_bytes_ $opt(byte_mode)
Queue/RED set bytes_ $opt(byte_mode)
Queue/RED set mean_pktsize_ 500
Queue/RED set q_weight_ [expr {$opt(weight) eq "auto" ? -1 : $opt(weight)}]
lassign [split $opt(vegas) /] vegas_alpha vegas_beta
Agent/TCP/Vegas set v_alpha_ $vegas_alpha
Agent/TCP/Vegas set v_beta_ $vegas_beta

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
        global red_queues
        lappend red_queues [$ns link $from $to]
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

# red_n's thresholds for N flows started: min(B, beta n'), min(B, (beta + 1) n'),
# n' = max(1, N (1 + n_error)) (tcpsim's queue/red_n.rs: not rounded, at least 1).
proc red_n_thresholds {nflows limit} {
    global opt
    set n [expr {max(1.0, $nflows * (1.0 + $opt(n_error)))}]
    return [list $n [expr {min($limit, $opt(beta) * $n)}] [expr {min($limit, ($opt(beta) + 1) * $n)}]]
}

# ns-2.35's REDQueue uses thresh_ and maxthresh_ only through edp_.th_min, th_max and
# the slopes v_a .. v_d, which REDQueue::reset() alone computes from them (red.cc): a
# running queue whose thresh_ is set keeps its old thresholds. reset() also sets the
# average to 0, count and old to 0, and (Queue::reset) drops every queued packet into
# the queue's drop target. So the new thresholds are applied by a reset whose drop
# target is, for that moment, a blocked DropTail that holds the packets in order; they
# are then handed back to the RED queue in that order (its own reset, whose drop target
# is the RED queue: they pass RED's enqueue with an average near 0, so none is
# dropped), and the average is restored. What differs from tcpsim's red_n, which keeps
# average, count and old: count and old restart (count 0, old 0: the next arrival above
# min_th counts 1, as after a crossing of min_th), and the average goes through Tcl's
# string form (double precision). The held packets pass no monitor or trace.
set red_hold [new Queue/DropTail]
$red_hold set limit_ 1000000
$red_hold set blocked_ 1          ;# never sends: a blocked queue only stores
proc red_n_set {q qm nflows limit} {
    global ns opt red_hold
    lassign [red_n_thresholds $nflows $limit] n min_th max_th
    set before [$qm set pdrops_]
    set qlen [$qm set pkts_]
    $q set thresh_ $min_th
    $q set maxthresh_ $max_th
    if {$opt(red_n_update) eq "reset"} {
        set average [$q set ave_]
        set drop [$q drop-target]
        $q drop-target $red_hold
        $q reset
        $q drop-target $drop
        $red_hold drop-target $q
        $red_hold reset
        $q set ave_ $average
    }
    puts "red_n t=[$ns now] n=$n min_th=$min_th max_th=$max_th early_drops=[$qm set epdrops_] drops=$before drops_after=[$qm set pdrops_] qlen=$qlen"
}

set names {}
set red_queues {}
if {$opt(exp) eq "dumbbell"} {
    set flows [split $opt(flows) ,]
    set r1 [$ns node]; set r2 [$ns node]
    set opt(limit) [string trimright $opt(limit) p]   ;# the sweep's "20p" is 20 packets
    set starts [expr {$opt(starts) eq "" ? [lrepeat [llength $flows] 0] : [split $opt(starts) ,]}]
    switch $opt(queue) {
        droptail { set red "" }
        red { set red $opt(red) }
        red_n {
            # the thresholds of the flows starting at 0 s; the others at their start times
            set at0 [llength [lsearch -all -exact -real $starts 0]]
            lassign [red_n_thresholds $at0 $opt(limit)] n min_th max_th
            set red $min_th/$max_th
        }
        default { puts stderr "doc000.tcl: queue must be droptail, red or red_n, not '$opt(queue)'"; exit 2 }
    }
    doc000_link $ns $r1 $r2 $opt(rate) $opt(delay) $opt(limit) $opt(limit) $red
    set bottleneck_qm [monitor_link $ns $r1 $r2 r1->r2]
    if {$opt(queue) eq "red_n"} {
        set times [lsort -real -unique $starts]
        foreach t $times {
            if {$t == 0} { continue }
            set started [llength [lmap start $starts {expr {$start <= $t ? 1 : [continue]}}]]
            $ns at $t [list red_n_set [[$ns link $r1 $r2] queue] $bottleneck_qm $started $opt(limit)]
        }
    }
    puts "bottleneck rate_bps=[expr {int([bw_parse $opt(rate)])}]"
    set i 0
    foreach cc $flows {
        set s($i) [$ns node]; set d($i) [$ns node]
        doc000_link $ns $s($i) $r1 $opt(access) $opt(access_delay) 50 50
        doc000_link $ns $r2 $d($i) $opt(access) $opt(access_delay) 50 50
        set start [lindex $starts $i]
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

# The settings ns-2 holds, read back from the objects it built.
foreach link $red_queues {
    set q [$link queue]
    puts "settings red [[$link src] id]->[[$link dst] id] [join [lmap v {linterm_ gentle_ wait_ queue_in_bytes_ bytes_ mean_pktsize_ q_weight_ thresh_ maxthresh_} {string cat $v= [$q set $v]}]]"
}
for {set i 0} {$i < $nflows} {incr i} {
    puts "settings tcp [lindex $names $i] [join [lmap v {tcpTick_ minrto_ rtxcur_init_ maxrto_ windowInit_ window_} {string cat $v= [$src($i) set $v]}]]"
}

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
    finish_run $ns "doc000 [join [lmap k {exp flows queue red red_at weight n_error vegas max_p gentle byte_mode tick min_rto initial_rto max_rto initial_window max_window start_jitter} {string cat $k=$opt($k)}]]"
}
$ns at $T "finish"
$ns run
