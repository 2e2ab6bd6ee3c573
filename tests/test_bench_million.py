"""bench/million.py runs: its short mode (B2's network with 1000 and 10 000 flows, 1 s)
prints one row per flow count. Nothing about the times or the memory it prints is
checked (they depend on the machine); docs/performance.md records measured values."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_million_short_mode_runs_and_prints_a_row_per_count(tcpsim_run_bin, tmp_path):
    env = {**os.environ, "TCPSIM_RUN": str(tcpsim_run_bin)}
    out = subprocess.run([sys.executable, str(REPO / "bench" / "million.py"), "--short", "--json", str(tmp_path / "m.json")],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "peak MiB" in lines[1] and "slope KiB/flow" in lines[1], out.stdout
    rows = [line.split() for line in lines[2:]]
    assert [r[0] for r in rows] == ["1000", "10000"], out.stdout
    assert rows[0][-1] == "-" and float(rows[1][-1]) > 0, out.stdout
    measured = json.loads((tmp_path / "m.json").read_text())
    assert [m["flows"] for m in measured] == [1000, 10000]
    assert all(m["events"] > 0 and m["peak_kib"] > 0 for m in measured)
