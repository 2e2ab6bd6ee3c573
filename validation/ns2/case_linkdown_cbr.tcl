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
source [file join [file dirname [info script]] lib.tcl]
set ns [new Simulator]
traced_cbr_chain $ns [lindex $argv 0] 1Mb 50ms 2Mb
$ns rtmodel-at 1.0013 down $r1 $r2
$ns rtmodel-at 2.0013 up $r1 $r2
$ns at 3.0 "$ns flush-trace; puts {ns2 case=LINKDOWN-CBR}; exit 0"
$ns run
