"""bench/curves.py (the cost curves of docs/performance.md): its quick grid runs and writes
every file it promises; a point's scenario is the benchmark's with only the swept
quantities changed; ns-2 points past one over its budget are skipped, never run or
extrapolated. No timing is asserted: the numbers depend on the machine."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import curves  # noqa: E402  (bench/curves.py)


def test_the_quick_grid_writes_the_table_the_record_and_one_figure_per_sweep(tmp_path, tcpsim_run_bin):
    out = tmp_path / "curves"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "curves.py"), "--quick", "--no-ns2", "--no-floor",
         "--out", str(out)],
        capture_output=True, text=True, env={**os.environ, "TCPSIM_RUN": str(tcpsim_run_bin)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]

    with open(out / "curves.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    expected = {(name, float(x)) for name, s in curves.SWEEPS.items() for x in s.quick_values}
    assert {(r["sweep"], float(r["x"])) for r in rows} == expected
    assert all(r["simulator"] == "tcpsim" and r["status"] == "measured" for r in rows)
    assert all(int(r["events"]) > 0 and float(r["peak_mib"]) > 0 for r in rows)

    # The record is published: commands name no folder of the machine that ran them.
    assert all(r["command"].startswith("tcpsim-run ") and "/" not in r["command"] for r in rows)

    record = json.loads((out / "curves.json").read_text())
    assert len(record["points"]) == len(rows) and record["quick"] is True
    assert record["floor"]["status"].startswith("not measured")
    for name in curves.SWEEPS:
        png = (out / f"curves_{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000

    # --replot draws the same files again from curves.json alone.
    table = (out / "curves.csv").read_text()
    for name in curves.SWEEPS:
        (out / f"curves_{name}.png").unlink()
    (out / "curves.csv").unlink()
    replot = subprocess.run([sys.executable, str(REPO / "bench" / "curves.py"), "--replot", "--out", str(out)],
                            capture_output=True, text=True)
    assert replot.returncode == 0, replot.stderr[-2000:]
    assert (out / "curves.csv").read_text() == table
    assert all((out / f"curves_{name}.png").exists() for name in curves.SWEEPS)


def test_a_points_scenario_is_the_benchmarks_with_the_swept_quantities_changed(tmp_path, tcpsim_run_bin):
    net = curves.Network(curves.B2, 1_000_000, 100e9, curves.access_rate(100e9), 1.0)
    text = curves.tcpsim_scenario(net)
    point, base = tomllib.loads(text), tomllib.loads(curves.B2.read_text())
    assert point["dumbbell"]["pairs"] == 1_000_000 and point["flow"][0]["count"] == 1_000_000
    assert point["flow"][0]["start_spacing"] == "100ns"  # 0.1 s / n, as dumbbell.tcl starts them
    assert point["dumbbell"]["bottleneck"]["rate"] == "100Gbps"
    assert point["dumbbell"]["access"]["rate"] == "1000Gbps"
    assert point["simulation"]["duration"] == "1s"
    for table in ("bottleneck", "access"):
        for key in ("queue", "queue_reverse", "delay"):
            assert point["dumbbell"][table][key] == base["dumbbell"][table][key]
    # tcpsim reads such a point (the estimate only: the run itself is the full grid's), up
    # to the loader's limit of generated pairs (100 000 today; a 10^6 point is refused and
    # recorded as such).
    scenario = tmp_path / "point.toml"
    scenario.write_text(curves.tcpsim_scenario(curves.Network(curves.B2, 100_000, 100e9, 1000e9, 1.0)))
    proc = subprocess.run([str(tcpsim_run_bin), str(scenario), "--estimate", "--max-memory", "64GiB"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert curves.ns2_command("ns", net)[2:] == ["1000000", "1", "Newreno", "RED", "100Gb", "1000Gb"]


@pytest.mark.parametrize("bottleneck, access", [(10e6, 1e9), (1e9, 10e9), (100e9, 1000e9)])
def test_access_links_are_faster_than_the_bottleneck_from_1_gbps_up(bottleneck, access):
    assert curves.access_rate(bottleneck) == access


def test_points_after_one_over_budget_are_recorded_as_skipped_and_not_run():
    asked = []

    def tcpsim(net, tag):
        asked.append(("tcpsim", net.flows))
        return {"status": "measured", "wall_s": 0.1, "cpu_s": 0.1, "peak_mib": 4.0, "events": 10}

    def ns2(net, tag):
        asked.append(("ns2", net.flows))
        if net.flows >= 100:
            return {"status": "over budget: killed after 1 s", "wall_s": 1.0, "cpu_s": 1.0, "peak_mib": 9.0}
        return {"status": "measured", "wall_s": 0.5, "cpu_s": 0.5, "peak_mib": 9.0}

    sweep = curves.SWEEPS["flows"]
    points = curves.run_sweep(sweep, (10, 100, 1000, 10_000), sweep.network, {"tcpsim": tcpsim, "ns2": ns2})

    assert ("ns2", 1000) not in asked and ("ns2", 10_000) not in asked
    assert [f for s, f in asked if s == "tcpsim"] == [10, 100, 1000, 10_000]
    by = {(p.simulator, p.x): p for p in points}
    assert by[("ns2", 100)].status.startswith("over budget")
    for x in (1000, 10_000):
        p = by[("ns2", x)]
        assert p.status == "skipped: over budget at the smaller point 100"
        assert p.wall_s is None and p.cpu_s is None and p.peak_mib is None and p.events is None


def test_the_documents_table_is_the_one_the_published_record_gives():
    record = json.loads((REPO / "docs" / "performance" / "curves.json").read_text())
    table = curves.markdown_table([curves.Point(**p) for p in record["points"]])
    assert table in (REPO / "docs" / "performance.md").read_text(), \
        "docs/performance.md's cost-curves table differs from docs/performance/curves.json: " \
        "paste the table `bench/curves.py --replot` prints"
