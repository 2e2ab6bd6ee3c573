"""Document `modern` (issue 21): the modern algorithms against their own publications,
CoDel (RFC 8289; Nichols and Jacobson 2012), PIE (RFC 8033), FQ-CoDel (RFC 8290), CUBIC
(RFC 9438; Ha, Rhee and Xu 2008) and BBR (Cardwell et al. 2016; Hock, Bless and
Zitterbart 2017). A document named by a word, not a number; the AQM experiments describe
one shared network whose queues run with the models' own defaults, the CUBIC and BBR
experiments run the Linux-like TCP profile, its numbers name their source, it has no
ns-2 twin, and `tcpsim reproduce modern --quick` writes the report with every check
decided."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import models, units
from tcpsim.cli import main as cli_main
from tcpsim import ScenarioError
from tcpsim.reproduce.checks import NO_TWIN, Measurements, stale_reasons
from tcpsim.reproduce.spec import Ref
from tcpsim.reproduce.runner import make_plan
from tcpsim.reproduce.spec import find_document, list_documents, load_document

HERE = Path(__file__).resolve().parent
REPORT = HERE.parent / "docs" / "reproductions" / "modern"

#: The queue discipline of each case, by AQM experiment.
CASES = {
    "codel": {"codel": "codel", "droptail": "droptail"},
    "pie": {"pie": "pie", "droptail": "droptail"},
    "fq_codel": {"fq_codel": "fq_codel", "fq_codel_perfect": "fq_codel", "codel": "codel", "droptail": "droptail"},
}
BULK_FLOWS = [1, 5, 10, 50]

#: The CUBIC and BBR experiments (Linux-like TCP profile): each case's congestion
#: control of the first flow, None for the profile's own (CUBIC).
CC_CASES = {
    "cubic_window": {"cubic": None},
    "rtt_fairness": {"cubic": None, "reno": "reno"},
    "bbr_loss": {"bbr": "bbr", "cubic": None},
    "bbr_deep_buffer": {"bbr": "bbr", "cubic": None},
    "bbr_vs_cubic": {"bbr": "bbr", "bbr3": "bbr3"},
}

#: Where each algorithm's checks come from.
SOURCES = {"codel": ("RFC 8289",), "pie": ("RFC 8033",), "fq_codel": ("RFC 8290",),
           "cubic": ("RFC 9438", "Ha, Rhee and Xu"), "bbr": ("Cardwell et al.", "Hock, Bless and Zitterbart"),
           "bbr3": ("draft-ietf-ccwg-bbr",)}
#: The experiments whose checks each algorithm's part of numbers.toml rests on.
EXPERIMENTS_OF = {"codel": ("codel",), "pie": ("pie",), "fq_codel": ("fq_codel",),
                  "cubic": ("cubic_window", "rtt_fairness"),
                  "bbr": ("bbr_loss", "bbr_deep_buffer", "bbr_vs_cubic"), "bbr3": ("bbr_vs_cubic",)}


@pytest.fixture(scope="module")
def doc():
    return load_document("modern")


@pytest.fixture(scope="module")
def plan(doc):
    return make_plan(doc)


def test_a_document_named_by_a_word_is_found_listed_and_run_by_its_name(capsys):
    """`tcpsim reproduce modern`: the runner takes any directory name under experiments/,
    lists it beside the numbered documents (so `reproduce all` runs it), and a misspelt
    name is a usage error naming the documents it knows."""
    assert find_document("modern") == HERE.parent / "experiments" / "modern"
    assert "modern" in list_documents() and "004" in list_documents()
    assert load_document("modern").id == "modern"
    assert cli_main(["reproduce", "modrn", "--quick", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no reproduction files for document 'modrn'" in err and "modern" in err


def test_the_document_names_its_publications_and_groups_its_checks_by_algorithm(doc):
    for source in ("RFC 8289", "RFC 8033", "RFC 8290", "Controlling Queue Delay", "RFC 9438", "ACM Queue 14(5)",
                   "Experimental Evaluation of BBR", "CUBIC: A New TCP-Friendly"):
        assert source in doc.citation, source
    assert [e.name for e in doc.experiments] == list(CASES) + list(CC_CASES)
    for e in doc.experiments:
        assert {c.name for c in e.cases} == set({**CASES, **CC_CASES}[e.name]), e.name
        if e.name in CASES:
            assert e.aqm, f"{e.name} measures the bottleneck's delay and utilization"
        # ns-2.35 predates CoDel, PIE, FQ-CoDel, RFC 9438 CUBIC and BBR: each experiment
        # says ns2 = false
        assert e.ns2 is None and all(c.no_twin and c.ns2 is None for c in e.cases), e.name
    assert "No ns-2 twin" in doc.ns2_note
    # numbers.toml is laid out by algorithm: every check of an algorithm is named after
    # it and rests on its experiments
    for c in doc.checks:
        algorithm = c.id.split(".")[0]
        assert algorithm in SOURCES, c.id
        refs = list(c.raw.get("items", [])) + [c.raw.get("ours", ""), c.raw.get("series", "")]
        assert all(r.split(":")[0] in EXPERIMENTS_OF[algorithm] for r in refs if r), c.id
        # each check names where its claim comes from
        assert any(s in c.where for s in SOURCES[algorithm]), c.id
        if c.kind == "value":
            assert c.raw.get("why_tolerance"), c.id
    assert "Linux-like TCP profile" in " ".join(doc.assumptions), "the reading to redo is written down"


def test_the_published_targets_are_the_models_defaults(doc):
    """The numbers the checks compare with are the publications' parameters, which are
    also the models' defaults: read from the catalogue, never retyped in a scenario."""
    def default(model, param):
        return next(p.default for p in models.get("queue", model).params if p.name == param)

    value = {v.id: v.value for v in doc.values}
    assert value["codel.target"] / 1e3 == pytest.approx(default("codel", "target"))
    assert value["codel.interval"] / 1e3 == pytest.approx(default("codel", "interval"))
    assert value["pie.target"] / 1e3 == pytest.approx(default("pie", "target"))
    assert value["pie.max_burst"] / 1e3 == pytest.approx(default("pie", "max_burst"))
    assert value["fq_codel.flows"] == default("fq_codel", "flows")


def test_every_run_is_the_shared_dumbbell_with_its_cases_queue(plan):
    """Every run: 1, 5, 10 or 50 Reno/SACK bulk flows (initial window 10, a SACK
    receiver) and the ping-like flow (a window of one packet), each on its own pair of
    the 10 Mb/s, 100 ms dumbbell; the AQMs with their defaults (a bare model name), the
    baseline a 1000-packet drop-tail. The drop-tail and CoDel runs of the three
    experiments are the same runs."""
    assert plan.runs and not plan.unavailable, plan.unavailable
    ids = {}
    for (exp, case, point, seed), r in plan.runs.items():
        if exp not in CASES:
            continue
        s = _toml.loads(r.toml_text)
        d, (ping, bulk) = s["dumbbell"], s["flow"]
        n = int(point)
        assert n in BULK_FLOWS and bulk["count"] == n and d["pairs"] == n + 1
        assert (ping["from"], ping["max_window"]) == ("s0", 1)
        assert bulk["from"] == "s{i+1}" and bulk["initial_window"] == 10
        for f in (ping, bulk):
            assert (f["cc"], f["recovery"], f["receiver"]) == ("reno", "sack1", {"kind": "every_packet", "sack": True})
        rtt = 2 * sum(units.parse(x)[0] for x in (d["access"]["delay"], d["bottleneck"]["delay"], d["access"]["delay"]))
        assert rtt == pytest.approx(0.1)
        q = d["bottleneck"]["queue"]
        kind = q if isinstance(q, str) else q["kind"]
        assert kind == CASES[exp][case], (exp, case)
        if kind == "droptail":
            assert q == {"kind": "droptail", "limit": "1000p"}
        elif case != "fq_codel_perfect":
            assert isinstance(q, str), "the AQMs run with their models' defaults"
        ids.setdefault((case, point, seed), set()).add(r.run_id)
    shared = [k for k in ids if k[0] in ("codel", "droptail")]
    assert shared and all(len(ids[k]) == 1 for k in shared)


def test_quick_reproduction_of_modern_decides_every_check(tmp_path):
    """`tcpsim reproduce modern --quick`: every axis point, 30 s runs (10 s warm-up), one
    seed; every check decided, the orderings holding but those with a recorded reason,
    the sweep figures drawn."""
    assert cli_main(["reproduce", "modern", "--quick", "--out", str(tmp_path), "--quiet", "--jobs", "1"]) == 0
    report = tmp_path / "modern-quick" / "report"
    verdicts = json.loads((report / "verdicts.json").read_text())
    doc = load_document("modern")
    assert {v["id"] for v in verdicts} == {c.id for c in doc.checks}
    assert not [v["id"] for v in verdicts if v["verdict"] == "not run"]
    known = {c.id for c in doc.checks if c.known_miss or c.raw.get("miss_reason")}
    bad = [v["id"] for v in verdicts if v["kind"] == "ordering" and v["verdict"] != "pass" and v["id"] not in known]
    assert not bad, bad
    assert not [v["id"] for v in verdicts if "STALE" in (v.get("reason") or "")]
    figures = {p.stem for p in (report / "figures").glob("*.png")}
    assert {"codel_sweep", "codel_bufferbloat", "pie_sweep", "fq_codel_sparse", "fq_codel_sweep", "cubic_window",
            "rtt_fairness_share", "bbr_loss_goodput", "bbr_deep_buffer_queue", "bbr_vs_cubic_share"} <= figures
    assert "Reproduction of document modern" in (report / "README.md").read_text()


def test_the_cubic_and_bbr_runs_use_the_linux_profile_and_differ_only_in_the_first_flows_cc(plan):
    """The CUBIC and BBR experiments: every TCP flow of the Linux-like profile (its CUBIC
    unless a case sets cc), and a case sets nothing but the first flow's congestion
    control (rtt_fairness: both flows' Reno), so a later congestion control (BBRv3) is one
    more case line in bbr_vs_cubic.toml."""
    seen = set()
    for (exp, case, point, seed), r in plan.runs.items():
        if exp not in CC_CASES:
            continue
        s = _toml.loads(r.toml_text)
        flows = s["flow"]
        assert all(f["profile"] == "linux" for f in flows), (exp, case)
        assert flows[0].get("cc") == CC_CASES[exp][case], (exp, case)
        if exp == "rtt_fairness":
            assert flows[1].get("cc") == CC_CASES[exp][case]
        else:
            assert all("cc" not in f for f in flows[1:]), (exp, case)
        seen.add(exp)
    assert seen == set(CC_CASES)
    doc = load_document("modern")
    vs = next(e for e in doc.experiments if e.name == "bbr_vs_cubic")
    assert [c.set for c in vs.cases] == [{"flow[0].cc": "bbr"}, {"flow[0].cc": "bbr3"}]
    assert vs.axis_values == ["42p", "85p", "169p", "677p"], "0.5, 1, 2 and 8 BDP of 84.6 packets"
    loss = next(e for e in doc.experiments if e.name == "bbr_loss")
    assert loss.axis_values == [0, 0.001, 0.01, 0.02, 0.05]


def _cubic_epoch(w_max, tau, beta=0.7, c=0.4):
    """Eq. 1 of RFC 9438 with eq. 2's K: the window tau seconds after a reduction."""
    k = (w_max * (1 - beta) / c) ** (1 / 3)
    return c * (tau - k) ** 3 + w_max


def test_cubic_epochs_by_hand():
    """`cubic_epochs`: a hand-made cwnd series sampled every 0.1 s. A peak of 117.6
    packets at t = 10 s, then eq. 1 with W_max = 100 (fast convergence: 0.85 x 117.6),
    whose K = cbrt(100 x 0.3 / 0.4) = cbrt(75) = 4.2172 s, for 6 s (the window then 102.27,
    past W_max), then a cut to 0.7 of that and eq. 1 again with W_max = 102.27 for 2 s
    only: the loss comes on the concave approach, before K = 4.25 s, so that epoch does
    not count. The fitted K of the first is 4.22 (grid 0.01 s): regain/K = 1.00, C 0.40,
    W_max 100.0. The climb runs from the 72.08 packets of t = 10.1 s to K, q = 4.12/4 =
    1.03 s a quarter: over the first quarter the window grows to 88.22 (eq. 1 at 1.13 s),
    15.7 packets/s; over the last quarter before K by C q^3, C q^2 = 0.42 packets/s; over
    the last quarter of the L = 1.78 s from K to the next cut by C (L^3 - (3L/4)^3), 2.93
    packets/s: concave, then convex."""
    from tcpsim.reproduce.measures import cubic_epochs

    t = [round(0.1 * i, 1) for i in range(0, 201)]
    w = []
    for x in t:
        if x < 9.95:
            w.append(60 + 57.6 * x / 10)            # a linear climb to the first peak
        elif x < 10.05:
            w.append(117.6)
        elif x < 16.05:
            w.append(_cubic_epoch(100.0, x - 10))
        else:
            w.append(0.7 * _cubic_epoch(100.0, 6.0) + (x - 16.0))   # cut, then a short climb
    end = _cubic_epoch(100.0, 6.0)
    assert end == pytest.approx(102.27, abs=0.01)
    for x in [round(18.1 + 0.1 * i, 1) for i in range(0, 10)]:     # a second cut: the end of the short epoch
        t.append(x)
        w.append(50.0 + x - 18)
    m = cubic_epochs(np.array(t), np.array(w), 5.0, 0.7, 0.4)
    assert m["cubic_epochs"] == 1
    assert m["cubic_regain_s"] == pytest.approx(4.22, abs=0.011)
    assert m["cubic_k_s"] == pytest.approx(75 ** (1 / 3), abs=0.01)
    assert m["cubic_regain_k"] == pytest.approx(1.0, abs=0.005)
    assert m["cubic_c"] == pytest.approx(0.4, abs=0.005)
    assert m["cubic_w_max"] == pytest.approx(100.0, abs=0.05)
    assert m["cubic_rate_first"] == pytest.approx(15.7, abs=0.2)
    assert m["cubic_rate_before"] == pytest.approx(0.42, abs=0.01)
    assert m["cubic_rate_after"] == pytest.approx(2.93, abs=0.03)
    assert m["cubic_rate_before"] < m["cubic_rate_first"] and m["cubic_rate_before"] < m["cubic_rate_after"]
    # a reduction before measure_from is not measured
    assert cubic_epochs(np.array(t), np.array(w), 10.5, 0.7, 0.4) == {"cubic_epochs": 0.0}


def test_a_linear_sawtooth_is_neither_concave_nor_convex():
    """A Reno-like sawtooth (one packet per 0.1 s round trip, halved at 100): the fit
    finds no plateau inside an epoch, or the growth is the same in every quarter, so the
    concave and convex orderings cannot pass on it."""
    from tcpsim.reproduce.measures import cubic_epochs

    t, w, x, cw = [], [], 0.0, 50.0
    while x < 60:
        t.append(round(x, 1))
        w.append(cw)
        cw = cw + 1 if cw < 100 else 50.0
        x += 0.1
    m = cubic_epochs(np.array(t), np.array(w), 0.0, 0.7, 0.4)
    if m["cubic_epochs"]:
        assert not (m["cubic_rate_before"] < 0.9 * m["cubic_rate_first"])


def test_a_bad_cubic_epochs_table_is_refused_with_its_key(tmp_path):
    from tcpsim.reproduce.spec import load_experiment

    src = (HERE.parent / "experiments" / "modern" / "cubic_window.toml").read_text()
    f = tmp_path / "cubic_window.toml"
    f.write_text(src.replace('flow = "cubic"', 'flows = "cubic"'))
    with pytest.raises(ScenarioError, match=r"\[experiment.cubic_epochs\]: expected one key, flow"):
        load_experiment(f)
    f.write_text(src)
    assert load_experiment(f).cubic_flow == "cubic"


def test_flow_share_is_each_flows_part_of_the_tcp_throughput():
    from tcpsim.reproduce.measures import group_measures
    from tcpsim.results import Results

    flows = pd.DataFrame({"name": ["a", "b", "u"], "type": ["tcp", "tcp", "cbr"], "cc": ["bbr", "cubic", ""],
                          "throughput_bps": [3e6, 1e6, 5e6], "rtt_min_s": [0.1, 0.1, None],
                          "rtt_mean_s": [0.1, 0.1, None], "timeouts": [0, 0, 0]})
    links = pd.DataFrame({"link": ["r1->r2"], "utilization": [0.9], "rate_bps": [1e7], "bytes_sent": [10]})
    queues = pd.DataFrame({"queue": ["r1->r2"], "arrivals": [1], "early_drops": [0], "overflow_drops": [0]})
    m = group_measures(Results(flows=flows, queues=queues, links=links,
                               timeseries=pd.DataFrame(columns=["time_s", "entity", "metric", "value"]),
                               summary={}))
    assert (m["flow_share.a"], m["flow_share.b"]) == (0.75, 0.25)
    assert "flow_share.u" not in m, "a CBR flow has no share of the TCP throughput"


def test_an_experiment_without_twin_says_ns2_false_and_its_cases_are_no_twin(tmp_path):
    """`ns2 = false` in [experiment]: the experiment has no ns-2 twin on purpose, so each
    of its cases is "no twin" (as a case's own ns2 = false makes it), and a case that
    names twin arguments there is refused with its key."""
    from tcpsim.reproduce.spec import load_experiment

    src = (HERE.parent / "experiments" / "modern" / "pie.toml").read_text()
    assert "\nns2 = false" in src
    f = tmp_path / "pie.toml"
    f.write_text(src)
    ex = load_experiment(f)
    assert ex.ns2 is None and [c.no_twin for c in ex.cases] == [True, True]
    f.write_text(src.replace('label = "PIE"\n', 'label = "PIE"\nns2 = ["queue=pie"]\n'))
    with pytest.raises(ScenarioError, match=r"key 'experiment.cases.pie.ns2'.*ns2 = false"):
        load_experiment(f)
    f.write_text(src.replace("\nns2 = false", "\nns2 = \"no\""))
    with pytest.raises(ScenarioError, match=r"\[experiment.ns2\]: expected a table .* or ns2 = false"):
        load_experiment(f)


def test_ns2_on_a_document_without_twins_shows_no_twin_for_every_check(tmp_path, monkeypatch):
    """`tcpsim reproduce modern --ns2`: no twin runs (ns is never started), an empty
    twin table, every check's ns-2 verdict "no twin" and none compared."""
    from tcpsim.reproduce import ns2, reproduce
    from tcpsim.reproduce.report import agreement

    assert Measurements(pd.DataFrame(columns=["experiment", "case", "point", "seed", "metric", "value"]), {}).stat(
        Ref("codel", "codel", "1", "bottleneck_delay_ms")).n == 0
    monkeypatch.setattr(ns2, "ns_binary", lambda: "/nonexistent/ns")
    monkeypatch.setattr(ns2, "run_twin", lambda *a, **k: pytest.fail("a document without twins ran ns"))
    r = reproduce("modern", quick=True, out=tmp_path, progress=False, ns2=True, jobs=1)
    assert {v.verdict for v in r.ns2_verdicts} == {NO_TWIN}
    assert agreement(r.verdicts, r.ns2_verdicts)["compared"] == 0
    assert "No ns-2 twin" in (r.report_dir / "README.md").read_text()


def test_the_median_delay_is_over_the_windows_intervals_by_hand():
    """`bottleneck_delay_median_ms`: the median of the bottleneck's per-interval mean
    sojourn (`sojourn_s`) from the window's start, intervals without a departure left
    out. Samples 0.5 s (before the 1 s window), then 2, 4, none, 30 ms: median 4 ms,
    where the packets' mean is the queue table's 9 ms."""
    from tcpsim.reproduce.measures import aqm_measures
    from tcpsim.results import Results

    links = pd.DataFrame({"link": ["r1->r2", "r2->r1"], "utilization": [0.9, 0.01], "rate_bps": [1e7, 1e7],
                          "bytes_sent": [10, 1]})
    queues = pd.DataFrame({"queue": ["r1->r2"], "arrivals": [100], "early_drops": [1], "overflow_drops": [0],
                           "marks": [0], "mean_sojourn_s": [0.009], "mean_length_pkts": [3.0]})
    sojourn = [(0.5, 0.5), (1.0, 0.002), (1.5, 0.004), (2.5, 0.030)]
    ts = pd.DataFrame([(t, "r1->r2", "sojourn_s", v) for t, v in sojourn], columns=["time_s", "entity", "metric", "value"])
    flows = pd.DataFrame({"name": ["a"], "type": ["tcp"], "goodput_bps": [1e6], "packets_sent": [100],
                          "retransmits": [1]})
    m = aqm_measures(Results(flows=flows, queues=queues, links=links, timeseries=ts,
                             summary={"measure_from_s": 1.0, "duration_s": 3.0}))
    assert m["bottleneck_delay_median_ms"] == pytest.approx(4.0)
    assert m["bottleneck_delay_ms"] == pytest.approx(9.0)


@pytest.mark.skipif(not (REPORT / "measurements.csv").is_file(), reason="no committed report of document modern")
def test_the_committed_modern_reasons_rest_on_its_measured_counters(doc):
    """Every known miss of the committed report (docs/reproductions/modern) cites the
    numbers it rests on, and each cited condition holds there."""
    m = Measurements(pd.read_csv(REPORT / "measurements.csv", dtype={"point": str}), {})
    assert stale_reasons(doc.checks, m) == []
    verdicts = {v["id"]: v for v in json.loads((REPORT / "verdicts.json").read_text())}
    assert set(verdicts) == {c.id for c in doc.checks}, "the committed report is of these checks"
    for c in doc.checks:
        if c.known_miss or c.raw.get("miss_reason"):
            assert "STALE" not in verdicts[c.id]["reason"], c.id


@pytest.mark.skipif(not os.environ.get("TCPSIM_FULL_REPRODUCTION"),
                    reason="the full reproduction takes minutes; set TCPSIM_FULL_REPRODUCTION=1")
def test_full_reproduction_of_modern(tmp_path):
    assert cli_main(["reproduce", "modern", "--out", str(tmp_path), "--quiet"]) == 0
    verdicts = json.loads((tmp_path / "modern" / "report" / "verdicts.json").read_text())
    assert not [v["id"] for v in verdicts if v["verdict"] == "not run"]
