#!/usr/bin/env python3
"""Run tcpsim and ns-2.35 side by side on the benchmark scenarios, on this machine.

Benchmarks (same network in both simulators):

    B1  bench/b1.toml   vs  ns bench/ns2/dumbbell.tcl 16 60 Newreno RED 100Mb
        16 NewReno flows, 100 Mbps / 10 ms RED bottleneck, 60 s.
    B2  bench/b2.toml   vs  ns bench/ns2/dumbbell.tcl 1000 10 Newreno RED 1Gb
        1000 NewReno flows, 1 Gbps / 10 ms RED bottleneck, 10 s.

Targets (ratios measured in one run of this script, tcpsim / ns-2):

    B1  wall time   <= 0.5
    B2  wall time   <= 0.1   and   peak memory <= 0.5

For each repetition the two simulators run one after the other (tcpsim, then ns-2), so
both see the same machine state. Wall time is measured around the child process; peak
memory (maximum resident set size, shown in MiB) and CPU time (user + system) come from
GNU time (/usr/bin/time), which reports them for the command alone (see run_measured for
why wait4 from Python would not); CPU time is shown as it is less disturbed by other load
on the machine than wall time. The table shows the median over repetitions, goodput (Mbps of in-order data on the wire, 1040-byte
packets, as dumbbell.tcl computes it) and Jain's fairness index from each simulator,
and the tcpsim / ns-2 ratios.

Usage:

    python3 bench/run.py                    # B1 and B2, full durations, 1 repetition
    python3 bench/run.py --bench B1 --reps 3
    python3 bench/run.py --quick            # B1 10 s, B2 1 s
    python3 bench/run.py --no-ns2           # tcpsim only
    python3 bench/run.py --json out.json    # also write every measurement as JSON

Standard library only. The tcpsim binary is <repo>/target/release/tcpsim-run (or
$TCPSIM_RUN); it is built with `cargo build --release -p tcpsim` when missing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DUMBBELL_TCL = BENCH / "ns2" / "dumbbell.tcl"
WIRE_BYTES = 1040  # packetSize_ 1000 + 40-byte TCP/IP header

BENCHMARKS = {
    # name: (scenario, ns-2 args without the duration, full seconds, quick seconds, targets)
    "B1": (BENCH / "b1.toml", ("16", "Newreno", "RED", "100Mb"), 60.0, 10.0,
           {"wall": 0.5}),
    "B2": (BENCH / "b2.toml", ("1000", "Newreno", "RED", "1Gb"), 10.0, 1.0,
           {"wall": 0.1, "mem": 0.5}),
}


@dataclass
class Measurement:
    bench: str
    sim: str
    rep: int
    seconds: float
    wall_s: float
    cpu_s: float
    peak_rss_kb: int
    exit_code: int
    goodput_mbps: float = float("nan")
    jain: float = float("nan")
    command: list[str] = field(default_factory=list)
    error: str = ""


def _gnu_time() -> str | None:
    """Path of GNU time if it supports -o/-f (checked once), else None."""
    global _GNU_TIME
    if _GNU_TIME is None:
        _GNU_TIME = ""
        exe = shutil.which("time", path="/usr/bin:/bin:/usr/local/bin")
        if exe:
            with tempfile.NamedTemporaryFile("r", suffix=".time") as f:
                r = subprocess.run([exe, "-o", f.name, "-f", "%M", "true"],
                                   capture_output=True)
                if r.returncode == 0 and f.read().strip().isdigit():
                    _GNU_TIME = exe
    return _GNU_TIME or None


_GNU_TIME: str | None = None


def _vm_hwm_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_measured(cmd: list[str], cwd: Path,
                 timeout: float | None) -> tuple[float, float, int, int, str, str]:
    """Run cmd; return (wall s, CPU s, peak RSS kB, exit code, stdout, stderr).

    Peak RSS must not come from wait4 on a child that Python started: Linux keeps in the
    child's ru_maxrss the high-water mark of the memory image it had before exec, and a
    child spawned by Python starts as (a copy of, or with vfork the very) Python process,
    so every run would report at least this script's own ~14 MB. The command therefore
    runs under GNU time (``/usr/bin/time -f %M``), which forks the command from its own
    small image; without GNU time, /proc/PID/status VmHWM of the command is polled every
    10 ms (the last 10 ms of a run can be missed). CPU time (user + system) comes from
    GNU time too, else from wait4. Wall time is measured here, around the whole run.
    """
    gnu_time = _gnu_time()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = [gnu_time, "-o", tf.name, "-f", "%e %U %S %M", *cmd] if gnu_time else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, cwd=cwd, stdout=out, stderr=err, start_new_session=True)
        deadline = None if timeout is None else t0 + timeout
        hwm = 0
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            if not gnu_time:
                hwm = max(hwm, _vm_hwm_kb(proc.pid))
            if deadline and time.perf_counter() > deadline:
                os.killpg(proc.pid, signal.SIGKILL)  # the command and GNU time
                pid, status, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
        cpu = ru.ru_utime + ru.ru_stime
        if gnu_time:
            # GNU time writes "Command exited with non-zero status N" before the format line.
            lines = tf.read().strip().splitlines()
            fields = lines[-1].split() if lines else []
            if len(fields) == 4:
                cpu = float(fields[1]) + float(fields[2])
                hwm = int(fields[3])
        out.seek(0)
        err.seek(0)
        return (wall, cpu, hwm, proc.returncode,
                out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def jain(xs: list[float]) -> float:
    s1, s2 = sum(xs), sum(x * x for x in xs)
    return s1 * s1 / (len(xs) * s2) if s2 > 0 else float("nan")


def tcpsim_binary() -> Path:
    env = os.environ.get("TCPSIM_RUN")
    if env:
        return Path(env)
    exe = REPO / "target" / "release" / "tcpsim-run"
    if not exe.exists():
        print("building tcpsim-run (cargo build --release -p tcpsim) ...", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "-p", "tcpsim"], cwd=REPO, check=True)
    return exe


def scenario_for(scenario: Path, seconds: float, work: Path) -> Path:
    """The scenario itself, or a copy with [simulation] duration set to ``seconds``."""
    text = scenario.read_text()
    m = re.search(r'(?m)^\s*duration\s*=\s*"([^"]*)"', text)
    if m and m.group(1) == f"{seconds:g}s":
        return scenario
    new, k = re.subn(r'(?m)^(\s*duration\s*=\s*)"[^"]*"', rf'\g<1>"{seconds:g}s"', text, count=1)
    if k != 1:
        sys.exit(f"no duration line in {scenario}")
    path = work / f"{scenario.stem}-{seconds:g}s.toml"
    path.write_text(new)
    return path


def run_tcpsim(bench: str, rep: int, scenario: Path, seconds: float, work: Path,
               timeout: float | None) -> Measurement:
    exe = tcpsim_binary()
    out_dir = work / f"{bench}-tcpsim-{rep}"
    cmd = [str(exe), str(scenario_for(scenario, seconds, work)), "--out", str(out_dir), "--csv"]
    wall, cpu, rss, code, so, se = run_measured(cmd, REPO, timeout)
    m = Measurement(bench, "tcpsim", rep, seconds, wall, cpu, rss, code, command=cmd)
    if code != 0:
        m.error = (se or so)[-500:]
        return m
    with open(out_dir / "flows.csv", newline="") as f:
        flows = list(csv.DictReader(f))
    per_flow = [float(r["unique_packets"]) * WIRE_BYTES * 8 / seconds / 1e6 for r in flows]
    m.goodput_mbps, m.jain = sum(per_flow), jain(per_flow)
    return m


def run_ns2(bench: str, rep: int, ns_args: tuple[str, ...], seconds: float,
            timeout: float | None) -> Measurement:
    ns = os.environ.get("NS2") or shutil.which("ns") or "ns"
    n, tcp, q, bw = ns_args
    cmd = [ns, DUMBBELL_TCL.name, n, f"{seconds:g}", tcp, q, bw]
    wall, cpu, rss, code, so, se = run_measured(cmd, DUMBBELL_TCL.parent, timeout)
    m = Measurement(bench, "ns2", rep, seconds, wall, cpu, rss, code, command=cmd)
    kv = dict(re.findall(r"(\w+)=(\S+)", so))
    if code != 0 or "goodput_mbps" not in kv:
        m.error = f"exit {code}; " + (se or so)[-500:]
        return m
    m.goodput_mbps, m.jain = float(kv["goodput_mbps"]), float(kv["jain"])
    return m


def median(ms: list[Measurement], attr: str) -> float:
    vals = [getattr(m, attr) for m in ms if m.exit_code == 0 and not m.error]
    return statistics.median(vals) if vals else float("nan")


def fmt(x: float, spec: str) -> str:
    return "-" if x != x else format(x, spec)


def print_table(results: list[Measurement], benches: list[str]) -> None:
    head = (f"{'bench':<5} {'sim':<7} {'sim_s':>6} {'reps':>4} {'wall_s':>9} {'cpu_s':>9} {'peak_MiB':>9} "
            f"{'goodput_Mbps':>13} {'jain':>7}")
    print(head)
    print("-" * len(head))
    for b in benches:
        rows = {}
        for sim in ("tcpsim", "ns2"):
            ms = [m for m in results if m.bench == b and m.sim == sim]
            if not ms:
                continue
            ok = [m for m in ms if not m.error]
            rows[sim] = (median(ms, "wall_s"), median(ms, "peak_rss_kb") / 1024, median(ms, "cpu_s"))
            print(f"{b:<5} {sim:<7} {ms[0].seconds:>6g} {len(ok):>4} {fmt(rows[sim][0], '9.2f')} "
                  f"{fmt(rows[sim][2], '9.2f')} "
                  f"{fmt(rows[sim][1], '9.1f')} {fmt(median(ms, 'goodput_mbps'), '13.2f')} "
                  f"{fmt(median(ms, 'jain'), '7.4f')}")
            for m in ms:
                if m.error:
                    print(f"      {sim} rep {m.rep} failed: {m.error.strip()[:300]}")
        if "tcpsim" in rows and "ns2" in rows:
            targets = BENCHMARKS[b][4]
            wr = rows["tcpsim"][0] / rows["ns2"][0]
            mr = rows["tcpsim"][1] / rows["ns2"][1]
            cr = rows["tcpsim"][2] / rows["ns2"][2]
            wt = f" (target <= {targets['wall']:g}: {'met' if wr <= targets['wall'] else 'NOT met'})" \
                if "wall" in targets else ""
            mt = f" (target <= {targets['mem']:g}: {'met' if mr <= targets['mem'] else 'NOT met'})" \
                if "mem" in targets else ""
            print(f"{b:<5} ratio tcpsim/ns2: wall {wr:.3f}{wt}, peak memory {mr:.3f}{mt}, "
                  f"CPU {cr:.3f}")
        print()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", nargs="+", choices=sorted(BENCHMARKS), default=sorted(BENCHMARKS))
    p.add_argument("--reps", type=int, default=1, help="repetitions per simulator (default 1)")
    p.add_argument("--quick", action="store_true", help="short durations: B1 10 s, B2 1 s")
    p.add_argument("--seconds", type=float, help="simulated seconds for every benchmark")
    p.add_argument("--no-ns2", action="store_true", help="run tcpsim only")
    p.add_argument("--no-tcpsim", action="store_true", help="run ns-2 only")
    p.add_argument("--timeout", type=float, default=None,
                   help="kill a run after this many wall seconds (recorded as failed)")
    p.add_argument("--work", type=Path, default=None, help="folder for tcpsim output")
    p.add_argument("--json", type=Path, default=None, help="write all measurements here")
    a = p.parse_args(argv)

    work = a.work or Path(tempfile.mkdtemp(prefix="tcpsim-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S %z')}  host {platform.node()}  "
          f"{os.cpu_count()} CPUs  {platform.platform()}  python {platform.python_version()}")
    print(f"# work folder {work}")
    results: list[Measurement] = []
    for b in a.bench:
        scenario, ns_args, full_s, quick_s, _ = BENCHMARKS[b]
        seconds = a.seconds or (quick_s if a.quick else full_s)
        for rep in range(a.reps):
            if not a.no_tcpsim:
                m = run_tcpsim(b, rep, scenario, seconds, work, a.timeout)
                results.append(m)
                print(f"# {b} tcpsim rep {rep}: {m.wall_s:.2f} s wall, {m.cpu_s:.2f} s CPU, "
                      f"{m.peak_rss_kb / 1024:.1f} MiB"
                      + (f", FAILED: {m.error.strip()[:200]}" if m.error else ""), flush=True)
            if not a.no_ns2:
                m = run_ns2(b, rep, ns_args, seconds, a.timeout)
                results.append(m)
                print(f"# {b} ns2    rep {rep}: {m.wall_s:.2f} s wall, {m.cpu_s:.2f} s CPU, "
                      f"{m.peak_rss_kb / 1024:.1f} MiB"
                      + (f", FAILED: {m.error.strip()[:200]}" if m.error else ""), flush=True)
    print()
    print_table(results, a.bench)
    if a.json:
        a.json.write_text(json.dumps([asdict(m) for m in results], indent=1))
    return 0 if all(not m.error for m in results) else 1


if __name__ == "__main__":
    sys.exit(main())
