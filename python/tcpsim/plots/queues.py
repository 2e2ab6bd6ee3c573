"""Plots of queues over time: length (with RED's average) and drop events, loss
rate and queueing delay, of the busiest sampled queue by default.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..results import PathLike, Results
from .series import (ARRIVALS, EARLY_DROPS, MARKS, OVERFLOW_DROPS, QUEUE_LENGTH, RED_AVERAGE,
                     SOJOURN, _duration, _metric, sampling_interval)
from .style import _colors, legend, _new_axes, _no_data, save, _style, flow_styles, styled


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


def _default_queues(results: Results, n: int = 1) -> List[str]:
    """The busiest queues among those the time series sampled (all queues if none was)."""
    sampled = set(results.timeseries.loc[
        results.timeseries["metric"].isin(QUEUE_LENGTH), "entity"].unique()) \
        if len(results.timeseries) else set()
    ranked = busiest_queues(results, len(results.queues))
    if sampled:
        ranked = [name for name in ranked if name in sampled] + sorted(sampled - set(ranked))
    return ranked[:n]


def _queue_kind(results: Results, name: str) -> str:
    q = results.queues
    if "kind" in q and "queue" in q:
        kinds = q.loc[q["queue"] == name, "kind"]
        if len(kinds):
            return {"red": "RED", "droptail": "DropTail"}.get(str(kinds.iloc[0]), str(kinds.iloc[0]))
    return ""


@styled
def plot_queue(results: Results, path: Optional[PathLike] = None, *,
               queues: Optional[Iterable[str]] = None, drops: Optional[str] = None,
               ax=None) -> Figure:
    """Queue length (packets) vs time, with RED's average queue (dashed) when sampled,
    and the drop events.

    `queues` defaults to the busiest sampled queue: the one with the most drops and
    marks, then the longest mean length (the bottleneck of a dumbbell).

    `drops` says how drop events are shown:

    - ``"panel"`` (the default for a new figure): a second panel below the queue length
      with the packets dropped in each sampling interval, early (RED) and overflow (buffer
      full) drops stacked, and the ECN marks, if any, as a line of their own;
    - ``"markers"`` (the default when `ax` is given): a rug of markers along the top of
      the queue plot at each interval with early drops (orange) or overflow drops (red);
    - ``"none"``: no drop events.
    """
    if drops is None:
        drops = "markers" if ax is not None else "panel"
    if drops not in ("panel", "markers", "none"):
        raise ValueError(f"drops must be 'panel', 'markers' or 'none', not {drops!r}")
    if drops == "panel" and ax is not None:
        raise ValueError("drops='panel' needs a new figure; with ax= use 'markers' or 'none'")

    if drops == "panel":
        fig = Figure(figsize=(9, 5.5), layout="constrained")
        ax, ax_drops = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1.2])
    else:
        fig, ax = _new_axes(ax)
        ax_drops = None

    length = _metric(results, QUEUE_LENGTH)
    average = _metric(results, RED_AVERAGE)
    names = list(queues) if queues is not None else _default_queues(results, 1)
    wide_len = results.series(length, names) if length else pd.DataFrame()
    wide_avg = results.series(average, names) if average else pd.DataFrame()
    if wide_len.empty and wide_avg.empty:
        _no_data(ax, "queue samples")
    palette = _colors(len(names))
    for name, color in zip(names, palette):
        prefix = f"{name} " if len(names) > 1 else ""
        if name in wide_len.columns:
            ax.plot(wide_len.index, wide_len[name], color=color,
                    linewidth=0.9, label=f"{prefix}queue length")
        if name in wide_avg.columns:
            ax.plot(wide_avg.index, wide_avg[name], color=color if len(names) > 1 else "k",
                    linestyle="--", linewidth=1.6, alpha=0.9, label=f"{prefix}RED average")

    if len(names) == 1:
        kind = _queue_kind(results, names[0])
        title = f"Queue {names[0]}" + (f" ({kind})" if kind else "")
    else:
        title = "Queues " + ", ".join(names) if len(names) <= 3 else "Queues"
    _style(ax, title, "" if ax_drops is not None else "time (s)", "queue length (packets)",
           right=_duration(results, wide_len))

    if drops != "none":
        counts = {}
        for key, cands in (("early", EARLY_DROPS), ("overflow", OVERFLOW_DROPS), ("marks", MARKS)):
            metric = _metric(results, cands)
            counts[key] = results.series(metric, names) if metric else pd.DataFrame()
        interval = sampling_interval(results) if len(results.timeseries) else None
        if drops == "panel":
            kind = _queue_kind(results, names[0]) if len(names) == 1 else ""
            _drops_panel(ax_drops, names, counts, interval, kind)
        else:
            _drops_rug(ax, names, counts)
    if len(ax.get_legend_handles_labels()[1]) > 1:  # "queue length" alone needs none
        legend(ax, None, outside=False)
    return save(fig, path)


_DROP_STYLE = {
    "early": ("early drops (RED)", "tab:orange", "v"),
    "overflow": ("overflow drops (buffer full)", "tab:red", "x"),
    "marks": ("ECN marks", "tab:green", "o"),
}


def _drops_panel(ax, names: List[str], counts: Dict[str, pd.DataFrame], interval: Optional[float],
                 kind: str = ""):
    """The panel of drops per sampling interval: early and overflow drops stacked (both
    are packets lost), ECN marks as a separate line (a marked packet is not lost), the
    title naming what is shown."""
    per = f"{interval * 1e3:g} ms" if interval else "interval"
    any_data = any(not df.empty for df in counts.values())
    if not any_data:
        ax.text(0.5, 0.5, "no drop samples in the time series", ha="center", va="center",
                transform=ax.transAxes)
    marked = False
    if len(names) == 1 and interval:
        name = names[0]
        bottom = None
        for key in ("early", "overflow", "marks"):
            df = counts[key]
            if name not in df.columns:
                continue
            values = df[name].fillna(0.0)
            total = int(values.sum())
            if total == 0 and (key == "marks" or (key == "early" and kind != "RED")):
                continue
            label, color, _ = _DROP_STYLE[key]
            # a sample at time t counts the packets of the interval (t - interval, t]
            t = values.index.to_numpy(dtype=float)
            edges = np.concatenate([[t[0] - interval], t]) if len(t) else np.zeros(1)
            if key == "marks":
                marked = True
                ax.stairs(values.to_numpy(), edges, color=color, linewidth=1.2,
                          label=f"{label}: {total:,}")
                continue
            # one stacked step patch per kind of drop (thousands of bars draw slowly)
            base = np.zeros(len(values)) if bottom is None else bottom.reindex(values.index).fillna(0).to_numpy()
            ax.stairs(base + values.to_numpy(), edges, baseline=base, fill=True, color=color,
                      linewidth=0, label=f"{label}: {total:,}")
            bottom = values if bottom is None else bottom.add(values, fill_value=0)
    else:
        palette = _colors(len(names))
        for name, color in zip(names, palette):
            for key, style in (("early", ":"), ("overflow", "-"), ("marks", "--")):
                df = counts[key]
                if name not in df.columns or (key == "marks" and df[name].sum() == 0):
                    continue
                marked = marked or key == "marks"
                ax.step(df.index, df[name], where="pre", color=color, linestyle=style,
                        linewidth=0.9, label=f"{name} {_DROP_STYLE[key][0]}: {int(df[name].sum()):,}")
    # what the panel counts goes in its title: as a y label it would not fit the panel
    what = "Drops and ECN marks" if marked else "Drops"
    _style(ax, f"{what} per {per}", "time (s)", "packets", right=ax.get_xlim()[1])
    legend(ax, None, outside=False)


def _drops_rug(ax, names: List[str], counts: Dict[str, pd.DataFrame]):
    trans = ax.get_xaxis_transform()  # x in data, y in axes fraction
    for key, y in (("early", 0.97), ("overflow", 0.93), ("marks", 0.89)):
        df = counts[key]
        cols = [n for n in names if n in df.columns]
        if not cols:
            continue
        per_time = df[cols].fillna(0).sum(axis=1)
        hits = per_time[per_time > 0]
        if hits.empty:
            continue
        label, color, marker = _DROP_STYLE[key]
        ax.plot(hits.index, np.full(len(hits), y), linestyle="none", marker=marker,
                markersize=4, color=color, alpha=0.7, transform=trans, clip_on=False,
                label=f"{label}: {int(hits.sum()):,}")


@styled
def plot_loss_rate(results: Results, path: Optional[PathLike] = None, *,
                   queues: Optional[Iterable[str]] = None, ax=None) -> Figure:
    """Loss rate over time: the packets a queue dropped (early and overflow drops) in each
    sampling interval over the packets offered to it in that interval, in percent.

    `queues` defaults to the busiest sampled queue (see `plot_queue`). Intervals in which
    no packet arrived have no rate and leave a gap. The legend gives each queue's rate over
    the whole measurement window (drops / arrivals of the ``queues`` table)."""
    fig, ax = _new_axes(ax)
    names = list(queues) if queues is not None else _default_queues(results, 1)
    arrivals = results.series(ARRIVALS[0], names) if _metric(results, ARRIVALS) else pd.DataFrame()
    if arrivals.empty:
        _no_data(ax, "arrival counts")
    dropped = sum(results.series(m[0], names) for m in (EARLY_DROPS, OVERFLOW_DROPS)
                  if _metric(results, m)) if not arrivals.empty else pd.DataFrame()
    q = results.queues.set_index("queue") if "queue" in results.queues else pd.DataFrame()
    for name, (color, dash) in zip([n for n in names if n in arrivals.columns], flow_styles(len(names))):
        offered = arrivals[name].where(arrivals[name] > 0)
        rate = 100.0 * dropped[name] / offered
        label = name
        if name in q.index and q.loc[name, "arrivals"] > 0:
            whole = 100.0 * (q.loc[name, "early_drops"] + q.loc[name, "overflow_drops"]) / q.loc[name, "arrivals"]
            label = f"{name} (whole run {whole:.2f} %)"
        ax.step(rate.index, rate, where="pre", linewidth=1, color=color, linestyle=dash, label=label)
    interval = sampling_interval(results) if not arrivals.empty else None
    how = f"per {interval * 1e3:g} ms" if interval else "per interval"
    _style(ax, "Loss rate", "time (s)", f"loss rate (% of arrivals, {how})",
           right=_duration(results, arrivals))
    legend(ax, None, outside=False)
    return save(fig, path)


@styled
def plot_queue_delay(results: Results, path: Optional[PathLike] = None, *,
                     queues: Optional[Iterable[str]] = None, ax=None) -> Figure:
    """Queueing delay over time (ms): the mean time the packets that left a queue in each
    sampling interval had waited in it (``sojourn_s``; no point where none left).

    `queues` defaults to the busiest sampled queue. The legend gives each queue's mean
    over the whole measurement window (``mean_sojourn_s`` of the ``queues`` table)."""
    fig, ax = _new_axes(ax)
    names = list(queues) if queues is not None else _default_queues(results, 1)
    delay = results.series(SOJOURN[0], names) * 1e3 if _metric(results, SOJOURN) else pd.DataFrame()
    if delay.empty:
        _no_data(ax, "queueing-delay samples")
    q = results.queues.set_index("queue") if "queue" in results.queues else pd.DataFrame()
    for name, (color, dash) in zip([n for n in names if n in delay.columns], flow_styles(len(names))):
        label = name
        if name in q.index and np.isfinite(q.loc[name, "mean_sojourn_s"]):
            label = f"{name} (whole run {q.loc[name, 'mean_sojourn_s'] * 1e3:.1f} ms)"
        ax.step(delay.index, delay[name], where="pre", linewidth=1, color=color, linestyle=dash, label=label)
    interval = sampling_interval(results) if not delay.empty else None
    how = f"mean per {interval * 1e3:g} ms" if interval else "mean per interval"
    _style(ax, "Queueing delay", "time (s)", f"queueing delay (ms, {how})",
           right=_duration(results, delay))
    legend(ax, None, outside=False)
    return save(fig, path)
