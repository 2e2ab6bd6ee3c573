"""Reference document 000 (Chang's 2004 thesis on Reno/Vegas fairness with RED whose
thresholds come from the number of connections n): its experiment files describe the
thesis' runs, and `tcpsim reproduce 000 --quick` passes its structural targets."""

from __future__ import annotations

import json

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

BETA = 3  # Vegas' beta (Sect. 2.1.2), which the thresholds are built on (Sect. 3.4)


def _scenario(plan, experiment, case):
    return _toml.loads(plan.runs[(experiment, case, None, 1)].toml_text)


def test_every_table_cell_is_printed_and_every_reference_resolves():
    doc = load_document("000")
    assert doc.citation.startswith("Chun-Wei Chang, \"TCP Performance Analysis and Fairness Improvement")
    tables = {v.id.split(".")[0] for v in doc.values}
    assert tables == {"table31", "table41", "table42", "table43", "table44"}
    assert all(v.printed and v.value is not None and v.ours for v in doc.values)
    # Table 3.1: 6 columns x 7 rows less the 4 "X" fairness cells; Table 4.1: 6 x 12 less
    # 4; Table 4.2: 6 x 17; Table 4.3's drop-tail column: 17; Table 4.4: 4 x 11
    assert len(doc.values) == 38 + 68 + 102 + 17 + 44
    assert STRONG_TARGETS <= {c.id for c in doc.checks}


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


@pytest.mark.parametrize("experiment, case, point", [
    ("e1_two_flows", "vr_dt", None), ("e1_buffer_sweep", "vr_dt", "40p"), ("e2_five_flows", "v4r1_dt", None),
    ("e3_ten_flows", "v1r9_dt", None), ("e4_droptail", "dt_literal", None), ("e5_deployment", "dt", None)])
def test_the_jitter_reading_only_jitters_every_flow_s_start(experiment, case, point):
    plan = make_plan(load_document("000"))
    main, other = (_toml.loads(plan.runs[(e, case, point, 1)].toml_text) for e in (experiment, experiment + "_jitter"))
    assert [f.pop("start_jitter") for f in other["flow"]] == ["20ms"] * len(main["flow"])
    assert main == other
    assert plan.document.experiment(experiment + "_jitter").ns2.args[-1] == "start_jitter=0.02"


def test_quick_reproduction_of_000_passes_its_strong_targets(tmp_path):
    # 19 s on 2 cores: short runs (30 s of simulated time; E4's 101 s and E5's 201 s whole)
    assert cli_main(["reproduce", "000", "--quick", "--out", str(tmp_path), "--quiet"]) == 0
    report = tmp_path / "000-quick" / "report"
    verdicts = {v["id"]: v for v in json.loads((report / "verdicts.json").read_text())}
    assert [i for i in sorted(STRONG_TARGETS) if verdicts[i]["verdict"] != "pass"] == []
    assert not [i for i, v in verdicts.items() if v["verdict"] == "not run"]
    md = (report / "README.md").read_text()
    assert "Fig. 3.5. Throughput varying the buffer size B" in md and "§" not in md
