"""Source subnets, flow groups and their time series from Python: `Dumbbell(subnets=...)`,
the flow key ``group``, ``Monitor(groups=...)``, `Results.groups` / `group_series`, and
the analyses that read ``delivered_bytes`` (flows and groups share the metric name).

The core's side (node and delay generation, the sums, the errors of the file path) is
pinned by crates/tcpsim/tests/subnets.rs and malformed.rs."""

from __future__ import annotations

import pytest

import tcpsim
from tcpsim import metrics
from tcpsim.analysis import aggregate, window
from tcpsim.scenario import RED, Dumbbell, LinkSpec, Monitor, Scenario, TcpFlow


def grouped(**monitor) -> Scenario:
    """Two subnets of two hosts (1 ms and 30 ms access), one ECN flow a host, grouped by
    subnet with ``{i/2}``."""
    return Scenario(
        duration="4s",
        dumbbell=Dumbbell(
            subnets=[{"hosts": 2, "access_delay": "1ms"}, {"hosts": 2, "access_delay": "30ms"}],
            bottleneck=LinkSpec("5Mbps", "10ms", queue=RED(limit="60p", min_th=5, max_th=20, ecn=True)),
            access=LinkSpec("100Mbps", "2ms"),
        ),
        flows=[TcpFlow("s{i}", "d{i}", name="tcp{i}", count=4, group="subnet{i/2}", ecn=True, max_window=1000)],
        monitor=Monitor(interval="100ms", **monitor),
    )


@pytest.fixture(scope="module")
def both() -> tcpsim.Results:
    return grouped().run()


def test_subnets_groups_and_monitor_groups_round_trip_through_toml():
    sc = grouped(flows="none", groups=["subnet1"])
    text = sc.to_toml()
    assert 'subnets = [{ hosts = 2, access_delay = "1ms" }, { hosts = 2, access_delay = "30ms" }]' in text
    assert 'group = "subnet{i/2}"' in text
    assert 'groups = ["subnet1"]' in text
    assert Scenario.from_toml(text) == sc
    assert "pairs" not in text


def test_results_name_the_groups_and_give_their_series(both):
    assert both.groups == ["subnet0", "subnet1"]
    assert both.flows["group"].tolist() == ["subnet0", "subnet0", "subnet1", "subnet1"]
    delivered = both.group_series()
    assert list(delivered.columns) == ["subnet0", "subnet1"]
    flows = both.series("delivered_bytes", [f"tcp{i}" for i in range(4)])
    # A group's series is the sum of its flows' series, sample by sample.
    assert (delivered["subnet0"] == flows["tcp0"] + flows["tcp1"]).all()
    assert (delivered["subnet1"] == flows["tcp2"] + flows["tcp3"]).all()
    received = both.group_series("received_bytes")
    # Wire bytes hold at least the payload, up to any time (not in every interval: a
    # retransmission that fills a hole releases what arrived before it).
    assert (received.cumsum() >= delivered.cumsum()).all().all()
    # The whole run's received bytes are the flows' throughput (the flows table).
    per_group = both.flows.groupby("group")["throughput_bps"].sum() * 4.0 / 8.0
    assert received.sum().to_dict() == pytest.approx(per_group.to_dict(), rel=1e-9)


def test_groups_only_and_none():
    only = grouped(flows="none", queues="none").run()
    assert sorted(only.timeseries["entity"].unique()) == ["subnet0", "subnet1"]
    assert sorted(only.timeseries["metric"].unique()) == ["delivered_bytes", "received_bytes"]
    none = grouped(groups="none").run()
    assert not none.timeseries["entity"].isin(["subnet0", "subnet1"]).any()
    assert none.group_series().empty


def test_per_flow_analyses_leave_the_groups_out(both):
    assert list(metrics.throughput_series(both).columns) == ["tcp0", "tcp1", "tcp2", "tcp3"]
    w = window(both, 1.0, 4.0)
    assert "group" in w.flows.columns
    assert "throughput_bps" not in w.flows.columns, "groups' received_bytes are not the flows'"
    by_group = aggregate(w, by="group")
    assert list(by_group.index) == ["subnet0", "subnet1"]
    # The group series over the same window give the same goodput.
    inside = window(both.group_series(), 1.0 + 1e-9, 4.0)
    inside = inside[inside.index > 1.0 + 0.05]
    assert by_group["goodput_bps_sum"].to_dict() == pytest.approx((inside.sum() * 8.0 / 3.0).to_dict(), rel=1e-9)


def test_runs_without_groups_keep_their_columns():
    sc = grouped()
    sc.flows[0].group = None
    res = sc.run()
    assert "group" not in res.flows.columns
    assert res.groups == []


def test_subnets_beside_pairs_is_an_error_naming_the_key():
    sc = grouped()
    sc.dumbbell.pairs = 4
    with pytest.raises(tcpsim.ScenarioError) as info:
        sc.validate()
    assert info.value.toml_key == "dumbbell.pairs"
    assert "either subnets or pairs" in str(info.value)


def test_ecn_once_per_window_false_cuts_more_often():
    sc = grouped()
    once = sc.run().flows["ecn_reductions"].sum()
    sc.flows[0].ecn_once_per_window = False
    every = sc.run().flows["ecn_reductions"].sum()
    assert once > 0
    assert every > once


def test_sweeps_may_group_flows_by_their_group(both):
    from tcpsim.sweep.groups import GROUP_BY_COLUMNS, FlowGroups

    assert "group" in GROUP_BY_COLUMNS
    by_group = FlowGroups(by="group").metrics(both.flows, both.summary)
    assert by_group["subnet0.flows"] == by_group["subnet1.flows"] == 2
    total = both.flows["goodput_bytes"].sum()
    assert by_group["subnet0.goodput_share"] == pytest.approx(
        both.flows.loc[both.flows["group"] == "subnet0", "goodput_bytes"].sum() / total)
    # A run whose flows have no group has no groups (not an error).
    assert FlowGroups(by="group").metrics(both.flows.drop(columns="group"), both.summary) == {}


def test_tcpsim_run_prints_the_groups_and_jain_over_them(both):
    from tcpsim.analysis import jain
    from tcpsim.cli import format_groups, format_report

    text = format_groups(both.flows, both.summary)
    lines = text.splitlines()
    assert lines[0] == "Groups" and lines[1].split()[:3] == ["group", "flows", "goodput"]
    window = both.summary["duration_s"]
    goodput = (both.flows.groupby("group")["goodput_bytes"].sum() * 8.0 / window).to_dict()
    rows = {line.split()[0]: line.split() for line in lines[3:5]}
    assert {g: float(r[2]) for g, r in rows.items()} == pytest.approx({g: v / 1e6 for g, v in goodput.items()}, abs=5e-4)
    assert lines[-1] == f"Jain fairness index over the 2 groups {jain(list(goodput.values())):.3f}"
    assert "\nGroups\n" in format_report(both)
    assert format_groups(both.flows.drop(columns="group"), both.summary) == ""
