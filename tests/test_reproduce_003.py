"""Reference document 003 (Zhang & Tsaoussidis, NOSSDAV 2003: Reno + γ and + δ against
Reno, RED, Vegas, TCP(0.31, 0.875) and TFRC): its experiment files describe the paper's runs,
and `tcpsim reproduce 003 --quick` writes the report with every check decided.

The twin's side (validation/ns2/doc003.tcl; E4's generated delays, RED's thresholds
B/6 and B/2 at every n) is tests/test_ns2_doc003.py's."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import models, units
from tcpsim.cli import main as cli_main
from tcpsim.reproduce.runner import make_plan
from tcpsim.reproduce.spec import load_document

#: The paper's protocols in every experiment but E5; E5 (Fig. 10) has Reno + γ + δ
#: instead of Reno + RED, and no TFRC.
CASES = {"reno_gamma", "reno", "reno_red", "vegas", "gaimd", "tfrc"}
E5_CASES = {"reno", "reno_gamma", "reno_gamma_delta", "gaimd", "vegas"}


@pytest.fixture(scope="module")
def doc():
    return load_document("003")


@pytest.fixture(scope="module")
def plan(doc):
    return make_plan(doc)


def test_the_document_lists_its_experiments_numbers_and_checks(doc):
    assert doc.citation.startswith("Chi Zhang and Vassilis Tsaoussidis, \"Improving TCP Smoothness")
    assert [e.name for e in doc.experiments] == ["e1_fairness", "e2_duration", "e3_queues", "e4_diverse_rtts", "e5_handoff",
                                                 "e1_fairness_starts20ms"]
    for e in doc.experiments:
        assert {c.name for c in e.cases} == (E5_CASES if e.name == "e5_handoff" else CASES), e.name
    # the recovery times of Sect. 4.3.4 and Vegas' 75 %, each shown beside our measurement
    shown = {v.id: v.ours for v in doc.values if v.ours}
    assert set(shown) == {"s4.recovery.gaimd", "s4.recovery.reno", "s4.recovery.reno_gamma", "s4.recovery.delta",
                          "s4.vegas_max_over_min"}
    assert {c.kind for c in doc.checks} == {"value", "ratio", "ordering", "trend", "shape"}


def test_e1_scales_flows_rate_and_buffer_together(plan):
    """E1 and E4 (Sect. 4.3.1, 4.3.3): n flows at n × 1 Mb/s, the buffer the
    bandwidth-delay product of 80 ms in 1000-byte packets (10·n), at every n."""
    for experiment in ("e1_fairness", "e4_diverse_rtts"):
        for n in range(10, 101, 10):
            for case in CASES:
                s = _toml.loads(plan.runs[(experiment, case, str(n), 1)].toml_text)
                d = s["dumbbell"]
                assert d["pairs"] == s["flow"][0]["count"] == n
                assert units.parse(d["bottleneck"]["rate"])[0] == n * 1e6
                assert d["bottleneck"]["queue"]["limit"] == f"{10 * n}p"
                assert (experiment == "e4_diverse_rtts") == ("access_delays" in d)


def test_the_reading_starts_in_the_first_round_trip_changes_only_the_start_times(plan):
    """e1_fairness_starts20ms: every run of E1 with each flow's start drawn from [0, 20 ms)
    instead of [0, 1) s, and nothing else."""
    main = {k[1:]: r for k, r in plan.runs.items() if k[0] == "e1_fairness"}
    variant = {k[1:]: r for k, r in plan.runs.items() if k[0] == "e1_fairness_starts20ms"}
    assert set(variant) == set(main)
    for key, r in variant.items():
        s, base = _toml.loads(r.toml_text), _toml.loads(main[key].toml_text)
        assert (s["flow"][0].pop("start"), base["flow"][0].pop("start")) == ("uniform(0s, 20ms)", "uniform(0s, 1s)")
        assert s == base, key


def test_every_case_differs_from_reno_only_in_its_window_control_or_queue(plan):
    """Within an experiment the cases share everything but what the case sets; TFRC's
    flows are the TCP flows' keys every flow has (names, count, ends, starts) with
    type = "tfrc" and no TFRC parameter set (ns-2's defaults)."""
    for e in plan.document.experiments:
        point = e.points(False)[0]
        base = _toml.loads(plan.runs[(e.name, "reno", None if point is None else str(point), 1)].toml_text)
        for c in e.cases:
            s = _toml.loads(plan.runs[(e.name, c.name, None if point is None else str(point), 1)].toml_text)
            if "dumbbell" in s:
                assert (s["dumbbell"]["bottleneck"]["queue"]["kind"] == "red") == (c.name == "reno_red")
                s["dumbbell"]["bottleneck"]["queue"] = base["dumbbell"]["bottleneck"]["queue"]
            flow, ref = s["flow"][0], base["flow"][0]
            if c.name == "tfrc":
                common = {k: v for k, v in ref.items() if k in models.FLOW_COMMON_KEYS}
                assert flow == {**common, "type": "tfrc"}, e.name
                s["flow"][0] = ref
            for key in ("cc", "recovery", "header_size", "full_size_syn"):
                flow.pop(key, None), ref.pop(key, None)
            assert s == base, (e.name, c.name)


def test_e2_runs_each_connection_time_of_fig5(plan):
    durations = {units.parse(_toml.loads(r.toml_text)["simulation"]["duration"])[0]
                 for (e, _, _, _), r in plan.runs.items() if e == "e2_duration"}
    assert durations == {100.0 * k for k in range(1, 11)}


def test_quick_reproduction_of_003_decides_every_check(tmp_path):
    # 15 s on one core (measured 2026-11-26): E1 and E4 at n = 10, 20, 30 for 40 s, E2 at
    # 40 and 80 s, E3 for 40 s, E5 whole (120 s of one flow). The ns-2 twins are
    # tests/test_ns2_doc003.py's (here they would add a minute).
    assert cli_main(["reproduce", "003", "--quick", "--out", str(tmp_path), "--quiet", "--jobs", "1"]) == 0
    report = tmp_path / "003-quick" / "report"
    for name in ("README.md", "index.html", "measurements.csv", "verdicts.json"):
        assert (report / name).is_file(), name
    verdicts = json.loads((report / "verdicts.json").read_text())
    doc = load_document("003")
    quick = {c.id for c in doc.checks if c.raw.get("quick", True)}
    assert {v["id"] for v in verdicts} >= quick
    # no check without a measure: every check --quick can decide is decided
    assert not [v["id"] for v in verdicts if v["id"] in quick and v["verdict"] == "not run"]
    # the orderings hold but those with a recorded reason
    known = {c.id for c in doc.checks if c.known_miss or c.raw.get("miss_reason")}
    bad = [v["id"] for v in verdicts if v["kind"] == "ordering" and v["verdict"] != "pass" and v["id"] not in known]
    assert not bad, bad
    # the handoff of Fig. 10: the paper's order of recovery
    assert {v["id"]: v["verdict"] for v in verdicts}["e5.order"] == "pass"
    figures = {p.stem for p in (report / "figures").glob("*.png")}
    assert {f"fig{k}" for k in range(1, 17)} <= {f.split("_", 1)[-1] for f in figures} | figures
    # TFRC (Figs 1-9, 16): measured in E1-E4 at every quick point, Fig. 16's queue decided
    measured = pd.read_csv(report / "measurements.csv", dtype={"point": str})
    tfrc = measured[measured["case"] == "tfrc"]
    # (the reading e1_fairness_starts20ms repeats E1, TFRC included)
    assert set(tfrc["experiment"]) == {"e1_fairness", "e1_fairness_starts20ms", "e2_duration", "e3_queues",
                                       "e4_diverse_rtts"}
    for ex in ("e1_fairness", "e4_diverse_rtts"):
        rows = tfrc[(tfrc["experiment"] == ex) & (tfrc["metric"] == "cov")]
        assert set(rows["point"]) == {"10", "20", "30"} and (rows["value"] > 0).all(), ex
    verdict = {v["id"]: v["verdict"] for v in verdicts}
    assert verdict["e3.tfrc.near_full"] in ("pass", "miss")
    assert all(verdict[f"e1.n{n}.cov.gamma_below_random"] != "not run" for n in (10, 30))
    md = (report / "README.md").read_text()
    assert "Fig. 10. Throughput of one flow against time" in md


@pytest.mark.skipif(not os.environ.get("TCPSIM_FULL_REPRODUCTION"),
                    reason="the full reproduction takes minutes; set TCPSIM_FULL_REPRODUCTION=1")
def test_full_reproduction_of_003(tmp_path):
    assert cli_main(["reproduce", "003", "--out", str(tmp_path), "--quiet"]) == 0
    verdicts = json.loads((tmp_path / "003" / "report" / "verdicts.json").read_text())
    assert not [v["id"] for v in verdicts if v["verdict"] == "not run"]
    assert all(v["reason"] for v in verdicts if v["verdict"] == "miss")


def test_an_e2_run_is_the_first_seconds_of_a_longer_one(tmp_path):
    """E2's note: nothing depends on the end time, so the 40 s run of a seed is the first
    40 s of its 80 s run, sample for sample (so its points are prefixes of one history)."""
    from tcpsim.api import run

    plan = make_plan(load_document("003"), quick=True)
    short, long = (run(plan.runs[("e2_duration", "reno", p, 1)].toml_text, out=tmp_path / p).timeseries
                   for p in ("40s", "80s"))
    delivered = lambda ts: ts[(ts.metric == "delivered_bytes") & (ts.time_s <= 40)].reset_index(drop=True)
    assert len(delivered(short)) > 0
    assert delivered(short).equals(delivered(long))
