# Differential case V3: one Vegas flow that wants more queue than the bottleneck buffer
# holds, so it loses packets again and again: fast retransmits on the third duplicate
# and on the fine-grained timer, the checks of the first ACKs after a retransmission
# (including ns-2's resend of a packet not yet sent), cuts to 3/4, inflation and
# deflation, and a timeout. Twin of validation/ns2/case_v3.toml.
#
#   src --100Mb/1ms-- r1 --5Mb/30ms, DropTail limit 3-- r2 --100Mb/1ms-- sink
#
# Agent/TCP/Vegas with v_alpha_ 3, v_beta_ 5 (3 to 5 packets queued wanted; limit 3 lets
# 2 wait beside the one in transmission), v_gamma_ 1, syn_ false -> Agent/TCPSink, FTP,
# packetSize_ 1000 (no TCP/IP header on the wire), window_ 1000 (never limits), ns-2.35
# defaults otherwise; every other queue: limit_ 50.
#
# usage: ns case_v3.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl, with
# a "sample" line every 100 ms)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000

set bottleneck [chain $ns 100Mb 1ms 5Mb 30ms]
$ns queue-limit $r1 $r2 3

lassign [ftp_flow $ns Agent/TCP/Vegas Agent/TCPSink $src $dst 0.0] tcp sink
$tcp set v_alpha_ 3
$tcp set v_beta_ 5
$tcp set v_gamma_ 1
$tcp set syn_ false
sample_every $ns 0.1 $tcp $bottleneck

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns V3
}
$ns at $T "finish"
$ns run
