"""The `tcpsim` command line, end to end in a subprocess."""

from __future__ import annotations

import json
import subprocess
import tomllib
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


def test_cli_csv_tables_equal_the_binary_csv_tables(tcpsim_run_bin, tcpsim_cli, small_scenario_file, tmp_path):
    """`tcpsim run --csv` writes its CSV with Arrow (not pandas: a seventh of the time on
    400 000 rows); every table holds the same header, rows and values as the binary's."""
    proc = subprocess.run(
        [str(tcpsim_run_bin), str(small_scenario_file), "--out", str(tmp_path / "bin"), "--csv"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    proc = _run(tcpsim_cli, "run", small_scenario_file, "--out", tmp_path / "cli", "--csv", "--quiet")
    assert proc.returncode == 0, proc.stderr
    for table in ("flows", "queues", "links", "timeseries"):
        bin_text = (tmp_path / "bin" / f"{table}.csv").read_text()
        cli_text = (tmp_path / "cli" / f"{table}.csv").read_text()
        assert cli_text.splitlines()[0] == bin_text.splitlines()[0], table
        assert '"' not in cli_text, table  # quotes only where a value needs them
        pd.testing.assert_frame_equal(
            pd.read_csv(tmp_path / "cli" / f"{table}.csv"),
            pd.read_csv(tmp_path / "bin" / f"{table}.csv"), check_dtype=False, rtol=1e-12,
            obj=table,
        )


def test_saved_csv_quotes_a_name_holding_a_comma(tmp_path):
    results = tcpsim.run(SMALL_WITH_COMMA)
    results.save(tmp_path / "r", csv=True)
    flows = pd.read_csv(tmp_path / "r" / "flows.csv")
    assert flows["name"].tolist() == ['a, "the first"']


SMALL_WITH_COMMA = """
[simulation]
duration = "1s"

[dumbbell]
pairs = 1

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[[flow]]
name = 'a, "the first"'
from = "s0"
to = "d0"
type = "tcp"
"""


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


# ------------------------------------------------------------------ --set and --seed


def _main(capsys, *argv):
    """`tcpsim ARGV` in this process: (status, stdout, stderr)."""
    from tcpsim import cli

    capsys.readouterr()
    try:
        status = cli.main([str(a) for a in argv])
    except SystemExit as e:  # argparse errors
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


def test_run_with_overrides_records_them_and_redoes_from_its_scenario(tcpsim_cli, small_scenario_file, tmp_path):
    out = tmp_path / "o"
    proc = _run(tcpsim_cli, "run", small_scenario_file, "--seed", "3",
                "--set", "dumbbell.bottleneck.rate=10Mbps", "--set", "flow[*].cc=vegas",
                "--set", "flow[0].cc.alpha=2", "--out", out, "-q")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overrides"] == {"dumbbell.bottleneck.rate": "10Mbps", "flow[*].cc": "vegas",
                                    "flow[0].cc.alpha": 2, "simulation.seed": 3}
    assert summary["seed"] == 3
    scenario = tomllib.loads((out / "scenario.toml").read_text())
    assert scenario["dumbbell"]["bottleneck"]["rate"] == "10Mbps"
    assert scenario["flow"][0]["cc"] == {"kind": "vegas", "alpha": 2}
    assert scenario["flow"][1]["cc"] == "vegas"
    flows = pd.read_parquet(out / "flows.parquet")
    assert flows["cc"].tolist() == ["vegas", "vegas"]
    # the saved scenario is the run: running it again gives the same flows
    again = tcpsim.run(out / "scenario.toml")
    assert again.flows["goodput_bytes"].tolist() == flows["goodput_bytes"].tolist()
    assert "overrides" not in again.summary


def test_seed_override_changes_the_seed_only(small_scenario_file):
    plain = tcpsim.run(small_scenario_file)
    seeded = tcpsim.run(small_scenario_file, seed=7)  # the file's own seed
    assert seeded.flows["goodput_bytes"].tolist() == plain.flows["goodput_bytes"].tolist()
    assert seeded.summary["overrides"] == {"simulation.seed": 7}
    assert tcpsim.run(small_scenario_file, seed=8).summary["seed"] == 8
    import numpy as np

    assert tcpsim.run(small_scenario_file, seed=np.int64(9)).summary["overrides"] == {"simulation.seed": 9}
    for bad in (True, 1.5, "3"):
        with pytest.raises(tcpsim.ScenarioError, match="expected an integer >= 0"):
            tcpsim.validate(small_scenario_file, seed=bad)


@pytest.mark.parametrize("flags, message", [
    (["--set", "dumbbell.bottlenek.rate=20Mbps"],
     "small.toml, --set 'dumbbell.bottlenek.rate=20Mbps', key 'dumbbell.bottlenek': unknown key "
     "'bottlenek'; did you mean 'bottleneck'?"),
    (["--set", "flow[0].cc.alpah=3"],
     "small.toml, --set 'flow[0].cc.alpah=3': no congestion control has a parameter 'alpah'; "
     "did you mean 'alpha'?"),
    (["--set", "flow[0].colour=red"], "small.toml, --set 'flow[0].colour=red': a flow has no key 'colour'"),
    (["--set", "flow[0].cc.alpha=3"],
     "small.toml, --set 'flow[0].cc.alpha=3': 'alpha' is a parameter of congestion control 'vegas', "
     "'quick_vegas', 'fast', 'new_vegas', 'vegas_a', 'vegas_plus', but 'flow[0].cc' is 'reno' in "
     "the base scenario; set it there, or "
     "choose another model for 'flow[0].cc' first (an override before this one)"),
    (["--set", "flow[0].cc.alpha=3", "--set", "flow[0].cc=vegas"], "choose another model for 'flow[0].cc' first"),
    (["--set", "flow[2].cc=vegas"],
     "small.toml, --set 'flow[2].cc=vegas': index 2 is out of range: 'flow' has 2 elements"),
    (["--set", "dumbbell.bottleneck.rate=20Mbz"],
     "small.toml, --set 'dumbbell.bottleneck.rate=20Mbz', key 'dumbbell.bottleneck.rate': expected "
     "a rate with a unit"),
    (["--set", "flow[*].cc=vegas", "--set", "flow[0].cc.alpha=9"],
     "small.toml, --set 'flow[*].cc=vegas', --set 'flow[0].cc.alpha=9', key 'flow[0].cc.beta': "
     "expected beta at least alpha (9)"),
    (["--set", "flow[0.cc=vegas"], "small.toml, --set 'flow[0.cc=vegas': bad key path 'flow[0.cc'"),
    (["--set", "simulation.duration"], "--set 'simulation.duration': expected KEY=VALUE"),
    (["--set", "simulation.duration="], "--set 'simulation.duration=': expected KEY=VALUE"),
    (["--seed", "2", "--set", "simulation.seed=4"],
     "--set 'simulation.seed=4' and --seed 2 both set 'simulation.seed'; give it once"),
    (["--set", "simulation.duration=1s", "--set", "simulation.duration=2s"], "both set 'simulation.duration'"),
])
@pytest.mark.parametrize("command", ["run", "validate"])
def test_override_errors_name_the_flag_and_key(capsys, small_scenario_file, command, flags, message):
    status, out, err = _main(capsys, command, small_scenario_file, *flags)
    assert status == 2, err
    assert err.startswith("tcpsim: error: ") and message in err, err
    assert "Traceback" not in err and out == ""


def test_seed_must_be_a_whole_number(capsys, small_scenario_file):
    status, _, err = _main(capsys, "run", small_scenario_file, "--seed", "-1")
    assert status == 2 and "argument --seed: expected an integer >= 0, got '-1'" in err


def test_override_values_are_toml_values_when_they_parse(capsys, small_scenario_file, tmp_path):
    """4 is a number, true a boolean, "..." a string, { ... } a table; 20Mbps and vegas,
    which are not TOML, are strings."""
    from tcpsim.overrides import parse_set, parse_value

    assert parse_value("4") == 4 and parse_value("0.5") == 0.5 and parse_value("true") is True
    assert parse_value('"20Mbps"') == "20Mbps" == parse_value("20Mbps")
    assert parse_value("[1, 2]") == [1, 2] and parse_value("vegas") == "vegas"
    assert parse_value('{ kind = "red", max_p = 0.1 }') == {"kind": "red", "max_p": 0.1}
    assert parse_value("1\nx = 2") == "1\nx = 2"  # one value, not a document
    assert parse_set('link[0]."a=b"=3').key == 'link[0]."a=b"'
    out = tmp_path / "o"
    status, _, err = _main(capsys, "run", small_scenario_file, "-q", "--out", out,
                           "--set", 'dumbbell.bottleneck.queue={ kind = "droptail", limit = "20p" }',
                           "--set", "flow[0].ecn=false", "--set", 'flow[1].name="second"')
    assert status == 0, err
    scenario = tomllib.loads((out / "scenario.toml").read_text())
    assert scenario["dumbbell"]["bottleneck"]["queue"] == {"kind": "droptail", "limit": "20p"}
    assert scenario["flow"][0]["ecn"] is False and scenario["flow"][1]["name"] == "second"


def test_choosing_another_kind_drops_the_old_kinds_parameters(capsys, small_scenario_file, tmp_path):
    """Over a RED queue, queue.kind=droptail keeps limit (DropTail has it) and drops
    min_th and max_th, as a sweep over the kind does."""
    out = tmp_path / "o"
    status, _, err = _main(capsys, "run", small_scenario_file, "-q", "--out", out,
                           "--set", "dumbbell.bottleneck.queue.kind=droptail")
    assert status == 0, err
    scenario = tomllib.loads((out / "scenario.toml").read_text())
    assert scenario["dumbbell"]["bottleneck"]["queue"] == {"kind": "droptail", "limit": "50p"}
    assert pd.read_parquet(out / "queues.parquet").set_index("queue").loc["r1->r2", "kind"] == "droptail"


def test_validate_checks_the_overridden_scenario(capsys, small_scenario_file):
    status, out, _ = _main(capsys, "validate", small_scenario_file, "--set", "flow[*].cc=vegas",
                           "--set", "flow[*].cc.alpha=2", "--seed", "4")
    assert status == 0 and "small.toml: ok" in out
    # an error of the file itself keeps its line, overrides or not
    bad = small_scenario_file.parent / "bad.toml"
    bad.write_text(small_scenario_file.read_text().replace('delay = "10ms"', 'delay = "10"'))
    status, _, err = _main(capsys, "validate", bad, "--seed", "4")
    assert status == 2 and "bad.toml, line 12, key 'dumbbell.bottleneck.delay'" in err, err


def test_an_override_of_a_flows_type_turns_a_tcp_flow_into_tfrc(small_scenario_file):
    """--set flow[0].type=tfrc: the base flow's TCP keys go (docs/sweeps.md), the run has
    a TFRC flow beside the untouched TCP one."""
    res = tcpsim.run(small_scenario_file, overrides={"flow[0].type": "tfrc"})
    flows = tomllib.loads(res.scenario_text)["flow"]
    assert flows[0] == {"name": "reno", "from": "s0", "to": "d0", "type": "tfrc"}
    assert flows[1]["recovery"] == "newreno"
    assert res.flows.set_index("name")["type"].to_dict() == {"reno": "tfrc", "newreno": "tcp"}


def test_python_api_takes_overrides(small_scenario_file):
    res = tcpsim.run(small_scenario_file, overrides={"flow[*].recovery": "sack1",
                                                     "flow[*].receiver": {"kind": "every_packet", "sack": True}})
    assert res.flows["recovery"].tolist() == ["sack1", "sack1"]
    assert res.summary["overrides"]["flow[*].recovery"] == "sack1"
    assert tomllib.loads(res.scenario_text)["flow"][0]["recovery"] == "sack1"
    with pytest.raises(tcpsim.ScenarioError, match=r"small.toml, overrides\['flow\[3\].cc'\]: index 3 is out of range"):
        tcpsim.run(small_scenario_file, overrides={"flow[3].cc": "vegas"})
    with pytest.raises(tcpsim.ScenarioError, match=r"seed=-1: expected an integer >= 0"):
        tcpsim.validate(small_scenario_file, seed=-1)
    with pytest.raises(TypeError, match="overrides must be a dict"):
        tcpsim.run(small_scenario_file, overrides=["flow[0].cc=vegas"])
    tcpsim.validate(small_scenario_file, overrides={"simulation.duration": "2s"}, seed=1)


def test_run_help_documents_the_override_flags(tcpsim_cli):
    text = _run(tcpsim_cli, "run", "--help").stdout
    for bit in ("--set KEY=VALUE", "--seed N", "overrides (the key paths of sweep grids",
                "summary.json lists the overrides", '--set "flow[*].cc=vegas"'):
        assert bit in text, bit
    for command in ("validate", "sweep"):
        text = _run(tcpsim_cli, command, "--help").stdout
        assert "--set KEY=VALUE" in text and "--seed N" in text
