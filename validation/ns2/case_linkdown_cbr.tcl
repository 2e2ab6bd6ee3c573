# Differential case LINKDOWN-CBR: what a link that goes down does to the packets it
# holds, line by line in the trace. Twin of validation/ns2/case_linkdown_cbr.toml.
#
#   s --100Mb/0.01ms-- r1 --1Mb/50ms, DropTail 1000-- r2 --100Mb/0.01ms-- d
#
# 2 Mb/s of CBR (1000-byte packets) into the 1 Mb/s link: at 1.0013 s a queue of about a
# hundred packets waits at r1, one packet is being sent and several propagate. r1-r2 goes
# down then (rtmodel-at) and up at 2.0013 s.
#
# usage: ns case_linkdown_cbr.tcl TRACEFILE   (runs 3 s; prints nothing)
set ns [new Simulator]
set tf [open [lindex $argv 0] w]
$ns trace-all $tf
set s [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set d [$ns node]
$ns duplex-link $s $r1 100Mb 0.01ms DropTail
$ns duplex-link $r1 $r2 1Mb 50ms DropTail
$ns duplex-link $r2 $d 100Mb 0.01ms DropTail
$ns queue-limit $r1 $r2 1000
set udp [new Agent/UDP]; $ns attach-agent $s $udp
set null [new Agent/Null]; $ns attach-agent $d $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 2Mb
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns rtmodel-at 1.0013 down $r1 $r2
$ns rtmodel-at 2.0013 up $r1 $r2
$ns at 3.0 "$ns flush-trace; puts {ns2 case=LINKDOWN-CBR}; exit 0"
$ns run
