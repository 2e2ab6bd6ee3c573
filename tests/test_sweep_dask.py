"""Sweeps on a real Dask cluster: a scheduler and two workers started by these tests as
separate processes on 127.0.0.1, one of them SIGKILLed while it runs a simulation.

Skipped when dask.distributed is not installed (pip install "dask[distributed]")."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

distributed = pytest.importorskip(
    "distributed", reason='the Dask executor needs dask.distributed: pip install "dask[distributed]"'
)

import tcpsim  # noqa: E402
from tcpsim import sweep as sweep_mod  # noqa: E402
from tcpsim.sweep import Sweep, run_sweep  # noqa: E402

# The workers import the same tcpsim as this test process.
PKG_PARENT = str(Path(tcpsim.__file__).resolve().parents[1])
STARTUP_TIMEOUT = 60

# Four TCP flows over a 100 Mbps RED dumbbell: ~0.3-1 s of wall time per run, long enough
# for a worker to be killed in the middle of one.
SCENARIO = """\
[simulation]
duration = "50s"
seed = 1

[dumbbell]
pairs = 4

[dumbbell.bottleneck]
rate = "100Mbps"
delay = "20ms"
queue = { kind = "red", limit = "100p", min_th = 10, max_th = 30 }

[dumbbell.access]
rate = "1Gbps"
delay = "2ms"

[[flow]]
count = 4
name = "tcp{i}"
from = "s{i}"
to = "d{i}"
max_window = 1000
"""


class Cluster:
    """`dask scheduler` and `dask worker` processes on loopback, logs in `workdir`."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in [PKG_PARENT, os.environ.get("PYTHONPATH", "")] if p))
        self.env.pop("DASK_SCHEDULER_ADDRESS", None)
        self.procs: dict = {}
        self.logs: list = []
        sched_file = workdir / "scheduler.json"
        self._start("scheduler", [
            "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
            "--no-dashboard", "--scheduler-file", str(sched_file),
        ])
        deadline = time.time() + STARTUP_TIMEOUT
        self.address = None
        while time.time() < deadline:
            self._check_alive("scheduler")
            try:
                self.address = json.loads(sched_file.read_text())["address"]
                break
            except (OSError, ValueError, KeyError):
                time.sleep(0.05)
        if self.address is None:
            raise RuntimeError("the Dask scheduler did not start:\n" + self.log("scheduler"))

    def _start(self, name: str, args: list) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "wb")
        self.logs.append(log)
        proc = subprocess.Popen([sys.executable, *args], env=self.env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=self.workdir)
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        try:
            return (self.workdir / f"{name}.log").read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def _check_alive(self, name: str) -> None:
        if self.procs[name].poll() is not None:
            raise RuntimeError(f"dask {name} exited with {self.procs[name].returncode}:\n" + self.log(name))

    def start_worker(self, name: str) -> subprocess.Popen:
        # --no-nanny: the process is the worker itself, so killing it kills the worker
        # (a nanny would restart it).
        return self._start(name, [
            "-m", "distributed.cli.dask_worker", self.address, "--host", "127.0.0.1",
            "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--name", name,
            "--no-dashboard", "--memory-limit", "0", "--death-timeout", "60",
            "--local-directory", str(self.workdir),
        ])

    def live_workers(self, client) -> dict:
        """name -> address of the workers the scheduler knows."""
        return {w["name"]: addr for addr, w in client.scheduler_info(n_workers=-1)["workers"].items()}

    def wait_for_workers(self, names, timeout: float = STARTUP_TIMEOUT) -> None:
        with distributed.Client(self.address, timeout=timeout, set_as_default=False) as c:
            deadline = time.time() + timeout
            while not set(names) <= set(self.live_workers(c)):
                for n in names:
                    self._check_alive(n)
                if time.time() > deadline:
                    raise RuntimeError(f"Dask workers {names} did not join:\n"
                                       + "\n".join(self.log(n) for n in names))
                time.sleep(0.05)

    def stop(self) -> None:
        workers = [n for n in self.procs if n != "scheduler"]
        for name in workers + ["scheduler"]:
            proc = self.procs[name]
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        for log in self.logs:
            log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("dask")
    c = Cluster(workdir)
    try:
        for name in ("w0", "w1"):
            c.start_worker(name)
        c.wait_for_workers(["w0", "w1"])
        yield c
    finally:
        c.stop()


@pytest.fixture
def two_workers(cluster):
    """The cluster with two live workers (restarting any killed by an earlier test)."""
    with distributed.Client(cluster.address, timeout=30, set_as_default=False) as c:
        live = cluster.live_workers(c)
    names = sorted(n for n, p in cluster.procs.items() if n != "scheduler" and p.poll() is None and n in live)
    k = len(cluster.procs)
    while len(names) < 2:
        name = f"w{k}"
        k += 1
        cluster.start_worker(name)
        names.append(name)
    cluster.wait_for_workers(names)
    return cluster


def _sweep(seeds, duration: str = "50s") -> Sweep:
    return Sweep(SCENARIO.replace('"50s"', f'"{duration}"'), grid={"flow[*].recovery": ["reno", "newreno"]},
                 seeds=seeds, name="dask")


def _markers(out: Path) -> dict:
    found = {}
    for d in (out / "runs").iterdir():
        if not d.name.startswith(".") and (d / "run.json").exists():  # not a .tmp-* being written
            found[d.name] = json.loads((d / "run.json").read_text())
    return found


def _assert_complete(out: Path, table, expected_ids) -> None:
    assert list(table.index) == list(expected_ids)
    assert table.index.is_unique
    for rid in table.index:
        d = out / "runs" / rid
        assert sweep_mod.is_finished(d), rid
        res = tcpsim.load_results(d)
        assert len(res.flows) == 4 and (res.flows["goodput_bps"] > 0).all()
    runs_dir_entries = {p.name for p in (out / "runs").iterdir()}
    assert runs_dir_entries == set(expected_ids)  # no leftovers, no extra copies


def test_worker_killed_mid_sweep_every_run_exactly_once(two_workers, tmp_path):
    cluster = two_workers
    sweep = _sweep(seeds=list(range(1, 7)))  # 12 runs
    ids = [r.run_id for r in sweep.runs()]
    out = tmp_path / "out"
    outcome: dict = {}

    def target():
        try:
            outcome["table"] = run_sweep(sweep, out, scheduler=cluster.address, progress=False)
        except BaseException as e:  # reported by the test thread
            outcome["error"] = e

    with distributed.Client(cluster.address, timeout=30, set_as_default=False) as observer:
        names = cluster.live_workers(observer)
        victim = sorted(n for n in names if cluster.procs[n].poll() is None)[0]
        thread = threading.Thread(target=target, daemon=True)
        started = time.time()
        thread.start()

        # Wait until some runs are done and the victim is in the middle of one.
        killed_key = None
        deadline = time.time() + 60
        while time.time() < deadline and thread.is_alive():
            busy = observer.processing().get(names[victim], ())
            done = len(_markers(out)) if (out / "runs").is_dir() else 0
            if done >= 2 and busy:
                # let the simulation get going, then kill the worker
                time.sleep(0.1)
                busy = observer.processing().get(names[victim], ())
                if busy:
                    killed_key = busy[0]
                    killed_at = time.time()
                    cluster.procs[victim].send_signal(signal.SIGKILL)
                    break
            time.sleep(0.02)
        assert killed_key is not None, "no chance to kill a worker mid-task: " + repr(outcome)
        cluster.procs[victim].wait(10)

        thread.join(120)
        assert not thread.is_alive(), "the sweep did not finish within 120 s of the kill"
        assert "error" not in outcome, outcome.get("error")
        elapsed = time.time() - started

        # The scheduler noticed the worker is gone.
        assert victim not in cluster.live_workers(observer)

    table = outcome["table"]
    assert len(table) == 12
    _assert_complete(out, table, ids)
    assert not table["reused"].any()
    markers = _markers(out)
    killed_rid = killed_key.replace("tcpsim-run-", "")
    assert killed_rid in ids
    # The run the victim was computing was computed again, by a surviving worker (unless,
    # against the odds, it finished in the millisecond between the check and the kill).
    killed = markers[killed_rid]
    finished = datetime.fromisoformat(killed["finished_at"]).timestamp()
    assert killed["pid"] != cluster.procs[victim].pid or finished <= killed_at
    assert any(m["pid"] != cluster.procs[victim].pid for m in markers.values())
    # Every run computed once (one marker each, and the table agrees).
    assert sorted(markers) == sorted(ids)
    assert table.attrs["sweep"]["computed"] == 12
    print(f"\ndask sweep of 12 runs with a worker killed: {elapsed:.1f} s; "
          f"run wall times {table['wall_s'].min():.2f}-{table['wall_s'].max():.2f} s")


def test_dask_client_resumes_a_local_sweep_and_cli_scheduler(two_workers, tmp_path, capsys):
    cluster = two_workers
    out = tmp_path / "out"
    half = run_sweep(_sweep(seeds=[1, 2], duration="5s"), out, workers=2, progress=False)
    before = {rid: m["attempt"] for rid, m in _markers(out).items()}

    full = _sweep(seeds=[1, 2, 3], duration="5s")
    with distributed.Client(cluster.address, timeout=30, set_as_default=False) as client:
        table = run_sweep(full, out, client=client, progress=False)
        assert client.status == "running"  # a client passed in is not closed
    _assert_complete(out, table, [r.run_id for r in full.runs()])
    assert set(table.index[table["reused"]]) == set(half.index)
    after = {rid: m["attempt"] for rid, m in _markers(out).items()}
    assert all(after[rid] == before[rid] for rid in before)
    # Same numbers as a plain tcpsim.run of the same scenario: the simulator is deterministic.
    for run in full.runs():
        if run.run_id not in before:
            direct = tcpsim.run(run.toml_text)
            assert table.loc[run.run_id, "goodput_bps"] == direct.summary["aggregate_goodput_bps"]
            assert table.loc[run.run_id, "events"] == direct.summary["events"]

    # The CLI entry point with --scheduler.
    spec = tmp_path / "spec.toml"
    (tmp_path / "base.toml").write_text(SCENARIO.replace('"50s"', '"5s"'))
    spec.write_text('[sweep]\nbase = "base.toml"\nseeds = [1, 2]\n')
    parser = argparse.ArgumentParser(prog="tcpsim")
    sweep_mod.add_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["sweep", str(spec), "--out", str(tmp_path / "cli"),
                              "--scheduler", cluster.address, "--workers", "2"])
    assert sweep_mod.cli_main(args) == 0
    assert "2 runs (2 computed, 0 reused)" in capsys.readouterr().out
    assert len(sweep_mod.load_sweep(tmp_path / "cli")) == 2


def test_unreachable_scheduler_is_a_sweep_error(tmp_path, monkeypatch):
    import socket

    with socket.socket() as s:  # a free port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(sweep_mod.SweepError, match="cannot connect to the Dask scheduler"):
        run_sweep(_sweep(seeds=[1]), tmp_path / "o", scheduler=f"tcp://127.0.0.1:{port}",
                  connect_timeout=2, progress=False)
    monkeypatch.setenv("TCPSIM_CONNECT_TIMEOUT", "2")  # the default when none is given
    with pytest.raises(sweep_mod.SweepError, match="cannot connect to the Dask scheduler"):
        run_sweep(_sweep(seeds=[1]), tmp_path / "o", scheduler=f"tcp://127.0.0.1:{port}",
                  progress=False)


# ---------------------------------------------------------------- tcpsim reproduce: traced runs

#: A reproduction document (docs/reproducing.md) small enough for a test: one Reno or
#: Vegas flow against CBR at two rates, 5 s runs, the TCP path traced in every run.
TRACED_DOCUMENT = {
    "document.toml": """\
[document]
id = "traced"
title = "One TCP flow against CBR, traced"
citation = "A test document of this suite"
seeds = 1
experiments = ["path"]
""",
    "numbers.toml": "",
    "path.toml": """\
[experiment]
title = "One TCP flow against CBR, traced"
axis = { key = "flow[1].rate", name = "CBR rate", values = ["1Mbps", "4Mbps"] }

[experiment.trace]
links = ["s0->r1", "r1->r2", "r2->d0", "d0->r2", "r2->r1", "r1->s0"]

[experiment.cases.reno]
set = { "flow[0].recovery" = "newreno" }

[experiment.cases.vegas]
set = { "flow[0].cc" = "vegas", "flow[0].recovery" = "vegas" }

[base.simulation]
duration = "5s"
seed = 1

[base.dumbbell]
pairs = 2
[base.dumbbell.bottleneck]
rate = "5Mbps"
delay = "15ms"
queue = { kind = "droptail", limit = "10p" }
[base.dumbbell.access]
rate = "100Mbps"
delay = "2ms"

[[base.flow]]
name = "tcp"
from = "s0"
to = "d0"
max_window = 100
[[base.flow]]
name = "cbr"
type = "cbr"
from = "s1"
to = "d1"
rate = "1Mbps"
packet_size = "210B"
""",
}


def test_reproduce_traced_runs_on_dask_equal_the_local_run(two_workers, tmp_path):
    import pandas as pd

    from tcpsim.reproduce import load_document
    from tcpsim.reproduce.runner import make_plan, run_plan

    cluster = two_workers
    src = tmp_path / "doc"
    src.mkdir()
    for name, text in TRACED_DOCUMENT.items():
        (src / name).write_text(text)
    plan = make_plan(load_document(str(src)))
    assert len(plan.runs) == len(plan.traced) == 4
    traced_keys = {f"tcpsim-trace-{rid}" for rid, _, _ in plan.traced.values()}

    with distributed.Client(cluster.address, timeout=30, set_as_default=False) as observer:
        workers = set(cluster.live_workers(observer).values())
        with distributed.get_task_stream(client=observer) as stream:
            remote = run_plan(plan, tmp_path / "dask", scheduler=cluster.address, progress=False)
        ran = {r["key"]: r["worker"] for r in stream.data}
        # every traced run (and every plain run) was a task on one of the cluster's workers
        assert traced_keys <= set(ran), sorted(ran)
        assert {ran[k] for k in traced_keys} <= workers
        assert len([k for k in ran if k.startswith("tcpsim-run-")]) == 4
        assert remote.computed == 4

        # a second call finds the traced runs' measures in the cache: nothing is sent
        with distributed.get_task_stream(client=observer) as again:
            cached = run_plan(plan, tmp_path / "dask", scheduler=cluster.address, progress=False)
        assert not [r["key"] for r in again.data], "finished runs were sent to the cluster again"
        assert cached.reused == 4

    # the trace's counts agree with the counters of the same run, in every traced run
    assert remote.trace_checks.keys() == plan.traced.keys()
    for key, items in remote.trace_checks.items():
        assert len(items) == 5 and all(i["ok"] for i in items), (key, items)
    trace_rows = remote.table[remote.table["metric"].str.startswith("trace_")]
    assert len(trace_rows) == 4 * 11 and (trace_rows.loc[trace_rows["metric"] == "trace_sent", "value"] > 0).all()

    # the same plan in local processes: the same measurements, comparisons and trace sizes
    local = run_plan(plan, tmp_path / "local", jobs=2, progress=False)
    pd.testing.assert_frame_equal(remote.table, local.table)
    pd.testing.assert_frame_equal(cached.table, local.table)
    assert remote.trace_checks == local.trace_checks
    assert remote.trace_lines == local.trace_lines and min(local.trace_lines.values()) > 1000
