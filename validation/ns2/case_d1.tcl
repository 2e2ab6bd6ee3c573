# Differential case D1: one NewReno flow through a tiny DropTail buffer, so that windows
# often lose more than one packet and NewReno repairs the later losses with partial ACKs.
# Twin of validation/ns2/case_d1.toml.
#
#   src --100Mb/1ms-- r1 --10Mb/5ms, DropTail limit 2-- r2 --100Mb/1ms-- sink
#
# queue-limit 2 on r1->r2: one packet waits while one is transmitted (ns-2 drops when
# length + 1 >= limit_). The access link is ten times faster, so the packets an ACK
# releases arrive back to back and a window overruns the buffer repeatedly; in ns-2.35
# about a third of the losses fall in a window that already lost a packet.
# Agent/TCP/Newreno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 1000 (never limits), ns-2.35 defaults otherwise. Every other queue: limit_ 50.
#
# usage: ns case_d1.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 60.0
set ns [new Simulator]
apply_seed_and_trace $ns
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000

chain $ns 100Mb 1ms 10Mb 5ms
$ns queue-limit $r1 $r2 2

lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $src $dst 0.0] tcp sink

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns D1
}
$ns at $T "finish"
$ns run
