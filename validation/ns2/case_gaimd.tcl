# Differential case GAIMD: one TCP(0.31, 0.875) flow (Agent/TCP/Reno with increase_num_
# 0.31 and decrease_num_ 0.875) through a 20-packet DropTail bottleneck. Twin of
# validation/ns2/case_gaimd.toml. Same network as case A; only the agent's window
# parameters differ from case E's Reno (and the sink ACKs every packet).
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# Agent/TCP/Reno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the wire), window_ 100
# (the 20-packet buffer, not the window, limits), ns-2.35 defaults otherwise. TCP(0.31,
# 0.875) is the generalized AIMD of Yang & Lam (ICNP 2000) that Zhang & Tsaoussidis
# (NOSSDAV 2003, §4) compare: opencwnd adds increase_num_/cwnd per ACK in congestion
# avoidance; slowdown cuts to decrease_num_ x the window, except the first cut, one in slow
# start, and the ssthresh of a timeout, which halve.
#
# usage: ns case_gaimd.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 100.0
set ns [start_case]
Agent/TCP set increase_num_ 0.31
Agent/TCP set decrease_num_ 0.875

lassign [ftp_flow $ns Agent/TCP/Reno Agent/TCPSink $src $dst 0.0] tcp sink

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns GAIMD
}
$ns at $T "finish"
$ns run
