# Differential case A: one Reno flow through a 20-packet DropTail bottleneck.
# Twin of validation/ns2/case_a.toml.
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# Agent/TCP/Reno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 100 (so the 20-packet buffer, not the window, limits), ns-2.35 defaults
# otherwise (windowInit_ 2, syn_ true, delay_growth_ true, tcpTick_ 0.01, minrto_ 0.2).
#
# usage: ns case_a.tcl [SECONDS [TRACEFILE]]
# prints one line of key=value pairs:
#   sink_bytes   TCPSink bytes_ (wire bytes delivered in order, incl. the 40-byte SYN)
#   data_pkts    Agent/TCP ndatapack_ (data packets sent, incl. SYN and retransmissions)
#   rexmit_pkts  nrexmitpack_ (retransmitted packets)
#   timeouts     nrexmit_ (retransmission timeouts)
#   bn_arrivals, bn_departures, bn_drops   QueueMonitor on the r1->r2 queue
#   drops_total  drops on every queue of the topology (QueueMonitor on each direction)
set T 100.0
if {$argc >= 1} { set T [lindex $argv 0] }
set ns [new Simulator]
if {$argc >= 2} {
    set tf [open [lindex $argv 1] w]
    $ns trace-all $tf
}
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100

set src [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set dst [$ns node]
$ns duplex-link $src $r1 10Mb 1ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 40ms DropTail
$ns duplex-link $r2 $dst 10Mb 1ms DropTail
$ns queue-limit $r1 $r2 20
$ns queue-limit $r2 $r1 20

# one QueueMonitor per link direction; the bottleneck's is reported separately
set pairs [list [list $src $r1] [list $r1 $src] [list $r1 $r2] [list $r2 $r1] \
               [list $r2 $dst] [list $dst $r2]]
set mons {}
foreach p $pairs { lappend mons [$ns monitor-queue [lindex $p 0] [lindex $p 1] ""] }
set bnmon [lindex $mons 2]

set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $src $tcp
$ns attach-agent $dst $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

proc finish {} {
    global tcp sink bnmon mons T ns
    set dt 0
    foreach m $mons { incr dt [$m set pdrops_] }
    puts [format "ns2 case=A T=%s sink_bytes=%d data_pkts=%d rexmit_pkts=%d timeouts=%d bn_arrivals=%d bn_departures=%d bn_drops=%d drops_total=%d final_cwnd=%s" \
        $T [$sink set bytes_] [$tcp set ndatapack_] [$tcp set nrexmitpack_] [$tcp set nrexmit_] \
        [$bnmon set parrivals_] [$bnmon set pdepartures_] [$bnmon set pdrops_] $dt [$tcp set cwnd_]]
    $ns flush-trace
    exit 0
}
$ns at $T "finish"
$ns run
