"""Differential tests against ns-2.35: run one case in both simulators and compare.

Each case is an ns-2 Tcl script and a tcpsim TOML twin describing the same network.
Both are run, their output is reduced to the same few metrics, computed the same way,
and compared with the tolerance stated for each metric.

Cases
-----
A   validation/ns2/case_a.tcl + case_a.toml: one Reno flow, 1.5 Mbps / 40 ms bottleneck,
    20-packet DropTail buffer, 100 s. Goodput within 2 %, bottleneck drops within 10 %.
B1  bench/ns2/dumbbell.tcl 16 60 Newreno RED 100Mb + bench/b1.toml: 16 NewReno flows
    over RED. Aggregate goodput within 3 %, Jain's fairness index within 0.02 (absolute).

Model cases (validation/ns2/case_*.tcl + case_*.toml, sharing lib.tcl; run by
tests/test_ns2_models.py, whose docstring states each tolerance and why):
C   one Tahoe flow over case A's network: goodput 2 %, drops 10 %, fast retransmits
    10 %, timeouts +-1.
D1  one NewReno flow, DropTail limit 2 (multi-loss windows): goodput 2 %; drops,
    retransmissions, fast retransmits, multi-loss repairs 10 %; timeouts +-1.
D2  four NewReno flows with RTTs 24-72 ms over DropTail, means over seeds 1-3 on both
    sides: each flow's goodput 5 %, aggregate 2 %.
E   one Reno flow with a delayed-ACK sink: goodput 2 %, ACKs 2 %.
F   packet-mode RED, 8 NewReno + 1 CBR; ns-2 once against the mean of tcpsim seeds 1-3:
    TCP goodput 3 %, CBR packets 2 %, early drops 15 %, Jain's index 0.03.
DRR Queue/DRR (blimit_ 52000, quantum_ 250, buckets_ 10), 4 NewReno flows with RTTs
    24-72 ms + a 6 Mb/s CBR flow: each TCP flow's goodput 2 %, aggregate 1 %, CBR
    packets 1 %; drops per flow (flow monitor by fid_) 15 % for TCP, 1 % for CBR;
    bottleneck drops 2 %; Jain's index 0.01.
ECN case F's RED marking (setbit_ true), 8 ECN NewReno flows; means over seeds 1-3 on
    both sides: goodput 2 %, CE marks 10 %, ECN responses 10 %, drops 15 %,
    retransmissions 25 %, timeouts +-3, Jain's index 0.03.
ECN1 40 ECN NewReno flows with windows around one packet (responses at cwnd <= 1),
    mark_p_ 1.0; means over seeds 1-3: goodput 2 %, marks 10 %, responses 10 %,
    drops 15 %, retransmissions 25 %, Jain's index 0.05.
RED-AUTO Queue/RED at ns-2.35's defaults (thresh_ 0, maxthresh_ 0, q_weight_ -1: computed
    from the link; byte mode), 8 NewReno flows on 20 Mb/s / 40 ms; means over seeds 1-3
    on both sides: goodput 2 %, early drops 15 %, drops 15 %, overflow drops 10 %,
    retransmissions 10 %, Jain's index 0.03.
SACK four Sack1 flows with SACK sinks, DropTail 10: goodput 2 %, each flow's goodput
    5 %; drops, retransmissions, fast retransmits, multi-loss repairs 10 %; timeouts +-1.
SACK-DELACK two Sack1 flows with delayed-ACK SACK sinks, DropTail 5: as SACK, and ACKs
    2 %.
FACK four Agent/TCP/Fack flows on case SACK's network: SACK's tolerances; ns-2's
    timeouts counted from the traced backoff_ (Fack's timeout leaves nrexmit_ at 0).
FACK-OPTS two Fack flows on case SACK-DELACK's network, one with rampdown_, one with
    ss-div4_: SACK-DELACK's tolerances.
V1  one Agent/TCP/Vegas flow on reference document 001 Fig. 1's network (alpha 2, beta 4,
    syn_ false), no loss: goodput and cwnd trajectory (exit from slow start, time to
    equilibrium, cwnd at checkpoints), final cwnd, queue.
V2  V1's network with ns-2.35's Vegas defaults (alpha 1, beta 3, syn_ true).
V3  Vegas through a buffer smaller than the queue it wants: repeated losses; goodput 1 %,
    retransmissions and drops 10 %, timeouts +-1.
FAILOVER-DYNAMIC, FAILOVER-STATIC  link dynamics on a diamond (case_failover.tcl +
    case_failover.toml): a link down and up (rtmodel-at) and a bandwidth halving and
    back, with Session or static routing; one Reno flow, every count exact (delivered,
    sent, retransmitted packets, timeouts, drops on the failed link and the slowed one).
LINKDOWN-CBR  a link holding a queue and packets on the wire goes down and up under CBR
    (case_linkdown_cbr.tcl + .toml): the trace's d and v lines exactly as ns-2's.
DELAY-CBR  a delay decrease with packets on the wire under CBR (case_delay_cbr.tcl +
    .toml): every trace line as ns-2's, in order (the overtaking included).

Units. ns-2's TCPSink ``bytes_`` counts wire bytes (payload + 40-byte header) delivered
in order, including the 40-byte SYN that ns-2.35's one-way TCP sends as sequence 0
(``syn_ true``). tcpsim's ``unique_packets`` counts data packets delivered in order. Both
sides are converted to "in-order data packets x wire size" (ns-2: ``bytes_ // wire``),
so goodput means wire bits per second of in-order data, as the dumbbell script prints it.

Usage from the command line (prints both sides and the verdicts)::

    python validation/ns2/harness.py A
    python validation/ns2/harness.py B1 [--seconds 20]
    python validation/ns2/harness.py C|D1|D2|E|F|DRR|ECN|ECN1|RED-AUTO|SACK|SACK-DELACK|FACK|FACK-OPTS|V1|V2|V3 [--seconds S]

Standard library only.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CASE_A_TCL = HERE / "case_a.tcl"
CASE_A_TOML = HERE / "case_a.toml"
DUMBBELL_TCL = REPO / "bench" / "ns2" / "dumbbell.tcl"
B1_TOML = REPO / "bench" / "b1.toml"

WIRE_BYTES = 1040  # packetSize_ 1000 + tcpip_base_hdr_size_ 40


class HarnessError(RuntimeError):
    """A simulator could not be run or its output could not be read."""


# --------------------------------------------------------------------------- locating tools


def ns_binary() -> str | None:
    """Path of ns-2's ``ns`` on PATH (or $NS2), or None."""
    env = os.environ.get("NS2")
    if env:
        return env if Path(env).exists() else shutil.which(env)
    return shutil.which("ns")


def tcpsim_binary(build: bool = True) -> Path:
    """<repo>/target/release/tcpsim-run, built with cargo if missing and ``build``."""
    env = os.environ.get("TCPSIM_RUN")
    if env:
        return Path(env)
    exe = REPO / "target" / "release" / "tcpsim-run"
    if not exe.exists() and build:
        cargo = shutil.which("cargo")
        if cargo is None:
            raise HarnessError("target/release/tcpsim-run is missing and cargo is not on PATH")
        proc = subprocess.run(
            [cargo, "build", "--release", "-p", "tcpsim"],
            cwd=REPO, capture_output=True, text=True,
        )
        if proc.returncode != 0:
            raise HarnessError("cargo build --release -p tcpsim failed:\n" + proc.stderr[-4000:])
    if not exe.exists():
        raise HarnessError(f"{exe} does not exist")
    return exe


# --------------------------------------------------------------------------- running


def parse_kv_line(text: str, prefix: str = "ns2") -> dict[str, str]:
    """The key=value pairs of the last line of ``text`` that starts with ``prefix``."""
    lines = [ln for ln in text.splitlines() if ln.startswith(prefix + " ")]
    if not lines:
        raise HarnessError(f"no line starting with {prefix!r} in ns output:\n{text[-2000:]}")
    return dict(re.findall(r"(\w+)=(\S+)", lines[-1]))


def run_ns2(script: Path, args: list[str], timeout: float | None = None) -> tuple[dict[str, str], float]:
    """Run ``ns script args...`` in the script's folder; return (key=value dict, wall seconds)."""
    ns = ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    t0 = time.perf_counter()
    proc = subprocess.run(
        [ns, str(script), *map(str, args)], cwd=script.parent,
        capture_output=True, text=True, timeout=timeout,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(
            f"ns {script.name} {' '.join(map(str, args))} exited {proc.returncode}:\n"
            f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )
    return parse_kv_line(proc.stdout), wall


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@dataclass
class TcpsimRun:
    flows: list[dict[str, str]]
    queues: list[dict[str, str]]
    links: list[dict[str, str]]
    summary: dict
    wall_s: float
    out_dir: Path


def run_tcpsim(scenario: Path, out_dir: Path | None = None, extra_args: list[str] | None = None,
               timeout: float | None = None) -> TcpsimRun:
    """Run ``tcpsim-run scenario --out DIR --csv`` and read its tables."""
    exe = tcpsim_binary()
    if out_dir is None:
        out_dir = Path(tempfile.mkdtemp(prefix="tcpsim-diff-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [str(exe), str(scenario), "--out", str(out_dir), "--csv", *(extra_args or [])]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(
            f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
        )
    summary_path = out_dir / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    links_path = out_dir / "links.csv"
    return TcpsimRun(
        flows=read_csv(out_dir / "flows.csv"),
        queues=read_csv(out_dir / "queues.csv"),
        links=read_csv(links_path) if links_path.exists() else [],
        summary=summary,
        wall_s=wall,
        out_dir=out_dir,
    )


# --------------------------------------------------------------------------- metrics


def jain(xs: list[float]) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2); 1 for equal shares."""
    s1 = sum(xs)
    s2 = sum(x * x for x in xs)
    return s1 * s1 / (len(xs) * s2) if s2 > 0 else float("nan")


def _num(row: dict[str, str], key: str) -> float:
    v = row.get(key, "")
    return float(v) if v not in ("", None) else float("nan")


def queue_row(run: TcpsimRun, name: str) -> dict[str, str]:
    for q in run.queues:
        if q.get("queue") == name:
            return q
    raise HarnessError(f"queue {name!r} not in queues.csv (have {[q.get('queue') for q in run.queues]})")


@dataclass
class Check:
    metric: str
    ns2: float
    tcpsim: float
    kind: str  # "rel" (|t-n| <= tol*|n|) or "abs" (|t-n| <= tol)
    tol: float

    @property
    def diff(self) -> float:
        d = self.tcpsim - self.ns2
        return d / self.ns2 if self.kind == "rel" and self.ns2 != 0 else d

    @property
    def ok(self) -> bool:
        if any(math.isnan(x) for x in (self.ns2, self.tcpsim)):
            return False
        return abs(self.diff) <= self.tol + 1e-12

    def line(self) -> str:
        unit = "%" if self.kind == "rel" else ""
        d = self.diff * (100 if self.kind == "rel" else 1)
        t = self.tol * (100 if self.kind == "rel" else 1)
        return (f"{self.metric:<22} ns2={self.ns2:<16.6g} tcpsim={self.tcpsim:<16.6g} "
                f"diff={d:+.4g}{unit} (tol ±{t:g}{unit}) {'OK' if self.ok else 'FAIL'}")


@dataclass
class CaseResult:
    case: str
    ns2: dict[str, float]
    tcpsim: dict[str, float]
    checks: list[Check]
    ns2_wall_s: float = float("nan")
    tcpsim_wall_s: float = float("nan")
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def report(self) -> str:
        keys = sorted(set(self.ns2) | set(self.tcpsim))
        out = [f"case {self.case}: {'PASS' if self.ok else 'FAIL'}"
               f"  (wall: ns2 {self.ns2_wall_s:.2f} s, tcpsim {self.tcpsim_wall_s:.2f} s)"]
        out += ["  " + c.line() for c in self.checks]
        out.append(f"  {'metric':<22} {'ns2':>16} {'tcpsim':>16}")
        for k in keys:
            a = self.ns2.get(k, float("nan"))
            b = self.tcpsim.get(k, float("nan"))
            out.append(f"  {k:<22} {a:>16.6g} {b:>16.6g}")
        out += ["  note: " + n for n in self.notes]
        return "\n".join(out)


# --------------------------------------------------------------------------- case A


def case_a_ns2(seconds: float = 100.0, trace: Path | None = None) -> tuple[dict[str, float], float]:
    args: list[str] = [f"{seconds:g}"]
    if trace is not None:
        args.append(str(trace))
    kv, wall = run_ns2(CASE_A_TCL, args)
    pkts = int(kv["sink_bytes"]) // WIRE_BYTES
    return {
        "delivered_pkts": pkts,
        "goodput_bps": pkts * WIRE_BYTES * 8 / seconds,
        "packets_sent": float(kv["data_pkts"]),
        "retransmits": float(kv["rexmit_pkts"]),
        "timeouts": float(kv["timeouts"]),
        "bottleneck_arrivals": float(kv["bn_arrivals"]),
        "bottleneck_drops": float(kv["bn_drops"]),
        "drops_total": float(kv["drops_total"]),
        "final_cwnd": float(kv["final_cwnd"]),
    }, wall


def case_a_tcpsim(scenario: Path = CASE_A_TOML, seconds: float = 100.0,
                  out_dir: Path | None = None) -> tuple[dict[str, float], TcpsimRun]:
    run = run_tcpsim(scenario, out_dir)
    if len(run.flows) != 1:
        raise HarnessError(f"case A expects one flow, flows.csv has {len(run.flows)}")
    f = run.flows[0]
    bn = queue_row(run, "r1->r2")
    pkts = int(_num(f, "unique_packets"))
    drops_total = sum(_num(q, "early_drops") + _num(q, "overflow_drops") for q in run.queues)
    return {
        "delivered_pkts": pkts,
        "goodput_bps": pkts * WIRE_BYTES * 8 / seconds,
        "packets_sent": _num(f, "packets_sent"),
        "retransmits": _num(f, "retransmits"),
        "timeouts": _num(f, "timeouts"),
        "bottleneck_arrivals": _num(bn, "arrivals"),
        "bottleneck_drops": _num(bn, "early_drops") + _num(bn, "overflow_drops"),
        "drops_total": drops_total,
        "final_cwnd": _num(f, "final_cwnd"),
    }, run


def case_a(seconds: float = 100.0, scenario: Path = CASE_A_TOML) -> CaseResult:
    """Case A with its tolerances: goodput 2 %, bottleneck drops 10 %."""
    ns, ns_wall = case_a_ns2(seconds)
    if seconds != 100.0:
        scenario = scenario_with_duration(scenario, seconds, Path(tempfile.mkdtemp(prefix="tcpsim-a-")))
    ts, run = case_a_tcpsim(scenario, seconds)
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
    ]
    res = CaseResult("A" if seconds == 100.0 else f"A ({seconds:g} s)", ns, ts, checks,
                     ns_wall, run.wall_s)
    res.notes.append(f"tcpsim output kept in {run.out_dir}")
    return res


# --------------------------------------------------------------------------- dumbbell (B1, B2)


def dumbbell_ns2(n: int, seconds: float, tcp: str = "Newreno", queue: str = "RED",
                 bw: str = "100Mb", timeout: float | None = None) -> tuple[dict[str, float], float]:
    kv, wall = run_ns2(DUMBBELL_TCL, [str(n), f"{seconds:g}", tcp, queue, bw], timeout=timeout)
    return {"goodput_mbps": float(kv["goodput_mbps"]), "jain": float(kv["jain"])}, wall


DUMBBELL_STATS_TCL = HERE / "dumbbell_stats.tcl"


def dumbbell_ns2_detail(n: int, seconds: float, tcp: str = "Newreno", queue: str = "RED",
                        bw: str = "100Mb", timeout: float | None = None) -> dict[str, float]:
    """Counters of the same run from dumbbell_stats.tcl (monitors only; same random draws)."""
    ns = ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    proc = subprocess.run([ns, DUMBBELL_STATS_TCL.name, str(n), f"{seconds:g}", tcp, queue, bw],
                          cwd=HERE, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise HarnessError(f"dumbbell_stats.tcl exited {proc.returncode}: {proc.stderr[-2000:]}")
    flows = [dict(re.findall(r"(\w+)=(\S+)", ln)) for ln in proc.stdout.splitlines()
             if ln.startswith("flow ")]
    q = parse_kv_line(proc.stdout, "queue")
    drops, early = float(q["drops"]), float(q["early_drops"])
    return {
        "retransmits": sum(float(f["rexmit_pkts"]) for f in flows),
        "timeouts": sum(float(f["timeouts"]) for f in flows),
        # ncwndcuts1_ counts window cuts with data outstanding: fast retransmits + timeouts
        "fast_retransmits": sum(float(f["cwnd_cuts"]) - float(f["timeouts"]) for f in flows),
        "packets_sent": sum(float(f["data_pkts"]) for f in flows),
        "bottleneck_arrivals": float(q["arrivals"]),
        "bottleneck_early_drops": early,
        "bottleneck_overflow_drops": drops - early,
    }


def dumbbell_metrics(run: TcpsimRun, seconds: float) -> dict[str, float]:
    """Aggregate goodput (Mbps of wire bytes, as dumbbell.tcl computes it) and Jain's index."""
    per_flow = [_num(f, "unique_packets") * WIRE_BYTES * 8.0 / seconds / 1e6 for f in run.flows]
    out = {"goodput_mbps": sum(per_flow), "jain": jain(per_flow)}
    try:
        bn = queue_row(run, "r1->r2")
        out["bottleneck_early_drops"] = _num(bn, "early_drops")
        out["bottleneck_overflow_drops"] = _num(bn, "overflow_drops")
        out["bottleneck_mean_len_pkts"] = _num(bn, "mean_length_pkts")
        out["bottleneck_arrivals"] = _num(bn, "arrivals")
    except HarnessError:
        pass
    out["packets_sent"] = sum(_num(f, "packets_sent") for f in run.flows)
    out["retransmits"] = sum(_num(f, "retransmits") for f in run.flows)
    out["timeouts"] = sum(_num(f, "timeouts") for f in run.flows)
    out["fast_retransmits"] = sum(_num(f, "fast_retransmits") for f in run.flows)
    return out


def scenario_with_duration(scenario: Path, seconds: float, out_dir: Path) -> Path:
    """A copy of ``scenario`` whose [simulation] duration is ``seconds``."""
    text = scenario.read_text()
    new, k = re.subn(r'(?m)^(\s*duration\s*=\s*)"[^"]*"', rf'\g<1>"{seconds:g}s"', text, count=1)
    if k != 1:
        raise HarnessError(f"no duration line in {scenario}")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / scenario.name
    path.write_text(new)
    return path


def case_b1(seconds: float = 60.0, scenario: Path = B1_TOML, detail: bool = True) -> CaseResult:
    """Case B1 with its tolerances: aggregate goodput 3 %, Jain's index 0.02 absolute.

    The checked numbers come from bench/ns2/dumbbell.tcl itself; with ``detail`` the
    counters of dumbbell_stats.tcl (same run) are added for the report.
    """
    ns, ns_wall = dumbbell_ns2(16, seconds, "Newreno", "RED", "100Mb")
    if detail:
        ns.update(dumbbell_ns2_detail(16, seconds, "Newreno", "RED", "100Mb"))
    work = Path(tempfile.mkdtemp(prefix="tcpsim-b1-"))
    if seconds != 60.0:
        scenario = scenario_with_duration(scenario, seconds, work)
    run = run_tcpsim(scenario, work / "out")
    ts = dumbbell_metrics(run, seconds)
    checks = [
        Check("goodput_mbps", ns["goodput_mbps"], ts["goodput_mbps"], "rel", 0.03),
        Check("jain", ns["jain"], ts["jain"], "abs", 0.02),
    ]
    res = CaseResult("B1" if seconds == 60.0 else f"B1 ({seconds:g} s)", ns, ts, checks,
                     ns_wall, run.wall_s)
    res.notes.append(f"tcpsim output kept in {run.out_dir}")
    return res


# --------------------------------------------------------------------------- cases C, D1, D2, E, F, ECN, ECN1
# --------------------------------------------------------------------------- cases C, D1, D2, E, F, SACK, SACK-DELACK
#
# Their Tcl scripts source lib.tcl and print one "flow I ..." line per TCP flow, one
# "cbr I ..." line per CBR flow and one "queue FROM->TO ..." line per monitored link
# direction (r1->r2, the bottleneck, and r2->r1, the ACK direction). Usage:
# ``ns case_x.tcl [SECONDS [SEED [TRACEFILE]]]``; seed 1 is ns-2's default.

CASE_C_TCL, CASE_C_TOML = HERE / "case_c.tcl", HERE / "case_c.toml"
CASE_D1_TCL, CASE_D1_TOML = HERE / "case_d1.tcl", HERE / "case_d1.toml"
CASE_D2_TCL, CASE_D2_TOML = HERE / "case_d2.tcl", HERE / "case_d2.toml"
CASE_E_TCL, CASE_E_TOML = HERE / "case_e.tcl", HERE / "case_e.toml"
CASE_F_TCL, CASE_F_TOML = HERE / "case_f.tcl", HERE / "case_f.toml"
CASE_DRR_TCL, CASE_DRR_TOML = HERE / "case_drr.tcl", HERE / "case_drr.toml"
CASE_ECN_TCL, CASE_ECN_TOML = HERE / "case_ecn.tcl", HERE / "case_ecn.toml"
CASE_ECN1_TCL, CASE_ECN1_TOML = HERE / "case_ecn1.tcl", HERE / "case_ecn1.toml"
CASE_RED_AUTO_TCL, CASE_RED_AUTO_TOML = HERE / "case_red_auto.tcl", HERE / "case_red_auto.toml"
CASE_SACK_TCL, CASE_SACK_TOML = HERE / "case_sack.tcl", HERE / "case_sack.toml"
CASE_SACK_DELACK_TCL, CASE_SACK_DELACK_TOML = HERE / "case_sack_delack.tcl", HERE / "case_sack_delack.toml"
CASE_FACK_TCL, CASE_FACK_TOML = HERE / "case_fack.tcl", HERE / "case_fack.toml"
CASE_FACK_OPTS_TCL, CASE_FACK_OPTS_TOML = HERE / "case_fack_opts.tcl", HERE / "case_fack_opts.toml"

BOTTLENECK = "r1->r2"
REVERSE = "r2->r1"
#: Keys of lib.tcl's report lines whose values are words, not numbers.
WORD_KEYS = {"agent"}


def parse_lib_output(text: str) -> dict:
    """The flow / cbr / queue / fid lines printed by lib.tcl, and the "red FROM->TO ..."
    lines a script prints itself (a RED queue's thresh_, maxthresh_, q_weight_), as dicts
    of floats."""
    def kv(line: str) -> dict[str, float]:
        # every value is a number but a flow line's agent=CLASS (lib.tcl's report_tcp)
        return {k: float(v) for k, v in re.findall(r"(\w+)=(\S+)", line) if k not in WORD_KEYS}

    flows: dict[int, dict[str, float]] = {}
    cbrs: dict[int, dict[str, float]] = {}
    queues: dict[str, dict[str, float]] = {}
    fids: dict[str, dict[int, dict[str, float]]] = {}
    reds: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        if parts[0] == "flow":
            flows[int(parts[1])] = kv(line)
        elif parts[0] == "cbr":
            cbrs[int(parts[1])] = kv(line)
        elif parts[0] == "queue":
            queues[parts[1]] = kv(line)
        elif parts[0] == "fid" and len(parts) > 2:
            fids.setdefault(parts[2], {})[int(parts[1])] = kv(line)
        elif parts[0] == "red":
            reds[parts[1]] = kv(line)
    parse_kv_line(text)  # the closing "ns2 case=..." line must be there
    return {"flows": [flows[i] for i in sorted(flows)], "cbr": [cbrs[i] for i in sorted(cbrs)],
            "queues": queues, "fids": fids, "red": reds}


def backoff_rises(text: str) -> int | None:
    """Timeouts read from traced ``backoff_`` lines ("T addr port dst dport backoff_ V",
    written by ``$tcp attach stdout; $tcp trace backoff_``): each timeout with data
    outstanding doubles the back-off, so a rise is a timeout. None when nothing is traced."""
    last: dict[tuple[str, str], int] = {}
    rises, seen = 0, False
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 7 and parts[5] == "backoff_":
            seen = True
            agent, value = (parts[1], parts[2]), int(parts[6])
            if value > last.get(agent, value):
                rises += 1
            last[agent] = value
    return rises if seen else None


def _common_metrics(per_flow_pkts: list[float], seconds: float) -> dict[str, float]:
    out: dict[str, float] = {}
    for i, p in enumerate(per_flow_pkts):
        out[f"flow{i}_pkts"] = p
        out[f"flow{i}_goodput_bps"] = p * WIRE_BYTES * 8 / seconds
    out["delivered_pkts"] = sum(per_flow_pkts)
    out["goodput_bps"] = sum(per_flow_pkts) * WIRE_BYTES * 8 / seconds
    if len(per_flow_pkts) > 1:
        out["jain"] = jain(per_flow_pkts)
    return out


def ns2_case_metrics(script: Path, seconds: float, seed: int = 1,
                     trace: Path | None = None) -> tuple[dict[str, float], float]:
    """Run a lib.tcl case script; metrics named as tcpsim_case_metrics names them.

    Goodput is in-order data packets x 1040 B (``bytes_ // 1040``, which drops the 40-byte
    SYN); ``fast_retransmits`` is ``ncwndcuts1_ - nrexmit_`` (window cuts with data
    outstanding that were not timeouts).
    """
    args = [f"{seconds:g}", str(seed)] + ([str(trace)] if trace is not None else [])
    ns = ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    t0 = time.perf_counter()
    proc = subprocess.run([ns, script.name, *args], cwd=script.parent,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(f"ns {script.name} {' '.join(args)} exited {proc.returncode}:\n"
                           f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    out = parse_lib_output(proc.stdout)
    flows, qs = out["flows"], out["queues"]
    m = _common_metrics([float(int(f["bytes"]) // WIRE_BYTES) for f in flows], seconds)
    m["packets_sent"] = sum(f["data_pkts"] for f in flows)
    m["retransmits"] = sum(f["rexmit_pkts"] for f in flows)
    m["timeouts"] = sum(f["timeouts"] for f in flows)
    m["fast_retransmits"] = sum(f["cwnd_cuts"] - f["timeouts"] for f in flows)
    rises = backoff_rises(proc.stdout)
    if rises is not None:
        # Agent/TCP/Fack's timeout leaves nrexmit_ at 0: count its timeouts from backoff_.
        m["timeouts"] = float(rises)
        m["fast_retransmits"] = sum(f["cwnd_cuts"] for f in flows) - rises
    m["ecn_responses"] = sum(f.get("ecn_responses", 0.0) for f in flows)
    bn = qs[BOTTLENECK]
    m["bottleneck_arrivals"] = bn["arrivals"]
    m["bottleneck_drops"] = bn["drops"]
    m["bottleneck_early_drops"] = bn["early_drops"]
    m["bottleneck_overflow_drops"] = bn["drops"] - bn["early_drops"]
    m["bottleneck_marks"] = bn.get("marks", 0.0)
    m["reverse_arrivals"] = qs[REVERSE]["arrivals"]
    if out["cbr"]:
        m["cbr_rx_pkts"] = sum(c["rx_pkts"] for c in out["cbr"])
    if len(flows) == 1:
        m["final_cwnd"] = flows[0]["cwnd"]
    # Drops per fid_ at the bottleneck (flow monitor, monitor_link_flows); the scripts
    # set fid_ to tcpsim's flow index.
    for fid, f in out["fids"].get(BOTTLENECK, {}).items():
        m[f"fid{fid}_drops"] = f["drops"]
    # The bottleneck RED queue's thresholds and weight, as ns-2 computed them (printed by
    # the script once the run has started).
    for var, value in out["red"].get(BOTTLENECK, {}).items():
        m[f"red_{var}"] = value
    return m, wall


def tcpsim_case_metrics(run: TcpsimRun, seconds: float, fid_drops: bool = False) -> dict[str, float]:
    """The metrics of ns2_case_metrics from tcpsim's flows.csv and queues.csv.

    With ``fid_drops``, ``fid{i}_drops`` is flow i's drops (flows.csv counts them on the
    whole path) and ``drops_off_bottleneck`` the drops at every other queue, which must be
    0 for the two to compare with ns-2's flow monitor on the bottleneck."""
    tcp = [f for f in run.flows if f.get("type", "tcp") == "tcp"]
    cbr = [f for f in run.flows if f.get("type") == "cbr"]
    m = _common_metrics([_num(f, "unique_packets") for f in tcp], seconds)
    m["packets_sent"] = sum(_num(f, "packets_sent") for f in tcp)
    m["retransmits"] = sum(_num(f, "retransmits") for f in tcp)
    m["timeouts"] = sum(_num(f, "timeouts") for f in tcp)
    m["fast_retransmits"] = sum(_num(f, "fast_retransmits") for f in tcp)
    m["ecn_responses"] = sum(_num(f, "ecn_reductions") for f in tcp)
    bn = queue_row(run, BOTTLENECK)
    m["bottleneck_arrivals"] = _num(bn, "arrivals")
    m["bottleneck_early_drops"] = _num(bn, "early_drops")
    m["bottleneck_overflow_drops"] = _num(bn, "overflow_drops")
    m["bottleneck_drops"] = m["bottleneck_early_drops"] + m["bottleneck_overflow_drops"]
    m["bottleneck_marks"] = _num(bn, "marks")
    m["reverse_arrivals"] = _num(queue_row(run, REVERSE), "arrivals")
    if cbr:
        m["cbr_rx_pkts"] = sum(_num(f, "unique_packets") for f in cbr)
    if len(tcp) == 1:
        m["final_cwnd"] = _num(tcp[0], "final_cwnd")
    if fid_drops:
        for i, f in enumerate(run.flows):
            m[f"fid{i}_drops"] = _num(f, "drops")
        m["drops_off_bottleneck"] = sum(_num(q, "early_drops") + _num(q, "overflow_drops")
                                        for q in run.queues if q.get("queue") != BOTTLENECK)
    return m


def scenario_variant(scenario: Path, out_dir: Path, seconds: float | None = None,
                     seed: int | None = None) -> Path:
    """A copy of ``scenario`` in ``out_dir`` with another duration and/or seed."""
    text = scenario.read_text()
    if seconds is not None:
        text, k = re.subn(r'(?m)^(\s*duration\s*=\s*)"[^"]*"', rf'\g<1>"{seconds:g}s"', text, count=1)
        if k != 1:
            raise HarnessError(f"no duration line in {scenario}")
    if seed is not None:
        text, k = re.subn(r"(?m)^(\s*seed\s*=\s*)\d+", rf"\g<1>{int(seed)}", text, count=1)
        if k != 1:
            raise HarnessError(f"no seed line in {scenario}")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{scenario.stem}_seed{seed if seed is not None else 'x'}.toml"
    path.write_text(text)
    return path


def mean_of(runs: list[dict[str, float]]) -> dict[str, float]:
    keys = set().union(*runs)
    return {k: sum(r.get(k, float("nan")) for r in runs) / len(runs) for k in keys}


def run_case(name: str, tcl: Path, toml: Path, seconds: float, default_seconds: float,
             ns_seeds: tuple[int, ...] = (1,), tcpsim_seeds: tuple[int, ...] = (1,),
             fid_drops: bool = False
             ) -> tuple[dict[str, float], dict[str, float], float, float, list[str]]:
    """Run ns-2 once per ns seed and tcpsim once per tcpsim seed; return the means.

    Returns (ns2 means, tcpsim means, ns2 wall s, tcpsim wall s, notes). With one seed a
    side's "mean" is that run. The notes list each run's key numbers.
    """
    notes: list[str] = []
    ns_runs, ns_wall = [], 0.0
    for s in ns_seeds:
        m, w = ns2_case_metrics(tcl, seconds, s)
        ns_runs.append(m)
        ns_wall += w
    work = Path(tempfile.mkdtemp(prefix=f"tcpsim-{name.lower()}-"))
    ts_runs, ts_wall = [], 0.0
    for s in tcpsim_seeds:
        sc = scenario_variant(toml, work, None if seconds == default_seconds else seconds, s)
        run = run_tcpsim(sc, work / f"out_seed{s}")
        ts_runs.append(tcpsim_case_metrics(run, seconds, fid_drops))
        ts_wall += run.wall_s

    def brief(m: dict[str, float]) -> str:
        keys = ["delivered_pkts", "bottleneck_drops", "bottleneck_early_drops",
                "bottleneck_marks", "ecn_responses", "retransmits",
                "fast_retransmits", "timeouts", "cbr_rx_pkts", "jain"]
        flows = [m[k] for k in sorted(m) if k.startswith("flow") and k.endswith("_pkts")]
        s = " ".join(f"{k}={m[k]:.6g}" for k in keys if k in m)
        return s + (f" per-flow pkts={[int(x) for x in flows]}" if len(flows) > 1 else "")

    if len(ns_seeds) > 1:
        notes += [f"ns2 seed {s}: {brief(m)}" for s, m in zip(ns_seeds, ns_runs)]
    if len(tcpsim_seeds) > 1:
        notes += [f"tcpsim seed {s}: {brief(m)}" for s, m in zip(tcpsim_seeds, ts_runs)]
    notes.append(f"tcpsim outputs kept in {work}")
    return mean_of(ns_runs), mean_of(ts_runs), ns_wall, ts_wall, notes


def _label(case: str, seconds: float, default: float) -> str:
    return case if seconds == default else f"{case} ({seconds:g} s)"


def _loss_recovery_checks(ns: dict, ts: dict) -> list:
    """The checks of a deterministic single-flow drop-tail case (C, GAIMD): goodput 2 %,
    bottleneck drops 10 %, fast retransmits 10 %, timeouts +-1 (absolute)."""
    return [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
        Check("fast_retransmits", ns["fast_retransmits"], ts["fast_retransmits"], "rel", 0.10),
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 1),
    ]


def case_c(seconds: float = 100.0) -> CaseResult:
    """Case C, Tahoe over DropTail: goodput 2 %, bottleneck drops 10 %,
    fast retransmits 10 %, timeouts +-1 (absolute)."""
    ns, ts, nw, tw, notes = run_case("C", CASE_C_TCL, CASE_C_TOML, seconds, 100.0)
    checks = _loss_recovery_checks(ns, ts)
    return CaseResult(_label("C", seconds, 100.0), ns, ts, checks, nw, tw, notes)


def _add_multi_loss(m: dict[str, float]) -> None:
    # Losses not repaired by their own fast retransmit or timeout: NewReno repairs them
    # with partial-ACK retransmissions. They lie in windows that lost more than one packet.
    m["multi_loss_repairs"] = m["bottleneck_drops"] - m["fast_retransmits"] - m["timeouts"]


def case_d1(seconds: float = 60.0) -> CaseResult:
    """Case D1, NewReno with multi-loss windows: goodput 2 %, bottleneck drops 10 %,
    retransmissions 10 %, fast retransmits 10 %, multi-loss repairs 10 %, timeouts +-1."""
    ns, ts, nw, tw, notes = run_case("D1", CASE_D1_TCL, CASE_D1_TOML, seconds, 60.0)
    _add_multi_loss(ns)
    _add_multi_loss(ts)
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.10),
        Check("fast_retransmits", ns["fast_retransmits"], ts["fast_retransmits"], "rel", 0.10),
        Check("multi_loss_repairs", ns["multi_loss_repairs"], ts["multi_loss_repairs"], "rel", 0.10),
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 1),
    ]
    return CaseResult(_label("D1", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def case_d2(seconds: float = 120.0, seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case D2, RTT unfairness over DropTail, means over ``seeds`` on both sides:
    each flow's goodput 5 %, aggregate goodput 2 %."""
    ns, ts, nw, tw, notes = run_case("D2", CASE_D2_TCL, CASE_D2_TOML, seconds, 120.0,
                                     ns_seeds=seeds, tcpsim_seeds=seeds)
    checks = [Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02)]
    for i in range(4):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.05))
    return CaseResult(_label("D2", seconds, 120.0), ns, ts, checks, nw, tw, notes)


def case_e(seconds: float = 100.0) -> CaseResult:
    """Case E, Reno with a delayed-ACK sink: goodput 2 %, ACKs (arrivals at r2->r1) 2 %."""
    ns, ts, nw, tw, notes = run_case("E", CASE_E_TCL, CASE_E_TOML, seconds, 100.0)
    for m in (ns, ts):
        m["acks"] = m["reverse_arrivals"]
        m["acks_per_data_pkt"] = m["acks"] / m["packets_sent"]
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("acks", ns["acks"], ts["acks"], "rel", 0.02),
    ]
    return CaseResult(_label("E", seconds, 100.0), ns, ts, checks, nw, tw, notes)


CASE_GAIMD_TCL, CASE_GAIMD_TOML = HERE / "case_gaimd.tcl", HERE / "case_gaimd.toml"


def case_gaimd(seconds: float = 100.0) -> CaseResult:
    """Case GAIMD, TCP(0.31, 0.875) (Reno with increase_num 0.31, decrease_num 0.875) over
    DropTail, deterministic: goodput 2 %, bottleneck drops 10 %, fast retransmits 10 %,
    timeouts +-1 (absolute)."""
    ns, ts, nw, tw, notes = run_case("GAIMD", CASE_GAIMD_TCL, CASE_GAIMD_TOML, seconds, 100.0)
    checks = _loss_recovery_checks(ns, ts)
    return CaseResult(_label("GAIMD", seconds, 100.0), ns, ts, checks, nw, tw, notes)


def case_f(seconds: float = 60.0, tcpsim_seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case F, packet-mode RED with 8 NewReno flows and a CBR flow; ns-2 once (its default
    seed) against the mean of tcpsim over ``tcpsim_seeds``: aggregate TCP goodput 3 %, CBR
    packets delivered 2 %, bottleneck early drops 15 %, Jain's index 0.03 (absolute)."""
    ns, ts, nw, tw, notes = run_case("F", CASE_F_TCL, CASE_F_TOML, seconds, 60.0,
                                     ns_seeds=(1,), tcpsim_seeds=tcpsim_seeds)
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.03),
        Check("cbr_rx_pkts", ns["cbr_rx_pkts"], ts["cbr_rx_pkts"], "rel", 0.02),
        Check("bottleneck_early_drops", ns["bottleneck_early_drops"],
              ts["bottleneck_early_drops"], "rel", 0.15),
        Check("jain", ns["jain"], ts["jain"], "abs", 0.03),
    ]
    return CaseResult(_label("F", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def case_drr(seconds: float = 60.0) -> CaseResult:
    """Case DRR, Queue/DRR with four NewReno flows of RTTs 24-72 ms and a 6 Mb/s CBR flow.
    Both sides are deterministic here (the runs are the same for every seed), so one run
    each: each TCP flow's goodput 2 %, aggregate TCP goodput 1 %, CBR packets delivered
    1 %, drops per flow 15 % (TCP, about 100 each) and 1 % (CBR), bottleneck drops 2 %,
    Jain's index over the TCP flows 0.01 (absolute)."""
    ns, ts, nw, tw, notes = run_case("DRR", CASE_DRR_TCL, CASE_DRR_TOML, seconds, 60.0,
                                     fid_drops=True)
    checks = [Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.01)]
    for i in range(4):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.02))
    checks.append(Check("cbr_rx_pkts", ns["cbr_rx_pkts"], ts["cbr_rx_pkts"], "rel", 0.01))
    for i in range(5):
        k = f"fid{i}_drops"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.15 if i < 4 else 0.01))
    checks += [
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.02),
        Check("jain", ns["jain"], ts["jain"], "abs", 0.01),
    ]
    return CaseResult(_label("DRR", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def _ecn_checks(ns: dict[str, float], ts: dict[str, float]) -> list[Check]:
    """The checks both ECN cases share: goodput 2 %, CE marks 10 %, ECN responses 10 %,
    bottleneck drops 15 %, retransmissions 25 %."""
    return [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("bottleneck_marks", ns["bottleneck_marks"], ts["bottleneck_marks"], "rel", 0.10),
        Check("ecn_responses", ns["ecn_responses"], ts["ecn_responses"], "rel", 0.10),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.15),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.25),
    ]


def case_ecn(seconds: float = 60.0, ns_seeds: tuple[int, ...] = (1, 2, 3),
             tcpsim_seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case ECN, eight ECN-capable NewReno flows over a marking RED queue, means over
    ``ns_seeds`` and ``tcpsim_seeds``: aggregate goodput 2 %, CE marks 10 %, ECN
    responses 10 %, bottleneck drops 15 %, retransmissions 25 %, timeouts +-3
    (absolute), Jain's index 0.03 (absolute). ns-2's ``fast_retransmits``
    (``ncwndcuts1_ - nrexmit_``) also counts ECN responses, so it is not compared."""
    ns, ts, nw, tw, notes = run_case("ECN", CASE_ECN_TCL, CASE_ECN_TOML, seconds, 60.0,
                                     ns_seeds=ns_seeds, tcpsim_seeds=tcpsim_seeds)
    checks = _ecn_checks(ns, ts) + [
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 3),
        Check("jain", ns["jain"], ts["jain"], "abs", 0.03),
    ]
    return CaseResult(_label("ECN", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def case_ecn1(seconds: float = 60.0, ns_seeds: tuple[int, ...] = (1, 2, 3),
              tcpsim_seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case ECN1, forty ECN-capable NewReno flows with windows around one packet (ECN
    responses at cwnd <= 1, timer-paced sending), means over the seeds: aggregate
    goodput 2 %, CE marks 10 %, ECN responses 10 %, bottleneck drops 15 %,
    retransmissions 25 %, Jain's index 0.05 (absolute). Timeouts are not compared:
    tcpsim counts the timer expiries after an ECN response that ns-2's ``nrexmit_``
    leaves out (about 11 per run here)."""
    ns, ts, nw, tw, notes = run_case("ECN1", CASE_ECN1_TCL, CASE_ECN1_TOML, seconds, 60.0,
                                     ns_seeds=ns_seeds, tcpsim_seeds=tcpsim_seeds)
    checks = _ecn_checks(ns, ts) + [Check("jain", ns["jain"], ts["jain"], "abs", 0.05)]
    return CaseResult(_label("ECN1", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def case_red_auto(seconds: float = 60.0, ns_seeds: tuple[int, ...] = (1, 2, 3),
                  tcpsim_seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case RED-AUTO, Queue/RED at ns-2.35's defaults (thresholds and weight computed from
    the link, byte mode) with eight NewReno flows, means over ``ns_seeds`` and
    ``tcpsim_seeds``: aggregate goodput 2 %, bottleneck early drops 15 %, drops 15 %,
    overflow drops 10 %, retransmissions 10 %, Jain's index 0.03 (absolute). The ns-2
    side also reports the thresh_, maxthresh_ and q_weight_ it computed
    (``red_thresh_`` ...)."""
    ns, ts, nw, tw, notes = run_case("RED-AUTO", CASE_RED_AUTO_TCL, CASE_RED_AUTO_TOML, seconds, 60.0,
                                     ns_seeds=ns_seeds, tcpsim_seeds=tcpsim_seeds)
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02),
        Check("bottleneck_early_drops", ns["bottleneck_early_drops"],
              ts["bottleneck_early_drops"], "rel", 0.15),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.15),
        Check("bottleneck_overflow_drops", ns["bottleneck_overflow_drops"],
              ts["bottleneck_overflow_drops"], "rel", 0.10),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.10),
        Check("jain", ns["jain"], ts["jain"], "abs", 0.03),
    ]
    return CaseResult(_label("RED-AUTO", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def _sack_checks(ns: dict[str, float], ts: dict[str, float], flows: int) -> list[Check]:
    """The checks both SACK cases share: goodput 2 %, each flow's goodput 5 %; drops,
    retransmissions, fast retransmits, multi-loss repairs 10 %; timeouts +-1."""
    checks = [Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.02)]
    for i in range(flows):
        k = f"flow{i}_goodput_bps"
        checks.append(Check(k, ns[k], ts[k], "rel", 0.05))
    checks += [
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.10),
        Check("fast_retransmits", ns["fast_retransmits"], ts["fast_retransmits"], "rel", 0.10),
        Check("multi_loss_repairs", ns["multi_loss_repairs"], ts["multi_loss_repairs"], "rel", 0.10),
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 1),
    ]
    return checks


def case_sack(seconds: float = 60.0) -> CaseResult:
    """Case SACK, four Sack1 flows with SACK sinks over a 10-packet DropTail buffer:
    goodput 2 %, each flow's goodput 5 %; drops, retransmissions, fast retransmits,
    multi-loss repairs 10 %; timeouts +-1."""
    ns, ts, nw, tw, notes = run_case("SACK", CASE_SACK_TCL, CASE_SACK_TOML, seconds, 60.0)
    _add_multi_loss(ns)
    _add_multi_loss(ts)
    return CaseResult(_label("SACK", seconds, 60.0), ns, ts, _sack_checks(ns, ts, 4), nw, tw, notes)


def case_sack_delack(seconds: float = 60.0) -> CaseResult:
    """Case SACK-DELACK, two Sack1 flows with delayed-ACK SACK sinks over a 5-packet
    DropTail buffer: as case SACK, and ACKs (arrivals at r2->r1) 2 %."""
    ns, ts, nw, tw, notes = run_case("SACK-DELACK", CASE_SACK_DELACK_TCL, CASE_SACK_DELACK_TOML,
                                     seconds, 60.0)
    for m in (ns, ts):
        _add_multi_loss(m)
        m["acks"] = m["reverse_arrivals"]
        m["acks_per_data_pkt"] = m["acks"] / m["packets_sent"]
    checks = _sack_checks(ns, ts, 2) + [Check("acks", ns["acks"], ts["acks"], "rel", 0.02)]
    return CaseResult(_label("SACK-DELACK", seconds, 60.0), ns, ts, checks, nw, tw, notes)


def case_fack(seconds: float = 60.0) -> CaseResult:
    """Case FACK, case SACK's network with four Agent/TCP/Fack flows: the tolerances of
    case SACK (goodput 2 %, each flow's goodput 5 %; drops, retransmissions, fast
    retransmits, multi-loss repairs 10 %; timeouts +-1). ns-2's timeouts are the rises
    of the traced backoff_."""
    ns, ts, nw, tw, notes = run_case("FACK", CASE_FACK_TCL, CASE_FACK_TOML, seconds, 60.0)
    _add_multi_loss(ns)
    _add_multi_loss(ts)
    return CaseResult(_label("FACK", seconds, 60.0), ns, ts, _sack_checks(ns, ts, 4), nw, tw, notes)


def case_fack_opts(seconds: float = 60.0) -> CaseResult:
    """Case FACK-OPTS, case SACK-DELACK's network with two Agent/TCP/Fack flows, flow 0
    with rampdown_, flow 1 with ss-div4_: the tolerances of case SACK-DELACK."""
    ns, ts, nw, tw, notes = run_case("FACK-OPTS", CASE_FACK_OPTS_TCL, CASE_FACK_OPTS_TOML, seconds, 60.0)
    for m in (ns, ts):
        _add_multi_loss(m)
        m["acks"] = m["reverse_arrivals"]
    checks = _sack_checks(ns, ts, 2) + [Check("acks", ns["acks"], ts["acks"], "rel", 0.02)]
    return CaseResult(_label("FACK-OPTS", seconds, 60.0), ns, ts, checks, nw, tw, notes)


# --------------------------------------------------------------------------- cases V1, V2, V3 (Vegas)
#
# One Agent/TCP/Vegas flow each; the scripts also print a "sample t=.. cwnd=.. ssthresh=..
# qlen=.." line every 100 ms (lib.tcl sample_every), compared with tcpsim's time series
# (monitor interval 100 ms). ns-2's Vegas agent puts packetSize_ (1000) bytes on the
# wire, so delivered packets are bytes_ // 1000; with syn_ true its packet 0 is one of
# them (a full packet, where tcpsim's SYN carries no data), so it is not counted.

CASE_V1_TCL, CASE_V1_TOML = HERE / "case_v1.tcl", HERE / "case_v1.toml"
CASE_V2_TCL, CASE_V2_TOML = HERE / "case_v2.tcl", HERE / "case_v2.toml"
CASE_V3_TCL, CASE_V3_TOML = HERE / "case_v3.tcl", HERE / "case_v3.toml"
VEGAS_WIRE_BYTES = 1000  # packetSize_; VegasTcpAgent::output adds no header
VEGAS_CHECKPOINTS_S = (0.5, 1.0, 1.5, 2.0, 5.0, 10.0, 20.0, 40.0, 60.0)


def _trajectory_metrics(samples: dict[float, tuple[float, float, float]], seconds: float,
                        equilibrium: float | None) -> dict[str, float]:
    """cwnd at the checkpoints, when slow start ended (first sample with ssthresh 2), when
    cwnd first reached ``equilibrium`` - 0.5, mean cwnd and the mean queue over the last
    10 s; ``samples`` maps time (s) to (cwnd, ssthresh, waiting packets)."""
    times = sorted(samples)
    out: dict[str, float] = {}
    for t in VEGAS_CHECKPOINTS_S:
        if t <= seconds and t in samples:
            out[f"cwnd_at_{t:g}s"] = samples[t][0]
    out["slow_start_exit_s"] = next((t for t in times if samples[t][1] == 2.0), float("nan"))
    if equilibrium is not None:
        out["equilibrium_s"] = next((t for t in times if samples[t][0] >= equilibrium - 0.5), float("nan"))
    out["mean_cwnd"] = sum(samples[t][0] for t in times) / len(times)
    tail = [samples[t][2] for t in times if t >= seconds - 10.0]
    out["queue_last_10s"] = sum(tail) / len(tail)
    return out


def _vegas_ns2(script: Path, seconds: float, syn: bool) -> tuple[dict[str, float], dict, float]:
    ns = ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    t0 = time.perf_counter()
    proc = subprocess.run([ns, script.name, f"{seconds:g}", "1"], cwd=script.parent,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(f"ns {script.name} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    out = parse_lib_output(proc.stdout)
    f, bn = out["flows"][0], out["queues"][BOTTLENECK]
    delivered = int(f["bytes"]) // VEGAS_WIRE_BYTES - (1 if syn else 0)
    samples = {}
    for line in proc.stdout.splitlines():
        if line.startswith("sample "):
            kv = {k: float(v) for k, v in re.findall(r"(\w+)=(\S+)", line)}
            samples[round(kv["t"], 6)] = (kv["cwnd"], kv["ssthresh"], kv["qlen"])
    m = {
        "delivered_pkts": float(delivered),
        "goodput_bps": delivered * VEGAS_WIRE_BYTES * 8 / seconds,
        "packets_sent": f["data_pkts"],
        "retransmits": f["rexmit_pkts"],
        "timeouts": f["timeouts"],
        "bottleneck_drops": bn["drops"],
        "final_cwnd": f["cwnd"],
    }
    return m, samples, wall


def _vegas_tcpsim(scenario: Path, seconds: float) -> tuple[dict[str, float], dict, TcpsimRun]:
    run = run_tcpsim(scenario)
    f, bn = run.flows[0], queue_row(run, BOTTLENECK)
    delivered = _num(f, "unique_packets")
    series: dict[float, dict[str, float]] = {}
    for row in read_csv(run.out_dir / "timeseries.csv"):
        key = (row["entity"], row["metric"])
        if key in ((f["name"], "cwnd"), (f["name"], "ssthresh"), (BOTTLENECK, "queue_pkts")):
            series.setdefault(round(float(row["time_s"]), 6), {})[row["metric"]] = float(row["value"])
    samples = {t: (v["cwnd"], v["ssthresh"], v["queue_pkts"]) for t, v in series.items() if len(v) == 3}
    m = {
        "delivered_pkts": delivered,
        "goodput_bps": delivered * VEGAS_WIRE_BYTES * 8 / seconds,
        "packets_sent": _num(f, "packets_sent"),
        "retransmits": _num(f, "retransmits"),
        "timeouts": _num(f, "timeouts"),
        "bottleneck_drops": _num(bn, "early_drops") + _num(bn, "overflow_drops"),
        "final_cwnd": _num(f, "final_cwnd"),
    }
    return m, samples, run


def _vegas_case(name: str, tcl: Path, toml: Path, seconds: float, default: float, syn: bool,
                equilibrium: bool) -> tuple[dict[str, float], dict[str, float], float, float, list[str]]:
    ns, ns_samples, ns_wall = _vegas_ns2(tcl, seconds, syn)
    if seconds != default:
        toml = scenario_variant(toml, Path(tempfile.mkdtemp(prefix=f"tcpsim-{name.lower()}-")), seconds)
    ts, ts_samples, run = _vegas_tcpsim(toml, seconds)
    target = ns["final_cwnd"] if equilibrium else None
    ns.update(_trajectory_metrics(ns_samples, seconds, target))
    ts.update(_trajectory_metrics(ts_samples, seconds, target))
    return ns, ts, ns_wall, run.wall_s, [f"tcpsim output kept in {run.out_dir}"]


def _vegas_no_loss_checks(ns: dict[str, float], ts: dict[str, float]) -> list[Check]:
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.001),
        Check("packets_sent", ns["packets_sent"], ts["packets_sent"], "rel", 0.001),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "abs", 0),
        Check("final_cwnd", ns["final_cwnd"], ts["final_cwnd"], "rel", 0.001),
        Check("slow_start_exit_s", ns["slow_start_exit_s"], ts["slow_start_exit_s"], "abs", 0.1),
        Check("equilibrium_s", ns["equilibrium_s"], ts["equilibrium_s"], "rel", 0.01),
        Check("queue_last_10s", ns["queue_last_10s"], ts["queue_last_10s"], "abs", 0.5),
    ]
    checks += [Check(k, ns[k], ts[k], "rel", 0.005) for k in sorted(ns) if k.startswith("cwnd_at_") and k in ts]
    return checks


def case_v1(seconds: float = 65.0) -> CaseResult:
    """Case V1, Vegas on reference document 001 Fig. 1's network (alpha 2, beta 4, syn_
    false), no loss: goodput, packets sent, final cwnd 0.1 %; drops 0; slow-start exit
    within one 100 ms sample; time to equilibrium 1 %; cwnd at the checkpoints 0.5 %;
    mean queue over the last 10 s within 0.5 packet."""
    ns, ts, nw, tw, notes = _vegas_case("V1", CASE_V1_TCL, CASE_V1_TOML, seconds, 65.0, syn=False, equilibrium=True)
    return CaseResult(_label("V1", seconds, 65.0), ns, ts, _vegas_no_loss_checks(ns, ts), nw, tw, notes)


def case_v2(seconds: float = 65.0) -> CaseResult:
    """Case V2, case V1's network with ns-2.35's Vegas defaults (alpha 1, beta 3, gamma 1,
    syn_ true); the tolerances of V1."""
    ns, ts, nw, tw, notes = _vegas_case("V2", CASE_V2_TCL, CASE_V2_TOML, seconds, 65.0, syn=True, equilibrium=True)
    return CaseResult(_label("V2", seconds, 65.0), ns, ts, _vegas_no_loss_checks(ns, ts), nw, tw, notes)


def case_v3(seconds: float = 60.0) -> CaseResult:
    """Case V3, Vegas wanting more queue than a 3-packet DropTail buffer holds (alpha 3,
    beta 5), repeated losses: goodput 1 %, mean cwnd 2 %, retransmissions and drops 10 %,
    timeouts +-1, final cwnd 5 %."""
    ns, ts, nw, tw, notes = _vegas_case("V3", CASE_V3_TCL, CASE_V3_TOML, seconds, 60.0, syn=False, equilibrium=False)
    checks = [
        Check("goodput_bps", ns["goodput_bps"], ts["goodput_bps"], "rel", 0.01),
        Check("mean_cwnd", ns["mean_cwnd"], ts["mean_cwnd"], "rel", 0.02),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.10),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 1),
        Check("final_cwnd", ns["final_cwnd"], ts["final_cwnd"], "rel", 0.05),
    ]
    return CaseResult(_label("V3", seconds, 60.0), ns, ts, checks, nw, tw, notes)


# --------------------------------------------------------------------------- link dynamics


CASE_FAILOVER_TCL, CASE_FAILOVER_TOML = HERE / "case_failover.tcl", HERE / "case_failover.toml"


def trace_drops(trace: Path, direction: tuple[int, int], since: float = 0.0,
                until: float = float("inf")) -> int:
    """``d`` lines of one link direction (from, to node ids) in an ns-2 trace file, with
    since <= time < until."""
    want = (str(direction[0]), str(direction[1]))
    n = 0
    with open(trace) as f:
        for line in f:
            if line.startswith("d "):
                fields = line.split(maxsplit=4)
                if (fields[2], fields[3]) == want and since <= float(fields[1]) < until:
                    n += 1
    return n


def case_failover(mode: str = "dynamic", seconds: float = 20.0) -> CaseResult:
    """Case FAILOVER (link dynamics), one flow. r1-a down from 4 s to 8 s (ns-2
    rtmodel-at), s->r1 at 2 Mb/s from 12 s to 16 s, routing ``mode`` "dynamic" (ns-2
    rtproto Session) or "static". Compared: in-order packets delivered and data packets
    sent (0.2 %), retransmissions (5 %), timeouts (exact), the packets the link held when
    it went down (ns-2's `d` lines on r1->a and a->r1; tcpsim's down_drops less the
    arrivals dropped while down, which ns-2 does not trace: both directions +-2), drops
    on s->r1 (its queue overflowing at 2 Mb/s: 10 %). Measured 2026-11-26: dynamic 16435
    vs 16439 delivered, drops 13/12 and 39 on both sides; static identical counts. The
    only randomness is each agent's clock phase (ns-2 boot_time_; tcpsim draws it from
    the flow's stream), so the counts are not exact in general."""
    work = Path(tempfile.mkdtemp(prefix=f"tcpsim-failover-{mode}-"))
    trace = work / "ns2.tr"
    kv, ns_wall = run_ns2(CASE_FAILOVER_TCL, [mode, f"{seconds:g}", str(trace)])
    r1, a, s = 2, 4, 0
    ns = {
        "delivered_pkts": int(kv["sink_bytes"]) // WIRE_BYTES,
        "packets_sent": float(kv["data_pkts"]),
        "retransmits": float(kv["rexmit_pkts"]),
        "timeouts": float(kv["timeouts"]),
        "r1_a_down_drops": trace_drops(trace, (r1, a)),
        "a_r1_down_drops": trace_drops(trace, (a, r1)),
        "s_r1_drops": trace_drops(trace, (s, r1)),
    }
    text = CASE_FAILOVER_TOML.read_text().replace('mode = "dynamic"', f'mode = "{mode}"')
    text = text.replace('duration = "20s"', f'duration = "{seconds:g}s"')
    text += '\n[trace]\nns2 = ["r1->a", "a->r1"]\n'
    tcpsim_trace = work / "tcpsim" / "traces" / "trace.tr"
    scenario = work / f"case_failover_{mode}.toml"
    scenario.write_text(text)
    run = run_tcpsim(scenario, work / "tcpsim")
    f = run.flows[0]
    link = {row["link"]: row for row in run.links}
    s_r1 = queue_row(run, "s->r1")
    ts = {
        "delivered_pkts": _num(f, "unique_packets"),
        "packets_sent": _num(f, "packets_sent"),
        "retransmits": _num(f, "retransmits"),
        "timeouts": _num(f, "timeouts"),
        "r1_a_down_drops": trace_drops(tcpsim_trace, (r1, a)),
        "a_r1_down_drops": trace_drops(tcpsim_trace, (a, r1)),
        "s_r1_drops": _num(s_r1, "early_drops") + _num(s_r1, "overflow_drops"),
    }
    checks = [
        Check("delivered_pkts", ns["delivered_pkts"], ts["delivered_pkts"], "rel", 0.002),
        Check("packets_sent", ns["packets_sent"], ts["packets_sent"], "rel", 0.002),
        Check("retransmits", ns["retransmits"], ts["retransmits"], "rel", 0.05),
        Check("timeouts", ns["timeouts"], ts["timeouts"], "abs", 0),
        Check("r1_a_down_drops", ns["r1_a_down_drops"], ts["r1_a_down_drops"], "abs", 2),
        Check("a_r1_down_drops", ns["a_r1_down_drops"], ts["a_r1_down_drops"], "abs", 2),
        Check("s_r1_drops", ns["s_r1_drops"], ts["s_r1_drops"], "rel", 0.10),
    ]
    # tcpsim's down_drops also count the arrivals dropped while the link was down.
    for name in ("r1->a", "a->r1"):
        key = name.replace("->", "_") + "_down_drops"
        ts[f"{key}_column"] = _num(link[name], "down_drops")
        checks.append(Check(f"{key}_column>=traced", 0, float(ts[f"{key}_column"] < ts[key]), "abs", 0))
    res = CaseResult(f"FAILOVER-{mode.upper()}" + ("" if seconds == 20.0 else f" ({seconds:g} s)"),
                     ns, ts, checks, ns_wall, run.wall_s)
    res.notes.append(f"both outputs kept in {work}")
    return res


CASE_LINKDOWN_TCL, CASE_LINKDOWN_TOML = HERE / "case_linkdown_cbr.tcl", HERE / "case_linkdown_cbr.toml"


def _trace_lines(path: Path, ops: str, until: float) -> list[tuple[str, ...]]:
    """(op, time, from, to, type, seq) of the trace lines with these ops before `until`."""
    out = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] in ops and float(fields[1]) < until:
                out.append((fields[0], fields[1], fields[2], fields[3], fields[4], fields[10]))
    return out


def case_linkdown_cbr() -> CaseResult:
    """Case LINKDOWN-CBR, deterministic (CBR without jitter): the trace's `d` lines (time,
    link direction, packet, in order: the queue's packets, then the one being sent and
    those propagating) exactly as ns-2's; the `v` lines as ns-2's, character for character,
    once its duplicates (one per rtmodel) are dropped; the number of `+`, `-`, `r`
    lines before 2.9 s exact (their order may differ among same-time events)."""
    work = Path(tempfile.mkdtemp(prefix="tcpsim-linkdown-"))
    ns_trace = work / "ns2.tr"
    _, ns_wall = run_ns2(CASE_LINKDOWN_TCL, [str(ns_trace)])
    scenario = work / "case_linkdown_cbr.toml"
    scenario.write_text(CASE_LINKDOWN_TOML.read_text() + '\n[trace]\nns2 = "all"\n')
    run = run_tcpsim(scenario, work / "tcpsim")
    ts_trace = work / "tcpsim" / "traces" / "trace.tr"

    def states(path: Path) -> list[tuple[str, ...]]:
        seen = []
        for line in open(path):
            if line.startswith("v "):
                entry = tuple(line.split())
                if entry not in seen:
                    seen.append(entry)
        return seen

    ns_drops, ts_drops = _trace_lines(ns_trace, "d", 2.9), _trace_lines(ts_trace, "d", 2.9)
    ns_states, ts_states = states(ns_trace), states(ts_trace)
    ns = {"d_lines": len(ns_drops), "v_lines": len(ns_states)}
    ts = {"d_lines": len(ts_drops), "v_lines": len(ts_states)}
    for op in "+-r":
        ns[f"{op}_lines"] = len(_trace_lines(ns_trace, op, 2.9))
        ts[f"{op}_lines"] = len(_trace_lines(ts_trace, op, 2.9))
    checks = [Check(k, ns[k], ts[k], "abs", 0) for k in ns]
    checks.append(Check("d_lines_differing", 0, sum(a != b for a, b in zip(ns_drops, ts_drops)), "abs", 0))
    checks.append(Check("v_lines_differing", 0, sum(a != b for a, b in zip(ns_states, ts_states)), "abs", 0))
    ts["down_drops_r1_r2"] = next(_num(r, "down_drops") for r in run.links if r["link"] == "r1->r2")
    res = CaseResult("LINKDOWN-CBR", ns, ts, checks, ns_wall, run.wall_s)
    res.notes.append(f"both traces kept in {work}")
    return res


CASE_DELAY_TCL, CASE_DELAY_TOML = HERE / "case_delay_cbr.tcl", HERE / "case_delay_cbr.toml"


def case_delay_cbr() -> CaseResult:
    """Case DELAY-CBR, deterministic: every trace line before 2.9 s (op, time, link
    direction, type, size, packet) exactly as ns-2's, in the same order: the delay
    decrease reorders the arrivals as ns-2 does."""
    work = Path(tempfile.mkdtemp(prefix="tcpsim-delay-"))
    ns_trace = work / "ns2.tr"
    _, ns_wall = run_ns2(CASE_DELAY_TCL, [str(ns_trace)])
    scenario = work / "case_delay_cbr.toml"
    scenario.write_text(CASE_DELAY_TOML.read_text() + '\n[trace]\nns2 = "all"\n')
    run = run_tcpsim(scenario, work / "tcpsim")
    ns_lines = _trace_lines(ns_trace, "+-rd", 2.9)
    ts_lines = _trace_lines(work / "tcpsim" / "traces" / "trace.tr", "+-rd", 2.9)
    ns = {"lines": len(ns_lines)}
    ts = {"lines": len(ts_lines)}
    checks = [Check("lines", ns["lines"], ts["lines"], "abs", 0),
              Check("lines_differing", 0, sum(a != b for a, b in zip(ns_lines, ts_lines)), "abs", 0)]
    res = CaseResult("DELAY-CBR", ns, ts, checks, ns_wall, run.wall_s)
    res.notes.append(f"both traces kept in {work}")
    return res


# --------------------------------------------------------------------------- TFRC


CASE_TFRC_TCL, CASE_TFRC_TOML = HERE / "case_tfrc.tcl", HERE / "case_tfrc.toml"
TFRC_WIRE_BYTES = 1032  # packetSize_ 1000 + headersize_ 32 (useHeaders_ true)
TFRC_SLOW_START_S = 5.0  # both sides are out of slow start (first loss at about 1 s) by then


def _second_half_mean(samples: list[tuple[float, float]], seconds: float) -> float:
    values = [v for t, v in samples if t >= seconds / 2]
    return sum(values) / len(values) if values else float("nan")


def _run_tfrc_ns2(script: Path, seconds: float, seed: int, trace: Path | None = None) -> tuple[str, float]:
    """Run a TFRC case script; return (stdout, wall seconds). TFRCSink's printLoss_ lines
    come from C's stdio: run line-buffered (``stdbuf -oL``), they do not interleave with
    the script's lines (which the case scripts line-buffer too)."""
    ns = ns_binary()
    if ns is None:
        raise HarnessError("ns (ns-2) is not on PATH")
    stdbuf = shutil.which("stdbuf")
    cmd = ([stdbuf, "-oL"] if stdbuf else []) + [ns, str(script), f"{seconds:g}", str(seed)]
    if trace is not None:
        cmd.append(str(trace))
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc.stdout, wall


def case_tfrc(seconds: float = 100.0) -> CaseResult:
    """Case TFRC, one Agent/TFRC -> Agent/TFRCSink flow (ns-2.35 defaults) over case A's
    1.5 Mb/s, 40 ms, 20-packet DropTail bottleneck.

    Compared: data packets sent and delivered (1 %), reports (the packets on r2->r1: 3 %),
    the sender's mean rate X over the second half (ns-2 ``rate_`` every 0.1 s, tcpsim's
    ``send_rate_bps`` samples: 3 %), the receiver's loss event rate over the second half
    (ns-2: the p of each report, TFRCSink ``printLoss_``; tcpsim: the p of the sender's
    last report, sampled every 0.1 s: 15 %) and the bottleneck drops after slow start
    (t >= 5 s: +-6). TFRC is deterministic here (``overhead_`` 0), so seeds do not
    matter; what differs is the slow-start exit. In slow start every event recurs at one
    RTT, and ns-2 meets exact ties (a packet reaching the receiver exactly one R after its
    last report) that its double clock resolves by rounding; from the fourth report on
    the two runs report at slightly different times, the rates they double from differ,
    and the overshoot at the first loss differs (measured 2026-11-26: ns-2 drops 14
    packets at 1.00-1.07 s, tcpsim 33 at 0.99-1.18 s). Total drops are therefore printed
    but not checked; after slow start both drop two packets every 8.5 s or so.
    Measured 2026-11-26 (100 s): sent 18123 / 18078, delivered 18060 / 17996, reports
    594 / 594, drops 38 / 55 (24 / 22 after 5 s)."""
    work = Path(tempfile.mkdtemp(prefix="tcpsim-tfrc-"))
    trace = work / "ns2.tr"
    stdout, ns_wall = _run_tfrc_ns2(CASE_TFRC_TCL, seconds, 1, trace)
    out = parse_lib_output(stdout)
    tfrc = parse_kv_line(stdout, "tfrc 0")
    rates = [(float(t), float(r) * 8) for t, r in re.findall(r"(?m)^rate t=(\S+) rate=(\S+)$", stdout)]
    losses = [(float(t), float(p)) for t, p in re.findall(r"(?m)^time: +(\S+) loss_rate: +(\S+) *$", stdout)]
    ns_m = {
        "packets_sent": float(tfrc["data_pkts"]),
        "delivered_pkts": float(int(tfrc["bytes"]) // TFRC_WIRE_BYTES),
        "reports": float(out["queues"]["r2->r1"]["arrivals"]),
        "bottleneck_drops": float(out["queues"]["r1->r2"]["drops"]),
        "drops_after_slow_start": float(trace_drops(trace, (1, 2), since=TFRC_SLOW_START_S)),
        "mean_rate_bps": _second_half_mean(rates, seconds),
        "loss_event_rate": _second_half_mean(losses, seconds),
    }
    scenario = scenario_variant(CASE_TFRC_TOML, work, None if seconds == 100.0 else seconds)
    text = scenario.read_text().replace('flows = ["tfrc"]', 'flows = ["tfrc"]\nqueues = ["r1->r2"]')
    scenario.write_text(text)
    run = run_tcpsim(scenario, work / "tcpsim")
    flow = run.flows[0]
    series: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for row in read_csv(run.out_dir / "timeseries.csv"):
        series.setdefault((row["entity"], row["metric"]), []).append((float(row["time_s"]), float(row["value"])))
    ts_m = {
        "packets_sent": _num(flow, "packets_sent"),
        "delivered_pkts": _num(flow, "unique_packets"),
        "reports": _num(queue_row(run, REVERSE), "arrivals"),
        "bottleneck_drops": _num(queue_row(run, BOTTLENECK), "overflow_drops"),
        "drops_after_slow_start": sum(v for t, v in series[(BOTTLENECK, "overflow_drops")] if t > TFRC_SLOW_START_S),
        "mean_rate_bps": _second_half_mean(series[("tfrc", "send_rate_bps")], seconds),
        "loss_event_rate": _second_half_mean(series[("tfrc", "loss_event_rate")], seconds),
    }
    checks = [
        Check("packets_sent", ns_m["packets_sent"], ts_m["packets_sent"], "rel", 0.01),
        Check("delivered_pkts", ns_m["delivered_pkts"], ts_m["delivered_pkts"], "rel", 0.01),
        Check("reports", ns_m["reports"], ts_m["reports"], "rel", 0.03),
        Check("mean_rate_bps", ns_m["mean_rate_bps"], ts_m["mean_rate_bps"], "rel", 0.03),
        Check("loss_event_rate", ns_m["loss_event_rate"], ts_m["loss_event_rate"], "rel", 0.15),
        Check("drops_after_slow_start", ns_m["drops_after_slow_start"], ts_m["drops_after_slow_start"], "abs", 6),
    ]
    notes = [f"ns-2 trace and tcpsim outputs kept in {work}",
             "bottleneck_drops (all, slow start included) is not checked: see case_tfrc's docstring"]
    return CaseResult(_label("TFRC", seconds, 100.0), ns_m, ts_m, checks, ns_wall, run.wall_s, notes)


CASE_TFRC_RENO_TCL, CASE_TFRC_RENO_TOML = HERE / "case_tfrc_reno.tcl", HERE / "case_tfrc_reno.toml"


def case_tfrc_reno(seconds: float = 200.0, seeds: tuple[int, ...] = (1, 2, 3)) -> CaseResult:
    """Case TFRC-RENO, a TFRC flow and a Reno flow (Agent/TCP/Reno -> Agent/TCPSink,
    window_ 100) from time 0 over case A's 1.5 Mb/s, 40 ms, 20-packet DropTail
    bottleneck, 200 s.

    The Reno agent's clock phase (``boot_time_``) is drawn from the seed, and DropTail
    phase effects make the split between the two flows depend on it: over ns-2 seeds 1-4
    TFRC delivers 21886-23984 packets and Reno 11804-13866 (measured 2026-11-26). Both
    sides run seeds 1, 2, 3 and their means are compared: TFRC's packets 5 %, Reno's 8 %
    (its timeouts move whole RTOs of goodput), the two together 1 %, bottleneck drops
    10 %, and TFRC's share of the packets delivered 0.03 (absolute). Measured 2026-11-26
    (means of seeds 1-3, ns-2 / tcpsim): TFRC 23569 / 22833, Reno 12235 / 13006, drops
    262 / 267. Not checked, and not yet explained: Reno times out more often in ns-2
    (23.3 / 17 on average), which is where most of the gap in Reno's packets comes from."""
    work = Path(tempfile.mkdtemp(prefix="tcpsim-tfrc-reno-"))
    ns_runs, ts_runs, ns_wall, ts_wall = [], [], 0.0, 0.0
    for seed in seeds:
        stdout, wall = _run_tfrc_ns2(CASE_TFRC_RENO_TCL, seconds, seed)
        ns_wall += wall
        out = parse_lib_output(stdout)
        reno = out["flows"][0]
        ns_runs.append({
            "tfrc_pkts": float(int(parse_kv_line(stdout, "tfrc 0")["bytes"]) // TFRC_WIRE_BYTES),
            "reno_pkts": float(int(reno["bytes"] - reno["syn_size"]) // int(reno["packet_size"] + reno["header_size"])),
            "bottleneck_drops": out["queues"]["r1->r2"]["drops"],
            "reno_timeouts": reno["timeouts"],
        })
        scenario = scenario_variant(CASE_TFRC_RENO_TOML, work, None if seconds == 200.0 else seconds, seed)
        run = run_tcpsim(scenario, work / f"out_seed{seed}")
        ts_wall += run.wall_s
        flows = {f["name"]: f for f in run.flows}
        ts_runs.append({
            "tfrc_pkts": _num(flows["tfrc"], "unique_packets"),
            "reno_pkts": _num(flows["reno"], "unique_packets"),
            "bottleneck_drops": _num(queue_row(run, BOTTLENECK), "overflow_drops"),
            "reno_timeouts": _num(flows["reno"], "timeouts"),
        })
    for m in ns_runs + ts_runs:
        m["total_pkts"] = m["tfrc_pkts"] + m["reno_pkts"]
        m["tfrc_share"] = m["tfrc_pkts"] / m["total_pkts"]
    ns, ts = mean_of(ns_runs), mean_of(ts_runs)
    checks = [
        Check("tfrc_pkts", ns["tfrc_pkts"], ts["tfrc_pkts"], "rel", 0.05),
        Check("reno_pkts", ns["reno_pkts"], ts["reno_pkts"], "rel", 0.08),
        Check("total_pkts", ns["total_pkts"], ts["total_pkts"], "rel", 0.01),
        Check("bottleneck_drops", ns["bottleneck_drops"], ts["bottleneck_drops"], "rel", 0.10),
        Check("tfrc_share", ns["tfrc_share"], ts["tfrc_share"], "abs", 0.03),
    ]
    notes = [f"{side} seed {seed}: TFRC {m['tfrc_pkts']:.0f}, Reno {m['reno_pkts']:.0f} packets, "
             f"{m['bottleneck_drops']:.0f} drops, {m['reno_timeouts']:.0f} Reno timeouts"
             for side, runs in (("ns2", ns_runs), ("tcpsim", ts_runs)) for seed, m in zip(seeds, runs)]
    notes.append(f"tcpsim outputs kept in {work}")
    return CaseResult(_label("TFRC-RENO", seconds, 200.0), ns, ts, checks, ns_wall, ts_wall, notes)


MODEL_CASES = {"C": (case_c, 100.0), "D1": (case_d1, 60.0), "D2": (case_d2, 120.0),
               "E": (case_e, 100.0), "GAIMD": (case_gaimd, 100.0), "F": (case_f, 60.0), "DRR": (case_drr, 60.0),
               "ECN": (case_ecn, 60.0), "ECN1": (case_ecn1, 60.0), "RED-AUTO": (case_red_auto, 60.0),
               "SACK": (case_sack, 60.0), "SACK-DELACK": (case_sack_delack, 60.0),
               "FACK": (case_fack, 60.0), "FACK-OPTS": (case_fack_opts, 60.0),
               "V1": (case_v1, 65.0), "V2": (case_v2, 65.0), "V3": (case_v3, 60.0),
               "FAILOVER-DYNAMIC": (lambda t: case_failover("dynamic", t), 20.0),
               "FAILOVER-STATIC": (lambda t: case_failover("static", t), 20.0),
               "LINKDOWN-CBR": (lambda t: case_linkdown_cbr(), 3.0),
               "DELAY-CBR": (lambda t: case_delay_cbr(), 3.0),
               "TFRC": (case_tfrc, 100.0), "TFRC-RENO": (case_tfrc_reno, 200.0)}


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("case", choices=["A", "B1", *MODEL_CASES])
    p.add_argument("--seconds", type=float, default=None, help="simulated time (default: the case's)")
    a = p.parse_args(argv)
    if a.case == "A":
        res = case_a(a.seconds or 100.0)
    elif a.case == "B1":
        res = case_b1(a.seconds or 60.0)
    else:
        fn, default = MODEL_CASES[a.case]
        res = fn(a.seconds or default)
    print(res.report())
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
