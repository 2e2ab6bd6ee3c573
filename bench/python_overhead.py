#!/usr/bin/env python3
"""What the Python layer costs around the core (issue 22), measured in one run.

Prints, one after the other on this machine:

1. ``import tcpsim``: the median wall time of a fresh interpreter importing it, less a
   fresh interpreter doing nothing, and the heavy modules (pandas, pyarrow, NumPy,
   matplotlib) it left loaded (none: they load when a function needs them).
2. ``tcpsim run``: the median wall time of ``tcpsim run --help`` (interpreter, imports and
   the command line's parser: the time before a run can start) and of ``tcpsim run
   SCENARIO --quiet --out DIR`` on a small scenario, with the core's own wall time of the
   run (``wall_seconds`` of its summary.json).
3. A sweep of RUNS runs (default 400) of a small scenario over seeds, in this process
   (``workers=1``) and on WORKERS local processes: its wall time and the time spent inside
   the core's run calls (``tcpsim._core.run_toml_to_parquet``: loading and checking the
   scenario, the simulation, writing the run's tables as Parquet files — work the Python
   side did with pandas and pyarrow before 2026-11-26 — and handing the flows, queues
   and links tables to Python), summed over all runs. The core's share is that sum over
   wall time x processes; the rest is the Python side of each run (scenario.toml,
   summary.json, the run's metrics and marker, the run directory) and of the sweep
   (spec expansion, process pool, the sweep table).

Usage:

    python3 bench/python_overhead.py                    # 400 runs of examples/ecn_red.toml
    python3 bench/python_overhead.py --runs 40 --scenario examples/dumbbell.toml --workers 2
    python3 bench/python_overhead.py --dir /dev/shm      # the sweeps' runs on tmpfs

Needs tcpsim importable by this interpreter (the .venv of scripts/setup.sh). Timings only
mean something side by side within one run of this script; no test asserts on them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
HEAVY = ("pandas", "pyarrow", "numpy", "matplotlib")


def wall(cmd: list, reps: int) -> float:
    """Median wall seconds of `cmd` over `reps` runs (output discarded)."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"python_overhead: {' '.join(map(str, cmd))} failed:\n{proc.stderr}")
    return statistics.median(times)


def import_cost(reps: int) -> None:
    bare = wall([sys.executable, "-c", "pass"], reps)
    imported = wall([sys.executable, "-c", "import tcpsim"], reps)
    probe = ("import sys, tcpsim; print(' '.join(m for m in %r if m in sys.modules))" % (HEAVY,))
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.strip()
    print(f"import tcpsim: {imported - bare:.3f} s (interpreter alone {bare:.3f} s, "
          f"median of {reps}); heavy modules loaded: {loaded or 'none'}")
    pandas = wall([sys.executable, "-c", "import pandas"], reps)
    print(f"import pandas: {pandas - bare:.3f} s (once in a sweep's process, for its table "
          f"and the runs' metrics; part of the sweeps' Python time below)")


def run_cost(scenario: Path, reps: int) -> None:
    cli = [sys.executable, "-m", "tcpsim", "run"]
    startup = wall([*cli, "--help"], reps)
    with tempfile.TemporaryDirectory(prefix="tcpsim-bench-") as tmp:
        out = Path(tmp) / "run"
        total = wall([*cli, str(scenario), "--quiet", "--out", str(out)], reps)
        core = json.loads((out / "summary.json").read_text())["wall_seconds"]
    print(f"tcpsim run --help: {startup:.3f} s (start-up: interpreter, imports, parser)")
    print(f"tcpsim run {scenario.name} --quiet --out DIR: {total:.3f} s, of which the "
          f"simulation {core:.3f} s (median of {reps})")


def sweep_cost(scenario: Path, runs: int, workers: int, where: Optional[Path] = None) -> None:
    """Runs the sweep with the core's run call wrapped to log each call's duration to a
    file (the pool's processes are forked on Linux and inherit the wrapper)."""
    from tcpsim.sweep import Sweep, run_sweep
    import tcpsim.results
    import tcpsim.sweep.executors

    # Where a sweep's run calls the core: results.run_to_files, or (tcpsim before
    # 2026-11-26, to measure it side by side with this script) the executor's run_toml.
    if hasattr(tcpsim.results, "run_toml_to_parquet"):
        module, name = tcpsim.results, "run_toml_to_parquet"
    else:
        module, name = tcpsim.sweep.executors, "run_toml"
    core_run = getattr(module, name)
    with tempfile.TemporaryDirectory(prefix="tcpsim-bench-", dir=where) as tmp:
        log = Path(tmp) / "core-seconds"

        def timed_run(*args, **kwargs):
            start = time.perf_counter()
            raw = core_run(*args, **kwargs)
            with open(log, "a") as f:  # one short append per run: whole lines
                f.write(f"{time.perf_counter() - start}\n")
            return raw

        setattr(module, name, timed_run)
        try:
            sweep = Sweep(str(scenario), seeds=list(range(1, runs + 1)))
            start = time.perf_counter()
            run_sweep(sweep, Path(tmp) / "sweep", workers=workers, progress=False)
            elapsed = time.perf_counter() - start
        finally:
            setattr(module, name, core_run)
        core = [float(x) for x in log.read_text().split()]
    if len(core) != runs:
        sys.exit(f"python_overhead: expected {runs} core calls, logged {len(core)}")
    processes = min(workers, runs)
    share = sum(core) / (elapsed * processes)
    print(f"sweep of {runs} runs of {scenario.name}, {workers} worker(s), written under "
          f"{where or tempfile.gettempdir()}: wall {elapsed:.2f} s, "
          f"in the core {sum(core):.2f} s ({sum(core) / runs * 1e3:.1f} ms a run), "
          f"core share {share:.1%}, Python {(elapsed * processes - sum(core)) / runs * 1e3:.1f} ms a run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", type=Path, default=REPO / "examples" / "ecn_red.toml",
                        help="the small scenario (default examples/ecn_red.toml)")
    parser.add_argument("--runs", type=int, default=400, help="runs of the sweep (default 400)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="local processes of the second sweep (default: all cores)")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each command (default 5)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the sweeps write their runs (default: the temporary "
                        "directory); a run creates nine files and directories, whose cost "
                        "depends on the file system: /dev/shm separates it out")
    args = parser.parse_args()
    import_cost(args.reps)
    run_cost(args.scenario.resolve(), args.reps)
    sweep_cost(args.scenario.resolve(), args.runs, 1, args.dir)
    if args.workers > 1:
        sweep_cost(args.scenario.resolve(), args.runs, args.workers, args.dir)


if __name__ == "__main__":
    main()
