"""Tests of document 003's metrics in tcpsim.metrics (Zhang & Tsaoussidis, "Improving TCP
Smoothness by Synchronized and Measurement-based Congestion Avoidance", NOSSDAV 2003,
§4.2 and §4.3.4): FI, worst-case fairness, CoV, short-term fairness on the paper's
0.5 s samples from 15 s, the normalized queue length, and the recovery time after a
handoff, on hand-built values and on a run with the blackout error model.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import tcpsim
from tcpsim import metrics as m

#: 003 §4.2's example: six flows at 9, 9.5, 8.5, 9, 9 and 6 Mb/s.
SIX_FLOWS_MBPS = [9, 9.5, 8.5, 9, 9, 6]


def _delivered(per_flow_bytes, interval):
    """A long-format time series of ``delivered_bytes``: one list of per-interval bytes
    per flow, the first sample at t = 0 (an empty interval, as the monitor writes it)."""
    rows = []
    for name, values in per_flow_bytes.items():
        rows.append((0.0, name, "delivered_bytes", 0.0))
        rows += [(round((k + 1) * interval, 9), name, "delivered_bytes", float(v)) for k, v in enumerate(values)]
    return pd.DataFrame(rows, columns=["time_s", "entity", "metric", "value"])


# ================================================================== FI and WCF

def test_six_flow_example_fairness_index_and_worst_case():
    # FI = (Σx)² / (n Σx²) = 51² / (6 · 441.5) = 2601 / 2649; the paper prints 0.982
    assert m.jain_index(SIX_FLOWS_MBPS) == pytest.approx(2601 / 2649)
    assert m.jain_index(SIX_FLOWS_MBPS) == pytest.approx(0.98188, abs=5e-6)
    # WCF = min / max = 6 / 9.5 = 0.6316 by the paper's own formula. The paper prints
    # 0.667, which is 6 / 9: the smallest over the typical 9 Mb/s, not over the largest.
    assert m.worst_case_fairness(SIX_FLOWS_MBPS) == pytest.approx(0.6316, abs=5e-5)
    assert m.worst_case_fairness(SIX_FLOWS_MBPS) != pytest.approx(6 / 9, abs=1e-3)


def test_equal_flows_and_one_flow_are_perfectly_fair():
    # "all flows achieve 9.5 Mbps ... both are 1.0" (003 §4.2)
    assert m.jain_index([9.5] * 6) == 1.0
    assert m.worst_case_fairness([9.5] * 6) == 1.0
    # one flow: the index's lower bound 1/n is 1 as well
    assert m.jain_index([3.0]) == 1.0
    assert m.worst_case_fairness([3.0]) == 1.0


def test_zero_throughput_flow_and_bad_input():
    # a starved flow: WCF 0, FI 1/n for one flow taking everything among n
    assert m.worst_case_fairness([0.0, 4.0]) == 0.0
    assert m.jain_index([0.0, 0.0, 4.0]) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="all allocations are zero"):
        m.jain_index([0.0, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        m.worst_case_fairness([1.0, float("nan")])
    with pytest.raises(ValueError, match="NaN"):
        m.jain_index([1.0, float("nan")])


# ================================================================== CoV and STF

def test_cov_uses_the_population_standard_deviation():
    # x = 1, 2, 3, 6: mean 3, population variance (4 + 1 + 0 + 9) / 4 = 3.5
    x = [1.0, 2.0, 3.0, 6.0]
    assert m.coefficient_of_variation(x) == pytest.approx(math.sqrt(3.5) / 3)
    # the sample standard deviation (ddof=1) would give sqrt(14/3)/3; not this one
    assert m.coefficient_of_variation(x) != pytest.approx(np.std(x, ddof=1) / 3)
    # the system CoV averages each flow's CoV: (sqrt(3.5)/3 + 0) / 2
    df = pd.DataFrame({"a": x, "b": [2.0] * 4}, index=[0.5, 1.0, 1.5, 2.0])
    assert m.mean_coefficient_of_variation(df) == pytest.approx(math.sqrt(3.5) / 6)


def test_short_term_fairness_of_two_samples():
    # sample 1: (4, 4) -> 1; sample 2: (6, 2) -> 64 / (2 · 40) = 0.8; mean 0.9
    df = pd.DataFrame({"a": [4.0, 6.0], "b": [4.0, 2.0]}, index=[15.5, 16.0])
    assert m.short_term_fairness(df) == pytest.approx(0.9)
    # the Jain index of the mean throughputs (5, 3) would be 64 / 68: a different number
    assert m.jain_index(df.mean()) == pytest.approx(64 / 68)


def test_cov_of_a_flow_with_no_throughput_is_an_error_naming_it():
    df = pd.DataFrame({"a": [1.0, 2.0], "idle": [0.0, 0.0]}, index=[0.5, 1.0])
    with pytest.raises(ValueError, match=r"zero for \['idle'\]"):
        m.mean_coefficient_of_variation(df)
    with pytest.raises(ValueError, match="NaN"):
        m.mean_coefficient_of_variation(pd.DataFrame({"a": [1.0, np.nan]}, index=[0.5, 1.0]))


# ================================================================== 0.5 s samples from 15 s

def test_sampled_throughput_rebins_the_monitor_intervals_and_starts_at_15_s():
    assert (m.rates.SAMPLE_INTERVAL_S, m.rates.MEASURE_FROM_S) == (0.5, 15.0)
    # 0.25 s monitor, 17 s: flow "a" delivers 1 kB in every interval, more after 15 s
    n = 68
    a = [1000.0 if (k + 1) * 0.25 <= 15 else 3000.0 for k in range(n)]
    ts = _delivered({"a": a, "b": [2000.0] * n}, 0.25)
    s = m.sampled_throughput(ts)
    # samples (15, 15.5], ..., (16.5, 17]: four, each the mean of two 0.25 s intervals
    assert s.index.tolist() == [15.5, 16.0, 16.5, 17.0]
    assert s["a"].tolist() == [3000 * 8 / 0.25] * 4
    assert s["b"].tolist() == [2000 * 8 / 0.25] * 4
    assert s.attrs["interval_s"] == 0.5
    # from 0: the first sample (0, 0.5]
    assert m.sampled_throughput(ts, start_s=0.0).index[0] == 0.5
    with pytest.raises(ValueError, match="not a whole multiple of the monitor interval 0.25"):
        m.sampled_throughput(ts, sample_s=0.3)
    with pytest.raises(ValueError, match="no whole 0.5 s sample"):
        m.sampled_throughput(ts, start_s=17.0)


def test_sampled_throughput_drops_an_incomplete_last_sample():
    ts = _delivered({"a": [1000.0] * 5}, 0.1)   # 0.5 s of monitor intervals, then nothing
    ts = ts[ts["time_s"] <= 0.7]                 # (0.5, 0.7] is only part of a sample
    s = m.sampled_throughput(ts, start_s=0.0)
    assert s.index.tolist() == [0.5]


def test_fairness_and_smoothness_of_a_run():
    # two flows; from 15 s the samples are (4, 4) and (6, 2) Mb/s; goodput 6 and 3 Mb/s
    mbps = {"a": [1.0] * 30 + [4.0, 6.0], "b": [1.0] * 30 + [4.0, 2.0]}
    ts = _delivered({k: [v * 1e6 * 0.5 / 8 for v in vs] for k, vs in mbps.items()}, 0.5)
    flows = pd.DataFrame({"name": ["a", "b"], "goodput_bps": [6e6, 3e6]})
    got = m.fairness_and_smoothness(SimpleNamespace(flows=flows, timeseries=ts))
    assert got["fairness_index"] == pytest.approx(81 / (2 * 45))
    assert got["worst_case_fairness"] == pytest.approx(0.5)
    assert got["short_term_fairness"] == pytest.approx(0.9)
    # CoV: a = (4, 6): 1/5; b = (4, 2): 1/3; mean 4/15
    assert got["cov"] == pytest.approx((1 / 5 + 1 / 3) / 2)


# ================================================================== normalized queue

def test_normalized_queue_length_is_queue_over_buffer():
    assert m.normalized_queue_length([0, 25, 100], 100).tolist() == [0.0, 0.25, 1.0]
    assert m.normalized_queue_length(50, 200) == 0.25
    with pytest.raises(ValueError, match="buffer_pkts must be > 0"):
        m.normalized_queue_length([1], 0)
    with pytest.raises(ValueError, match="finite and >= 0"):
        m.normalized_queue_length([1, float("nan")], 10)
    with pytest.raises(ValueError, match="empty"):
        m.normalized_queue_length([], 10)


def test_normalized_queue_of_a_monitored_queue():
    ts = pd.DataFrame({"time_s": [1.0, 0.5, 0.5], "entity": ["r1->r2", "r1->r2", "r2->r1"],
                       "metric": ["queue_pkts"] * 3, "value": [40.0, 20.0, 7.0]})
    q = m.normalized_queue(ts, "r1->r2", 80)
    assert q.index.tolist() == [0.5, 1.0]
    assert q.tolist() == [0.25, 0.5]
    with pytest.raises(ValueError, match=r"no queue_pkts samples of queue 'x->y'.*\['r1->r2', 'r2->r1'\]"):
        m.normalized_queue(ts, "x->y", 80)


DROPTAIL_20 = """
# two Reno flows fill a 20-packet DropTail queue at a 4 Mb/s bottleneck
[simulation]
duration = "20s"
seed = 1
[dumbbell]
pairs = 2
[dumbbell.bottleneck]
rate = "4Mbps"
delay = "10ms"
queue = { kind = "droptail", limit = "20p" }
[dumbbell.access]
rate = "100Mbps"
delay = "2ms"
[[flow]]
name = "f{i}"
count = 2
from = "s{i}"
to = "d{i}"
max_window = 200
[monitor]
interval = "100ms"
queues = ["r1->r2"]
"""


def test_normalized_queue_of_a_full_droptail_queue():
    res = tcpsim.run(DROPTAIL_20)
    q = m.normalized_queue(res, "r1->r2", 20)
    assert res.queues.set_index("queue").loc["r1->r2", "overflow_drops"] > 0
    # the limit counts the packet on the wire: a full queue is 19 waiting, 19/20
    assert q.max() == pytest.approx(19 / 20)
    assert q.min() >= 0.0


# ================================================================== recovery time

def test_recovery_time_first_trailing_mean_at_95_percent_of_the_level():
    # outage ends at 21 s; 0.5 s samples ramp linearly 1 Mb/s per sample up to 10 Mb/s
    t = np.arange(21.5, 40.01, 0.5)
    y = np.minimum(np.arange(1, t.size + 1), 10.0)
    # trailing 1 s means: (9 + 10) / 2 = 9.5 at t = 26.0 is the first >= 9.5
    assert m.recovery_time(t, y, outage_end=21.0, level=10.0) == pytest.approx(5.0)
    # one 0.5 s sample, no smoothing: y = 10 >= 9.5 first at t = 26.0 as well; 9 at 80 %
    assert m.recovery_time(t, y, 21.0, 10.0, window=0.5) == pytest.approx(5.0)
    assert m.recovery_time(t, y, 21.0, 10.0, share=0.8, window=0.5) == pytest.approx(4.0)


def test_recovery_time_ignores_a_burst_and_samples_of_the_outage():
    t = [20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5, 24.0]
    y = [10, 10, 0, 12, 2, 4, 10, 10]          # one burst sample at 22.0
    # the window (20.5, 21.5] overlaps the outage and is not a candidate; the burst
    # alone averages (12 + 2)/2 = 7 < 9.5; first (23.0, 24.0] at 10
    assert m.recovery_time(t, y, outage_end=20.5, level=10.0) == pytest.approx(3.5)
    # never regained: infinity
    assert m.recovery_time(t, [0, 0, 1, 1, 1, 1, 1, 1], 20.5, 10.0) == math.inf


def test_recovery_time_errors():
    with pytest.raises(ValueError, match="level must be > 0"):
        m.recovery_time([1, 2], [1, 1], 0.5, 0.0)
    with pytest.raises(ValueError, match="differ in length"):
        m.recovery_time([1, 2], [1], 0.5, 1.0)
    with pytest.raises(ValueError, match="strictly increasing"):
        m.recovery_time([2, 1], [1, 1], 0.5, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        m.recovery_time([1, 2], [1, float("nan")], 0.5, 1.0)


HANDOFF = """
# one flow over a 2 Mb/s last hop that goes dark over [4 s, 5 s)
[simulation]
duration = "12s"
seed = 1

[network]
nodes = ["server", "base", "mobile"]

[[link]]
from = "server"
to = "base"
rate = "10Mbps"
delay = "10ms"

[[link]]
from = "base"
to = "mobile"
rate = "2Mbps"
delay = "5ms"
error_model = { kind = "blackout", windows = [["4s", "5s"]] }

[[flow]]
name = "handoff"
from = "server"
to = "mobile"
max_window = 100

[monitor]
interval = "100ms"
queues = "none"
"""


@pytest.fixture(scope="module")
def handoff_run():
    return tcpsim.run(HANDOFF)


def test_handoff_recovery_time_on_a_blackout_run(handoff_run):
    s = m.sampled_throughput(handoff_run, start_s=0.0)["handoff"]
    # nothing crosses the dark hop in the samples after (4.5, 5.0]
    assert s.loc[5.0] == 0.0
    level = float(s[(s.index > 2.0) & (s.index <= 4.0)].mean())
    assert level > 0.9 * 2e6                 # the flow filled its 2 Mb/s hop before
    got = m.handoff_recovery_time(handoff_run, (4.0, 5.0), before_s=2.0)
    rec = float(got["handoff"])
    assert 1.0 <= rec < 7.0                   # after the outage, within the run
    # the definition, by hand: the first 1 s window after 5 s averaging >= 95 % of level
    t = s.index.to_numpy()
    first = next(tk for tk in t if tk - 1.0 >= 5.0 - 1e-9
                 and s[(t > tk - 1.0 + 1e-9) & (t <= tk)].mean() >= 0.95 * level)
    assert rec == pytest.approx(first - 5.0)
    # against the hop's rate as the level: no sooner than against the flow's own level
    assert m.handoff_recovery_time(handoff_run, (4.0, 5.0), level_bps=2e6)["handoff"] >= rec


def test_handoff_recovery_time_errors(handoff_run):
    with pytest.raises(ValueError, match="start < end"):
        m.handoff_recovery_time(handoff_run, (5.0, 4.0))
    with pytest.raises(ValueError, match=r"flow\(s\) \['nope'\]"):
        m.handoff_recovery_time(handoff_run, (4.0, 5.0), flows=["nope"])
    with pytest.raises(ValueError, match="no whole 0.5 s sample in the 0.4 s before"):
        m.handoff_recovery_time(handoff_run, (4.0, 5.0), before_s=0.4)
    # a flow that delivered nothing before the outage has no level to regain
    late = _delivered({"late": [0.0] * 8 + [1000.0] * 8}, 0.5)
    with pytest.raises(ValueError, match="flow 'late' delivered nothing in the 2.0 s before"):
        m.handoff_recovery_time(late, (3.0, 4.0), before_s=2.0)
    assert m.handoff_recovery_time(late, (3.0, 4.0), level_bps=16000.0)["late"] == 1.0


# ================================================================== the reproduction's registry

def test_registry_measures_of_a_blackout_run(handoff_run):
    from tcpsim.reproduce.measures import handoff_measures, smoothness_measures

    got = smoothness_measures(handoff_run, from_s=1.0)
    direct = m.fairness_and_smoothness(handoff_run, start_s=1.0)
    assert got == pytest.approx(direct.to_dict())
    # one flow: perfectly fair by both long-term measures
    assert got["fairness_index"] == 1.0 and got["worst_case_fairness"] == 1.0
    # no bottleneck queue monitored: no normalized queue, the other metrics stay
    assert "queue_norm_mean" not in smoothness_measures(handoff_run, from_s=1.0, buffer_pkts=50)
    rec = handoff_measures(handoff_run, (4.0, 5.0))
    assert rec == {"recovery_s.handoff": float(m.handoff_recovery_time(handoff_run, (4.0, 5.0))["handoff"])}


EXPERIMENT = """\
[experiment]
title = "one flow"
section = "none"
{extra}
[experiment.cases.reno]
label = "Reno"
set = {{ "flow[*].cc" = "reno" }}
[base.simulation]
duration = "3s"
[base.network]
nodes = ["a", "b"]
[[base.link]]
from = "a"
to = "b"
rate = "1Mbps"
delay = "1ms"
[[base.flow]]
name = "f"
from = "a"
to = "b"
"""


def test_experiment_samples_and_handoff_tables(tmp_path):
    from tcpsim import ScenarioError
    from tcpsim.reproduce.spec import load_experiment

    def load(extra):
        path = tmp_path / "ex.toml"
        path.write_text(EXPERIMENT.format(extra=extra))
        return load_experiment(path)

    e = load("[experiment.samples]\nfrom_s = 15\nbuffer_pkts = 100\n[experiment.handoff]\noutage_s = [20, 21]")
    assert (e.samples.from_s, e.samples.every_s, e.samples.buffer_pkts) == (15.0, None, 100.0)
    assert e.outage_s == (20.0, 21.0)
    assert load("").samples is None and load("").outage_s is None
    with pytest.raises(ScenarioError, match=r"ex.toml, \[experiment.samples\], key 'every': unknown key"):
        load("[experiment.samples]\nevery = 0.5")
    with pytest.raises(ScenarioError, match=r"\[experiment.samples\], key 'every_s': expected a positive number"):
        load("[experiment.samples]\nevery_s = 0")
    with pytest.raises(ScenarioError, match=r"\[experiment.handoff\], key 'outage_s': expected \[start, end\]"):
        load("[experiment.handoff]\noutage_s = [21, 20]")
    with pytest.raises(ScenarioError, match=r"\[experiment.handoff\]: expected one key, outage_s"):
        load("[experiment.handoff]\nstart = 20")
