"""Reference document 002 (Arora's M.Eng. thesis, ECN over RED and DRED, FECN, MFFECN):
its experiment files describe the thesis' runs, its measures are what the thesis
measures (hand-computed here), its two figure kinds draw, and `tcpsim reproduce 002
--quick` writes the report with every check it can decide decided.

The twin's side (validation/ns2/doc002.tcl) is tests/test_ns2_doc002.py's."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import units
from tcpsim.cli import main as cli_main
from tcpsim.reproduce.measures import aqm_measures
from tcpsim.reproduce.runner import make_plan
from tcpsim.reproduce.spec import load_document
from tcpsim.results import Results

#: The schemes of each experiment (Table 3-2; Tables 4-3 and 4-7).
CASES = {
    "homogeneous": {"red", "ecn_red", "mecn_red", "dred", "ecn_dred"},
    "heterogeneous": {"red", "ecn_red", "dred", "ecn_dred", "fecn_red", "mffecn_red"},
    "fecn_mffecn": {f"{c}_{s}" for c in ("ecn_red", "fecn_red", "mffecn_red") for s in ("1a", "1d")},
}
#: Table 3-1 (RED's family) and Tables 4-2, 4-6.
RED_VALUES = {"limit": "586p", "min_th": 118, "max_th": 352, "max_p": 0.1, "weight": 0.002, "mean_packet_size": "576B"}
DRED_VALUES = {"limit": "586p", "target": 293, "no_drop_threshold": 264, "alpha": 0.00005, "beta": 0.002,
               "initial_p": 0.05, "interval_packets": 10, "mean_packet_size": "576B"}
ECN_KINDS = {"ecn_red", "mecn_red", "fecn_red", "mffecn_red", "ecn_dred"}


@pytest.fixture(scope="module")
def doc():
    return load_document("002")


@pytest.fixture(scope="module")
def plan(doc):
    return make_plan(doc)


def _ms(value) -> float:
    return units.parse(value)[0] * 1e3


def test_the_document_lists_its_experiments_numbers_checks_and_errata(doc):
    assert doc.citation == ('R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Department of Systems '
                            'and Computer Engineering, Carleton University, Ottawa, April 2003')
    main = [e for e in doc.experiments if not e.variant]
    assert [e.name for e in main] == ["homogeneous", "heterogeneous", "fecn_mffecn"]
    for e in main:
        assert {c.name for c in e.cases} == CASES[e.name], e.name
        assert e.aqm, f"{e.name} measures document 002's measures"
    # every cell of the fairness tables, each shown beside our measurement
    shown = {v.id: v.ours for v in doc.values if v.ours}
    for t, case in (("t33", "red"), ("t33", "ecn_red"), ("t34", "dred"), ("t34", "ecn_dred"), ("t44", "fecn_red"),
                    ("t48", "mffecn_red")):
        for sub, n in (("3", "300"), ("5", "500")):
            assert shown[f"{t}.{case}.{sub}"] == f"heterogeneous:{case}@{n}:jain_groups"
    assert {c.kind for c in doc.checks} == {"value", "ordering", "trend", "shape"}
    assert len(doc.errata) >= 10 and any("2c" in e and "3c" in e for e in doc.errata)


def test_every_case_is_the_thesis_scheme_with_table_3_1s_values(plan):
    """Each run's bottleneck queue is its case's scheme with the thesis' values, its flows
    ECN-capable exactly for the ECN schemes, FECN's and MFFECN's carrying their latest
    RTT; 100 hosts a subnet, all but the sources' access delays 10 ms."""
    assert plan.runs, "the experiments of 002 plan no run: " + "; ".join(plan.unavailable.values())[:500]
    for key, r in plan.runs.items():
        s = _toml.loads(r.toml_text)
        q, flow, d = s["dumbbell"]["bottleneck"]["queue"], s["flow"][0], s["dumbbell"]
        base = plan.document.experiment(key[0]).variant_of or key[0]
        case = key[1]
        assert q["kind"] == case.rsplit("_1", 1)[0], key
        values = DRED_VALUES if "dred" in q["kind"] else RED_VALUES
        assert {k: q[k] for k in values} == values, key
        if q["kind"] in ("fecn_red", "mffecn_red"):
            assert _ms(q["avg_rtt"]) == 100, key
            if key[0] in ("heterogeneous", "fecn_mffecn"):  # the readings take srtt or min
                assert flow["rtt_hint"] == "last", key
        if q["kind"] == "mffecn_red":
            assert (_ms(q["group1_max_rtt"]), _ms(q["group2_max_rtt"])) == (80, 120), key
        assert flow.get("ecn", False) == (q["kind"] in ECN_KINDS), key
        assert {x["hosts"] for x in d["subnets"]} == {100} and flow["count"] == 100 * len(d["subnets"]), key
        assert flow["group"] == "subnet{i/100}", key
        assert _ms(d["bottleneck"]["delay"]) == _ms(d["access"]["delay"]) == 10, key
        rtts = [2 * (_ms(x["access_delay"]) + 20) for x in d["subnets"]]
        expected = {100: [60], 500: [60] * 5, 1000: [60] * 10} if base == "homogeneous" else \
            {300: [60, 100, 140], 500: [60, 80, 100, 120, 140]} if base == "heterogeneous" else \
            {100: [100], 1000: list(range(60, 151, 10))}
        assert rtts == pytest.approx(expected[flow["count"]]), key
        assert (s["simulation"]["duration"], s["simulation"]["measure_from"]) == ("100s", "20s"), key
        assert (s["monitor"]["interval"], s["monitor"]["flows"], s["monitor"]["queues"]) == ("10ms", "none", ["r1->r2"])


def test_table_3_2s_2c_and_3c_run_at_1000_sources(plan):
    """The erratum: Table 3-2 prints 500 sources for 2c and 3c, Figs B-3 and 3-7 show 1000."""
    points = {k[2] for k in plan.runs if k[0] == "homogeneous" and k[1] in ("mecn_red", "ecn_dred")}
    assert points == {"100", "500", "1000"}


def test_each_reading_changes_only_what_it_says(plan):
    """A reading's runs are the main reading's with its keys set, on its cases only."""
    changes = {
        "heterogeneous_rto1": ("flow", "initial_rto", "1s"),
        "heterogeneous_starts": ("flow", "start", "uniform(0s, 1s)"),
        "homogeneous_every_ece": ("flow", "ecn_once_per_window", False),
        "heterogeneous_every_ece": ("flow", "ecn_once_per_window", False),
        "homogeneous_dred_no_l": ("queue", "no_drop_rule", False),
        "heterogeneous_dred_no_l": ("queue", "no_drop_rule", False),
        "homogeneous_ecn_dred_l": ("queue", "mark_threshold", "no_drop"),
        "heterogeneous_ecn_dred_l": ("queue", "mark_threshold", "no_drop"),
        "heterogeneous_fecn_srtt": ("flow", "rtt_hint", "srtt"),
        "heterogeneous_fecn_min": ("flow", "rtt_hint", "min"),
        "homogeneous_no_idle": ("queue", "idle_correction", False),
    }
    variants = [e for e in plan.document.experiments if e.variant]
    assert {e.name for e in variants} == set(changes)
    for e in variants:
        where, key_name, value = changes[e.name]
        runs = {k[1:]: r for k, r in plan.runs.items() if k[0] == e.name}
        assert runs and {k[0] for k in runs} == {c.name for c in e.cases}, e.name
        for k, r in runs.items():
            s, main = _toml.loads(r.toml_text), _toml.loads(plan.runs[(e.variant_of, *k)].toml_text)
            table = (lambda x: x["flow"][0]) if where == "flow" else (lambda x: x["dumbbell"]["bottleneck"]["queue"])
            assert table(s).pop(key_name) == value, (e.name, k)
            table(main).pop(key_name, None)
            assert s == main, (e.name, k)


def _results(flows, queue_samples, measure_from=20.0):
    """A run's tables as the core writes them, by hand."""
    links = pd.DataFrame({"link": ["r1->r2", "r2->r1"], "utilization": [0.97, 0.05], "rate_bps": [45e6, 45e6],
                          "bytes_sent": [10, 1]})
    queues = pd.DataFrame({"queue": ["r1->r2"], "arrivals": [2000], "early_drops": [30], "overflow_drops": [10],
                           "marks": [0], "mean_sojourn_s": [0.0125], "mean_length_pkts": [150.0]})
    ts = pd.DataFrame([(t, "r1->r2", "queue_pkts", q) for t, q in queue_samples],
                      columns=["time_s", "entity", "metric", "value"])
    return Results(flows=pd.DataFrame(flows), queues=queues, links=links, timeseries=ts,
                   summary={"measure_from_s": measure_from, "duration_s": 100.0})


def test_aqm_measures_by_hand():
    """Two subnets: subnet0's flows deliver 3 + 1 Mb/s, subnet1's 1 + 1 Mb/s, so Jain
    over the subnets is 6² / (2 (4² + 2²)) = 0.9 (over the four flows it would be
    36 / (4 · 12) = 0.75); 1000 data packets sent, 50 of them again: 0.05 retransmitted;
    rt-1 dropped 40 of 2000 arrivals; the queue's samples from 20 s: 100, 300."""
    flows = {"name": ["a", "b", "c", "d"], "type": ["tcp"] * 4, "group": ["subnet0", "subnet0", "subnet1", "subnet1"],
             "goodput_bps": [3e6, 1e6, 1e6, 1e6], "packets_sent": [400, 200, 200, 200],
             "retransmits": [20, 10, 10, 10]}
    m = aqm_measures(_results(flows, [(10.0, 500.0), (20.0, 100.0), (30.0, 300.0)]))
    assert (m["group_goodput_mbps.subnet0"], m["group_goodput_mbps.subnet1"]) == (4.0, 2.0)
    assert m["jain_groups"] == pytest.approx(0.9)
    assert m["retransmit_fraction"] == pytest.approx(0.05)
    assert m["bottleneck_loss_rate"] == pytest.approx(0.02)
    assert (m["bottleneck_utilization"], m["bottleneck_delay_ms"]) == (0.97, 12.5)
    assert (m["queue_mean_pkts"], m["queue_std_pkts"], m["queue_max_pkts"]) == (200.0, 100.0, 300.0)
    # no group: no group measure, the others still
    ungrouped = aqm_measures(_results({**flows, "group": [""] * 4}, [(20.0, 1.0)]))
    assert not [k for k in ungrouped if "group" in k] and ungrouped["queue_max_pkts"] == 1.0


FIGURE_DOCUMENT = """\
[document]
id = "tiny002"
title = "document 002's figure kinds"
short = "tiny"
citation = "a test of tcpsim"
seeds = 1
experiments = ["ex"]
assumptions = []
"""

FIGURE_EXPERIMENT = """\
[experiment]
title = "RED and ECN over RED, six flows in two groups"
section = "none"
[experiment.aqm]
[experiment.cases.red]
label = "RED"
set = {}
[experiment.cases.ecn]
label = "ECN over RED"
set = { "flow[0].ecn" = true, "dumbbell.bottleneck.queue.ecn" = true }
[[figure]]
id = "perf"
caption = "Fig. 3-2. Performance of RED (a) and ECN over RED (b)"
kind = "aqm_performance"
cases = ["red", "ecn"]
bin_s = 0.5
[[figure]]
id = "groups"
caption = "Fig. 3-11. Goodput of each group"
kind = "group_goodput"
cases = ["ecn", "red"]
letters = ["b", "a"]
[base.simulation]
duration = "4s"
measure_from = "1s"
seed = 1
[base.dumbbell]
pairs = 6
[base.dumbbell.bottleneck]
rate = "4Mbps"
delay = "10ms"
queue = { kind = "red", limit = "30p", min_th = 3, max_th = 9 }
[base.dumbbell.access]
rate = "100Mbps"
delay = "2ms"
[[base.flow]]
name = "f{i}"
count = 6
from = "s{i}"
to = "d{i}"
packet_size = "536B"
GROUP
[base.monitor]
interval = "10ms"
queues = ["r1->r2"]
"""


def test_the_figure_kinds_of_002_draw_five_rows_and_a_panel_per_case(tmp_path):
    """aqm_performance: five rows (utilization, throughput and goodput, queue, loss,
    delay) by one column per case, lettered in the figure's order; group_goodput: a
    panel per case. Drawn from real runs of a tiny document (with groups when the core
    has the flow key `group`)."""
    from tcpsim.reproduce import figures, reproduce
    from tcpsim.reproduce.checks import Measurements

    d = tmp_path / "doc"
    d.mkdir()
    (d / "document.toml").write_text(FIGURE_DOCUMENT)
    (d / "numbers.toml").write_text("")
    (d / "ex.toml").write_text(FIGURE_EXPERIMENT.replace("GROUP", 'group = "g{i/3}"'))
    r = reproduce(str(d), quick=True, out=tmp_path / "out", progress=False)
    if r.outcome.plan.unavailable:  # a core without flow groups: the same document without them
        (d / "ex.toml").write_text(FIGURE_EXPERIMENT.replace("GROUP", ""))
        r = reproduce(str(d), quick=True, out=tmp_path / "out2", progress=False)
    assert not r.outcome.plan.unavailable
    m = Measurements(r.outcome.table, {})
    ex = r.document.experiments[0]
    drawn = {f.id: figures._draw(ex, f, r.outcome, m)[0] for f in ex.figures}
    perf = drawn["perf"]
    axes = [ax for ax in perf.axes if ax.get_visible()]
    assert len(axes) == 10
    assert [ax.get_title(loc="left") for ax in axes[:2]] == ["(a) RED", "(b) ECN over RED"]
    assert [ax.get_ylabel().split("\n")[0] for ax in axes[::2]] == [
        "link utilization", "throughput, goodput", "queue size", "packet loss rate", "queueing delay"]
    # the utilization row: a busy 4 Mb/s link, never above 1 by more than a packet per bin
    u = axes[0].patches[0].get_data()[0] if axes[0].patches else []
    assert len(u) and max(u) <= 1.01 and max(u) > 0.8
    groups = drawn["groups"]
    assert [ax.get_title(loc="left") for ax in groups.axes if ax.get_visible()] == ["(b) ECN over RED", "(a) RED"]
    assert (r.report_dir / "figures" / "perf.png").is_file() and (r.report_dir / "figures" / "groups.png").is_file()


def test_quick_reproduction_of_002_decides_every_check(tmp_path):
    """`tcpsim reproduce 002 --quick`: 100 and 300 sources and 1a/1d for 30 s (20 s
    warm-up, a 10 s window), one seed; the value checks need the full 80 s window and the
    500/1000-source points (quick = false)."""
    assert cli_main(["reproduce", "002", "--quick", "--out", str(tmp_path), "--quiet", "--jobs", "1"]) == 0
    report = tmp_path / "002-quick" / "report"
    verdicts = json.loads((report / "verdicts.json").read_text())
    doc = load_document("002")
    quick = {c.id for c in doc.checks if c.raw.get("quick", True)}
    assert {v["id"] for v in verdicts} >= quick
    assert not [v["id"] for v in verdicts if v["id"] in quick and v["verdict"] == "not run"]
    # the orderings hold but those with a recorded reason
    known = {c.id for c in doc.checks if c.known_miss or c.raw.get("miss_reason")}
    bad = [v["id"] for v in verdicts if v["kind"] == "ordering" and v["verdict"] != "pass" and v["id"] not in known]
    assert not bad, bad
    figures = {p.stem for p in (report / "figures").glob("*.png")}
    assert {"fig3_2", "fig3_5", "figB_1", "fig3_11", "fig4_1", "fig4_3", "fig4_9"} <= figures
    md = (report / "README.md").read_text()
    assert "Errata and contradictions of the document" in md


@pytest.mark.skipif(not os.environ.get("TCPSIM_FULL_REPRODUCTION"),
                    reason="the full reproduction takes tens of minutes; set TCPSIM_FULL_REPRODUCTION=1")
def test_full_reproduction_of_002(tmp_path):
    assert cli_main(["reproduce", "002", "--out", str(tmp_path), "--quiet"]) == 0
    verdicts = json.loads((tmp_path / "002" / "report" / "verdicts.json").read_text())
    assert not [v["id"] for v in verdicts if v["verdict"] == "not run"]
