# Differential case J: a 1 s outage of the bottleneck (both directions) from 10 s to 11 s,
# one NewReno flow. Twin of validation/ns2/case_j.toml (error_model kind = "blackout").
#
#   src --10Mb/1ms-- r1 --1.5Mb/40ms-- r2 --10Mb/1ms-- sink
#
# Agent/TCP/Newreno -> Agent/TCPSink, FTP, packetSize_ 1000 (1040 B on the wire),
# window_ 100, ns-2.35 defaults otherwise. The outage is an ErrorModel (unit pkt) on each
# direction of r1-r2 (`$ns lossmodel`, placed after the queue) whose rate_ is 1 from 10 s
# to 11 s and 0 otherwise.
#
# usage: ns case_c.tcl [SECONDS [SEED [TRACEFILE]]]     (output format: lib.tcl)
source [file join [file dirname [info script]] lib.tcl]
parse_args 100.0
set ns [start_case]

# The outage: one error model per direction of the bottleneck.
set outage {}
foreach {a b} [list $r1 $r2 $r2 $r1] {
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ 0.0
    $em ranvar [new RandomVariable/Uniform]
    $em drop-target [new Agent/Null]
    $ns lossmodel $em $a $b
    lappend outage $em
}
foreach em $outage {
    $ns at 10.0 "$em set rate_ 1.0"
    $ns at 11.0 "$em set rate_ 0.0"
}

lassign [ftp_flow $ns Agent/TCP/Newreno Agent/TCPSink $src $dst 0.0] tcp sink

proc finish {} {
    global ns tcp sink
    report_tcp 0 $tcp $sink
    finish_run $ns J
}
$ns at $T "finish"
$ns run
