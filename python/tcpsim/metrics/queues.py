"""Losses and delays at queues: packet loss rates (002) of flows, early, overflow
and mark rates of queues, queueing delay from queue length or measured sojourn
times, and the statistics of a sampled queue length (002).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Union

import numpy as np
import pandas as pd

from ._inputs import ArrayLike, _check_positive, _ratio, _table


def packet_loss_rate(dropped: float, total: float, percent: bool = False) -> float:
    """Packet loss (drop) rate: dropped packets over all packets.

    Definition (002 §2.3.5: "Packets Loss Rate = Number of Drop Packets / Total Number of
    Packets · 100", counting both buffer-overflow and AQM drops; 004 §II, on Table 2: the number
    of packets lost divided by the number sent)::

        loss = dropped / total

    A fraction, or percent with ``percent=True`` (002's form).

    Raises `ValueError` if ``total`` is zero, a count is negative, or dropped > total.

    Example — 004 Table 2, Vegas over DropTail, CBR 0.5 Mb: 99035 sent, 200 lost:

    >>> round(packet_loss_rate(200, 99035, percent=True), 3)
    0.202
    """
    if not (math.isfinite(dropped) and math.isfinite(total)) or dropped < 0 or total < 0:
        raise ValueError("packet_loss_rate: counts must be finite and >= 0")
    if total == 0:
        raise ValueError("packet_loss_rate: total is zero; the rate is undefined")
    if dropped > total:
        raise ValueError(f"packet_loss_rate: dropped ({dropped}) exceeds total ({total})")
    r = dropped / total
    return float(100.0 * r if percent else r)


def loss_rate(flows: Any, aggregate: bool = False) -> Union[pd.Series, float]:
    """Loss rate of each flow's data packets: ``drops / packets_sent`` (`packet_loss_rate`).

    ``drops`` counts the flow's data packets dropped anywhere in the network (early and
    overflow); ``packets_sent`` every data packet the source transmitted, retransmissions
    included (004 §II: lost over sent). Returns a Series by flow
    name (NaN for a flow that sent nothing), or with ``aggregate=True`` the rate over all
    flows, ``Σ drops / Σ packets_sent``.

    >>> flows = pd.DataFrame({"name": ["a", "b"], "packets_sent": [1000, 500], "drops": [10, 20]})
    >>> loss_rate(flows).tolist(), loss_rate(flows, aggregate=True)
    ([0.01, 0.04], 0.02)
    """
    df = _table(flows, "flows", ["name", "packets_sent", "drops"])
    if aggregate:
        return packet_loss_rate(float(df["drops"].sum()), float(df["packets_sent"].sum()))
    r = _ratio(df["drops"], df["packets_sent"])
    return pd.Series(r.to_numpy(), index=df["name"].to_numpy(), name="loss_rate")


def drop_rates(queues: Any) -> pd.DataFrame:
    """Drop rates of each queue, early (AQM) and overflow (buffer full) separately.

    For each queue, over the packets offered to it (``arrivals``, dropped ones
    included)::

        early_drop_rate    = early_drops / arrivals
        overflow_drop_rate = overflow_drops / arrivals
        drop_rate          = (early_drops + overflow_drops) / arrivals
        mark_rate          = marks / arrivals           (ECN marks instead of early drops)

    ``drop_rate`` is 002 §2.3.5's packet loss rate at a router ("dropped due to router
    buffer overflow and for congestion notifications (in AQM techniques)"), split as 002
    asks its measurements to be (overflow vs early). 000 Tables 3.1–4.4 report the same
    counts as "Arrival" and "Drop" at the bottleneck router. Fractions; NaN for a queue
    with no arrivals. Returns a DataFrame indexed by queue name.

    >>> q = pd.DataFrame({"queue": ["r1->r2"], "arrivals": [1000], "early_drops": [30],
    ...                   "overflow_drops": [10], "marks": [0]})
    >>> drop_rates(q).loc["r1->r2"].tolist()
    [0.03, 0.01, 0.04, 0.0]
    """
    df = _table(queues, "queues", ["queue", "arrivals", "early_drops", "overflow_drops"])
    marks = df["marks"] if "marks" in df.columns else pd.Series(0, index=df.index)
    out = pd.DataFrame(
        {
            "early_drop_rate": _ratio(df["early_drops"], df["arrivals"]).to_numpy(),
            "overflow_drop_rate": _ratio(df["overflow_drops"], df["arrivals"]).to_numpy(),
            "drop_rate": _ratio(df["early_drops"] + df["overflow_drops"], df["arrivals"]).to_numpy(),
            "mark_rate": _ratio(marks, df["arrivals"]).to_numpy(),
        },
        index=pd.Index(df["queue"].to_numpy(), name="queue"),
    )
    return out


def _queue_lengths(values, what: str) -> np.ndarray:
    """`values` as a float array of queue lengths, refused (naming `what`) when empty,
    negative or not finite."""
    q = np.asarray(values, dtype=float)
    if q.size == 0:
        raise ValueError(f"{what}: empty input")
    if not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError(f"{what}: queue lengths must be finite and >= 0")
    return q


def queueing_delay(queue_length_pkts: Union[float, ArrayLike], packet_size_bytes: float, rate_bps: float) -> Union[float, np.ndarray]:
    """Queueing delay implied by a queue length: the time to transmit the packets ahead.

    Definition (003 §2.1 Eq. (5): ``qdelay(t) = Δw(t) / bw``, the Δw packets queued
    drained at the bottleneck rate)::

        qdelay = queue_length · packet_size · 8 / rate      [s]

    Vectorised over ``queue_length_pkts`` (e.g. the ``queue_pkts`` time series).

    >>> queueing_delay(100, 1000, 10e6)
    0.08
    """
    _check_positive(packet_size_bytes, "queueing_delay: packet_size_bytes")
    _check_positive(rate_bps, "queueing_delay: rate_bps")
    q = _queue_lengths(queue_length_pkts, "queueing_delay")
    d = q * packet_size_bytes * 8.0 / rate_bps
    return float(d) if d.ndim == 0 else d


def mean_queueing_delay(queues: Any) -> pd.Series:
    """Mean queueing delay of each queue (seconds), indexed by queue name.

    Definition (002 §2.3.6: "Delay indicates the queue delay", the delay at the
    bottleneck router, excluding propagation): the mean over departed packets of the time
    from arrival at the queue to the start of transmission (``mean_sojourn_s``; the
    transmission time itself is not included). NaN for a queue no packet left.

    >>> q = pd.DataFrame({"queue": ["r1->r2"], "mean_sojourn_s": [0.012]})
    >>> mean_queueing_delay(q).to_dict()
    {'r1->r2': 0.012}
    """
    df = _table(queues, "queues", ["queue", "mean_sojourn_s"])
    return pd.Series(df["mean_sojourn_s"].to_numpy(dtype=float), index=df["queue"].to_numpy(), name="mean_queueing_delay_s")


def queue_statistics(samples: Any, start_s: float = 0.0) -> Dict[str, float]:
    """Mean, standard deviation and maximum of a queue's sampled length from ``start_s``
    on: 002 §2.3's "queue size", sampled every 10 ms, with the first 20 s discarded as
    its fairness measures discard them.

    ``samples`` is a Series of queue lengths (packets) indexed by sample time (s), such
    as the ``queue_pkts`` column of ``Results.series``. The standard deviation is the
    population one (over the samples, ``ddof = 0``): how far the queue swings about its
    mean (002's "oscillates" against "stable"). Returns ``{"mean", "std", "max"}``.

    Raises `ValueError` when no sample lies at or after ``start_s``, or a length is
    negative or not finite.

    >>> s = pd.Series([500.0, 100.0, 300.0, 200.0], index=[10.0, 20.0, 30.0, 40.0])
    >>> queue_statistics(s, start_s=20.0)
    {'mean': 200.0, 'std': 81.64965809277261, 'max': 300.0}
    """
    series = pd.Series(samples)
    t = series.index.to_numpy(dtype=float)
    kept = series.to_numpy(dtype=float)[t >= start_s - 1e-9]
    if kept.size == 0:
        raise ValueError(f"queue_statistics: no sample at or after {start_s:g} s")
    q = _queue_lengths(kept, "queue_statistics")
    return {"mean": float(q.mean()), "std": float(q.std()), "max": float(q.max())}


def normalized_queue_length(queue_length_pkts: Union[float, ArrayLike], buffer_pkts: float) -> Union[float, np.ndarray]:
    """Queue length as a fraction of the buffer: 1 is a full queue.

    Definition (003 §4.2, Figs. 11–16: the bottleneck's queue length "normalized by the
    buffer size", sampled periodically)::

        normalized = queue_length / buffer

    Both in packets. Vectorised over ``queue_length_pkts`` (e.g. the ``queue_pkts`` time
    series, which counts the packets waiting, not the one on the wire). With a limit of
    ``B`` that counts the packet on the wire (the default, as ns-2's DropTail,
    docs/scenario.md ``limit_includes_transmission``), a full queue holds ``B − 1``
    waiting and shows as ``(B − 1) / B``: 0.95 for 20 packets, 0.99 for 100. A value
    above 1 is returned as it is, not clipped: it means ``buffer_pkts`` is not the
    queue's limit.

    Raises `ValueError` if ``buffer_pkts`` is not > 0 or a length is negative or not
    finite.

    >>> normalized_queue_length([0, 25, 100], 100).tolist()
    [0.0, 0.25, 1.0]
    """
    _check_positive(buffer_pkts, "normalized_queue_length: buffer_pkts")
    q = _queue_lengths(queue_length_pkts, "normalized_queue_length")
    n = q / float(buffer_pkts)
    return float(n) if n.ndim == 0 else n


def normalized_queue(results: Any, queue: str, buffer_pkts: float) -> pd.Series:
    """`normalized_queue_length` of one queue's ``queue_pkts`` time series (003 Figs.
    11–16): a Series indexed by sample time.

    ``queue`` is the link direction (``"r1->r2"``); ``buffer_pkts`` its limit in packets
    (003: the bandwidth-delay product). The results' tables do not carry a queue's limit,
    so it is given here, as the scenario set it. Raises `ValueError` if the time series
    has no ``queue_pkts`` samples of ``queue`` (monitor it: ``[monitor] queues``).

    >>> ts = pd.DataFrame({"time_s": [0.5, 1.0], "entity": ["r1->r2"] * 2,
    ...                    "metric": ["queue_pkts"] * 2, "value": [10.0, 50.0]})
    >>> normalized_queue(ts, "r1->r2", 100).tolist()
    [0.1, 0.5]
    """
    ts = _table(results, "timeseries", ["time_s", "entity", "metric", "value"])
    sel = ts[(ts["metric"] == "queue_pkts") & (ts["entity"] == queue)]
    if sel.empty:
        monitored = sorted(ts.loc[ts["metric"] == "queue_pkts", "entity"].unique().tolist())
        raise ValueError(
            f"normalized_queue: no queue_pkts samples of queue {queue!r} in the time series "
            f"(monitored queues: {monitored}); add it to [monitor] queues"
        )
    sel = sel.sort_values("time_s")
    values = normalized_queue_length(sel["value"].to_numpy(dtype=float), buffer_pkts)
    return pd.Series(values, index=pd.Index(sel["time_s"].to_numpy(dtype=float), name="time_s"),
                     name="normalized_queue")
