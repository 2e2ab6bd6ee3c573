# Differential case V1: one Vegas flow on reference document 001's Fig. 1 network: the
# slow start (every other round, left at cwnd 64) and the ramp of one packet per round to
# the equilibrium of about 630 packets, with no loss. Twin of validation/ns2/case_v1.toml.
#
#   src --1Gb/1ms-- r1 --50Mb/48ms-- r2 --1Gb/1ms-- sink      (100 ms round trip)
#
# Agent/TCP/Vegas (v_alpha_ 2, v_beta_ 4, v_gamma_ 1, the paper's) -> Agent/TCPSink, FTP,
# packetSize_ 1000, window_ 20000 (never limits), syn_ false (cwnd starts at windowInit_
# 2, which gives the paper's 2, 2, 4, 4, ..., 64), queue limits 10000 on the data path
# (no loss), ns-2.35 defaults otherwise. ns-2's VegasTcpAgent::output puts packetSize_
# bytes on the wire: no 40-byte TCP/IP header (the twin sets header_size = "0B").
#
# usage: ns case_v1.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl, with
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
$tcp set v_alpha_ 2
$tcp set v_beta_ 4
$tcp set v_gamma_ 1
$tcp set syn_ false
sample_every $ns 0.1 $tcp $bottleneck

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns V1
}
$ns at $T "finish"
$ns run
