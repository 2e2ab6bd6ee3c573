"""Plots of a run's time series (matplotlib, no pyplot state: safe on headless machines).

Each function takes `Results`, draws on a new figure (or on `ax` if given), saves a PNG
when `path` is given, and returns the figure. `plot_all` writes the standard set:

- ``cwnd.png``: congestion window of each flow (packets) vs time;
- ``queue.png``: queue length (packets) vs time, with RED's average queue when sampled;
- ``throughput.png``: per-flow throughput (Mbit/s, from bytes delivered per interval,
  1 s moving average) vs time.

The time series exists only when the scenario has ``[monitor] interval = ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, List, Optional, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .results import PathLike, Results

#: Legends list at most this many entries (a sweep of 100 flows gets no legend).
MAX_LEGEND = 16

# Metric names as the core writes them (crates/tcpsim/src/monitor/timeseries.rs).
CWND = ("cwnd", "cwnd_pkts")
DELIVERED = ("delivered_bytes",)
QUEUE_LENGTH = ("queue_pkts", "length_pkts", "queue_length_pkts")
RED_AVERAGE = ("red_avg_pkts",)


def _metric(results: Results, candidates: Sequence[str]) -> Optional[str]:
    present = set(results.metrics())
    for name in candidates:
        if name in present:
            return name
    return None


def _new_axes(ax, figsize=(9, 4.5)):
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _finish(fig: Figure, ax, title: str, xlabel: str, ylabel: str, path: Optional[PathLike]):
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if 0 < len(labels) <= MAX_LEGEND:
        ax.legend(fontsize="small", ncol=2 if len(labels) > 8 else 1, loc="best")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120)
    return fig


def _no_data(ax, what: str):
    ax.text(0.5, 0.5, f"no {what} in the time series\n(add [monitor] interval = \"100ms\")",
            ha="center", va="center", transform=ax.transAxes)


def _flow_order(results: Results, wide: pd.DataFrame) -> List[str]:
    names = [n for n in results.flows.get("name", pd.Series([], dtype=object)) if n in wide.columns]
    return names + [c for c in wide.columns if c not in names]


def sampling_interval(results: Results) -> Optional[float]:
    """The time-series sampling interval in seconds (median spacing of sample times)."""
    times = np.unique(results.timeseries["time_s"].to_numpy(dtype=float))
    steps = np.diff(times)
    steps = steps[steps > 0]
    return float(np.median(steps)) if steps.size else None


def plot_cwnd(results: Results, path: Optional[PathLike] = None, *,
              flows: Optional[Iterable[str]] = None, ax=None) -> Figure:
    """Congestion window (packets) of each flow vs time."""
    fig, ax = _new_axes(ax)
    metric = _metric(results, CWND)
    wide = results.series(metric, flows) if metric else pd.DataFrame()
    if wide.empty:
        _no_data(ax, "cwnd samples")
    for name in _flow_order(results, wide):
        ax.plot(wide.index, wide[name], label=name, linewidth=1)
    return _finish(fig, ax, "Congestion window", "time (s)", "cwnd (packets)", path)


def plot_queue(results: Results, path: Optional[PathLike] = None, *,
               queues: Optional[Iterable[str]] = None, ax=None) -> Figure:
    """Queue length (packets) vs time, with RED's average queue (dashed) when sampled.

    `queues` defaults to the busiest queue: the one with the most drops and marks, then
    the longest mean length (the bottleneck of a dumbbell)."""
    fig, ax = _new_axes(ax)
    length = _metric(results, QUEUE_LENGTH)
    average = _metric(results, RED_AVERAGE)
    names = list(queues) if queues is not None else busiest_queues(results, 1)
    wide_len = results.series(length, names) if length else pd.DataFrame()
    wide_avg = results.series(average, names) if average else pd.DataFrame()
    if wide_len.empty and wide_avg.empty:
        _no_data(ax, "queue samples")
    palette = _colors(len(names))
    for name, color in zip(names, palette):
        if name in wide_len.columns:
            ax.plot(wide_len.index, wide_len[name], color=color,
                    linewidth=0.9, label=f"{name} length")
        if name in wide_avg.columns:
            ax.plot(wide_avg.index, wide_avg[name], color=color, linestyle="--",
                    linewidth=1.6, alpha=0.9, label=f"{name} RED average")
    title = "Queue " + ", ".join(names) if len(names) <= 3 else "Queues"
    return _finish(fig, ax, title, "time (s)", "queue length (packets)", path)


def plot_throughput(results: Results, path: Optional[PathLike] = None, *,
                    flows: Optional[Iterable[str]] = None, average: Optional[float] = 1.0,
                    ax=None) -> Figure:
    """Per-flow throughput (Mbit/s) from the bytes delivered in each sampling interval.

    In-order delivery is bursty (a recovered hole releases a window at once), so each
    curve is a centred moving average over `average` seconds (None: raw intervals)."""
    fig, ax = _new_axes(ax)
    metric = _metric(results, DELIVERED)
    wide = results.series(metric, flows) if metric else pd.DataFrame()
    interval = sampling_interval(results)
    if wide.empty or interval is None:
        _no_data(ax, "delivered_bytes samples")
        wide = pd.DataFrame()
    mbps = wide * 8.0 / interval / 1e6 if interval else wide
    samples = max(1, int(round(average / interval))) if (average and interval) else 1
    if samples > 1:
        mbps = mbps.rolling(samples, min_periods=1, center=True).mean()
        how = f"{samples * interval:g} s average"
    else:
        how = f"per {interval * 1e3:g} ms" if interval else ""
    for name in _flow_order(results, mbps):
        if samples > 1:
            ax.plot(mbps.index, mbps[name], label=name, linewidth=1)
        else:
            # each sample counts the bytes delivered in the interval ending at its time
            ax.step(mbps.index, mbps[name], where="pre", label=name, linewidth=1)
    label = f"throughput (Mbit/s, {how})" if how else "throughput (Mbit/s)"
    return _finish(fig, ax, "Per-flow throughput (goodput)", "time (s)", label, path)


def busiest_queues(results: Results, n: int = 1) -> List[str]:
    """Names of the `n` busiest queues (most drops + marks, then longest mean length)."""
    q = results.queues
    if q.empty:
        return []
    score = q.assign(
        _loss=q.get("early_drops", 0) + q.get("overflow_drops", 0) + q.get("marks", 0),
        _len=q.get("mean_length_pkts", 0),
    ).sort_values(["_loss", "_len"], ascending=False, kind="stable")
    return score["queue"].head(n).tolist()


def plot_all(results: Results, directory: PathLike) -> List[Path]:
    """Writes cwnd.png, queue.png and throughput.png into `directory`; returns the paths.
    Writes nothing (and returns []) when the run kept no time series."""
    if results.timeseries.empty:
        return []
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in (("cwnd", plot_cwnd), ("queue", plot_queue), ("throughput", plot_throughput)):
        path = out / f"{name}.png"
        draw(results, path)
        written.append(path)
    return written


def _colors(n: int) -> List[str]:
    base = [f"C{i}" for i in range(10)]
    return [base[i % 10] for i in range(max(n, 1))]
