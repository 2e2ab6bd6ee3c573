# What queue-limit N means for ns-2.35 Queue/DropTail (docs/models/droptail.md): a burst of
# 15 packets (1000 B) at one instant into a 1 Mb/s link with queue-limit N. Prints how many
# arrived, how many were dropped and how many waited at most. ns 2.35 prints, for N = 2, 5, 10:
#   limit=2 arrivals=15 drops=13 max_waiting=1
#   limit=5 arrivals=15 drops=10 max_waiting=4
#   limit=10 arrivals=15 drops=5 max_waiting=9
# i.e. N − 1 wait and one is on the wire (document 004's "Management" queue, n − 1).
#
# usage: ns droptail_limit.tcl N
set N [lindex $argv 0]
set ns [new Simulator]
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns duplex-link $a $b 100Mb 1ms DropTail
$ns duplex-link $b $c 1Mb 1ms DropTail
$ns queue-limit $b $c $N
set qm [$ns monitor-queue $b $c [open /dev/null w] 0.0001]
set udp [new Agent/UDP]; $ns attach-agent $a $udp
set null [new Agent/Null]; $ns attach-agent $c $null; $ns connect $udp $null
$udp set packetSize_ 1000
set maxq 0
proc sample {} { global ns qm maxq; set q [$qm set pkts_]; if {$q > $maxq} {set maxq $q}; $ns at [expr [$ns now] + 0.0001] sample }
$ns at 0.0 sample
for {set i 0} {$i < 15} {incr i} { $ns at 0.01 "$udp send 1000" }
proc finish {} { global qm maxq N; puts "limit=$N arrivals=[$qm set parrivals_] drops=[$qm set pdrops_] max_waiting=$maxq"; exit 0 }
$ns at 1.0 finish
$ns run
