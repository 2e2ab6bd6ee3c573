"""Sweeps (tcpsim.sweep): spec parsing and expansion, run ids, validation messages, the
local executor, resuming after an interruption or a crash, and the `tcpsim sweep` CLI
entry points (add_cli / cli_main). The Dask executor is in test_sweep_dask.py."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

import tcpsim
from tcpsim import ScenarioError
from tcpsim import sweep as sweep_mod
from tcpsim.sweep import METRICS, Sweep, SweepError, canonical_toml, load_sweep, run_id, run_sweep

REPO = Path(__file__).resolve().parents[1]
PKG_PARENT = str(Path(tcpsim.__file__).resolve().parents[1])

MAX_TH = "dumbbell.bottleneck.queue.max_th"
RECOVERY = "flow[*].recovery"


def _attempts(out: Path) -> dict:
    """run_id -> the unique attempt id its run.json records (changes iff recomputed)."""
    found = {}
    for d in (out / "runs").iterdir():
        marker = d / "run.json"
        if not d.name.startswith(".") and marker.exists():  # not a .tmp-* being written
            found[d.name] = json.loads(marker.read_text())["attempt"]
    return found


def _assert_complete(out: Path, table: pd.DataFrame) -> None:
    """Every run of the table has a complete run directory that loads."""
    assert table.index.is_unique
    for rid in table.index:
        d = out / "runs" / rid
        assert sweep_mod.is_finished(d), rid
        res = tcpsim.load_results(d)
        assert len(res.flows) == table.loc[rid, "flows"]
        assert run_id((d / "scenario.toml").read_text()) == rid
    assert not [p for p in (out / "runs").iterdir() if p.name.startswith(".tmp-")]


@pytest.fixture
def small_sweep(small_scenario) -> Sweep:
    return Sweep(small_scenario, grid={MAX_TH: [15, 30], RECOVERY: ["reno", "newreno"]},
                 seeds=[1, 2])


# ------------------------------------------------------------------------ canonical TOML


def test_canonical_toml_round_trips_every_value_kind():
    doc = {
        "simulation": {"duration": "5s", "seed": 3},
        "z": {"inline": [{"a": 1}, {"b": "x"}], "empty": {}, "nums": [1, 2.5, -0.0, 1e-7]},
        "strings": {"quote": 'a "b" \\ c', "ctrl": "tab\there\nnl\x7f", "uni": "Ω→µs",
                    "needs quoting": True, "r1->r2": False},
        "flow": [{"name": "f0", "queue": {"kind": "red"}}, {"name": "f1", "sub": [{"k": 1}]}],
        "floats": {"inf": float("inf"), "big": 1e300, "tiny": 5e-324},
    }
    text = canonical_toml(doc)
    assert tomllib.loads(text) == doc
    # Canonical: key order does not matter.
    shuffled = {k: doc[k] for k in reversed(list(doc))}
    assert canonical_toml(shuffled) == text


def test_canonical_toml_of_the_example_scenario_is_equivalent(repo_root):
    text = (repo_root / "examples" / "dumbbell.toml").read_text()
    doc = tomllib.loads(text)
    canon = canonical_toml(doc)
    assert tomllib.loads(canon) == doc
    tcpsim.validate(canon)


def test_run_id_depends_on_scenario_and_version_not_on_formatting(small_scenario):
    a = Sweep(small_scenario).runs()[0]
    reformatted = "# a comment\n" + small_scenario.replace('rate = "5Mbps"', 'rate   =   "5Mbps"')
    b = Sweep(reformatted).runs()[0]
    assert a.run_id == b.run_id and len(a.run_id) == 16
    c = Sweep(small_scenario.replace('"5Mbps"', '"6Mbps"')).runs()[0]
    assert c.run_id != a.run_id
    assert run_id(a.toml_text, "0.0.1") != run_id(a.toml_text, "0.0.2")
    assert run_id(a.toml_text) == a.run_id
    # the id covers the simulator's code, not only its version number
    import re

    import tcpsim

    assert re.fullmatch(re.escape(tcpsim.__version__) + r"\+[0-9a-f]{16}", tcpsim.__build__)
    assert run_id(a.toml_text) == run_id(a.toml_text, tcpsim.__build__)
    assert run_id(a.toml_text) != run_id(a.toml_text, tcpsim.__version__)


# ------------------------------------------------------------------------ expansion


def test_grid_times_seeds_expands_in_order_with_values_applied(small_sweep):
    runs = small_sweep.runs()
    assert len(runs) == 2 * 2 * 2 == len(small_sweep)
    assert [tuple(r.params.values()) for r in runs] == [
        (15, "reno", 1), (15, "reno", 2), (15, "newreno", 1), (15, "newreno", 2),
        (30, "reno", 1), (30, "reno", 2), (30, "newreno", 1), (30, "newreno", 2),
    ]
    assert len({r.run_id for r in runs}) == len(runs)
    for r in runs:
        doc = tomllib.loads(r.toml_text)
        assert doc["dumbbell"]["bottleneck"]["queue"]["max_th"] == r.params[MAX_TH]
        assert [f["recovery"] for f in doc["flow"]] == [r.params[RECOVERY]] * 2
        assert doc["simulation"]["seed"] == r.params["seed"]
        # everything else is the base
        assert doc["dumbbell"]["bottleneck"]["rate"] == "5Mbps"
        assert doc["dumbbell"]["bottleneck"]["queue"]["min_th"] == 5
    assert small_sweep.columns == [MAX_TH, RECOVERY, "seed"]


def test_single_index_linked_keys_and_created_tables(small_scenario):
    base = small_scenario.replace('[monitor]\ninterval = "100ms"\n', "")
    sw = Sweep(base, grid={
        "flow[1].recovery": ["tahoe"],
        "dumbbell.bottleneck.queue.min_th, dumbbell.bottleneck.queue.max_th": [[5, 15], [10, 30]],
        "monitor.interval": ["50ms"],
    })
    runs = sw.runs()
    assert len(runs) == 2
    doc = tomllib.loads(runs[1].toml_text)
    assert [f["recovery"] for f in doc["flow"]] == ["reno", "tahoe"]
    q = doc["dumbbell"]["bottleneck"]["queue"]
    assert (q["min_th"], q["max_th"]) == (10, 30)
    assert doc["monitor"] == {"interval": "50ms"}
    assert doc["simulation"]["seed"] == 7  # no seeds: the base's
    assert runs[1].params == {"flow[1].recovery": "tahoe", "dumbbell.bottleneck.queue.min_th": 10,
                              "dumbbell.bottleneck.queue.max_th": 30, "monitor.interval": "50ms",
                              "seed": 7}


def test_table_value_replaces_the_whole_table(small_scenario):
    sw = Sweep(small_scenario, grid={"dumbbell.bottleneck.queue": [
        {"kind": "droptail", "limit": "20p"}, {"kind": "red", "limit": "50p"}]})
    docs = [tomllib.loads(r.toml_text) for r in sw.runs()]
    assert docs[0]["dumbbell"]["bottleneck"]["queue"] == {"kind": "droptail", "limit": "20p"}
    assert docs[1]["dumbbell"]["bottleneck"]["queue"] == {"kind": "red", "limit": "50p"}


def test_setting_a_flows_type_drops_the_base_keys_the_new_source_lacks(small_scenario):
    """flow[0].type = "tfrc" turns the base's Reno flow into a TFRC flow: its TCP keys
    (recovery, max_window) go, the keys every flow has and a TFRC parameter the grid
    sets stay, and the other flow is untouched."""
    sw = Sweep(small_scenario, grid={"flow[0].type": ["tfrc", "tcp"], "flow[0].packet_size": ["500B"]})
    tfrc, tcp = (tomllib.loads(r.toml_text)["flow"] for r in sw.runs())
    assert tfrc[0] == {"name": "reno", "from": "s0", "to": "d0", "type": "tfrc", "packet_size": "500B"}
    assert tfrc[1] == {"name": "newreno", "from": "s1", "to": "d1", "recovery": "newreno",
                       "start": "0.1s", "max_window": 100}
    assert tcp[0] == {"name": "reno", "from": "s0", "to": "d0", "type": "tcp", "packet_size": "500B",
                      "recovery": "reno", "max_window": 100}


def test_a_tcp_key_the_grid_sets_on_a_flow_it_makes_tfrc_is_an_error(small_scenario):
    """A key the grid sets itself is never dropped: the core refuses it, naming both keys."""
    with pytest.raises(ScenarioError, match=r"'flow\[0\]\.recovery' = \"reno\".*'flow\[0\]\.type' = "
                                            r"\"tfrc\".*applies to type = \"tcp\" flows"):
        Sweep(small_scenario, grid={"flow[0].type": ["tfrc"], "flow[0].recovery": ["reno"]}).runs()


def test_spec_file_with_relative_base_nested_grid_and_out(tmp_path, small_scenario):
    (tmp_path / "scen").mkdir()
    (tmp_path / "scen" / "base.toml").write_text(small_scenario)
    spec = tmp_path / "specs" / "red.toml"
    spec.parent.mkdir()
    spec.write_text(textwrap.dedent("""\
        [sweep]
        base = "../scen/base.toml"
        seeds = [4, 5]
        out = "../out/red"

        [sweep.grid]
        "flow[0].recovery" = ["reno", "tahoe"]
        dumbbell.pairs = [2]          # unquoted dotted keys work too
    """))
    sw = Sweep.from_spec(spec)
    assert sw.name == "red"
    assert sw.out == spec.parent / "../out/red"
    assert sw.columns == ["flow[0].recovery", "dumbbell.pairs", "seed"]
    assert len(sw.runs()) == 4


def test_spec_with_inline_base(tmp_path, small_scenario):
    def prefixed(line: str) -> str:
        if line.startswith("[["):
            return "[[base." + line[2:]
        if line.startswith("["):
            return "[base." + line[1:]
        return line

    inline = "\n".join(prefixed(line) for line in small_scenario.splitlines())
    spec = tmp_path / "inline.toml"
    spec.write_text('[sweep]\nseeds = [1]\nname = "x"\n[sweep.grid]\n"simulation.duration" = ["1s", "2s"]\n'
                    + inline + "\n")
    sw = Sweep.from_spec(spec)
    assert sw.name == "x" and len(sw.runs()) == 2
    assert tomllib.loads(sw.runs()[1].toml_text)["simulation"]["duration"] == "2s"


# ------------------------------------------------------------------------ error messages


def _spec(tmp_path, body: str, base: str) -> Path:
    (tmp_path / "base.toml").write_text(base)
    spec = tmp_path / "myspec.toml"
    spec.write_text('[sweep]\nbase = "base.toml"\n' + textwrap.dedent(body))
    return spec


@pytest.mark.parametrize("body, expected", [
    ('[sweep.grid]\n"dumbbell.bottleneck.queue.max_thh" = [30]\n',
     ["myspec.toml", "[sweep.grid] key 'dumbbell.bottleneck.queue.max_thh'",
      "no queue discipline has a parameter 'max_thh'; did you mean 'max_th'?"]),
    ('[sweep.grid]\n"flow[5].recovery" = ["reno"]\n',
     ["myspec.toml", "'flow[5].recovery'", "index 5 is out of range", "has 2 elements"]),
    ('[sweep.grid]\n"simulation.duration.x" = [1]\n',
     ["myspec.toml", "'simulation.duration.x'", "'simulation.duration' is a string, not a table"]),
    ('[sweep.grid]\n"dumbbell.bottleneck.queue.max_th" = [2, 30]\n',
     ["myspec.toml", "'dumbbell.bottleneck.queue.max_th' = 2", "max_th"]),
    ('[sweep.grid]\n"flow[*].recovery" = ["reno", "cubic"]\n',
     ["myspec.toml", "'flow[*].recovery' = \"cubic\"", "flow[0].recovery"]),
    ('[sweep.grid]\n"dumbbell.bottleneck.queue.max_th" = 30\n',
     ["myspec.toml", "'dumbbell.bottleneck.queue.max_th'", "expected a list of values"]),
    ('[sweep.grid]\n"dumbbell.bottleneck.queue.max_th" = []\n', ["myspec.toml", "is empty"]),
    ('[sweep.grid]\n"dumbbell.bottleneck.queue.max_th" = [30, 30]\n', ["myspec.toml", "listed twice"]),
    ('[sweep.grid]\n"dumbbell..max_th" = [30]\n', ["myspec.toml", "bad key path"]),
    ('[sweep.grid]\n"q.min_th, q.max_th" = [[1, 2, 3]]\n', ["myspec.toml", "2 linked keys"]),
    ('seeds = [1, -2]\n', ["myspec.toml", "sweep.seeds", "integers >= 0"]),
    ('seeds = []\n', ["myspec.toml", "sweep.seeds", "empty"]),
    ('seeds = [1]\n[sweep.grid]\n"simulation.seed" = [1, 2]\n', ["myspec.toml", "simulation.seed"]),
    ('outt = "x"\n', ["myspec.toml", "sweep.outt", "unknown key"]),
])
def test_bad_specs_raise_scenario_error_naming_file_and_key(tmp_path, small_scenario, body, expected):
    spec = _spec(tmp_path, body, small_scenario)
    with pytest.raises(ScenarioError) as err:
        Sweep.from_spec(spec)
    message = str(err.value)
    for part in expected:
        assert part in message, message


def test_combination_error_names_the_keys_involved_and_the_run(tmp_path, small_scenario):
    # max_th = 8 is fine with min_th 5 but not with min_th 10: only the combination fails.
    spec = _spec(tmp_path, """\
        seeds = [1]
        [sweep.grid]
        "dumbbell.bottleneck.queue.min_th" = [5, 10]
        "dumbbell.bottleneck.queue.max_th" = [8, 30]
        "flow[0].recovery" = ["reno"]
    """, small_scenario)
    with pytest.raises(ScenarioError) as err:
        Sweep.from_spec(spec)
    message = str(err.value)
    assert message.startswith(str(spec))
    assert "'dumbbell.bottleneck.queue.min_th' = 10" in message
    assert "'dumbbell.bottleneck.queue.max_th' = 8" in message
    assert "'flow[0].recovery' = \"reno\", 'seed' = 1" in message
    assert "in the run with" in message
    # the line is the spec's line of the first key involved, never one of generated text
    assert message.startswith(f"{spec}, line 5, [sweep.grid]")
    assert message.count("line") == 1


def test_invalid_base_file_is_reported_with_its_own_line(tmp_path, small_scenario):
    spec = _spec(tmp_path, "", small_scenario.replace("pairs = 2", "pairs = 0"))
    with pytest.raises(ScenarioError) as err:
        Sweep.from_spec(spec)
    message = str(err.value)
    assert "myspec.toml: base scenario:" in message
    assert "base.toml, line 7" in message and "dumbbell.pairs" in message


@pytest.mark.parametrize("text, expected", [
    ('[sweep]\nbase = "missing.toml"\n', "scenario file not found"),
    ("[sweep]\nseeds = [1]\n", "no base scenario"),
    ('[sweepp]\nbase = "x"\n', "unknown table 'sweepp'"),
    ("[base]\nx = 1\n", "missing [sweep] table"),
    ("[sweep\n", "not valid TOML"),
])
def test_bad_spec_structure(tmp_path, text, expected):
    spec = tmp_path / "s.toml"
    spec.write_text(text)
    with pytest.raises(ScenarioError, match=None) as err:
        Sweep.from_spec(spec)
    assert expected in str(err.value) and "s.toml" in str(err.value)


# ------------------------------------------------------------------------ running locally


def test_run_sweep_locally_writes_one_complete_run_per_row(small_sweep, tmp_path):
    out = tmp_path / "out"
    table = run_sweep(small_sweep, out, workers=2, progress=False)
    runs = small_sweep.runs()
    assert list(table.index) == [r.run_id for r in runs]
    assert table.index.name == "run_id"
    assert list(table.columns) == small_sweep.columns + list(METRICS) + ["reused"]
    assert not table["reused"].any()
    assert table[MAX_TH].tolist() == [r.params[MAX_TH] for r in runs]
    assert (table["goodput_bps"] > 1e6).all() and (table["goodput_bps"] <= 5e6 * 1.001).all()
    assert ((table["jain_index"] > 0.5) & (table["jain_index"] <= 1 + 1e-12)).all()
    assert (table["bottleneck"] == "r1->r2").all()
    assert (table["drops"] == table["early_drops"] + table["overflow_drops"]).all()
    assert (table["flows"] == 2).all()
    _assert_complete(out, table)
    # Same scenario, same numbers: the sweep's run equals a plain tcpsim.run.
    first = runs[0]
    direct = tcpsim.run(first.toml_text)
    # The aggregate goodput: bytes delivered by all flows over the measurement window.
    window = direct.summary["duration_s"] - direct.summary["measure_from_s"]
    assert table.loc[first.run_id, "goodput_bps"] == pytest.approx(direct.flows["goodput_bytes"].sum() * 8 / window)
    # sweep.parquet is the same table; sweep.json lists the runs.
    pd.testing.assert_frame_equal(load_sweep(out), table, check_dtype=False)
    record = json.loads((out / "sweep.json").read_text())
    assert [r["run_id"] for r in record["runs"]] == list(table.index)
    assert table.attrs["sweep"]["computed"] == len(runs)


def test_rerun_reuses_everything(small_sweep, tmp_path):
    out = tmp_path / "out"
    run_sweep(small_sweep, out, workers=2, progress=False)
    before = _attempts(out)
    again = run_sweep(small_sweep, out, workers=2, progress=False)
    assert again["reused"].all()
    assert _attempts(out) == before


def test_resume_recomputes_only_missing_partial_and_damaged_runs(small_sweep, tmp_path):
    out = tmp_path / "out"
    first = run_sweep(small_sweep, out, workers=2, progress=False)
    before = _attempts(out)
    ids = list(first.index)
    runs_dir = out / "runs"
    # 1. a run directory deleted
    import shutil

    shutil.rmtree(runs_dir / ids[0])
    # 2. a crash while writing: files but no run.json (the marker is written last)
    (runs_dir / ids[1] / "run.json").unlink()
    # 3. a damaged file: its size no longer matches what run.json recorded
    with open(runs_dir / ids[2] / "timeseries.parquet", "r+b") as f:
        f.truncate(10)
    # 4. a half-written temporary directory left by a killed worker
    (runs_dir / f".tmp-{ids[3]}-999-deadbeef").mkdir()
    (runs_dir / f".tmp-{ids[3]}-999-deadbeef" / "flows.parquet").write_bytes(b"PAR1")
    # ... and sweep.parquet lost, with the half-written copies of the killed writes
    (out / "sweep.parquet").unlink()
    (out / ".sweep.parquet.999.deadbeef.tmp").write_bytes(b"PAR1")
    (out / ".sweep.json.999.deadbeef.tmp").write_text("{")
    (runs_dir / f".tmp-{ids[3]}-998-deadbeef").write_bytes(b"")  # a file, not a directory

    again = run_sweep(small_sweep, out, workers=2, progress=False)
    after = _attempts(out)
    recomputed = {rid for rid in ids if after[rid] != before.get(rid)}
    assert recomputed == set(ids[:3])
    assert set(again.index[~again["reused"]]) == set(ids[:3])
    assert list(again.index) == ids
    _assert_complete(out, again)
    pd.testing.assert_frame_equal(
        again.drop(columns=["reused", "wall_s"]), first.drop(columns=["reused", "wall_s"]))
    assert (out / "sweep.parquet").exists()
    # resuming removed every temporary file (only the lock file starts with a dot)
    hidden = [p.name for d in (out, runs_dir) for p in d.iterdir() if p.name.startswith(".")]
    assert hidden == [".sweep.lock"]


def test_a_killed_sweep_resumes_without_redoing_or_losing_work(tmp_path, small_scenario):
    """SIGKILL a sweep process (and its workers) mid-sweep, then run it again."""
    base = tmp_path / "base.toml"
    # ~0.1-0.3 s per run so the kill lands mid-sweep
    base.write_text(small_scenario.replace('duration = "5s"', 'duration = "60s"'))
    spec = tmp_path / "spec.toml"
    spec.write_text('[sweep]\nbase = "base.toml"\nseeds = [1, 2, 3, 4, 5, 6]\n'
                    '[sweep.grid]\n"flow[*].recovery" = ["reno", "newreno"]\n')
    out = tmp_path / "out"
    script = ("import sys; from tcpsim.sweep import run_sweep; "
              f"run_sweep({str(spec)!r}, {str(out)!r}, workers=2, progress=False)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PKG_PARENT, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and proc.poll() is None:
            if (out / "runs").is_dir() and len(_attempts(out)) >= 3:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the sweep finished before it could be killed: " + proc.stderr.read().decode()
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    time.sleep(0.2)
    survived = _attempts(out)
    assert 3 <= len(survived) < 12
    assert not (out / "sweep.parquet").exists()

    table = run_sweep(Sweep.from_spec(spec), out, workers=2, progress=False)
    assert len(table) == 12 and table.index.is_unique
    assert set(table.index[table["reused"]]) == set(survived)
    after = _attempts(out)
    assert all(after[rid] == survived[rid] for rid in survived)  # not redone
    _assert_complete(out, table)


def test_failed_runs_are_reported_kept_and_retried_alone(small_sweep, tmp_path, monkeypatch):
    out = tmp_path / "out"
    from tcpsim.sweep import executors

    real = executors._execute

    def flaky(task):
        if task["params"]["seed"] == 2:
            raise RuntimeError("boom")
        return real(task)

    monkeypatch.setattr(executors, "_execute", flaky)
    with pytest.raises(SweepError) as err:
        run_sweep(small_sweep, out, workers=1, progress=False)
    assert "4 of 8 runs failed" in str(err.value) and "RuntimeError: boom" in str(err.value)
    assert len(err.value.failures) == 4 and len(err.value.results) == 4
    assert not (out / "sweep.parquet").exists()
    done = _attempts(out)
    assert len(done) == 4

    monkeypatch.setattr(executors, "_execute", real)
    table = run_sweep(small_sweep, out, workers=1, progress=False)
    assert len(table) == 8
    assert set(table.index[table["reused"]]) == set(done)
    assert set(table.index[~table["reused"]]) == set(err.value.failures)


def test_custom_metrics_and_progress_callback(small_sweep, tmp_path):
    seen = []

    def extra(res):
        return {"reno_goodput": float(res.flows.set_index("name").loc["reno", "goodput_bps"])}

    table = run_sweep(small_sweep, tmp_path / "o", workers=1,
                      progress=lambda done, total: seen.append((done, total)), metrics=extra)
    assert "reno_goodput" in table.columns and (table["reno_goodput"] > 0).all()
    assert seen[0] == (0, 8) and seen[-1] == (8, 8) and len(seen) == 9
    # reused runs get custom metrics too
    again = run_sweep(small_sweep, tmp_path / "o", progress=False, metrics=extra)
    assert again["reno_goodput"].tolist() == table["reno_goodput"].tolist()


def test_progress_bar_goes_to_stderr(small_sweep, tmp_path, capsys):
    run_sweep(small_sweep, tmp_path / "o", workers=1, progress=True)
    err = capsys.readouterr().err
    assert "8/8" in err and "run" in err


def test_one_sweep_at_a_time_per_directory(small_sweep, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    with sweep_mod._Lock(out):
        with pytest.raises(SweepError, match="another sweep is writing"):
            run_sweep(small_sweep, out, workers=1, progress=False)


def test_parameter_columns_keep_types_or_become_toml_text(small_scenario, tmp_path):
    sw = Sweep(small_scenario, grid={
        "dumbbell.bottleneck.queue.max_p": [0.1, 1],
        "dumbbell.bottleneck.queue.gentle": [True, False],
        "dumbbell.bottleneck.queue.limit": ["50p", "60p"],
        "dumbbell.access_delays": [["1ms", "2ms"]],
    })
    table = run_sweep(sw, tmp_path / "o", workers=1, progress=False)
    assert table["dumbbell.bottleneck.queue.max_p"].dtype == float
    assert table["dumbbell.bottleneck.queue.gentle"].dtype == bool
    assert table["dumbbell.access_delays"].iloc[0] == '["1ms", "2ms"]'
    pd.testing.assert_frame_equal(load_sweep(tmp_path / "o"), table, check_dtype=False)


# ------------------------------------------------------------------------ CLI


def _cli(*argv):
    parser = argparse.ArgumentParser(prog="tcpsim")
    sub = parser.add_subparsers(dest="command")
    sweep_mod.add_cli(sub)
    args = parser.parse_args(["sweep", *map(str, argv)])
    assert args.command == "sweep"
    return sweep_mod.cli_main(args)


def test_cli_runs_a_spec_and_prints_means(tmp_path, small_scenario, capsys):
    spec = _spec(tmp_path, 'seeds = [1, 2]\n[sweep.grid]\n"flow[*].recovery" = ["reno", "newreno"]\n',
                 small_scenario)
    out = tmp_path / "out"
    assert _cli(spec, "--out", out, "--workers", "2") == 0
    printed = capsys.readouterr().out
    assert "flow[*].recovery" in printed and "goodput Mbps" in printed and "Jain" in printed
    assert "4 runs (4 computed, 0 reused)" in printed
    assert len(load_sweep(out)) == 4
    assert _cli(spec, "--out", out) == 0
    assert "4 runs (0 computed, 4 reused)" in capsys.readouterr().out


def test_cli_connect_timeout_is_handed_to_the_executor(tmp_path, small_scenario, capsys,
                                                       monkeypatch):
    """``--connect-timeout`` travels as an argument from the command to the Dask
    connection; without it the connection waits ``TCPSIM_CONNECT_TIMEOUT`` seconds."""
    pytest.importorskip("distributed")
    from tcpsim.sweep import executors

    waited = []

    def unreachable(distributed, scheduler, timeout):
        waited.append(timeout)
        raise SweepError(f"cannot connect to the Dask scheduler {scheduler}: refused")

    monkeypatch.setattr(executors, "_connect", unreachable)
    spec = _spec(tmp_path, 'seeds = [1]\n', small_scenario)
    args = ["--out", tmp_path / "out", "--scheduler", "tcp://127.0.0.1:1"]
    assert _cli(spec, *args, "--connect-timeout", "7.5") == 1
    monkeypatch.setenv("TCPSIM_CONNECT_TIMEOUT", "3")
    assert _cli(spec, *args) == 1
    monkeypatch.delenv("TCPSIM_CONNECT_TIMEOUT")
    assert _cli(spec, *args) == 1
    assert waited == [7.5, 3.0, executors.DEFAULT_CONNECT_TIMEOUT]
    assert _cli(spec, *args, "--connect-timeout", "0") == 2
    assert "--connect-timeout must be a positive number" in capsys.readouterr().err


def test_cli_quiet_and_dry_run(tmp_path, small_scenario, capsys):
    spec = _spec(tmp_path, 'seeds = [1, 2]\n', small_scenario)
    out = tmp_path / "out"
    assert _cli(spec, "--out", out, "--dry-run") == 0
    listing = capsys.readouterr().out
    rows = [line.split() for line in listing.splitlines() if line.startswith("  ")]
    assert "2 runs" in listing and [r[1:3] for r in rows] == [["to", "run"]] * 2
    assert not out.exists()
    assert _cli(spec, "--out", out, "-q") == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert _cli(spec, "--out", out, "--dry-run") == 0
    listing = capsys.readouterr().out
    assert [line.split()[1] for line in listing.splitlines() if line.startswith("  ")] == ["finished"] * 2
    assert "2 finished, 0 to run" in listing


def test_cli_bad_spec_exits_2_with_a_plain_message(tmp_path, small_scenario, capsys):
    spec = _spec(tmp_path, '[sweep.grid]\n"dumbbell.bottleneck.queue.max_thh" = [30]\n', small_scenario)
    assert _cli(spec, "--out", tmp_path / "o") == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpsim: error: ") and "max_thh" in err and "myspec.toml" in err
    assert "Traceback" not in err
    assert _cli(tmp_path / "nope.toml") == 2
    assert "cannot read sweep spec" in capsys.readouterr().err
    assert _cli(spec, "--workers", "0") == 2


def test_cli_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exit_:
        _cli("--help")
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text and "--scheduler" in text and "tcpsim sweep examples/sweep_red.toml" in text


def test_example_spec_expands_and_validates(repo_root):
    sw = Sweep.from_spec(repo_root / "examples" / "sweep_red.toml")
    assert len(sw.runs()) == 36
    assert sw.name == "sweep_red"


# ---------------------------------------------------------------------------- registry keys


def _toml_of(sweep: Sweep, i: int = 0) -> dict:
    return tomllib.loads(sweep.runs()[i].toml_text)


@pytest.mark.parametrize("grid, message", [
    ({"flow[0].max_windw": [10]}, "a flow has no key 'max_windw'; did you mean 'max_window'?"),
    ({"dumbbell.bottleneck.queue.maxp": [0.1]}, "no queue discipline has a parameter 'maxp'; did you mean 'max_p'?"),
    ({"flow[*].receiver.timout": ["1ms"]}, "did you mean 'timeout'?"),
    # The base's flows use the default receiver, which has no timeout.
    ({"flow[*].receiver.timeout": ["40ms"]},
     "'timeout' is a parameter of TCP receiver 'delayed', but 'flow[*].receiver' is 'every_packet' in the base"),
    # The base's access queue is the default DropTail.
    ({"dumbbell.access.queue.max_p": [0.2]}, "'dumbbell.access.queue' is 'droptail' in the base"),
])
def test_grid_keys_are_checked_against_the_registry(small_scenario, grid, message):
    with pytest.raises(ScenarioError) as err:
        Sweep(small_scenario, grid=grid, source="spec.toml")
    assert str(err.value).startswith(f"spec.toml, [sweep.grid] key '{next(iter(grid))}': ")
    assert message in str(err.value)


def test_a_grid_that_also_chooses_the_model_may_set_its_parameters(small_scenario):
    sw = Sweep(small_scenario, grid={"flow[*].receiver": ["delayed"], "flow[*].receiver.timeout": ["40ms", "1ms"]})
    assert _toml_of(sw)["flow"][0]["receiver"] == {"kind": "delayed", "timeout": "40ms"}


def test_a_model_named_in_the_base_takes_parameters(small_scenario):
    base = small_scenario.replace('recovery = "reno"', 'recovery = "reno"\nreceiver = "delayed"')
    sw = Sweep(base, grid={"flow[0].receiver.timeout": ["40ms", "200ms"]})
    assert _toml_of(sw, 1)["flow"][0]["receiver"] == {"kind": "delayed", "timeout": "200ms"}


def test_a_profile_flows_models_take_parameters_and_keep_the_profiles_values(small_scenario):
    # profile = "linux" gives the flow a delayed SACK receiver (tcp/profile.rs): a grid key
    # of its parameters applies, and the table written for the run keeps the profile's
    # other values (sack = true, which its PRR recovery needs).
    base = small_scenario.replace('recovery = "reno"', 'profile = "linux"', 1)
    sw = Sweep(base, grid={"flow[0].receiver.timeout": ["40ms", "200ms"]})
    receiver = _toml_of(sw, 1)["flow"][0]["receiver"]
    assert receiver["kind"] == "delayed" and receiver["sack"] is True and receiver["timeout"] == "200ms"


def test_a_vegas_flows_recovery_is_vegas_when_it_names_none(small_scenario):
    # The second flow names cc = "vegas" and no recovery: the core gives it Vegas' own
    # recovery (the window control's relations.default_recovery), so Vegas' recovery
    # parameters apply to it, and NewReno's default does not.
    base = small_scenario.replace('recovery = "newreno"', 'cc = "vegas"')
    sw = Sweep(base, grid={"flow[1].recovery.resend_unsent": [False, True]})
    assert _toml_of(sw)["flow"][1]["recovery"] == {"kind": "vegas", "resend_unsent": False}
    # A Reno flow's recovery is the family default, which has no such parameter.
    with pytest.raises(ScenarioError, match="'flow\\[0\\].recovery' is 'reno' in the base"):
        Sweep(small_scenario, grid={"flow[0].recovery.resend_unsent": [False]})
    with pytest.raises(ScenarioError, match="'flow\\[1\\].recovery' is 'newreno' in the base"):
        Sweep(small_scenario.replace('recovery = "newreno"', 'cc = "reno"'), grid={"flow[1].recovery.resend_unsent": [False]})


def test_relations_come_from_the_core():
    from tcpsim import models

    assert models.get("cc", "vegas").relations.default_recovery == "vegas"
    assert models.get("cc", "fast").relations.default_recovery == "sack1"
    assert models.get("cc", "reno").relations.default_recovery is None
    assert [m.name for m in models.models("recovery") if m.relations.reads_sack] == ["sack1", "fack", "prr"]
    assert models.get("agent", "tcp").relations.selects == ("cc", "recovery", "receiver")
    assert models.default_in(models.family("recovery"), {"cc": {"kind": "quick_vegas"}}) == "vegas"
    assert models.default_in(models.family("recovery"), {}) == "newreno"
    # a flow's TCP profile comes first (tcp/profile.rs, read through the registry)
    assert models.default_in(models.family("recovery"), {"profile": "linux"}) == "prr"
    assert models.default_in(models.family("receiver"), {"profile": "linux"}) == "delayed"
    # tcpsim models and the docs' tables say them in the core's words.
    from tcpsim.models_cli import format_model

    assert models.get("cc", "fast").relations.text == ("a flow that names no `recovery` gets `sack1`",)
    assert "relation: a flow that names no `recovery` gets `sack1`" in format_model(models.get("cc", "fast"))
    assert "Relations (`relations` in the spec): reads SACK blocks" in models.get("recovery", "fack").markdown_table()


def test_parameters_of_a_defaulted_model_apply_to_the_model_in_effect(small_scenario):
    # No access queue in the base: the default DropTail gets the limit.
    sw = Sweep(small_scenario, grid={"dumbbell.access.queue.limit": ["10p", "20p"]})
    assert _toml_of(sw)["dumbbell"]["access"]["queue"] == {"kind": "droptail", "limit": "10p"}
    # No queue_reverse: it is the forward queue (RED here), with the parameter changed.
    sw = Sweep(small_scenario, grid={"dumbbell.bottleneck.queue_reverse.max_p": [0.2]})
    reverse = _toml_of(sw)["dumbbell"]["bottleneck"]["queue_reverse"]
    assert reverse == {"kind": "red", "limit": "50p", "min_th": 5, "max_th": 15, "max_p": 0.2}


# ------------------------------------------------------------------ overrides on the base


def test_overrides_apply_to_the_base_before_the_grid(tmp_path, small_scenario):
    spec = _spec(tmp_path, '[sweep.grid]\n"flow[*].recovery" = ["reno", "newreno"]\n', small_scenario)
    plain = Sweep.from_spec(spec)
    changed = Sweep.from_spec(spec, overrides={"dumbbell.bottleneck.rate": "2Mbps", "simulation.seed": 4})
    assert len(changed.runs()) == 2
    for run in changed.runs():
        doc = tomllib.loads(run.toml_text)
        assert doc["dumbbell"]["bottleneck"]["rate"] == "2Mbps" and doc["simulation"]["seed"] == 4
        assert run.params["seed"] == 4
    assert {r.run_id for r in plain.runs()}.isdisjoint(r.run_id for r in changed.runs())
    table = run_sweep(changed, tmp_path / "o", workers=1, progress=False)
    assert json.loads((tmp_path / "o" / "sweep.json").read_text())["overrides"] == {
        "dumbbell.bottleneck.rate": "2Mbps", "simulation.seed": 4}
    assert (table["goodput_bps"] < 2e6).all()


@pytest.mark.parametrize("body, flags, message", [
    ('seeds = [1, 2]\n', ["--seed", "3"],
     "myspec.toml, --seed 3: the sweep's seeds ([1, 2]) set each run's seed; leave out the override"),
    ('seeds = [1, 2]\n', ["--set", "simulation.seed=3"],
     "myspec.toml, --set 'simulation.seed=3': the sweep's seeds ([1, 2]) set each run's seed"),
    ('[sweep.grid]\n"flow[*].recovery" = ["reno"]\n', ["--set", "flow[*].recovery=newreno"],
     "myspec.toml, --set 'flow[*].recovery=newreno': [sweep.grid] varies 'flow[*].recovery', so each "
     "run replaces the override"),
    ('', ["--set", "flow[4].cc=vegas"],
     "myspec.toml, --set 'flow[4].cc=vegas': index 4 is out of range: 'flow' has 2 elements"),
    ('', ["--set", "dumbbell.bottleneck.queue.max_thh=30"],
     "myspec.toml, --set 'dumbbell.bottleneck.queue.max_thh=30': no queue discipline has a parameter "
     "'max_thh'; did you mean 'max_th'?"),
    ('', ["--set", "dumbbell.bottleneck.queue.min_th=30"],
     "myspec.toml: base scenario: ", ),
])
def test_sweep_override_errors(tmp_path, small_scenario, capsys, body, flags, message):
    spec = _spec(tmp_path, body, small_scenario)
    assert _cli(spec, "--dry-run", *flags) == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpsim: error: ") and message in err, err


def test_seed_override_on_a_sweep_without_seeds(tmp_path, small_scenario, capsys):
    spec = _spec(tmp_path, '[sweep.grid]\n"flow[*].recovery" = ["reno", "newreno"]\n', small_scenario)
    assert _cli(spec, "--dry-run", "--seed", "9") == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(rows) == 2 and all("seed=9" in r for r in rows)


def test_min_th_override_error_names_the_flag_and_key(tmp_path, small_scenario):
    spec = _spec(tmp_path, '', small_scenario)
    with pytest.raises(ScenarioError) as e:
        Sweep.from_spec(spec, overrides={"dumbbell.bottleneck.queue.min_th": 30})
    assert "myspec.toml: base scenario: " in str(e.value)
    assert ("base.toml, overrides['dumbbell.bottleneck.queue.min_th'], key "
            "'dumbbell.bottleneck.queue.max_th': expected max_th greater than min_th (30)") in str(e.value)


# ------------------------------------------------------------------ groups of flows


GROUPED_BASE = """\
[simulation]
duration = "4s"
[dumbbell]
pairs = 4
access_delays = ["1ms", "2ms", "3ms", "20ms"]
[dumbbell.bottleneck]
rate = "5Mbps"
delay = "10ms"
queue = { kind = "red", limit = "50p", min_th = 5, max_th = 15 }
[dumbbell.access]
rate = "100Mbps"
delay = "1ms"
[[flow]]
name = "vegas"
count = 2
from = "s{i}"
to = "d{i}"
cc = "vegas"
[[flow]]
name = "reno"
count = 2
from = "s{i+2}"
to = "d{i+2}"
"""


def test_groups_by_a_flows_column_give_goodput_share_and_jain_per_group(tmp_path):
    spec = _spec(tmp_path, 'seeds = [1, 2]\n[sweep.grid]\n"dumbbell.bottleneck.queue.max_p" = [0.1, 0.5]\n'
                           '[sweep.groups]\nby = "cc"\n', GROUPED_BASE)
    out = tmp_path / "o"
    table = run_sweep(spec, out, workers=1, progress=False)
    cols = [f"{g}.{m}" for g in ("reno", "vegas") for m in ("flows", "goodput_bps", "goodput_share", "jain_index")]
    assert [c for c in table.columns if c.startswith(("reno.", "vegas."))] == cols
    assert (table["reno.flows"] == 2).all() and (table["vegas.flows"] == 2).all()
    share = table["reno.goodput_share"] + table["vegas.goodput_share"]
    assert share.round(12).eq(1.0).all()
    gp = table["reno.goodput_bps"] + table["vegas.goodput_bps"]
    assert ((gp - table["goodput_bps"]).abs() < 1e-6 * table["goodput_bps"]).all()
    for rid in table.index:  # each group's Jain index from the run's own flows table
        flows = tcpsim.load_results(out / "runs" / rid).flows
        for g in ("reno", "vegas"):
            expected = tcpsim.metrics.jain_index(flows[flows["cc"] == g]["goodput_bps"])
            assert table.loc[rid, f"{g}.jain_index"] == pytest.approx(expected)
        reno_bytes = flows[flows["cc"] == "reno"]["goodput_bytes"].sum()
        assert table.loc[rid, "reno.goodput_share"] == pytest.approx(reno_bytes / flows["goodput_bytes"].sum())
    assert json.loads((out / "sweep.json").read_text())["groups"] == {"by": "cc"}
    # reused runs get the columns too, and plots take them as --y
    assert run_sweep(spec, out, progress=False)["vegas.goodput_share"].tolist() == table["vegas.goodput_share"].tolist()
    from tcpsim import cli

    assert cli.main(["plot", str(out), "--y", "vegas.goodput_share,reno.jain_index"]) == 0
    assert (out / "sweep_vegas.goodput_share.png").exists() and (out / "sweep_reno.jain_index.png").exists()
    from tcpsim.plots.sweep_table import _axis_label, _upper_bound

    assert _axis_label("vegas.goodput_share") == "goodput share of group vegas"
    assert _axis_label("reno.goodput_bps") == "goodput of group reno (Mbit/s)"
    assert _upper_bound("reno.jain_index") == 1.0 and _upper_bound("reno.goodput_bps") is None


def test_groups_by_flow_name_patterns_may_overlap_and_warn_when_empty(tmp_path, capsys):
    spec = _spec(tmp_path, '[sweep.groups.flows]\nfirst = "vegas_0"\nall = ["vegas*", "reno*"]\n'
                           'nobody = "cubic*"\n', GROUPED_BASE)
    out = tmp_path / "o"
    assert _cli(spec, "--out", out, "--workers", "1") == 0
    captured = capsys.readouterr()
    assert "first share" in captured.out and "all share" in captured.out
    assert ("tcpsim: warning: myspec: group 'nobody' (cubic*) of [sweep.groups.flows] matched no "
            "flow in any run; patterns match flow names such as vegas_0, vegas_1, reno_0, reno_1") in captured.err
    row = load_sweep(out).iloc[0]
    assert row["first.flows"] == 1 and row["first.jain_index"] == 1.0
    assert row["all.flows"] == 4 and row["all.goodput_share"] == pytest.approx(1.0)
    assert row["all.jain_index"] == pytest.approx(row["jain_index"])
    assert row["nobody.flows"] == 0 and row["nobody.goodput_share"] == 0
    with pytest.warns(sweep_mod.GroupWarning, match="'nobody'"):
        run_sweep(spec, out, progress=False)


@pytest.mark.parametrize("groups, expected", [
    ('by = "cca"', "myspec.toml, line 4, key 'sweep.groups.by': expected a column of the flows table, one "
                   "of 'type', 'from', 'to', 'recovery', 'cc', 'group', got \"cca\"; did you mean 'cc'?"),
    ('by = "name"', "to group flows by name, give [sweep.groups.flows] patterns"),
    ('by = ["cc"]', "key 'sweep.groups.by': expected a column of the flows table"),
    ('bye = "cc"', "myspec.toml, line 3, key 'sweep.groups': unknown key 'bye'; did you mean 'by'?"),
    ('by = "cc"\nflows = { a = "x*" }', "key 'sweep.groups': expected one of 'by' and 'flows'"),
    ('', "key 'sweep.groups': expected one of 'by' and 'flows'"),
    ('flows = {}', "key 'sweep.groups.flows': expected a table of group name = flow-name pattern(s)"),
    ('flows = { "a.b" = "x*" }', "key 'sweep.groups.flows.a.b': a group name is letters, digits, '_' and '-'"),
    ('flows = { a = 3 }', "myspec.toml, line 4, key 'sweep.groups.flows.a': expected a flow-name pattern "
                          "such as \"vegas*\", or a list of them, got 3"),
    ('flows = { a = [] }', "key 'sweep.groups.flows.a': expected a flow-name pattern"),
    ('flows = { seed = "x*" }', None),  # 'seed.flows' is no column: allowed
])
def test_bad_groups_name_the_spec_line_and_key(tmp_path, small_scenario, groups, expected):
    spec = _spec(tmp_path, f"[sweep.groups]\n{groups}\n", small_scenario)
    if expected is None:
        assert Sweep.from_spec(spec).groups.flows == {"seed": ["x*"]}
        return
    with pytest.raises(ScenarioError) as e:
        Sweep.from_spec(spec)
    assert expected in str(e.value), str(e.value)


def test_groups_must_be_a_table(tmp_path, small_scenario):
    spec = _spec(tmp_path, 'groups = "cc"\n', small_scenario)
    with pytest.raises(ScenarioError, match=r"myspec.toml, line 3, key 'sweep.groups': expected a table"):
        Sweep.from_spec(spec)


def test_group_columns_may_not_repeat_a_grid_column(small_scenario):
    with pytest.raises(ScenarioError, match="its column 'x.flows' is already a column of the sweep table"):
        Sweep(small_scenario, grid={"x.flows": [1]}, groups={"flows": {"x": "reno"}})


def test_example_groups_spec_expands(repo_root):
    sweep = Sweep.from_spec(repo_root / "examples" / "sweep_groups.toml")
    assert len(sweep.runs()) == 12 and sweep.groups.by == "recovery"
