"""A TFRC flow (``type = "tfrc"``, docs/models/tfrc.md) from Python: the scenario class the
registry makes for it, its row in the flows table, and tcpsim.metrics on it unchanged."""

from __future__ import annotations

import tcpsim
from tcpsim import metrics

# One TFRC flow and one Reno flow sharing a 10 Mb/s, 40 ms DropTail bottleneck whose
# 100-packet buffer is about one bandwidth-delay product (84 ms of propagation).
TEXT = """
[simulation]
duration = "30s"

[dumbbell]
pairs = 2

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "40ms"
queue = { kind = "droptail", limit = "100p" }

[[flow]]
name = "tfrc"
type = "tfrc"
from = "s0"
to = "d0"

[[flow]]
name = "reno"
from = "s1"
to = "d1"
max_window = 1000

[monitor]
interval = "100ms"
"""


def test_the_registry_gives_tfrc_a_flow_class_with_its_defaults():
    cls = tcpsim.flow_class("tfrc")
    flow = cls(from_="s0", to="d0")
    assert flow.to_dict() == {"from": "s0", "to": "d0", "type": "tfrc"}
    spec = {m.name: m for m in tcpsim.models.models()}["tfrc"]
    defaults = {p.name: p.default for p in spec.params}
    assert defaults["packet_size"] == 1000 and defaults["feedback_size"] == 40 and defaults["rtt_filter"] == 0.95


def test_a_tfrc_flow_has_a_flows_row_and_the_fairness_metrics_work_on_it():
    res = tcpsim.run(TEXT)
    flows = res.flows.set_index("name")
    tfrc = flows.loc["tfrc"]
    assert tfrc["type"] == "tfrc" and tfrc["retransmits"] == 0
    # Payload counted like TCP's: unique packets of 1000 B; throughput counts the 1032 B
    # on the wire.
    assert tfrc["goodput_bytes"] == tfrc["unique_packets"] * 1000
    assert abs(tfrc["throughput_bps"] / tfrc["goodput_bps"] - 1032 / 1000) < 0.01
    assert tfrc["rtt_samples"] > 100  # one report per RTT or so
    samples = metrics.sampled_throughput(res.timeseries)
    assert list(samples.columns) == ["tfrc", "reno"] and len(samples) == 30  # 15-30 s by 0.5 s
    assert (samples["tfrc"] > 0).all()
    got = metrics.fairness_and_smoothness(res)
    # Measured (2026-11-26): TFRC 2.16 Mb/s, Reno 7.00 Mb/s over these 30 s (TFRC's rate
    # grows by at most two packets per RTT after its first loss, so 30 s is too short
    # for the two to converge; over 120 s on the same path they get 4.71 and 4.82 Mb/s,
    # crates/tcpsim/tests/tfrc.rs); fairness index 0.78, worst case 0.31, CoV 0.087,
    # short-term fairness 0.83. What is checked here is that the metrics take a TFRC
    # flow as they take any other.
    assert 0.7 < got["fairness_index"] <= 1 and 0 < got["worst_case_fairness"] <= 1, got
    assert 0 < got["cov"] < 0.5 and 0 < got["short_term_fairness"] <= 1, got
    # The time series carries the sender's rate, R and p for a monitored TFRC flow.
    ts = res.timeseries
    assert {"send_rate_bps", "srtt_s", "loss_event_rate"} <= set(ts[ts["entity"] == "tfrc"]["metric"])
