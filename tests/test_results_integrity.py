"""Results you can trust: `Results.save` is atomic as a whole (an interrupted save leaves
the old results or the new ones), every file carries the run's id, and `load_results`
refuses a directory whose files come from different runs."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import tcpsim
from tcpsim import results as results_mod
from tcpsim.results import MixedResultsError


@pytest.fixture(scope="module")
def two_runs(small_scenario):
    a = tcpsim.run(small_scenario)
    b = tcpsim.run(small_scenario.replace("seed = 7", "seed = 8").replace('duration = "5s"', 'duration = "4s"'))
    assert a.run_uuid and b.run_uuid and a.run_uuid != b.run_uuid
    assert not a.flows.equals(b.flows)
    return a, b


def _leftovers(parent: Path):
    return [p.name for p in parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


def test_every_file_carries_the_run_id(two_runs, tmp_path):
    a, _ = two_runs
    out = a.save(tmp_path / "a", csv=True)
    for t in tcpsim.TABLES:
        meta = pq.read_schema(out / f"{t}.parquet").metadata
        assert meta[b"tcpsim.run_uuid"].decode() == a.run_uuid
    import json

    summary = json.loads((out / "summary.json").read_text())
    assert summary["run_uuid"] == a.run_uuid
    # the CSVs and the scenario are covered by checksums in summary.json
    assert sorted(summary["files_sha256"]) == sorted(
        [f"{t}.csv" for t in tcpsim.TABLES] + ["scenario.toml"])
    assert tcpsim.load_results(out).run_uuid == a.run_uuid


def test_interrupted_save_leaves_the_old_results(two_runs, tmp_path, monkeypatch):
    a, b = two_runs
    out = a.save(tmp_path / "res")
    calls = {"n": 0}
    real = results_mod._write_parquet

    def failing(df, path, rid):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # Ctrl-C half way through the tables
        real(df, path, rid)

    monkeypatch.setattr(results_mod, "_write_parquet", failing)
    with pytest.raises(KeyboardInterrupt):
        b.save(out)
    back = tcpsim.load_results(out)
    assert back.run_uuid == a.run_uuid
    pd.testing.assert_frame_equal(back.flows, a.flows)
    assert _leftovers(tmp_path) == []


def test_save_interrupted_between_the_two_renames_is_undone(two_runs, tmp_path, monkeypatch):
    # where the system cannot exchange two directories in one step
    a, b = two_runs
    out = a.save(tmp_path / "res")
    monkeypatch.setattr(results_mod, "_exchange", lambda x, y: False)
    real = os.rename
    calls = {"n": 0}

    def rename(src, dst):
        calls["n"] += 1
        if calls["n"] == 2:  # target moved aside, the new one not yet in place
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(results_mod.os, "rename", rename)
    with pytest.raises(KeyboardInterrupt):
        b.save(out)
    monkeypatch.setattr(results_mod.os, "rename", real)
    assert not out.exists()
    back = tcpsim.load_results(out)  # renames the old copy back
    assert back.run_uuid == a.run_uuid
    b.save(out)
    assert tcpsim.load_results(out).run_uuid == b.run_uuid
    assert _leftovers(tmp_path) == []


def test_killed_saves_leave_one_whole_run(two_runs, tmp_path, repo_root):
    """A process saving two runs in turn, killed with SIGKILL at arbitrary moments: the
    directory always loads, as one of the two runs."""
    a, b = two_runs
    ra, rb = tmp_path / "a", tmp_path / "b"
    a.save(ra, csv=True)
    b.save(rb, csv=True)
    out = tmp_path / "res"
    script = textwrap.dedent(f"""
        import sys, tcpsim
        a, b = tcpsim.load_results({str(ra)!r}), tcpsim.load_results({str(rb)!r})
        print("ready", flush=True)
        while True:
            for r in (a, b):
                r.save({str(out)!r}, csv=True)
    """)
    for delay in (0.15, 0.4, 0.9):
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().strip() == "ready"
            time.sleep(delay)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        back = tcpsim.load_results(out)
        want = a if back.run_uuid == a.run_uuid else b
        assert back.run_uuid == want.run_uuid
        pd.testing.assert_frame_equal(back.flows, want.flows)
        pd.testing.assert_frame_equal(back.timeseries, want.timeseries)


def test_mixed_run_directory_is_refused(two_runs, tmp_path):
    a, b = two_runs
    da, db = a.save(tmp_path / "a", csv=True), b.save(tmp_path / "b", csv=True)
    shutil.copy(db / "queues.parquet", da / "queues.parquet")
    with pytest.raises(MixedResultsError, match=r"queues\.parquet.*different runs|different runs.*queues\.parquet"):
        tcpsim.load_results(da)
    # a CSV of the other run (read when the Parquet table is missing)
    a.save(da, csv=True)
    shutil.copy(db / "flows.csv", da / "flows.csv")
    with pytest.raises(MixedResultsError, match="flows.csv"):
        tcpsim.load_results(da)
    # summary.json of the other run
    a.save(da)
    shutil.copy(db / "summary.json", da / "summary.json")
    with pytest.raises(ValueError, match="different runs"):
        tcpsim.load_results(da)


def test_cli_refuses_a_mixed_directory_in_one_line(two_runs, tmp_path, tcpsim_cli):
    a, b = two_runs
    da, db = a.save(tmp_path / "a"), b.save(tmp_path / "b")
    shutil.copy(db / "flows.parquet", da / "flows.parquet")
    proc = subprocess.run([*tcpsim_cli, "plot", str(da)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "different runs" in proc.stderr


def test_save_keeps_other_files_but_not_the_old_run(two_runs, tmp_path):
    a, b = two_runs
    out = a.save(tmp_path / "res", csv=True)
    (out / "notes.txt").write_text("mine")
    (out / "traces").mkdir()
    (out / "traces" / "out.tr").write_text("+ 0.1 ...")
    b.save(out)  # no CSV this time: a's CSVs must not survive next to b's tables
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "traces" / "out.tr").exists()
    assert not list(out.glob("*.csv"))
    assert tcpsim.load_results(out).run_uuid == b.run_uuid
    assert _leftovers(tmp_path) == []


def test_directory_without_run_ids_still_loads(two_runs, tmp_path):
    """Directories from tcpsim-run or older versions carry no ids and load as before."""
    a, _ = two_runs
    out = tmp_path / "old"
    out.mkdir()
    for t in tcpsim.TABLES:
        getattr(a, t).to_csv(out / f"{t}.csv", index=False)
    assert len(tcpsim.load_results(out).flows) == len(a.flows)
