"""Slicing and grouping results: a time window, and totals per group of flows.

    import tcpsim
    from tcpsim.analysis import window, aggregate

    res = tcpsim.run("examples/dumbbell.toml")
    steady = window(res, 20, 60)              # Results over 20 s .. 60 s
    steady.flows[["name", "goodput_bps"]]     # goodput recomputed over the window
    aggregate(steady, by="recovery")          # Reno vs NewReno: totals, means, Jain

`window` needs the time series, so the scenario must have ``[monitor] interval = ...``
(and sample the flows and queues of interest): per-flow goodput in a window is the sum
of the ``delivered_bytes`` samples, each the payload delivered in order during one
sampling interval ``(t - I, t]``. A window edge that falls inside a sampling interval is
moved inward to the interval boundary, so the window is measured in whole intervals; the
window actually used is in ``summary["window"]``. Choose an interval that divides the
window edges (e.g. ``"100ms"`` or ``"1s"`` for 20 s .. 100 s).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import metrics
from .results import Results

__all__ = ["window", "aggregate", "jain"]

#: Per-flow metric of the time series with the payload delivered in each interval.
DELIVERED = "delivered_bytes"
#: Per-flow metric with all bytes received in each interval (duplicates included), if
#: the core samples it; without it the windowed flows table has no ``throughput_bps``.
RECEIVED = "received_bytes"
#: Per-queue metrics counted per interval (summed over the window).
QUEUE_COUNTS = ("early_drops", "overflow_drops", "marks")

Grouping = Union[str, Sequence[str], Callable[[str], Any], Mapping[str, Any]]


# --------------------------------------------------------------------------- window


def window(
    data: Union[Results, pd.DataFrame],
    start_s: Optional[float] = None,
    end_s: Optional[float] = None,
    *,
    interval_s: Optional[float] = None,
) -> Union[Results, pd.DataFrame]:
    """The part of a run between `start_s` and `end_s` (seconds; ``None`` = open end).

    Given `Results`, returns new `Results` whose

    - ``timeseries`` holds the samples with ``start_s <= time_s <= end_s``;
    - ``flows`` has one row per flow: ``name, type, from, to, recovery, cc, start_s,
      stop_s`` as before, and ``goodput_bytes`` (payload delivered in order in the
      window), ``goodput_bps`` (= 8 · goodput_bytes / window length) and ``active_s``
      (how long the flow was running inside the window). ``throughput_bps`` is
      included only when the core samples ``received_bytes``. Whole-run counters
      (retransmits, timeouts, RTT statistics, ...) are not in the time series and are
      left out rather than reported for the wrong period. A flow the monitor did not
      sample has NaN goodput;
    - ``queues`` has, for each sampled queue, ``mean_length_pkts`` and
      ``max_length_pkts`` over the samples (the instantaneous length at each sample, not
      a time average), the window's ``early_drops``, ``overflow_drops`` and ``marks``, and
      ``utilization`` (mean of the per-interval utilization), where those metrics exist;
    - ``links`` has ``link, rate_bps, delay_s`` and the window's ``utilization``;
    - ``summary`` is the run's summary plus ``"window": {"start_s", "end_s",
      "interval_s", "requested": [start_s, end_s]}``.

    Goodput uses the sampling intervals ``(t - I, t]`` that lie entirely inside the
    window, so the window is rounded inward to interval boundaries; ``summary["window"]``
    says which window was used. Dividing by the window length (not by each flow's active
    time) gives the mean rate over the window, as the reference documents average it;
    the whole-run ``flows`` table of a run divides by the active time instead, so the two
    differ for flows that start or stop inside the window.

    Given a DataFrame, returns it restricted to the window: a long time series (columns
    ``time_s, entity, metric, value``) by its ``time_s`` column, a wide one (as
    `Results.series` returns) by its index.

    `interval_s` is the monitor interval; by default it is inferred from the sample
    times. Raises `ValueError` if the run has no per-flow ``delivered_bytes`` samples (no
    ``[monitor] interval``) or if no whole sampling interval lies in the window.
    """
    _check_bounds(start_s, end_s)
    if isinstance(data, Results):
        return _window_results(data, start_s, end_s, interval_s)
    if isinstance(data, pd.DataFrame):
        if "time_s" in data.columns:
            return data[_between(data["time_s"].to_numpy(dtype=float), start_s, end_s)]
        return data[_between(np.asarray(data.index, dtype=float), start_s, end_s)]
    raise TypeError(f"window: expected Results or a DataFrame, not {type(data).__name__}")


def _check_bounds(start_s: Optional[float], end_s: Optional[float]) -> None:
    for name, v in (("start_s", start_s), ("end_s", end_s)):
        if v is not None and not (isinstance(v, (int, float, np.number)) and math.isfinite(v) and v >= 0):
            raise ValueError(f"window: {name} must be a time in seconds >= 0, got {v!r}")
    if start_s is not None and end_s is not None and end_s <= start_s:
        raise ValueError(f"window: end_s ({end_s}) must be after start_s ({start_s})")


def _eps(scale: float) -> float:
    return 1e-9 * max(1.0, abs(scale))


def _between(t: np.ndarray, start_s: Optional[float], end_s: Optional[float]) -> np.ndarray:
    keep = np.ones(t.shape, dtype=bool)
    if start_s is not None:
        keep &= t >= start_s - _eps(start_s)
    if end_s is not None:
        keep &= t <= end_s + _eps(end_s)
    return keep


def _interval(ts: pd.DataFrame, interval_s: Optional[float]) -> float:
    if interval_s is not None:
        if not (math.isfinite(interval_s) and interval_s > 0):
            raise ValueError(f"window: interval_s must be > 0, got {interval_s}")
        return float(interval_s)
    times = np.unique(ts["time_s"].to_numpy(dtype=float))
    if times.size < 2:
        raise ValueError("window: fewer than two sample times; pass interval_s=")
    steps = np.diff(times)
    step = float(np.median(steps))
    if np.any(np.abs(steps - step) > 1e-6 * step):
        raise ValueError("window: sample times are not evenly spaced; pass interval_s=")
    # Sample times are float seconds of exact picosecond instants: drop the float noise
    # of their differences (0.09999999999999998 -> 0.1).
    return float(f"{step:.12g}")


def _interval_rows(ts: pd.DataFrame, start_s: Optional[float], end_s: Optional[float], step: float) -> np.ndarray:
    """Rows whose sampling interval ``(t - step, t]`` lies inside the window (and t > 0:
    the sample at 0 closes no interval)."""
    t = ts["time_s"].to_numpy(dtype=float)
    keep = t > step / 2
    if start_s is not None:
        keep &= t - step >= start_s - _eps(start_s)
    if end_s is not None:
        keep &= t <= end_s + _eps(end_s)
    return keep


def _window_results(res: Results, start_s, end_s, interval_s) -> Results:
    ts = res.timeseries
    flow_samples = ts[ts["metric"] == DELIVERED]
    if flow_samples.empty:
        raise ValueError(
            "window: the results have no per-flow 'delivered_bytes' time series; give the "
            "scenario a [monitor] interval (e.g. interval = \"100ms\") that samples the flows"
        )
    step = _interval(flow_samples, interval_s)
    inside = ts[_interval_rows(ts, start_s, end_s, step)]
    if inside.empty:
        raise ValueError(
            f"window: no whole sampling interval of {step:g} s lies in [{start_s}, {end_s}]"
        )
    t_used = np.unique(inside["time_s"].to_numpy(dtype=float))
    w_start, w_end = float(t_used[0] - step), float(t_used[-1])
    length = w_end - w_start

    flows = _window_flows(res.flows, inside, w_start, w_end, length)
    queues = _window_queues(res.queues, ts, inside, w_start, w_end)
    links = _window_links(res.links, queues)
    summary = dict(res.summary)
    summary["window"] = {
        "start_s": w_start,
        "end_s": w_end,
        "interval_s": step,
        "requested": [start_s, end_s],
    }
    return Results(
        flows=flows,
        queues=queues,
        links=links,
        timeseries=window(ts, start_s, end_s).reset_index(drop=True),
        summary=summary,
        scenario_text=res.scenario_text,
    )


def _sums(samples: pd.DataFrame, metric: str) -> pd.Series:
    sel = samples[samples["metric"] == metric]
    return sel.groupby("entity", sort=False)["value"].sum()


def _window_flows(flows: pd.DataFrame, inside: pd.DataFrame, w_start: float, w_end: float, length: float) -> pd.DataFrame:
    keep = [c for c in ("name", "type", "from", "to", "group", "recovery", "cc", "start_s", "stop_s") if c in flows.columns]
    out = flows[keep].copy().reset_index(drop=True)
    delivered = _sums(inside, DELIVERED)
    out["goodput_bytes"] = out["name"].map(delivered).astype(float)
    out["goodput_bps"] = out["goodput_bytes"] * 8.0 / length
    received = _sums(inside, RECEIVED)
    # Flow groups' received_bytes series are not the flows'.
    received = received[received.index.isin(out["name"])]
    if not received.empty:
        out["throughput_bps"] = out["name"].map(received).astype(float) * 8.0 / length
    if "start_s" in out.columns and "stop_s" in out.columns:
        begin = np.maximum(out["start_s"].to_numpy(dtype=float), w_start)
        stop = np.minimum(out["stop_s"].to_numpy(dtype=float), w_end)
        out["active_s"] = np.maximum(stop - begin, 0.0)
    return out


def _window_queues(queues: pd.DataFrame, ts: pd.DataFrame, inside: pd.DataFrame, w_start: float, w_end: float) -> pd.DataFrame:
    keep = [c for c in ("queue", "kind") if c in queues.columns]
    out = queues[keep].copy().reset_index(drop=True)
    if "queue" not in out.columns:
        return out
    names = out["queue"]
    # Instantaneous metrics: every sample in the closed window.
    states = window(ts, w_start, w_end)
    length = states[states["metric"] == "queue_pkts"].groupby("entity")["value"]
    if len(length):
        out["mean_length_pkts"] = names.map(length.mean()).astype(float)
        out["max_length_pkts"] = names.map(length.max()).astype(float)
    avg = states[states["metric"] == "red_avg_pkts"].groupby("entity")["value"]
    if len(avg):
        out["mean_red_avg_pkts"] = names.map(avg.mean()).astype(float)
    # Per-interval counts: the intervals inside the window.
    for metric in QUEUE_COUNTS:
        sums = _sums(inside, metric)
        if not sums.empty:
            out[metric] = names.map(sums).astype(float)
    util = inside[inside["metric"] == "utilization"].groupby("entity")["value"]
    if len(util):
        out["utilization"] = names.map(util.mean()).astype(float)
    return out


def _window_links(links: pd.DataFrame, queues: pd.DataFrame) -> pd.DataFrame:
    keep = [c for c in ("link", "rate_bps", "delay_s") if c in links.columns]
    out = links[keep].copy().reset_index(drop=True)
    if "link" in out.columns and "utilization" in queues.columns:
        out["utilization"] = out["link"].map(queues.set_index("queue")["utilization"]).astype(float)
    return out


# --------------------------------------------------------------------------- groups


def jain(values: Iterable[float]) -> float:
    """Jain's fairness index (`tcpsim.metrics.jain_index`) of the finite values (NaN
    ignored), for use inside group aggregations: NaN, not an error, when there are no
    values or all are zero."""
    x = np.asarray(list(values), dtype=float)
    x = x[np.isfinite(x)]
    if x.size == 0 or not np.any(x):
        return float("nan")
    return metrics.jain_index(x)


#: Whole-run counters summed per group when the table has them.
_COUNTERS = (
    "goodput_bytes", "packets_sent", "retransmits", "timeouts", "fast_retransmits",
    "ecn_reductions", "drops",
)


def aggregate(
    flows: Union[Results, pd.DataFrame],
    by: Grouping,
    *,
    value: str = "goodput_bps",
) -> pd.DataFrame:
    """Totals and means of `value` per group of flows.

    `flows` is a flows table (``Results.flows``, or the one of `window(...)`) or
    `Results`. `by` says which group each flow is in:

    - a column name or list of column names: ``"recovery"``, ``"cc"``, ``"from"``,
      ``["recovery", "cc"]``;
    - a callable taking the flow name: ``lambda name: name.rstrip("0123456789")``;
    - a dict from flow name to group: ``{"tcp0": "near", "tcp1": "far"}`` (every flow
      must be in it — filter the table first to leave flows out).

    Returns one row per group (index: the group), with columns

    - ``flows``: number of flows;
    - ``<value>_sum``, ``<value>_mean``, ``<value>_min``, ``<value>_max``;
    - ``share``: the group's fraction of the total of `value` over all groups;
    - ``jain``: Jain's fairness index of `value` among the group's flows;
    - the sums of ``goodput_bytes``, ``packets_sent``, ``retransmits``, ``timeouts``,
      ``fast_retransmits``, ``ecn_reductions``, ``drops`` where the table has them.

    NaN values (flows the monitor did not sample) are left out of sums, means and
    ``jain``, but are counted in ``flows``.
    """
    df = flows.flows if isinstance(flows, Results) else flows
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"aggregate: expected Results or a flows DataFrame, not {type(flows).__name__}")
    if value not in df.columns:
        raise ValueError(f"aggregate: the table has no column {value!r}; columns: {', '.join(map(str, df.columns))}")
    keys, index_names = _group_keys(df, by)
    grouped = df.groupby(keys, sort=True, dropna=False)
    v = grouped[value]
    out = pd.DataFrame({
        "flows": grouped.size(),
        f"{value}_sum": v.sum(),
        f"{value}_mean": v.mean(),
        f"{value}_min": v.min(),
        f"{value}_max": v.max(),
    })
    total = df[value].sum()
    out["share"] = out[f"{value}_sum"] / total if total else float("nan")
    out["jain"] = v.apply(jain)
    for col in _COUNTERS:
        if col in df.columns and col != value:
            out[col] = grouped[col].sum()
    out.index.names = index_names
    return out


def _group_keys(df: pd.DataFrame, by: Grouping):
    """The `groupby` keys and index name(s) for a `by` argument of `aggregate`."""
    if isinstance(by, str):
        _need_columns(df, [by])
        return by, [by]
    if isinstance(by, Mapping):
        _need_columns(df, ["name"])
        missing = [n for n in df["name"] if n not in by]
        if missing:
            raise ValueError(
                "aggregate: flows missing from the grouping dict: "
                + ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            )
        return df["name"].map(lambda n: by[n]).rename("group"), ["group"]
    if callable(by):
        _need_columns(df, ["name"])
        return df["name"].map(by).rename("group"), ["group"]
    if isinstance(by, (list, tuple)) and all(isinstance(c, str) for c in by):
        _need_columns(df, list(by))
        return list(by), list(by)
    raise TypeError(
        "aggregate: by must be a column name, a list of column names, a callable of the "
        f"flow name or a dict from flow name to group; got {type(by).__name__}"
    )


def _need_columns(df: pd.DataFrame, columns: List[str]) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(
            f"aggregate: the table has no column {', '.join(map(repr, missing))}; "
            f"columns: {', '.join(map(str, df.columns))}"
        )
