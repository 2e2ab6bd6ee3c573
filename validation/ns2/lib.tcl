# Helpers shared by the differential cases (sourced by case_*.tcl): arguments, networks,
# bulk flows, monitors and the report every case prints.
#
# Every case script prints, at its end time:
#   flow I bytes=.. data_pkts=.. rexmit_pkts=.. timeouts=.. cwnd_cuts=.. ecn_responses=.. cwnd=..
#          packet_size=.. header_size=.. syn_size=.. agent=CLASS
#                                           one line per TCP flow (TCPSink bytes_ and the
#                                           Agent/TCP counters ndatapack_, nrexmitpack_,
#                                           nrexmit_, ncwndcuts1_, necnresponses_, cwnd_;
#                                           the sizes say what bytes_ counts: see wire_sizes)
#   cbr I rx_pkts=.. rx_bytes=.. lost=..    one line per CBR flow (Agent/LossMonitor)
#   queue FROM->TO arrivals=.. departures=.. drops=.. early_drops=.. marks=.. departed_bytes=..
#                                           one line per monitored link direction
#                                           (QueueMonitor/ED: pdrops_ counts every drop,
#                                           epdrops_ the RED early drops among them,
#                                           pmarks_ the departures carrying ECT and CE,
#                                           bdepartures_ the bytes sent on)
#   fid F FROM->TO arrivals=.. departures=.. drops=..
#                                           one line per fid_ seen on a link direction
#                                           watched with monitor_link_flows (flow monitor)
#   sample t=.. cwnd=.. ssthresh=.. qlen=..  optional, from sample_every (cwnd trajectory)
#   ns2 case=X T=..                         last line
#
# Monitors draw no random numbers, so they do not change the run.
#
# ncwndcuts1_ counts slowdown() calls with data outstanding: every fast retransmit and
# every timeout that halves ssthresh (nrexmit_); fast retransmits = cwnd_cuts - timeouts
# without ECN. With ECN it also counts each ECN response (necnresponses_) and the window
# cuts to one packet after a response (a timeout, or Tahoe's third duplicate ACK).

# Parse "SECONDS SEED TRACEFILE" (all optional) into the globals T, SEED and TRACE.
# SEED 1 is ns-2's default ($defaultRNG seed 1), so it is only applied when different.
proc parse_args {default_T} {
    global argc argv T SEED TRACE
    set T $default_T; set SEED 1; set TRACE ""
    if {$argc >= 1} { set T [lindex $argv 0] }
    if {$argc >= 2} { set SEED [lindex $argv 1] }
    if {$argc >= 3} { set TRACE [lindex $argv 2] }
}

# The document twins' KEY=VALUE arguments (doc000.tcl, doc004.tcl): each argument of argv
# sets the element of the caller's array `optname` it names; an unknown key or a word
# without "=" stops the script with the keys it takes. Then T, SEED and TRACE from the
# array's T, seed and trace, as parse_args sets them for the case scripts.
proc parse_keyword_args {script optname} {
    global argv T SEED TRACE
    upvar 1 $optname opt
    foreach a $argv {
        set kv [split $a =]
        if {[llength $kv] != 2 || ![info exists opt([lindex $kv 0])]} {
            puts stderr "$script: bad argument '$a' (expected one of: [lsort [array names opt]] as KEY=VALUE)"
            exit 2
        }
        set opt([lindex $kv 0]) [lindex $kv 1]
    }
    set T $opt(T); set SEED $opt(seed); set TRACE $opt(trace)
}

proc apply_seed_and_trace {ns} {
    global SEED TRACE defaultRNG tracefd
    if {$SEED != 1} { $defaultRNG seed $SEED }
    if {$TRACE != ""} {
        set tracefd [open $TRACE w]
        $ns trace-all $tracefd
    }
}

# The chain  src --ACCESS-- r1 ==BOTTLENECK== r2 --ACCESS-- dst  of the single-path
# cases, with DropTail queues (ns-2 default limit_ 50; cases set their own limits), both
# bottleneck directions monitored. Sets the globals src, r1, r2, dst (node ids 0-3, in
# that order) and returns the r1->r2 queue monitor.
proc chain {ns access_rate access_delay rate delay} {
    global src r1 r2 dst
    set src [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set dst [$ns node]
    $ns duplex-link $src $r1 $access_rate $access_delay DropTail
    $ns duplex-link $r1 $r2 $rate $delay DropTail
    $ns duplex-link $r2 $dst $access_rate $access_delay DropTail
    set bottleneck [monitor_link $ns $r1 $r2 r1->r2]
    monitor_link $ns $r2 $r1 r2->r1
    return $bottleneck
}

# The start of the single-flow chain cases C, E, J and GAIMD (case A's network): a new
# Simulator (returned: the case keeps it as its `ns`) with parse_args' seed and trace,
# Agent/TCP packetSize_ 1000 (1040 B on the wire) and window_ 100, and the chain
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- dst
# with a 20-packet DropTail queue in each direction of the bottleneck. Sets the globals
# of `chain`.
proc start_case {} {
    global r1 r2
    set ns [new Simulator]
    apply_seed_and_trace $ns
    Agent/TCP set packetSize_ 1000
    Agent/TCP set window_ 100
    chain $ns 10Mb 1ms 1.5Mb 40ms
    $ns queue-limit $r1 $r2 20
    $ns queue-limit $r2 $r1 20
    return $ns
}

# The trace-line cases (case_delay_cbr, case_linkdown_cbr): the chain
#   s --100Mb/0.01ms-- r1 --RATE/DELAY, DropTail 1000-- r2 --100Mb/0.01ms-- d
# with every event traced to TRACEFILE, and CBR_RATE of CBR (1000-byte packets, UDP
# into a Null agent, no jitter) from s to d from time 0. Sets the globals r1 and r2.
proc traced_cbr_chain {ns tracefile rate delay cbr_rate} {
    global r1 r2
    $ns trace-all [open $tracefile w]
    set s [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set d [$ns node]
    $ns duplex-link $s $r1 100Mb 0.01ms DropTail
    $ns duplex-link $r1 $r2 $rate $delay DropTail
    $ns duplex-link $r2 $d 100Mb 0.01ms DropTail
    $ns queue-limit $r1 $r2 1000
    set udp [new Agent/UDP]; $ns attach-agent $s $udp
    set null [new Agent/Null]; $ns attach-agent $d $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 1000
    $cbr set rate_ $cbr_rate
    $cbr attach-agent $udp
    $ns at 0.0 "$cbr start"
}

# The routers of a dumbbell, r1 ==RATE/DELAY, QUEUE== r2 (node ids 0 and 1; duplex-link
# gives both directions the QUEUE class). Sets the globals r1 and r2.
proc dumbbell_routers {ns rate delay queue} {
    global r1 r2
    set r1 [$ns node]; set r2 [$ns node]
    $ns duplex-link $r1 $r2 $rate $delay $queue
}

# COUNT host pairs of a dumbbell: s(i) --100Mb/DELAY_i-- r1 and r2 --100Mb/SINK_DELAY--
# d(i), DropTail, created in the order s(0), d(0), s(1), d(1), ... (node ids 2, 3, 4, ...
# after the routers). DELAYS is one delay for every pair or a list with one per pair.
proc dumbbell_pairs {ns count delays sink_delay} {
    global r1 r2 s d
    for {set i 0} {$i < $count} {incr i} {
        set delay [expr {[llength $delays] > 1 ? [lindex $delays $i] : $delays}]
        set s($i) [$ns node]; set d($i) [$ns node]
        $ns duplex-link $s($i) $r1 100Mb $delay DropTail
        $ns duplex-link $r2 $d($i) 100Mb $sink_delay DropTail
    }
}

# The network of the many-flow NewReno cases (ECN, ECN1, F, RED-AUTO): routers joined by
# RATE/DELAY with QUEUE (limit_ LIMIT on r1->r2, both directions monitored), PAIRS host
# pairs (default COUNT) on 100Mb/2ms links, and COUNT Agent/TCP/Newreno -> Agent/TCPSink
# bulk flows s(i) -> d(i), flow i starting at i x SPACING s. Sets the globals src(i),
# snk(i) besides dumbbell_routers' and dumbbell_pairs'.
proc newreno_dumbbell {ns count rate delay queue limit spacing {pairs ""}} {
    global r1 r2 s d src snk
    dumbbell_routers $ns $rate $delay $queue
    $ns queue-limit $r1 $r2 $limit
    monitor_link $ns $r1 $r2 r1->r2
    monitor_link $ns $r2 $r1 r2->r1
    dumbbell_pairs $ns [expr {$pairs eq "" ? $count : $pairs}] 2ms 2ms
    for {set i 0} {$i < $count} {incr i} {
        lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $s($i) $d($i) [expr $spacing*$i]] src($i) snk($i)
    }
}

# A bulk transfer: a new SENDER agent (class) at node FROM connected to a new RECEIVER
# agent at node TO, driven by an FTP application that starts at time START (s). Returns
# {sender receiver}.
proc ftp_flow {ns sender receiver from to start} {
    set tcp [new $sender]; set sink [new $receiver]
    $ns attach-agent $from $tcp; $ns attach-agent $to $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]; $ftp attach-agent $tcp
    $ns at $start "$ftp start"
    return [list $tcp $sink]
}

# A TFRC flow (ns-2.35 defaults): a new Agent/TFRC at node FROM connected to a new
# Agent/TFRCSink at node TO that prints its loss event rate at each report
# (printLoss_ 1), started at time START (s). Returns {tfrc sink}.
proc tfrc_flow {ns from to start} {
    set tfrc [new Agent/TFRC]; set sink [new Agent/TFRCSink]
    $sink set printLoss_ 1
    $ns attach-agent $from $tfrc; $ns attach-agent $to $sink
    $ns connect $tfrc $sink
    $ns at $start "$tfrc start"
    return [list $tfrc $sink]
}

# "rate t=.. rate=.." lines: the TFRC sender's rate_ (bytes/s) every INTERVAL s from 0 to T.
proc sample_tfrc_rate {ns interval tfrc} {
    global T
    for {set k 0} {$k * $interval <= $T + 1e-9} {incr k} {
        $ns at [expr {$k * $interval}] "puts \"rate t=\[$ns now\] rate=\[$tfrc set rate_\]\""
    }
}

# "tfrc I bytes=.. data_pkts=.. packet_size=.. header_size=..": the sink's bytes_ (wire
# bytes received) and the sender's ndatapack_, packetSize_ and headersize_.
proc report_tfrc {i tfrc sink} {
    puts "tfrc $i bytes=[$sink set bytes_] data_pkts=[$tfrc set ndatapack_] packet_size=[$tfrc set packetSize_] header_size=[$tfrc set headersize_]"
}

# A constant-bit-rate UDP flow of SIZE-byte packets (default 1000; no jitter: random_ 0)
# from node FROM to an Agent/LossMonitor at node TO, RATE (e.g. 2Mb), started at 0 s;
# FID, if given and not "", is its fid_ (for flow monitors). Returns the loss monitor.
proc cbr_flow {ns from to rate {fid ""} {size 1000}} {
    set udp [new Agent/UDP]
    $udp set packetSize_ 1000
    if {$fid != ""} { $udp set fid_ $fid }
    set lm [new Agent/LossMonitor]
    $ns attach-agent $from $udp; $ns attach-agent $to $lm
    $ns connect $udp $lm
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ $size
    $cbr set rate_ $rate
    $cbr set random_ 0
    $cbr attach-agent $udp
    $ns at 0.0 "$cbr start"
    return $lm
}

# One report line for each of the flows 0..N-1 whose senders and receivers are in the
# global arrays named SENDERS and RECEIVERS.
proc report_flows {n {senders src} {receivers snk}} {
    upvar #0 $senders tcp $receivers sink
    for {set i 0} {$i < $n} {incr i} { report_tcp $i $tcp($i) $sink($i) }
}

# QueueMonitor/ED on the from->to link direction, with RED early drops routed through an
# EDrop snoop (as Simulator attach-fmon does), so epdrops_ counts them.
set ::qmons {}
proc monitor_link {ns from to name} {
    set l [$ns link $from $to]
    set qm [new QueueMonitor/ED]
    $l attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm
    set q [$l queue]
    if {[$q info class] == "Queue/RED"} {
        set eds [new SnoopQueue/EDrop]; $eds set-monitor $qm
        $q early-drop-target $eds; $eds target [$ns set nullAgent_]
    }
    lappend ::qmons [list $name $qm]
    return $qm
}

# A flow monitor (classified by fid_) on the from->to link direction. It also counts the
# whole direction like monitor_link, so the direction gets a "queue" line too; its
# "fid" lines are printed by report_fid_flows.
set ::fmons {}
proc monitor_link_flows {ns from to name} {
    set fm [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $from $to] $fm
    lappend ::qmons [list $name $fm]
    lappend ::fmons [list $name $fm]
    return $fm
}

proc report_fid_flows {} {
    foreach e $::fmons {
        set lines {}
        foreach f [[lindex $e 1] flows] {
            lappend lines [list [$f set flowid_] "arrivals=[$f set parrivals_] departures=[$f set pdepartures_] drops=[$f set pdrops_]"]
        }
        foreach l [lsort -integer -index 0 $lines] {
            puts "fid [lindex $l 0] [lindex $e 0] [lindex $l 1]"
        }
    }
}

proc report_tcp {i src snk} {
    lassign [wire_sizes $src] payload header syn
    puts "flow $i bytes=[$snk set bytes_] data_pkts=[$src set ndatapack_] rexmit_pkts=[$src set nrexmitpack_] timeouts=[$src set nrexmit_] cwnd_cuts=[$src set ncwndcuts1_] ecn_responses=[$src set necnresponses_] cwnd=[$src set cwnd_] packet_size=$payload header_size=$header syn_size=$syn agent=[$src info class]"
}

# {payload header syn}: the bytes of data in a TCP data packet (packetSize_), the header
# bytes the agent adds to it on the wire, and the wire size of its SYN. A TCPSink's bytes_
# counts the wire sizes of the in-order packets, the SYN included, so the payload
# delivered is (bytes_ - syn) / (payload + header) packets of payload bytes. Agent/TCP
# adds tcpip_base_hdr_size_ (40) and sends a header-only SYN; Agent/TCP/Vegas's output
# puts packetSize_ bytes on the wire with no header, and its SYN is a full packet.
proc wire_sizes {src} {
    set payload [$src set packetSize_]
    if {[$src info class] == "Agent/TCP/Vegas"} { return [list $payload 0 $payload] }
    set header [$src set tcpip_base_hdr_size_]
    return [list $payload $header $header]
}

proc report_cbr {i lm} {
    puts "cbr $i rx_pkts=[$lm set npkts_] rx_bytes=[$lm set bytes_] lost=[$lm set nlost_]"
}

proc report_queues {} {
    foreach e $::qmons {
        set qm [lindex $e 1]
        puts "queue [lindex $e 0] arrivals=[$qm set parrivals_] departures=[$qm set pdepartures_] drops=[$qm set pdrops_] early_drops=[$qm set epdrops_] marks=[$qm set pmarks_] departed_bytes=[$qm set bdepartures_]"
    }
}

# Prints "sample t=T cwnd=.. ssthresh=.. qlen=.." at T = 0, INTERVAL, 2·INTERVAL, … up to
# the end time: the TCP agent's cwnd_ and ssthresh_ and the packets waiting in the queue
# of QueueMonitor QM (pkts_). Times are k·INTERVAL, not a running sum, so they match
# tcpsim's monitor samples exactly.
proc sample_every {ns interval tcp qm} {
    global T
    for {set k 0} {$k * $interval <= $T + 1e-9} {incr k} {
        $ns at [expr {$k * $interval}] [list print_sample $ns $tcp $qm]
    }
}

proc print_sample {ns tcp qm} {
    puts "sample t=[$ns now] cwnd=[$tcp set cwnd_] ssthresh=[$tcp set ssthresh_] qlen=[$qm set pkts_]"
}

proc finish_run {ns case} {
    global T SEED tracefd
    report_queues
    puts "ns2 case=$case T=$T seed=$SEED"
    if {[info exists tracefd]} { $ns flush-trace; close $tracefd }
    exit 0
}
