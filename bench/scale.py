#!/usr/bin/env python3
"""Document 003's largest runs in tcpsim and in their ns-2.35 twins, side by side.

Issue 19 asks that the paper's biggest experiments "run in minutes, not hours", measured
beside ns-2 (Zhang & Tsaoussidis, NOSSDAV 2003, Sect. 4.3.1):

    S1  E1 at n = 100: 100 Reno flows, 100 Mb/s bottleneck (buffer 1000 packets), 100 s
    S2  E2 at 1000 s: 30 Reno flows, 30 Mb/s bottleneck (buffer 300 packets), 1000 s
    S3  S1 with Reno + gamma (no ns-2 twin: ns-2 has no Reno + gamma)

The scenarios are the reproduction's own (experiments/003, seed 1, the case and point
above), so what is timed is exactly what `tcpsim reproduce 003` runs; the ns-2 command is
the twin the reproduction runs (validation/ns2/doc003.tcl, no trace, as the experiment
says). tcpsim runs the binary target/release/tcpsim-run on the scenario (no Python in the
timed process); both are measured by bench/run.py's run_measured (wall time around the
process, CPU and peak memory from GNU time).

Usage (the tcpsim package must be importable: run it with the project's .venv):

    .venv/bin/python bench/scale.py                 # S1, S2, S3
    .venv/bin/python bench/scale.py --bench S1 --no-ns2
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run import fmt, run_measured, tcpsim_binary  # noqa: E402  (bench/run.py)

from tcpsim.reproduce.ns2 import ns_binary, twin_commands  # noqa: E402
from tcpsim.reproduce.runner import make_plan  # noqa: E402
from tcpsim.reproduce.spec import load_document  # noqa: E402

REPO = BENCH.parent

#: name -> (experiment, case, point) of document 003, seed 1
RUNS = {
    "S1": ("e1_fairness", "reno", "100"),
    "S2": ("e2_duration", "reno", "1000s"),
    "S3": ("e1_fairness", "reno_gamma", "100"),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", nargs="+", choices=sorted(RUNS), default=sorted(RUNS))
    p.add_argument("--no-ns2", action="store_true", help="run tcpsim only")
    a = p.parse_args(argv)

    plan = make_plan(load_document("003"), seeds=1)
    twins = twin_commands(plan)
    ns = ns_binary()
    work = Path(tempfile.mkdtemp(prefix="tcpsim-scale-"))
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S %z')}  host {platform.node()}  "
          f"{os.cpu_count()} CPUs  load {os.getloadavg()[0]:.2f}  work folder {work}")
    rows = []
    failed = False
    for name in a.bench:
        exp, case, point = RUNS[name]
        key = (exp, case, point, 1)
        scenario = work / f"{name}.toml"
        scenario.write_text(plan.runs[key].toml_text)
        cmd = [str(tcpsim_binary()), str(scenario), "--out", str(work / name), "--quiet"]
        measured = {"tcpsim": run_measured(cmd, REPO, None)}
        if not a.no_ns2 and ns and key in twins:
            with tempfile.TemporaryDirectory(prefix="tcpsim-scale-ns2-") as tmp:
                measured["ns2"] = run_measured([ns, *twins[key]], Path(tmp), None)
        for sim, (wall, cpu, rss, code, so, se) in measured.items():
            if code != 0:
                failed = True
                print(f"# {name} {sim} failed (exit {code}): {(se or so).strip()[-300:]}")
            rows.append((name, f"{exp}:{case}:{point}", sim, wall, cpu, rss / 1024))
            print(f"# {name} {sim}: {wall:.2f} s wall, {cpu:.2f} s CPU, {rss / 1024:.1f} MiB", flush=True)
    print()
    print(f"{'run':<4} {'what':<28} {'sim':<7} {'wall_s':>8} {'cpu_s':>8} {'peak_MiB':>9}")
    for name, what, sim, wall, cpu, mib in rows:
        print(f"{name:<4} {what:<28} {sim:<7} {fmt(wall, '8.2f')} {fmt(cpu, '8.2f')} {fmt(mib, '9.1f')}")
    for name in a.bench:
        mine = {r[2]: r for r in rows if r[0] == name}
        if "tcpsim" in mine and "ns2" in mine:
            t, n = mine["tcpsim"], mine["ns2"]
            print(f"{name:<4} ratio tcpsim/ns2: wall {t[3] / n[3]:.3f}, CPU {t[4] / n[4]:.3f}, "
                  f"peak memory {t[5] / n[5]:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
