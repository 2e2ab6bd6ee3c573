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


def test_validate_checks_events(tcpsim_cli, repo_root, tmp_path):
    ok = _run(tcpsim_cli, "validate", repo_root / "examples" / "link_failover.toml")
    assert ok.returncode == 0, ok.stderr
    bad = tmp_path / "bad_event.toml"
    text = (repo_root / "examples" / "link_failover.toml").read_text()
    bad.write_text(text.replace('action = "down"', 'action = "fail"'))
    proc = _run(tcpsim_cli, "validate", bad)
    assert proc.returncode == 2
    assert "bad_event.toml, line " in proc.stderr
    assert "key 'event[0].action': expected one of 'rate', 'delay', 'down', 'up', got \"fail\"" in proc.stderr


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


@pytest.mark.parametrize("command", [["run", "x.toml"], ["validate", "x.toml"], ["sweep", "x.toml"], ["reproduce", "004"]])
def test_an_unknown_option_shows_the_commands_own_usage(tcpsim_cli, command):
    proc = _run(tcpsim_cli, *command, "--no-such-option", "3")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"usage: tcpsim {command[0]} "), proc.stderr
    assert f"tcpsim {command[0]}: error: unrecognized arguments: --no-such-option 3" in proc.stderr


MANY_FLOWS = """
[simulation]
duration = "1s"
[dumbbell]
pairs = 30
[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"
[dumbbell.access]
rate = "100Mbps"
delay = "1ms"
[[flow]]
count = 30
from = "s{i}"
to = "d{i}"
"""


def test_many_flows_print_the_highest_and_lowest_goodputs_unless_all(tcpsim_cli, tmp_path):
    scenario = tmp_path / "many.toml"
    scenario.write_text(MANY_FLOWS)
    flow_rows = lambda text: [l for l in text.splitlines() if l.startswith("flow0_")]
    short = _run(tcpsim_cli, "run", scenario)
    assert short.returncode == 0, short.stderr
    assert len(flow_rows(short.stdout)) == 20
    assert "... 10 flows" in short.stdout and "(10 of 30 flows not shown" in short.stdout
    full = _run(tcpsim_cli, "run", scenario, "--all")
    assert len(flow_rows(full.stdout)) == 30 and "not shown" not in full.stdout.split("Queues")[0]


def test_plot_says_which_plots_it_leaves_out_and_why(tcpsim_cli, tmp_path):
    scenario = tmp_path / "many.toml"
    scenario.write_text(MANY_FLOWS)  # no [monitor]: no time series
    assert _run(tcpsim_cli, "run", scenario, "--out", tmp_path / "r", "-q").returncode == 0
    proc = _run(tcpsim_cli, "plot", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    assert sorted(Path(l).name for l in proc.stdout.split()) == ["goodput_cdf.png", "throughput_delay.png"]
    notes = [l for l in proc.stderr.splitlines() if l.startswith("note: ")]
    assert len(notes) == 6 and "note: cwnd.png not drawn: no time series: the scenario has no [monitor] interval" in notes


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


# ---------------------------------------------------------------------- tcpsim models


def _models(*args):
    """`tcpsim models ...` in-process (fast): (status, stdout, stderr)."""
    import contextlib
    import io

    from tcpsim.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["models", *args])
    return status, out.getvalue(), err.getvalue()


def test_models_lists_every_registered_model_by_family():
    status, out, _ = _models()
    assert status == 0
    for spec in tcpsim.models.models():
        assert spec.name in out and spec.summary in out
    for fam in tcpsim.models.families(with_models=True):
        assert f"{fam.title} [{fam.id}]" in out


def test_models_describes_one_with_every_parameter():
    status, out, _ = _models("red")
    assert status == 0
    spec = tcpsim.models.get("queue", "red")
    assert out.startswith("red — queue discipline [queue]")
    assert spec.source in out
    for p in spec.params:
        assert p.name in out and p.doc in out and p.source in out
    assert '"50p"' in out and "0 – 1" in out        # a default and a range
    assert '[link.queue]\n  kind = "red"' in out     # the example


def test_models_shared_name_shows_both_or_the_family_asked_for():
    status, out, _ = _models("reno")
    assert status == 0
    assert "congestion control [cc]" in out and "loss recovery [recovery]" in out
    status, out, _ = _models("recovery", "reno")
    assert status == 0 and "congestion control" not in out.split("\n")[0]
    assert out.startswith("reno — loss recovery [recovery]")
    status, out, _ = _models("queue")
    assert status == 0 and "droptail" in out and "reno" not in out


@pytest.mark.parametrize("args, message", [
    (["rde"], "did you mean 'red' (queue discipline)?"),
    (["queu"], "did you mean the family 'queue'?"),
    (["cc", "tahoe"], "it is a loss recovery [recovery]"),
    (["queue", "redd"], "did you mean 'red'?"),
    (["nosuchfamily", "red"], "unknown model family"),
    (["a", "b", "c"], "at most a family and a name"),
])
def test_models_unknown_names_exit_2_with_the_closest(args, message):
    status, out, err = _models(*args)
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_models_json_is_the_registry():
    status, out, _ = _models("--json")
    assert status == 0
    assert json.loads(out) == json.loads(tcpsim._core.models_json())
    status, out, _ = _models("red", "--json")
    doc = json.loads(out)
    assert [m["name"] for m in doc["models"]] == ["red"]
    assert doc["families"][0]["id"] == "queue"
    assert "kind = \"red\"" in doc["models"][0]["example"]


def test_models_markdown_is_the_docs_table():
    status, out, _ = _models("queue", "red", "--markdown")
    assert status == 0 and tcpsim._core.model_markdown("queue", "red") in out


@pytest.mark.parametrize("spec", tcpsim.models.models(), ids=lambda s: s.ref)
def test_every_models_example_is_a_valid_scenario(spec):
    status, out, _ = _models(spec.family.id, spec.name, "--example")
    assert status == 0
    tcpsim.validate(out)


def test_models_example_runs(tcpsim_cli, tmp_path):
    proc = _run(tcpsim_cli, "models", "delayed", "--example")
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / "delayed.toml"
    path.write_text(proc.stdout)
    proc = _run(tcpsim_cli, "run", path, "--quiet")
    assert proc.returncode == 0, proc.stderr


def test_models_help_has_examples(tcpsim_cli):
    proc = _run(tcpsim_cli, "models", "--help")
    assert proc.returncode == 0
    assert "tcpsim models red" in proc.stdout and "tcpsim models cc reno" in proc.stdout
    proc = _run(tcpsim_cli, "--help")
    assert "tcpsim models" in proc.stdout


def test_run_limits_on_the_estimated_cost(tcpsim_cli, tcpsim_run_bin, small_scenario_file, tmp_path):
    # Below the scenario's estimated memory: refused, naming the limit and how to raise it.
    for cli in (list(tcpsim_cli) + ["run"], [str(tcpsim_run_bin)]):
        proc = _run(cli, small_scenario_file, "--max-memory", "1KiB", "--quiet")
        assert proc.returncode == 2, proc.stderr
        assert "more than the limit" in proc.stderr and "--max-memory" in proc.stderr
        assert "Traceback" not in proc.stderr
        # A size in the scenario files' units only.
        proc = _run(cli, small_scenario_file, "--max-memory", "1gb", "--quiet")
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        proc = _run(cli, small_scenario_file, "--max-samples", "0", "--quiet")
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    proc = _run(tcpsim_cli, "run", small_scenario_file, "--max-memory", "16GiB", "--max-samples", "100000000", "--quiet")
    assert proc.returncode == 0, proc.stderr


def test_parse_quantity_is_the_scenario_grammar():
    from tcpsim import _core

    assert _core.parse_quantity("rate", "10MBps") == (80_000_000, "bit/s")
    assert _core.parse_quantity("time", "1.5e-3s") == (1_500_000_000, "ps")
    assert _core.parse_quantity("size", "64KiB") == (65_536, "B")
    assert _core.parse_quantity("limit", "250p") == (250, "p")
    with pytest.raises(ValueError, match="did you mean"):
        _core.parse_quantity("rate", "10mbps")


def test_validate_takes_the_same_limits_as_run(tcpsim_cli, small_scenario_file):
    # validate checks the estimated cost like run does, and its flags move the limits.
    proc = _run(tcpsim_cli, "validate", small_scenario_file, "--max-memory", "1KiB")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "more than the limit" in proc.stderr and "--max-memory" in proc.stderr
    proc = _run(tcpsim_cli, "validate", small_scenario_file, "--max-samples", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    proc = _run(tcpsim_cli, "validate", small_scenario_file, "--max-memory", "16GiB")
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr
    # The defaults in --help are the core's (tcpsim.default_limits), not retyped.
    import tcpsim

    d = tcpsim.default_limits()
    for command in ("run", "validate"):
        text = _run(tcpsim_cli, command, "--help").stdout
        assert f"default {d['max_samples']}" in " ".join(text.split()), text
        assert f"default {d['max_memory'] >> 30}GiB" in " ".join(text.split()), text
