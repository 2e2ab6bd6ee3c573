"""How every plot looks and is saved: new figures and axes, the styles that keep
up to `MAX_LEGEND` flows apart (`flow_styles`), legends, axis styling, the
message of a plot without data, and saving a PNG.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

from matplotlib.figure import Figure

from ..results import PathLike


#: At most this many flows are drawn one style each with a legend entry; more flows are
#: drawn as an aggregate (median and 10-90th percentile band over thin grey lines).
MAX_LEGEND = 30

#: Line styles combined with the ten colours of matplotlib's "tab10" cycle: 40 distinct
#: (colour, dash) pairs, so flows never share a look below `MAX_LEGEND`.
LINE_STYLES = ("-", "--", ":", "-.")

#: Resolution of the PNG files the plots write (dots per inch).
DPI = 120


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


def _colors(n: int) -> List[str]:
    base = [f"C{i}" for i in range(10)]
    return [base[i % 10] for i in range(max(n, 1))]


def flow_styles(n: int) -> List[Tuple[str, str]]:
    """`n` distinct (colour, line style) pairs: the ten tab10 colours with a solid line,
    then dashed, dotted and dash-dotted (40 pairs; beyond that they repeat)."""
    return [(f"C{i % 10}", LINE_STYLES[(i // 10) % len(LINE_STYLES)]) for i in range(max(n, 1))]
