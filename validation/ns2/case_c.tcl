# Differential case C: one Tahoe flow (Agent/TCP) through a 20-packet DropTail bottleneck.
# Twin of validation/ns2/case_c.toml. Same network as case A, only the agent differs.
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# Agent/TCP (Tahoe) -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 100 (the 20-packet buffer, not the window, limits), ns-2.35 defaults otherwise.
#
# usage: ns case_c.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 100.0
set ns [start_case]

lassign [ftp_flow $ns Agent/TCP Agent/TCPSink $src $dst 0.0] tcp sink

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns C
}
$ns at $T "finish"
$ns run
