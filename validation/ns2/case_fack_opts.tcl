# Differential case FACK-OPTS: two Fack flows with delayed-ACK SACK sinks share a
# 5-packet DropTail buffer, one with rampdown_, one with ss-div4_. Twin of
# validation/ns2/case_fack_opts.toml; the network of case SACK-DELACK.
#
#   src --100Mb/1ms-- r1 --10Mb/5ms, DropTail limit 5-- r2 --100Mb/1ms-- sink
#
# Agent/TCP/Fack -> Agent/TCPSink/Sack1/DelAck (interval_ 100 ms, maxSackBlocks_ 3),
# flows starting at 0 and 0.1 s, FTP, packetSize_ 1000 (1040 B on the wire), window_ 1000;
# flow 0 rampdown_ true, flow 1 ss-div4_ true, ns-2.35 defaults otherwise. backoff_ is
# traced to stdout for the timeouts, as in case_fack.tcl. Every other queue: limit_ 50.
#
# usage: ns case_fack_opts.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000

chain $ns 100Mb 1ms 10Mb 5ms
$ns queue-limit $r1 $r2 5

set n 2
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Fack Agent/TCPSink/Sack1/DelAck $src $dst [expr 0.1*$i]] tcp($i) sink($i)
    $tcp($i) attach stdout
    $tcp($i) trace backoff_
}
$tcp(0) set rampdown_ true
$tcp(1) set ss-div4_ true

proc finish {} {
    global ns n
    report_flows $n tcp sink
    finish_run $ns FACK-OPTS
}
$ns at $T "finish"
$ns run
