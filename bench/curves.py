#!/usr/bin/env python3
"""Cost curves: wall time, CPU time, events and peak memory of tcpsim and ns-2.35 as the
network grows, so that a study's cost can be planned (issue 22; docs/performance.md,
"Cost curves (issue 22)").

Three sweeps of the benchmarks' dumbbell (bench/b1.toml, bench/b2.toml and their ns-2
twin bench/ns2/dumbbell.tcl), one quantity changed at a time:

    flows     B2's network (1 Gb/s bottleneck, 1 Gb/s access links), 10, 100, 1e3, 1e4,
              1e5 and 1e6 flows, 1 s of simulated time
    rate      B1's network (16 flows), bottleneck 10 Mb/s, 100 Mb/s, 1, 10 and 100 Gb/s,
              10 s of simulated time (B1's callgrind duration)
    duration  B1 itself (16 flows, 100 Mb/s), 1, 10 and 100 s of simulated time

Rules the sweeps keep from the benchmarks, written here once:
  * flow i starts at 0.1 * i / n s (dumbbell.tcl's rule; B1's 6.25 ms, B2's 100 us);
  * the bottleneck queue is RED with a 250-packet limit and thresholds 50 / 150 whatever
    the rate (dumbbell.tcl's fixed qlen = 250, so at 10 Gb/s and more the buffer is a
    small fraction of the bandwidth-delay product);
  * access links run at max(1 Gb/s, 10 x the bottleneck rate), so they are faster than
    the bottleneck from 1 Gb/s up (B1's and B2's 1 Gb/s below that); the flows sweep
    keeps B2's 1 Gb/s access links, as B2 has them.

Each point runs each simulator once, one after the other (tcpsim, then ns-2), measured by
bench/run.py's run_measured (wall time around the process; CPU time and peak resident
memory from GNU time). tcpsim's event count is summary.json's `events`; ns-2.35 reports
no count of the events it executes (and a trace of every packet would change what is
timed), so its events are recorded as not available. ns-2 runs under a time budget per
point (--budget) and a memory cap (--ns2-memory, `prlimit --as`): a point that exceeds
either is recorded as "over budget" and the larger points of that sweep are recorded as
skipped without being run. Nothing is extrapolated.

ns-3 is not run: validation/ns3's harness builds ns-3 twins of drop-tail, CoDel,
FQ-CoDel and PIE cases with SACK recovery, but has no twin of the benchmarks' ns-2
byte-mode RED (gentle, wait, mean packet size 500 B) nor of ns-2's NewReno without SACK,
so it cannot run the same network.

The floor (physical limit): bench/event_floor.rs, a discrete-event loop that does only
what every tcpsim event does (a heap of tcpsim's 32-byte events, one 88-byte packet
record read and written, one event scheduled), is compiled with rustc and run for heaps
of several pending sizes, beside a run of B1 in the same invocation, and both are given in
CPU nanoseconds per event.

Writes into --out (default docs/performance/): curves.json (every measurement, the
machine, the commit, the floor), curves.csv (one row per point and simulator) and one
figure per sweep (curves_flows.png, curves_rate.png, curves_duration.png).

Usage (the figures need matplotlib: run it with the project's .venv):

    .venv/bin/python bench/curves.py                      # every sweep, ns-2 within budget
    .venv/bin/python bench/curves.py --sweep rate --budget 60
    .venv/bin/python bench/curves.py --quick --out /tmp/c # a tiny grid (tests use it)
    .venv/bin/python bench/curves.py --replot             # the CSV and figures again from curves.json
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run import DUMBBELL_TCL, REPO, WIRE_BYTES, run_measured, tcpsim_binary  # noqa: E402  (bench/run.py)

EVENT_FLOOR_RS = BENCH / "event_floor.rs"
DEFAULT_OUT = REPO / "docs" / "performance"
SIMULATORS = {"tcpsim": "tcpsim", "ns2": "ns-2.35"}
GIB = 1024 ** 3


@dataclass(frozen=True)
class Network:
    """One point's dumbbell, in the terms both simulators are given."""
    base: Path          # bench/b1.toml or bench/b2.toml
    flows: int
    bottleneck_bps: float
    access_bps: float
    seconds: float


@dataclass(frozen=True)
class Sweep:
    name: str
    axis: str                    # the x axis in words, with its unit
    values: tuple[float, ...]
    network: Callable[[float], Network]
    quick_values: tuple[float, ...]
    quick_network: Callable[[float], Network]


def access_rate(bottleneck_bps: float) -> float:
    """Access links faster than the bottleneck: max(1 Gb/s, 10 x the bottleneck)."""
    return max(1e9, 10 * bottleneck_bps)


B1, B2 = BENCH / "b1.toml", BENCH / "b2.toml"
SWEEPS = {
    s.name: s for s in (
        Sweep("flows", "flows", (10, 100, 1_000, 10_000, 100_000, 1_000_000),
              lambda n: Network(B2, int(n), 1e9, 1e9, 1.0),
              (10, 100), lambda n: Network(B2, int(n), 1e9, 1e9, 0.2)),
        Sweep("rate", "bottleneck rate (b/s)", (10e6, 100e6, 1e9, 10e9, 100e9),
              lambda r: Network(B1, 16, r, access_rate(r), 10.0),
              (10e6, 100e6), lambda r: Network(B1, 16, r, access_rate(r), 0.2)),
        Sweep("duration", "simulated time (s)", (1, 10, 100),
              lambda s: Network(B1, 16, 100e6, 1e9, float(s)),
              (0.1, 0.2), lambda s: Network(B1, 16, 100e6, 1e9, float(s))),
    )
}


def fixed_parameters(sweep: Sweep, nets: list[Network]) -> str:
    """What the sweep holds fixed, in words, read from its points (for the figure's title)."""
    parts = [f"{nets[0].base.stem.upper()}'s dumbbell"]
    if sweep.name != "flows":
        parts.append(f"{nets[0].flows} flows")
    if sweep.name != "rate":
        parts.append(f"{rate_words(nets[0].bottleneck_bps, 'b/s')} bottleneck, "
                     f"{rate_words(nets[0].access_bps, 'b/s')} access links")
    else:
        parts.append("access links at max(1 Gb/s, 10 x bottleneck)")
    parts.append("RED, 250-packet limit")
    if sweep.name != "duration":
        parts.append(f"{nets[0].seconds:g} s simulated")
    return ", ".join(parts)


@dataclass
class Point:
    sweep: str
    x: float
    simulator: str
    status: str              # "measured", "failed: ...", "refused: ...", "over budget: ...", "skipped: ..."
    flows: int
    bottleneck_bps: float
    access_bps: float
    simulated_s: float
    wall_s: float | None = None
    cpu_s: float | None = None
    peak_mib: float | None = None
    events: int | None = None       # None: not available (ns-2) or not measured
    goodput_mbps: float | None = None  # Mb/s of in-order packets on the wire (1040 B), all flows
    command: str = ""


# --- the two simulators' inputs --------------------------------------------------------

def rate_words(bps: float, unit: str) -> str:
    """10e6 -> "10Mbps" (unit "bps", tcpsim), "10Mb" (unit "b", ns-2) or "10 Mb/s"."""
    space = " " if "/" in unit else ""
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if bps >= scale and (bps / scale) == int(bps / scale):
            return f"{int(bps / scale)}{space}{prefix}{unit}"
    raise ValueError(f"rate {bps} b/s is not a whole number of Kb/s")


def _replace_line(text: str, source: Path, pattern: str, replacement: str, count: int = 1) -> str:
    new, k = re.subn(pattern, replacement, text, flags=re.M)
    if k != count:
        raise SystemExit(f"{source}: expected {count} line(s) matching {pattern!r} (the key this "
                         f"script sets), found {k}")
    return new


def tcpsim_scenario(net: Network) -> str:
    """The base benchmark's TOML with the point's flows, rates, start spacing and duration."""
    text = net.base.read_text()
    spacing_ns = round(1e8 / net.flows)  # dumbbell.tcl: flow i starts at 0.1 * i / n s
    if abs(spacing_ns * net.flows - 1e8) > 1e-6 * 1e8:
        raise ValueError(f"0.1 s / {net.flows} flows is not a whole number of nanoseconds")
    text = _replace_line(text, net.base, r'^duration = "[^"]*"', f'duration = "{net.seconds:g}s"')
    text = _replace_line(text, net.base, r"^pairs = \d+", f"pairs = {net.flows}")
    text = _replace_line(text, net.base, r"^count = \d+", f"count = {net.flows}")
    text = _replace_line(text, net.base, r'^start_spacing = "[^"]*"', f'start_spacing = "{spacing_ns}ns"')
    # The bottleneck's rate line comes first, the access links' second ([dumbbell.access]).
    rates = list(re.finditer(r'(?m)^rate = "[^"]*"', text))
    if len(rates) != 2:
        raise SystemExit(f"{net.base}: expected the bottleneck's and the access links' `rate` lines, "
                         f"found {len(rates)}")
    (b0, b1), (a0, a1) = rates[0].span(), rates[1].span()
    return (text[:b0] + f'rate = "{rate_words(net.bottleneck_bps, "bps")}"' + text[b1:a0]
            + f'rate = "{rate_words(net.access_bps, "bps")}"' + text[a1:])


def ns2_command(ns: str, net: Network) -> list[str]:
    return [ns, DUMBBELL_TCL.name, str(net.flows), f"{net.seconds:g}", "Newreno", "RED",
            rate_words(net.bottleneck_bps, "b"), rate_words(net.access_bps, "b")]


# --- measuring -------------------------------------------------------------------------

def measure_tcpsim(net: Network, work: Path, tag: str) -> dict:
    scenario = work / f"{tag}.toml"
    scenario.write_text(tcpsim_scenario(net))
    out = work / tag
    # --max-memory: the default refuses runs estimated above 4 GiB; the 1e6-flow point
    # needs more, and the machine has it.
    options = ["--quiet", "--max-memory", "64GiB"]
    cmd = [str(tcpsim_binary()), str(scenario), "--out", str(out), *options]
    wall, cpu, rss_kb, code, so, se = run_measured(cmd, REPO, None)
    # Recorded without this machine's folders: the record is published.
    result = {"wall_s": wall, "cpu_s": cpu, "peak_mib": rss_kb / 1024,
              "command": " ".join(["tcpsim-run", scenario.name, "--out", out.name, *options])}
    if code == 2:  # tcpsim-run's "usage or scenario error": a limit of today's loader
        message = (se or so).strip().replace(f"{work}/", "")
        return {**result, "status": f"refused: {message[-300:]}"}
    if code != 0:
        return {**result, "status": f"failed: exit {code}: {(se or so).strip()[-300:]}"}
    summary = json.loads((out / "summary.json").read_text())
    shutil.rmtree(out, ignore_errors=True)
    # summary.json counts payload; dumbbell.tcl (and bench/run.py) count the packet on the
    # wire, payload plus WIRE_BYTES - payload of headers.
    payload = tomllib.loads(scenario.read_text())["flow"][0]["packet_size"]
    payload_bytes = int(payload.removesuffix("B"))
    wire_mbps = summary["aggregate_goodput_bps"] * WIRE_BYTES / payload_bytes / 1e6
    return {**result, "status": "measured", "events": int(summary["events"]), "goodput_mbps": wire_mbps}


def measure_ns2(net: Network, ns: str, budget_s: float, memory_bytes: int) -> dict:
    cmd = ["prlimit", f"--as={memory_bytes}", "--", *ns2_command(ns, net)]
    wall, cpu, rss_kb, code, so, se = run_measured(cmd, DUMBBELL_TCL.parent, budget_s)
    result = {"wall_s": wall, "cpu_s": cpu, "peak_mib": rss_kb / 1024,
              "command": " ".join(ns2_command("ns", net))}
    kv = dict(re.findall(r"(\w+)=(\S+)", so))
    if code == 0 and "goodput_mbps" in kv:
        return {**result, "status": "measured", "goodput_mbps": float(kv["goodput_mbps"])}
    if wall >= budget_s:
        return {**result, "status": f"over budget: killed after {budget_s:g} s"}
    if "alloc" in (se + so).lower() or code in (-6, 134, -11, 139):
        return {**result, "status": f"over budget: exceeded the {memory_bytes / GIB:g} GiB memory cap "
                                    f"(exit {code})"}
    return {**result, "status": f"failed: exit {code}: {(se or so).strip()[-300:]}"}


def run_sweep(sweep: Sweep, values: tuple[float, ...], network: Callable[[float], Network],
              measurers: dict[str, Callable[[Network, str], dict]]) -> list[Point]:
    """Every point of one sweep, smallest first. Once a simulator goes over its budget at
    a point, its larger points are recorded as skipped and not run."""
    points: list[Point] = []
    over: dict[str, float] = {}
    for x in values:
        net = network(x)
        for sim, measure in measurers.items():
            p = Point(sweep.name, x, sim, "", net.flows, net.bottleneck_bps, net.access_bps, net.seconds)
            if sim in over:
                p.status = f"skipped: over budget at the smaller point {over[sim]:g}"
            else:
                r = measure(net, f"{sweep.name}-{x:g}-{sim}")
                for key, value in r.items():
                    setattr(p, key, value)
                if p.status.startswith("over budget"):
                    over[sim] = x
            points.append(p)
            print(f"# {sweep.name} {x:g} {sim}: {p.status}"
                  + (f", {p.wall_s:.2f} s wall, {p.cpu_s:.2f} s CPU, {p.peak_mib:.1f} MiB"
                     if p.wall_s is not None else "")
                  + (f", {p.events} events" if p.events is not None else ""), flush=True)
    return points


# --- the floor -------------------------------------------------------------------------

FLOOR_PENDING = (64, 128, 256, 1024, 16384)


def measure_floor(work: Path, events: int, reps: int, quick: bool) -> dict:
    """CPU ns per event of bench/event_floor.rs for several heap sizes and of B1 in tcpsim,
    alternated `reps` times (each medians over the repetitions: the machine is shared)."""
    rustc = shutil.which("rustc")
    if rustc is None:
        return {"status": "not measured: rustc not found"}
    exe = work / "event_floor"
    build = subprocess.run([rustc, "-C", "opt-level=3", "-C", "codegen-units=1", "-o", str(exe),
                            str(EVENT_FLOOR_RS)], capture_output=True, text=True)
    if build.returncode != 0:
        return {"status": f"not measured: rustc failed: {build.stderr[-300:]}"}
    pendings = FLOOR_PENDING[:2] if quick else FLOOR_PENDING
    loops: dict[int, list[dict]] = {n: [] for n in pendings}
    b1_runs = []
    b1 = Network(B1, 16, 100e6, 1e9, 10.0 if quick else 60.0)
    for rep in range(reps):
        for pending in pendings:
            out = subprocess.run([str(exe), str(pending), str(events)], capture_output=True,
                                 text=True, check=True).stdout
            kv = dict(re.findall(r"(\w+)=(\S+)", out))
            loops[pending].append({"ns_per_event": float(kv["ns_per_event"]), "events": int(kv["events"]),
                                   "packet_bytes": int(kv["packet_bytes"]),
                                   "event_bytes": int(kv["event_bytes"])})
        run = measure_tcpsim(b1, work, f"floor-b1-{rep}")
        if run["status"] != "measured":
            return {"status": f"not measured: B1 {run['status']}"}
        run["ns_per_event_cpu"] = run["cpu_s"] * 1e9 / run["events"]
        b1_runs.append(run)
    return {
        "status": "measured", "reps": reps, "events_per_loop_run": events,
        "loops": [{"pending": n, "ns_per_event": statistics.median(r["ns_per_event"] for r in runs),
                   "runs": runs} for n, runs in loops.items()],
        "b1_simulated_s": b1.seconds, "b1_runs": b1_runs,
        "b1_ns_per_event_cpu": statistics.median(r["ns_per_event_cpu"] for r in b1_runs),
    }


# --- writing ---------------------------------------------------------------------------

def write_csv(points: list[Point], path: Path) -> None:
    fields = list(asdict(points[0]).keys()) if points else [f for f in Point.__dataclass_fields__]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for p in points:
            row = asdict(p)
            if p.simulator == "ns2" and p.status == "measured":
                row["events"] = "not available"
            w.writerow({k: ("" if v is None else v) for k, v in row.items()})


#: GNU time counts CPU time in 10 ms steps: a CPU time per event is drawn only from runs
#: of at least ten steps.
CPU_RESOLUTION_S = 0.01
PER_EVENT_MIN_CPU_S = 10 * CPU_RESOLUTION_S


def not_run_words(points: list[Point]) -> str:
    """Why a simulator has no value at some points, for its legend entry."""
    reasons = {"refused": "refused", "over budget": "over budget", "skipped": "skipped",
               "failed": "failed"}
    parts = []
    for prefix, words in reasons.items():
        xs = [p.x for p in points if p.status.startswith(prefix)]
        if xs:
            parts.append(f"{words} at " + ", ".join(f"{x:g}" for x in xs))
    return "; ".join(parts)


def plot_sweep(sweep: Sweep, points: list[Point], values: tuple[float, ...], title: str,
               path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogFormatterSciNotation

    panels = (("wall_s", "wall time (s)"), ("cpu_s", "CPU time, user + system (s)"),
              ("events", "events executed"), ("peak_mib", "peak memory (MiB)"),
              ("goodput_mbps", "goodput, all flows (Mb/s)"))
    fig, axes = plt.subplots(2, 3, figsize=(14, 8), constrained_layout=True)
    fig.suptitle(title, fontsize=10)
    styles = {"tcpsim": dict(color="tab:blue", marker="o"), "ns2": dict(color="tab:red", marker="s")}

    def log_axes(ax, ylabel: str) -> None:
        ax.set_xscale("log")
        if ax.dataLim.ymax > 0 and any(len(line.get_ydata()) for line in ax.get_lines()):
            ax.set_yscale("log")
        else:  # e.g. CPU times below GNU time's 10 ms resolution in a quick run
            ax.text(0.5, 0.5, "no value measured precisely enough", transform=ax.transAxes, ha="center")
        ax.set_xlim(min(values) / 1.5, max(values) * 1.5)
        ax.set_xlabel(sweep.axis)
        ax.set_ylabel(ylabel)
        ax.xaxis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=True))
        ax.grid(True, which="major", alpha=0.4)
        ax.grid(True, which="minor", alpha=0.15)
        ax.legend(fontsize=8)

    for ax, (field, label) in zip(axes.flat, panels):
        for sim, words in SIMULATORS.items():
            mine = [p for p in points if p.simulator == sim]
            if not mine:
                continue
            done = [p for p in mine if p.status == "measured" and getattr(p, field) is not None
                    and getattr(p, field) > 0]
            name = words
            if field == "events" and sim == "ns2":
                name += ": not available (ns-2 reports no event count)"
                done = []
            elif not_run_words(mine):
                name += f" ({not_run_words(mine)})"
            if field == "cpu_s":
                zero = [p.x for p in mine if p.status == "measured" and p.cpu_s is not None
                        and p.cpu_s < CPU_RESOLUTION_S]
                if zero:
                    name += f" (under 10 ms at {', '.join(f'{x:g}' for x in zero)})"
            ax.plot([p.x for p in done], [getattr(p, field) for p in done], label=name,
                    linewidth=1.5, markersize=6, **styles[sim])
        log_axes(ax, label)
    # The sixth panel: what each simulator costs per simulated event (tcpsim only).
    ax = axes.flat[5]
    per_event = [p for p in points if p.simulator == "tcpsim" and p.status == "measured" and p.events
                 and p.cpu_s >= PER_EVENT_MIN_CPU_S]
    ax.plot([p.x for p in per_event], [p.cpu_s * 1e9 / p.events for p in per_event],
            label=f"tcpsim (whole run: setup, events, report;\nruns of {PER_EVENT_MIN_CPU_S:g} s CPU or more)",
            linewidth=1.5, markersize=6, **styles["tcpsim"])
    log_axes(ax, "CPU time per event (ns)")
    fig.savefig(path, dpi=130)
    plt.close(fig)


def git_commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sweep", nargs="+", choices=sorted(SWEEPS), default=list(SWEEPS))
    p.add_argument("--quick", action="store_true",
                   help="two small points per sweep (0.1-0.2 s simulated) and a short floor run")
    p.add_argument("--no-ns2", action="store_true", help="run tcpsim only")
    p.add_argument("--no-floor", action="store_true", help="do not measure the event-loop floor")
    p.add_argument("--floor-reps", type=int, default=3,
                   help="alternations of the floor loops and B1 (medians are reported; default 3)")
    p.add_argument("--budget", type=float, default=180.0,
                   help="wall seconds an ns-2 point may take before it is killed (default 180)")
    p.add_argument("--ns2-memory", type=float, default=8.0,
                   help="GiB of address space an ns-2 run may take (default 8)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the files written")
    p.add_argument("--replot", action="store_true",
                   help="run nothing: write curves.csv and the figures again from --out's curves.json")
    a = p.parse_args(argv)
    if a.replot:
        record = json.loads((a.out / "curves.json").read_text())
        write_outputs(record, [Point(**p) for p in record["points"]], a.out)
        return 0

    ns = None if a.no_ns2 else (os.environ.get("NS2") or shutil.which("ns"))
    if not a.no_ns2 and ns is None:
        print("# ns-2 (ns) not found: tcpsim only", file=sys.stderr)
    a.out.mkdir(parents=True, exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    machine = {"cpu": cpu_model(), "cpus": os.cpu_count(), "platform": platform.platform(),
               "load_average_at_start": os.getloadavg()[0]}
    print(f"# {started}  commit {git_commit()}  {machine['cpu']}  {machine['cpus']} CPUs  "
          f"load {machine['load_average_at_start']:.2f}", flush=True)

    points: list[Point] = []
    with tempfile.TemporaryDirectory(prefix="tcpsim-curves-") as tmp:
        work = Path(tmp)
        measurers: dict[str, Callable[[Network, str], dict]] = {
            "tcpsim": lambda net, tag: measure_tcpsim(net, work, tag)}
        if ns is not None:
            measurers["ns2"] = lambda net, tag: measure_ns2(net, ns, a.budget, int(a.ns2_memory * GIB))
        for name in a.sweep:
            s = SWEEPS[name]
            values, network = (s.quick_values, s.quick_network) if a.quick else (s.values, s.network)
            points += run_sweep(s, values, network, measurers)
        floor = ({"status": "not measured (--no-floor)"} if a.no_floor
                 else measure_floor(work, 1_000_000 if a.quick else 50_000_000,
                                1 if a.quick else a.floor_reps, a.quick))
    if floor.get("status") == "measured":
        for loop in floor["loops"]:
            print(f"# floor: heap of {loop['pending']} pending events: {loop['ns_per_event']:.1f} ns/event")
        print(f"# B1 in tcpsim: {floor['b1_ns_per_event_cpu']:.1f} ns/event (CPU)")

    record = {"started": started, "finished": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
              "commit": git_commit(), "machine": machine, "quick": a.quick,
              "ns2_budget_s": a.budget, "ns2_memory_gib": a.ns2_memory,
              "points": [asdict(p) for p in points], "floor": floor}
    (a.out / "curves.json").write_text(json.dumps(record, indent=1) + "\n")
    write_outputs(record, points, a.out)
    return 0 if all(not p.status.startswith("failed") for p in points) else 1


POINT_WORDS = {
    "flows": lambda x: {10: "10", 100: "100"}.get(x, f"10{'⁰¹²³⁴⁵⁶⁷⁸⁹'[len(str(int(x))) - 1]}"),
    "rate": lambda x: rate_words(x, "b/s"),
    "duration": lambda x: f"{x:g} s",
}


def markdown_table(points: list[Point]) -> str:
    """The table of docs/performance.md's "Cost curves" section, from the measurements."""
    def spaced(n: int) -> str:
        return f"{n:,}".replace(",", " ")

    def cell(p: Point | None) -> str:
        if p is None:
            return "not run"
        if p.status == "measured":
            return f"{p.wall_s:.2f} / {p.cpu_s:.2f} s, {p.peak_mib:.1f} MiB"
        if p.status.startswith("over budget: killed after"):
            return f"over budget (killed at {p.status.split('after ')[1]})"
        return p.status.split(":")[0] + (" (see below)" if p.status.startswith("refused") else "")

    def goodput(p: Point | None) -> str:
        return "-" if p is None or p.goodput_mbps is None else f"{p.goodput_mbps:.1f}"

    lines = ["| sweep | point | tcpsim wall / CPU, peak memory | tcpsim events | "
             "ns-2.35 wall / CPU, peak memory | goodput Mb/s, tcpsim / ns-2 |",
             "|---|---|---|---|---|---|"]
    by = {(p.sweep, p.x, p.simulator): p for p in points}
    for name in SWEEPS:
        for x in sorted({p.x for p in points if p.sweep == name}):
            t, n = by.get((name, x, "tcpsim")), by.get((name, x, "ns2"))
            events = spaced(t.events) if t is not None and t.events is not None else "-"
            both = "-" if goodput(t) == goodput(n) == "-" else f"{goodput(t)} / {goodput(n)}"
            lines.append(f"| {name} | {POINT_WORDS[name](x)} | {cell(t)} | {events} | {cell(n)} | {both} |")
    return "\n".join(lines)


def write_outputs(record: dict, points: list[Point], out: Path) -> None:
    """curves.csv and one figure per sweep the record holds."""
    write_csv(points, out / "curves.csv")
    written = []
    for name, s in SWEEPS.items():
        mine = [p for p in points if p.sweep == name]
        if not mine:
            continue
        values, network = (s.quick_values, s.quick_network) if record["quick"] else (s.values, s.network)
        title = (f"{fixed_parameters(s, [network(x) for x in values])}; one run per point, "
                 f"{record['started'][:10]}, commit {record['commit']}")
        plot_sweep(s, mine, values, title, out / f"curves_{name}.png")
        written.append(f"curves_{name}.png")
    print(f"# wrote {out}/curves.json, curves.csv, " + ", ".join(written))
    print("\n" + markdown_table(points))


if __name__ == "__main__":
    sys.exit(main())
