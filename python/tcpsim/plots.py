"""Plots of a run's time series and of a sweep's metrics (matplotlib, no pyplot state:
safe on headless machines and in threads).

Run plots take `Results`, draw on a new figure (or on `ax` if given), save a PNG when
`path` is given, and return the figure. `plot_all` writes the standard set:

- ``cwnd.png``: congestion window of each flow (packets) vs time;
- ``throughput.png``: per-flow throughput (Mbit/s, from bytes delivered per interval,
  1 s moving average) vs time;
- ``queue.png``: queue length and RED's average (packets) vs time, above a panel of the
  drops per sampling interval split into early (RED) and overflow drops (and ECN marks);
- ``utilization.png``: utilization (% of the link rate, per sampling interval) of the
  busiest sampled link directions vs time;
- ``loss.png``: loss rate (drops / arrivals per sampling interval, %) of the busiest
  queue vs time;
- ``delay.png``: queueing delay (mean wait of the packets that left in each interval,
  ms) of the busiest queue vs time;
- ``goodput_cdf.png``: the CDF of per-flow goodput (from the flows table);
- ``throughput_delay.png``: each flow's goodput against its mean RTT (flows table).

The time series exists only when the scenario has ``[monitor] interval = ...``; the last
two plots need none. `plot_goodput_cdf` and `plot_throughput_delay` also take several
runs (a list or ``{label: Results}``) to compare them on one figure.

Up to `MAX_LEGEND` flows are drawn one style each: the ten tab10 colours, then the same
colours dashed, dotted and dash-dotted (`flow_styles`), so 20 or 30 flows stay apart.
With more than `MAX_LEGEND` flows the per-flow plots switch to an aggregate view: every
flow as a thin grey line, their median and the band between the 10th and 90th
percentile across flows, so 100 flows still give a readable figure.

Sweep plots take the table of `tcpsim.sweep.run_sweep` / `load_sweep`:
`sweep_plot(table, x=parameter, y=metric, hue=other_parameter)` draws the metric's mean
over seeds against a swept parameter, one line per value of `hue`, with error bars of
± one standard deviation across seeds (``error="sd"``, the default) or a 95 % confidence
interval of the mean (``error="ci95"``, Student's t). `plot_sweep_all` writes one PNG per
metric (``sweep_<metric>.png``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from . import units

from .results import PathLike, Results

__all__ = [
    "MAX_LEGEND",
    "plot_cwnd",
    "plot_throughput",
    "plot_queue",
    "plot_utilization",
    "plot_loss_rate",
    "plot_queue_delay",
    "plot_goodput_cdf",
    "plot_throughput_delay",
    "plot_all",
    "flow_styles",
    "busiest_queues",
    "sampling_interval",
    "sweep_plot",
    "sweep_facets",
    "plot_sweep_all",
    "sweep_parameters",
    "SWEEP_METRICS",
    "DEFAULT_SWEEP_METRICS",
]

#: At most this many flows are drawn one style each with a legend entry; more flows are
#: drawn as an aggregate (median and 10-90th percentile band over thin grey lines).
MAX_LEGEND = 30

#: Line styles combined with the ten colours of matplotlib's "tab10" cycle: 40 distinct
#: (colour, dash) pairs, so flows never share a look below `MAX_LEGEND`.
LINE_STYLES = ("-", "--", ":", "-.")

#: `plot_utilization` draws by default the busiest sampled link directions: at most
#: `MAX_LINKS`, each with a mean utilization of at least `MIN_LINK_PCT` percent.
MAX_LINKS = 6
MIN_LINK_PCT = 1.0

# Metric names as the core writes them (crates/tcpsim/src/monitor/timeseries.rs).
CWND = ("cwnd", "cwnd_pkts")
DELIVERED = ("delivered_bytes",)
QUEUE_LENGTH = ("queue_pkts", "length_pkts", "queue_length_pkts")
RED_AVERAGE = ("red_avg_pkts",)
EARLY_DROPS = ("early_drops",)
OVERFLOW_DROPS = ("overflow_drops",)
MARKS = ("marks",)
UTILIZATION = ("utilization",)
ARRIVALS = ("arrivals",)
SOJOURN = ("sojourn_s",)

DPI = 120


# ============================================================================ helpers


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


def _legend(ax, title: Optional[str] = None, outside: Optional[bool] = None):
    handles, labels = ax.get_legend_handles_labels()
    shown = [(h, l) for h, l in zip(handles, labels) if not l.startswith("_")]
    if not shown or len(shown) > MAX_LEGEND:
        return None
    handles, labels = zip(*shown)
    if outside is None:
        outside = len(labels) > 6
    kw = dict(fontsize="small", title=title, title_fontsize="small")
    if outside:
        return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                         borderaxespad=0, ncol=2 if len(labels) > 15 else 1, **kw)
    return ax.legend(handles, labels, loc="best", **kw)


def _save(fig: Figure, path: Optional[PathLike]) -> Figure:
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=DPI)
    return fig


def _style(ax, title: Optional[str], xlabel: str, ylabel: str, *, bottom0: bool = True,
           left0: bool = True, right: Optional[float] = None):
    if title is not None:
        ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if left0:
        ax.set_xlim(left=0)
    if right is not None and right > 0:
        ax.set_xlim(right=right)
    if bottom0:
        ax.set_ylim(bottom=0)


def _no_data(ax, what: str):
    ax.text(0.5, 0.5, f"no {what} in the time series\n(add [monitor] interval = \"100ms\")",
            ha="center", va="center", transform=ax.transAxes)


def _flow_order(results: Results, wide: pd.DataFrame) -> List[str]:
    names = [n for n in results.flows.get("name", pd.Series([], dtype=object)) if n in wide.columns]
    return names + [c for c in wide.columns if c not in names]


def _colors(n: int) -> List[str]:
    base = [f"C{i}" for i in range(10)]
    return [base[i % 10] for i in range(max(n, 1))]


def flow_styles(n: int) -> List[Tuple[str, str]]:
    """`n` distinct (colour, line style) pairs: the ten tab10 colours with a solid line,
    then dashed, dotted and dash-dotted (40 pairs; beyond that they repeat)."""
    return [(f"C{i % 10}", LINE_STYLES[(i // 10) % len(LINE_STYLES)]) for i in range(max(n, 1))]


def _duration(results: Results, wide: pd.DataFrame) -> Optional[float]:
    d = results.summary.get("duration_s")
    if isinstance(d, (int, float)) and d > 0:
        return float(d)
    return float(wide.index.max()) if len(wide.index) else None


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


# ============================================================================ run plots


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
    legend_title = _draw_flows(ax, wide, _flow_order(results, wide))
    _style(ax, "Congestion window", "time (s)", "cwnd (packets)", right=_duration(results, wide))
    _legend(ax, legend_title)
    return _save(fig, path)


def plot_throughput(results: Results, path: Optional[PathLike] = None, *,
                    flows: Optional[Iterable[str]] = None, average: Optional[float] = 1.0,
                    ax=None) -> Figure:
    """Per-flow throughput (Mbit/s) from the bytes delivered in each sampling interval.

    In-order delivery is bursty (a recovered hole releases a window at once), so each
    curve is a centred moving average over `average` seconds (None: raw intervals)."""
    fig, ax = _new_axes(ax)
    metric = _metric(results, DELIVERED)
    wide = results.series(metric, flows) if metric else pd.DataFrame()
    interval = sampling_interval(results) if not wide.empty else None
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
    legend_title = _draw_flows(ax, mbps, _flow_order(results, mbps), step=samples <= 1)
    label = f"throughput (Mbit/s, {how})" if how else "throughput (Mbit/s)"
    _style(ax, "Per-flow throughput (goodput)", "time (s)", label, right=_duration(results, mbps))
    _legend(ax, legend_title)
    return _save(fig, path)


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
      full) drops stacked, and ECN marks if any;
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
        _legend(ax, None, outside=False)
    return _save(fig, path)


_DROP_STYLE = {
    "early": ("early drops (RED)", "tab:orange", "v"),
    "overflow": ("overflow drops (buffer full)", "tab:red", "x"),
    "marks": ("ECN marks", "tab:green", "o"),
}


def _drops_panel(ax, names: List[str], counts: Dict[str, pd.DataFrame], interval: Optional[float],
                 kind: str = ""):
    per = f"{interval * 1e3:g} ms" if interval else "interval"
    any_data = any(not df.empty for df in counts.values())
    if not any_data:
        ax.text(0.5, 0.5, "no drop samples in the time series", ha="center", va="center",
                transform=ax.transAxes)
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
            base = np.zeros(len(values)) if bottom is None else bottom.reindex(values.index).fillna(0).to_numpy()
            # a sample at time t counts the packets of the interval (t - interval, t]:
            # one stacked step patch per kind (thousands of bars draw slowly)
            t = values.index.to_numpy(dtype=float)
            edges = np.concatenate([[t[0] - interval], t]) if len(t) else np.zeros(1)
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
                ax.step(df.index, df[name], where="pre", color=color, linestyle=style,
                        linewidth=0.9, label=f"{name} {_DROP_STYLE[key][0]}: {int(df[name].sum()):,}")
    _style(ax, None, "time (s)", f"drops per {per}\n(packets)", right=ax.get_xlim()[1])
    _legend(ax, None, outside=False)


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


def plot_utilization(results: Results, path: Optional[PathLike] = None, *,
                     links: Optional[Iterable[str]] = None, average: Optional[float] = None,
                     ax=None) -> Figure:
    """Utilization (% of the link rate) of link directions vs time, from the per-interval
    ``utilization`` samples of the monitored queues.

    `links` defaults to the busiest sampled directions: at most `MAX_LINKS`, those with a
    mean utilization of at least `MIN_LINK_PCT` % (the busiest one if none is). Each legend entry gives the whole-run utilization from the `links`
    table. `average` (seconds) smooths each curve with a centred moving average; by
    default every sampling interval is shown as it is (a value can exceed 100 % by up to
    one packet, which counts entirely in the interval its transmission starts in)."""
    fig, ax = _new_axes(ax)
    metric = _metric(results, UTILIZATION)
    wide = results.series(metric, links) if metric else pd.DataFrame()
    interval = sampling_interval(results) if not wide.empty else None
    if wide.empty or interval is None:
        _no_data(ax, "utilization samples")
        wide = pd.DataFrame()
    pct = wide * 100.0
    hidden = 0
    if links is None and len(pct.columns):
        # t = 0 closes an empty interval; links that are nearly idle are left out
        ranked = pct[pct.index > 0].mean().sort_values(ascending=False, kind="stable")
        busy = [name for name, mean in ranked.items() if mean >= MIN_LINK_PCT]
        keep = (busy or list(ranked.index[:1]))[:MAX_LINKS]
        hidden = len(ranked) - len(keep)
        pct = pct[keep]
    samples = max(1, int(round(average / interval))) if (average and interval) else 1
    if samples > 1:
        pct = pct.rolling(samples, min_periods=1, center=True).mean()
        how = f"{samples * interval:g} s average"
    else:
        how = f"per {interval * 1e3:g} ms" if interval else ""
    whole = {}
    if "link" in results.links and "utilization" in results.links:
        whole = dict(zip(results.links["link"], results.links["utilization"].astype(float)))
    for name in pct.columns:
        overall = whole.get(name, float(pct.loc[pct.index > 0, name].mean()) / 100.0)
        label = f"{name} (run mean {overall * 100:.1f} %)"
        if samples > 1:
            ax.plot(pct.index, pct[name], linewidth=1, label=label)
        else:
            ax.step(pct.index, pct[name], where="pre", linewidth=1, label=label)
    top = max(105.0, float(np.nanmax(pct.to_numpy())) + 2 if pct.size else 105.0)
    label = f"utilization (% of link rate, {how})" if how else "utilization (% of link rate)"
    _style(ax, "Link utilization", "time (s)", label, right=_duration(results, pct))
    ax.set_ylim(0, top)
    ax.axhline(100, color="0.5", linewidth=0.8, linestyle=":")
    title = f"{len(pct.columns)} busiest of {len(pct.columns) + hidden} sampled link directions" \
        if hidden else None
    _legend(ax, title, outside=False)
    return _save(fig, path)


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
    _legend(ax, None, outside=False)
    return _save(fig, path)


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
    _legend(ax, None, outside=False)
    return _save(fig, path)


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
    _legend(ax, None, outside=len(runs) > 6)
    return _save(fig, path)


def plot_throughput_delay(results, path: Optional[PathLike] = None, *,
                          labels: Optional[Sequence[str]] = None, ax=None) -> Figure:
    """Throughput–delay scatter: each flow's goodput (Mbit/s) against its mean RTT (ms,
    from its RTT samples; flows without samples, such as CBR, are left out). `results`
    as in `plot_goodput_cdf`, one colour and marker per run: the trade-off AQM studies
    show (a shorter queue lowers the delay for a little throughput)."""
    fig, ax = _new_axes(ax, figsize=(7, 4.5))
    runs = _runs(results, labels)
    markers = ["o", "s", "^", "D", "v", "P", "X", "*"]
    for i, ((label, r), (color, _)) in enumerate(zip(runs, flow_styles(len(runs)))):
        f = r.flows
        f = f[np.isfinite(f["rtt_mean_s"].astype(float))] if "rtt_mean_s" in f else f.iloc[0:0]
        if f.empty:
            continue
        ax.scatter(f["rtt_mean_s"].astype(float) * 1e3, f["goodput_bps"].astype(float) / 1e6,
                   s=28, color=color, marker=markers[i % len(markers)], alpha=0.85,
                   label=f"{label} ({len(f)} flows)" if label else None)
    if not ax.collections:
        _no_data(ax, "RTT samples")
    _style(ax, "Throughput and delay per flow", "mean RTT (ms)", "goodput (Mbit/s)", left0=False)
    if len(runs) > 1:
        _legend(ax, None, outside=len(runs) > 6)
    return _save(fig, path)


#: The run plots `plot_all` writes: file stem, function, metrics that must be sampled
#: (none: drawn from the flows table).
RUN_PLOTS = (
    ("cwnd", plot_cwnd, CWND),
    ("throughput", plot_throughput, DELIVERED),
    ("queue", plot_queue, QUEUE_LENGTH + RED_AVERAGE),
    ("utilization", plot_utilization, UTILIZATION),
    ("loss", plot_loss_rate, ARRIVALS),
    ("delay", plot_queue_delay, SOJOURN),
    ("goodput_cdf", plot_goodput_cdf, ()),
    ("throughput_delay", plot_throughput_delay, ()),
)


def plot_all(results: Results, directory: PathLike) -> List[Path]:
    """Writes the run plots into `directory` and returns the paths written: from the time
    series (when the scenario has ``[monitor] interval``) cwnd.png, throughput.png,
    queue.png, utilization.png, loss.png and delay.png, each if its metrics were sampled;
    from the flows table goodput_cdf.png and throughput_delay.png."""
    out = Path(directory)
    written = []
    for name, draw, needs in RUN_PLOTS:
        if needs and (results.timeseries.empty or _metric(results, needs) is None):
            continue
        if not needs and results.flows.empty:
            continue
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{name}.png"
        draw(results, path)
        written.append(path)
    return written


# ============================================================================ sweep plots


#: Labels of the sweep table's metric columns: (description, unit, scale of the column).
SWEEP_METRICS: Dict[str, Tuple[str, str, float]] = {
    "flows": ("flows", "", 1.0),
    "goodput_bps": ("aggregate goodput", "Mbit/s", 1e-6),
    "goodput_bps_min": ("smallest flow goodput", "Mbit/s", 1e-6),
    "jain_index": ("Jain's fairness index", "", 1.0),
    "retransmits": ("retransmissions", "packets", 1.0),
    "timeouts": ("retransmission timeouts", "", 1.0),
    "rtt_mean_s": ("mean RTT", "ms", 1e3),
    "drops": ("drops, all queues", "packets", 1.0),
    "early_drops": ("early drops, all queues", "packets", 1.0),
    "overflow_drops": ("overflow drops, all queues", "packets", 1.0),
    "marks": ("ECN marks, all queues", "packets", 1.0),
    "bottleneck_utilization": ("bottleneck utilization", "%", 100.0),
    "bottleneck_queue_mean_pkts": ("bottleneck mean queue length", "packets", 1.0),
    "bottleneck_drops": ("bottleneck drops", "packets", 1.0),
    "events": ("simulator events", "", 1.0),
    "wall_s": ("wall-clock time per run", "s", 1.0),
}

#: Metrics that cannot exceed a value (in the column's own unit): their axes stop there.
BOUNDED_ABOVE: Dict[str, float] = {"jain_index": 1.0}

#: The metrics `plot_sweep_all` (and ``tcpsim plot SWEEP_DIR``) draws by default.
DEFAULT_SWEEP_METRICS = ("goodput_bps", "jain_index", "bottleneck_utilization",
                         "bottleneck_queue_mean_pkts", "drops", "rtt_mean_s")

_NOT_PARAMETERS = set(SWEEP_METRICS) | {"bottleneck", "reused", "run_id"}

def _t975(dof: int) -> float:
    """The 0.975 quantile of Student's t with `dof` degrees of freedom (scipy.stats):
    the half-width factor of a two-sided 95 % confidence interval."""
    if dof < 1:
        return float("nan")
    from scipy.stats import t

    return float(t.ppf(0.975, dof))


def _metric_label(column: str) -> Tuple[str, str, float]:
    if column in SWEEP_METRICS:
        return SWEEP_METRICS[column]
    for suffix, unit, scale in (("_bps", "Mbit/s", 1e-6), ("_s", "s", 1.0),
                                ("_pkts", "packets", 1.0), ("_bytes", "bytes", 1.0)):
        if column.endswith(suffix):
            return column[: -len(suffix)], unit, scale
    return column, "", 1.0


def _axis_label(column: str) -> str:
    what, unit, _ = _metric_label(column)
    return f"{what} ({unit})" if unit else what


def sweep_parameters(table: pd.DataFrame) -> List[str]:
    """The parameter columns of a sweep table (grid keys and ``seed``), in order.

    `run_sweep` writes the parameters first, ending with ``seed``, then the metrics.
    Without a ``seed`` column, every column that is not a known metric is taken."""
    cols = list(table.columns)
    if "seed" in cols:
        return cols[: cols.index("seed") + 1]
    return [c for c in cols if c not in _NOT_PARAMETERS]


def _short(column: str) -> str:
    """The last segment of a parameter path: ``dumbbell.bottleneck.queue.max_th`` -> max_th."""
    tail = column.rsplit(".", 1)[-1]
    return tail or column


def _value_labels(values: Sequence) -> Dict:
    """Readable labels for parameter values. Tables written as TOML text (for example a
    whole queue table) are shown by their ``kind`` and the keys that differ between the
    values of the same kind: ``droptail``, ``red, max_th=30``, ``red, max_th=60``."""
    labels = {v: _fmt_value(v) for v in values}
    texts = [v for v in values if isinstance(v, str) and v.lstrip().startswith("{")]
    if not texts or len(texts) != len(values):
        return labels
    try:
        try:
            import tomllib
        except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
            import tomli as tomllib  # type: ignore[no-redef]
        parsed = {v: tomllib.loads(f"v = {v}")["v"] for v in texts}
    except Exception:
        return labels
    if not all(isinstance(d, dict) for d in parsed.values()):
        return labels
    for v, d in parsed.items():
        same = [e for e in parsed.values() if e.get("kind") == d.get("kind")]
        keys = []
        for e in same:
            keys += [k for k in e if k not in keys and k != "kind"]
        differ = [k for k in keys if len({repr(e.get(k)) for e in same}) > 1]
        bits = [str(d["kind"])] if "kind" in d else []
        bits += [f"{k}={_fmt_value(d[k])}" for k in differ if k in d]
        labels[v] = ", ".join(bits) if bits else v
    return labels


def _fmt_value(v) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):g}"
    return str(v)


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _quantities(series: pd.Series):
    """``({value: number}, dimension)`` when a parameter column holds quantities with
    units of one kind (``"50p"``, ``"10Mbps"``), else None (`tcpsim.units`)."""
    if _is_numeric(series) or pd.api.types.is_bool_dtype(series):
        return None
    return units.numeric(pd.unique(series))


def _orderable(series: pd.Series) -> bool:
    """Numbers, or quantities with units: placed and sorted by value."""
    return _is_numeric(series) or _quantities(series) is not None


def _determined_by(table: pd.DataFrame, keys: List[str], column: str) -> bool:
    """True if `column` takes one value for each combination of `keys` (a linked key)."""
    if not keys:
        return False
    g = table.groupby([table[k].astype(str) for k in keys], sort=False)[column]
    return bool((g.nunique(dropna=False) <= 1).all())


def _default_x(table: pd.DataFrame, varying: List[str]) -> str:
    if not varying:
        return "seed"
    numeric = [c for c in varying if _orderable(table[c])]
    pool = numeric or varying
    return max(pool, key=lambda c: (table[c].nunique(), -varying.index(c)))


def _default_hue(table: pd.DataFrame, candidates: List[str]) -> Optional[str]:
    if not candidates:
        return None
    return min(candidates, key=lambda c: (table[c].nunique(), _orderable(table[c]),
                                          candidates.index(c)))


def _resolve_sweep(table: pd.DataFrame, x: Optional[str], hue, parameters) -> Tuple[str, List[str], List[str], List[str]]:
    """(x, hue columns, linked-to-x columns, folded columns)."""
    params = list(parameters) if parameters is not None else sweep_parameters(table)
    for c in params:
        if c not in table.columns:
            raise ValueError(f"parameter {c!r} is not a column of the sweep table")
    varying = [c for c in params if c != "seed" and table[c].nunique(dropna=False) > 1]
    if x is None:
        x = _default_x(table, varying)
    elif x not in table.columns:
        raise ValueError(f"no column {x!r} in the sweep table; parameters: "
                         f"{', '.join(params) or '(none)'}")
    linked = [c for c in varying if c != x and _determined_by(table, [x], c)]
    rest = [c for c in varying if c != x and c not in linked]
    if hue is None:
        h = _default_hue(table, rest)
        hues = [h] if h else []
    else:
        hues = [hue] if isinstance(hue, str) else list(hue)
        for h in hues:
            if h not in table.columns:
                raise ValueError(f"no column {h!r} in the sweep table; parameters: "
                                 f"{', '.join(params) or '(none)'}")
            if h == x:
                raise ValueError(f"hue and x are the same column {h!r}")
    keys = [x] + hues
    folded = [c for c in rest if c not in hues and not _determined_by(table, keys, c)]
    return x, hues, linked, folded


def sweep_facets(table: Union[pd.DataFrame, PathLike], col: str, x: Optional[str] = None,
                 y: str = "goodput_bps", hue: Union[str, Sequence[str], None] = None, *,
                 error: str = "sd", path: Optional[PathLike] = None,
                 parameters: Optional[Sequence[str]] = None, ncols: int = 3) -> Figure:
    """Small multiples for a sweep of two (or more) parameters: one panel per value of
    `col` (in numeric order when the values are numbers or quantities), each a
    `sweep_plot` of `y` against `x` with lines by `hue`, on a shared y axis.

    Example: ``sweep_facets(table, col="dumbbell.bottleneck.queue.kind",
    x="dumbbell.bottleneck.queue.limit", y="jain_index")``."""
    if not isinstance(table, pd.DataFrame):
        from .sweep import load_sweep

        table = load_sweep(table)
    if col not in table.columns:
        raise ValueError(f"no column {col!r} in the sweep table; parameters: {', '.join(sweep_parameters(table))}")
    params = [p for p in (parameters or sweep_parameters(table)) if p != col]
    values = list(pd.unique(table[col]))
    if _orderable(table[col]):
        values = sorted(values, key=units.sort_key)
    labels = _value_labels(values)
    n = len(values)
    cols = max(1, min(ncols, n))
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(4.6 * cols + 1.5, 3.8 * rows + 0.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, sharey=True, squeeze=False)).ravel()
    for a, v in zip(axes, values):
        sweep_plot(table[table[col] == v], x=x, y=y, hue=hue, error=error, ax=a, parameters=params)
        a.set_title(f"{_short(col)} = {labels.get(v, _fmt_value(v))}", fontsize="medium")
        if a.get_legend() is not None and a is not axes[n - 1]:
            a.get_legend().remove()  # one legend, on the last panel
    for a in axes[n:]:
        a.set_visible(False)
    what = _metric_label(y)[0]
    fig.suptitle(f"{what[0].upper()}{what[1:]} by {_short(col)}")
    return _save(fig, path)


def sweep_plot(table: Union[pd.DataFrame, PathLike], x: Optional[str] = None,
               y: str = "goodput_bps", hue: Union[str, Sequence[str], None] = None, *,
               error: str = "sd", path: Optional[PathLike] = None, ax=None,
               parameters: Optional[Sequence[str]] = None) -> Figure:
    """A metric of a sweep against a swept parameter, mean over seeds with error bars.

    Args:
        table: the DataFrame of `tcpsim.sweep.run_sweep` / `load_sweep` (one row per
            run), or a sweep output directory.
        x: the parameter on the x axis (a column name such as
            ``"dumbbell.bottleneck.queue.max_th"``). Default: the numeric parameter with
            the most distinct values (else the parameter with the most values).
        y: the metric column (default ``goodput_bps``; see `SWEEP_METRICS` for labels and
            units; other numeric columns, such as those of a ``metrics=`` function, work
            too).
        hue: parameter(s) drawn as separate lines. Default: the remaining parameter with
            the fewest values. Parameters that vary but are neither `x`, `hue` nor linked
            to them (varied together in the grid) are added to the line labels, so runs
            that differ in them are never averaged together.
        error: ``"sd"`` — error bars of ± one sample standard deviation across the seeds
            of each point; ``"ci95"`` — the 95 % confidence interval of the mean
            (Student's t, n − 1 degrees of freedom); ``"none"``. A point with one run
            has no bar.
        path: write a PNG there.
        ax: draw on this Axes instead of a new figure.
        parameters: the parameter columns, if `sweep_parameters` cannot tell.

    Returns the figure. Raises ValueError for unknown or non-numeric columns.
    """
    if not isinstance(table, pd.DataFrame):
        from .sweep import load_sweep

        table = load_sweep(table)
    if table.empty:
        raise ValueError("the sweep table has no runs")
    if error not in ("sd", "ci95", "none"):
        raise ValueError(f"error must be 'sd', 'ci95' or 'none', not {error!r}")
    if y not in table.columns:
        metrics = [c for c in table.columns if c not in sweep_parameters(table)
                   and _is_numeric(table[c])]
        raise ValueError(f"no column {y!r} in the sweep table; metrics: {', '.join(metrics)}")
    if not _is_numeric(table[y]):
        raise ValueError(f"column {y!r} is not numeric")
    x, hues, linked, folded = _resolve_sweep(table, x, hue, parameters)
    groups = hues + folded
    _, _, scale = _metric_label(y)

    df = table.copy()
    df["_y"] = df[y].astype(float) * scale
    x_numeric = _is_numeric(df[x])
    x_values = list(pd.unique(df[x]))
    quantities = _quantities(df[x])
    if x_numeric:
        x_values = sorted(x_values)
    elif quantities is not None:  # "50p", "10Mbps": placed by value, labelled as written
        x_numeric = True
        x_values = sorted(x_values, key=quantities[0].get)
    x_pos = {v: (quantities[0][v] if quantities else float(v)) for v in x_values} \
        if x_numeric else {v: float(i) for i, v in enumerate(x_values)}
    x_labels = _value_labels(x_values)
    group_labels = {c: _value_labels(list(pd.unique(df[c]))) for c in groups}

    fig, ax = _new_axes(ax, figsize=(8, 4.8))
    if groups:
        keyed = df.groupby([df[c] for c in groups], sort=False, dropna=False)
        parts = [((k,) if not isinstance(k, tuple) else k, sub) for k, sub in keyed]
        # hue values by value when they are numbers or quantities, else in the order
        # they first appear; then the folded parameters
        order = {}
        for c in groups:
            vals = list(pd.unique(df[c]))
            if _orderable(df[c]):
                vals = sorted(vals, key=units.sort_key)
            order[c] = {v: i for i, v in enumerate(vals)}
        parts.sort(key=lambda kv: tuple(order[c].get(v, -1) for c, v in zip(groups, kv[0])))
    else:
        parts = [((), df)]
    hue_index: Dict[tuple, int] = {}
    fold_index: Dict[tuple, int] = {}
    for key, _ in parts:
        hue_index.setdefault(tuple(key[: len(hues)]), len(hue_index))
        fold_index.setdefault(tuple(key[len(hues):]), len(fold_index))
    markers = ["o", "s", "^", "D", "v", "P", "X", "*"]
    styles = ["-", "--", ":", "-."]
    n_groups = len(parts)
    xs_all = np.asarray([x_pos[v] for v in x_values], dtype=float)
    log_x = bool(x_numeric and quantities is not None and xs_all.size > 2
                 and xs_all.min() > 0 and xs_all.max() / xs_all.min() >= 20)
    if log_x:
        dodge = 0.0
    elif x_numeric:
        span = np.diff(xs_all)
        gap = float(span.min()) if span.size else 1.0
        dodge = 0.06 * gap
    else:
        dodge = 0.08
    positions = x_pos
    runs_per_point = []
    for gi, (key, sub) in enumerate(parts):
        stats = sub.groupby(df.loc[sub.index, x], sort=False)["_y"].agg(["mean", "std", "count"])
        stats = stats.reindex([v for v in x_values if v in stats.index])
        runs_per_point += stats["count"].tolist()
        if error == "sd":
            err = stats["std"].fillna(0.0).to_numpy()
        elif error == "ci95":
            n = stats["count"].to_numpy()
            t = np.array([_t975(int(k) - 1) for k in n])
            err = np.where(n > 1, t * stats["std"].to_numpy() / np.sqrt(np.maximum(n, 1)), 0.0)
            err = np.nan_to_num(err)
        else:
            err = None
        offset = (gi - (n_groups - 1) / 2.0) * dodge
        xs = np.array([positions[v] for v in stats.index], dtype=float) + offset
        bits = []
        for c, v in zip(groups, key):
            label = group_labels[c].get(v, _fmt_value(v))
            bits.append(label if c in hues and len(hues) == 1 else f"{_short(c)}={label}")
        hi = hue_index[tuple(key[: len(hues)])] if hues else gi
        fi = fold_index[tuple(key[len(hues):])] if hues else 0
        ax.errorbar(xs, stats["mean"].to_numpy(), yerr=err, marker=markers[fi % len(markers)],
                    markersize=5, capsize=3, linewidth=1.4, color=f"C{hi % 10}",
                    linestyle=styles[fi % len(styles)] if x_numeric else "none",
                    label=", ".join(bits) if bits else _short(y))

    if not x_numeric:
        ax.set_xticks(range(len(x_values)))
        ax.set_xticklabels([x_labels[v] for v in x_values],
                           rotation=20 if max(len(x_labels[v]) for v in x_values) > 12 else 0)
        ax.set_xlim(-0.5, len(x_values) - 0.5)
    else:
        if log_x:
            ax.set_xscale("log")
        if quantities is not None and len(x_values) > 12:
            from matplotlib.ticker import EngFormatter

            ax.xaxis.set_major_formatter(EngFormatter(unit=units.UNITS[quantities[1]]))
    if x_numeric and len(x_values) <= 12:
        ax.set_xticks([positions[v] for v in x_values])
        ax.xaxis.set_minor_locator(NullLocator())
        if quantities is not None:
            ax.set_xticklabels([str(v) for v in x_values])
        if linked:
            ticks = []
            for v in x_values:
                row = df[df[x] == v].iloc[0]
                extra = ", ".join(f"{_short(c)}={_fmt_value(row[c])}" for c in linked)
                ticks.append(f"{_fmt_value(v)}\n({extra})")
            ax.set_xticklabels(ticks, fontsize="small")
    xlabel = x
    if quantities is not None:
        xlabel += f" ({units.UNITS[quantities[1]]})"
    if linked:
        xlabel += "\n(varied together with " + ", ".join(linked) + ")"
    what = _metric_label(y)[0]
    counts = sorted(set(int(c) for c in runs_per_point))
    n_text = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    how = {"sd": "mean ± 1 SD", "ci95": "mean ± 95 % CI", "none": "mean"}[error]
    title = f"{what[0].upper()}{what[1:]} vs {_short(x)}\n({how} over {n_text} run" \
            f"{'s' if counts != [1] else ''} per point)"
    # y is autoscaled to the data (differences between points matter more than zero),
    # but never past a bound the metric cannot cross (Jain's index is at most 1)
    _style(ax, title, xlabel, _axis_label(y), bottom0=False, left0=False)
    if y in BOUNDED_ABOVE:
        bound = BOUNDED_ABOVE[y] * scale
        low, high = ax.get_ylim()
        ax.set_ylim(min(low, bound * 0.999), bound if high > bound else high)
    legend_title = ", ".join(_short(c) for c in hues) if hues else None
    if folded:
        legend_title = ", ".join(_short(c) for c in groups)
    if groups:
        _legend(ax, legend_title, outside=n_groups > 4)
    return _save(fig, path)


def plot_sweep_all(table: Union[pd.DataFrame, PathLike], directory: PathLike, *,
                   x: Optional[str] = None, y: Optional[Sequence[str]] = None,
                   hue: Union[str, Sequence[str], None] = None, error: str = "sd",
                   parameters: Optional[Sequence[str]] = None,
                   col: Optional[str] = None) -> List[Path]:
    """Writes ``sweep_<metric>.png`` into `directory` for each metric in `y` (default:
    the `DEFAULT_SWEEP_METRICS` present in the table); returns the paths written. With
    `col`, each figure has one panel per value of that parameter (`sweep_facets`)."""
    if not isinstance(table, pd.DataFrame):
        from .sweep import load_sweep

        table = load_sweep(table)
    if y is None:
        y = [m for m in DEFAULT_SWEEP_METRICS if m in table.columns
             and table[m].notna().any()]
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for metric in y:
        path = out / f"sweep_{_safe_name(metric)}.png"
        if col is not None:
            sweep_facets(table, col, x=x, y=metric, hue=hue, error=error, path=path,
                         parameters=parameters)
        else:
            sweep_plot(table, x=x, y=metric, hue=hue, error=error, path=path,
                       parameters=parameters)
        written.append(path)
    return written


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
