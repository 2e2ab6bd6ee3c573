# Differential case SACK-DelAck: two Sack1 flows with delayed-ACK SACK sinks share a
# 5-packet DropTail buffer. Twin of validation/ns2/case_sack_delack.toml.
#
#   src --100Mb/1ms-- r1 --10Mb/5ms, DropTail limit 5-- r2 --100Mb/1ms-- sink
#
# Agent/TCP/Sack1 -> Agent/TCPSink/Sack1/DelAck (interval_ 100 ms, maxSackBlocks_ 3),
# flows starting at 0 and 0.1 s, FTP, packetSize_ 1000 (1040 B on the wire), window_ 1000,
# ns-2.35 defaults otherwise. An ACK for two packets releases two or three back to back
# at 100 Mb/s, so a full buffer often drops several packets of one window: about a
# quarter of the losses are resent from the scoreboard. The harness also counts the ACKs
# (arrivals at r2->r1). Every other queue: limit_ 50.
#
# usage: ns case_sack_delack.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
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
    lassign [ftp_flow $ns Agent/TCP/Sack1 Agent/TCPSink/Sack1/DelAck $src $dst [expr 0.1*$i]] tcp($i) sink($i)
}

proc finish {} {
    global ns n
    report_flows $n tcp sink
    finish_run $ns SACK-DelAck
}
$ns at $T "finish"
$ns run
