#!/usr/bin/env python3
"""What the Python command line costs over the stand-alone binary on a very large run.

B2's network (bench/b2.toml) with FLOWS flows (default 100 000) for 1 ms of simulated
time: the run is short, so the cost is setting up 100 000 flows and 400 000 queues and
links and handling their result tables. Runs, one after the other, per repetition:

    tcpsim-run  SCENARIO --quiet                 the binary, nothing printed
    tcpsim run  SCENARIO                         the CLI: tables built, summary printed
    tcpsim-run  SCENARIO --quiet --out D --csv   the binary writing CSV tables
    tcpsim run  SCENARIO --out D --csv           the CLI writing Parquet and CSV tables

and prints the median CPU time (user + system, from GNU time, which is less disturbed by
other load than wall time) and wall time of each, and the CLI / binary ratios. The CLI
is meant to cost at most about twice the binary.

Usage:

    python3 bench/cli_overhead.py                  # 100 000 flows, 3 repetitions
    python3 bench/cli_overhead.py --flows 10000 --reps 1

Needs target/release/tcpsim-run and the .venv of scripts/setup.sh.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent


def scenario(flows: int) -> str:
    """bench/b2.toml with `flows` pairs and flows, 1 ms long, flows 1 ps apart (so that
    every flow starts within the run)."""
    text = (BENCH / "b2.toml").read_text()
    for old, new in (('duration = "10s"', 'duration = "1ms"'),
                     ("pairs = 1000", f"pairs = {flows}"),
                     ("count = 1000", f"count = {flows}"),
                     ('start_spacing = "100us"', 'start_spacing = "1ps"')):
        if old not in text:
            sys.exit(f"cli_overhead: bench/b2.toml no longer holds {old!r}; update this script")
        text = text.replace(old, new)
    return text


def measured(cmd: list) -> tuple:
    """(cpu seconds, wall seconds) of `cmd`, from GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S %e", *cmd],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"cli_overhead: {' '.join(cmd)} failed:\n{out.stderr}")
    user, system, wall = map(float, re.findall(r"TIME (\S+) (\S+) (\S+)", out.stderr)[-1])
    return user + system, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flows", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    binary = REPO / "target" / "release" / "tcpsim-run"
    python = REPO / ".venv" / "bin" / "python"
    for need in (binary, python):
        if not need.exists():
            sys.exit(f"cli_overhead: {need} not found; run `bash scripts/setup.sh` first")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.toml"
        path.write_text(scenario(args.flows))
        cases = {
            "binary": [str(binary), str(path), "--quiet"],
            "cli": [str(python), "-m", "tcpsim", "run", str(path)],
            "binary --csv": [str(binary), str(path), "--quiet", "--out", f"{tmp}/b", "--csv"],
            "cli --csv": [str(python), "-m", "tcpsim", "run", str(path), "--out", f"{tmp}/c", "--csv"],
        }
        times = {name: [] for name in cases}
        for _ in range(args.reps):
            for name, cmd in cases.items():
                times[name].append(measured(cmd))
    median = {name: (statistics.median(c for c, _ in t), statistics.median(w for _, w in t))
              for name, t in times.items()}
    print(f"{args.flows} flows, 1 ms simulated, median of {args.reps}")
    print(f"{'command':<14} {'cpu s':>7} {'wall s':>7}")
    for name, (cpu, wall) in median.items():
        print(f"{name:<14} {cpu:7.2f} {wall:7.2f}")
    for cli, binary_name in (("cli", "binary"), ("cli --csv", "binary --csv")):
        print(f"{cli} / {binary_name}: cpu {median[cli][0] / median[binary_name][0]:.2f}, "
              f"wall {median[cli][1] / median[binary_name][1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
