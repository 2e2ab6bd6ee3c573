# Differential case E: one Reno flow with a delayed-ACK receiver (Agent/TCPSink/DelAck)
# through a 20-packet DropTail bottleneck. Twin of validation/ns2/case_e.toml.
# Same network as case A; only the sink differs.
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# Agent/TCP/Reno -> Agent/TCPSink/DelAck, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 100 (the 20-packet buffer, not the window, limits), ns-2.35 defaults otherwise:
# DelAck interval_ 100 ms, RFC2581_immediate_ack_ and SYN_immediate_ack_ true (the SYN
# and out-of-order or gap-filling packets are ACKed at once, every second in-order packet
# otherwise). The harness counts the ACKs as arrivals at the r2->r1 queue.
#
# usage: ns case_e.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 100.0
set ns [start_case]

lassign [ftp_flow $ns Agent/TCP/Reno Agent/TCPSink/DelAck $src $dst 0.0] tcp sink

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns E
}
$ns at $T "finish"
$ns run
