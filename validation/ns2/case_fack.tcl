# Differential case FACK: four Fack flows with SACK sinks share a small DropTail buffer.
# Twin of validation/ns2/case_fack.toml; the network of case SACK (case_sack.tcl).
#
#   src --100Mb/1ms-- r1 --10Mb/10ms, DropTail limit 10-- r2 --100Mb/1ms-- sink
#
# Agent/TCP/Fack -> Agent/TCPSink/Sack1 (maxSackBlocks_ 3), four flows from one node to
# another, flow i starting at 0.1*i s, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 1000 (never limits), ns-2.35 defaults otherwise (rampdown_ false, ss-div4_
# false). Every other queue: limit_ 50.
#
# FackTcpAgent::timeout never increments nrexmit_, so the script traces each agent's
# backoff_ to stdout ("T addr port dst dport backoff_ V" lines); the harness counts a
# timeout for each rise of backoff_ (every timeout with data outstanding doubles it).
#
# usage: ns case_fack.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000

chain $ns 100Mb 1ms 10Mb 10ms
$ns queue-limit $r1 $r2 10

set n 4
for {set i 0} {$i < $n} {incr i} {
    lassign [ftp_flow $ns Agent/TCP/Fack Agent/TCPSink/Sack1 $src $dst [expr 0.1*$i]] tcp($i) sink($i)
    $tcp($i) attach stdout
    $tcp($i) trace backoff_
}

proc finish {} {
    global ns n
    report_flows $n tcp sink
    finish_run $ns FACK
}
$ns at $T "finish"
$ns run
