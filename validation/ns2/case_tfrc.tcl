# Differential case TFRC: one TFRC flow (Agent/TFRC -> Agent/TFRCSink, ns-2.35 defaults)
# through a 20-packet DropTail bottleneck. Twin of validation/ns2/case_tfrc.toml. Case
# A's network, with TFRC in place of the TCP flow.
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# packetSize_ 1000 (1032 B on the wire: useHeaders_ true adds headersize_ 32), feedback
# packets of 40 B, every other setting at its ns-default.tcl value (df_ 0.95, ca_ 1,
# slow_increase_ 1, InitRate_ 300, NumFeedback_ 1, PreciseLoss_ 1, numPkts_ 1, ...).
#
# Prints, besides lib.tcl's queue lines:
#   tfrc I bytes=.. data_pkts=.. packet_size=.. header_size=..
#                          TFRCSink bytes_ (wire bytes received) and Agent/TFRC ndatapack_
#   rate t=.. rate=..      the sender's rate_ (bytes/s) every 0.1 s
#   time: T loss_rate: P   the receiver's loss event rate at each report after the first
#                          loss (TFRCSink printLoss_ 1; its other lines too)
#
# usage: ns case_tfrc.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
# The receiver's printLoss_ lines come from C's stdio: line-buffer Tcl's side too, so that
# lines do not interleave when the C side is line-buffered (the harness runs ns under
# `stdbuf -oL`).
fconfigure stdout -buffering line
parse_args 100.0
set ns [new Simulator]
apply_seed_and_trace $ns

chain $ns 10Mb 1ms 1.5Mb 40ms
$ns queue-limit $r1 $r2 20
$ns queue-limit $r2 $r1 20

proc tfrc_flow {ns from to start} {
    set tfrc [new Agent/TFRC]; set sink [new Agent/TFRCSink]
    $sink set printLoss_ 1
    $ns attach-agent $from $tfrc; $ns attach-agent $to $sink
    $ns connect $tfrc $sink
    $ns at $start "$tfrc start"
    return [list $tfrc $sink]
}

proc sample_rate {ns interval tfrc} {
    global T
    for {set k 0} {$k * $interval <= $T + 1e-9} {incr k} {
        $ns at [expr {$k * $interval}] "puts \"rate t=\[$ns now\] rate=\[$tfrc set rate_\]\""
    }
}

lassign [tfrc_flow $ns $src $dst 0.0] tfrc sink
sample_rate $ns 0.1 $tfrc

proc finish {} {
    global ns tfrc sink
    puts "tfrc 0 bytes=[$sink set bytes_] data_pkts=[$tfrc set ndatapack_] packet_size=[$tfrc set packetSize_] header_size=[$tfrc set headersize_]"
    finish_run $ns TFRC
}
$ns at $T "finish"
$ns run
