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
set ns [start_case]   ;# case A's chain; its Agent/TCP defaults concern only the Reno flow

lassign [tfrc_flow $ns $src $dst 0.0] tfrc sink
sample_tfrc_rate $ns 0.1 $tfrc

proc finish {} {
    global ns tfrc sink
    report_tfrc 0 $tfrc $sink
    finish_run $ns TFRC
}
$ns at $T "finish"
$ns run
