"""Rates of flows: throughput and goodput from packet counts (002) and from the
flows table, a run's aggregate goodput, goodput per group of flows (002),
retransmission ratios and fractions, and throughput over time from the ``delivered_bytes`` series (003), whole or within windows.
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np
import pandas as pd

from ._inputs import _check_counts, _check_positive, _ratio, _table, _window_s


def throughput_bps(packets_sent: float, packets_dropped: float, packet_size_bytes: float, duration_s: float) -> float:
    """Throughput including retransmissions, from packet counts.

    Definition (002 §2.3.3): "the data rate at which a source can send packets (including
    retransmitted packets) to the sink ... a source sends out m packets in time t, and n
    packets (n < m) are dropped ... the resulting throughput is (m−n)·packet-size/t"::

        throughput = (m − n) · packet_size · 8 / t      [bit/s]

    with ``packet_size`` in bytes and ``t`` in seconds. 004 §I ("Performance metrics")
    defines throughput as the data carried successfully from one node to another in a
    period of time.

    >>> throughput_bps(1000, 10, 1000, 10.0)
    792000.0
    """
    _check_counts(packets_sent, packets_dropped, "throughput_bps", "packets_dropped")
    _check_positive(packet_size_bytes, "throughput_bps: packet_size_bytes", allow_zero=True)
    _check_positive(duration_s, "throughput_bps: duration_s")
    return float((packets_sent - packets_dropped) * packet_size_bytes * 8.0 / duration_s)


def goodput_bps(packets_delivered: float, packets_retransmitted: float, packet_size_bytes: float, duration_s: float) -> float:
    """Goodput (retransmissions excluded), from packet counts.

    Definition (002 §2.3.4): "the effective data rate as observed by the user ... m data
    packets are transmitted from a source to a sink, and n packets (n < m) are
    retransmitted packets, then the resulting goodput is (m−n)·packet-size/t"::

        goodput = (m − n) · packet_size · 8 / t         [bit/s]

    ``packets_delivered`` = m, ``packets_retransmitted`` = n (the retransmitted copies
    among the m). 002 uses throughput − goodput as its count of retransmitted packets.

    >>> goodput_bps(990, 10, 1000, 10.0)
    784000.0
    """
    _check_counts(packets_delivered, packets_retransmitted, "goodput_bps", "packets_retransmitted")
    _check_positive(packet_size_bytes, "goodput_bps: packet_size_bytes", allow_zero=True)
    _check_positive(duration_s, "goodput_bps: duration_s")
    return float((packets_delivered - packets_retransmitted) * packet_size_bytes * 8.0 / duration_s)


def throughput(flows: Any, retransmissions: bool = True) -> pd.Series:
    """Per-flow throughput (bit/s) from a ``flows`` table, with or without retransmissions.

    * ``retransmissions=True`` — column ``throughput_bps``: every data packet that reached
      the receiver, retransmissions and duplicates included, counted at its size on the
      wire (payload + header), over the flow's active time ``[start_s, stop_s]``. This is
      002 §2.3.3's throughput, (m − n)·packet_size/t with m sent and n dropped.
    * ``retransmissions=False`` — column ``goodput_bps`` (see `goodput`).

    Returns a Series indexed by flow name.

    >>> flows = pd.DataFrame({"name": ["f"], "throughput_bps": [1.04e6], "goodput_bps": [0.9e6]})
    >>> throughput(flows).to_dict(), throughput(flows, retransmissions=False).to_dict()
    ({'f': 1040000.0}, {'f': 900000.0})
    """
    col = "throughput_bps" if retransmissions else "goodput_bps"
    df = _table(flows, "flows", ["name", col])
    return pd.Series(df[col].to_numpy(dtype=float), index=df["name"].to_numpy(), name=col)


def goodput(flows: Any) -> pd.Series:
    """Per-flow goodput (bit/s): payload delivered *in order, once* (retransmitted copies
    and duplicates excluded), over the flow's active time ``[start_s, stop_s]`` within
    the measurement window (see `aggregate_goodput` for all flows together).

    Definition: 002 §2.3.4 (see `goodput_bps`). Column ``goodput_bps`` of the ``flows``
    table (``goodput_bytes · 8 / (stop_s − start_s)``); returns a Series by flow name.

    >>> flows = pd.DataFrame({"name": ["f"], "goodput_bps": [0.9e6]})
    >>> goodput(flows).to_dict()
    {'f': 900000.0}
    """
    return throughput(flows, retransmissions=False)


def aggregate_goodput(results: Any) -> float:
    """Aggregate goodput of a run (bit/s): the payload all flows delivered in order during
    the measurement window (``[simulation] measure_from`` to the end), divided by the
    window. Unlike the sum of per-flow `goodput` (each over its own active time) it never
    exceeds what the links carried, also when flows take turns.

    Takes a `tcpsim.Results` (its summary's ``aggregate_goodput_bps``, or the same sum
    from its flows table for results saved before the core reported it).
    """
    summary = getattr(results, "summary", None)
    if summary is None:
        raise TypeError(f"aggregate_goodput: expected tcpsim.Results, not {type(results).__name__}")
    if summary.get("aggregate_goodput_bps") is not None:
        return float(summary["aggregate_goodput_bps"])
    window = _window_s(summary)
    if not window:
        raise ValueError("aggregate_goodput: the results' summary has no duration_s")
    return float(results.flows["goodput_bytes"].astype(float).sum() * 8.0 / window)


def retransmission_ratio(flows: Any) -> pd.Series:
    """Fraction of each flow's transmissions that were retransmissions:
    ``retransmits / packets_sent`` (NaN where nothing was sent).

    002 §2.3.3–2.3.4 measures retransmissions as throughput − goodput; tcpsim counts them
    exactly, so this gives the same information without the header-size difference
    between ``throughput_bps`` (wire bytes) and ``goodput_bps`` (payload bytes).

    >>> flows = pd.DataFrame({"name": ["f"], "packets_sent": [200], "retransmits": [5]})
    >>> retransmission_ratio(flows).to_dict()
    {'f': 0.025}
    """
    df = _table(flows, "flows", ["name", "packets_sent", "retransmits"])
    r = _ratio(df["retransmits"], df["packets_sent"])
    return pd.Series(r.to_numpy(), index=df["name"].to_numpy(), name="retransmission_ratio")


def retransmission_fraction(packets: float, retransmitted: float) -> float:
    """The share of retransmitted packets among the data packets: 002's
    (throughput − goodput) / throughput.

    Definition (002 §2.3.3–2.3.4): throughput counts m packets (retransmissions
    included), goodput (m − n) of them, "n packets (n < m) are retransmitted packets"; so
    "the difference between the throughput and goodput is the number of retransmit
    packets" and, over the throughput::

        fraction = n / m = retransmitted / packets

    Counted in packets, so the header, which throughput's wire bytes carry and goodput's
    payload does not, does not enter. The thesis counts them at the sink; a simulator
    counts them exactly at the sender (``retransmits`` and ``packets_sent`` of the flows
    table, ns-2's ``nrexmitpack_`` and ``ndatapack_``), which differs only by the
    retransmissions dropped again.

    Raises `ValueError` when there are no packets, a count is negative or not finite, or
    more were retransmitted than sent.

    Example — 1000 packets, 20 of them retransmissions:

    >>> retransmission_fraction(1000, 20)
    0.02
    """
    if not (math.isfinite(packets) and math.isfinite(retransmitted)) or min(packets, retransmitted) < 0:
        raise ValueError("retransmission_fraction: counts must be finite and >= 0")
    if packets == 0:
        raise ValueError("retransmission_fraction: no packets; the fraction is undefined")
    if retransmitted > packets:
        raise ValueError(f"retransmission_fraction: retransmitted ({retransmitted}) exceeds packets ({packets})")
    return float(retransmitted / packets)


def group_goodput(flows: Any, by: str = "group") -> pd.Series:
    """Goodput (bit/s) of each group of flows: the sum of its flows' ``goodput_bps``.

    002 §2.3.7.1 computes Jain's index over *subnets*, each subnet's allocation "the
    total goodput of subnet i" over 20–100 s (``jain_index(group_goodput(flows))``, n =
    the number of subnets). ``by`` names the flows table's column that groups them (the
    scenario's flow key ``group``); flows with an empty group are left out. Returns a
    Series indexed by group name, in order of first appearance.

    Raises `ValueError` when no flow has a group.

    >>> flows = pd.DataFrame({"name": ["a", "b", "c"], "group": ["s0", "s0", "s1"],
    ...                       "goodput_bps": [1e6, 2e6, 4e6]})
    >>> group_goodput(flows).to_dict()
    {'s0': 3000000.0, 's1': 4000000.0}
    """
    df = _table(flows, "flows", ["name", by, "goodput_bps"])
    named = df[df[by].fillna("").astype(str) != ""]
    if named.empty:
        raise ValueError(f"group_goodput: no flow has a {by!r}; give the flows one (scenario key 'group')")
    total = named.groupby(by, sort=False)["goodput_bps"].sum().astype(float)
    total.index = total.index.astype(str)
    total.index.name = by
    return total.rename("goodput_bps")


def throughput_series(timeseries: Any, interval: Optional[float] = None) -> pd.DataFrame:
    """Per-flow throughput in each sampling interval (bit/s), from the time series.

    Each ``delivered_bytes`` sample at time ``t`` is the payload delivered in order during
    ``(t − I, t]``; its throughput is ``8 · delivered_bytes / I``. This is 003 §4.2's
    "allotted throughput ``throughput_i(t)``" (sampled every 0.5 s there). The sample at
    ``t = 0`` closes an empty interval and is left out.

    ``interval`` (seconds): the monitor interval ``I``; by default inferred from the
    spacing of the sample times (`ValueError` if they are not evenly spaced).

    Flow groups (``[monitor] groups``) have ``delivered_bytes`` series too: given
    `tcpsim.Results`, their columns are left out (the flows table names the groups); a
    bare time-series DataFrame is taken as it is.

    Returns a wide DataFrame: index ``time_s`` (end of each interval), one column per flow
    (in order of first appearance), values in bit/s.

    >>> ts = pd.DataFrame({"time_s": [0.0, 0.5, 1.0], "entity": ["f"] * 3,
    ...                    "metric": ["delivered_bytes"] * 3, "value": [0.0, 62500.0, 31250.0]})
    >>> throughput_series(ts)["f"].tolist()
    [1000000.0, 500000.0]
    """
    ts = _table(timeseries, "timeseries", ["time_s", "entity", "metric", "value"])
    sel = ts[ts["metric"] == "delivered_bytes"]
    groups = getattr(timeseries, "groups", None)
    if groups:
        sel = sel[~sel["entity"].isin(groups)]
    if sel.empty:
        raise ValueError(
            "throughput_series: the time series has no delivered_bytes samples "
            "(set [monitor] interval and monitor the flows)"
        )
    times = np.unique(sel["time_s"].to_numpy(dtype=float))
    if interval is None:
        if times.size < 2:
            raise ValueError("throughput_series: one sample time only; pass interval=")
        steps = np.diff(times)
        interval = float(np.median(steps))
        if np.any(np.abs(steps - interval) > 1e-6 * interval):
            raise ValueError("throughput_series: sample times are not evenly spaced; pass interval=")
    elif not (math.isfinite(interval) and interval > 0):
        raise ValueError(f"throughput_series: interval must be > 0, got {interval}")
    order = pd.unique(sel["entity"])
    wide = sel.pivot_table(index="time_s", columns="entity", values="value", aggfunc="sum")
    wide = wide.reindex(columns=order)
    wide.columns.name = None
    wide = wide[wide.index > interval / 2]
    if wide.empty:
        raise ValueError("throughput_series: no sample after t = 0")
    out = wide.astype(float) * 8.0 / interval
    out.attrs["interval_s"] = interval
    return out


def _whole_intervals_within(ends: np.ndarray, step: float, start: Optional[float],
                            end: Optional[float]) -> np.ndarray:
    """Which intervals (ending at `ends`, each `step` long) lie wholly in [start, end]
    (either bound None: open), with a tolerance for the float times of the series."""
    keep = np.ones(ends.size, dtype=bool)
    eps = 1e-9 * max(1.0, step)
    if start is not None:
        keep &= ends - step >= start - eps
    if end is not None:
        keep &= ends <= end + eps
    return keep


def window_throughput(
    timeseries: Any,
    start: Optional[float] = None,
    end: Optional[float] = None,
    interval: Optional[float] = None,
) -> pd.Series:
    """Mean per-flow throughput (bit/s) over the time window ``[start, end]``, from the
    time series' in-order delivered payload (i.e. goodput).

    ``= 8 · Σ delivered_bytes / (k · I)`` over the ``k`` sampling intervals ``(t − I, t]``
    lying entirely inside ``[start, end]``; the window is thus rounded inward to sample
    boundaries. This is the windowed throughput the documents average: 000 over 70–100 s
    (Table 4.3) and 100–200 s (Table 4.4); 001 over 100 s / 50 s windows (Tables 2–3);
    002 over 20–100 s; 003 "over the connection time".

    Raises `ValueError` if no whole interval lies in the window.

    >>> ts = pd.DataFrame({"time_s": [0.0, 0.5, 1.0, 1.5], "entity": ["f"] * 4,
    ...                    "metric": ["delivered_bytes"] * 4, "value": [0.0, 62500.0, 31250.0, 0.0]})
    >>> window_throughput(ts, start=0.0, end=1.0).to_dict()
    {'f': 750000.0}
    """
    wide = throughput_series(timeseries, interval)
    step = wide.attrs["interval_s"]
    sel = wide[_whole_intervals_within(np.asarray(wide.index, dtype=float), step, start, end)]
    if sel.empty:
        raise ValueError(
            f"window_throughput: no whole sampling interval of {step} s lies in [{start}, {end}]"
        )
    out = sel.mean(axis=0)
    out.name = "throughput_bps"
    return out


#: Document 003's sampling of "allotted throughput": every 0.5 s (3 to 6 RTTs there)...
SAMPLE_INTERVAL_S = 0.5
#: ... with the samples from t = 15 s on (003 §4.2), past every flow's slow start.
MEASURE_FROM_S = 15.0


def sampled_throughput(
    timeseries: Any,
    sample_s: float = SAMPLE_INTERVAL_S,
    start_s: Optional[float] = MEASURE_FROM_S,
    end_s: Optional[float] = None,
) -> pd.DataFrame:
    """Per-flow throughput (bit/s) in sample intervals of ``sample_s`` seconds, from
    ``start_s`` on: 003 §4.2's "allotted throughput ``throughput_i(t)``", sampled every
    0.5 s from t = 15 s (the defaults, `SAMPLE_INTERVAL_S` and `MEASURE_FROM_S`).

    Built from `throughput_series` (the monitor's intervals ``I``): ``sample_s`` must be
    a whole multiple of ``I`` (a monitor of ``"100ms"`` or ``"500ms"`` for 0.5 s samples),
    and each sample ``(t − sample_s, t]`` is the mean of the ``sample_s / I`` monitor
    intervals in it. Samples are aligned to multiples of ``sample_s`` from 0; only whole
    samples are kept, with ``start_s <= t − sample_s`` and ``t <= end_s`` (``None``: open).

    Returns a wide DataFrame like `throughput_series` (index = end of each sample, one
    column per flow, ``attrs["interval_s"] = sample_s``), the input of
    `short_term_fairness` and `mean_coefficient_of_variation`. Raises `ValueError` if
    ``sample_s`` is not a multiple of the monitor interval or no whole sample remains.

    >>> ts = pd.DataFrame({"time_s": [0.0, 0.25, 0.5, 0.75, 1.0], "entity": ["f"] * 5,
    ...                    "metric": ["delivered_bytes"] * 5,
    ...                    "value": [0.0, 31250.0, 0.0, 62500.0, 62500.0]})
    >>> sampled_throughput(ts, sample_s=0.5, start_s=0.0)["f"].tolist()   # (0, 0.5], (0.5, 1]
    [500000.0, 2000000.0]
    """
    _check_positive(sample_s, "sampled_throughput: sample_s")
    fine = throughput_series(timeseries)
    step = fine.attrs["interval_s"]
    per_sample = sample_s / step
    if abs(per_sample - round(per_sample)) > 1e-6 or round(per_sample) < 1:
        raise ValueError(
            f"sampled_throughput: sample_s = {sample_s} s is not a whole multiple of the monitor "
            f"interval {step} s; set [monitor] interval to {sample_s} s or a divisor of it"
        )
    per_sample = int(round(per_sample))
    t = np.asarray(fine.index, dtype=float)
    # the sample (t_k − sample_s, t_k] that holds each monitor interval ending at t
    sample_end = np.ceil(np.round(t / sample_s, 9)) * sample_s
    grouped = fine.groupby(sample_end)
    out = grouped.mean()[grouped.size() == per_sample]
    out = out[_whole_intervals_within(np.asarray(out.index, dtype=float), sample_s, start_s, end_s)]
    if out.empty:
        raise ValueError(
            f"sampled_throughput: no whole {sample_s} s sample between {start_s} s and "
            f"{end_s if end_s is not None else 'the end'}"
        )
    out.index.name = "time_s"
    out.attrs["interval_s"] = float(sample_s)
    return out
