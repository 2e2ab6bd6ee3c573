"""The `tcpsim` command line, end to end in a subprocess."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import tcpsim


def _run(cli, *args, cwd=None, timeout=300):
    return subprocess.run(
        [*cli, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_run_writes_tables_and_plots(tcpsim_cli, small_scenario_file, tmp_path):
    out = tmp_path / "out"
    proc = _run(tcpsim_cli, "run", small_scenario_file, "--out", out, "--csv", "--plot")
    assert proc.returncode == 0, proc.stderr
    # readable tables on stdout
    assert "goodput Mbps" in proc.stdout
    assert "mean RTT ms" in proc.stdout
    assert "reno" in proc.stdout and "newreno" in proc.stdout
    assert "r1->r2" in proc.stdout
    assert "Traceback" not in proc.stderr
    for table in tcpsim.TABLES:
        assert (out / f"{table}.parquet").stat().st_size > 0
        assert (out / f"{table}.csv").stat().st_size > 0
    for png in ("cwnd.png", "queue.png", "throughput.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"
    summary = json.loads((out / "summary.json").read_text())
    assert isinstance(summary, dict)
    flows = pd.read_parquet(out / "flows.parquet")
    assert sorted(flows["name"]) == ["newreno", "reno"]
    # the printed goodput is the table's
    for name, bps in zip(flows["name"], flows["goodput_bps"]):
        line = next(l for l in proc.stdout.splitlines() if l.split()[:1] == [name])
        assert f"{bps / 1e6:.3f}" in line


def test_run_quiet_prints_nothing(tcpsim_cli, small_scenario_file, tmp_path):
    proc = _run(tcpsim_cli, "run", small_scenario_file, "--out", tmp_path / "q", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert (tmp_path / "q" / "flows.parquet").exists()
    assert not (tmp_path / "q" / "flows.csv").exists()


def test_run_without_out_writes_nothing(tcpsim_cli, small_scenario_file, tmp_path):
    proc = _run(tcpsim_cli, "run", small_scenario_file, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "goodput Mbps" in proc.stdout
    assert list(tmp_path.iterdir()) == [small_scenario_file]


def test_bad_scenario_exits_2_with_plain_message(tcpsim_cli, tmp_path, small_scenario):
    bad = tmp_path / "bad.toml"
    bad.write_text(small_scenario.replace('duration = "5s"', 'duration = "five"'))
    proc = _run(tcpsim_cli, "run", bad, "--out", tmp_path / "o")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "duration" in proc.stderr
    assert "bad.toml" in proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "o").exists()


def test_missing_scenario_exits_2(tcpsim_cli, tmp_path):
    proc = _run(tcpsim_cli, "run", tmp_path / "nope.toml")
    assert proc.returncode == 2
    assert "nope.toml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_validate_command(tcpsim_cli, small_scenario_file, tmp_path):
    ok = _run(tcpsim_cli, "validate", small_scenario_file)
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[simulation]\nduration = "1s"\ncolour = "blue"\n')
    proc = _run(tcpsim_cli, "validate", small_scenario_file, bad)
    assert proc.returncode == 2
    assert "colour" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_plot_command_redraws_saved_results(tcpsim_cli, small_scenario_file, tmp_path):
    out = tmp_path / "r"
    assert _run(tcpsim_cli, "run", small_scenario_file, "--out", out, "-q").returncode == 0
    proc = _run(tcpsim_cli, "plot", out, "--out", tmp_path / "png")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "png" / "queue.png").exists()


def test_help_has_examples(tcpsim_cli):
    top = _run(tcpsim_cli, "--help")
    assert top.returncode == 0
    assert "examples:" in top.stdout and "tcpsim run" in top.stdout
    run = _run(tcpsim_cli, "run", "--help")
    assert run.returncode == 0
    for flag in ("--out", "--csv", "--plot", "--quiet"):
        assert flag in run.stdout


def test_no_command_is_usage_error(tcpsim_cli):
    assert _run(tcpsim_cli).returncode == 2


def test_dumbbell_example_validates(tcpsim_cli, repo_root):
    proc = _run(tcpsim_cli, "validate", repo_root / "examples" / "dumbbell.toml")
    assert proc.returncode == 0, proc.stderr


def test_tcpsim_run_binary_agrees_with_python(tcpsim_run_bin, small_scenario_file, tmp_path):
    """The Rust runner and the Python front end run the same engine: same numbers."""
    out = tmp_path / "bin"
    proc = subprocess.run(
        [str(tcpsim_run_bin), str(small_scenario_file), "--out", str(out), "--csv"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    from_bin = pd.read_csv(out / "flows.csv").set_index("name").sort_index()
    from_py = tcpsim.run(small_scenario_file).flows.set_index("name").sort_index()
    for col in ("packets_sent", "retransmits", "timeouts", "goodput_bytes"):
        assert from_bin[col].tolist() == from_py[col].tolist(), col
    pd.testing.assert_series_equal(
        from_bin["goodput_bps"], from_py["goodput_bps"], check_dtype=False, rtol=1e-9
    )


def test_tcpsim_run_binary_bad_scenario_exits_2(tcpsim_run_bin, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[simulation]\nduration = "0s"\n')
    proc = subprocess.run([str(tcpsim_run_bin), str(bad)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert "duration" in proc.stderr
