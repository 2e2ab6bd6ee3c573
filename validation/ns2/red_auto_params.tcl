# The thresholds and queue weight that ns-2.35's Queue/RED computes for itself
# (REDQueue::initialize_params, queue/red.cc) when left at its defaults: thresh_ 0,
# maxthresh_ 0, q_weight_ -1, targetdelay_ 0.005. ns-2 writes the computed values back
# into the bound variables; this script prints them once the simulation has started
# (after `$ns run` has reset every queue), for thirteen links. The unit tests of
# crates/tcpsim/src/queue/red.rs (`ns2_automatic_*`) copy these numbers.
#
# Each case is one simplex link a -> b with Queue/RED. Its settings are Queue/RED class
# defaults, set before the link is made (the link's `$q link` call computes the values
# from mean_pktsize_, the rate and the delay at that moment) and restored after.
# Case 10mb_20ms_late shows why: mean_pktsize_ set on the queue after the link is made
# no longer changes the computed values (they are no longer 0 / -1 when `$ns run`
# resets the queue), only the byte-mode scaling and the idle-time rate.
#
# Output, one line per case (17 significant digits, as ns-2 formats doubles):
#   red NAME rate=.. delay=.. thresh_=.. maxthresh_=.. q_weight_=.. thresh_queue_=.. maxthresh_queue_=..
# thresh_queue_ / maxthresh_queue_ are the thresholds RED compares the average with:
# in bytes (x mean_pktsize_) when queue_in_bytes_ is true (ns-2.35's default).
#
# usage: ns red_auto_params.tcl
#
# Output of ns 2.35 (Debian package ns2); the same values are already in the variables
# when simplex-link returns, except thresh_queue_ / maxthresh_queue_, set by the reset:
#   red 10mb_20ms rate=10Mb delay=20ms thresh_=6.25 maxthresh_=18.75 q_weight_=0.00039992001066557759 thresh_queue_=3125 maxthresh_queue_=9375
#   red 1.5mb_40ms rate=1.5Mb delay=40ms thresh_=5 maxthresh_=15 q_weight_=0.0020811647007007439 thresh_queue_=2500 maxthresh_queue_=7500
#   red 100mb_10ms rate=100Mb delay=10ms thresh_=62.5 maxthresh_=187.5 q_weight_=3.9999200010631952e-05 thresh_queue_=31250 maxthresh_queue_=93750
#   red 45mb_100ms_1000b rate=45Mb delay=100ms thresh_=14.0625 maxthresh_=42.1875 q_weight_=5.9152346852164861e-05 thresh_queue_=14062.5 maxthresh_queue_=42187.5
#   red 2mb_200ms rate=2Mb delay=200ms thresh_=5 maxthresh_=15 q_weight_=0.00032997854839944551 thresh_queue_=2500 maxthresh_queue_=7500
#   red 64kb_1ms rate=64Kb delay=1ms thresh_=5 maxthresh_=15 q_weight_=0.032276041246392162 thresh_queue_=2500 maxthresh_queue_=7500
#   red 2mb_200ms_qw0 rate=2Mb delay=200ms thresh_=5 maxthresh_=15 q_weight_=0.001998001332666921 thresh_queue_=2500 maxthresh_queue_=7500
#   red 2mb_200ms_qw-2 rate=2Mb delay=200ms thresh_=5 maxthresh_=15 q_weight_=0.019801326693244747 thresh_queue_=2500 maxthresh_queue_=7500
#   red 10mb_20ms_td20ms rate=10Mb delay=20ms thresh_=25 maxthresh_=75 q_weight_=0.00039992001066557759 thresh_queue_=12500 maxthresh_queue_=37500
#   red 10mb_20ms_min10 rate=10Mb delay=20ms thresh_=10 maxthresh_=30 q_weight_=0.00039992001066557759 thresh_queue_=5000 maxthresh_queue_=15000
#   red 10mb_20ms_max40 rate=10Mb delay=20ms thresh_=6.25 maxthresh_=40 q_weight_=0.00039992001066557759 thresh_queue_=3125 maxthresh_queue_=20000
#   red 10mb_20ms_pkts rate=10Mb delay=20ms thresh_=6.25 maxthresh_=18.75 q_weight_=0.00039992001066557759 thresh_queue_=6.25 maxthresh_queue_=18.75
#   red 10mb_20ms_late rate=10Mb delay=20ms thresh_=6.25 maxthresh_=18.75 q_weight_=0.00039992001066557759 thresh_queue_=6250 maxthresh_queue_=18750
set ns [new Simulator]

# NAME RATE DELAY {VAR VALUE ...} {VAR VALUE ...}: a link a -> b of RATE and DELAY
# whose Queue/RED has the first list as class defaults (the others are ns-2.35's) and
# the second set on the queue itself after the link is made.
set cases {
    10mb_20ms        10Mb   20ms  {}                      {}
    1.5mb_40ms       1.5Mb  40ms  {}                      {}
    100mb_10ms       100Mb  10ms  {}                      {}
    45mb_100ms_1000b 45Mb   100ms {mean_pktsize_ 1000}    {}
    2mb_200ms        2Mb    200ms {}                      {}
    64kb_1ms         64Kb   1ms   {}                      {}
    2mb_200ms_qw0    2Mb    200ms {q_weight_ 0}           {}
    2mb_200ms_qw-2   2Mb    200ms {q_weight_ -2}          {}
    10mb_20ms_td20ms 10Mb   20ms  {targetdelay_ 0.02}     {}
    10mb_20ms_min10  10Mb   20ms  {thresh_ 10}            {}
    10mb_20ms_max40  10Mb   20ms  {maxthresh_ 40}         {}
    10mb_20ms_pkts   10Mb   20ms  {queue_in_bytes_ false} {}
    10mb_20ms_late   10Mb   20ms  {}                      {mean_pktsize_ 1000}
}
set queues {}
foreach {name rate delay settings later} $cases {
    set saved {}
    foreach {var value} $settings {
        lappend saved $var [Queue/RED set $var]
        Queue/RED set $var $value
    }
    set a [$ns node]; set b [$ns node]
    $ns simplex-link $a $b $rate $delay RED
    set q [[$ns link $a $b] queue]
    foreach {var value} $later { $q set $var $value }
    lappend queues $name $rate $delay $q
    foreach {var value} $saved { Queue/RED set $var $value }
}

proc report {} {
    global queues
    foreach {name rate delay q} $queues {
        set line "red $name rate=$rate delay=$delay"
        foreach var {thresh_ maxthresh_ q_weight_ thresh_queue_ maxthresh_queue_} {
            append line " $var=[$q set $var]"
        }
        puts $line
    }
}
$ns at 0.0 "report"
$ns at 0.1 "exit 0"
$ns run
