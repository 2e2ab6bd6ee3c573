"""The document's figures redrawn from our runs, in the one style of every tcpsim
figure (`tcpsim.plots.style`: font sizes, constrained layout, `DPI`): PNG bytes for the
report, and the same figure as PDF or SVG when asked (``tcpsim reproduce --format``).

Axes that show a measurement are labelled from `tcpsim.reproduce.labels` (words and
unit, never the measurement's internal name); the x axis of a sweep is the experiment's
axis name with its values read as quantities (``"50Mbps"`` -> 50 on an axis in Mb/s).
"""

from __future__ import annotations

import textwrap
from typing import Dict, List, Optional, Sequence, Tuple

import matplotlib
import numpy as np
from matplotlib.font_manager import FontProperties

from .. import units
from ..plots.series import sampling_interval
from ..plots.style import legend, new_figure, styled, to_bytes
from ..results import load_results
from .checks import Measurements
from .labels import measure_label
from .measures import throughput_series
from .spec import Experiment, Figure, Ref

#: The y axis of each figure kind drawn against time.
TIME_AXIS_LABELS = {
    "throughput": "TCP throughput (Mb/s, 1 s bins)",
    "cwnd": "congestion window (packets)",
    "queue": "bottleneck queue (packets)",
    "utilization": "bottleneck utilization\n(fraction of the link rate, per {interval})",
}

#: The average width of a title character, in units of the font size: captions are
#: wrapped to as many characters as fit the figure's width (constrained layout makes
#: room for a title's lines but does not break them).
CHAR_WIDTH = 0.6

#: How an axis of quantities is shown: the dimension's scale and unit (rates in Mb/s).
AXIS_UNITS = {"rate": (1e-6, "Mb/s"), "time": (1.0, "s"), "packets": (1.0, "packets"),
              "bytes": (1.0, "bytes")}


def draw(ex: Experiment, fig: Figure, outcome, m: Measurements,
         formats: Sequence[str] = ()) -> Optional[Tuple[Dict[str, bytes], str]]:
    """The figure as file bytes by format — always ``"png"`` (the report embeds it), and
    each of `formats` — and a note; None when nothing of the figure could run."""
    drawn = _draw(ex, fig, outcome, m)
    if drawn is None:
        return None
    figure, note = drawn
    return {f: to_bytes(figure, f) for f in dict.fromkeys(("png", *formats))}, note


def _title(text: str, figure) -> str:
    """`text` broken into lines that fit across `figure` at the title's font size."""
    size = FontProperties(size=matplotlib.rcParams["axes.titlesize"]).get_size_in_points()
    return textwrap.fill(text, max(20, int(figure.get_figwidth() * 72 / (size * CHAR_WIDTH))))


@styled
def _draw(ex: Experiment, fig: Figure, outcome, m: Measurements):
    plan = outcome.plan
    seed = plan.seeds[0]
    cases = [c for c in ex.cases if fig.cases is None or c.name in fig.cases]
    runs = [(c, outcome.run_dirs.get((ex.name, c.name, fig.at, seed))) for c in cases]
    runs = [(c, d) for c, d in runs if d is not None]
    note = f"seed {seed}" + (f", {ex.axis_name} {fig.at}" if fig.at else "")
    if fig.kind in TIME_AXIS_LABELS:
        return (_against_time(fig, runs), note) if runs else None
    if fig.kind == "flow_throughput":
        return (_flow_throughput(fig, runs), note) if runs else None
    if fig.kind in ("sweep", "sweep_flows"):
        drawn = _sweep(ex, fig, cases, plan, outcome, m)
        return (drawn, f"mean ± SD over {len(plan.seeds)} seed(s)") if drawn is not None else None
    if fig.kind == "critical_window":
        return _critical_window(ex, fig, cases, plan, m)
    if fig.kind == "rounds_to_equilibrium":
        return _rounds_to_equilibrium(ex, fig, cases, plan, m)
    if fig.kind == "case_bars":
        drawn = _case_bars(ex, fig, m)
        return (drawn, f"mean ± SD over {len(plan.seeds)} seed(s)") if drawn is not None else None
    raise ValueError(f"unknown figure kind {fig.kind!r} in {ex.path}")


def _bottleneck(res) -> str:
    """The most utilised link direction: the bottleneck whose queue and utilization the
    figures show."""
    return res.links.loc[res.links["utilization"].astype(float).idxmax(), "link"]


def _against_time(fig: Figure, runs):
    """One curve per case (per flow for ``cwnd`` of several flows) against time.

    ``utilization`` is what the document plots in Figs. 13 and 16 of reference document
    001 ("bottleneck link utilization"): the bottleneck's busy fraction in each sampling
    interval, measured at the link, so it never exceeds 1 (by at most one packet per
    interval). ``throughput`` counts the payload the receivers got *in order* in each
    1 s bin (`throughput_series`), which can exceed the link rate: after a loss the
    receiver holds the segments that arrived behind the hole, and the retransmission
    that fills it releases them all at once, into one bin. Measured on document 001's E5
    (60 flows, 200 s, seed 1): at 1 Gb/s, NewReno's aggregate was above the link rate in
    58 of 200 one-second bins (at most 1015.5 Mb/s, 1937 packets over), FAST's in 1 (1009.3
    Mb/s), Vegas' and Quick Vegas' in none (they lose nothing); in the quick runs (100
    Mb/s) 41 of 800 bins of the four variants, by up to 5.6 %. Every such bin lay within
    3 s of a drop at the bottleneck, and the link's own utilization never passed 1. So
    the document's utilization figures are drawn from the link."""
    f = new_figure((8, 4.2))
    ax = f.add_subplot()
    per = ""
    for c, d in runs:
        res = load_results(d)
        tcp = list(res.flows.loc[res.flows["type"] == "tcp", "name"])
        if fig.kind == "queue":
            q = res.series("queue_pkts", [_bottleneck(res)])
            if not q.empty:
                ax.plot(q.index, q.iloc[:, 0].values, label=c.label, lw=0.9)
        elif fig.kind == "utilization":
            u = res.series("utilization", [_bottleneck(res)])
            if not u.empty:
                interval = sampling_interval(res)
                if interval:
                    per = f"{interval:g} s" if interval >= 1 else f"{interval * 1e3:g} ms"
                ax.step(u.index, u.iloc[:, 0].values, where="pre", label=c.label, lw=1.1)
        elif fig.kind == "throughput":
            s = throughput_series(res, tcp).sum(axis=1)
            ax.plot(s.index, s.values, label=c.label, lw=1.2)
        else:
            cw = res.series("cwnd", tcp)
            for col in cw.columns:
                ax.plot(cw.index, cw[col].values, label=c.label if len(tcp) == 1 else f"{c.label} {col}", lw=0.9)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(TIME_AXIS_LABELS[fig.kind].format(interval=per or "interval"))
    if fig.kind == "utilization":
        ax.set_ylim(0, 1.05)
    ax.set_title(_title(fig.caption, f))
    legend(ax)
    return f


def _flow_throughput(fig: Figure, runs):
    """One panel per case, one curve per TCP flow."""
    f = new_figure((8, 3.4 * len(runs) + 0.4))
    axes = f.subplots(len(runs), 1, sharex=True, squeeze=False)[:, 0]
    for ax, (c, d) in zip(axes, runs):
        res = load_results(d)
        tcp = list(res.flows.loc[res.flows["type"] == "tcp", "name"])
        s = throughput_series(res, tcp)
        for col in s.columns:
            ax.plot(s.index, s[col].values, label=col, lw=1.0)
        ax.set_ylabel("throughput\n(Mb/s, 1 s bins)")
        if len(runs) > 1:  # one case: the caption names it
            ax.set_title(c.label)
        legend(ax, "flow")
    axes[-1].set_xlabel("time (s)")
    f.suptitle(_title(fig.caption, f))
    return f


def _axis(ex: Experiment, pts: List[str]) -> Tuple[np.ndarray, str]:
    """The axis values `pts` as numbers and the x label: the axis name with the unit of
    its quantities (rates in Mb/s); plain numbers as they are."""
    read = units.numeric(pts)
    if read is None:
        return np.array([float(p) for p in pts]), ex.axis_name
    values, dimension = read
    scale, unit = AXIS_UNITS[dimension]
    return np.array([values[p] * scale for p in pts]), f"{ex.axis_name} ({unit})"


def _sweep(ex: Experiment, fig: Figure, cases, plan, outcome, m: Measurements):
    """``sweep``: each metric of `fig.metrics` in a panel, one line per case;
    ``sweep_flows``: one panel per case, one line per flow of ``metrics[0]``."""
    pts = [str(v) for v in ex.points(plan.quick)]
    xs, xlabel = _axis(ex, pts)
    metrics = fig.metrics or ["tcp_throughput_mbps"]
    if fig.kind == "sweep_flows":
        tab = outcome.table
        mine = tab[(tab.experiment == ex.name) & tab.metric.str.startswith(metrics[0] + ".")]
        panels = [(c, sorted({mm.split(".", 1)[1] for mm in mine.loc[mine.case == c.name, "metric"]}))
                  for c in cases]
        panels = [(c, fl) for c, fl in panels if fl]
        if not panels:
            return None
        series = [(c.label, [(fl, [Ref(ex.name, c.name, p, f"{metrics[0]}.{fl}") for p in pts]) for fl in flows],
                   metrics[0]) for c, flows in panels]
        title = "flow"
    else:
        series = [(None, [(c.label, [Ref(ex.name, c.name, p, metric) for p in pts]) for c in cases], metric)
                  for metric in metrics]
        title = None
    f = new_figure((max(6.4, 4.6 * len(series) + 0.8), 4.2))
    axes = f.subplots(1, len(series), squeeze=False, sharey=fig.kind == "sweep_flows")[0]
    drawn = False
    for ax, (panel_title, lines, metric) in zip(axes, series):
        for label, refs in lines:
            st = [m.stat(r) for r in refs]
            if not any(s.n for s in st):
                continue
            drawn = True
            ax.errorbar(xs, [s.mean for s in st], yerr=[s.sd for s in st], marker="o", ms=4,
                        label=label, capsize=2)
        if panel_title:
            ax.set_title(panel_title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(measure_label(metric))
        legend(ax, title)
    if not drawn:
        return None
    f.suptitle(_title(fig.caption, f))
    return f


def _theory_beside_simulation(fig: Figure, ex: Experiment, cases, pts: List[str], xs, metric: str, m: Measurements,
                              curves, grid, labels: Tuple[str, str], log_x: bool, note: str):
    """Each case's `metric` at the axis points `pts` (placed at `xs`) as markers, beside
    the analysis `curves` ((label, function of x) pairs) drawn over `grid`, log y;
    `labels`: the x and y axes in the paper's words."""
    f = new_figure((7.5, 4.4))
    ax = f.add_subplot()
    drawn = False
    for i, c in enumerate(cases):
        st = [m.stat(Ref(ex.name, c.name, p, metric)) for p in pts]
        if not any(s.n for s in st):
            continue
        drawn = True
        ax.plot(xs, [s.mean for s in st], marker="os^D"[i % 4], ms=6, ls="none", color=f"C{i}",
                label=f"{c.label} (simulation)")
    for i, (label, fn) in enumerate(curves):
        ax.plot(grid, [fn(x) for x in grid], color=f"C{i}", lw=1.2, ls="-" if i == 0 else "--", label=label)
    if log_x:
        ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.grid(True, which="both")
    legend(ax)
    ax.set_title(_title(fig.caption, f))
    if not drawn:
        return None
    return f, note


def _critical_window(ex: Experiment, fig: Figure, cases, plan, m: Measurements):
    """Reference document 001 Fig. 4: the window on leaving slow start (``ss_exit_cwnd``)
    against the bandwidth-delay product μd (packets of 1000 B: the axis's bottleneck rate
    × the experiment's BaseRTT), each case's runs as markers beside the analysis of
    Sect. 4: Vegas Eq. (6), Quick Vegas Eq. (10) (`tcpsim.reproduce.quick_vegas`)."""
    from .._core import parse_quantity
    from .quick_vegas import critical_window_quick_vegas, critical_window_vegas

    if not ex.base_rtt_s:
        raise ValueError(f"figure kind 'critical_window' needs [experiment.events] base_rtt_s in {ex.path}")
    pts = [str(v) for v in ex.points(plan.quick)]
    mu_d = np.array([parse_quantity("rate", p)[0] * ex.base_rtt_s / 8000.0 for p in pts])
    grid = np.geomspace(max(mu_d.min() * 0.8, 1.0), mu_d.max() * 1.25, 100)
    curves = [("Vegas, Eq. (6)", critical_window_vegas), ("Quick Vegas, Eq. (10)", critical_window_quick_vegas)]
    return _theory_beside_simulation(
        fig, ex, cases, pts, mu_d, "ss_exit_cwnd", m, curves, grid,
        ("bandwidth-delay product μd (packets)", "critical window (packets)"), True,
        f"simulation: seed {plan.seeds[0]}; lines: the paper's analysis")


def _rounds_to_equilibrium(ex: Experiment, fig: Figure, cases, plan, m: Measurements):
    """Reference document 001 Fig. 5: rounds (BaseRTTs) to the new equilibrium when the
    available bandwidth grows n times from window W: each case's `metric` (``conv_rtts.N``)
    at the axis values, whose n the figure lists (``n = [...]``), beside the analysis:
    Vegas (n − 1) W, Quick Vegas Eq. (12) (`tcpsim.reproduce.quick_vegas`)."""
    from .quick_vegas import rounds_to_equilibrium_quick_vegas, rounds_to_equilibrium_vegas

    ns = [float(x) for x in fig.extra.get("n", [])]
    w = float(fig.extra.get("window", 0))
    metric = str(fig.extra.get("metric", "conv_rtts.1"))
    pts = [str(v) for v in ex.points(plan.quick)]
    all_pts = [str(v) for v in ex.axis_values]
    if len(ns) != len(all_pts) or w <= 0:
        raise ValueError(f"figure {fig.id} in {ex.path}: 'rounds_to_equilibrium' needs n (one per axis value) and window")
    n_of = dict(zip(all_pts, ns))
    xs = np.array([n_of[p] for p in pts])
    curves = [("Vegas, (n - 1) W", lambda x: rounds_to_equilibrium_vegas(w, x)),
              ("Quick Vegas, Eq. (12)", lambda x: rounds_to_equilibrium_quick_vegas(w, x))]
    return _theory_beside_simulation(
        fig, ex, cases, pts, xs, metric, m, curves, np.linspace(min(ns), max(ns), 50),
        ("n (available bandwidth multiplied by)", "rounds to the new equilibrium (BaseRTTs)"), False,
        f"simulation: seed {plan.seeds[0]}; lines: the paper's analysis, W = {w:g}")


def _case_bars(ex: Experiment, fig: Figure, m: Measurements):
    """``case_bars``: each metric of `fig.metrics` in a panel, cases side by side as bars,
    mean ± SD over seeds, in groups: ``groups = [{ label, cases = ["EXPERIMENT:CASE", ...]
    }, ...]`` (a case may be of another experiment of the document), the i-th case of
    every group one bar labelled ``bars[i]`` in one colour (document 000's E6: each fix,
    by mix)."""
    bars = [str(b) for b in fig.extra.get("bars", [])]
    groups = fig.extra.get("groups", [])
    if not fig.metrics or not bars or not groups or any(len(g.get("cases", [])) != len(bars) for g in groups):
        raise ValueError(f"figure {fig.id} in {ex.path}: 'case_bars' needs metrics, bars and groups "
                         f"whose cases (EXPERIMENT:CASE) are one per bar")
    stats = {metric: [[m.stat(Ref(*str(c).split(":", 1), None, metric)) for c in g["cases"]] for g in groups]
             for metric in fig.metrics}
    if not any(st.n for rows in stats.values() for row in rows for st in row):
        return None
    f = new_figure((max(6.4, 1.2 + 0.45 * len(bars) * len(groups)), 0.4 + 3.6 * len(fig.metrics)))
    axes = f.subplots(len(fig.metrics), 1, sharex=True, squeeze=False)[:, 0]
    width = 0.8 / len(bars)
    xs = np.arange(len(groups))
    for ax, (metric, rows) in zip(axes, stats.items()):
        for i, label in enumerate(bars):
            column = [row[i] for row in rows]
            ax.bar(xs + (i - (len(bars) - 1) / 2) * width, [s.mean if s.n else np.nan for s in column], width,
                   yerr=[s.sd if s.n else 0.0 for s in column], capsize=2, label=label)
        ax.set_ylabel(textwrap.fill(measure_label(metric), 28))
    axes[-1].set_xticks(xs, [str(g.get("label", "")) for g in groups])
    legend(axes[0], None, outside=True)
    f.suptitle(_title(fig.caption, f))
    return f
