"""Plots of flows: congestion window and throughput of each flow over time, and
from the flows table the CDF of per-flow goodput and the throughput-delay
scatter, which also compare several runs.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import models
from ..results import PathLike, Results
from .series import CWND, DELIVERED, _duration, _flow_order, _metric, interval_series, smoothed
from .style import MAX_LEGEND, legend, _new_axes, _no_data, save, _style, flow_styles, styled


def _draw_flows(ax, wide: pd.DataFrame, order: List[str], *, step: bool = False) -> Optional[str]:
    """One line per flow with a label, or, for more than MAX_LEGEND flows, thin grey lines
    with the median and the 10-90th percentile band across flows. Returns a legend title
    for the aggregate view."""
    if not order:
        return None
    if len(order) <= MAX_LEGEND:
        for name, (color, dash) in zip(order, flow_styles(len(order))):
            if step:
                # each sample counts what happened in the interval ending at its time
                ax.step(wide.index, wide[name], where="pre", label=name, linewidth=1,
                        color=color, linestyle=dash)
            else:
                ax.plot(wide.index, wide[name], label=name, linewidth=1, color=color, linestyle=dash)
        return None
    data = wide[order]
    x = data.index.to_numpy(dtype=float)
    alpha = max(0.08, min(0.3, 12.0 / len(order)))
    ax.plot(x, data.to_numpy(dtype=float), color="0.45", linewidth=0.5, alpha=alpha)
    ax.plot([], [], color="0.45", linewidth=0.8, label="each flow")
    values = data.to_numpy(dtype=float)
    with np.errstate(all="ignore"):
        lo, med, hi = np.nanpercentile(values, [10, 50, 90], axis=1)
    ax.fill_between(x, lo, hi, color="C0", alpha=0.3, linewidth=0,
                    label="10th-90th percentile")
    ax.plot(x, med, color="C0", linewidth=1.8, label="median")
    return f"{len(order)} flows"


@styled
def plot_cwnd(results: Results, path: Optional[PathLike] = None, *,
              flows: Optional[Iterable[str]] = None, ax=None) -> Figure:
    """Congestion window (packets) of each flow vs time."""
    fig, ax = _new_axes(ax)
    metric = _metric(results, CWND)
    wide = results.series(metric, flows) if metric else pd.DataFrame()
    if wide.empty:
        _no_data(ax, "cwnd samples")
    legend_title = _draw_flows(ax, wide, _flow_order(results, wide))
    _style(ax, "Congestion window", "time (s)", "cwnd (packets)", right=_duration(results, wide))
    legend(ax, legend_title)
    return save(fig, path)


@styled
def plot_throughput(results: Results, path: Optional[PathLike] = None, *,
                    flows: Optional[Iterable[str]] = None, average: Optional[float] = 1.0,
                    ax=None) -> Figure:
    """Per-flow throughput (Mbit/s) from the bytes delivered in each sampling interval.

    In-order delivery is bursty (a recovered hole releases a window at once), so each
    curve is a centred moving average over `average` seconds (None: raw intervals)."""
    fig, ax = _new_axes(ax)
    if flows is None and results.groups:
        # Flow groups have delivered_bytes series too: per-flow curves only.
        flows = [n for n in results.flows["name"] if n not in set(results.groups)]
    wide, interval = interval_series(results, DELIVERED, flows)
    if interval is None:
        _no_data(ax, "delivered-bytes samples")
    mbps, samples, how = smoothed(wide * 8.0 / interval / 1e6 if interval else wide, interval, average)
    legend_title = _draw_flows(ax, mbps, _flow_order(results, mbps), step=samples <= 1)
    label = f"throughput (Mbit/s, {how})" if how else "throughput (Mbit/s)"
    _style(ax, "Per-flow throughput (goodput)", "time (s)", label, right=_duration(results, mbps))
    legend(ax, legend_title)
    return save(fig, path)


def _runs(results, labels: Optional[Sequence[str]]) -> List[Tuple[str, Results]]:
    """(label, results) pairs from one `Results` or a list (or dict label -> Results)."""
    if isinstance(results, Results):
        return [(labels[0] if labels else "", results)]
    if isinstance(results, dict):
        return [(str(k), v) for k, v in results.items()]
    runs = list(results)
    names = list(labels) if labels is not None else [f"run {i + 1}" for i in range(len(runs))]
    if len(names) != len(runs):
        raise ValueError(f"{len(runs)} results but {len(names)} labels")
    return list(zip(names, runs))


@styled
def plot_goodput_cdf(results, path: Optional[PathLike] = None, *,
                     labels: Optional[Sequence[str]] = None, ax=None) -> Figure:
    """Empirical CDF of per-flow goodput (Mbit/s): the fraction of flows whose goodput is
    at most x. `results` is one `Results`, a list of them (with `labels`) or a dict
    ``{label: Results}``, one step curve each — the usual way to compare how evenly
    several runs share a link (a vertical step: every flow got the same)."""
    fig, ax = _new_axes(ax, figsize=(7, 4.5))
    runs = _runs(results, labels)
    for (label, r), (color, dash) in zip(runs, flow_styles(len(runs))):
        gp = np.sort(r.flows["goodput_bps"].to_numpy(dtype=float) / 1e6)
        if gp.size == 0:
            continue
        frac = np.arange(1, gp.size + 1) / gp.size
        # from 0 at the smallest value to 1 at the largest, flat beyond
        ax.step(np.concatenate([[gp[0]], gp]), np.concatenate([[0.0], frac]), where="post",
                color=color, linestyle=dash, linewidth=1.5,
                label=f"{label} ({gp.size} flows)" if label else f"{gp.size} flows")
    _style(ax, "Per-flow goodput", "goodput (Mbit/s)", "fraction of flows (CDF)", left0=False)
    ax.set_ylim(0, 1.0)
    legend(ax, None, outside=len(runs) > 6)
    return save(fig, path)


#: Markers of the flow groups in `plot_throughput_delay`, in the order they first appear.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

#: What tells flows apart in `plot_throughput_delay`, tried in this order: the flows
#: table's columns (the families' scenario keys, read from the catalogue) and last the
#: flow's name.
_TELLING_APART = (models.family("cc").key, models.family("recovery").key, "name")


def _group_keys(flows: pd.DataFrame) -> List[str]:
    """The columns that group the flows of the throughput–delay scatter: the congestion
    control, then the loss recovery if flows of one congestion control differ in it (the
    dumbbell demo: all Reno windows, Reno and NewReno recovery), then the name if that
    still leaves every flow in one group and there are few enough to list one by one."""
    present = [c for c in _TELLING_APART if c in flows]
    if not present:
        return []
    keys = [present[0]]
    for column in present[1:]:
        groups = flows.groupby([flows[k].astype(str) for k in keys], sort=False)
        if column == "name":
            needed = groups.ngroups == 1 and 1 < len(flows) <= MAX_LEGEND
        else:
            needed = bool((groups[column].nunique(dropna=False) > 1).any())
        if needed:
            keys.append(column)
    return keys


def _group_words(keys: Sequence[str]) -> List[str]:
    """The legend's words for the grouping columns: the family's title (``loss
    recovery``), or ``flow`` for the name."""
    return ["flow" if k == "name" else models.family(k).title for k in keys]


def _group_label(keys: Sequence[str], values: Sequence[str]) -> str:
    """A group named in words: ``reno`` alone, ``reno with newreno loss recovery`` when
    the loss recovery is what tells it apart, ``reno, reno0`` for a single flow."""
    words = dict(zip(keys, _group_words(keys)))
    named = dict(zip(keys, values))
    label = values[0]
    recovery = models.family("recovery").key
    if recovery in named and keys[0] != recovery:
        label += f" with {named[recovery]} {words[recovery]}"
    if "name" in named:
        label += f", {named['name']}"
    return label


@styled
def plot_throughput_delay(results, path: Optional[PathLike] = None, *,
                          labels: Optional[Sequence[str]] = None, ax=None) -> Figure:
    """Throughput–delay scatter: each flow's goodput (Mbit/s) against its mean RTT (ms,
    from its RTT samples; flows without samples, such as CBR, are left out). `results`
    as in `plot_goodput_cdf`: the trade-off AQM studies show (a shorter queue lowers the
    delay for a little throughput).

    Flows are grouped by what tells them apart (`_group_keys`): their congestion control
    (the flows table's ``cc``), then their loss recovery, then their name. One marker per
    group, and with a single run one colour each too; with several runs the colour is
    the run's. The legend names each (run and) group in words with its flows."""
    fig, ax = _new_axes(ax, figsize=(7, 4.5))
    runs = _runs(results, labels)
    plotted = [(label, _with_rtt(r.flows)) for label, r in runs]
    keys = _group_keys(pd.concat([f for _, f in plotted], ignore_index=True)) if plotted else []
    seen: List[Tuple[str, ...]] = []
    for _, f in plotted:
        if keys:
            seen += [g for g in f[keys].astype(str).itertuples(index=False, name=None) if g not in seen]
    run_colors = flow_styles(len(runs))
    for i, (label, f) in enumerate(plotted):
        groups = f.groupby([f[k].astype(str) for k in keys], sort=False) if keys else [((), f)]
        for group, g in groups:
            if g.empty:
                continue
            group = tuple(group) if isinstance(group, tuple) else (group,)
            k = seen.index(group) if group in seen else 0
            color = run_colors[i][0] if len(runs) > 1 else f"C{k % 10}"
            who = ", ".join(w for w in (label, _group_label(keys, group) if keys else "") if w)
            ax.scatter(g["rtt_mean_s"].astype(float) * 1e3, g["goodput_bps"].astype(float) / 1e6,
                       s=36, color=color, marker=MARKERS[k % len(MARKERS)], alpha=0.85,
                       label=f"{who} ({len(g)} flow{'s' if len(g) != 1 else ''})")
    if not ax.collections:
        _no_data(ax, "RTT samples")
    _style(ax, "Throughput and delay per flow", "mean RTT (ms)", "goodput (Mbit/s)", left0=False)
    title = ", ".join(_group_words(keys))
    legend(ax, ", ".join(w for w in ("run" if len(runs) > 1 else "", title) if w) or None)
    return save(fig, path)


def _with_rtt(flows: pd.DataFrame) -> pd.DataFrame:
    """The flows with RTT samples (a mean RTT to plot)."""
    if "rtt_mean_s" not in flows:
        return flows.iloc[0:0]
    return flows[np.isfinite(flows["rtt_mean_s"].astype(float))]
