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
source [file join [file dirname [info script]] lib.tcl]
set ns [new Simulator]
traced_cbr_chain $ns [lindex $argv 0] 10Mb 100ms 1Mb
$ns at 1.0025 "[[$ns link $r1 $r2] link] set delay_ 10ms"
$ns at 3.0 "$ns flush-trace; puts {ns2 case=DELAY-CBR}; exit 0"
$ns run
