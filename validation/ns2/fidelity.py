"""Differential cases G, H and I against ns-2.35: stop, routing ties, same-time starts.

These cases sit beside harness.py (cases A-F) and reuse its runners and checks; each is a
Tcl script and a tcpsim TOML twin in this folder, printing the lib.tcl output format.

G   case_g.tcl + case_g.toml: five Reno / NewReno flows, each on its own path, start at
    different times and are stopped (FTP ``stop``) in fast recovery, in a go-back-N after
    a timeout, and with a large window in flight. Each flow's goodput within 1 %,
    retransmissions within 5 %, timeouts +-1.

H   case_h.tcl + case_h.toml: two NewReno flows from r1 to r2 over two paths of equal
    hop count (r1-p-r2 fast, r1-q-r2 slow), links declared in an order where the first
    link declared and ns-2's lowest node id disagree. Each flow's goodput within 2 %,
    aggregate 1 %; data (r1->p, r1->q) and ACKs (r2->p, r2->q) on the same paths as
    ns-2 (arrivals 2 %, exactly 0 on the unused path).

I   case_i.tcl + case_i.toml: four NewReno flows with equal RTTs started at the same
    instant; only the order of simultaneous events (flow starts first) tells them
    apart. Each flow's goodput within 0.05 %, aggregate 0.05 %, retransmissions 5 %.

Usage from the command line (prints both sides and the verdicts)::

    python validation/ns2/fidelity.py G|H|I [--seconds S]

Standard library only.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Load harness.py under the name the tests use, so both share one module object.
_NAME = "tcpsim_ns2_harness"
if _NAME in sys.modules:
    harness = sys.modules[_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_NAME, HERE / "harness.py")
    harness = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = harness
    _spec.loader.exec_module(harness)

Check, CaseResult, HarnessError = harness.Check, harness.CaseResult, harness.HarnessError
WIRE_BYTES = harness.WIRE_BYTES


# --------------------------------------------------------------------------- running


def run_ns2_lines(script: Path, seconds: float, seed: int = 1) -> tuple[str, float]:
    """Run ``ns script SECONDS SEED`` in this folder; return (stdout, wall seconds)."""
    import subprocess
    import time

    ns = harness.ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    t0 = time.perf_counter()
    proc = subprocess.run([ns, script.name, f"{seconds:g}", str(seed)], cwd=script.parent,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(f"ns {script.name} exited {proc.returncode}:\n"
                           f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc.stdout, wall


def _kv(line: str) -> dict[str, float]:
    # every value is a number but a flow line's agent=CLASS (lib.tcl's report_tcp)
    return {k: float(v) for k, v in re.findall(r"(\w+)=(\S+)", line) if k != "agent"}


def ns2_flow_metrics(text: str, seconds: float) -> dict[str, float]:
    """Per-flow metrics (``flowI_pkts``, ``flowI_goodput_bps``, ``flowI_retransmits``,
    ``flowI_timeouts``) and totals from lib.tcl output; goodput is ``bytes_ // 1040``."""
    flows = harness.parse_lib_output(text)["flows"]
    m = harness._common_metrics([float(int(f["bytes"]) // WIRE_BYTES) for f in flows], seconds)
    for i, f in enumerate(flows):
        m[f"flow{i}_retransmits"] = f["rexmit_pkts"]
        m[f"flow{i}_timeouts"] = f["timeouts"]
        m[f"flow{i}_packets_sent"] = f["data_pkts"]
    m["retransmits"] = sum(f["rexmit_pkts"] for f in flows)
    m["timeouts"] = sum(f["timeouts"] for f in flows)
    return m


def tcpsim_flow_metrics(run: "harness.TcpsimRun", seconds: float) -> dict[str, float]:
    """The metrics of ns2_flow_metrics from tcpsim's flows.csv."""
    tcp = [f for f in run.flows if f.get("type", "tcp") == "tcp"]
    num = harness._num
    m = harness._common_metrics([num(f, "unique_packets") for f in tcp], seconds)
    for i, f in enumerate(tcp):
        m[f"flow{i}_retransmits"] = num(f, "retransmits")
        m[f"flow{i}_timeouts"] = num(f, "timeouts")
        m[f"flow{i}_packets_sent"] = num(f, "packets_sent")
    m["retransmits"] = sum(num(f, "retransmits") for f in tcp)
    m["timeouts"] = sum(num(f, "timeouts") for f in tcp)
    return m


def run_tcpsim_case(name: str, toml: Path, seconds: float, default_seconds: float,
                    seed: int = 1) -> "harness.TcpsimRun":
    work = Path(tempfile.mkdtemp(prefix=f"tcpsim-{name.lower()}-"))
    sc = harness.scenario_variant(toml, work, None if seconds == default_seconds else seconds, seed)
    return harness.run_tcpsim(sc, work / "out")


def _label(case: str, seconds: float, default: float) -> str:
    return case if seconds == default else f"{case} ({seconds:g} s)"


# --------------------------------------------------------------------------- case G

CASE_G_TCL, CASE_G_TOML = HERE / "case_g.tcl", HERE / "case_g.toml"
CASE_G_FLOWS = 5


def parse_stops(text: str) -> dict[int, dict[str, float]]:
    """case_g.tcl's ``stop I ...`` and ``stopped I curseq=..`` lines, by flow."""
    out: dict[int, dict[str, float]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("stop", "stopped"):
            out.setdefault(int(parts[1]), {}).update(_kv(line))
    return out


def case_g(seconds: float = 15.0) -> CaseResult:
    """Case G, applications that stop: each flow's goodput 1 %, retransmissions 5 %,
    timeouts +-1 (absolute). ``res.ns2_stops`` holds ns-2's sender state at each stop."""
    text, nw = run_ns2_lines(CASE_G_TCL, seconds)
    ns = ns2_flow_metrics(text, seconds)
    run = run_tcpsim_case("G", CASE_G_TOML, seconds, 15.0)
    ts = tcpsim_flow_metrics(run, seconds)
    checks = []
    for i in range(CASE_G_FLOWS):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.01))
    for i in range(CASE_G_FLOWS):
        k = f"flow{i}_retransmits"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.05))
        k = f"flow{i}_timeouts"
        checks.append(Check(k, ns[k], ts[k], "abs", 1))
    res = CaseResult(_label("G", seconds, 15.0), ns, ts, checks, nw, run.wall_s,
                     [f"tcpsim output kept in {run.out_dir}"])
    res.ns2_stops = parse_stops(text)
    return res


# --------------------------------------------------------------------------- case H

CASE_H_TCL, CASE_H_TOML = HERE / "case_h.tcl", HERE / "case_h.toml"
CASE_H_QUEUES = ("r1->p", "r1->q", "r2->p", "r2->q")


def case_h(seconds: float = 30.0) -> CaseResult:
    """Case H, two paths of equal hop count: each flow's goodput 2 %, aggregate goodput
    1 %, packets entering each path's first queue (r1->p, r1->q: data; r2->p, r2->q:
    ACKs) 2 % where ns-2 uses the path, exactly 0 where it does not."""
    text, nw = run_ns2_lines(CASE_H_TCL, seconds)
    ns = ns2_flow_metrics(text, seconds)
    queues = harness.parse_lib_output(text)["queues"]
    run = run_tcpsim_case("H", CASE_H_TOML, seconds, 30.0)
    ts = tcpsim_flow_metrics(run, seconds)
    for q in CASE_H_QUEUES:
        ns[f"{q}_arrivals"] = queues[q]["arrivals"]
        ts[f"{q}_arrivals"] = harness._num(harness.queue_row(run, q), "arrivals")
    checks = [Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.01)]
    for i in range(2):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.02))
    for q in CASE_H_QUEUES:
        k = f"{q}_arrivals"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.02) if ns[k] > 0
                      else Check(k, ns[k], ts[k], "abs", 0))
    return CaseResult(_label("H", seconds, 30.0), ns, ts, checks, nw, run.wall_s,
                      [f"tcpsim output kept in {run.out_dir}"])


# --------------------------------------------------------------------------- case I

CASE_I_TCL, CASE_I_TOML = HERE / "case_i.tcl", HERE / "case_i.toml"


def case_i(seconds: float = 60.0) -> CaseResult:
    """Case I, a symmetric dumbbell started at one instant: each flow's goodput 0.05 %
    (below the 0.09 % between the two closest flows, so a different start order fails),
    aggregate goodput 0.05 %, retransmissions 5 %."""
    text, nw = run_ns2_lines(CASE_I_TCL, seconds)
    ns = ns2_flow_metrics(text, seconds)
    run = run_tcpsim_case("I", CASE_I_TOML, seconds, 60.0)
    ts = tcpsim_flow_metrics(run, seconds)
    checks = [Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.0005)]
    for i in range(4):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.0005))
    checks.append(Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.05))
    return CaseResult(_label("I", seconds, 60.0), ns, ts, checks, nw, run.wall_s,
                      [f"tcpsim output kept in {run.out_dir}"])


# --------------------------------------------------------------------------- command line

CASES = {"G": (case_g, 15.0), "H": (case_h, 30.0), "I": (case_i, 60.0)}


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("case", choices=list(CASES))
    p.add_argument("--seconds", type=float, default=None, help="simulated time (default: the case's)")
    a = p.parse_args(argv)
    fn, default = CASES[a.case]
    res = fn(a.seconds or default)
    print(res.report())
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
