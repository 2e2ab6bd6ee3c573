"""The measurements a reproduction compares with a document: per-run metrics from our
own counters and time series (`run_measures`), and the document's metrics computed from
an ns-2 trace the way its awk/perl scripts compute them (`trace_measures`).

Metric names (docs/reproducing.md#metrics):

- ``tcp_sent``, ``tcp_lost``, ``tcp_received``: packets of all TCP flows put on the wire
  (SYN and retransmissions included), dropped in any queue, and received;
  ``tcp_drop_rate`` = lost / sent (the document's "drop rate").
- ``tcp_throughput_mbps``: wire bytes of TCP data received × 8 / active time, Mb/s;
  ``tcp_goodput_mbps``: payload delivered in order.
- ``udp_sent``, ``udp_received``, ``udp_throughput_mbps``: the same for CBR flows.
- ``rtt_ms``: mean RTT sample of the TCP flows.
- ``jain``: Jain's index of the TCP flows' goodputs; ``max_min_share``: the largest
  goodput over the smallest.
- ``cwnd_cuts``: window reductions per TCP flow: samples of the cwnd series below 0.7 ×
  the previous sample (a halving or a reset to 1).
- ``bottleneck_queue_mean_pkts``: mean length of the most utilised queue.
- ``flow_throughput_mbps.NAME``: one flow's throughput.
- ``trace_*``: from the ns-2 trace, see `trace_measures`.
- For an experiment with ``[experiment.events]`` (`event_measures`), of the first TCP
  flow: ``ss_exit_s`` and ``ss_exit_cwnd`` (the first window reduction: when and from
  which window slow start ended), and per event ``N`` (0, 1, ...): ``conv_s.N`` and
  ``conv_rtts.N`` (the time to the new stable window after event N, in seconds and
  BaseRTTs, `tcpsim.quick_vegas.convergence_time`), ``cwnd_eq.N`` (that stable window)
  ``queue_peak_pkts.N`` (the most packets the bottleneck queue held between event N and
  the next) and ``queue_eq_pkts.N`` (its mean over the last 10 % of that span).
- For an experiment with ``windows`` (`window_measures`), per window ``K`` (0, 1, ...):
  ``jain_window.K`` (Jain's index of the goodputs of the TCP flows active during the
  whole window, from the ``delivered_bytes`` series) and ``utilization_window.K`` (the
  bottleneck's mean utilization in it); and ``full_utilization_s`` (the first time the
  bottleneck's utilization reaches `FULL_UTILIZATION` in a sample).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, Iterable, List, Tuple

import numpy as np
import pandas as pd

from ..analysis import jain as _jain
from ..results import Results

#: A cwnd sample below this fraction of the previous one counts as a window reduction.
CWND_CUT = 0.7

#: The utilization at which a link counts as fully used (``full_utilization_s``).
FULL_UTILIZATION = 0.98


def _f(x: Any) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return float("nan")
    return v


def run_measures(res: Results) -> Dict[str, float]:
    """Metrics of one run from its counters and time series."""
    f = res.flows
    out: Dict[str, float] = {}
    tcp = f[f["type"] == "tcp"]
    cbr = f[f["type"] == "cbr"]
    out["tcp_sent"] = float(tcp["packets_sent"].sum())
    out["tcp_lost"] = float(tcp["drops"].sum())
    out["tcp_received"] = float(tcp["packets_received"].sum())
    out["tcp_drop_rate"] = out["tcp_lost"] / out["tcp_sent"] if out["tcp_sent"] else float("nan")
    out["tcp_throughput_mbps"] = float(tcp["throughput_bps"].sum()) / 1e6
    out["tcp_goodput_mbps"] = float(tcp["goodput_bps"].sum()) / 1e6
    out["udp_sent"] = float(cbr["packets_sent"].sum())
    out["udp_received"] = float(cbr["packets_received"].sum())
    out["udp_throughput_mbps"] = float(cbr["throughput_bps"].sum()) / 1e6
    n = tcp["rtt_samples"].astype(float)
    out["rtt_ms"] = (float((tcp["rtt_mean_s"].astype(float).fillna(0) * n).sum() / n.sum()) * 1e3
                     if n.sum() > 0 else float("nan"))
    gp = tcp["goodput_bps"].astype(float)
    out["jain"] = _jain(gp) if len(gp) else float("nan")
    out["max_min_share"] = float(gp.max() / gp.min()) if len(gp) and gp.min() > 0 else float("nan")
    for _, row in f.iterrows():
        out[f"flow_throughput_mbps.{row['name']}"] = _f(row["throughput_bps"]) / 1e6
    cw = res.series("cwnd", list(tcp["name"]))
    if not cw.empty:
        cuts = []
        for col in cw.columns:
            v = cw[col].dropna().to_numpy(dtype=float)
            cuts.append(float(np.sum(v[1:] < CWND_CUT * v[:-1])) if len(v) > 1 else 0.0)
        out["cwnd_cuts"] = float(np.mean(cuts))
    l, q = res.links, res.queues
    if len(l) and len(q):
        top = l.loc[l["utilization"].astype(float).idxmax(), "link"]
        bq = q[q["queue"] == top]
        if len(bq):
            out["bottleneck_queue_mean_pkts"] = _f(bq["mean_length_pkts"].iloc[0])
    return out


def event_measures(res: Results, events: List[float], base_rtt_s: float) -> Dict[str, float]:
    """Slow-start exit and convergence after each event of the first TCP flow (see the
    module's list). Needs the ``cwnd`` and bottleneck ``queue_pkts`` time series."""
    from ..quick_vegas import convergence_time

    out: Dict[str, float] = {}
    f = res.flows
    tcp = f[f["type"] == "tcp"]
    if tcp.empty:
        return out
    cw = res.series("cwnd", [tcp["name"].iloc[0]])
    if cw.empty:
        return out
    t = cw.index.to_numpy(dtype=float)
    w = cw.iloc[:, 0].to_numpy(dtype=float)
    cut = np.nonzero(w[1:] < w[:-1])[0]
    if cut.size:
        out["ss_exit_s"] = float(t[cut[0] + 1])
        out["ss_exit_cwnd"] = float(w[cut[0]])
    duration = float(res.summary.get("duration_s", t[-1]))
    queue = None
    l = res.links
    if len(l):
        top = l.loc[l["utilization"].astype(float).idxmax(), "link"]
        q = res.series("queue_pkts", [top])
        queue = q.iloc[:, 0] if not q.empty else None
    for i, start in enumerate(events):
        end = events[i + 1] if i + 1 < len(events) else duration
        try:
            c = convergence_time(t, w, start=start, base_rtt=base_rtt_s, end=end)
        except ValueError:
            continue
        out[f"conv_s.{i}"] = float(c.seconds)
        out[f"conv_rtts.{i}"] = float(c.base_rtts)
        out[f"cwnd_eq.{i}"] = float(c.final_window)
        if queue is not None:
            span = queue[(queue.index >= start) & (queue.index < end)]
            if len(span):
                out[f"queue_peak_pkts.{i}"] = float(span.max())
                # the settled queue: its mean over the last 10 % of the span
                tail = span[span.index >= end - 0.1 * (end - start)]
                out[f"queue_eq_pkts.{i}"] = float(tail.mean()) if len(tail) else float("nan")
    return out


def _bottleneck(res: Results) -> Any:
    l = res.links
    return l.loc[l["utilization"].astype(float).idxmax(), "link"] if len(l) else None


def window_measures(res: Results, windows: List[Tuple[float, float]]) -> Dict[str, float]:
    """Per measurement window: Jain's index of the TCP flows active throughout it and the
    bottleneck's utilization; and when the bottleneck first ran full (see the module)."""
    out: Dict[str, float] = {}
    f = res.flows
    tcp = f[f["type"] == "tcp"]
    delivered = res.series("delivered_bytes", list(tcp["name"]))
    top = _bottleneck(res)
    util = res.series("utilization", [top]) if top is not None else pd.DataFrame()
    for k, (a, b) in enumerate(windows):
        if not delivered.empty:
            # a sample counts what arrived in the interval ending at its time
            inside = delivered[(delivered.index > a + 1e-9) & (delivered.index <= b + 1e-9)]
            active = tcp[(tcp["start_s"].astype(float) <= a + 1e-9) & (tcp["stop_s"].astype(float) >= b - 1e-9)]
            names = [n for n in active["name"] if n in inside.columns]
            if names:
                out[f"jain_window.{k}"] = _jain(inside[names].sum())
        if not util.empty:
            u = util.iloc[:, 0]
            span = u[(u.index > a + 1e-9) & (u.index <= b + 1e-9)]
            if len(span):
                out[f"utilization_window.{k}"] = float(span.mean())
    if not util.empty:
        u = util.iloc[:, 0]
        full = u[u >= FULL_UTILIZATION]
        if len(full):
            out["full_utilization_s"] = float(full.index[0])
    return out


def throughput_series(res: Results, flows: Iterable[str], bin_s: float = 1.0) -> pd.DataFrame:
    """Received throughput (Mb/s) per flow in bins of `bin_s` seconds, from the
    ``delivered_bytes`` samples (payload delivered in order per interval), as the
    document's throughput_tcp.pl bins the bytes received."""
    d = res.series("delivered_bytes", list(flows))
    if d.empty:
        return d
    t = d.index.to_numpy(dtype=float)
    bins = np.ceil(np.round(t / bin_s, 9)) * bin_s
    g = d.groupby(bins).sum() * 8 / bin_s / 1e6
    g.index.name = "time_s"
    return g.iloc[1:] if len(g) and g.index[0] == 0 else g


# ============================================================================ traces

TRACE_COLUMNS = ["op", "time", "from", "to", "type", "size", "flags", "fid", "src", "dst", "seq", "uid"]


def read_trace(path: Path) -> pd.DataFrame:
    """An ns-2 trace file (docs/traces.md) as a DataFrame, with the source and
    destination agents' nodes as integer columns ``src_node``, ``dst_node``."""
    df = pd.read_csv(path, sep=" ", header=None, names=TRACE_COLUMNS,
                     dtype={"op": str, "type": str, "flags": str, "src": str, "dst": str})
    df["src_node"] = df["src"].str.split(".", n=1).str[0].astype(int)
    df["dst_node"] = df["dst"].str.split(".", n=1).str[0].astype(int)
    return df


def trace_measures(tr: pd.DataFrame, data_type: str = "tcp") -> Dict[str, float]:
    """The document's metrics from a trace, computed as the usual ns-2 awk/perl scripts
    compute them (the document names `throughput_tcp.pl` and `scriptiplote.awk`):

    - sent: ``+`` lines of `data_type` at the packet's source node (``$3 == src``),
      i.e. every packet the agent handed to its first link;
    - received: ``r`` lines of `data_type` at the destination node (``$4 == dst``);
    - lost: ``d`` lines of `data_type`; drop rate = lost / sent;
    - delay: per packet id (uid), the time of its ``r`` at the destination minus the
      time of its ``+`` at the source, averaged over the packets that arrived, in ms;
    - throughput: bytes of the received packets × 8 / (last receive time − first send
      time), Mb/s (the size column: 1040 B for a TCP data packet);
    - acks: ``+`` lines of type ``ack`` at the sink's node (ACKs sent by the sinks);
      ack drops: ``d`` lines of type ``ack``.
    """
    data = tr[tr["type"] == data_type]
    sent = data[(data["op"] == "+") & (data["from"] == data["src_node"])]
    recv = data[(data["op"] == "r") & (data["to"] == data["dst_node"])]
    lost = data[data["op"] == "d"]
    out: Dict[str, float] = {
        "trace_sent": float(len(sent)),
        "trace_received": float(len(recv)),
        "trace_lost": float(len(lost)),
    }
    out["trace_drop_rate"] = out["trace_lost"] / out["trace_sent"] if len(sent) else float("nan")
    start = sent.groupby("uid")["time"].min()
    end = recv.groupby("uid")["time"].max()
    both = end.index.intersection(start.index)
    out["trace_delay_ms"] = float((end[both] - start[both]).mean() * 1e3) if len(both) else float("nan")
    out["trace_delay_min_ms"] = float((end[both] - start[both]).min() * 1e3) if len(both) else float("nan")
    span = (recv["time"].max() - sent["time"].min()) if len(recv) else float("nan")
    out["trace_throughput_mbps"] = (float(recv["size"].sum()) * 8 / span / 1e6) if span and span > 0 else float("nan")
    out["trace_received_bytes"] = float(recv["size"].sum())
    acks = tr[tr["type"] == "ack"]
    out["trace_acks"] = float(((acks["op"] == "+") & (acks["from"] == acks["src_node"])).sum())
    out["trace_ack_drops"] = float((acks["op"] == "d").sum())
    out["trace_drops_all"] = float((tr["op"] == "d").sum())
    return out


def trace_counter_checks(tm: Dict[str, float], res: Results, links: List[str]) -> List[Dict[str, Any]]:
    """The trace's metrics against our own counters of the same run. Each item:
    ``{what, trace, counter, ok}``; all must agree exactly (throughput to 1e-9)."""
    f = res.flows
    tcp = f[f["type"] == "tcp"]
    q = res.queues
    traced_q = q[q["queue"].isin(links)]
    active = (tcp["stop_s"].astype(float) - tcp["start_s"].astype(float))
    bytes_counter = float((tcp["throughput_bps"].astype(float) * active / 8).sum())
    items = [
        ("TCP packets sent (+ at the source node) = flows.packets_sent", tm["trace_sent"], float(tcp["packets_sent"].sum())),
        ("TCP packets received (r at the destination) = flows.packets_received", tm["trace_received"], float(tcp["packets_received"].sum())),
        ("TCP packets lost (d) = flows.drops", tm["trace_lost"], float(tcp["drops"].sum())),
        ("all drops on the traced links (d) = queues early + overflow drops", tm["trace_drops_all"],
         float((traced_q["early_drops"] + traced_q["overflow_drops"]).sum())),
        ("TCP bytes received (r) = flows.throughput_bps × active time / 8", tm["trace_received_bytes"], round(bytes_counter, 6)),
    ]
    out = []
    for what, a, b in items:
        ok = (a == b) if "bytes" not in what else math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
        out.append({"what": what, "trace": a, "counter": b, "ok": bool(ok)})
    return out
