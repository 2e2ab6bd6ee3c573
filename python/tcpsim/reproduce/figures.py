"""The document's figures redrawn from our runs (matplotlib, PNG bytes)."""

from __future__ import annotations

import io
from typing import Dict, List, Optional, Tuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..results import load_results  # noqa: E402
from .checks import Measurements  # noqa: E402
from .measures import throughput_series  # noqa: E402
from .spec import Experiment, Figure, Ref  # noqa: E402

METRIC_LABELS = {
    "tcp_throughput_mbps": "TCP throughput (Mb/s)",
    "tcp_drop_rate": "TCP drop rate",
    "udp_received": "UDP packets received",
    "flow_throughput_mbps": "throughput (Mb/s)",
    "cwnd": "cwnd (packets)",
}


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def draw(ex: Experiment, fig: Figure, outcome, m: Measurements) -> Optional[Tuple[bytes, str]]:
    """PNG bytes and a note, or None when nothing of the figure could run."""
    plan = outcome.plan
    seed = plan.seeds[0]
    cases = [c for c in ex.cases if fig.cases is None or c.name in fig.cases]
    runs = [(c, outcome.run_dirs.get((ex.name, c.name, fig.at, seed))) for c in cases]
    runs = [(c, d) for c, d in runs if d is not None]
    note = f"seed {seed}" + (f", {ex.axis_name} {fig.at}" if fig.at else "")
    if fig.kind in ("throughput", "cwnd", "queue"):
        if not runs:
            return None
        f, ax = plt.subplots(figsize=(7.5, 3.6))
        for c, d in runs:
            res = load_results(d)
            tcp = list(res.flows.loc[res.flows["type"] == "tcp", "name"])
            if fig.kind == "queue":
                # the bottleneck: the most utilised link direction's queue
                top = res.links.loc[res.links["utilization"].astype(float).idxmax(), "link"]
                q = res.series("queue_pkts", [top])
                if not q.empty:
                    ax.plot(q.index, q.iloc[:, 0].values, label=c.label, lw=0.9)
            elif fig.kind == "throughput":
                s = throughput_series(res, tcp).sum(axis=1)
                ax.plot(s.index, s.values, label=c.label, lw=1.2)
            else:
                cw = res.series("cwnd", tcp)
                for col in cw.columns:
                    ax.plot(cw.index, cw[col].values, label=c.label if len(tcp) == 1 else f"{c.label} {col}", lw=0.9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel({"throughput": "TCP throughput (Mb/s, 1 s bins)", "cwnd": "cwnd (packets)",
                       "queue": "bottleneck queue (packets)"}[fig.kind])
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        ax.set_title(fig.caption, fontsize=9)
        return _png(f), note
    if fig.kind == "flow_throughput":
        if not runs:
            return None
        f, axes = plt.subplots(len(runs), 1, figsize=(7.5, 3.2 * len(runs)), squeeze=False)
        for ax, (c, d) in zip(axes[:, 0], runs):
            res = load_results(d)
            tcp = list(res.flows.loc[res.flows["type"] == "tcp", "name"])
            s = throughput_series(res, tcp)
            for col in s.columns:
                ax.plot(s.index, s[col].values, label=col, lw=1.0)
            ax.set_ylabel("throughput (Mb/s, 1 s bins)")
            ax.set_title(f"{fig.caption}" if len(runs) == 1 else c.label, fontsize=9)
            ax.legend(fontsize=7, ncol=5)
            ax.grid(alpha=0.3)
        axes[-1, 0].set_xlabel("time (s)")
        return _png(f), note
    if fig.kind in ("sweep", "sweep_flows"):
        pts = [str(v) for v in ex.points(plan.quick)]
        xs = np.array([float(pd.to_numeric(p.rstrip("Mbps").rstrip("Kkb"), errors="coerce")) for p in pts])
        metrics = fig.metrics or ["tcp_throughput_mbps"]
        if fig.kind == "sweep_flows":
            tab = outcome.table
            panels = [(c, sorted({mm.split(".", 1)[1] for mm in tab.loc[(tab.experiment == ex.name) & (tab.case == c.name)
                                  & tab.metric.str.startswith(metrics[0] + "."), "metric"]})) for c in cases]
            panels = [(c, fl) for c, fl in panels if fl]
            if not panels:
                return None
            f, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
            for ax, (c, flows) in zip(axes[0], panels):
                for fl in flows:
                    st = [m.stat(Ref(ex.name, c.name, p, f"{metrics[0]}.{fl}")) for p in pts]
                    ax.errorbar(xs, [s.mean for s in st], yerr=[s.sd for s in st], marker="o", ms=3, label=fl, capsize=2)
                ax.set_title(c.label, fontsize=9)
                ax.set_xlabel(ex.axis_name + " (Mb/s)")
                ax.set_ylabel(METRIC_LABELS.get(metrics[0], metrics[0]))
                ax.legend(fontsize=7)
                ax.grid(alpha=0.3)
            f.suptitle(fig.caption, fontsize=9)
            return _png(f), f"mean ± SD over {len(plan.seeds)} seed(s)"
        f, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 3.4), squeeze=False)
        drawn = False
        for ax, metric in zip(axes[0], metrics):
            for c in cases:
                st = [m.stat(Ref(ex.name, c.name, p, metric)) for p in pts]
                if not any(s.n for s in st):
                    continue
                drawn = True
                ax.errorbar(xs, [s.mean for s in st], yerr=[s.sd for s in st], marker="o", ms=3, label=c.label, capsize=2)
            ax.set_xlabel(ex.axis_name + " (Mb/s)")
            ax.set_ylabel(METRIC_LABELS.get(metric, metric))
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        f.suptitle(fig.caption, fontsize=9)
        if not drawn:
            plt.close(f)
            return None
        return _png(f), f"mean ± SD over {len(plan.seeds)} seed(s)"
    if fig.kind == "critical_window":
        return _critical_window(ex, fig, cases, plan, m)
    if fig.kind == "rounds_to_equilibrium":
        return _rounds_to_equilibrium(ex, fig, cases, plan, m)
    raise ValueError(f"unknown figure kind {fig.kind!r} in {ex.path}")


def _theory_beside_simulation(fig: Figure, ex: Experiment, cases, pts: List[str], xs, metric: str, m: Measurements,
                              curves, grid, labels: Tuple[str, str], log_x: bool, note: str) -> Optional[Tuple[bytes, str]]:
    """Each case's `metric` at the axis points `pts` (placed at `xs`) as markers, beside
    the analysis `curves` ((label, function of x) pairs) drawn over `grid`, log y."""
    f, ax = plt.subplots(figsize=(6.5, 3.8))
    drawn = False
    for i, c in enumerate(cases):
        st = [m.stat(Ref(ex.name, c.name, p, metric)) for p in pts]
        if not any(s.n for s in st):
            continue
        drawn = True
        ax.plot(xs, [s.mean for s in st], marker="os^D"[i % 4], ls="none", color=f"C{i}", label=f"{c.label} (simulation)")
    for i, (label, fn) in enumerate(curves):
        ax.plot(grid, [fn(x) for x in grid], color=f"C{i}", lw=1, ls="-" if i == 0 else "--", label=label)
    if log_x:
        ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    ax.set_title(fig.caption, fontsize=9)
    if not drawn:
        plt.close(f)
        return None
    return _png(f), note


def _critical_window(ex: Experiment, fig: Figure, cases, plan, m: Measurements) -> Optional[Tuple[bytes, str]]:
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


def _rounds_to_equilibrium(ex: Experiment, fig: Figure, cases, plan, m: Measurements) -> Optional[Tuple[bytes, str]]:
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
