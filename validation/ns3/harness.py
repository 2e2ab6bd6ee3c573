"""Differential tests against ns-3 (3.44, the PyPI wheel ``ns3``): one dumbbell, two simulators.

Each case is one tcpsim TOML file (``case_*.toml``, a ``[dumbbell]``). The harness reads
it and builds the same network in ns-3 (``ns3_run.py``, run in a subprocess because the
ns-3 import through cppyy takes 10-20 s; one subprocess runs every case asked for), runs
both, reduces both to the same metrics computed the same way, and compares them with
the tolerance each case states. What ns-3 needs beyond the TOML (its TCP options, the
queue disc type) is written in the case below; every value the TOML holds is read from
it, never written twice.

Metrics
-------
goodput_bps        all flows' payload bytes delivered in order (ns-3 PacketSink
                   ``GetTotalRx``; tcpsim ``goodput_bytes``) × 8 / duration
flowN_goodput_bps  the same per flow
wait_mean_s        mean time a data packet waits at the bottleneck, from its arrival at
wait_p95_s         the queue to the start of its transmission, over packets arriving
                   from ``measure_from_s`` on (ns-3: queue disc ``Enqueue`` to device
                   ``PhyTxBegin`` by packet uid, queue disc and the one-packet device
                   queue together; tcpsim: the ``+`` and ``-`` ns-2 trace lines of r1->r2
                   by uid); p95 is the nearest-rank 95th percentile
bottleneck_drops   packets the bottleneck queue dropped (ns-3 queue disc
                   ``nTotalDroppedPackets``; tcpsim early + overflow drops of r1->r2)
bottleneck_arrivals packets that arrived at it (dropped ones included)
epoch_mean_s       (cases with ``cwnd_flow``) the window's shape, from flow ``cwnd_flow``'s
regain_over_k      cwnd sampled every 10 ms (ns-3: its ``CongestionWindow`` trace, the
                   value at each 10 ms; tcpsim: the ``cwnd`` time series): the mean time
                   between window reductions after ``measure_from_s``, and the median,
                   over the epochs whose window climbs back to W_max, of the time from the
                   reduction to W_max over K = ∛((W_max − β·W)/C), W_max by RFC 9438
                   §4.7's fast-convergence rule (``window_shape``)
gain_cycle_period_s  cases that trace their window control (BBR): the median time
                   between the rises of a flow's pacing rate by at least 15 % from its
                   previous value (BBR's 1.25 phase), after ``measure_from_s``, over all
                   flows (ns-3: the ``PacingRate`` trace; tcpsim: the 10 ms
                   ``pacing_rate_bps`` series)
probe_rtt_interval_s the median time between a flow's falls of cwnd to at most 4
                   segments (ProbeRTT), over all flows (ns-3: ``CongestionWindow``
                   trace in bytes / segment; tcpsim: the 10 ms ``cwnd`` series)

Cases
-----
NEWRENO  four Reno-window flows with SACK (propagation RTTs 24-72 ms) over a 10 Mb/s,
         50-packet drop-tail bottleneck, 30 s: ns-3 TcpNewReno with SACK and
         TcpClassicRecovery over FifoQueueDisc; tcpsim reno + sack1 over droptail.
NEWRENO-DELACK  NEWRENO with delayed ACKs (ns-3's default: every second segment, 200 ms;
         tcpsim's delayed receiver with a 200 ms timer).
NEWRENO-LINUX  the Linux profile (profile = "linux", Reno window, PRR without RACK-TLP,
         delayed ACKs with a 200 ms timer) against ns-3 TcpNewReno with TcpPrrRecovery.
NEWRENO-NOSACK  the same without SACK (tcpsim newreno recovery): compared, only the
         queue's arrivals and p95 wait checked (ns-3's recovery differs, see README).
CODEL, FQ-CODEL, PIE  the same flows over CoDelQueueDisc, FqCoDelQueueDisc,
         PieQueueDisc at ns-3's defaults (printed with the case), tcpsim's codel,
         fq_codel, pie with the same parameters; skipped while the tcpsim catalogue
         lacks the queue kind the TOML names.
PIE-1000P  PIE with a 1000-packet buffer, so that PIE's early drops hold the queue.
CUBIC    two CUBIC flows (RTTs 84 and 92 ms) over a 20 Mb/s, 40 ms, 100-packet drop-tail,
         60 s: ns-3 TcpCubic (attributes from the file's cc table, HyStart off) with SACK
         and TcpClassicRecovery; tcpsim cubic with standard slow start + sack1; plus the
         window-shape metrics of flow 1 (the larger window, in CUBIC's cubic region).
BBR      four BBRv1 flows (tcpsim bbr + sack1; ns-3 TcpBbr with pacing on) over a
         1000-packet drop-tail bottleneck; also compares the gain-cycle period and the
         ProbeRTT interval measured from each side's cwnd and pacing-rate traces.

Usage (prints both sides, the verdicts and ns-3's queue disc attributes)::

    python validation/ns3/harness.py NEWRENO [CODEL ...]

Needs ``ns3`` importable by the interpreter running this file (or $TCPSIM_NS3_PYTHON):
``pip install -e .[validation]`` (scripts/setup.sh does). Standard library only here.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUNNER = HERE / "ns3_run.py"
BOTTLENECK = "r1->r2"
# ns-3's PointToPointNetDevice adds a 2-byte PPP header to every frame; tcpsim's case
# files carry it in header_size / ack_size so both put the same bits on the wire.
PPP_HEADER_BYTES = 2
IPV4_TCP_HEADER_BYTES = 40  # 20 IPv4 + 20 TCP, no options (SACK and timestamps off)


class HarnessError(RuntimeError):
    """A simulator could not be run, or a case file does not say what the harness needs."""


# --------------------------------------------------------------------------- locating tools


def ns3_python() -> str:
    """The interpreter that runs ns3_run.py: $TCPSIM_NS3_PYTHON, else this one."""
    return os.environ.get("TCPSIM_NS3_PYTHON") or sys.executable


def ns3_available() -> bool:
    """True when ``ns3_python()`` can import ns-3 (checked without importing it: fast)."""
    probe = "import importlib.util as u, sys; sys.exit(not (u.find_spec('ns') and u.find_spec('cppyy')))"
    try:
        return subprocess.run([ns3_python(), "-c", probe], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def tcpsim_binary() -> Path:
    """<repo>/target/release/tcpsim-run (or $TCPSIM_RUN)."""
    exe = Path(os.environ.get("TCPSIM_RUN") or REPO / "target" / "release" / "tcpsim-run")
    if not exe.exists():
        raise HarnessError(f"{exe} does not exist: build it with `cargo build --release -p tcpsim`")
    return exe


def tcpsim_kinds(family: str) -> set[str]:
    """Names of the models of one family in the catalogue (`tcpsim-run` has no list, the
    Python package has: ``python -m tcpsim models --json``)."""
    proc = subprocess.run([sys.executable, "-m", "tcpsim", "models", "--json"],
                          capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise HarnessError(f"`python -m tcpsim models --json` failed:\n{proc.stderr[-2000:]}")
    registry = json.loads(proc.stdout)
    return {m["name"] for m in registry["models"] if m["family"] == family}


# --------------------------------------------------------------------------- the case files


_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def seconds(text: str, where: str) -> float:
    """A tcpsim duration such as "40ms" in seconds (the subset of units the cases use)."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(s|ms|us|ns)\s*", str(text))
    if not m:
        raise HarnessError(f"{where}: expected a time such as \"40ms\", got {text!r}")
    return float(m.group(1)) * _TIME_UNITS[m.group(2)]


def packets(text: str, where: str) -> int:
    m = re.fullmatch(r"\s*(\d+)\s*p\s*", str(text))
    if not m:
        raise HarnessError(f"{where}: expected a limit in packets such as \"50p\", got {text!r}")
    return int(m.group(1))


def _need(table: dict, key: str, where: str, why: str):
    if key not in table:
        raise HarnessError(f"{where}: key {key!r} is missing; the harness needs it written out ({why})")
    return table[key]


def disc_limit(limit_packets: int) -> int:
    """ns-3 queue disc size for a tcpsim drop-tail limit of N packets (N − 1 waiting plus
    the one on the wire): N − 2 in the disc, one in the device queue, one on the wire."""
    return limit_packets - 2


def aqm_disc_limit(limit_packets: int) -> int:
    """ns-3 queue disc size for a tcpsim AQM limit of N packets (codel, fq_codel, pie count
    the waiting packets, not the one on the wire): N − 1 in the disc, one in the device
    queue."""
    return limit_packets - 1


# A tcpsim loss recovery -> (ns-3 RecoveryType, SACK on). ns-3 3.44 has no RACK-TLP.
NS3_RECOVERIES = {
    "newreno": ("ns3::TcpClassicRecovery", False),
    "sack1": ("ns3::TcpClassicRecovery", True),
    "prr": ("ns3::TcpPrrRecovery", True),
}


def tcp_profiles() -> dict[str, list[dict]]:
    """The TCP profiles of the catalogue (``python -m tcpsim models --json``): name ->
    its defaults (key, value_toml)."""
    proc = subprocess.run([sys.executable, "-m", "tcpsim", "models", "--json"],
                          capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise HarnessError(f"`python -m tcpsim models --json` failed:\n{proc.stderr[-2000:]}")
    return {p["name"]: p["defaults"] for p in json.loads(proc.stdout).get("profiles", [])}


def with_profile(flow: dict, where: str) -> dict:
    """A [[flow]] table with its TCP profile's values for the keys it does not write, as
    the scenario reader gives them (the profile is read from the catalogue, not retyped)."""
    if "profile" not in flow:
        return flow
    defaults = tcp_profiles().get(flow["profile"])
    if defaults is None:
        raise HarnessError(f"{where} profile: unknown TCP profile {flow['profile']!r}")
    out = dict(flow)
    for d in defaults:
        out.setdefault(d["key"], tomllib.loads(f"v = {d['value_toml']}")["v"])
    return out


def ns3_network(toml: Path, measure_from_s: float) -> tuple[dict, dict, dict]:
    """(network, tcp, receiver) of a case file, in the units ns3_run.py takes."""
    doc = tomllib.loads(toml.read_text())
    where = str(toml)
    sim = _need(doc, "simulation", where, "the duration")
    bell = _need(doc, "dumbbell", where, "the cases are dumbbells")
    bottleneck = _need(bell, "bottleneck", f"{where} [dumbbell]", "rate and delay")
    access = _need(bell, "access", f"{where} [dumbbell]", "rate and delay")
    flows = _need(doc, "flow", where, "one [[flow]] table of count = pairs")
    if len(flows) != 1:
        raise HarnessError(f"{where}: expected one [[flow]] table (with count), found {len(flows)}")
    fw = f"{where} [[flow]]"
    flow = with_profile(flows[0], fw)
    pairs = int(_need(bell, "pairs", f"{where} [dumbbell]", "the number of flows"))
    if int(_need(flow, "count", fw, "one flow per pair")) != pairs:
        raise HarnessError(f"{fw}: count must equal [dumbbell] pairs ({pairs})")
    delays = _need(bell, "access_delays", f"{where} [dumbbell]", "each sender's access delay")
    if len(delays) != pairs:
        raise HarnessError(f"{where} [dumbbell] access_delays: expected {pairs} delays, got {len(delays)}")
    access_queue = _need(access, "queue", f"{where} [dumbbell.access]", "the access buffers")
    if access_queue.get("kind") != "droptail" or access_queue.get("limit_includes_transmission", True) is not True:
        raise HarnessError(f"{where} [dumbbell.access] queue: expected a droptail with its default "
                           "limit_includes_transmission (the ns-3 side builds a FIFO of limit − 2)")
    duration = seconds(_need(sim, "duration", f"{where} [simulation]", "run length"), f"{where} duration")
    start = seconds(_need(flow, "start", fw, "start times"), f"{fw} start")
    spacing = seconds(flow.get("start_spacing", "0s"), f"{fw} start_spacing")
    network = {
        "pairs": pairs,
        "duration_s": duration,
        "measure_from_s": measure_from_s,
        "access_rate": access["rate"],
        "access_delays": list(delays),
        "receiver_delay": access["delay"],
        "access_disc_limit": disc_limit(packets(_need(access_queue, "limit", f"{where} [dumbbell.access] queue",
                                                      "buffer size"), f"{where} access limit")),
        "bottleneck_rate": bottleneck["rate"],
        "bottleneck_delay": bottleneck["delay"],
        "starts_s": [start + i * spacing for i in range(pairs)],
    }
    payload = int(re.fullmatch(r"(\d+)B", _need(flow, "packet_size", fw, "segment size")).group(1))
    for key, expected in (("header_size", IPV4_TCP_HEADER_BYTES + PPP_HEADER_BYTES),
                          ("ack_size", IPV4_TCP_HEADER_BYTES + PPP_HEADER_BYTES)):
        if _need(flow, key, fw, "ns-3's frame sizes") != f"{expected}B":
            raise HarnessError(f"{fw} {key}: expected \"{expected}B\" (IPv4 + TCP + PPP headers as ns-3 sends them)")
    receiver = _need(flow, "receiver", fw, "the ACK policy")
    receiver = {"kind": receiver} if isinstance(receiver, str) else dict(receiver)
    if receiver["kind"] not in ("every_packet", "delayed"):
        raise HarnessError(f"{fw} receiver: expected every_packet or delayed")
    receiver["sack"] = bool(receiver.get("sack", False))
    recovery = _need(flow, "recovery", fw, "ns-3 recovery with or without SACK")
    recovery = {"kind": recovery} if isinstance(recovery, str) else dict(recovery)
    if recovery["kind"] not in NS3_RECOVERIES or recovery.get("rack", False):
        raise HarnessError(f"{fw} recovery: expected one of {', '.join(NS3_RECOVERIES)} (without rack: "
                           "ns-3 3.44 has no RACK-TLP)")
    recovery_type, sack = NS3_RECOVERIES[recovery["kind"]]
    if sack != receiver["sack"]:
        raise HarnessError(f"{fw}: recovery {recovery['kind']!r} with receiver sack = {receiver['sack']}: "
                           "the ns-3 side pairs newreno with SACK off, sack1 and prr with SACK on")
    if recovery.get("bound", "ssrb") != "ssrb":
        raise HarnessError(f"{fw} recovery: ns-3's TcpPrrRecovery is set up with its default bound (SSRB)")
    tcp = {
        "recovery_type": recovery_type,
        "segment_bytes": payload,
        "initial_window": int(_need(flow, "initial_window", fw, "ns-3 InitialCwnd")),
        "max_window": int(_need(flow, "max_window", fw, "ns-3 RcvBufSize")),
        "min_rto": _need(flow, "min_rto", fw, "ns-3 MinRto"),
        "clock_granularity": _need(flow, "clock_granularity", fw, "ns-3 ClockGranularity"),
        "limited_transmit": bool(_need(flow, "limited_transmit", fw, "ns-3 LimitedTransmit")),
    }
    if receiver["kind"] == "delayed":
        receiver["timeout"] = _need(receiver, "timeout", f"{fw} receiver", "ns-3 DelAckTimeout")
    return network, tcp, receiver


def ns3_tcp_defaults(tcp: dict, receiver: dict, socket_type: str) -> dict[str, str]:
    """ns-3 Config defaults that make its TCP as close to the case's tcpsim flow as the two
    models allow (README "Differences" lists what stays different)."""
    buffer_bytes = tcp["max_window"] * tcp["segment_bytes"]
    delayed = receiver["kind"] == "delayed"
    return {
        "ns3::TcpL4Protocol::SocketType": socket_type,
        # the case's recovery: RFC 6582 / RFC 6675 classic, or PRR (RFC 6937, ns-3's default)
        "ns3::TcpL4Protocol::RecoveryType": tcp["recovery_type"],
        "ns3::TcpSocket::SegmentSize": str(tcp["segment_bytes"]),
        "ns3::TcpSocket::InitialCwnd": str(tcp["initial_window"]),
        "ns3::TcpSocket::SndBufSize": str(buffer_bytes),
        "ns3::TcpSocket::RcvBufSize": str(buffer_bytes),
        "ns3::TcpSocket::DelAckCount": "2" if delayed else "1",
        "ns3::TcpSocket::DelAckTimeout": receiver.get("timeout", "200ms"),
        # without SACK ns-3 recovers as RFC 6582 NewReno; with it, by RFC 6675's pipe
        "ns3::TcpSocketBase::Sack": "true" if receiver["sack"] else "false",
        "ns3::TcpSocketBase::Timestamp": "false",
        "ns3::TcpSocketBase::WindowScaling": "true",
        "ns3::TcpSocketBase::MinRto": tcp["min_rto"],
        "ns3::TcpSocketBase::ClockGranularity": tcp["clock_granularity"],
        "ns3::TcpSocketBase::LimitedTransmit": "true" if tcp["limited_transmit"] else "false",
        "ns3::TcpSocketBase::UseEcn": "Off",
        "ns3::TcpSocketState::EnablePacing": "false",
        # the device queue under each queue disc: one packet (see disc_limit)
        "ns3::DropTailQueue<Packet>::MaxSize": "1p",
    }


# tcpsim cubic parameter -> ns-3 TcpCubic attribute; every one must be written in the case
_CUBIC_ATTRIBUTES = {"c": "C", "beta": "Beta", "fast_convergence": "FastConvergence",
                     "reno_friendly": "TcpFriendliness"}


def case_cc(toml: Path) -> dict:
    """The case's window control as a table: {"kind": ..., parameters...}."""
    flow = tomllib.loads(toml.read_text())["flow"][0]
    cc = flow.get("cc", "reno")
    return {"kind": cc} if isinstance(cc, str) else dict(cc)


# the tcpsim window control each ns-3 socket type is compared with (others: "reno")
_NS3_SOCKET_CC = {"ns3::TcpCubic": "cubic", "ns3::TcpBbr": "bbr"}


def ns3_cc_defaults(toml: Path, socket_type: str) -> dict[str, str]:
    """ns-3 Config defaults for the case's window control: TcpCubic's attributes from the
    file's `cc = { kind = "cubic", ... }` (all written out), HyStart off (tcpsim has no
    classic HyStart; its HyStart++ is refused here, ns-3 has none)."""
    cc = case_cc(toml)
    where = f"{toml} [[flow]] cc"
    expected = _NS3_SOCKET_CC.get(socket_type, "reno")
    if cc["kind"] != expected:
        raise HarnessError(f"{where}: {cc['kind']!r} with ns-3 {socket_type}; expected \"{expected}\"")
    if socket_type != "ns3::TcpCubic":
        # TcpBbr's attributes are the case's ns3_extra_defaults (printed with it)
        return {}
    for key in (*_CUBIC_ATTRIBUTES, "slow_start"):
        _need(cc, key, where, "ns-3 TcpCubic's attribute is set from it")
    if cc["slow_start"] != "standard":
        raise HarnessError(f"{where} slow_start: expected \"standard\" (ns-3 has no HyStart++, tcpsim no "
                           f"classic HyStart: both sides run standard slow start), got {cc['slow_start']!r}")
    out = {}
    for key, attribute in _CUBIC_ATTRIBUTES.items():
        value = cc[key]
        out[f"ns3::TcpCubic::{attribute}"] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    out["ns3::TcpCubic::HyStart"] = "false"
    return out


CWND_SAMPLE_S = 0.010
# a reduction: a 10 ms sample below this fraction of the one before (beta = 0.7 cuts to
# 0.7); reductions closer than EPISODE_S to the previous one are one loss episode (ns-3's
# recovery moves cwnd more than once per loss)
_CUT = 0.85
_EPISODE_S = 0.5


def resample(changes: list[tuple[float, float]], step: float, end: float) -> list[tuple[float, float]]:
    """The value of a step function (time-ordered changes) at step, 2·step, ... < end."""
    out, i, value = [], 0, changes[0][1] if changes else math.nan
    for k in range(1, int(end / step) + 1):
        t = k * step
        while i < len(changes) and changes[i][0] <= t:
            value = changes[i][1]
            i += 1
        out.append((t, value))
    return out


def window_shape(samples: list[tuple[float, float]], since_s: float, c: float, beta: float) -> dict[str, float]:
    """The window's epochs from cwnd samples (time, packets): epoch_mean_s, the mean time
    between reductions from since_s on, and regain_over_k, the median over the epochs
    that regain W_max of (time from the reduction to cwnd ≥ W_max) / K, with W the sample
    before the reduction, W_max = W, or W·(1 + β)/2 if W is below the previous W_max
    (RFC 9438 §4.7), K = ∛((W_max − β·W)/C)."""
    cuts = []
    for (_, before), (t, after) in zip(samples, samples[1:]):
        if after < _CUT * before and (not cuts or t - cuts[-1][0] > _EPISODE_S):
            cuts.append((t, before))
    ratios, w_max_prev = [], 0.0
    for (start, w), (end, _) in zip(cuts, cuts[1:]):
        w_max = w * (1 + beta) / 2 if w < w_max_prev else w
        w_max_prev = w_max
        if start < since_s:
            continue
        k = ((w_max - beta * w) / c) ** (1 / 3)
        regained = next((t for t, v in samples if start + _EPISODE_S < t < end and v >= w_max), None)
        if regained is not None and k > 0:
            ratios.append((regained - start) / k)
    starts = [t for t, _ in cuts if t >= since_s]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    ratios.sort()
    return {
        "epoch_mean_s": sum(gaps) / len(gaps) if gaps else math.nan,
        "epochs": float(len(gaps)),
        "regain_over_k": ratios[len(ratios) // 2] if ratios else math.nan,
        "regain_epochs": float(len(ratios)),
    }


def _shape_params(case: Case) -> tuple[float, float]:
    cc = case_cc(case.toml)
    return float(cc["c"]), float(cc["beta"])


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Tolerance:
    metric: str
    kind: str  # "rel": |t − n| <= tol·|n|; "abs": |t − n| <= tol
    tol: float


@dataclass(frozen=True)
class Case:
    name: str
    toml: Path
    ns3_socket_type: str
    ns3_disc: str  # ns-3 queue disc type on the bottleneck (both directions)
    ns3_disc_attributes: dict[str, str]  # beyond ns-3's defaults; every value is printed
    tolerances: tuple[Tolerance, ...]
    measure_from_s: float = 5.0
    why: str = ""
    cwnd_flow: int | None = None  # the flow whose window shape is measured (window_shape)
    # ns-3 Config defaults beyond ns3_tcp_defaults (each printed with the case)
    ns3_extra_defaults: tuple[tuple[str, str], ...] = ()
    # compare the window control's traces (cwnd, pacing rate): gain cycle, ProbeRTT
    trace_control: bool = False

    def bottleneck_kind(self) -> str:
        bell = tomllib.loads(self.toml.read_text())["dumbbell"]["bottleneck"]["queue"]
        return bell if isinstance(bell, str) else bell["kind"]


def _fifo_attributes(toml: Path) -> dict[str, str]:
    """FifoQueueDisc attributes for a case whose bottleneck is a tcpsim droptail."""
    queue = tomllib.loads(toml.read_text())["dumbbell"]["bottleneck"]["queue"]
    return {"MaxSize": f"{disc_limit(packets(queue['limit'], f'{toml} bottleneck limit'))}p"}


def _aqm_attributes(toml: Path) -> dict[str, str]:
    """The ns-3 MaxSize for an AQM case's packet limit; a byte limit (case CODEL) keeps
    ns-3's default, which the file's comment states."""
    queue = tomllib.loads(toml.read_text())["dumbbell"]["bottleneck"]["queue"]
    limit = queue.get("limit", "") if isinstance(queue, dict) else ""
    if not str(limit).strip().endswith("p"):
        return {}
    return {"MaxSize": f"{aqm_disc_limit(packets(limit, f'{toml} bottleneck limit'))}p"}


# Tolerances: the spread measured between the two simulators on these cases, with a
# margin (README "Tolerances" gives the measurements). The metrics a case leaves out are
# still printed side by side.
# AQM cases: measured on the case and on variants of its network (README "Tolerances").
_CODEL_TOLERANCES = (Tolerance("goodput_bps", "rel", 0.02),
                     Tolerance("flow_goodput_bps", "rel", 0.25),
                     Tolerance("wait_mean_s", "rel", 0.12),
                     Tolerance("wait_p95_s", "rel", 0.10),
                     Tolerance("bottleneck_arrivals", "rel", 0.02),
                     Tolerance("bottleneck_drops", "rel", 0.25),
                     Tolerance("fast_retransmits", "rel", 0.30),
                     Tolerance("timeouts", "abs", 5))
_FQ_CODEL_TOLERANCES = tuple(Tolerance(t.metric, t.kind, 0.06) if t.metric == "flow_goodput_bps" else t
                             for t in _CODEL_TOLERANCES)
# PIE at ns-3's 25-packet buffer drops only on overflow on both sides (no early drop in
# 30 s): a drop-tail comparison with PIE's parameters, as NEWRENO's
_PIE_TOLERANCES = (Tolerance("goodput_bps", "rel", 0.02),
                   Tolerance("wait_mean_s", "rel", 0.12),
                   Tolerance("wait_p95_s", "rel", 0.05),
                   Tolerance("bottleneck_arrivals", "rel", 0.02),
                   Tolerance("bottleneck_early_drops", "abs", 5),
                   Tolerance("bottleneck_drops", "rel", 0.25),
                   Tolerance("fast_retransmits", "rel", 0.30),
                   Tolerance("timeouts", "abs", 5))
# PIE with a 1000-packet buffer, where PIE's early drops do the work; one seed on each
# side (different random streams), so the bounds hold the seed-to-seed spread
_PIE_ACTIVE_TOLERANCES = (Tolerance("goodput_bps", "rel", 0.03),
                          Tolerance("wait_mean_s", "rel", 0.15),
                          Tolerance("wait_p95_s", "rel", 0.20),
                          Tolerance("bottleneck_arrivals", "rel", 0.02),
                          Tolerance("bottleneck_overflow_drops", "abs", 0),
                          Tolerance("bottleneck_drops", "rel", 0.35),
                          Tolerance("fast_retransmits", "rel", 0.30),
                          Tolerance("timeouts", "abs", 8))
# CUBIC: measured on the case and a variant (README "Tolerances"); the window shape of
# flow 1, the flow in CUBIC's cubic region (flow 0's smaller window runs mostly in the
# Reno-friendly region)
_CUBIC_TOLERANCES = (Tolerance("goodput_bps", "rel", 0.02),
                     Tolerance("flow_goodput_bps", "rel", 0.25),
                     Tolerance("wait_mean_s", "rel", 0.10),
                     Tolerance("wait_p95_s", "rel", 0.05),
                     Tolerance("bottleneck_arrivals", "rel", 0.02),
                     Tolerance("bottleneck_drops", "rel", 0.50),
                     Tolerance("fast_retransmits", "rel", 0.45),
                     Tolerance("timeouts", "abs", 5),
                     Tolerance("epoch_mean_s", "rel", 0.25),
                     Tolerance("regain_over_k", "abs", 0.30))
# BBR: measured on the case and two variants (README "Tolerances"; largest differences:
# goodput +0.39 %, mean wait −14.5 %, p95 wait −37.8 %, arrivals −0.25 %, gain-cycle
# period −9.1 %, ProbeRTT interval −1.25 % where no flow times out)
_BBR_TOLERANCES = (Tolerance("goodput_bps", "rel", 0.02),
                   # each flow: −28.9 % at most in the case, +28.7 % in the 37 ms variant
                   Tolerance("flow_goodput_bps", "rel", 0.35),
                   Tolerance("wait_mean_s", "rel", 0.20),
                   Tolerance("wait_p95_s", "rel", 0.45),
                   Tolerance("bottleneck_arrivals", "rel", 0.02),
                   Tolerance("gain_cycle_period_s", "rel", 0.15),
                   Tolerance("probe_rtt_interval_s", "rel", 0.05))
CASES: dict[str, Case] = {
    "NEWRENO": Case(
        "NEWRENO", HERE / "case_newreno.toml", "ns3::TcpNewReno",
        "ns3::FifoQueueDisc", _fifo_attributes(HERE / "case_newreno.toml"),
        (Tolerance("goodput_bps", "rel", 0.02),
         Tolerance("flow_goodput_bps", "rel", 0.25),
         Tolerance("wait_mean_s", "rel", 0.10),
         Tolerance("wait_p95_s", "rel", 0.03),
         Tolerance("bottleneck_arrivals", "rel", 0.02),
         Tolerance("bottleneck_drops", "rel", 0.50),
         Tolerance("fast_retransmits", "rel", 0.30),
         Tolerance("timeouts", "abs", 5)),
    ),
    "NEWRENO-DELACK": Case(
        "NEWRENO-DELACK", HERE / "case_newreno_delack.toml", "ns3::TcpNewReno",
        "ns3::FifoQueueDisc", _fifo_attributes(HERE / "case_newreno_delack.toml"),
        (Tolerance("goodput_bps", "rel", 0.02),
         Tolerance("flow_goodput_bps", "rel", 0.25),
         Tolerance("wait_mean_s", "rel", 0.10),
         Tolerance("wait_p95_s", "rel", 0.03),
         Tolerance("bottleneck_arrivals", "rel", 0.02),
         Tolerance("bottleneck_drops", "rel", 0.25),
         Tolerance("fast_retransmits", "rel", 0.30),
         Tolerance("timeouts", "abs", 5)),
    ),
    "NEWRENO-NOSACK": Case(
        "NEWRENO-NOSACK", HERE / "case_newreno_nosack.toml", "ns3::TcpNewReno",
        "ns3::FifoQueueDisc", _fifo_attributes(HERE / "case_newreno_nosack.toml"),
        (Tolerance("wait_p95_s", "rel", 0.03),
         Tolerance("bottleneck_arrivals", "rel", 0.02)),
        why="goodput, drops and the mean wait are compared but not checked: ns-3's recovery "
            "without SACK loses far more (README, case NEWRENO-NOSACK)",
    ),
    "NEWRENO-LINUX": Case(
        "NEWRENO-LINUX", HERE / "case_newreno_linux.toml", "ns3::TcpNewReno",
        "ns3::FifoQueueDisc", _fifo_attributes(HERE / "case_newreno_linux.toml"),
        (Tolerance("goodput_bps", "rel", 0.02),
         Tolerance("flow_goodput_bps", "rel", 0.25),
         Tolerance("wait_mean_s", "rel", 0.10),
         Tolerance("wait_p95_s", "rel", 0.03),
         Tolerance("bottleneck_arrivals", "rel", 0.02),
         Tolerance("bottleneck_drops", "rel", 0.25),
         Tolerance("fast_retransmits", "rel", 0.30),
         Tolerance("timeouts", "abs", 5)),
    ),
    "CODEL": Case("CODEL", HERE / "case_codel.toml", "ns3::TcpNewReno", "ns3::CoDelQueueDisc",
                  _aqm_attributes(HERE / "case_codel.toml"), _CODEL_TOLERANCES),
    "FQ-CODEL": Case("FQ-CODEL", HERE / "case_fq_codel.toml", "ns3::TcpNewReno", "ns3::FqCoDelQueueDisc",
                     _aqm_attributes(HERE / "case_fq_codel.toml"), _FQ_CODEL_TOLERANCES),
    "PIE": Case("PIE", HERE / "case_pie.toml", "ns3::TcpNewReno", "ns3::PieQueueDisc",
                _aqm_attributes(HERE / "case_pie.toml"), _PIE_TOLERANCES,
                why="at ns-3's 25-packet buffer PIE makes no early drop on either side (case PIE-1000P "
                    "checks PIE's controller); flow shares printed, not checked: drop-tail phase "
                    "effects (README)"),
    "PIE-1000P": Case("PIE-1000P", HERE / "case_pie_1000p.toml", "ns3::TcpNewReno", "ns3::PieQueueDisc",
                      _aqm_attributes(HERE / "case_pie_1000p.toml"), _PIE_ACTIVE_TOLERANCES,
                      why="one seed each (ns-3 run 1, tcpsim seed 1, different random streams); "
                          "flow shares printed, not checked (README)"),
    "CUBIC": Case("CUBIC", HERE / "case_cubic.toml", "ns3::TcpCubic", "ns3::FifoQueueDisc",
                  _fifo_attributes(HERE / "case_cubic.toml"), _CUBIC_TOLERANCES, measure_from_s=10.0,
                  cwnd_flow=1,
                  why="HyStart off in ns-3, standard slow start in tcpsim (neither has the other's "
                      "HyStart); window shape of flow 1, the one in the cubic region (README)"),
    "BBR": Case("BBR", HERE / "case_bbr.toml", "ns3::TcpBbr", "ns3::FifoQueueDisc",
                _fifo_attributes(HERE / "case_bbr.toml"), _BBR_TOLERANCES,
                ns3_extra_defaults=(("ns3::TcpSocketState::EnablePacing", "true"),
                                    ("ns3::TcpSocketState::PaceInitialWindow", "false"),
                                    ("ns3::TcpSocketState::MaxPacingRate", "4Gb/s"),
                                    ("ns3::TcpBbr::HighGain", "2.89"),
                                    ("ns3::TcpBbr::BwWindowLength", "10"),
                                    ("ns3::TcpBbr::RttWindowLength", "10s"),
                                    ("ns3::TcpBbr::ProbeRttDuration", "200ms"),
                                    ("ns3::TcpBbr::Stream", "4")),
                trace_control=True,
                why="each flow's goodput within 35 %: BBRv1 flows of different RTTs share "
                    "unevenly on both sides, the same way (README)"),
}


# --------------------------------------------------------------------------- running


def run_ns3(cases: list[Case], timeout: float = 900.0) -> tuple[dict[str, dict], float]:
    """Run the ns-3 side of ``cases`` in one subprocess; ({case name: counters}, import s)."""
    specs = []
    for case in cases:
        network, tcp, receiver = ns3_network(case.toml, case.measure_from_s)
        specs.append({
            "name": case.name,
            "network": network,
            "tcp": tcp,
            "queue": {"type": case.ns3_disc, "attributes": case.ns3_disc_attributes},
            "ns3_defaults": {**ns3_tcp_defaults(tcp, receiver, case.ns3_socket_type),
                             **ns3_cc_defaults(case.toml, case.ns3_socket_type),
                             **dict(case.ns3_extra_defaults)},
            "cwnd_flow": case.cwnd_flow,
            "trace_control": case.trace_control,
        })
    proc = subprocess.run([ns3_python(), str(RUNNER)], input=json.dumps(specs),
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise HarnessError(f"{RUNNER.name} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    results, import_s = {}, float("nan")
    for line in proc.stdout.splitlines():
        if line.startswith("ns3-case "):
            r = json.loads(line[len("ns3-case "):])
            results[r["name"]] = r
        elif line.startswith("ns3-import "):
            import_s = json.loads(line[len("ns3-import "):])["seconds"]
    missing = [c.name for c in cases if c.name not in results]
    if missing:
        raise HarnessError(f"{RUNNER.name} printed no result for {missing}:\n{proc.stderr[-4000:]}")
    return results, import_s


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q of all at or below it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q * len(ordered))) - 1]


def wait_metrics(waits: list[float]) -> dict[str, float]:
    return {
        "wait_mean_s": sum(waits) / len(waits) if waits else float("nan"),
        "wait_p95_s": percentile(waits, 0.95),
        "wait_samples": float(len(waits)),
    }


NS3_OVERFLOW_REASONS = ("Forced drop", "Overlimit drop")


# A rise of the pacing rate by this factor from its previous value starts a probing phase
# (BBR's 1.25 gain; the bandwidth estimate itself moves by a few per cent at most here).
PROBE_RISE = 1.15
# ProbeRTT's cwnd, segments (BBR's minimum window).
PROBE_RTT_SEGMENTS = 4
# A ProbeRTT lasts at least 200 ms, and ns-3's cwnd moves around 4 segments while in it:
# falls closer than this to the previous one belong to the same ProbeRTT.
PROBE_RTT_SAME_EPISODE_S = 1.0


def _median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2] if values else math.nan


def gain_cycle_period(flows: list[tuple[list[float], list[float]]], since_s: float) -> float:
    """Median time between the pacing-rate rises of ``PROBE_RISE`` or more of each flow
    ((times, rates) per flow), after ``since_s``, over all flows."""
    gaps = []
    for times, rates in flows:
        rises = [t for t, r, before in zip(times[1:], rates[1:], rates[:-1])
                 if t >= since_s and before > 0 and r >= PROBE_RISE * before]
        gaps += [b - a for a, b in zip(rises, rises[1:])]
    return _median(gaps)


def probe_rtt_interval(flows: list[tuple[list[float], list[float]]]) -> float:
    """Median time between the falls of each flow's cwnd (in segments) to at most
    ``PROBE_RTT_SEGMENTS`` from above, over all flows (the first second left out: the
    start's small windows), a ProbeRTT counted once."""
    gaps = []
    for times, cwnds in flows:
        falls: list[float] = []
        for t, c, before in zip(times[1:], cwnds[1:], cwnds[:-1]):
            if t >= 1.0 and c <= PROBE_RTT_SEGMENTS < before:
                if not falls or t - falls[-1] > PROBE_RTT_SAME_EPISODE_S:
                    falls.append(t)
        gaps += [b - a for a, b in zip(falls, falls[1:])]
    return _median(gaps)


def control_metrics(pacing: list, cwnd_segments: list, since_s: float) -> dict[str, float]:
    return {"gain_cycle_period_s": gain_cycle_period(pacing, since_s),
            "probe_rtt_interval_s": probe_rtt_interval(cwnd_segments)}


def ns3_metrics(raw: dict, duration_s: float, segment_bytes: int = 0, since_s: float = 0.0) -> dict[str, float]:
    per_flow = [b * 8.0 / duration_s for b in raw["sink_bytes"]]
    m = {"goodput_bps": sum(per_flow)}
    m.update({f"flow{i}_goodput_bps": g for i, g in enumerate(per_flow)})
    m.update(wait_metrics(raw["waits_s"]))
    m["fast_retransmits"] = float(sum(raw["fast_recoveries"]))
    m["timeouts"] = float(sum(raw["timeouts"]))
    m["bottleneck_drops"] = float(raw["bottleneck_drops"])
    # ns-3's discs name their drops; a full buffer is "Forced drop" (PIE, RED) or
    # "Overlimit drop" (CoDel, FQ-CoDel), the rest are the AQM's own (early) drops
    overflow = sum(n for reason, n in raw["drop_reasons"].items() if reason in NS3_OVERFLOW_REASONS)
    m["bottleneck_overflow_drops"] = float(overflow)
    m["bottleneck_early_drops"] = float(raw["bottleneck_drops"] - overflow)
    m["bottleneck_arrivals"] = float(raw["bottleneck_arrivals"])
    m["bottleneck_marks"] = float(raw["bottleneck_marks"])
    m["device_queue_drops"] = float(raw["device_queue_drops"])
    if "pacing_bps" in raw:
        cwnd = [(t, [c / segment_bytes for c in bytes_]) for t, bytes_ in raw["cwnd_bytes"]]
        m.update(control_metrics(raw["pacing_bps"], cwnd, since_s))
    return m


def ns3_shape(raw: dict, case: Case, duration_s: float) -> dict[str, float]:
    """window_shape of the ns-3 flow's cwnd trace (bytes -> segments, resampled)."""
    segment = ns3_network(case.toml, case.measure_from_s)[1]["segment_bytes"]
    changes = [(t, w / segment) for t, w in raw["cwnd_trace"]]
    return window_shape(resample(changes, CWND_SAMPLE_S, duration_s), case.measure_from_s, *_shape_params(case))


def trace_waits(trace: Path, since_s: float) -> list[float]:
    """Waiting times from an ns-2 trace of one link direction (the harness traces only the
    bottleneck): ``+`` (arrival, queued) to ``-`` (start of transmission) of each packet
    uid, for arrivals at or after since_s."""
    arrived: dict[str, float] = {}
    waits = []
    directions = set()
    with open(trace) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 12:
                continue
            directions.add((parts[2], parts[3]))
            event, t, uid = parts[0], float(parts[1]), parts[11]
            if event == "+" and t >= since_s:
                arrived[uid] = t
            elif event == "-" and uid in arrived:
                waits.append(t - arrived.pop(uid))
    if len(directions) > 1:
        raise HarnessError(f"{trace}: expected one traced link direction, found {sorted(directions)}")
    return waits


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_tcpsim(case: Case, out_dir: Path) -> tuple[dict[str, float], float]:
    """Run the case's TOML with an ns-2 trace of the bottleneck; (metrics, wall seconds)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    text = case.toml.read_text()
    if re.search(r"(?m)^\[trace\]", text):
        raise HarnessError(f"{case.toml}: has a [trace] table; the harness adds its own")
    scenario = out_dir / case.toml.name
    extra = f'\n[trace]\ndir = "traces"\nns2 = ["{BOTTLENECK}"]\n'
    if case.cwnd_flow is not None or case.trace_control:
        if re.search(r"(?m)^\[monitor\]", text):
            raise HarnessError(f"{case.toml}: has a [monitor] table; the harness adds its own")
        monitored = '"all"' if case.trace_control else f'["tcp{case.cwnd_flow}"]'
        extra += f'\n[monitor]\ninterval = "{CWND_SAMPLE_S * 1000:g}ms"\nflows = {monitored}\nqueues = []\n'
    scenario.write_text(text + extra)
    cmd = [str(tcpsim_binary()), str(scenario), "--out", str(out_dir), "--csv", "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise HarnessError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr[-4000:]}")
    duration = seconds(tomllib.loads(text)["simulation"]["duration"], str(case.toml))
    flows = _read_csv(out_dir / "flows.csv")
    per_flow = [float(f["goodput_bytes"]) * 8.0 / duration for f in flows]
    m = {"goodput_bps": sum(per_flow)}
    m.update({f"flow{i}_goodput_bps": g for i, g in enumerate(per_flow)})
    m["fast_retransmits"] = sum(float(f["fast_retransmits"]) for f in flows)
    m["timeouts"] = sum(float(f["timeouts"]) for f in flows)
    m.update(wait_metrics(trace_waits(out_dir / "traces" / "trace.tr", case.measure_from_s)))
    queue = next((q for q in _read_csv(out_dir / "queues.csv") if q["queue"] == BOTTLENECK), None)
    if queue is None:
        raise HarnessError(f"{BOTTLENECK} not in {out_dir / 'queues.csv'}")
    m["bottleneck_drops"] = float(queue["early_drops"]) + float(queue["overflow_drops"])
    m["bottleneck_early_drops"] = float(queue["early_drops"])
    m["bottleneck_overflow_drops"] = float(queue["overflow_drops"])
    m["bottleneck_arrivals"] = float(queue["arrivals"])
    m["bottleneck_marks"] = float(queue["marks"])
    if case.cwnd_flow is not None or case.trace_control:
        series: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
        for row in _read_csv(out_dir / "timeseries.csv"):
            times, values = series.setdefault((row["entity"], row["metric"]), ([], []))
            times.append(float(row["time_s"]))
            values.append(float(row["value"]))
        if case.cwnd_flow is not None:
            times, values = series[(f"tcp{case.cwnd_flow}", "cwnd")]
            m.update(window_shape(list(zip(times, values)), case.measure_from_s, *_shape_params(case)))
        if case.trace_control:
            names = [f["name"] for f in flows]
            m.update(control_metrics([series[(n, "pacing_rate_bps")] for n in names],
                                     [series[(n, "cwnd")] for n in names], case.measure_from_s))
    return m, wall


# --------------------------------------------------------------------------- comparing


@dataclass
class Check:
    metric: str
    ns3: float
    tcpsim: float
    kind: str
    tol: float

    @property
    def diff(self) -> float:
        d = self.tcpsim - self.ns3
        return d / self.ns3 if self.kind == "rel" and self.ns3 != 0 else d

    @property
    def ok(self) -> bool:
        if math.isnan(self.ns3) or math.isnan(self.tcpsim):
            return False
        return abs(self.diff) <= self.tol + 1e-12

    def line(self) -> str:
        unit, scale = ("%", 100) if self.kind == "rel" else ("", 1)
        return (f"{self.metric:<22} ns3={self.ns3:<14.6g} tcpsim={self.tcpsim:<14.6g} "
                f"diff={self.diff * scale:+.4g}{unit} (tol ±{self.tol * scale:g}{unit}) "
                f"{'OK' if self.ok else 'FAIL'}")


@dataclass
class CaseResult:
    case: str
    ns3: dict[str, float]
    tcpsim: dict[str, float]
    checks: list[Check]
    ns3_wall_s: float
    tcpsim_wall_s: float
    ns3_disc_attributes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str = ""  # why the tcpsim side did not run (then nothing is checked)

    @property
    def ok(self) -> bool:
        return not self.skipped and all(c.ok for c in self.checks)

    def report(self) -> str:
        verdict = f"SKIPPED ({self.skipped})" if self.skipped else ("PASS" if self.ok else "FAIL")
        out = [f"case {self.case}: {verdict}"
               f"  (simulation wall: ns-3 {self.ns3_wall_s:.2f} s, tcpsim {self.tcpsim_wall_s:.2f} s)"]
        out += ["  " + c.line() for c in self.checks]
        out.append(f"  {'metric':<22} {'ns3':>16} {'tcpsim':>16}")
        for k in sorted(set(self.ns3) | set(self.tcpsim)):
            out.append(f"  {k:<22} {self.ns3.get(k, math.nan):>16.6g} {self.tcpsim.get(k, math.nan):>16.6g}")
        out.append("  ns-3 bottleneck queue disc attributes:")
        # pointer-valued attributes (child queues, filters) print addresses: left out
        out += ["    " + a for a in self.ns3_disc_attributes if "=0x" not in a]
        out += ["  note: " + n for n in self.notes]
        return "\n".join(out)


def checks_for(case: Case, ns3: dict[str, float], ts: dict[str, float]) -> list[Check]:
    checks = []
    for t in case.tolerances:
        if t.metric == "flow_goodput_bps":
            flows = sorted(k for k in ns3 if re.fullmatch(r"flow\d+_goodput_bps", k))
            checks += [Check(k, ns3[k], ts.get(k, math.nan), t.kind, t.tol) for k in flows]
        else:
            checks.append(Check(t.metric, ns3[t.metric], ts.get(t.metric, math.nan), t.kind, t.tol))
    return checks


def run_cases(names: list[str], out_root: Path | None = None) -> list[CaseResult]:
    """Run the named cases: ns-3 in one subprocess, tcpsim once per case. A case whose
    queue kind tcpsim lacks gets its ns-3 side only (``CaseResult.skipped``)."""
    unknown = [n for n in names if n not in CASES]
    if unknown:
        raise HarnessError(f"unknown case(s) {unknown}; cases: {', '.join(CASES)}")
    cases = [CASES[n] for n in names]
    out_root = out_root or Path(tempfile.mkdtemp(prefix="tcpsim-ns3-"))
    raw, import_s = run_ns3(cases)
    queue_kinds = tcpsim_kinds("queue")
    results = []
    for case in cases:
        network, tcp, _ = ns3_network(case.toml, case.measure_from_s)
        ns3 = ns3_metrics(raw[case.name], network["duration_s"], tcp["segment_bytes"], case.measure_from_s)
        if case.cwnd_flow is not None:
            ns3.update(ns3_shape(raw[case.name], case, network["duration_s"]))
        kind = case.bottleneck_kind()
        if kind in queue_kinds:
            ts, ts_wall = run_tcpsim(case, out_root / case.name.lower())
            checks = checks_for(case, ns3, ts)
        else:
            ts, ts_wall, checks = {}, math.nan, []
        res = CaseResult(case.name, ns3, ts, checks, raw[case.name]["wall_s"], ts_wall,
                         raw[case.name]["disc_attributes"])
        if kind not in queue_kinds:
            res.skipped = f"tcpsim has no queue kind {kind!r} yet: ns-3 side only"
        res.notes.append(f"ns-3 drops by reason: {raw[case.name]['drop_reasons']}")
        res.notes.append(f"ns-3 import took {import_s:.1f} s (once per subprocess)")
        if ts:
            res.notes.append(f"tcpsim output kept in {out_root / case.name.lower()}")
        if case.ns3_extra_defaults:
            res.notes.append("ns-3 defaults set for this case: "
                             + ", ".join(f"{k}={v}" for k, v in case.ns3_extra_defaults))
        if case.why:
            res.notes.append(case.why)
        results.append(res)
    return results


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cases", nargs="+", choices=list(CASES))
    p.add_argument("--out", type=Path, default=None, help="keep tcpsim's output under this folder")
    a = p.parse_args(argv)
    ok = True
    for res in run_cases(list(dict.fromkeys(a.cases)), a.out):
        print(res.report())
        ok &= res.ok or bool(res.skipped)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
