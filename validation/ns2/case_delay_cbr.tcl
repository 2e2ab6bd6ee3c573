# Differential case DELAY-CBR: a propagation delay that falls while packets are on the
# wire. Twin of validation/ns2/case_delay_cbr.toml.
#
#   s --100Mb/0.01ms-- r1 --10Mb/100ms-- r2 --100Mb/0.01ms-- d
#
# 1 Mb/s of CBR (1000-byte packets, one every 8 ms); at 1.0025 s the r1->r2 delay falls
# to 10 ms: the dozen packets on the wire keep their arrival times and the packets sent
# after the change arrive among them (ns-2's LinkDelay, avoidReordering_ off).
#
# usage: ns case_delay_cbr.tcl TRACEFILE   (runs 3 s)
set ns [new Simulator]
set tf [open [lindex $argv 0] w]
$ns trace-all $tf
set s [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set d [$ns node]
$ns duplex-link $s $r1 100Mb 0.01ms DropTail
$ns duplex-link $r1 $r2 10Mb 100ms DropTail
$ns duplex-link $r2 $d 100Mb 0.01ms DropTail
$ns queue-limit $r1 $r2 1000
set udp [new Agent/UDP]; $ns attach-agent $s $udp
set null [new Agent/Null]; $ns attach-agent $d $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 1Mb
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns at 1.0025 "[[$ns link $r1 $r2] link] set delay_ 10ms"
$ns at 3.0 "$ns flush-trace; puts {ns2 case=DELAY-CBR}; exit 0"
$ns run
