"""Reference document 000's own measures (`tcpsim.reproduce.measures.group_measures`):
the mean throughput per congestion control, its Vegas/Reno ratio (the thesis'
"fairness", not Jain's index), the total and its share of the bottleneck's rate, over
the whole run and over windows, and every queue's arrivals and drops."""

from __future__ import annotations

import math

import pytest

from tcpsim.api import run
from tcpsim.reproduce.labels import measure_label
from tcpsim.reproduce.measures import group_measures

SCENARIO = """
[simulation]
duration = "6s"
seed = 1
[dumbbell]
pairs = 3
[dumbbell.bottleneck]
rate = "2Mbps"
delay = "20ms"
queue = { kind = "red", limit = "30p", min_th = 6, max_th = 8 }
[dumbbell.access]
rate = "50Mbps"
delay = "1ms"
[[flow]]
name = "vegas{i}"
count = 2
from = "s{i}"
to = "d{i}"
cc = "vegas"
max_window = 200
header_size = "0B"
[[flow]]
name = "reno"
from = "s2"
to = "d2"
cc = "reno"
recovery = "reno"
max_window = 200
header_size = "0B"
start = "1s"
[monitor]
interval = "100ms"
"""


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    res = run(SCENARIO, out=tmp_path_factory.mktemp("group"))
    return res, group_measures(res, [(2.0, 6.0)])


def test_whole_run_means_ratio_total_and_utilization_come_from_the_flows_table(measured):
    res, m = measured
    f = res.flows.set_index("name")
    kbps = f["throughput_bps"].astype(float) / 1e3
    vegas = (kbps["vegas0"] + kbps["vegas1"]) / 2
    assert m["cc_mean_kbps.vegas"] == pytest.approx(vegas)
    assert m["cc_mean_kbps.reno"] == pytest.approx(kbps["reno"]) == m["flow_kbps.reno"]
    assert m["vegas_reno_ratio"] == pytest.approx(vegas / kbps["reno"])
    assert m["total_kbps"] == pytest.approx(kbps.sum())
    # the busiest link direction is the 2 Mb/s bottleneck r1->r2
    assert m["utilization_total"] == pytest.approx(kbps.sum() / 2000)
    # each flow's throughput is over its own active time (Reno's 5 s, Vegas' 6 s), so the
    # sum of a run with a late start can pass the rate: document 000 sums whole-run
    # throughputs only where every flow starts at 0 (Tables 3.1, 4.1, 4.2) and uses
    # windows where flows start later (Tables 4.3, 4.4)
    assert m["utilization_total"] > 0.9


def test_window_measures_count_the_payload_delivered_inside_the_window(measured):
    res, m = measured
    d = res.series("delivered_bytes", ["vegas0", "vegas1", "reno"])
    inside = d[(d.index > 2.0 + 1e-9) & (d.index <= 6.0 + 1e-9)].sum() * 8 / 4.0 / 1e3
    assert m["cc_mean_kbps_window.0.reno"] == pytest.approx(inside["reno"]) == m["flow_kbps_window.0.reno"]
    assert m["cc_mean_kbps_window.0.vegas"] == pytest.approx((inside["vegas0"] + inside["vegas1"]) / 2)
    assert m["vegas_reno_ratio_window.0"] == pytest.approx(m["cc_mean_kbps_window.0.vegas"] / inside["reno"])
    assert m["total_kbps_window.0"] == pytest.approx(inside.sum())
    assert m["utilization_total_window.0"] == pytest.approx(inside.sum() / 2000)
    # a window measures fewer bytes than it could carry, and not nothing
    assert 1000 < m["total_kbps_window.0"] <= 2000


def test_every_queue_reports_its_arrivals_and_drops(measured):
    res, m = measured
    q = res.queues.set_index("queue")
    assert m["queue_arrivals.r1_to_r2"] == q.loc["r1->r2", "arrivals"]
    assert m["queue_drops.r1_to_r2"] == q.loc["r1->r2", "early_drops"] + q.loc["r1->r2", "overflow_drops"]
    assert m["queue_drops.r1_to_r2"] > 0  # Reno pushes the average past min_th 6
    assert len([k for k in m if k.startswith("queue_arrivals.")]) == len(q)


def test_the_ratio_is_not_a_number_without_both_vegas_and_reno(tmp_path):
    only_vegas = SCENARIO.replace('cc = "reno"\nrecovery = "reno"', 'cc = "vegas"')
    m = group_measures(run(only_vegas, out=tmp_path), [(2.0, 6.0)])
    assert math.isnan(m["vegas_reno_ratio"]) and math.isnan(m["vegas_reno_ratio_window.0"])
    assert "cc_mean_kbps.reno" not in m


def test_every_group_measure_has_a_label(measured):
    for name in measured[1]:
        assert "_" not in measure_label(name), name


def test_each_flow_s_smallest_and_mean_rtt_and_timeouts_come_from_the_flows_table(measured):
    res, m = measured
    f = res.flows.set_index("name")
    for name in ("vegas0", "vegas1", "reno"):
        assert m[f"flow_rtt_min_ms.{name}"] == pytest.approx(float(f.loc[name, "rtt_min_s"]) * 1e3)
        assert m[f"flow_rtt_mean_ms.{name}"] == pytest.approx(float(f.loc[name, "rtt_mean_s"]) * 1e3)
        assert m[f"flow_timeouts.{name}"] == int(f.loc[name, "timeouts"])
    # the smallest RTT is the path's: 2 x (1 + 20 + 1) ms of propagation plus a packet's
    # transmission times; Reno, entering at 1 s behind Vegas' queue, never sees it empty
    assert 44 < m["flow_rtt_min_ms.vegas0"] < m["flow_rtt_mean_ms.vegas0"]
    assert m["flow_rtt_min_ms.reno"] > m["flow_rtt_min_ms.vegas0"]


def test_a_vegas_variant_beside_reno_is_the_vegas_side_of_the_ratio(tmp_path):
    # E6 (the end-host fixes) replaces the Vegas flows by NewVegas, Vegas-A or Vegas+:
    # the ratio is then theirs over Reno's
    variant = SCENARIO.replace('cc = "vegas"', 'cc = "vegas_plus"')
    res = run(variant, out=tmp_path)
    m = group_measures(res)
    assert set(res.flows["cc"]) == {"vegas_plus", "reno"}
    assert m["vegas_reno_ratio"] == pytest.approx(m["cc_mean_kbps.vegas_plus"] / m["cc_mean_kbps.reno"])
    # two window controls beside Reno: no single "Vegas" side
    mixed = SCENARIO.replace('name = "vegas{i}"\ncount = 2', 'name = "vegas{i}"\ncount = 1').replace(
        '[[flow]]\nname = "reno"',
        '[[flow]]\nname = "va"\nfrom = "s1"\nto = "d1"\ncc = "vegas_a"\nmax_window = 200\nheader_size = "0B"\n[[flow]]\nname = "reno"')
    m = group_measures(run(mixed, out=tmp_path / "mixed"))
    assert "cc_mean_kbps.vegas_a" in m and "cc_mean_kbps.vegas" in m
    assert math.isnan(m["vegas_reno_ratio"])
