"""Differential tests against ns-2.35 for the models cases A and B1 do not cover.

Each case is a Tcl script and a tcpsim TOML twin in validation/ns2/ (the scripts share
validation/ns2/lib.tcl), run and compared by validation/ns2/harness.py. Both sides count
goodput as in-order data packets x 1040 B (ns-2: TCPSink ``bytes_ // 1040``; tcpsim:
``unique_packets``), over the whole run. ns-2's fast retransmits are ``ncwndcuts1_ -
nrexmit_``; drops and arrivals come from a QueueMonitor/ED on the link direction
(``epdrops_`` = RED early drops) and from tcpsim's queues.csv.

Tolerances and why
------------------
C  Tahoe (Agent/TCP), case A's network (1.5 Mb/s / 40 ms, DropTail 20), 100 s, seed 1
   on both sides. Goodput 2 %, bottleneck drops 10 %, fast retransmits 10 %, timeouts
   +-1 (absolute). The run draws no random number but the sender's clock phase
   (boot_time_), which only shifts RTT samples by a tick, so the two should agree
   closely; the tolerances are case A's, and 10 % / +-1 leave room for one shifted
   timeout. Measured (tcpsim f5ca13a): identical on every counter (16374 packets,
   66 drops, 30 fast retransmits, 0 timeouts, 103 retransmissions).
D1 NewReno, 100 Mb/s access, 10 Mb/s / 5 ms bottleneck, DropTail limit 2, 60 s. About a
   third of the losses fall in windows that already lost a packet and are repaired by
   partial-ACK retransmissions (``multi_loss_repairs`` = drops - fast retransmits -
   timeouts, 361 in ns-2). Goodput 2 %, drops / retransmissions / fast retransmits /
   multi-loss repairs 10 %, timeouts +-1, as case A. Every duration in this network is
   a whole multiple of 0.8 us, so arrivals and ends of transmission tie exactly and
   ns-2's floating-point event times break some ties the other way (see
   validation/ns2/README.md); measured: goodput -0.3 %, 1078 vs 1079 drops, 717 vs 718
   fast retransmits, 361 vs 361 repairs, no timeouts.
   Also asserted on the ns-2 side: multi-loss repairs are at least 20 % of the drops, so
   the case keeps testing what it is meant to.
D2 RTT unfairness: four NewReno flows, access delays 1/5/12/25 ms (RTTs 24-72 ms),
   10 Mb/s / 10 ms DropTail 50, 120 s. The only random draws are the agents' clock
   phases, yet DropTail phase effects make each flow's share depend on them: over ns-2
   seeds 1-10 (and tcpsim seeds 1-10) single runs land on a handful of trajectories whose
   per-flow goodputs span 3 % (flow 0), 6 % (flow 1), 8 % (flow 2) and 7 % (flow 3);
   tcpsim reproduces the same trajectories (every counter equal) with other seeds. So both
   sides are run with seeds 1, 2, 3 and the means compared: aggregate goodput 2 %,
   each flow's goodput 5 % (observed 3-seed-mean differences: +0.6, -1.8, -0.6, -0.5 %;
   the aggregate differs by 0.01 %). Also asserted on the ns-2 side: goodput falls with
   RTT, flow 0 > flow 1 > flow 2 > flow 3.
E  Reno with Agent/TCPSink/DelAck (interval_ 100 ms), case A's network, 100 s, seed 1.
   Goodput 2 %, ACKs (packets arriving at the r2->r1 queue) 2 %. Measured: 17762 vs
   17759 packets, 9250 vs 9248 ACKs. Also asserted on the ns-2 side: 0.5-0.6 ACKs per
   data packet, i.e. delayed ACKs are in effect.
GAIMD  TCP(0.31, 0.875): Agent/TCP/Reno with increase_num_ 0.31 and decrease_num_ 0.875
   (tcpsim: cc = { kind = "reno", increase_num = 0.31, decrease_num = 0.875 }), every-packet
   sink, case A's network, 100 s, seed 1. Goodput 2 %, bottleneck drops 10 %, fast
   retransmits 10 %, timeouts +-1, as case C. Measured: 17813 vs 17807 packets delivered,
   67 vs 66 drops, 31 vs 31 fast retransmits, 1 vs 1 timeout, 101 vs 101 retransmissions.
   The same network with ns-2's Reno defaults (1.0, 0.5) differs by as much (17931 vs
   17925 packets sent, 68 vs 68 drops), so the gap is Reno's on this network, not the
   generalized window rules'. The rules themselves are pinned by tcp/cc/reno.rs's unit
   tests.
F  Packet-mode RED (queue_in_bytes_ / bytes_ false, thresh_ 10, maxthresh_ 30,
   q_weight_ 0.002, linterm_ 10, gentle_ true, limit 100) on 10 Mb/s / 20 ms; 8 NewReno
   flows and a 2 Mb/s CBR/UDP flow (1000 B, random_ 0), 60 s. RED's draws differ between
   the simulators (ns-2: one global MRG32k3a; tcpsim: a stream per component), so ns-2
   runs once with its default seed and tcpsim with seeds 1, 2, 3, whose mean is compared.
   Aggregate TCP goodput 3 %, CBR packets delivered 2 %, early drops 15 %, Jain's index
   over the TCP flows 0.03 (absolute). Measured spread over seeds 1-10, ns-2 / tcpsim:
   aggregate goodput cv 0.09 % / 0.12 %; CBR packets 14621-14683 / 14633-14674; early
   drops 1487-1552 / 1490-1551; Jain 0.9942-0.9996 / 0.9925-0.9985. The tolerances are
   several times these spreads. Measured: goodput +0.06 %, CBR +0.18 %, early drops
   1534 vs 1522 (-0.8 %), Jain 0.9968 vs 0.9957. Also asserted on the ns-2 side: early
   drops outnumber overflow drops (RED, not the buffer limit, does the dropping).
ECN
   Case F's RED with ``setbit_ true`` and eight NewReno flows with ``ecn_ 1`` (no CBR),
   60 s: RED marks ECT packets while p_b < mark_p_ (0.1), i.e. while the average is
   below maxthresh_. Marks are ns-2's QueueMonitor ``pmarks_`` (departures with ECT and
   CE) and tcpsim's queue ``marks``; ECN responses are ``necnresponses_`` and
   ``ecn_reductions``. Means over seeds 1-3 on both sides. Goodput 2 %, marks 10 %,
   ECN responses 10 %, bottleneck drops 15 %, retransmissions 25 %, timeouts +-3, Jain
   0.03. Spread over seeds 1-10, ns-2 / tcpsim: marks 1072-1127 / 1070-1127; responses
   962-989 / 966-982; drops 151-219 / 152-179; retransmissions 303-1022 / 303-496
   (most follow the slow-start overflow at the start, about 130 drops, and one go-back-N
   can resend hundreds); timeouts 4-6 / 4-9; goodput within 0.5 %. Measured (seeds 1-3
   means): goodput +0.02 %, marks 1092.7 vs 1100.3, responses 980 vs 976, drops 157 vs
   155, retransmissions 397.3 vs 388.7, timeouts 4.7 vs 4.7. Also asserted on the ns-2
   side: marks outnumber early drops tenfold and responses exceed half the marks.
ECN1
   Forty ECN NewReno flows on 1.5 Mb/s / 20 ms with RED thresh_ 5, maxthresh_ 15,
   limit 50 and ``mark_p_ 1.0`` (marks up to an average of 2 maxthresh_): windows hover
   around one packet, so about a quarter of the ECN responses find cwnd <= 1 (cwnd goes
   to 0.5, the flow waits for its timer, backed off at the next such response). Means
   over seeds 1-3: goodput 2 %, marks 10 %, responses 10 %, drops 15 %,
   retransmissions 25 %, Jain 0.05. Timeouts are not compared: tcpsim counts the timer
   expiries after an ECN response, which ns-2's ``nrexmit_`` leaves out (about 11 per
   run). Spread over seeds 1-10, ns-2 / tcpsim: marks 4333-4558 / 4385-4629; responses
   3721-3928 / 3751-3949; drops 89-110 / 89-107; retransmissions 131-163 / 135-171;
   Jain 0.898-0.951 / 0.866-0.934; goodput means equal to 0.01 %. Measured (seeds 1-3):
   goodput +0.11 %, marks 4464 vs 4507, responses 3808 vs 3851, drops 100 vs 97.7,
   retransmissions 151.7 vs 137.7, Jain 0.922 vs 0.907.
RED-AUTO
   Queue/RED left at every ns-2.35 default, so ns-2 computes its thresholds and weight
   from the link (thresh_ 0, maxthresh_ 0, q_weight_ -1, targetdelay_ 0.005; byte mode,
   mean_pktsize_ 500): on 20 Mb/s / 40 ms (ptc 5000 packets/s) min_th 12.5 and max_th 37.5
   packets (x 500 B), w_q = 1 - exp(-1/(10 x 0.1206 s x 5000)) = 1.658e-4; tcpsim's twin
   says ``min_th = "auto", max_th = "auto", weight = "auto"``. Queue limit 100 (x 500 B),
   8 NewReno flows, 60 s, means over seeds 1-3 on both sides (RED's draws differ).
   Goodput 2 %, early drops 15 % and drops 15 % (case F's), overflow drops 10 %,
   retransmissions 10 %, Jain 0.03. Spread over seeds 1-10, ns-2 / tcpsim: goodput
   17.60-17.99 / 17.57-17.86 Mb/s; early drops 316-337 / 311-338; drops 539-560 /
   533-561, of which 222-223 overflow drops on both sides (the slow-start overshoot, the
   average being slow with so small a weight); Jain 0.9923-0.9974 / 0.9928-0.9983.
   Measured (seeds 1-3 means): goodput -0.57 %, early drops 330 vs 331.7, drops 552.7 vs
   554.3, overflow drops 222.7 vs 222.7, retransmissions 951.3 vs 954, Jain 0.9947 vs
   0.9963. The case tells the automatic values from fixed ones: tcpsim with 5 / 15 /
   0.002 delivers 13 % less and early-drops twice as often (660); with automatic
   thresholds and weight 0.002, -11 % and 471 early drops; with 5 / 15 and the automatic
   weight, 150 overflow drops instead of 223. Also asserted on the ns-2 side: the
   thresh_, maxthresh_ and q_weight_ it printed are the automatic ones, and early drops
   outnumber overflow drops.

G  Applications that stop (validation/ns2/fidelity.py): five Reno / NewReno flows, each on
   its own path (a shared DropTail bottleneck would make per-flow shares depend on the
   order of simultaneous events), start at 0-4.4 s and are stopped with FTP ``stop``:
   two in fast recovery, two in a go-back-N after a timeout, one with a 39-packet window
   in flight; 15 s. ns-2's stop sets ``curseq_`` to ``maxseq_``. Each path is
   deterministic (ns-2 seeds 1-5 and tcpsim seeds 1-5 give the same counters), so the
   tolerances are tight: each flow's goodput 1 %, retransmissions 5 %, timeouts +-1.
   Measured: every counter equal. With the old rule (``curseq <- t_seqno``) the two flows
   stopped in a go-back-N delivered 101 and 109 packets instead of 167 and 190 (-39.5 %,
   -42.6 %). Also asserted on the ns-2 side: each sender is in the state the case is
   meant to test when it is stopped, and ``curseq_`` equals ``maxseq_`` after the stop.

H  Two paths of equal hop count between two routers (validation/ns2/fidelity.py):
   r1-p-r2 at 10 Mb/s / 5 ms per link, r1-q-r2 at 5 Mb/s / 15 ms, two NewReno flows,
   30 s. ns-2.35 routes each node through its lowest-id neighbour one hop closer to the
   origin (route.cc), so data and ACKs both use p; the twin declares its links so that
   the first link declared leaves r1 towards q and r2 towards p. Deterministic (seeds 1-4
   give the same counters on both sides): each flow's goodput 2 %, aggregate 1 %, packets
   entering r1->p / r2->p 2 %, and none on r1->q / r2->q. Measured: every counter equal.
   With the former rule (first link declared wins: data through q, ACKs through p) the
   aggregate goodput was -49.4 % (flow 0 -88.8 %, flow 1 +4.4 %).

I  A symmetric dumbbell (validation/ns2/fidelity.py): four NewReno flows with equal RTTs
   (32 ms), 10 Mb/s / 10 ms DropTail 50, all started at 0 s, 60 s. Only the order of
   simultaneous events tells the flows apart: ns-2 runs `$ns at 0.0 "$ftp($i) start"`
   first in, first out, tcpsim starts flows of equal start time in declaration order,
   and the first-started flow ends with the most packets. Deterministic (seeds 1-5 give
   the same counters on both sides). Each flow's goodput and the aggregate within
   0.05 %, below the 0.09 % between the two closest flows, so a different start order
   fails (starting the flows in reverse order in ns-2 permutes the four counts exactly);
   retransmissions 5 %. Measured: 17971 / 17955 / 17932 / 17821 packets on both sides.

DRR Queue/DRR on a 10 Mb/s / 10 ms bottleneck (blimit_ 52000 bytes, quantum_ 250,
   buckets_ 10, mask_ 0; tcpsim ``limit = "52000B", quantum = "250B", buckets = 10``),
   four NewReno flows with RTTs 24-72 ms (case D2's access delays) and a 6 Mb/s CBR/UDP
   flow, each from its own node, 60 s. ns-2's DRR classifies by source address, so each
   flow is a class; fid_ is set only for the flow monitor that counts drops per flow.
   The two runs are seed-independent (every ns-2 and tcpsim seed gives the same
   counters), so one run each. Measured: identical on every counter (per-flow packets
   14733 / 14621 / 14370 / 13362, CBR 15447, drops per flow 145 / 121 / 97 / 93 / 29515,
   bottleneck arrivals 102700, ACKs 57217). The tolerances allow for tied events breaking
   the other way (validation/ns2/README.md "Tied events"): over variants of this case
   (blimit_ 25000-100000, quantum_ 250-3000, CBR 3-9 Mb/s) most runs are identical and
   the others, where one tie broke differently, differ by up to 1.0 % in a flow's
   goodput and 8 % in a TCP flow's drop count (60-300 drops); with buffers of a few
   packets per flow (blimit_ 4000-10000) they differ by up to 16 %, so the case keeps
   a 50-packet buffer. Each TCP flow's goodput 2 %,
   aggregate 1 %, CBR packets 1 %, drops per flow 15 % (TCP) and 1 % (CBR), bottleneck
   drops 2 %, Jain's index 0.01. Also asserted: on the ns-2 side the CBR flow gets no
   more than 5 % over its fair share (2 Mb/s) and the TCP flows' Jain index is at least
   0.99; on the tcpsim side no packet is dropped off the bottleneck (so per-flow drops
   compare with ns-2's monitor there).

SACK Four Sack1 flows (Agent/TCP/Sack1 -> Agent/TCPSink/Sack1, 3 blocks), one node pair,
   starts 0.1 s apart, 10 Mb/s / 10 ms bottleneck, DropTail limit 10, 100 Mb/s / 1 ms
   access, 60 s. About 1040 recoveries, 75 losses resent from the scoreboard in windows
   that already lost a packet (multi-loss repairs), 2 timeouts. Goodput 2 %, each flow's
   goodput 5 %; drops, retransmissions, fast retransmits, multi-loss repairs 10 %;
   timeouts +-1 (D1's tolerances; D2's 5 % per flow). The only random draws are the
   clock phases, and the run is the same for every seed on both sides. Measured
   (tcpsim with the Sack1 commits of branch sack): identical on every counter (67696
   packets, per flow 17075 / 16847 / 16764 / 17010, 1117 drops, 1121 retransmissions,
   1040 fast retransmits, 75 multi-loss repairs, 2 timeouts, 67703 ACKs). With ACKs kept
   at 40 B instead of 40 + 8 per SACK block, per-flow goodput moves by up to 0.8 % and a
   timeout disappears, so the case also checks the ACK size. Also asserted on the ns-2
   side: multi-loss repairs are at least 5 % of the drops.
SACK-DELACK Two Sack1 flows with Agent/TCPSink/Sack1/DelAck (interval_ 100 ms), starts
   0 and 0.1 s, 10 Mb/s / 5 ms bottleneck, DropTail limit 5, 60 s. An ACK of two packets
   releases two or three back to back, so about a quarter of the losses are multi-loss
   repairs. Tolerances as SACK, plus ACKs (arrivals at r2->r1) 2 %. Measured: identical
   on every counter (66045 packets, 33305 / 32740 per flow, 567 drops, 429 fast
   retransmits, 137 multi-loss repairs, 1 timeout, 36083 ACKs). Also asserted on the
   ns-2 side: multi-loss repairs at least 20 % of the drops, 0.5-0.6 ACKs per data packet.
FACK Case SACK's network with four Agent/TCP/Fack flows (rampdown_, ss-div4_ false) and
   Agent/TCPSink/Sack1. FackTcpAgent::timeout never increments nrexmit_, so the script
   traces backoff_ and ns-2's timeouts are its rises (fast retransmits = ncwndcuts1_ -
   those). Tolerances as SACK. Measured (tcpsim branch fack): identical on every
   counter (66631 packets, per flow 16676 / 16789 / 16667 / 16499, 1141 drops, 1137
   retransmissions, 1065 fast retransmits, 72 multi-loss repairs, 4 timeouts, 67804
   packets sent). Also asserted on the ns-2 side: multi-loss repairs at least 5 % of the
   drops, and at least one timeout (so the backoff_ count is exercised).
FACK-OPTS Case SACK-DELACK's network with two Fack flows, flow 0 with rampdown_ true, flow
   1 with ss-div4_ true. Tolerances as SACK-DELACK. Measured: identical on every counter
   (69791 departures, 1081 drops, 1081 retransmissions, 442 fast retransmits, 638
   multi-loss repairs, 1 timeout, 39020 ACKs). The options matter here: with both off
   ns-2 gives 780 drops instead of 1081. Also asserted on the ns-2 side: multi-loss
   repairs at least 20 % of the drops.

V1 Vegas (Agent/TCP/Vegas, v_alpha_ 2, v_beta_ 4, v_gamma_ 1, syn_ false) on reference
   document 001 Fig. 1's network: 1 Gb/s / 1 ms access, 50 Mb/s / 48 ms bottleneck,
   buffers of 10000 packets (no loss), 65 s. ns-2's Vegas agent puts 1000-byte packets
   on the wire (no TCP/IP header; the twin sets header_size 0). Nothing is random and
   nothing is lost, so the runs should be the same: goodput, packets sent and final cwnd
   0.1 %, drops 0, slow-start exit within one 100 ms sample, time to reach the final
   cwnd 1 %, cwnd at 0.5 ... 60 s 0.5 %, mean queue over the last 10 s 0.5 packet.
   Measured: identical (235285 packets delivered, 235602 sent, slow start left at
   1.2-1.3 s from 64 to 56, cwnd 630.096 at 58.9 s, cwnd at every checkpoint equal to
   within 3e-6). Also asserted on the ns-2 side: the paper's Fig. 1 (64 -> 56, about
   630 near 59 s).
V2 V1's network with ns-2.35's own Vegas defaults (alpha 1, beta 3, gamma 1, syn_ true):
   ns-2's Vegas sets windowInit_ one ACK late (1, 1, 3, 3, 6, ..., 96 -> 84). ns-2's
   packet 0 is a full 1000-byte packet, tcpsim's SYN is header-only, so the first round
   trip differs by 0.18 ms. V1's tolerances. Measured: 249765 vs 249766 packets, cwnd
   629.133 at the end on both, equilibrium at 56.2 s on both.
V3 Vegas wanting more queue than the buffer holds (alpha 3, beta 5, syn_ false), 100 Mb/s
   access, 5 Mb/s / 30 ms DropTail limit 3, 60 s: 70 losses, repaired by fast
   retransmits (on the third duplicate or the fine-grained timer), the checks of the
   first ACKs after a retransmission (once resending a packet not yet sent, as ns-2
   does), and one timeout. The only random draw is the clock phase (boot_time_), and
   ns-2 seeds 1-4 and tcpsim seeds 1-5 all give the same counters. Goodput 1 %, mean
   cwnd 2 %, retransmissions and drops 10 %, timeouts +-1, final cwnd 5 %. Measured:
   identical (33249 packets, 72 retransmissions, 70 drops, 1 timeout, final cwnd
   42.333). Also asserted on the ns-2 side: at least 30 drops and a timeout.

TFRC
   One Agent/TFRC -> Agent/TFRCSink flow (ns-2.35 defaults; tcpsim ``type = "tfrc"``) on
   case A's network, 100 s (validation/ns2/case_tfrc.tcl and .toml). Data packets sent
   and delivered 1 %, reports (r2->r1 arrivals) 3 %, the sender's mean X over the second
   half 3 %, the receiver's loss event rate over the second half 15 %, bottleneck drops
   after 5 s +-6. Deterministic on both sides, but slow start meets exact one-RTT ties
   that ns-2's double clock breaks by rounding, so the slow-start exit (and its drops,
   38 vs 55 in all) differs; after it both drop two packets every 8.5 s or so.
   Measured 2026-11-26: sent 18123 vs 18078, delivered 18060 vs 17996, reports 594 vs
   594, mean X 1.4551 vs 1.4539 Mb/s, p 0.001338 vs 0.001342, drops after 5 s 24 vs 22.
   Also asserted on the ns-2 side: losses after slow start (so the equation, not slow
   start, sets the rate) and one report per RTT or so.
TFRC-RENO
   Case TFRC's flow and a Reno flow (Agent/TCP/Reno -> Agent/TCPSink, window_ 100) from
   time 0 on case A's network, 200 s. The Reno agent's clock phase (seeded) decides the
   split (ns-2 seeds 1-4: TFRC 21886-23984 packets, Reno 11804-13866), so both sides run
   seeds 1-3 and compare means: TFRC's packets 5 %, Reno's 8 %, both together 1 %,
   bottleneck drops 10 %, TFRC's share 0.03 (absolute). Measured 2026-11-26: TFRC 23569
   vs 22833, Reno 12235 vs 13006, together 35804 vs 35839, drops 262 vs 267, share 0.658
   vs 0.637. Reno times out more often in ns-2 (23.3 vs 17 per run), not yet explained
   and not checked. Also asserted on the ns-2 side: TFRC gets more than Reno here (a
   20-packet buffer costs Reno timeouts, TFRC's rate does not collapse).

Runtime: about 5 s for cases C-I, about 1 s for DRR (ns-2 0.8 s, tcpsim 0.2 s), about
10 s for the six runs of ns-2 of ECN and ECN1, about 1 s for RED-AUTO (ns-2 0.8 s,
tcpsim 0.2 s), about 2 s for SACK, SACK-DELACK, FACK and FACK-OPTS, and
about 9.5 s for V1-V3, about 0.5 s for TFRC and 1 s for TFRC-RENO.

Skipped when ns-2's ``ns`` is not on PATH ($NS2 may point to it). The tcpsim binary is
<repo>/target/release/tcpsim-run (or $TCPSIM_RUN), built with
``cargo build --release -p tcpsim`` when missing. On failure both sides are printed.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_HARNESS_PATH = REPO / "validation" / "ns2" / "harness.py"
_NAME = "tcpsim_ns2_harness"
if _NAME in sys.modules:
    harness = sys.modules[_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_NAME, _HARNESS_PATH)
    harness = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = harness
    _spec.loader.exec_module(harness)

_FID_NAME = "tcpsim_ns2_fidelity"
if _FID_NAME in sys.modules:
    fidelity = sys.modules[_FID_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_FID_NAME, REPO / "validation" / "ns2" / "fidelity.py")
    fidelity = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = fidelity
    _spec.loader.exec_module(fidelity)

pytestmark = pytest.mark.skipif(
    harness.ns_binary() is None,
    reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2` to run the "
           "differential tests against ns-2.35",
)


@pytest.fixture(scope="module")
def tcpsim_run():
    try:
        return harness.tcpsim_binary(build=True)
    except harness.HarnessError as e:
        pytest.fail(f"tcpsim-run is not available: {e}")


def _assert_case(res):
    report = res.report()
    print(report)  # shown by pytest for failing tests (and with -s)
    assert res.ok, "\n" + report
    return res


def test_case_c_tahoe_droptail(tcpsim_run):
    res = _assert_case(harness.case_c(100.0))
    assert res.ns2["fast_retransmits"] > 0


def test_case_d1_newreno_multi_loss_windows(tcpsim_run):
    res = _assert_case(harness.case_d1(60.0))
    ns = res.ns2
    assert ns["multi_loss_repairs"] >= 0.2 * ns["bottleneck_drops"], res.report()


def test_case_d2_newreno_rtt_unfairness(tcpsim_run):
    res = _assert_case(harness.case_d2(120.0, seeds=(1, 2, 3)))
    ns = res.ns2
    shares = [ns[f"flow{i}_pkts"] for i in range(4)]
    assert shares == sorted(shares, reverse=True), res.report()


def test_case_e_delayed_ack_sink(tcpsim_run):
    res = _assert_case(harness.case_e(100.0))
    assert 0.5 <= res.ns2["acks_per_data_pkt"] <= 0.6, res.report()


def test_case_gaimd_tcp_031_0875(tcpsim_run):
    _assert_case(harness.case_gaimd(100.0))


def test_case_f_packet_mode_red_with_cbr(tcpsim_run):
    res = _assert_case(harness.case_f(60.0, tcpsim_seeds=(1, 2, 3)))
    ns = res.ns2
    assert ns["bottleneck_early_drops"] > ns["bottleneck_overflow_drops"] > 0, res.report()


def test_case_g_application_stop(tcpsim_run):
    res = _assert_case(fidelity.case_g(15.0))
    st = res.ns2_stops
    for i in (0, 2):  # stopped in fast recovery
        assert st[i]["dupacks"] >= 3, res.report()
    for i in (1, 3):  # stopped in a go-back-N after a timeout
        assert st[i]["timeouts"] >= 1 and st[i]["t_seqno"] <= st[i]["maxseq"], st[i]
    assert st[4]["dupacks"] == 0 and st[4]["maxseq"] - st[4]["ack"] >= 30, st[4]
    for i in range(5):  # FTP stop = advance 0: curseq_ <- maxseq_
        assert st[i]["curseq"] == st[i]["maxseq"], st[i]


def test_case_h_equal_hop_paths(tcpsim_run):
    res = _assert_case(fidelity.case_h(30.0))
    ns = res.ns2
    assert ns["r1->q_arrivals"] == 0 and ns["r2->q_arrivals"] == 0, res.report()


def test_case_i_symmetric_flows_start_in_order(tcpsim_run):
    res = _assert_case(fidelity.case_i(60.0))
    shares = [res.ns2[f"flow{i}_pkts"] for i in range(4)]
    assert shares == sorted(shares, reverse=True) and len(set(shares)) == 4, res.report()
def test_case_drr_fair_queueing(tcpsim_run):
    res = _assert_case(harness.case_drr(60.0))
    ns, ts = res.ns2, res.tcpsim
    fair_share_bps = 10e6 / 5
    cbr_bps = ns["cbr_rx_pkts"] * 1000 * 8 / 60.0
    assert cbr_bps <= 1.05 * fair_share_bps, res.report()
    assert ns["jain"] >= 0.99, res.report()
    assert ts["drops_off_bottleneck"] == 0, res.report()
def test_case_ecn_marking_red_with_ecn_newreno(tcpsim_run):
    res = _assert_case(harness.case_ecn(60.0))
    ns = res.ns2
    assert ns["bottleneck_marks"] > 10 * ns["bottleneck_early_drops"], res.report()
    assert ns["ecn_responses"] > 0.5 * ns["bottleneck_marks"], res.report()


def test_case_ecn1_windows_around_one_packet(tcpsim_run):
    res = _assert_case(harness.case_ecn1(60.0))
    ns = res.ns2
    assert ns["bottleneck_marks"] > 20 * ns["bottleneck_early_drops"], res.report()


def test_case_red_auto_ns2_default_red(tcpsim_run):
    res = _assert_case(harness.case_red_auto(60.0))
    ns = res.ns2
    ptc = 20e6 / (8 * 500)
    rtt = max(0.1, 3 * (0.040 + 1 / ptc))
    assert (ns["red_thresh_"], ns["red_maxthresh_"]) == (12.5, 37.5), res.report()
    assert ns["red_q_weight_"] == pytest.approx(1 - math.exp(-1 / (10 * rtt * ptc)), rel=1e-12), res.report()
    assert (ns["red_thresh_queue_"], ns["red_maxthresh_queue_"]) == (6250, 18750), res.report()  # bytes
    assert ns["bottleneck_early_drops"] > ns["bottleneck_overflow_drops"] > 0, res.report()
def test_case_sack_sack1_with_sack_sinks(tcpsim_run):
    res = _assert_case(harness.case_sack(60.0))
    ns = res.ns2
    assert ns["multi_loss_repairs"] >= 0.05 * ns["bottleneck_drops"], res.report()


def test_case_sack_delack_sack1_with_delayed_ack_sack_sinks(tcpsim_run):
    res = _assert_case(harness.case_sack_delack(60.0))
    ns = res.ns2
    assert ns["multi_loss_repairs"] >= 0.2 * ns["bottleneck_drops"], res.report()
    assert 0.5 <= ns["acks_per_data_pkt"] <= 0.6, res.report()
def test_case_fack_with_sack_sinks(tcpsim_run):
    res = _assert_case(harness.case_fack(60.0))
    ns = res.ns2
    assert ns["multi_loss_repairs"] >= 0.05 * ns["bottleneck_drops"], res.report()
    assert ns["timeouts"] >= 1, res.report()


def test_case_fack_opts_rampdown_and_ss_div4(tcpsim_run):
    res = _assert_case(harness.case_fack_opts(60.0))
    ns = res.ns2
    assert ns["multi_loss_repairs"] >= 0.2 * ns["bottleneck_drops"], res.report()


def test_case_v1_vegas_fig1_slow_start_and_ramp(tcpsim_run):
    res = _assert_case(harness.case_v1(65.0))
    ns = res.ns2
    # Reference document 001 Fig. 1: slow start ends at 1.2 s from 64 (to 64 - 64/8 =
    # 56, then one packet per round); about 630 packets near 59 s.
    assert ns["cwnd_at_1s"] == 32 and ns["cwnd_at_1.5s"] == 58, res.report()
    assert 58.0 <= ns["equilibrium_s"] <= 60.0 and abs(ns["final_cwnd"] - 630) < 1, res.report()


def test_case_v2_vegas_ns2_defaults_with_syn(tcpsim_run):
    res = _assert_case(harness.case_v2(65.0))
    assert res.ns2["cwnd_at_1.5s"] == 84, res.report()  # 96 - 96/8


def test_case_v3_vegas_repeated_losses(tcpsim_run):
    res = _assert_case(harness.case_v3(60.0))
    ns = res.ns2
    assert ns["bottleneck_drops"] >= 30 and ns["timeouts"] >= 1, res.report()


def test_case_tfrc_one_flow_over_droptail(tcpsim_run):
    res = _assert_case(harness.case_tfrc(100.0))
    ns = res.ns2
    assert ns["drops_after_slow_start"] >= 10 and ns["loss_event_rate"] > 0, res.report()
    # R is 90-190 ms here: 100 s hold 500-1100 reports.
    assert 500 <= ns["reports"] <= 1100, res.report()


def test_case_tfrc_reno_share_a_droptail_bottleneck(tcpsim_run):
    res = _assert_case(harness.case_tfrc_reno(200.0))
    assert res.ns2["tfrc_pkts"] > res.ns2["reno_pkts"], res.report()
