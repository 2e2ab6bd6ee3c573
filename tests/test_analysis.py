"""tcpsim.analysis: time windows and per-group aggregation, on real small runs."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import tcpsim
from tcpsim.analysis import aggregate, jain, window
from tcpsim.scenario import Dumbbell, LinkSpec, Monitor, RED, Scenario, TcpFlow


@pytest.fixture(scope="module")
def run(small_scenario) -> tcpsim.Results:
    """Two flows (Reno from 0 s, NewReno from 0.1 s), 5 s, sampled every 100 ms."""
    return tcpsim.run(small_scenario)


@pytest.fixture(scope="module")
def six_flows() -> tcpsim.Results:
    """Six flows in two groups: Reno recovery on short RTTs, NewReno on long ones."""
    sc = Scenario(
        duration="8s",
        seed=5,
        dumbbell=Dumbbell(
            pairs=6,
            bottleneck=LinkSpec("6Mbps", "10ms", queue=RED(limit="60p", min_th=5, max_th=15)),
            access=LinkSpec("100Mbps", "1ms"),
            access_delays=["1ms", "2ms", "3ms", "20ms", "25ms", "30ms"],
        ),
        flows=[
            TcpFlow("s{i}", "d{i}", name="near{i}", count=3, recovery="reno", max_window=200),
            TcpFlow("s3", "d3", name="far0", recovery="newreno", max_window=200),
            TcpFlow("s4", "d4", name="far1", recovery="newreno", max_window=200),
            TcpFlow("s5", "d5", name="far2", recovery="newreno", max_window=200, start="1s"),
        ],
        monitor=Monitor(interval="200ms"),
    )
    return sc.run()


def delivered(res: tcpsim.Results) -> pd.DataFrame:
    return res.series("delivered_bytes")


# ---------------------------------------------------------------------------- window


def test_whole_run_window_matches_the_flows_table(run):
    w = window(run, 0, 5)
    assert w.summary["window"] == {"start_s": 0.0, "end_s": 5.0, "interval_s": 0.1, "requested": [0, 5]}
    f = w.flows.set_index("name")
    whole = run.flows.set_index("name")
    # Every delivered byte is in some interval.
    assert f["goodput_bytes"].tolist() == whole["goodput_bytes"].astype(float).tolist()
    # Reno runs the whole 5 s: same rate. NewReno starts at 0.1 s: the window divides by
    # 5 s, the flows table by its 4.9 s of activity.
    assert f.loc["reno", "goodput_bps"] == pytest.approx(whole.loc["reno", "goodput_bps"])
    assert f.loc["newreno", "goodput_bps"] == pytest.approx(whole.loc["newreno", "goodput_bps"] * 4.9 / 5)
    assert f.loc["newreno", "active_s"] == pytest.approx(4.9)
    # Whole-run counters are not reported for a window.
    assert "retransmits" not in w.flows.columns and "rtt_mean_s" not in w.flows.columns


def test_window_goodput_is_the_sum_of_the_delivered_samples_inside(run):
    w = window(run, 1, 3)
    d = delivered(run)
    inside = d[(d.index > 1 + 1e-9) & (d.index <= 3 + 1e-9)]
    assert len(inside) == 20
    f = w.flows.set_index("name")
    for name in ("reno", "newreno"):
        assert f.loc[name, "goodput_bytes"] == inside[name].sum()
        assert f.loc[name, "goodput_bps"] == pytest.approx(inside[name].sum() * 8 / 2.0)
        assert f.loc[name, "active_s"] == pytest.approx(2.0)
    t = w.timeseries["time_s"]
    assert t.min() == pytest.approx(1.0) and t.max() == pytest.approx(3.0)
    assert set(w.timeseries["metric"]) == set(run.timeseries["metric"])
    # The windowed Results work like any other.
    assert sorted(w.series("cwnd").columns) == ["newreno", "reno"]


def test_window_edges_inside_an_interval_are_moved_inward(run):
    w = window(run, 1.05, 2.95)
    assert w.summary["window"]["start_s"] == pytest.approx(1.1)
    assert w.summary["window"]["end_s"] == pytest.approx(2.9)
    assert w.summary["window"]["requested"] == [1.05, 2.95]
    d = delivered(run)
    inside = d[(d.index > 1.1 + 1e-9) & (d.index <= 2.9 + 1e-9)]
    f = w.flows.set_index("name")
    assert f.loc["reno", "goodput_bps"] == pytest.approx(inside["reno"].sum() * 8 / 1.8)


def test_open_ended_windows(run):
    tail = window(run, 2.5)
    assert tail.summary["window"]["end_s"] == pytest.approx(5.0)
    head = window(run, end_s=2.5)
    assert head.summary["window"]["start_s"] == 0.0
    total = window(run, 0, 5).flows["goodput_bytes"]
    assert (head.flows["goodput_bytes"] + tail.flows["goodput_bytes"]).tolist() == total.tolist()


def test_window_agrees_with_metrics_window_throughput(run):
    metrics = pytest.importorskip("tcpsim.metrics")
    if not hasattr(metrics, "window_throughput"):
        pytest.skip("tcpsim.metrics.window_throughput not available")
    for start, end in [(0, 5), (1, 3), (1.05, 2.95)]:
        ours = window(run, start, end).flows.set_index("name")["goodput_bps"]
        theirs = metrics.window_throughput(run, start, end)
        for name in ours.index:
            assert ours[name] == pytest.approx(theirs[name])


def test_window_queue_counts_add_up_to_the_run_totals(run):
    w = window(run, 0, 5)
    q = w.queues.set_index("queue")
    whole = run.queues.set_index("queue")
    for col in ("early_drops", "overflow_drops", "marks"):
        assert q.loc["r1->r2", col] == whole.loc["r1->r2", col]
    assert whole.loc["r1->r2", "early_drops"] + whole.loc["r1->r2", "overflow_drops"] > 0
    # Sampled, not time-averaged: close to the run's figures, not equal.
    assert q.loc["r1->r2", "utilization"] == pytest.approx(run.links.set_index("link").loc["r1->r2", "utilization"], rel=0.02)
    assert q.loc["r1->r2", "max_length_pkts"] <= whole.loc["r1->r2", "max_length_pkts"]
    assert not math.isnan(q.loc["r1->r2", "mean_red_avg_pkts"])
    links = w.links.set_index("link")
    assert links.loc["r1->r2", "utilization"] == q.loc["r1->r2", "utilization"]

    part = window(run, 2, 4).queues.set_index("queue")
    series = run.timeseries
    sel = series[(series["entity"] == "r1->r2") & (series["metric"] == "overflow_drops")]
    expected = sel[(sel["time_s"] > 2 + 1e-9) & (sel["time_s"] <= 4 + 1e-9)]["value"].sum()
    assert part.loc["r1->r2", "overflow_drops"] == expected


def test_window_of_data_frames(run):
    long = window(run.timeseries, 1, 2)
    assert list(long.columns) == ["time_s", "entity", "metric", "value"]
    assert long["time_s"].between(1 - 1e-9, 2 + 1e-9).all()
    # Every sample of the 11 sample times 1.0, 1.1, ..., 2.0 (a metric may skip a time:
    # sojourn_s has no sample in an interval no packet left the queue).
    assert long["time_s"].nunique() == 11
    assert len(long) == run.timeseries["time_s"].between(1 - 1e-9, 2 + 1e-9).sum()
    wide = window(run.series("cwnd"), 1, 2)
    assert list(wide.index) == pytest.approx([1.0 + 0.1 * k for k in range(11)])


def test_window_without_a_time_series_explains_what_to_do(small_scenario):
    res = tcpsim.run(small_scenario.replace('interval = "100ms"', ""))
    with pytest.raises(ValueError, match=r"\[monitor\] interval"):
        window(res, 1, 2)


def test_window_rejects_bad_bounds(run):
    with pytest.raises(ValueError, match="after start_s"):
        window(run, 3, 2)
    with pytest.raises(ValueError, match="start_s"):
        window(run, -1, 2)
    with pytest.raises(ValueError, match="no whole sampling interval"):
        window(run, 1.01, 1.09)
    with pytest.raises(ValueError, match="no whole sampling interval"):
        window(run, 6, 7)
    with pytest.raises(TypeError):
        window([1, 2, 3], 0, 1)


def test_window_with_explicit_interval(run):
    assert window(run, 1, 2, interval_s=0.1).flows.equals(window(run, 1, 2).flows)
    with pytest.raises(ValueError, match="interval_s"):
        window(run, 1, 2, interval_s=0)


# ---------------------------------------------------------------------------- aggregate


def test_jain():
    assert jain([1, 1, 1, 1]) == pytest.approx(1.0)
    assert jain([1, 0, 0, 0]) == pytest.approx(0.25)
    assert jain([1, 2, 3]) == pytest.approx(36 / (3 * 14))
    assert jain([5.0]) == 1.0
    assert jain([2, float("nan"), 2]) == 1.0
    assert math.isnan(jain([]))
    assert math.isnan(jain([0, 0]))


def test_aggregate_by_column(six_flows):
    flows = six_flows.flows
    agg = aggregate(six_flows, by="recovery")
    assert list(agg.index) == ["newreno", "reno"]
    assert agg.index.name == "recovery"
    assert agg["flows"].tolist() == [3, 3]
    for group, rows in flows.groupby("recovery"):
        g = rows["goodput_bps"]
        assert agg.loc[group, "goodput_bps_sum"] == pytest.approx(g.sum())
        assert agg.loc[group, "goodput_bps_mean"] == pytest.approx(g.mean())
        assert agg.loc[group, "goodput_bps_min"] == g.min()
        assert agg.loc[group, "goodput_bps_max"] == g.max()
        assert agg.loc[group, "jain"] == pytest.approx(jain(g))
        assert agg.loc[group, "retransmits"] == rows["retransmits"].sum()
    assert agg["share"].sum() == pytest.approx(1.0)
    # Short-RTT flows get more of the bottleneck.
    assert agg.loc["reno", "goodput_bps_sum"] > agg.loc["newreno", "goodput_bps_sum"]


def test_aggregate_by_callable_dict_and_columns(six_flows):
    by_prefix = aggregate(six_flows, by=lambda name: name.rstrip("0123456789"))
    assert list(by_prefix.index) == ["far", "near"] and by_prefix.index.name == "group"
    by_dict = aggregate(six_flows, by={f"near{i}": "near" for i in range(3)} | {f"far{i}": "far" for i in range(3)})
    pd.testing.assert_frame_equal(by_prefix, by_dict)
    by_recovery = aggregate(six_flows, by="recovery")
    assert by_prefix.loc["near", "goodput_bps_sum"] == by_recovery.loc["reno", "goodput_bps_sum"]
    two = aggregate(six_flows, by=["recovery", "cc"])
    assert two.index.names == ["recovery", "cc"]
    assert two.loc[("reno", "reno"), "flows"] == 3
    by_source = aggregate(six_flows.flows, by="from")
    assert by_source["flows"].tolist() == [1] * 6
    assert (by_source["jain"] == 1.0).all()


def test_aggregate_a_window(six_flows):
    w = window(six_flows, 2, 8)
    agg = aggregate(w, by="recovery")
    assert agg.loc["reno", "goodput_bps_sum"] == pytest.approx(w.flows[w.flows["recovery"] == "reno"]["goodput_bps"].sum())
    assert "retransmits" not in agg.columns
    assert agg.loc["newreno", "goodput_bytes"] == w.flows[w.flows["recovery"] == "newreno"]["goodput_bytes"].sum()
    other = aggregate(w.flows, by="recovery", value="active_s")
    assert other.loc["newreno", "active_s_sum"] == pytest.approx(6 + 6 + 6)


def test_aggregate_errors_are_clear(six_flows):
    with pytest.raises(ValueError, match="no column 'variant'"):
        aggregate(six_flows, by="variant")
    with pytest.raises(ValueError, match="missing from the grouping dict: near1, near2"):
        aggregate(six_flows, by={"near0": "a", "far0": "b", "far1": "b", "far2": "b"})
    with pytest.raises(ValueError, match="no column 'goodput'"):
        aggregate(six_flows, by="recovery", value="goodput")
    with pytest.raises(TypeError, match="by must be"):
        aggregate(six_flows, by=3)
