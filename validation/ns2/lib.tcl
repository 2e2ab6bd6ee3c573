# Helpers shared by the differential cases C, D1, D2, E, F, ECN, V1 and V2 (sourced by case_*.tcl).
#
# Every case script prints, at its end time:
#   flow I bytes=.. data_pkts=.. rexmit_pkts=.. timeouts=.. cwnd_cuts=.. ecn_responses=.. cwnd=..
#                                           one line per TCP flow (TCPSink bytes_ and the
#                                           Agent/TCP counters ndatapack_, nrexmitpack_,
#                                           nrexmit_, ncwndcuts1_, necnresponses_, cwnd_)
#   cbr I rx_pkts=.. rx_bytes=.. lost=..    one line per CBR flow (Agent/LossMonitor)
#   queue FROM->TO arrivals=.. departures=.. drops=.. early_drops=.. marks=..
#                                           one line per monitored link direction
#                                           (QueueMonitor/ED: pdrops_ counts every drop,
#                                           epdrops_ the RED early drops among them,
#                                           pmarks_ the departures carrying ECT and CE)
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

proc apply_seed_and_trace {ns} {
    global SEED TRACE defaultRNG tracefd
    if {$SEED != 1} { $defaultRNG seed $SEED }
    if {$TRACE != ""} {
        set tracefd [open $TRACE w]
        $ns trace-all $tracefd
    }
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
    puts "flow $i bytes=[$snk set bytes_] data_pkts=[$src set ndatapack_] rexmit_pkts=[$src set nrexmitpack_] timeouts=[$src set nrexmit_] cwnd_cuts=[$src set ncwndcuts1_] ecn_responses=[$src set necnresponses_] cwnd=[$src set cwnd_]"
}

proc report_cbr {i lm} {
    puts "cbr $i rx_pkts=[$lm set npkts_] rx_bytes=[$lm set bytes_] lost=[$lm set nlost_]"
}

proc report_queues {} {
    foreach e $::qmons {
        set qm [lindex $e 1]
        puts "queue [lindex $e 0] arrivals=[$qm set parrivals_] departures=[$qm set pdepartures_] drops=[$qm set pdrops_] early_drops=[$qm set epdrops_] marks=[$qm set pmarks_]"
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
