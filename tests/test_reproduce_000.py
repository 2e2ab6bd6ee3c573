"""Reference document 000 (Chang's 2004 thesis on Reno/Vegas fairness with RED whose
thresholds come from the number of connections n): its experiment files describe the
thesis' runs, and `tcpsim reproduce 000 --quick` passes its structural targets."""

from __future__ import annotations

import json
import re

import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim.cli import main as cli_main
from tcpsim.reproduce.runner import make_plan
from tcpsim.reproduce.spec import load_document

#: The targets that should reproduce almost exactly: homogeneous Vegas never reaches
#: MinThresh = beta n, so it loses nothing and RED equals drop-tail; the Vegas queue of
#: 2.4-2.6 packets per flow; five Vegas share equally; R1 never overflows in the
#: drop-tail deployment case.
STRONG_TARGETS = {"e1.vv.dt.nodrop", "e1.vv.red.nodrop", "e1.vv.red_equals_dt", "e2.5v.dt.nodrop",
                  "e2.5v.red.nodrop", "e2.5v.red_equals_dt", "e2.5v.queue", "e3.10v.queue",
                  "e2.5v.share.s1", "e2.5v.share.s5", "e2.5v.jain", "e5.dt.r1.nodrop", "e5.r3.r1.nodrop"}

#: Strong target 4 (Table 4.3's drop-tail 8V2R: all eight Vegas flows get the same
#: throughput) misses in this reconstruction, in tcpsim and in ns-2.35 alike, and no
#: reading of what the thesis leaves open removes the miss: numbers.toml's miss_reason of
#: this check gives the mechanism in numbers (Vegas7 and Vegas8 measure their BaseRTT
#: behind about 21 queued packets and keep a fifth packet). Not tuned to pass: asserted
#: as the miss it is, with the counters the reason cites
#: (test_strong_target_4_misses_by_the_mechanism_its_reason_gives, and ns-2's side in
#: tests/test_ns2_doc000.py).
STRUCTURAL_MISS = "e4.dt.vegas_equal.1_8"

BETA = 3  # Vegas' beta (Sect. 2.1.2), which the thesis' thresholds are built on (Sect. 3.4)


def _scenario(plan, experiment, case):
    return _toml.loads(plan.runs[(experiment, case, None, 1)].toml_text)


def test_every_table_cell_is_printed_and_every_reference_resolves():
    doc = load_document("000")
    assert doc.citation.startswith("Chun-Wei Chang, \"TCP Performance Analysis and Fairness Improvement")
    tables = {v.id.split(".")[0] for v in doc.values}
    assert tables == {"table31", "table41", "table42", "table43", "table44"}
    assert all(v.printed and v.value is not None and v.ours for v in doc.values)
    # Table 3.1: 6 columns x 7 rows less the 4 "X" fairness cells; Table 4.1: 6 x 12 less
    # 4; Table 4.2: 6 x 17; Table 4.3: 6 x 17 (drop-tail and the five RED columns); Table
    # 4.4: 4 x 11
    assert len(doc.values) == 38 + 68 + 102 + 6 * 17 + 44
    assert STRONG_TARGETS <= {c.id for c in doc.checks} and STRUCTURAL_MISS not in STRONG_TARGETS


@pytest.mark.parametrize("experiment, case, router", [
    ("e2_five_flows", "v4r1_red", "dumbbell"), ("e3_ten_flows", "v5r5_red", "dumbbell"),
    ("e5_deployment", "red_r1", "link[6]"), ("e5_deployment", "red_r3", "link[4]")])
def test_red_thresholds_follow_the_connections_through_the_queue(experiment, case, router):
    """MinThresh = min(B, beta n), MaxThresh = min(B, (beta + 1) n) (Sect. 3.4), n the
    connections through the RED queue: the fixed numbers in the files are that rule."""
    plan = make_plan(load_document("000"))
    s = _scenario(plan, experiment, case)
    if router == "dumbbell":
        queue, n = s["dumbbell"]["bottleneck"]["queue"], len(s["flow"])
    else:
        link = s["link"][int(router[5:-1])]
        queue = link["queue"]
        # the flows whose route crosses the link: each of R3's and R4's two sources, or all four at R1
        n = 4 if link["from"] == "r1" else sum(f["from"] in {"s1", "s2"} for f in s["flow"])
    limit = int(queue["limit"].rstrip("p"))
    assert queue["kind"] == "red"
    assert (queue["min_th"], queue["max_th"]) == (min(limit, BETA * n), min(limit, (BETA + 1) * n))


def test_the_ns227_reading_changes_only_the_red_cases_weight():
    plan = make_plan(load_document("000"))
    main, other = _scenario(plan, "e2_five_flows", "v4r1_red"), _scenario(plan, "e2_five_flows_ns227", "v4r1_red")
    assert main["dumbbell"]["bottleneck"]["queue"]["weight"] == 0.002
    assert other["dumbbell"]["bottleneck"]["queue"]["weight"] == "auto"
    del main["dumbbell"]["bottleneck"]["queue"]["weight"], other["dumbbell"]["bottleneck"]["queue"]["weight"]
    assert main == other
    # a drop-tail case keeps its own queue
    dt = _scenario(plan, "e2_five_flows_ns227", "v4r1_dt")
    assert dt["dumbbell"]["bottleneck"]["queue"]["kind"] == "droptail"


#: ns-2.27's Agent/TCP timers (minrto_, rtxcur_init_, maxrto_: docs/ns2-semantics.md,
#: section 12), the main reading's on every flow: the thesis ran ns-2.27.
NS227_TIMERS = {"min_rto": 1.0, "initial_rto": 6.0, "max_rto": 100000.0}


def test_the_main_reading_runs_ns227_timers_on_every_flow_and_its_reading_ns235_s():
    """Every run of a base experiment (not a variant) gives every flow ns-2.27's timers;
    the reading 'ns-2.35 TCP timers' sets them back to ns-2.35's, which are tcpsim's own
    defaults (the catalogue's, read here, not retyped), on every flow of every case."""
    from tcpsim import models, units

    doc = load_document("000")
    plan = make_plan(doc)
    tcp = models.get("agent", "tcp")
    bases = {e.name for e in doc.experiments if not e.variant_of}
    assert {"e1_two_flows", "e1_buffer_sweep", "e4_red", "e5_deployment", "e6_end_host_fixes_ten"} <= bases
    for (experiment, case, point, seed), r in plan.runs.items():
        if experiment in bases and seed == 1:
            for f in _toml.loads(r.toml_text)["flow"]:
                assert {k: units.parse(f[k])[0] for k in NS227_TIMERS} == NS227_TIMERS, (experiment, case, f["name"])
    ns235 = [e for e in doc.experiments if e.variant == "ns-2.35 TCP timers"]
    assert sorted(e.name for e in ns235) == sorted(f"{b}_ns235rto" for b in (
        "e1_two_flows", "e2_five_flows", "e3_ten_flows", "e4_droptail", "e4_red", "e5_deployment"))
    for e in ns235:
        for case in doc.experiment(e.variant_of).cases:
            for f in _scenario(plan, e.name, case.name)["flow"]:
                assert {k: units.parse(f[k])[0] for k in NS227_TIMERS} == {k: tcp.param(k).default for k in NS227_TIMERS}


@pytest.mark.parametrize("experiment, case, point", [
    ("e1_two_flows", "vr_dt", None), ("e1_buffer_sweep", "vr_dt", "40p"), ("e2_five_flows", "v4r1_dt", None),
    ("e3_ten_flows", "v1r9_dt", None), ("e4_droptail", "dt_literal", None), ("e5_deployment", "dt", None)])
def test_the_jitter_reading_only_jitters_every_flow_s_start(experiment, case, point):
    plan = make_plan(load_document("000"))
    main, other = (_toml.loads(plan.runs[(e, case, point, 1)].toml_text) for e in (experiment, experiment + "_jitter"))
    assert [f.pop("start_jitter") for f in other["flow"]] == ["20ms"] * len(main["flow"])
    assert main == other
    assert plan.document.experiment(experiment + "_jitter").ns2.args[-1] == "start_jitter=0.02"


#: E6 (our extension): each mix's source experiment and Vegas flows, and each fix as the
#: Vegas flows' window control (with Vegas' loss recovery) and the bottleneck queue.
E6_MIXES = {("e6_end_host_fixes", "v4r1"): ("e2_five_flows", "v4r1_dt", 4),
            ("e6_end_host_fixes", "v1r4"): ("e2_five_flows", "v1r4_dt", 1),
            ("e6_end_host_fixes_ten", "v5r5"): ("e3_ten_flows", "v5r5_dt", 5)}
E6_FIXES = {"vegas_dt": ("vegas", "droptail"), "vegas_red_n": ("vegas", "red_n"),
            "vegas35_dt": ({"kind": "vegas", "alpha": 3, "beta": 5}, "droptail"),
            "new_vegas_dt": ("new_vegas", "droptail"), "vegas_a_dt": ("vegas_a", "droptail"),
            "vegas_plus_dt": ("vegas_plus", "droptail")}


@pytest.mark.parametrize("experiment, mix", sorted(E6_MIXES))
def test_e6_runs_the_thesis_mixes_with_only_the_vegas_flows_or_the_queue_changed(experiment, mix):
    """Each E6 case is its E2/E3 drop-tail mix with the Vegas flows' window control
    replaced by the fix (or the queue by red_n with the exact n): nothing else differs,
    so the fairness ratios compare the fixes and nothing else."""
    plan = make_plan(load_document("000"))
    source, source_case, vegas_flows = E6_MIXES[(experiment, mix)]
    thesis = _scenario(plan, source, source_case)
    assert [e.name for e in plan.document.experiments if e.name.startswith("e6_")] == [
        "e6_end_host_fixes", "e6_end_host_fixes_ten"]
    assert {c.name for c in plan.document.experiment(experiment).cases} >= {f"{mix}_{f}" for f in E6_FIXES}
    for fix, (cc, queue) in E6_FIXES.items():
        s = _scenario(plan, experiment, f"{mix}_{fix}")
        flows = s["flow"]
        assert [f["cc"] for f in flows] == [cc] * vegas_flows + ["reno"] * (len(flows) - vegas_flows), fix
        assert all(f["recovery"] == "vegas" and f["full_size_syn"] for f in flows[:vegas_flows]), fix
        q = s["dumbbell"]["bottleneck"]["queue"]
        assert q["kind"] == queue, fix
        if queue == "red_n":
            # the thesis' RED (Sect. 3.4) with n counted exactly; RED's other settings E2's
            red = _scenario(plan, source, source_case.replace("_dt", "_red"))["dumbbell"]["bottleneck"]["queue"]
            assert (q["n_source"], q["beta"]) == ("exact", BETA), fix
            assert {k: v for k, v in q.items() if k not in ("kind", "n_source", "beta")} == {
                k: v for k, v in red.items() if k not in ("kind", "min_th", "max_th")}, fix
        # everything else is the thesis mix's drop-tail run
        def without_fix(scenario):
            scenario = dict(scenario, flow=[{k: v for k, v in f.items() if k not in ("cc", "recovery", "full_size_syn")}
                                            for f in scenario["flow"]])
            scenario["dumbbell"] = dict(scenario["dumbbell"], bottleneck=dict(scenario["dumbbell"]["bottleneck"], queue=None))
            return scenario

        assert without_fix(s) == without_fix(thesis), fix


def test_e6_figure_draws_each_fix_as_a_bar_of_its_mean_in_its_mix():
    """`case_bars` (E6's figure): bar i of group g is the mean over seeds of group g's
    i-th case, its error bar their SD; cases of the two E6 experiments share one figure."""
    import pandas as pd

    from tcpsim.reproduce.checks import Measurements
    from tcpsim.reproduce.figures import _case_bars

    doc = load_document("000")
    ex = doc.experiment("e6_end_host_fixes")
    fig = next(f for f in ex.figures if f.id == "e6_fairness")
    # every case the figure names exists, one per bar in each group
    known = {(e.name, c.name) for e in doc.experiments for c in e.cases}
    assert all(tuple(c.split(":")) in known for g in fig.extra["groups"] for c in g["cases"])
    rows = []
    for gi, g in enumerate(fig.extra["groups"]):
        for bi, c in enumerate(g["cases"]):
            e, case = c.split(":")
            rows += [{"experiment": e, "case": case, "point": None, "seed": seed, "metric": fig.metrics[0],
                      "value": 10.0 * gi + bi + (0.5 if seed == 2 else 0.0)} for seed in (1, 2)]
    drawn = _case_bars(ex, fig, Measurements(pd.DataFrame(rows), {}))
    ax = drawn.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == [g["label"] for g in fig.extra["groups"]]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == fig.extra["bars"]
    from matplotlib.container import BarContainer

    for bi, bars in enumerate(c for c in ax.containers if isinstance(c, BarContainer)):
        assert [b.get_height() for b in bars] == pytest.approx([10.0 * gi + bi + 0.25 for gi in range(len(bars))])
    assert ax.get_ylabel().replace("\n", " ") == "mean Vegas over mean Reno throughput"


def _flat(table, prefix=""):
    """A scenario as {key path: value}: ``dumbbell.bottleneck.queue.weight``, ``flow[3].min_rto``."""
    out = {}
    for k, v in table.items():
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(_flat(v, path))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for i, x in enumerate(v):
                out.update(_flat(x, f"{path}[{i}]"))
        else:
            out[path] = v
    return out


def _covered(path, set_keys):
    return any(re.fullmatch(re.escape(k).replace(r"\[\*\]", r"\[\d+\]") + r"(\..*)?", path) for k in set_keys)


def test_each_reading_changes_only_what_its_file_sets():
    """Every variant experiment of 000 (a reading of what the thesis leaves open) runs
    its parent's scenarios with only the keys of its `set` changed, changes at least
    one case, and passes the ns-2 twin arguments of its choice; a reading that sets
    only RED's queue leaves the drop-tail cases as they are."""
    doc = load_document("000")
    plan = make_plan(doc)
    variants = [e for e in doc.experiments if e.variant_of]
    assert {e.variant for e in variants} >= {"ns-2.27 RED defaults", "RED max_p 0.02", "non-gentle RED", "RED byte mode",
                                              "RTO tick 500 ms", "initial window 2", "advertised window 128",
                                              "ns-2.35 TCP timers", "ns-2.27 defaults"}
    for e in variants:
        raw = _toml.loads(e.path.read_text())["experiment"]
        set_keys, changed = list(raw["set"]), 0
        assert raw["ns2_args"], e.name
        for case in doc.experiment(e.variant_of).cases:
            # an experiment with an axis (e1_buffer_sweep): its first point
            point = next(p for (x, c, p, _) in plan.runs if (x, c) == (e.name, case.name))
            main, other = (_flat(_toml.loads(plan.runs[(name, case.name, point, 1)].toml_text))
                           for name in (e.variant_of, e.name))
            differ = {k for k in main.keys() | other.keys() if main.get(k) != other.get(k)}
            assert all(_covered(k, set_keys) for k in differ), (e.name, case.name, differ)
            changed += bool(differ)
            if set_keys == ["dumbbell.bottleneck.queue"] and main["dumbbell.bottleneck.queue.kind"] == "droptail":
                assert not differ, (e.name, case.name)
        assert changed, e.name


def test_quick_reproduction_of_000_passes_its_strong_targets(tmp_path):
    # 19 s on 2 cores: short runs (30 s of simulated time; E4's 101 s and E5's 201 s whole)
    assert cli_main(["reproduce", "000", "--quick", "--out", str(tmp_path), "--quiet"]) == 0
    report = tmp_path / "000-quick" / "report"
    verdicts = {v["id"]: v for v in json.loads((report / "verdicts.json").read_text())}
    assert [i for i in sorted(STRONG_TARGETS) if verdicts[i]["verdict"] != "pass"] == []
    assert verdicts[STRUCTURAL_MISS]["verdict"] == "miss"   # E4 runs whole with --quick: the full run's numbers
    assert not [i for i, v in verdicts.items() if v["verdict"] == "not run"]
    # E6 (our extension): its checks are decided and its figure drawn
    assert {i for i in verdicts if i.startswith("e6.")} == {
        f"e6.{mix}.{claim}" for mix in ("v4r1", "v1r4", "v5r5") for claim in ("larger_ab_fairer", "larger_ab_needs_buffer")}
    assert (report / "figures" / "e6_fairness.png").is_file() and (report / "figures" / "e6_utilization_drops.png").is_file()
    md = (report / "README.md").read_text()
    assert "Fig. 3.5. Throughput varying the buffer size B" in md and "§" not in md
    # document.toml's findings, their citations shown with this run's values in place
    findings = md.split("## Findings\n", 1)[1].split("\n## ", 1)[0]
    assert "[`e2_five_flows_ns235rto:v4r1_dt:vegas_reno_ratio` = " in findings and "{e2_five_flows" not in findings


def target_4_counters(m):
    """The counters the reason of strong target 4 (STRUCTURAL_MISS) cites, from one run's
    group measures: each Vegas flow's throughput in 70-100 s (Kb/s) and BaseRTT (ms)."""
    return ({i: m[f"flow_kbps_window.0.Vegas{i}"] for i in range(1, 9)},
            {i: m[f"flow_rtt_min_ms.Vegas{i}"] for i in range(1, 9)})


def test_strong_target_4_misses_by_the_mechanism_its_reason_gives():
    """Main reading (ns-2.27's timers), seed 1: no Vegas flow times out, only the two
    Reno flows do; Vegas1-Vegas6 get the thesis' 80 Kb/s (4 packets per RTT) with
    BaseRTTs below 145 ms, Vegas7 and Vegas8 about 100 (5 packets) with BaseRTTs of
    168 ms, measured behind about 21 queued packets (84 ms + 21 x 4 ms): Vegas1 over
    Vegas8 is 0.79, outside the check's 10 %. If the mechanism changes, this fails."""
    from tcpsim.api import run
    from tcpsim.reproduce.measures import group_measures

    doc = load_document("000")
    check = next(c for c in doc.checks if c.id == STRUCTURAL_MISS)
    assert "BaseRTT" in check.raw["miss_reason"] and "{e4_droptail:dt:tcp_timeouts = 2}" in check.raw["miss_reason"]
    plan = make_plan(doc, quick=True)
    m = group_measures(run(plan.runs[("e4_droptail", "dt", None, 1)].toml_text), doc.experiment("e4_droptail").windows)
    kbps, base_rtt_ms = target_4_counters(m)
    assert [m[f"flow_timeouts.Vegas{i}"] for i in range(1, 9)] == [0] * 8
    assert m["flow_timeouts.Reno1"] + m["flow_timeouts.Reno2"] == 2
    assert all(75 < kbps[i] < 85 and base_rtt_ms[i] < 145 for i in range(1, 7)), (kbps, base_rtt_ms)
    assert all(95 < kbps[i] < 105 and base_rtt_ms[i] == pytest.approx(168, abs=1) for i in (7, 8)), (kbps, base_rtt_ms)
    assert not 0.9 <= kbps[1] / kbps[8] <= 1.1


def _thresholds(plan, case, tmp_path):
    """(time s, n, min_th, max_th) of the E4 RED bottleneck of `case` at each change."""
    from tcpsim.api import run

    ts = run(plan.runs[("e4_red", case, None, 1)].toml_text, out=tmp_path / case).timeseries
    q = ts[(ts.entity == "r1->r2") & ts.metric.isin(["red_n", "red_min_th_pkts", "red_max_th_pkts"])]
    wide = q.pivot_table(index="time_s", columns="metric", values="value")
    steps = wide[(wide.diff().abs().sum(axis=1) > 0) | (wide.index == wide.index[0])]
    return [(round(t, 6), *(round(r[k], 9) for k in ("red_n", "red_min_th_pkts", "red_max_th_pkts")))
            for t, r in steps.iterrows()]


@pytest.mark.parametrize("case, steps", [
    # Vegas in pairs at 0-30 s, both Reno at 40 s: beta n = 30, (beta + 1) n = 40 from 40 s
    # (Sect. 4.2: "30 and 40 after 40 seconds")
    ("red", [(0.0, 2, 6, 8), (10.0, 4, 12, 16), (20.0, 6, 18, 24), (30.0, 8, 24, 32), (40.0, 10, 30, 40)]),
    # n off by e: 36/48, 33/44, 27/36, 24/32 at n = 10 (Sect. 4.2); n (1 + e) not rounded
    # (6.6/8.8 for two flows at +10 %: docs/models/red-n.md, e4_red.toml)
    ("red_plus20", [(0.0, 2.4, 7.2, 9.6), (10.0, 4.8, 14.4, 19.2), (20.0, 7.2, 21.6, 28.8), (30.0, 9.6, 28.8, 38.4),
                    (40.0, 12, 36, 48)]),
    ("red_plus10", [(0.0, 2.2, 6.6, 8.8), (10.0, 4.4, 13.2, 17.6), (20.0, 6.6, 19.8, 26.4), (30.0, 8.8, 26.4, 35.2),
                    (40.0, 11, 33, 44)]),
    ("red_minus10", [(0.0, 1.8, 5.4, 7.2), (10.0, 3.6, 10.8, 14.4), (20.0, 5.4, 16.2, 21.6), (30.0, 7.2, 21.6, 28.8),
                     (40.0, 9, 27, 36)]),
    ("red_minus20", [(0.0, 1.6, 4.8, 6.4), (10.0, 3.2, 9.6, 12.8), (20.0, 4.8, 14.4, 19.2), (30.0, 6.4, 19.2, 25.6),
                     (40.0, 8, 24, 32)]),
    # one Vegas every 10 s, Reno at 40 s: n = 10 only from 70 s; one flow at -20 % is n = 0.8,
    # its thresholds those of n = 1
    ("red_literal", [(0.0, 1, 3, 4), (10.0, 2, 6, 8), (20.0, 3, 9, 12), (30.0, 4, 12, 16), (40.0, 7, 21, 28),
                     (50.0, 8, 24, 32), (60.0, 9, 27, 36), (70.0, 10, 30, 40)]),
    ("red_minus20_literal", [(0.0, 0.8, 3, 4), (10.0, 1.6, 4.8, 6.4), (20.0, 2.4, 7.2, 9.6), (30.0, 3.2, 9.6, 12.8),
                             (40.0, 5.6, 16.8, 22.4), (50.0, 6.4, 19.2, 25.6), (60.0, 7.2, 21.6, 28.8),
                             (70.0, 8, 24, 32)]),
])
def test_e4_red_thresholds_follow_the_connections_as_they_enter(tmp_path, case, steps):
    """E4's RED (Sect. 4.2): MinThresh and MaxThresh grow by beta = 3 and 4 for each
    connection entering, from the queue's flow notices (red_n, n_source "exact"), times
    (1 + e) for an estimate off by e; they change at the entry times and nowhere else."""
    plan = make_plan(load_document("000"), quick=True)
    got = _thresholds(plan, case, tmp_path)
    assert got == [tuple(pytest.approx(x, abs=1e-9) for x in s) for s in steps]


def test_e4_red_sred_case_estimates_n_and_has_no_twin(tmp_path):
    """The SRED case (not in the thesis): n from the zombie list, which starts at M = 1000
    (thresholds at the buffer) and settles near the number of flows, moving at every
    arrival rather than at the entry times; it has no ns-2 twin (ns2 = false)."""
    plan = make_plan(load_document("000"), quick=True)
    assert plan.document.experiment("e4_red").case("red_sred").no_twin
    got = _thresholds(plan, "red_sred", tmp_path)
    assert got[0][1:] == (1000, 100, 100)
    late = [n for t, n, _, _ in got if 70 <= t <= 100]
    assert len(late) > 100 and 5 < sum(late) / len(late) < 20
