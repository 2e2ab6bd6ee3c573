#!/usr/bin/env python3
"""Memory and time of B2's network with up to a million flows, one run per flow count.

B2's network (bench/b2.toml: a dumbbell with a 1 Gbps / 10 ms RED bottleneck and one
pair of 1 Gbps / 1 ms access links per flow) with N flows, for 1 s of simulated time,
the flows starting 0.1 s / N apart as in B2 (ns-2's dumbbell.tcl starts flow i at
0.1 i / n s). Each count runs once in `tcpsim-run SCENARIO --out DIR --csv --quiet`
under GNU time, one after the other, and the script prints for each:

    total s     wall time of the whole command
    cpu s       its CPU time, user + system (GNU time; steadier than wall time when other
                jobs share the machine)
    loop s      wall time of the event loop (summary.json's wall_seconds)
    outside s   total - loop: reading the scenario, building the network, routes and
                agents, and writing the result tables
    peak MiB    maximum resident set size (GNU time %M)
    KiB/flow    peak memory / N, and the slope between this count and the one before
                (what one more flow costs, the fixed part left out)

Usage:

    python3 bench/million.py                     # 1e3, 1e4, 1e5 and 1e6 flows
    python3 bench/million.py 1000 100000         # the given counts
    python3 bench/million.py --short             # 1e3 and 1e4 flows (a quick check)

Standard library only; the binary is target/release/tcpsim-run (or $TCPSIM_RUN), as for
bench/run.py. The million-flow run takes about a minute and 5 GiB on the 2-core machine
of docs/performance.md (it is refused above --max-memory, 20GiB here).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from run import REPO, run_measured, tcpsim_binary  # noqa: E402

DEFAULT_COUNTS = (1_000, 10_000, 100_000, 1_000_000)
SHORT_COUNTS = (1_000, 10_000)
SIMULATED = "1s"
#: B2 spreads the flows' starts over 0.1 s whatever their number.
START_SPREAD_PS = 100_000_000_000
MAX_MEMORY = "20GiB"


def scenario(flows: int) -> str:
    """bench/b2.toml with `flows` pairs and flows, 1 s long, starts 0.1 s / flows apart."""
    text = (BENCH / "b2.toml").read_text()
    for old, new in (('duration = "10s"', f'duration = "{SIMULATED}"'),
                     ("pairs = 1000", f"pairs = {flows}"),
                     ("count = 1000", f"count = {flows}"),
                     ('start_spacing = "100us"', f'start_spacing = "{START_SPREAD_PS // flows}ps"')):
        if old not in text:
            sys.exit(f"million: bench/b2.toml no longer holds {old!r}; update this script")
        text = text.replace(old, new)
    return text


def measure(binary: Path, flows: int, work: Path) -> dict:
    """One run of `flows` flows: times, peak memory and the run's event count."""
    path = work / f"million-{flows}.toml"
    path.write_text(scenario(flows))
    out = work / f"out-{flows}"
    cmd = [str(binary), str(path), "--out", str(out), "--csv", "--quiet", "--max-memory", MAX_MEMORY]
    wall, cpu, peak_kib, code, stdout, stderr = run_measured(cmd, REPO, timeout=None)
    if code != 0:
        sys.exit(f"million: {' '.join(cmd)} failed (exit {code}):\n{(stderr or stdout)[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    return {"flows": flows, "total_s": wall, "cpu_s": cpu, "loop_s": summary["wall_seconds"],
            "events": summary["events"], "peak_kib": peak_kib}


def print_table(rows: list[dict]) -> None:
    print(f"B2's network, {SIMULATED} simulated, one run per count")
    print(f"{'flows':>9} {'events':>10} {'total s':>8} {'cpu s':>7} {'loop s':>7} {'outside s':>9} "
          f"{'peak MiB':>9} {'KiB/flow':>9} {'slope KiB/flow':>15}")
    previous = None
    for r in rows:
        slope = "-"
        if previous is not None and r["flows"] != previous["flows"]:
            slope = f"{(r['peak_kib'] - previous['peak_kib']) / (r['flows'] - previous['flows']):.2f}"
        print(f"{r['flows']:>9} {r['events']:>10} {r['total_s']:>8.2f} {r['cpu_s']:>7.2f} {r['loop_s']:>7.2f} "
              f"{r['total_s'] - r['loop_s']:>9.2f} {r['peak_kib'] / 1024:>9.1f} "
              f"{r['peak_kib'] / r['flows']:>9.2f} {slope:>15}")
        previous = r


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", type=int, nargs="*", help=f"flow counts (default {DEFAULT_COUNTS})")
    parser.add_argument("--short", action="store_true", help=f"only {SHORT_COUNTS} flows")
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = parser.parse_args(argv)
    counts = sorted(args.counts or (SHORT_COUNTS if args.short else DEFAULT_COUNTS))
    if counts[0] < 1:
        parser.error("flow counts are at least 1")
    binary = tcpsim_binary()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(binary, n, Path(tmp)) for n in counts]
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
