"""Values a window control records for measurement (the core's
`CongestionControl::recorded`; Reno + γ records ``gamma``, the γ of each decrease, and
``gamma_min_rtt`` and ``gamma_max_rtt``, the minRTT and maxRTT it was computed from): their
summary columns in the flows table, kept through Parquet and CSV, and the ``recorded_*``
measures a reproduction's checks name."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import tcpsim
from tcpsim.reproduce.labels import measure_label
from tcpsim.reproduce.measures import recorded_measures, run_measures
from tcpsim.results import RECORDED_STATISTICS, SCHEMAS, recorded_values

# Two Reno + γ flows through document 003's dumbbell (10 Mb/s, 30 ms, buffer 100
# packets, 5 ms access links) and a Reno flow that starts near the end, so that the γ
# flows' decreases are not cancelled by Reno's losses; measured from 5 s.
SCENARIO = """
[simulation]
duration = "20s"
seed = 1
measure_from = "5s"

[dumbbell]
pairs = 3

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "30ms"
queue = { kind = "droptail", limit = "100p" }

[dumbbell.access]
rate = "100Mbps"
delay = "5ms"
queue = { kind = "droptail", limit = "1000p" }

[[flow]]
name = "g{i}"
count = 2
from = "s{i}"
to = "d{i}"
cc = "reno_gamma"
recovery = "reno"
receiver = "delayed"

[[flow]]
name = "r"
from = "s2"
to = "d2"
cc = "reno"
start = "19s"
"""

RENO_GAMMA_VALUES = ["gamma", "gamma_min_rtt", "gamma_max_rtt"]
GAMMA_COLUMNS = [f"gamma_{s}" for s in RECORDED_STATISTICS]
RECORDED_COLUMNS = [f"{name}_{s}" for name in RENO_GAMMA_VALUES for s in RECORDED_STATISTICS]


@pytest.fixture(scope="module")
def mixed() -> tcpsim.Results:
    return tcpsim.run(SCENARIO)


def test_reno_gamma_flows_report_their_gamma_and_other_flows_nothing(mixed):
    f = mixed.flows.set_index("name")
    assert recorded_values(mixed.flows) == RENO_GAMMA_VALUES
    assert list(mixed.flows.columns[-len(RECORDED_COLUMNS):]) == RECORDED_COLUMNS
    assert all(mixed.flows[c].dtype == "float64" for c in RECORDED_COLUMNS)
    # Measured (seed 1): g0 applies 3 decreases in [5 s, 20 s], g1 one.
    for flow in ("g0", "g1"):
        count, mean, lo, hi = (float(f.loc[flow, c]) for c in GAMMA_COLUMNS)
        assert count >= 1 and count == int(count), (flow, count)
        assert 0 < lo <= mean <= hi <= 1, (flow, lo, mean, hi)
    assert f.loc["r", RECORDED_COLUMNS].isna().all()


def test_each_decrease_records_the_rtt_range_its_gamma_came_from(mixed):
    # One range value per decrease, and γ = minRTT / (th_upper · maxRTT + (1 − th_upper) ·
    # minRTT) (eq. 11, th_upper 0.5) of the extremes: the largest γ comes from the
    # smallest range, the largest minRTT with the smallest maxRTT.
    f = mixed.flows.set_index("name").loc[["g0", "g1"]]
    for flow, r in f.iterrows():
        assert r["gamma_count"] == r["gamma_min_rtt_count"] == r["gamma_max_rtt_count"], flow
        assert 0 < r["gamma_min_rtt_min"] <= r["gamma_min_rtt_max"] < r["gamma_max_rtt_min"], flow
        largest = r["gamma_min_rtt_max"] / (0.5 * r["gamma_max_rtt_min"] + 0.5 * r["gamma_min_rtt_max"])
        smallest = r["gamma_min_rtt_min"] / (0.5 * r["gamma_max_rtt_max"] + 0.5 * r["gamma_min_rtt_min"])
        assert smallest - 1e-12 <= r["gamma_min"] <= r["gamma_max"] <= largest + 1e-12, flow
    # The range is what the flow has seen: minRTT is the path's RTT_0 (80 ms plus the
    # transmission times), but two flows with the default window (20 packets) never fill
    # the 100-packet buffer, so maxRTT stays within about 11 ms of it (measured: 86.0 to
    # 91.0 ms) where a full buffer would add 83 ms, and γ (eq. 11) is near 0.95, not 2/3.
    assert 0.080 < f["gamma_min_rtt_min"].min() <= f["gamma_min_rtt_max"].max() < 0.0825
    assert f["gamma_max_rtt_max"].max() < 0.1
    assert f["gamma_min"].min() > 0.9


def test_a_run_without_such_a_model_has_no_recorded_columns():
    reno = tcpsim.run(SCENARIO.replace('cc = "reno_gamma"', 'cc = "reno"'))
    assert recorded_values(reno.flows) == []
    assert list(reno.flows.columns) == list(SCHEMAS["flows"])
    assert not any(k.startswith(("recorded_", "flow_recorded_")) for k in run_measures(reno))


def test_the_columns_survive_parquet_and_csv(mixed, tmp_path):
    mixed.save(tmp_path / "run", csv=True)
    back = tcpsim.load_results(tmp_path / "run")
    pd.testing.assert_frame_equal(back.flows, mixed.flows)
    csv = pd.read_csv(tmp_path / "run" / "flows.csv")
    assert list(csv.columns[-len(RECORDED_COLUMNS):]) == RECORDED_COLUMNS
    assert csv.loc[csv["name"] == "r", RECORDED_COLUMNS].isna().all(axis=None)


def test_the_measures_pool_every_flows_values(mixed):
    f = mixed.flows.set_index("name").loc[["g0", "g1"]]
    m = run_measures(mixed)
    count = f["gamma_count"].sum()
    assert m["recorded_count.gamma"] == count
    assert m["recorded_mean.gamma"] == pytest.approx((f["gamma_count"] * f["gamma_mean"]).sum() / count, rel=1e-12)
    assert m["recorded_min.gamma"] == f["gamma_min"].min()
    assert m["recorded_max.gamma"] == f["gamma_max"].max()
    assert m["flow_recorded_mean.gamma.g1"] == f.loc["g1", "gamma_mean"]
    assert "flow_recorded_mean.gamma.r" not in m
    for name in ("recorded_mean.gamma", "recorded_count.gamma", "recorded_min.gamma",
                 "recorded_max.gamma", "flow_recorded_mean.gamma.g0"):
        assert "_" not in measure_label(name)


def test_a_flow_that_recorded_none_in_the_window_leaves_the_mean_undefined():
    flows = pd.DataFrame({"name": ["a", "b"], "gamma_count": [0.0, math.nan],
                          "gamma_mean": [math.nan] * 2, "gamma_min": [math.nan] * 2,
                          "gamma_max": [math.nan] * 2})
    m = recorded_measures(flows)
    assert m["recorded_count.gamma"] == 0
    assert math.isnan(m["recorded_mean.gamma"]) and math.isnan(m["recorded_min.gamma"])
