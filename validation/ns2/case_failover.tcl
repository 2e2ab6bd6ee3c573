# Differential case FAILOVER: link dynamics (`rtmodel-at`, bandwidth changes) with static
# or Session routing. Twin of validation/ns2/case_failover.toml.
#
#              +-- a --+            every link 10Mb, DropTail 50; the a path 10 ms a hop,
#   s -- r1 ---|       |--- r2 -- d the b path 20 ms a hop, s-r1 and r2-d 1 ms
#              +-- b --+
#
# Node ids (creation order): s 0, d 1, r1 2, r2 3, a 4, b 5; both paths have two hops and
# ns-2 takes the lower id, a. r1-a goes down at 4 s and up at 8 s; s->r1 drops to 2Mb at
# 12 s and returns to 10Mb at 16 s. One Reno flow s -> d, FTP, packetSize_ 1000, window_
# 100, ns-2.35 defaults otherwise.
#
# usage: ns case_failover.tcl static|dynamic SECONDS TRACEFILE
# prints: sink_bytes data_pkts rexmit_pkts timeouts (as case_a.tcl); drops per link
# direction are counted from the trace file (a DynamicLink's drops reach no QueueMonitor).
set mode [lindex $argv 0]
set T [lindex $argv 1]
set ns [new Simulator]
set tf [open [lindex $argv 2] w]
$ns trace-all $tf
if {$mode == "dynamic"} { $ns rtproto Session }
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100

set s [$ns node]; set d [$ns node]; set r1 [$ns node]; set r2 [$ns node]
set a [$ns node]; set b [$ns node]
$ns duplex-link $s $r1 10Mb 1ms DropTail
$ns duplex-link $r1 $a 10Mb 10ms DropTail
$ns duplex-link $a $r2 10Mb 10ms DropTail
$ns duplex-link $r1 $b 10Mb 20ms DropTail
$ns duplex-link $b $r2 10Mb 20ms DropTail
$ns duplex-link $r2 $d 10Mb 1ms DropTail

set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $s $tcp
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

$ns rtmodel-at 4.0 down $r1 $a
$ns rtmodel-at 8.0 up $r1 $a
$ns at 12.0 "[[$ns link $s $r1] link] set bandwidth_ 2Mb"
$ns at 16.0 "[[$ns link $s $r1] link] set bandwidth_ 10Mb"

proc finish {} {
    global tcp sink ns T
    puts [format "ns2 case=FAILOVER T=%s sink_bytes=%d data_pkts=%d rexmit_pkts=%d timeouts=%d" \
        $T [$sink set bytes_] [$tcp set ndatapack_] [$tcp set nrexmitpack_] [$tcp set nrexmit_]]
    $ns flush-trace
    exit 0
}
$ns at $T "finish"
$ns run
