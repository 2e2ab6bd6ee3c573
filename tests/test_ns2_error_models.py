"""Link error models against ns-2.35's ErrorModel (case J).

Case J (validation/ns2/case_j.tcl + case_j.toml): one NewReno flow over case A's network
(1.5 Mb/s / 40 ms, DropTail 20); the bottleneck loses every packet, both ways, from 10 s
to 11 s — a 1 s handoff outage (reference document 003). In ns-2 it is an ErrorModel
(unit pkt) per direction put on the link with ``$ns lossmodel`` — at the head of the
link, before the queue — whose ``rate_`` is 1 during the outage; in tcpsim
``error_model = { kind = "blackout", windows = [["10s", "11s"]] }``.

Compared over 100 s, seed 1 on both sides (the run's only random draws are the sender's
clock phase, which shifts RTT samples within a tick): goodput 1 %, retransmissions 5 %,
timeouts +-1, data packets lost at the bottleneck (ns-2's QueueMonitor counts the error
model's drops with the queue's, since both go to the link's drop head) 5 %, ACKs lost
on the reverse direction +-2. Measured (100 s): 17 390 vs 17 376 packets delivered
(+0.08 %), retransmissions 114 = 114, timeouts 4 = 4, data losses 76 = 76 (10 of them in
the outage), ACK losses 24 = 24.

Skipped when ns-2's ``ns`` is not on PATH.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from test_ns2_models import harness

REPO = Path(__file__).resolve().parent.parent
NS2 = REPO / "validation" / "ns2"

pytestmark = pytest.mark.skipif(
    harness.ns_binary() is None,
    reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`",
)


def _ns2(seconds: float) -> dict[str, float]:
    out = subprocess.run([harness.ns_binary(), str(NS2 / "case_j.tcl"), f"{seconds:g}", "1"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    flow = dict(re.findall(r"(\w+)=(\S+)", next(l for l in out.splitlines() if l.startswith("flow 0"))))
    queues = {l.split()[1]: dict(re.findall(r"(\w+)=(\S+)", l)) for l in out.splitlines() if l.startswith("queue ")}
    return {
        "delivered": float(flow["bytes"]) // harness.WIRE_BYTES - 1,  # less the 40-byte SYN
        "retransmits": float(flow["rexmit_pkts"]),
        "timeouts": float(flow["timeouts"]),
        "data_losses": float(queues["r1->r2"]["drops"]),
        "ack_losses": float(queues["r2->r1"]["drops"]),
    }


def _tcpsim(tmp_path: Path, seconds: float) -> dict[str, float]:
    scenario = harness.scenario_variant(NS2 / "case_j.toml", tmp_path, seconds)
    run = harness.run_tcpsim(scenario, tmp_path / "out")
    flow = run.flows[0]
    queue = {q["queue"]: q for q in run.queues}
    link = {l["link"]: l for l in run.links}
    return {
        "delivered": float(flow["unique_packets"]),
        "retransmits": float(flow["retransmits"]),
        "timeouts": float(flow["timeouts"]),
        "data_losses": float(queue["r1->r2"]["overflow_drops"]) + float(link["r1->r2"]["error_drops"]),
        "ack_losses": float(queue["r2->r1"]["overflow_drops"]) + float(link["r2->r1"]["error_drops"]),
        "outage_losses": float(link["r1->r2"]["error_drops"]),
    }


def test_case_j_one_second_outage_matches_ns2(tmp_path):
    harness.tcpsim_binary(build=True)
    ns, ts = _ns2(100), _tcpsim(tmp_path, 100)
    report = f"ns-2 {ns}\ntcpsim {ts}"
    assert ts["outage_losses"] > 0, report
    assert abs(ts["delivered"] / ns["delivered"] - 1) <= 0.01, report
    assert abs(ts["retransmits"] / ns["retransmits"] - 1) <= 0.05, report
    assert abs(ts["timeouts"] - ns["timeouts"]) <= 1, report
    assert abs(ts["data_losses"] / ns["data_losses"] - 1) <= 0.05, report
    assert abs(ts["ack_losses"] - ns["ack_losses"]) <= 2, report
