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
- ``tcp_retransmits``, ``tcp_timeouts``: retransmitted packets and retransmission
  timeouts of all TCP flows.
- For each value the flows' window controls record (`tcpsim.results.recorded_values`;
  Reno + γ records ``gamma``, the γ of each decrease), over the flows that record it and
  the measurement window: ``recorded_count.NAME`` (how many values),
  ``recorded_mean.NAME`` (their mean, all flows' values pooled), ``recorded_min.NAME``
  and ``recorded_max.NAME``; and per flow ``flow_recorded_mean.NAME.FLOW``. A check of
  reference document 003's γ reads ``recorded_mean.gamma``.
- ``bottleneck_queue_mean_pkts``: mean length of the most utilised queue;
  ``bottleneck_early_drops`` (an AQM's own drops, such as RED's random early drops),
  ``bottleneck_forced_drops`` (arrivals that found the queue full) and
  ``bottleneck_marks`` (ECN marks) of that queue: the counters a reason for a miss cites
  ("RED's early drops ...") so that the report can show them beside it.
- ``flow_throughput_mbps.NAME``: one flow's throughput.
- ``trace_*``: from the ns-2 trace, see `trace_measures`.
- For an experiment with ``[experiment.events]`` (`event_measures`), of the first TCP
  flow: ``ss_exit_s`` and ``ss_exit_cwnd`` (the first window reduction: when and from
  which window slow start ended), and per event ``N`` (0, 1, ...): ``conv_s.N`` and
  ``conv_rtts.N`` (the time to the new stable window after event N, in seconds and
  BaseRTTs, `tcpsim.reproduce.quick_vegas.convergence_time`), ``cwnd_eq.N`` (that
  stable window) ``queue_peak_pkts.N`` (the most packets the bottleneck queue held between event N and
  the next) and ``queue_eq_pkts.N`` (its mean over the last 10 % of that span).
- Per congestion control and queue, as reference document 000 (a thesis on Reno/Vegas
  fairness with RED) tabulates them (`group_measures`): ``flow_kbps.NAME`` (one flow's
  throughput in Kb/s, the thesis' unit), ``cc_mean_kbps.CC`` (the mean
  throughput of the flows whose ``cc`` is CC, Kb/s), ``vegas_reno_ratio`` (the mean Vegas
  throughput over the mean Reno throughput: the thesis' "fairness", not Jain's index;
  a Vegas variant that replaces Vegas in the run counts as Vegas),
  ``total_kbps`` (the TCP flows' throughputs summed) and ``utilization_total`` (that sum
  over the rate of the busiest link direction, the one that sent the most bytes);
  ``flow_rtt_min_ms.NAME`` and ``flow_rtt_mean_ms.NAME`` (one flow's smallest and mean RTT
  sample over the run: the smallest is Vegas' BaseRTT, which sets the window Vegas keeps
  once a queue builds, so it explains why Vegas flows that entered at different queue
  levels get different throughputs); ``flow_timeouts.NAME`` (one flow's retransmission
  timeouts over the run: after one, Vegas restarts from a window of one packet);
  ``queue_arrivals.FROM_to_TO`` and ``queue_drops.FROM_to_TO`` (packets offered to and
  dropped by, early or on overflow, the queue of link direction FROM->TO). With
  ``windows``, the same four throughput measures per window K from the
  ``delivered_bytes`` series: ``flow_kbps_window.K.NAME``, ``cc_mean_kbps_window.K.CC``, ``vegas_reno_ratio_window.K``,
  ``total_kbps_window.K``, ``utilization_total_window.K``.
- For an experiment with ``windows`` (`window_measures`), per window ``K`` (0, 1, ...):
  ``jain_window.K`` (Jain's index of the goodputs of the TCP flows active during the
  whole window, from the ``delivered_bytes`` series) and ``utilization_window.K`` (the
  bottleneck's mean utilization in it); and ``full_utilization_s`` (the first time the
  bottleneck's utilization reaches `FULL_UTILIZATION` in a sample).
- For an experiment with ``[experiment.samples]`` (`smoothness_measures`), reference
  document 003's metrics of all the run's flows (`tcpsim.metrics.fairness_and_smoothness`):
  ``fairness_index`` (Jain's index of the goodputs), ``worst_case_fairness`` (smallest over
  largest goodput), ``cov`` (each flow's coefficient of variation of its sampled
  throughput, averaged over the flows) and ``short_term_fairness`` (Jain's index of each
  sample, averaged); with ``buffer_pkts``, ``queue_norm_mean`` and ``queue_norm_max`` (the
  bottleneck queue's ``queue_pkts`` samples over its limit, from the same start).
- For an experiment with ``[experiment.aqm]`` (`aqm_measures`), reference document 002's
  measures of the bottleneck and of the groups of flows (its subnets), over the
  measurement window (the scenario's ``measure_from`` to the end, the queue's samples
  too): ``group_goodput_mbps.GROUP`` (a group's total goodput) and
  ``jain_groups`` (Jain's index over the groups' goodputs, n = the number of groups:
  002's fairness index), ``bottleneck_utilization``, ``bottleneck_loss_rate`` (early
  and overflow drops over arrivals), ``bottleneck_delay_ms`` (mean queueing delay of the
  packets that left the queue), ``bottleneck_delay_median_ms`` (the median, over the
  monitor intervals, of each interval's mean queueing delay: the ``sojourn_s`` series),
  ``queue_mean_pkts``, ``queue_std_pkts`` and
  ``queue_max_pkts`` (of the ``queue_pkts`` samples) and ``retransmit_fraction`` (002's
  (throughput − goodput) / throughput in packets: the retransmissions among the TCP
  packets sent, `tcpsim.metrics.retransmission_fraction`).
- ``flow_share.NAME`` (`group_measures`): a TCP flow's throughput over the TCP flows' sum.
- For an experiment with ``[experiment.cubic_epochs] flow = "NAME"``
  (`cubic_epoch_measures`): CUBIC's window curve after each loss, eq. 1 of RFC 9438
  fitted to each epoch of the flow's ``cwnd`` series: ``cubic_epochs``,
  ``cubic_regain_s``, ``cubic_k_s``, ``cubic_regain_k``, ``cubic_w_max``, ``cubic_c``,
  ``cubic_rate_first``, ``cubic_rate_before``, ``cubic_rate_after`` (see there).
- For an experiment with ``[experiment.handoff]`` (`handoff_measures`): ``recovery_s.NAME``
  per flow, the seconds from the end of the outage until its throughput regains its level
  (`tcpsim.metrics.handoff_recovery_time`; ``inf`` if it never does).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from .. import metrics
from ..analysis import jain as _jain
from ..results import Results, recorded_values

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
    out["tcp_retransmits"] = float(tcp["retransmits"].sum())
    out["tcp_timeouts"] = float(tcp["timeouts"].sum())
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
    out.update(recorded_measures(f))
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
            out["bottleneck_early_drops"] = _f(bq["early_drops"].iloc[0])
            out["bottleneck_forced_drops"] = _f(bq["overflow_drops"].iloc[0])
            out["bottleneck_marks"] = _f(bq["marks"].iloc[0])
    return out


def event_measures(res: Results, events: List[float], base_rtt_s: float) -> Dict[str, float]:
    """Slow-start exit and convergence after each event of the first TCP flow (see the
    module's list). Needs the ``cwnd`` and bottleneck ``queue_pkts`` time series."""
    from .quick_vegas import convergence_time

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


def smoothness_measures(res: Results, from_s: Any = None, every_s: Any = None,
                        buffer_pkts: Any = None) -> Dict[str, float]:
    """Document 003's fairness and smoothness metrics of the run's flows, and the
    bottleneck's normalized queue when its limit is given (see the module's list).
    ``from_s`` and ``every_s`` as `tcpsim.metrics.sampled_throughput`'s ``start_s`` and
    ``sample_s`` (None: its defaults, 003's 15 s and 0.5 s). A metric the run cannot
    give (no flow delivered anything, a flow idle in every sample) is left out."""
    sampling = {k: v for k, v in (("start_s", from_s), ("sample_s", every_s)) if v is not None}
    out: Dict[str, float] = {}
    try:
        out.update({k: float(v) for k, v in metrics.fairness_and_smoothness(res, **sampling).items()})
    except ValueError:
        pass
    top = _bottleneck(res)
    if buffer_pkts is not None and top is not None:
        try:
            q = metrics.normalized_queue(res, str(top), buffer_pkts)
        except ValueError:
            return out
        start = sampling.get("start_s", metrics.rates.MEASURE_FROM_S)
        q = q[q.index >= start - 1e-9]
        if len(q):
            out["queue_norm_mean"] = float(q.mean())
            out["queue_norm_max"] = float(q.max())
    return out


def aqm_measures(res: Results) -> Dict[str, float]:
    """Reference document 002's measures of one run (see the module's list): per group of
    flows and over the groups, of the bottleneck queue and link, and of retransmissions,
    over the run's measurement window, the scenario's ``measure_from`` to the end (the
    counters of the flows, queues and links tables cover it; the queue's samples are
    taken from it on). A measure the run cannot give (no group, no queue samples) is left
    out."""
    from_s = float(res.summary.get("measure_from_s") or 0.0)
    out: Dict[str, float] = {}
    f = res.flows
    tcp = f[f["type"] == "tcp"]
    if "group" in tcp.columns:
        try:
            groups = metrics.group_goodput(tcp)
        except ValueError:
            groups = None
        if groups is not None:
            for name, bps in groups.items():
                out[f"group_goodput_mbps.{name}"] = float(bps) / 1e6
            out["jain_groups"] = metrics.jain_index(groups) if groups.sum() > 0 else float("nan")
    sent = float(tcp["packets_sent"].sum())
    if sent > 0:
        out["retransmit_fraction"] = metrics.retransmission_fraction(sent, float(tcp["retransmits"].sum()))
    top = _bottleneck(res)
    if top is None:
        return out
    link = res.links[res.links["link"] == top].iloc[0]
    out["bottleneck_utilization"] = _f(link["utilization"])
    q = res.queues[res.queues["queue"] == top]
    if len(q):
        row = q.iloc[0]
        arrivals = _f(row["arrivals"])
        if arrivals > 0:
            out["bottleneck_loss_rate"] = metrics.packet_loss_rate(_f(row["early_drops"]) + _f(row["overflow_drops"]),
                                                                   arrivals)
        out["bottleneck_delay_ms"] = _f(row["mean_sojourn_s"]) * 1e3
    sojourn = res.series("sojourn_s", [top])
    if not sojourn.empty:
        # the typical delay rather than the mean, which a few long bursts pull up: the
        # median over the monitor intervals (from the window's start) of each interval's
        # mean sojourn; an interval in which nothing left has no sample
        s = sojourn.iloc[:, 0].dropna()
        s = s[s.index.to_numpy(dtype=float) >= from_s - 1e-9]
        if len(s):
            out["bottleneck_delay_median_ms"] = float(s.median()) * 1e3
    samples = res.series("queue_pkts", [top])
    if not samples.empty:
        try:
            stats = metrics.queue_statistics(samples.iloc[:, 0], from_s)
        except ValueError:
            return out
        out.update({f"queue_{k}_pkts": v for k, v in stats.items()})
    return out


def handoff_measures(res: Results, outage_s: Tuple[float, float]) -> Dict[str, float]:
    """``recovery_s.NAME`` of each flow after the outage (see the module's list); a flow
    whose level before the outage is undefined (it delivered nothing) is left out."""
    out: Dict[str, float] = {}
    for name in res.flows["name"]:
        try:
            rec = metrics.handoff_recovery_time(res, outage_s, flows=[name])
        except ValueError:
            continue
        out[f"recovery_s.{name}"] = float(rec[name])
    return out


def _queue_tag(link: str) -> str:
    """A link direction as a metric suffix: ``r1->r2`` becomes ``r1_to_r2`` (a metric name
    holds letters, digits, ``_`` and ``.`` only)."""
    return link.replace("->", "_to_")


def _vegas_reno_ratio(means: Dict[str, float]) -> float:
    """The thesis' fairness: mean Vegas over mean Reno throughput. "Vegas" is the one
    window control beside Reno in the run: Vegas itself, or a variant that replaces it
    (NewVegas, Vegas-A, Vegas+: experiment E6, the end-host fixes of the thesis' Sect.
    2.2). NaN without Reno, or without exactly one other window control."""
    others = [cc for cc in means if cc != "reno"]
    r = means.get("reno")
    return means[others[0]] / r if len(others) == 1 and r and r > 0 else float("nan")


def _busiest_link(res: Results) -> Any:
    """The link direction that sent the most bytes: the bottleneck every flow crosses,
    also where a lower-rate feeder link is busier for its rate (document 000's six-router
    network, whose 1.5 Mb/s feeders run nearly full beside the 2 Mb/s bottleneck)."""
    l = res.links
    return l.loc[l["bytes_sent"].astype(float).idxmax()] if len(l) else None


def recorded_measures(flows: pd.DataFrame) -> Dict[str, float]:
    """The ``recorded_*`` measures (see the module's list) from the flows table's summary
    columns of each recorded value; the pooled mean weighs each flow's mean by its count."""
    out: Dict[str, float] = {}
    for name in recorded_values(flows):
        rows = flows[flows[f"{name}_count"].notna()]
        count = rows[f"{name}_count"].astype(float)
        mean = rows[f"{name}_mean"].astype(float)
        total = float(count.sum())
        out[f"recorded_count.{name}"] = total
        out[f"recorded_mean.{name}"] = float((mean.fillna(0.0) * count).sum() / total) if total else float("nan")
        out[f"recorded_min.{name}"] = float(rows[f"{name}_min"].astype(float).min()) if total else float("nan")
        out[f"recorded_max.{name}"] = float(rows[f"{name}_max"].astype(float).max()) if total else float("nan")
        for flow, m in zip(rows["name"], mean):
            out[f"flow_recorded_mean.{name}.{flow}"] = float(m)
    return out


def group_measures(res: Results, windows: List[Tuple[float, float]] = ()) -> Dict[str, float]:
    """Reference document 000's own measures of one run (see the module's list): mean
    throughput per congestion control, their Vegas/Reno ratio, the total and its share of
    the bottleneck's rate, over the whole run (wire bytes received over each flow's active
    time, the flows table's ``throughput_bps``) and over each window (payload delivered in
    order, from the ``delivered_bytes`` series); and every queue's arrivals and drops."""
    out: Dict[str, float] = {}
    f = res.flows
    tcp = f[f["type"] == "tcp"]
    busiest = _busiest_link(res)
    rate_kbps = float(busiest["rate_bps"]) / 1e3 if busiest is not None else float("nan")

    def summarise(kbps: pd.Series, window: str) -> None:
        """`kbps`: each TCP flow's throughput; `window`: "" (whole run) or "_window.K"."""
        means = {cc: float(kbps[tcp["cc"] == cc].mean()) for cc in sorted(set(tcp["cc"]))}
        for name, v in zip(tcp["name"], kbps):
            out[f"flow_kbps{window}.{name}"] = float(v)
        for cc, m in means.items():
            out[f"cc_mean_kbps{window}.{cc}"] = m
        out[f"vegas_reno_ratio{window}"] = _vegas_reno_ratio(means)
        total = float(kbps.sum())
        out[f"total_kbps{window}"] = total
        out[f"utilization_total{window}"] = total / rate_kbps

    if len(tcp):
        summarise(tcp["throughput_bps"].astype(float) / 1e3, "")
        for name, rtt_min, rtt_mean, timeouts in zip(tcp["name"], tcp["rtt_min_s"], tcp["rtt_mean_s"], tcp["timeouts"]):
            out[f"flow_rtt_min_ms.{name}"] = _f(rtt_min) * 1e3
            out[f"flow_rtt_mean_ms.{name}"] = _f(rtt_mean) * 1e3
            out[f"flow_timeouts.{name}"] = _f(timeouts)
        total_bps = float(tcp["throughput_bps"].astype(float).sum())
        for name, bps in zip(tcp["name"], tcp["throughput_bps"]):
            out[f"flow_share.{name}"] = _f(bps) / total_bps if total_bps > 0 else float("nan")
        delivered = res.series("delivered_bytes", list(tcp["name"])) if windows else pd.DataFrame()
        for k, (a, b) in enumerate(windows):
            if delivered.empty:
                break
            # a sample counts what arrived in the interval ending at its time
            inside = delivered[(delivered.index > a + 1e-9) & (delivered.index <= b + 1e-9)]
            kbps = pd.Series([float(inside[n].sum()) * 8 / (b - a) / 1e3 if n in inside else float("nan")
                              for n in tcp["name"]], index=tcp.index)
            summarise(kbps, f"_window.{k}")
    for _, row in res.queues.iterrows():
        tag = _queue_tag(str(row["queue"]))
        out[f"queue_arrivals.{tag}"] = _f(row["arrivals"])
        out[f"queue_drops.{tag}"] = _f(row["early_drops"]) + _f(row["overflow_drops"])
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

#: Bytes of trace text `read_trace` hands pyarrow's CSV reader at a time (see there).
TRACE_BLOCK_BYTES = 16 << 20


def _trace_types() -> Dict[str, Any]:
    """Column types of an ns-2 trace line. The words (op, type, flags and the
    ``node.port`` agent addresses) take few distinct values, so they are dictionary
    encoded (pandas categoricals); the numbers are parsed as numbers."""
    import pyarrow as pa

    word = pa.dictionary(pa.int32(), pa.string())
    return {"op": word, "time": pa.float64(), "from": pa.int64(), "to": pa.int64(), "type": word,
            "size": pa.int64(), "flags": word, "fid": pa.int64(), "src": word, "dst": word,
            "seq": pa.int64(), "uid": pa.int64()}


def _node_of(addresses: Any, pool: Any) -> Any:
    """The node numbers of a dictionary-encoded column of ``node.port`` addresses: each
    distinct address is split once, and its node number spread to its rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    chunks = []
    for chunk in addresses.chunks:
        words = pc.split_pattern(chunk.dictionary, ".", max_splits=1, memory_pool=pool)
        nodes = pc.cast(pc.list_element(words, 0, memory_pool=pool), pa.int64(), memory_pool=pool)
        chunks.append(pc.take(nodes, chunk.indices, memory_pool=pool))
    return pa.chunked_array(chunks, pa.int64())


def _trace_memory_pool() -> Any:
    """The Arrow memory pool `read_trace` allocates from: jemalloc's where pyarrow has
    it. Reading B1's 10-second trace in a fresh process with pyarrow 26's default pool
    (mimalloc) took 1.0-1.3 s of system time (the kernel handing out fresh pages), with
    jemalloc's 0.25-0.33 s, and 1.5-2.0 s of CPU in all against 0.8-1.2 s (three fresh
    processes each; docs/performance.md, "Traces and the Python layer"). Passed to each
    call, not made the default, so nothing else in the process changes."""
    import pyarrow as pa

    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:  # a pyarrow built without jemalloc
        return pa.default_memory_pool()


#: The trace columns `trace_measures` reads: what to ask `read_trace` for when only the
#: measures are wanted (the columns left out are not parsed at all).
TRACE_MEASURES_COLUMNS = ["op", "time", "from", "to", "type", "size", "src", "dst", "uid"]


def read_trace(path: Path, columns: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """An ns-2 trace file (docs/traces.md) as a DataFrame, with the source and
    destination agents' nodes as integer columns ``src_node``, ``dst_node`` (when
    ``src`` and ``dst`` are read).

    `columns`: the names of `TRACE_COLUMNS` to read, in file order whatever their order
    here; all of them by default. Leaving out the columns a caller does not use saves
    parsing them: `TRACE_MEASURES_COLUMNS` (9 of the 12) read B1's 10-second trace with
    about 15 % less CPU time than all 12 (docs/performance.md, "Traces and the Python
    layer").

    Read with pyarrow's CSV reader and explicit column types: op, type, flags, src and
    dst come back as categoricals, the other columns as int64 (time float64). A million
    lines take about 0.2 s (pandas' ``read_csv`` and a string split per row: 2 s).

    The file is read in blocks of `TRACE_BLOCK_BYTES`: each block becomes a chunk with
    dictionaries of its own, which pandas must merge into one categorical per column;
    with Arrow's default 1 MiB blocks that merge took 0.42 s of CPU for B1's 10-second
    trace (98 chunks, 1.9 million lines), with 16 MiB blocks 0.07 s (7 chunks)
    (docs/performance.md, "Traces and the Python layer").

    A file of packet lines only, as tcpsim writes them, is first read by the extension
    (`tcpsim._core.read_ns2_trace`, one pass in Rust), into the same frame; anything
    else (a ``v`` line of a link going down, an empty file, text another program wrote)
    goes to pyarrow's reader as above, which also reports what is wrong. B1's 10-second
    trace: docs/performance.md, "Traces on B1, third step"."""
    wanted = TRACE_COLUMNS if columns is None else list(columns)
    unknown = sorted(set(wanted) - set(TRACE_COLUMNS))
    if unknown:
        raise ValueError(f"read_trace: no trace column {', '.join(map(repr, unknown))}; "
                         f"the columns are {', '.join(TRACE_COLUMNS)}")
    wanted = [c for c in TRACE_COLUMNS if c in wanted]
    from .._core import read_ns2_trace

    parsed = read_ns2_trace(Path(path))
    if parsed is not None:
        return _trace_frame(parsed, wanted)
    return _read_trace_with_pyarrow(path, wanted)


def _trace_frame(parsed: Dict[str, Any], wanted: List[str]) -> pd.DataFrame:
    """The frame of `read_trace` from the columns `tcpsim._core.read_ns2_trace` read:
    numbers as little-endian bytes, words as int32 codes and their values in order of
    first appearance (the categories pyarrow's dictionaries give)."""
    types = _trace_types()
    frame: Dict[str, Any] = {}
    for name in wanted:
        column = parsed[name]
        if isinstance(column, tuple):
            codes, values = column
            frame[name] = pd.Categorical.from_codes(np.frombuffer(codes, dtype="<i4"), categories=values)
        else:
            frame[name] = np.frombuffer(column, dtype="<f8" if str(types[name]) == "double" else "<i8")
    for address, node in (("src", "src_node"), ("dst", "dst_node")):
        if address in frame:
            values = frame[address]
            nodes = np.array([int(v.split(".", 1)[0]) for v in values.categories], dtype=np.int64)
            frame[node] = nodes[values.codes] if len(nodes) else np.zeros(0, dtype=np.int64)
    return pd.DataFrame(frame)


def _read_trace_with_pyarrow(path: Path, wanted: List[str]) -> pd.DataFrame:
    """`read_trace` by pyarrow's CSV reader, for any text (see there)."""
    import pyarrow as pa
    import pyarrow.csv as pv

    types = {c: t for c, t in _trace_types().items() if c in wanted}
    pool = _trace_memory_pool()
    try:
        table = pv.read_csv(
            path,
            read_options=pv.ReadOptions(column_names=TRACE_COLUMNS, block_size=TRACE_BLOCK_BYTES),
            parse_options=pv.ParseOptions(delimiter=" ", quote_char=False),
            # "-" (a dequeue) and the like are words, never missing values
            convert_options=pv.ConvertOptions(column_types=types, null_values=[], strings_can_be_null=False,
                                              include_columns=wanted),
            memory_pool=pool,
        )
    except pa.ArrowInvalid as e:
        if "Empty CSV file" not in str(e):
            raise
        table = pa.schema(list(types.items())).empty_table()
    for address, node in (("src", "src_node"), ("dst", "dst_node")):
        if address in types:
            table = table.append_column(node, _node_of(table[address], pool))
    return table.to_pandas(memory_pool=pool)


def _first_and_last(uid: np.ndarray, t: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per distinct uid (sorted): the earliest and the latest time of its rows."""
    order = np.lexsort((t, uid))
    u, v = uid[order], t[order]
    head = np.flatnonzero(np.r_[True, u[1:] != u[:-1]]) if len(u) else np.zeros(0, dtype=np.intp)
    tail = np.r_[head[1:] - 1, len(u) - 1] if len(u) else head
    return u[head], v[head], v[tail]


def trace_measures(tr: pd.DataFrame, data_type: str = "tcp") -> Dict[str, float]:
    """The document's metrics from a trace, computed as the usual ns-2 awk/perl scripts
    compute them (the document names `throughput_tcp.pl` and `scriptiplote.awk`):

    - sent: ``+`` lines of `data_type` at the packet's source node (``$3 == src``),
      i.e. every packet the agent handed to its first link;
    - received: ``r`` lines of `data_type` at the destination node (``$4 == dst``);
    - lost: ``d`` lines of `data_type`; drop rate = lost / sent;
    - delay: per packet id (uid), the time of its ``r`` at the destination minus the
      time of its ``+`` at the source, averaged over the packets that arrived, in ms;
      with several such lines per uid (a packet sent or received twice), the first
      ``+`` and the last ``r``;
    - throughput: bytes of the received packets × 8 / (last receive time − first send
      time), Mb/s (the size column: 1040 B for a TCP data packet);
    - acks: ``+`` lines of type ``ack`` at the sink's node (ACKs sent by the sinks);
      ack drops: ``d`` lines of type ``ack``.

    `tr` is a `read_trace` frame; the work is done on numpy masks of its columns.
    """
    op, kind = tr["op"], tr["type"]
    enq = (op == "+").to_numpy(dtype=bool)
    drop = (op == "d").to_numpy(dtype=bool)
    at_src = (tr["from"] == tr["src_node"]).to_numpy(dtype=bool)
    data = (kind == data_type).to_numpy(dtype=bool)
    ack = (kind == "ack").to_numpy(dtype=bool)
    sent = data & enq & at_src
    recv = data & (op == "r").to_numpy(dtype=bool) & (tr["to"] == tr["dst_node"]).to_numpy(dtype=bool)
    n_sent, n_recv = int(sent.sum()), int(recv.sum())
    out: Dict[str, float] = {
        "trace_sent": float(n_sent),
        "trace_received": float(n_recv),
        "trace_lost": float((data & drop).sum()),
    }
    out["trace_drop_rate"] = out["trace_lost"] / out["trace_sent"] if n_sent else float("nan")
    time = tr["time"].to_numpy(dtype=float)
    uid = tr["uid"].to_numpy(dtype=np.int64)
    s_uid, start, _ = _first_and_last(uid[sent], time[sent])
    r_uid, _, end = _first_and_last(uid[recv], time[recv])
    _, i_s, i_r = np.intersect1d(s_uid, r_uid, assume_unique=True, return_indices=True)
    delay = end[i_r] - start[i_s]  # in uid order
    out["trace_delay_ms"] = float(delay.mean() * 1e3) if len(delay) else float("nan")
    out["trace_delay_min_ms"] = float(delay.min() * 1e3) if len(delay) else float("nan")
    received_bytes = float(tr["size"].to_numpy()[recv].sum())
    span = float(time[recv].max() - time[sent].min()) if n_recv and n_sent else float("nan")
    out["trace_throughput_mbps"] = received_bytes * 8 / span / 1e6 if span > 0 else float("nan")
    out["trace_received_bytes"] = received_bytes
    out["trace_acks"] = float((ack & enq & at_src).sum())
    out["trace_ack_drops"] = float((ack & drop).sum())
    out["trace_drops_all"] = float(drop.sum())
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



#: A cwnd sample below this fraction of the highest window since the last reduction
#: ends a CUBIC epoch. CUBIC cuts to beta = 0.7 of the window; PRR reaches that over a
#: round trip, so a sample may fall between, and 0.8 lies above 0.7.
CUBIC_CUT = 0.8


def fit_cubic(tau: np.ndarray, w: np.ndarray, k_max: float, step: float = 0.01) -> Tuple[float, float, float]:
    """Least-squares fit of W(tau) = a (tau - K)^3 + W_max to the samples (tau, w):
    linear in (a, W_max) for each K, so K is searched on a grid of `step` seconds over
    [0, `k_max`]. Returns (K, W_max, a)."""
    best = (float("inf"), 0.0, 0.0, 0.0)
    for k in np.arange(0.0, k_max + step / 2, step):
        x = np.column_stack([(tau - k) ** 3, np.ones_like(tau)])
        coef, *_ = np.linalg.lstsq(x, w, rcond=None)
        err = float(np.sum((x @ coef - w) ** 2))
        if err < best[0]:
            best = (err, float(k), float(coef[1]), float(coef[0]))
    return best[1], best[2], best[3]


def cubic_epoch_measures(res: Results, flow: str, beta: float, c: float) -> Dict[str, float]:
    """CUBIC's window curve after each loss (RFC 9438 Sect. 4.2, 4.4-4.5), from the
    ``cwnd`` series of `flow`, over the reductions from the scenario's measure_from on.

    A reduction is found at the highest sample before a fall below `CUBIC_CUT` times it
    (the loss is there; the cut shows up to a round trip later). The epoch's samples, from
    its smallest window (the cut done) to the next reduction, are fitted with eq. 1,
    W(t) = a (t - K)^3 + W_max, t from the reduction (`fit_cubic`): the fitted K is when
    the window regains its plateau W_max, where the curve turns from concave to convex.
    The first crossing of W_max is no measure of it: the curve is flat there (0.4 packets
    below W_max a second before K), so a sample a packet low or high moves it by a second.
    An epoch counts when its samples go on for at least a quarter of the climb (from its
    smallest window to the fitted K) beyond K, so that the window passed its plateau
    before the next reduction, and the cut went to more than half the window (a
    timeout's window of one is no CUBIC epoch, Sect. 4.8). Per epoch: the fitted K over
    eq. 2's K = cbrt(W_max (1 - beta) / C) for the fitted W_max (``cubic_regain_k``; and
    ``cubic_regain_s``, ``cubic_k_s``, ``cubic_w_max`` and the fitted ``cubic_c``), and
    the window's growth (packets/s) over the first quarter of the climb from the smallest
    window to the fitted K (``cubic_rate_first``), over its last quarter
    (``cubic_rate_before``: concave, Sect. 4.4, when below the first) and over the last
    quarter of the span from K to the next reduction (``cubic_rate_after``: convex,
    Sect. 4.5, when above the growth before K; a window growing linearly, as in the
    Reno-friendly region, gives all three alike). Each is the mean over the epochs; ``cubic_epochs`` counts them (a run
    without one gives only the count, 0)."""
    cw = res.series("cwnd", [flow])
    if cw.empty:
        return {"cubic_epochs": 0.0}
    s = cw.iloc[:, 0].dropna()
    return cubic_epochs(s.index.to_numpy(dtype=float), s.to_numpy(dtype=float),
                        float(res.summary.get("measure_from_s") or 0.0), beta, c)


def cubic_epochs(t: np.ndarray, w: np.ndarray, from_s: float, beta: float, c: float) -> Dict[str, float]:
    """`cubic_epoch_measures` of a cwnd series: sample times `t` (s) and windows `w`
    (packets), reductions from `from_s` on."""
    peaks: List[int] = []                     # the sample at each reduction
    peak = 0
    i = 1
    while i < len(w):
        if w[i] > w[peak]:
            peak = i
        elif w[i] < CUBIC_CUT * w[peak]:
            peaks.append(peak)
            # the fall goes on over the next samples (PRR): the next peak is searched
            # from its bottom
            while i + 1 < len(w) and w[i + 1] <= w[i]:
                i += 1
            peak = i
        i += 1

    def rate(a: float, b: float) -> float:
        """Growth of the window between times a and b (interpolated), packets/s."""
        return float((np.interp(b, t, w) - np.interp(a, t, w)) / (b - a))

    epochs: List[Dict[str, float]] = []
    for n, p in enumerate(peaks[:-1]):
        nxt = peaks[n + 1]
        if t[p] < from_s - 1e-9 or nxt - p < 4:
            continue
        bottom = p + 1 + int(np.argmin(w[p + 1:nxt]))
        if w[bottom] < 0.5 * w[p]:            # a timeout
            continue
        tau = t[bottom:nxt + 1] - t[p]
        k_fit, w_max, a = fit_cubic(tau, w[bottom:nxt + 1], k_max=float(tau[-1]))
        climb = k_fit - tau[0]
        # the window passed its plateau: the samples go on for at least a quarter of the
        # climb beyond the fitted K (an epoch cut short on the concave approach, as when
        # the loss comes just below W_max, does not determine K)
        if climb <= 0 or tau[-1] - k_fit < climb / 4 or w_max <= 0:
            continue
        k = (w_max * (1 - beta) / c) ** (1 / 3)
        t_k = t[p] + k_fit
        epochs.append({"cubic_regain_s": k_fit, "cubic_k_s": k, "cubic_regain_k": k_fit / k,
                       "cubic_w_max": w_max, "cubic_c": a,
                       "cubic_rate_first": rate(t[bottom], t[bottom] + climb / 4),
                       "cubic_rate_before": rate(t_k - climb / 4, t_k),
                       "cubic_rate_after": rate(t_k + 0.75 * (t[nxt] - t_k), t[nxt])})
    out: Dict[str, float] = {"cubic_epochs": float(len(epochs))}
    for key in ("cubic_regain_s", "cubic_k_s", "cubic_regain_k", "cubic_w_max", "cubic_c",
                "cubic_rate_first", "cubic_rate_before", "cubic_rate_after"):
        if epochs:
            out[key] = float(np.mean([e[key] for e in epochs]))
    return out
