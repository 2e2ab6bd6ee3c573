"""Plots of a sweep's metrics: `sweep_plot` (mean over seeds against a parameter,
with error bars), `sweep_facets` (one panel per value of a parameter) and
`plot_sweep_all` (one PNG per metric).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from .. import units
from ..results import PathLike
from .style import check_format, legend, _new_axes, save, _style, styled
from .sweep_table import (DEFAULT_SWEEP_METRICS, _upper_bound, _axis_label, _fmt_value,
                          _is_numeric, _metric_label, _orderable, _quantities, _resolve_sweep,
                          _short, _sweep_table, _value_labels, parameter_label,
                          sweep_parameters)


def _t975(dof: int) -> float:
    """The 0.975 quantile of Student's t with `dof` degrees of freedom (scipy.stats):
    the half-width factor of a two-sided 95 % confidence interval."""
    if dof < 1:
        return float("nan")
    from scipy.stats import t

    return float(t.ppf(0.975, dof))


@styled
def sweep_facets(table: Union[pd.DataFrame, PathLike], col: str, x: Optional[str] = None,
                 y: str = "goodput_bps", hue: Union[str, Sequence[str], None] = None, *,
                 error: str = "sd", path: Optional[PathLike] = None,
                 parameters: Optional[Sequence[str]] = None, ncols: int = 3) -> Figure:
    """Small multiples for a sweep of two (or more) parameters: one panel per value of
    `col` (in numeric order when the values are numbers or quantities), each a
    `sweep_plot` of `y` against `x` with lines by `hue`, on a shared y axis.

    Example: ``sweep_facets(table, col="dumbbell.bottleneck.queue.kind",
    x="dumbbell.bottleneck.queue.limit", y="jain_index")``."""
    table = _sweep_table(table)
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
    return save(fig, path)


@styled
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
    table = _sweep_table(table)
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
    xlabel = parameter_label(x)
    if quantities is not None:
        xlabel += f" ({units.UNITS[quantities[1]]})"
    if linked:
        xlabel += "\n(varied together with " + ", ".join(parameter_label(c) for c in linked) + ")"
    what = _metric_label(y)[0]
    counts = sorted(set(int(c) for c in runs_per_point))
    n_text = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    how = {"sd": "mean ± 1 SD", "ci95": "mean ± 95 % CI", "none": "mean"}[error]
    title = f"{what[0].upper()}{what[1:]} vs {_short(x)}\n({how} over {n_text} run" \
            f"{'s' if counts != [1] else ''} per point)"
    # y is autoscaled to the data (differences between points matter more than zero),
    # but never past a bound the metric cannot cross (Jain's index is at most 1)
    _style(ax, title, xlabel, _axis_label(y), bottom0=False, left0=False)
    if _upper_bound(y) is not None:
        bound = _upper_bound(y) * scale
        low, high = ax.get_ylim()
        ax.set_ylim(min(low, bound * 0.999), bound if high > bound else high)
    legend_title = ", ".join(_short(c) for c in hues) if hues else None
    if folded:
        legend_title = ", ".join(_short(c) for c in groups)
    if groups:
        legend(ax, legend_title, outside=n_groups > 4)
    return save(fig, path)


def plot_sweep_all(table: Union[pd.DataFrame, PathLike], directory: PathLike, *,
                   x: Optional[str] = None, y: Optional[Sequence[str]] = None,
                   hue: Union[str, Sequence[str], None] = None, error: str = "sd",
                   parameters: Optional[Sequence[str]] = None,
                   col: Optional[str] = None, format: str = "png") -> List[Path]:
    """Writes ``sweep_<metric>.png`` into `directory` for each metric in `y` (default:
    the `DEFAULT_SWEEP_METRICS` present in the table); returns the paths written. With
    `col`, each figure has one panel per value of that parameter (`sweep_facets`).
    `format` is one of `FORMATS` (``"svg"``: sweep_<metric>.svg)."""
    check_format(format)
    table = _sweep_table(table)
    if y is None:
        y = [m for m in DEFAULT_SWEEP_METRICS if m in table.columns
             and table[m].notna().any()]
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for metric in y:
        path = out / f"sweep_{_safe_name(metric)}.{format}"
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
