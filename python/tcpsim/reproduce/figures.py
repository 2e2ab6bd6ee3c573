"""The document's figures redrawn from our runs, in the one style of every tcpsim
figure (`tcpsim.plots.style`: font sizes, constrained layout, `DPI`): PNG bytes for the
report, and the same figure as PDF or SVG when asked (``tcpsim reproduce --format``).

Axes that show a measurement are labelled from `tcpsim.reproduce.labels` (words and
unit, never the measurement's internal name); the x axis of a sweep is the experiment's
axis name with its values read as quantities (``"50Mbps"`` -> 50 on an axis in Mb/s).

A figure against time with ``panels`` (`Figure.panels`) draws one panel per case, in
the document's order and lettered as the document letters them, on shared axes: the
layout of a thesis' "(a) 5V, drop-tail, (b) 5V, RED, ..." figures.
"""

from __future__ import annotations

import math
import textwrap
from typing import Dict, List, Optional, Sequence, Tuple

import matplotlib
from matplotlib.colors import to_hex
import numpy as np
from matplotlib.font_manager import FontProperties

from .. import units

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]
from ..plots.series import EARLY_DROPS, OVERFLOW_DROPS, RED_AVERAGE, _metric, sampling_interval
from ..plots.style import legend, new_figure, styled, to_bytes
from ..results import load_results
from .checks import Measurements
from .labels import measure_label
from .measures import throughput_series
from .spec import PANEL_KINDS, Experiment, Figure, Ref

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


def _title(text: str, figure, columns: int = 1) -> str:
    """`text` broken into lines that fit across `figure` at the title's font size — or
    across one of its `columns` of panels, for a panel's own title."""
    size = FontProperties(size=matplotlib.rcParams["axes.titlesize"]).get_size_in_points()
    width = figure.get_figwidth() / columns
    return textwrap.fill(text, max(20, int(width * 72 / (size * CHAR_WIDTH))))


@styled
def _draw(ex: Experiment, fig: Figure, outcome, m: Measurements):
    plan = outcome.plan
    seed = plan.seeds[0]
    cases = [c for c in ex.cases if fig.cases is None or c.name in fig.cases]
    runs = [(c, outcome.run_dirs.get((ex.name, c.name, fig.at, seed))) for c in cases]
    runs = [(c, d) for c, d in runs if d is not None]
    note = f"seed {seed}" + (f", {ex.axis_name} {fig.at}" if fig.at else "")
    if fig.panels is not None:
        # the panels in the figure's order of cases (the document's), not the experiment's
        ordered = [ex.case(name) for name in fig.cases] if fig.cases else ex.cases
        lettered = [(letter, c, outcome.run_dirs.get((ex.name, c.name, fig.at, seed)))
                    for letter, c in zip(fig.panels, ordered)]
        lettered = [(letter, c, d) for letter, c, d in lettered if d is not None]
        if fig.kind == "queue":
            note += "; each drop mark: a monitor interval with drops; legend: the run's drops"
        return (_panels(fig, lettered), note) if lettered else None
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
    if fig.kind in ("aqm_performance", "group_goodput"):
        ordered = [ex.case(name) for name in fig.cases] if fig.cases else ex.cases
        letters = fig.extra.get("letters") or [chr(ord("a") + k) for k in range(len(ordered))]
        lettered = [(letter, c, outcome.run_dirs.get((ex.name, c.name, fig.at, seed)))
                    for letter, c in zip(letters, ordered)]
        lettered = [(letter, c, d) for letter, c, d in lettered if d is not None]
        if not lettered:
            return None
        draw_kind = _aqm_performance if fig.kind == "aqm_performance" else _group_goodput
        return draw_kind(fig, lettered), note + f"; rates in {_bin_s(fig):g} s bins"
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
        ax.set_ylabel(textwrap.fill(measure_label(metric), 40))  # long labels would run off the figure
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


# ============================================================================ panels

#: The y axis of each kind of panel (``flow_throughput``: each flow's, as `_flow_throughput`).
PANEL_AXIS_LABELS = {**TIME_AXIS_LABELS, "flow_throughput": "throughput (Mb/s, 1 s bins)"}
assert set(PANEL_AXIS_LABELS) == set(PANEL_KINDS), "every panel kind of spec.PANEL_KINDS needs a y label"

#: Colour maps of the flows' congestion controls, taken in the order of the controls'
#: names (`_control_order`): the flows of one control in shades of one hue, so that a
#: panel of nine Vegas and one Reno flow reads as two groups, and a control keeps its
#: hue in every panel and every figure of a document.
GROUP_COLORMAPS = ("Blues", "Oranges", "Greens", "Purples", "Greys")

#: The drop marks along the top of a queue panel: what they count, colour, marker, and
#: height in axes fraction. Each mark is one sampling interval with at least one drop
#: of that kind (the queue's ``early_drops`` / ``overflow_drops`` series, exact counts
#: per interval); the legend gives the run's total.
DROP_MARKS = (("overflow", OVERFLOW_DROPS, "drops, buffer full", "tab:red", "|", 0.95),
              ("early", EARLY_DROPS, "early drops (RED)", "tab:orange", "|", 0.89))

#: A panel's legend names each flow up to this many flows, and each congestion control
#: beyond (its flows in shades of one hue), so that ten flows do not bury the curves.
MAX_FLOW_ENTRIES = 5

#: Room above a queue panel's highest sample for the drop marks (its y limit over it).
QUEUE_HEADROOM = 1.25


def _panels(fig: Figure, lettered):
    """`fig` as one panel per case — `lettered` is (letter, case, run directory) in the
    document's order — two columns as the document sets (a)(b) side by side, shared
    time and y axes, each panel titled "(letter) case label"."""
    n = len(lettered)
    cols = 2 if n > 1 else 1
    rows = math.ceil(n / cols)
    f = new_figure((10 if cols == 2 else 8, 2.5 * rows + 1.1))
    axes = f.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    loaded = [(letter, c, load_results(d)) for letter, c, d in lettered]
    controls = _control_order([res for _, _, res in loaded])
    top = 0.0
    for ax, (letter, c, res) in zip(axes.flat, loaded):
        top = max(top, _panel(ax, fig, res, _flow_colors(res, controls)))
        ax.set_title(_title(f"({letter}) {c.label}" if letter else c.label, f, cols), loc="left")
        legend(ax, None, outside=False)
        for text in (ax.get_legend().get_texts() if ax.get_legend() else ()):
            text.set_fontsize("small")
    for k, ax in enumerate(axes.flat):
        if k >= n:  # an odd number of panels: the last cell stays empty
            ax.set_visible(False)
            axes.flat[k - cols].xaxis.set_tick_params(labelbottom=True)
    if fig.kind == "queue" and top > 0:
        axes.flat[0].set_ylim(0, top * QUEUE_HEADROOM)
    elif fig.kind == "utilization":
        axes.flat[0].set_ylim(0, 1.05)
    else:
        axes.flat[0].set_ylim(bottom=0)
    axes.flat[0].set_xlim(left=0)
    per = _interval_text(loaded[0][2])
    f.supxlabel("time (s)")
    f.supylabel(PANEL_AXIS_LABELS[fig.kind].format(interval=per or "interval"))
    f.suptitle(_title(fig.caption, f))
    return f


def _interval_text(res) -> str:
    interval = sampling_interval(res)
    if not interval:
        return ""
    return f"{interval:g} s" if interval >= 1 else f"{interval * 1e3:g} ms"


def _panel(ax, fig: Figure, res, colors: Dict[str, str]) -> float:
    """Draws one run's `fig.kind` in `ax`; returns the highest queue sample (0 for other
    kinds)."""
    kind = fig.kind
    tcp = list(res.flows.loc[res.flows["type"] == "tcp", "name"])
    if kind == "queue":
        return _queue_panel(ax, res, fig.extra.get("queue") or _bottleneck(res))
    if kind == "utilization":
        u = res.series("utilization", [_bottleneck(res)])
        if not u.empty:
            ax.step(u.index, u.iloc[:, 0].values, where="pre", lw=1.0)
    elif kind == "throughput":
        s = throughput_series(res, tcp).sum(axis=1)
        ax.plot(s.index, s.values, lw=1.1)
    else:
        wide = _from_start(res, throughput_series(res, tcp) if kind == "flow_throughput" else res.series("cwnd", tcp))
        drawn = [n for n in tcp if n in wide.columns]
        labels = _flow_labels(res) if len(drawn) <= MAX_FLOW_ENTRIES else _control_labels(res, drawn)
        for name in drawn:
            ax.plot(wide.index, wide[name].values, color=colors.get(name), lw=0.9, label=labels.get(name, "_"))
    return 0.0


def _queue_panel(ax, res, queue: str) -> float:
    """The length of `queue` (the figure's ``queue = "r1->r2"``, else the bottleneck),
    RED's average queue when the queue is RED, and a mark along the top for every
    sampling interval in which the queue dropped (overflow and early drops in rows of
    their own): the document's "queue size and drop times"."""
    q = res.series("queue_pkts", [queue])
    if q.empty:
        sampled = sorted(res.timeseries.loc[res.timeseries["metric"] == "queue_pkts", "entity"].unique())
        raise ValueError(f"the queue figure asks for queue {queue!r}, which the run did not sample "
                         f"(sampled: {', '.join(sampled) or 'none'}; [base.monitor] queues)")
    ax.plot(q.index, q.iloc[:, 0].values, color="C0", lw=0.8)  # the y axis says what it is
    average = _metric(res, RED_AVERAGE)
    avg = res.series(average, [queue]) if average else q.iloc[0:0]
    if not avg.empty:
        ax.plot(avg.index, avg.iloc[:, 0].values, color="k", ls="--", lw=1.1, label="RED average")
    if _drop_marks(ax, res, queue) == 0:
        ax.text(0.98, DROP_MARKS[0][-1], "no drops", transform=ax.transAxes, ha="right",
                va="center", color="0.35", fontsize="small")
    return float(q.iloc[:, 0].max())


def _drop_marks(ax, res, queue: str) -> int:
    """Marks the drop times of `queue` along the top of `ax` (`DROP_MARKS`); returns how
    many intervals were marked."""
    trans = ax.get_xaxis_transform()  # x in data, y in axes fraction
    marked = 0
    for _, candidates, label, color, marker, y in DROP_MARKS:
        metric = _metric(res, candidates)
        counts = res.series(metric, [queue]) if metric else None
        if counts is None or counts.empty:
            continue
        per = counts.iloc[:, 0].fillna(0)
        hits = per[per > 0]
        if hits.empty:
            continue
        ax.plot(hits.index, np.full(len(hits), y), ls="none", marker=marker, ms=6, mew=1.0, color=color,
                transform=trans, label=f"{label}: {int(hits.sum()):,}")
        marked += len(hits)
    return marked


def _from_start(res, wide):
    """`wide` (one column per flow) without the samples before each flow starts: a
    window sampled before its flow sends (its initial value) is not a window in use, and
    the zero throughput of a flow not yet started would bury the others' curves at 0."""
    starts = res.flows.set_index("name")["start_s"].astype(float)
    t = wide.index.to_numpy(dtype=float)
    return wide.apply(lambda col: col.where(t >= starts.get(col.name, 0.0)))


def _flow_labels(res) -> Dict[str, str]:
    """Each TCP flow's legend entry: its name, with its congestion control when the name
    does not say it ("S1 (vegas)"; "Vegas1" as it is)."""
    tcp = res.flows.loc[res.flows["type"] == "tcp"]
    return {name: name if (not cc or cc.lower() in name.lower()) else f"{name} ({cc})"
            for name, cc in zip(tcp["name"], tcp["cc"].fillna("").astype(str))}


def _control_labels(res, drawn: List[str]) -> Dict[str, str]:
    """One legend entry per congestion control, on its middle flow (the shade between
    its darkest and lightest): "vegas: Vegas1-Vegas8" for a run of many flows (a range
    only when the control's flows follow one another in the flows table)."""
    tcp = res.flows.loc[res.flows["type"] == "tcp"].set_index("name")
    out: Dict[str, str] = {}
    for cc in dict.fromkeys(tcp.loc[drawn, "cc"].fillna("").astype(str)):
        names = [n for n in drawn if str(tcp.at[n, "cc"]) == cc]
        places = [drawn.index(n) for n in names]
        consecutive = len(names) > 2 and places == list(range(places[0], places[0] + len(names)))
        which = f"{names[0]}-{names[-1]}" if consecutive else ", ".join(names)
        out[names[len(names) // 2]] = f"{cc}: {which}"
    return out


def _control_order(runs) -> List[str]:
    """The congestion controls of the TCP flows of `runs`, by name: a control keeps its
    hue in every figure of a document whichever flow comes first."""
    return sorted({str(cc) for res in runs for cc in res.flows.loc[res.flows["type"] == "tcp", "cc"].fillna("")})


def _flow_colors(res, controls: List[str]) -> Dict[str, str]:
    """Each TCP flow of `res`: its colour, a shade of its control's hue (the control's
    place in `controls` picks the `GROUP_COLORMAPS` map), darkest first."""
    tcp = res.flows.loc[res.flows["type"] == "tcp"]
    colors: Dict[str, str] = {}
    for cc in controls:
        names = list(tcp.loc[tcp["cc"].fillna("").astype(str) == cc, "name"])
        cmap = matplotlib.colormaps[GROUP_COLORMAPS[controls.index(cc) % len(GROUP_COLORMAPS)]]
        shades = np.linspace(0.95, 0.45, len(names)) if len(names) > 1 else [0.75]
        colors.update({n: to_hex(cmap(x)) for n, x in zip(names, shades)})
    return colors
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


# ============================================================================ document 002

#: The rows of reference document 002's performance figures (Figs 3-2 to 3-10, 4-1 to
#: 4-3, 4-7 to 4-9, B-1 to B-3), top to bottom: what each shows and its y label.
AQM_ROWS = (
    ("utilization", "link utilization\n(per {bin})"),
    ("rates", "throughput, goodput\n(packets/s, per {bin})"),
    ("queue", "queue size\n(packets, per {sample})"),
    ("loss", "packet loss rate\n(%, per {bin})"),
    ("delay", "queueing delay\n(ms, per {sample})"),
)


def _bin_s(fig: Figure) -> float:
    """The bin of a document 002 figure's rates (``bin_s``, default 1 s): the thesis
    samples every 10 ms, which a 100 s axis cannot show as rates."""
    return float(fig.extra.get("bin_s", 1.0))


def _binned(series, bin_s: float, how: str = "sum"):
    """`series` (indexed by sample time; each sample covers the interval ending at it)
    summed or averaged per bin of `bin_s` seconds, indexed by the bin's end."""
    if series.empty:
        return series
    t = series.index.to_numpy(dtype=float)
    bins = np.ceil(np.round(t / bin_s, 9)) * bin_s
    g = series.groupby(bins)
    out = g.sum() if how == "sum" else g.mean()
    return out[out.index > 0]


def _bins(ax, binned, bin_s: float, **kw) -> None:
    """Draws `binned` (`_binned`: one value per bin, indexed by the bin's end) as a
    staircase, each value over its own bin."""
    edges = np.r_[binned.index[0] - bin_s, binned.index.to_numpy(dtype=float)]
    ax.stairs(binned.to_numpy(dtype=float), edges, lw=1.0, baseline=None, **kw)


def _group_names(res) -> List[str]:
    """The groups of the run's flows (the flows table's ``group``), in order."""
    if "group" not in res.flows.columns:
        return []
    return [g for g in dict.fromkeys(res.flows["group"].fillna("").astype(str)) if g]


def _packet_sizes(res) -> Optional[Tuple[float, float]]:
    """(payload, wire) bytes of the first flow's data packets, from the run's scenario,
    a size it does not give at the TCP model's default (`tcpsim.models`); None without
    the scenario's text: throughput counts wire bytes and goodput payload, so both are
    drawn in packets."""
    from .. import models

    if not res.scenario_text:
        return None
    flows = _toml.loads(res.scenario_text).get("flow", [])
    flow = flows[0] if flows else {}
    spec = models.get("agent", "tcp")

    def size(key: str) -> float:
        if key in flow:
            return float(units.parse(flow[key])[0])
        return float(spec.param(key).default)

    payload = size("packet_size")
    return payload, payload + size("header_size")


def _aqm_rows(res, bin_s: float):
    """The five curves of one run of a document 002 performance figure, by row."""
    top = _bottleneck(res)

    def one(metric: str):
        wide = res.series(metric, [top])
        return None if wide.empty else wide.iloc[:, 0]

    rows = {}
    u = one("utilization")
    rows["utilization"] = [("", _binned(u, bin_s, "mean"))] if u is not None else []
    groups = _group_names(res)
    sizes = _packet_sizes(res)
    rows["rates"] = []
    if sizes is not None:
        names = groups or list(res.flows.loc[res.flows["type"] == "tcp", "name"])
        for label, metric, size in (("throughput", "received_bytes", sizes[1]), ("goodput", "delivered_bytes", sizes[0])):
            wide = res.series(metric, names)
            if not wide.empty:
                rows["rates"].append((label, _binned(wide.sum(axis=1) / size, bin_s) / bin_s))
    q = one("queue_pkts")
    rows["queue"] = [("", q)] if q is not None else []
    arrivals, early, overflow = one("arrivals"), one("early_drops"), one("overflow_drops")
    rows["loss"] = []
    if arrivals is not None and early is not None and overflow is not None:
        a = _binned(arrivals, bin_s)
        lost = _binned(early.fillna(0) + overflow.fillna(0), bin_s)
        rows["loss"] = [("", (100 * lost / a.where(a > 0)).fillna(0.0))]
    d = one("sojourn_s")
    rows["delay"] = [("", d * 1e3)] if d is not None else []
    return rows


def _aqm_performance(fig: Figure, lettered):
    """Reference document 002's performance figure: five rows (link utilization,
    throughput and goodput, queue size, packet loss rate, queueing delay) against time,
    one column per case (the thesis' (a) baseline, (b) variant), from the bottleneck's
    time series and the groups' (or flows') ``received_bytes`` and ``delivered_bytes``.
    Rates are binned (``bin_s``); the queue and the delay are drawn per sample. The
    goodput drawn is the payload delivered in order, in which a retransmission that
    fills a hole counts: the gap to the throughput is the duplicates received. The
    thesis' goodput leaves out every retransmitted packet (Sect. 2.3.4); the measure
    ``retransmit_fraction`` gives that share, the time series has no such count."""
    bin_s = _bin_s(fig)
    cols = len(lettered)
    f = new_figure((4.6 * cols + 1.2, 11.5))
    axes = f.subplots(len(AQM_ROWS), cols, sharex=True, sharey="row", squeeze=False)
    loaded = [(letter, c, load_results(d)) for letter, c, d in lettered]
    sample = _interval_text(loaded[0][2]) or "sample"
    per_bin = f"{bin_s:g} s"
    for j, (letter, c, res) in enumerate(loaded):
        rows = _aqm_rows(res, bin_s)
        for i, (row, ylabel) in enumerate(AQM_ROWS):
            ax = axes[i, j]
            for k, (label, series) in enumerate(rows[row]):
                if series is None or series.empty:
                    continue
                if row in ("utilization", "rates", "loss"):
                    _bins(ax, series, bin_s, color=f"C{k}", label=label or None)
                else:
                    ax.plot(series.index, series.values, lw=0.8, color=f"C{k}", label=label or None)
            if row == "rates" and rows[row]:
                legend(ax, None, outside=False)
            if j == 0:
                ax.set_ylabel(ylabel.format(bin=per_bin, sample=sample))
        axes[0, j].set_title(_title(f"({letter}) {c.label}" if letter else c.label, f, cols), loc="left")
    axes[0, 0].set_xlim(left=0)
    for i in range(len(AQM_ROWS)):
        axes[i, 0].set_ylim(bottom=0)
    f.supxlabel("time (s)")
    f.suptitle(_title(fig.caption, f))
    return f


def _group_goodput(fig: Figure, lettered):
    """Reference document 002's per-subnet goodput figures (Figs 3-11 to 3-14, 4-4, 4-5,
    4-10, 4-11): each group's goodput (its ``delivered_bytes`` series, payload delivered
    in order) against time, binned (``bin_s``), one panel per case."""
    bin_s = _bin_s(fig)
    n = len(lettered)
    cols = 2 if n > 1 else 1
    rows = math.ceil(n / cols)
    f = new_figure((10 if cols == 2 else 8, 3.0 * rows + 1.1))
    axes = f.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    for ax, (letter, c, d) in zip(axes.flat, lettered):
        res = load_results(d)
        groups = _group_names(res)
        wide = res.series("delivered_bytes", groups)
        for k, g in enumerate([g for g in groups if g in wide.columns]):
            _bins(ax, _binned(wide[g], bin_s) * 8 / bin_s / 1e6, bin_s, color=f"C{k}", label=g)
        ax.set_title(_title(f"({letter}) {c.label}" if letter else c.label, f, cols), loc="left")
        legend(ax, "group", outside=False)
    for k, ax in enumerate(axes.flat):
        if k >= n:
            ax.set_visible(False)
    axes.flat[0].set_ylim(bottom=0)
    axes.flat[0].set_xlim(left=0)
    f.supxlabel("time (s)")
    f.supylabel(f"goodput (Mb/s, per {bin_s:g} s)")
    f.suptitle(_title(fig.caption, f))
    return f
