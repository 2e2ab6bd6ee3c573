#!/usr/bin/env python3
"""What packet traces cost on benchmark B1 (issue 22), measured in one run.

For each duration (default 10 s and 60 s of simulated time), runs bench/b1.toml with
``tcpsim-run``, one after the other:

    untraced                      the benchmark as it is
    ns2 = "all"                   ns-2 trace lines of every link direction (trace.tr)
    pcap_links = "all"            one pcap file per link direction
    ns2 = "all", pcap_links = "all"

and prints the median CPU time (user + system, from GNU time: less disturbed by other
load than wall time) and wall time of each, with its ratio to the untraced run (issue
22's target: at most 2x). Then, with ``ns`` (ns-2.35) installed, the same for ns-2
itself: ``ns bench/ns2/dumbbell.tcl 16 T Newreno RED 100Mb`` without and with its
optional trace file (``$ns trace-all``). And the Python reader of the trace
(`tcpsim.reproduce.measures.read_trace`, pyarrow's CSV reader, into pandas) on tcpsim's
trace.tr: its CPU time (all its threads) and wall time beside what writing the lines
added to the run (the ns2 run less the untraced one).

Usage:

    python3 bench/trace_cost.py                      # 10 s and 60 s, 3 repetitions
    python3 bench/trace_cost.py --durations 10 --reps 1 --no-ns

Needs target/release/tcpsim-run (cargo build --release) and, for the reader, tcpsim
importable by this interpreter (the .venv of scripts/setup.sh). The trace files (about
100 MB per 10 simulated seconds for trace.tr) go to a temporary directory, removed at the
end. Timings only mean something side by side within one run of this script.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
BINARY = REPO / "target" / "release" / "tcpsim-run"
DUMBBELL_TCL = BENCH / "ns2" / "dumbbell.tcl"

#: The trace selections measured, by label: the [trace] table appended to B1.
VARIANTS = {
    "untraced": "",
    "ns2 all": '[trace]\nns2 = "all"\n',
    "pcap links all": '[trace]\npcap_links = "all"\n',
    "ns2 + pcap all": '[trace]\nns2 = "all"\npcap_links = "all"\n',
}


def b1(seconds: int, trace: str) -> str:
    text = (BENCH / "b1.toml").read_text()
    if 'duration = "60s"' not in text:
        sys.exit("trace_cost: bench/b1.toml no longer holds duration = \"60s\"; update this script")
    return text.replace('duration = "60s"', f'duration = "{seconds}s"') + "\n" + trace


def measured(cmd: list, cwd: Path) -> tuple:
    """(cpu seconds, wall seconds) of `cmd`, from GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S %e", *map(str, cmd)], cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"trace_cost: {' '.join(map(str, cmd))} failed:\n{out.stderr}")
    user, system, wall = map(float, re.findall(r"TIME (\S+) (\S+) (\S+)", out.stderr)[-1])
    return user + system, wall


def medians(cmd: list, cwd: Path, reps: int) -> tuple:
    runs = [measured(cmd, cwd) for _ in range(reps)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def row(label: str, cost: tuple, base: tuple, note: str = "") -> None:
    print(f"  {label:<16} cpu {cost[0]:7.2f} s ({cost[0] / base[0]:5.2f}x)   "
          f"wall {cost[1]:7.2f} s ({cost[1] / base[1]:5.2f}x){note}")


def tcpsim_traces(seconds: int, work: Path, reps: int) -> tuple:
    """Prints the four variants; returns the trace.tr path and the (cpu, wall) seconds
    the ns-2 lines added to the run."""
    print(f"tcpsim-run, B1 {seconds} s (median of {reps}):")
    base = None
    written = (0.0, 0.0)
    for label, trace in VARIANTS.items():
        scenario = work / f"b1-{seconds}s-{label.replace(' ', '-').replace('+', 'and')}.toml"
        scenario.write_text(b1(seconds, trace))
        out = work / scenario.stem
        cost = medians([BINARY, scenario, "--out", out, "--quiet"], work, reps)
        base = base or cost
        files = sorted((out / "traces").glob("*")) if (out / "traces").is_dir() else []
        size = sum(f.stat().st_size for f in files)
        note = f"   {len(files)} files, {size / 1e6:.0f} MB" if files else ""
        if label == "ns2 all":
            lines = sum(1 for _ in open(out / "traces" / "trace.tr", "rb"))
            note += f", {lines:,} lines"
            written = (cost[0] - base[0], cost[1] - base[1])
            kept = out / "traces" / "trace.tr"
        elif files:
            shutil.rmtree(out / "traces")
        row(label, cost, base, note)
    return kept, written


def ns2_traces(seconds: int, work: Path, reps: int) -> None:
    ns = shutil.which("ns")
    if ns is None:
        print("ns-2: `ns` not installed, skipped")
        return
    cmd = [ns, DUMBBELL_TCL, 16, seconds, "Newreno", "RED", "100Mb"]
    print(f"ns-2.35, dumbbell.tcl 16 {seconds} Newreno RED 100Mb (median of {reps}):")
    base = medians(cmd, work, reps)
    row("untraced", base, base)
    trace = work / f"ns2-{seconds}s.tr"
    traced = medians([*cmd, "1Gb", trace], work, reps)
    size = trace.stat().st_size
    row("trace-all", traced, base, f"   {size / 1e6:.0f} MB")
    trace.unlink()


def reader(trace: Path, written: tuple) -> None:
    """Prints what reading `trace` costs beside `written`, the (cpu, wall) seconds the
    ns-2 lines added to the run that wrote it."""
    try:
        from tcpsim.reproduce.measures import read_trace
    except ImportError as e:
        print(f"Python reader: tcpsim not importable ({e}), skipped")
        return
    import pandas  # noqa: F401  (imported before the clock starts: one-off costs)
    import pyarrow.csv  # noqa: F401
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    frame = read_trace(trace)
    cpu, wall = time.process_time() - cpu_start, time.perf_counter() - wall_start
    print(f"  Python reader (read_trace, pyarrow): {len(frame):,} lines, cpu {cpu:.2f} s "
          f"({cpu / written[0]:.2f}x the writing), wall {wall:.2f} s ({wall / written[1]:.2f}x); "
          f"the writing: the ns2 run less the untraced one, cpu {written[0]:.2f} s, wall {written[1]:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--durations", type=int, nargs="+", default=[10, 60],
                        help="simulated seconds of B1 (default 10 60)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each run (default 3)")
    parser.add_argument("--no-ns", action="store_true", help="leave out ns-2")
    args = parser.parse_args()
    if not BINARY.exists():
        sys.exit(f"trace_cost: {BINARY} not found: cargo build --release")
    with tempfile.TemporaryDirectory(prefix="tcpsim-trace-cost-") as tmp:
        work = Path(tmp)
        for seconds in args.durations:
            trace, written = tcpsim_traces(seconds, work, args.reps)
            reader(trace, written)
            if not args.no_ns:
                ns2_traces(seconds, work, args.reps)
            shutil.rmtree(trace.parent.parent)


if __name__ == "__main__":
    main()
