# Differential case V2: one Vegas flow on case V1's network (reference document 001
# Fig. 1), with ns-2.35's own defaults: v_alpha_ 1, v_beta_ 3, v_gamma_ 1 and syn_ true.
# Twin of validation/ns2/case_v2.toml.
#
#   src --1Gb/1ms-- r1 --50Mb/48ms-- r2 --1Gb/1ms-- sink      (100 ms round trip)
#
# With syn_ true ns-2's Vegas agent starts with cwnd 1, and sets windowInit_ (2) on the
# ACK *after* the one of packet 0 (VegasTcpAgent::recv tests last_ack_ == 0 before taking
# the ACK), so slow start goes 1, 1, 3, 3, 6, 6, ... Unlike Agent/TCP, its output() sends
# packet 0 as a full packetSize_ packet (the twin's SYN is header-only: the first round
# trip is 0.18 ms shorter there). Agent/TCPSink, FTP, packetSize_ 1000 (no TCP/IP header
# on the wire), window_ 20000, queue limits 10000 on the data path (no loss).
#
# usage: ns case_v2.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl, with
# a "sample" line every 100 ms)
source [file join [file dirname [info script]] lib.tcl]
parse_args 65.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 20000

set bottleneck [chain $ns 1Gb 1ms 50Mb 48ms]
$ns queue-limit $src $r1 10000
$ns queue-limit $r1 $r2 10000
$ns queue-limit $r2 $dst 10000

lassign [ftp_flow $ns Agent/TCP/Vegas Agent/TCPSink $src $dst 0.0] tcp sink
sample_every $ns 0.1 $tcp $bottleneck

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns V2
}
$ns at $T "finish"
$ns run
