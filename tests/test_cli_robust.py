"""The command line on hostile input: no Python traceback, one clear line and a non-zero
exit (non-UTF-8 files, deeply nested specs, a closed pipe, an unreachable scheduler);
`validate` on sweep specs; progress lines when standard error is not a terminal; and the
sweep classes of issue 8 (identical seeds, kind x limit grids, quantities with units)."""

from __future__ import annotations

import os
import socket
import subprocess
import warnings
from pathlib import Path

import pandas as pd
import pytest

from tcpsim import plots
from tcpsim.sweep import SeedWarning, Sweep, format_sweep, run_sweep

DROPTAIL = 'queue = { kind = "droptail", limit = "20p" }'
RED_LINE = 'queue = { kind = "red", limit = "50p", min_th = 5, max_th = 15 }'


def _cli(cli, *args, env=None, timeout=300, cwd=None):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([*cli, *map(str, args)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, env=full_env, cwd=cwd)


class _Proc:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def _main(capsys, *args):
    """The command line in this process (the same `main` as the console script)."""
    from tcpsim.cli import main

    capsys.readouterr()
    try:
        status = main([str(a) for a in args])
    except SystemExit as e:  # argparse
        status = e.code
    out, err = capsys.readouterr()
    return _Proc(status, out, err)


def _one_line_error(proc, status=2):
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tcpsim: error: "), proc.stderr
    return lines[0]


@pytest.fixture
def spec(tmp_path, small_scenario):
    (tmp_path / "base.toml").write_text(small_scenario)
    path = tmp_path / "spec.toml"
    path.write_text('[sweep]\nbase = "base.toml"\nseeds = [1, 2]\n'
                    '[sweep.grid]\n"flow[*].recovery" = ["reno", "newreno"]\n')
    return path


def test_non_utf8_files_give_one_line_naming_file_and_line(capsys, tmp_path, spec):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('[simulation]\nduration = "5s"\n# d\xe9bit\n'.encode("latin-1"))
    for command in (["run", bad], ["validate", bad], ["sweep", bad]):
        line = _one_line_error(_main(capsys, *command))
        assert f"{bad}, line 3" in line and "0xe9" in line and "UTF-8" in line
    # a sweep whose base scenario is not UTF-8
    (tmp_path / "base.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    line = _one_line_error(_main(capsys, "sweep", spec, "--dry-run"))
    assert "base.toml, line 1: a binary file" in line


def test_deeply_nested_spec_is_one_line(capsys, tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text('[sweep]\nbase = "x.toml"\n[sweep.grid]\nq = ' + "[" * 5000 + "]" * 5000 + "\n")
    for command in ("validate", "sweep"):
        line = _one_line_error(_main(capsys, command, deep))
        assert str(deep) in line and "line 4" in line


@pytest.mark.parametrize("args", [["models"], ["run", "SMALL"], ["sweep", "SPEC", "--dry-run"]])
def test_closed_pipe_is_quiet_and_non_zero(tcpsim_cli, small_scenario_file, spec, args):
    args = [str(small_scenario_file) if a == "SMALL" else str(spec) if a == "SPEC" else a
            for a in args]
    proc = subprocess.Popen([*tcpsim_cli, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    proc.stdout.close()  # the reader is gone before the first line is written (`| head`)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(120) == 141
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_validate_accepts_sweep_specs_and_names_other_things(capsys, spec, tmp_path,
                                                             small_scenario_file):
    proc = _main(capsys, "validate", spec, small_scenario_file)
    assert proc.returncode == 0, proc.stderr
    assert f"{spec}: ok (sweep spec, 4 runs; run it with `tcpsim sweep {spec}`)" in proc.stdout
    assert f"{small_scenario_file}: ok" in proc.stdout
    # a bad grid key: file, line and key
    spec.write_text(spec.read_text().replace('"flow[*].recovery"', '"flow[*].recovry"'))
    line = _one_line_error(_main(capsys, "validate", spec))
    assert f"{spec}, line 5, [sweep.grid] key 'flow[*].recovry'" in line and "recovery" in line
    # a directory, and a spec given to `run`
    line = _one_line_error(_main(capsys, "validate", tmp_path))
    assert "is a directory" in line
    line = _one_line_error(_main(capsys, "run", spec))
    assert "is a sweep spec" in line and f"tcpsim sweep {spec}" in line


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_fails_even_when_every_run_is_cached(tcpsim_cli, spec, tmp_path):
    out = tmp_path / "out"
    run_sweep(Sweep.from_spec(spec), out, workers=1, progress=False)
    proc = _cli(tcpsim_cli, "sweep", spec, "--out", out, "--scheduler",
                f"tcp://127.0.0.1:{_free_port()}", "--connect-timeout", "1")
    line = _one_line_error(proc, status=1)
    assert "cannot connect to the Dask scheduler tcp://127.0.0.1:" in line


def test_progress_lines_when_stderr_is_not_a_terminal(capsys, monkeypatch, spec, tmp_path,
                                                      small_scenario_file):
    monkeypatch.setenv("TCPSIM_PROGRESS_INTERVAL", "0")
    proc = _main(capsys, "sweep", spec, "--out", tmp_path / "o", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    lines = [l for l in proc.stderr.splitlines() if l.startswith("spec: ")]
    assert lines and "4/4 runs done" in lines[-1] and "elapsed" in lines[-1]
    assert "\r" not in proc.stderr
    proc = _main(capsys, "run", small_scenario_file)
    assert proc.returncode == 0, proc.stderr
    assert "small: 100% of simulated time" in proc.stderr
    # reproduce: its sweep of runs and its traced runs, in lines too
    proc = _main(capsys, "reproduce", "004", "--quick", "--out", tmp_path / "r", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr
    assert any(l.startswith("reproduce-004-quick: ") and "runs done" in l for l in proc.stderr.splitlines()), proc.stderr[-2000:]
    assert any(l.startswith("004 traces: ") for l in proc.stderr.splitlines()), proc.stderr[-2000:]
    # quiet stays quiet; the default period keeps short runs silent
    assert _main(capsys, "run", small_scenario_file, "-q").stderr == ""
    monkeypatch.delenv("TCPSIM_PROGRESS_INTERVAL")
    assert _main(capsys, "run", small_scenario_file).stderr == ""


def test_identical_seeds_warn(small_scenario, tmp_path, capsys):
    base = small_scenario.replace(RED_LINE, DROPTAIL)
    assert base != small_scenario
    sweep = Sweep(base, grid={"flow[*].recovery": ["reno"]}, seeds=[1, 2])
    with pytest.warns(SeedWarning, match="1 of 1 grid points give identical results"):
        table = run_sweep(sweep, tmp_path / "dt", workers=1, progress=False)
    assert table.attrs["sweep"]["identical_seed_points"] == 1
    # RED's random drops make the seeds differ: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeedWarning)
        red = run_sweep(Sweep(small_scenario, grid={"flow[*].recovery": ["reno"]}, seeds=[1, 2]),
                        tmp_path / "red", workers=1, progress=False)
    assert red["goodput_bps"].nunique() == 2
    # the command line prints it as one warning line
    (tmp_path / "b.toml").write_text(base)
    (tmp_path / "s.toml").write_text('[sweep]\nbase = "b.toml"\nseeds = [1, 2]\n')
    proc = _main(capsys, "sweep", tmp_path / "s.toml", "--out", tmp_path / "cli", "-j", "1")
    assert proc.returncode == 0
    assert [l for l in proc.stderr.splitlines() if l.startswith("tcpsim: warning: ")
            and "identical results for every seed" in l]


def test_queue_kind_and_limit_vary_independently(small_scenario):
    sweep = Sweep(small_scenario, grid={"dumbbell.bottleneck.queue.kind": ["droptail", "red"],
                                        "dumbbell.bottleneck.queue.limit": ["30p", "60p"]})
    import tomllib

    queues = [tomllib.loads(r.toml_text)["dumbbell"]["bottleneck"]["queue"] for r in sweep.runs()]
    assert queues == [
        {"kind": "droptail", "limit": "30p"}, {"kind": "droptail", "limit": "60p"},
        {"kind": "red", "limit": "30p", "min_th": 5, "max_th": 15},
        {"kind": "red", "limit": "60p", "min_th": 5, "max_th": 15},
    ]


def test_quantities_with_units_sort_and_plot_as_numbers():
    limits = ["100p", "25p", "1000p", "50p"]
    table = pd.DataFrame({
        "dumbbell.bottleneck.queue.limit": [l for l in limits for _ in (1, 2)],
        "seed": [1, 2] * 4,
        "goodput_bps": [float(i) for i in range(8)],
        "jain_index": 1.0, "drops": 0, "bottleneck_utilization": 0.5,
        "bottleneck_queue_mean_pkts": 1.0,
    })
    ax = plots.sweep_plot(table, y="goodput_bps").axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["25p", "50p", "100p", "1000p"]
    assert list(ax.get_xticks()) == [25, 50, 100, 1000]
    assert ax.get_xscale() == "log"  # 25 .. 1000 packets: a factor of 40
    assert ax.get_xlabel() == "limit of the bottleneck queue discipline (packets)"
    means = ax.containers[0].lines[0].get_ydata()
    assert list(means) == pytest.approx([2.5e-6, 6.5e-6, 0.5e-6, 4.5e-6])  # Mbit/s
    rates = pd.DataFrame({"r": ["1.5Mbps", "10Mbps", "1Gbps", "100Mbps"], "seed": 1,
                          "goodput_bps": 1.0, "jain_index": 1.0, "drops": 0,
                          "bottleneck_utilization": 0.5, "bottleneck_queue_mean_pkts": 1.0})
    text = format_sweep(rates.assign(**{"r": rates["r"]}), _FakeSweep(["r", "seed"]))
    rows = [l.split()[0] for l in text.splitlines()[2:]]
    assert rows == ["1.5Mbps", "10Mbps", "100Mbps", "1Gbps"]


class _FakeSweep:
    name = "rates"

    def __init__(self, columns):
        self.columns = columns
