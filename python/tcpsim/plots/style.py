"""How every figure tcpsim draws looks and is saved — the run and sweep plots of this
package and the reproduction reports' figures (`tcpsim.reproduce.figures`): the shared
matplotlib settings (`STYLE`, applied with `styled`), new figures and axes (constrained
layout, so titles, labels and legends never overlap), the styles that keep up to
`MAX_LEGEND` flows apart (`flow_styles`), legends, axis styling, the message of a plot
without data, and saving in one of `FORMATS` at `DPI` (both from `tcpsim._figure_format`).
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple, TypeVar

import matplotlib
from matplotlib.figure import Figure

from .._figure_format import DPI, FORMATS, check_format
from ..results import PathLike


#: At most this many flows are drawn one style each with a legend entry; more flows are
#: drawn as an aggregate (median and 10-90th percentile band over thin grey lines).
MAX_LEGEND = 30

#: Line styles combined with the ten colours of matplotlib's "tab10" cycle: 40 distinct
#: (colour, dash) pairs, so flows never share a look below `MAX_LEGEND`.
LINE_STYLES = ("-", "--", ":", "-.")

#: The matplotlib settings every figure is drawn with (`styled`). Font sizes in points,
#: for figures 7-9 inches wide: readable when printed at that width and still legible
#: when shrunk to a column. Fonts are embedded as TrueType in PDF (type 42; journals
#: reject Type 3 fonts) and kept as text in SVG, so labels stay editable.
STYLE: Dict[str, object] = {
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "legend.title_fontsize": 10,
    "legend.framealpha": 0.85,
    "figure.titlesize": 12,
    "lines.linewidth": 1.2,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "savefig.dpi": DPI,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "none",
}

F = TypeVar("F", bound=Callable)


def styled(draw: F) -> F:
    """Runs `draw` with the shared `STYLE`. Matplotlib reads its settings when an artist
    is made (a label takes its font size then), so the whole drawing, not only the
    saving, runs inside the style."""
    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)
    return wrapper  # type: ignore[return-value]


def new_figure(figsize=(9, 4.5)) -> Figure:
    """A figure with constrained layout (no overlapping labels, legends placed outside
    the axes get room), not attached to pyplot: safe headless and in threads."""
    return Figure(figsize=figsize, layout="constrained")


def _new_axes(ax, figsize=(9, 4.5)):
    if ax is not None:
        return ax.figure, ax
    fig = new_figure(figsize)
    return fig, fig.add_subplot()


def legend(ax, title: Optional[str] = None, outside: Optional[bool] = None):
    """The legend of `ax`'s labelled artists: inside at the best place for a few
    entries, to the right of the axes for more than six (`outside`), in two columns
    past 15 entries; none for no entry or more than `MAX_LEGEND`."""
    handles, labels = ax.get_legend_handles_labels()
    shown = [(h, l) for h, l in zip(handles, labels) if not l.startswith("_")]
    if not shown or len(shown) > MAX_LEGEND:
        return None
    handles, labels = zip(*shown)
    if outside is None:
        outside = len(labels) > 6
    if outside:
        return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                         borderaxespad=0, ncol=2 if len(labels) > 15 else 1, title=title)
    return ax.legend(handles, labels, loc="best", title=title)



def save(fig: Figure, path: Optional[PathLike]) -> Figure:
    """Writes `fig` to `path` (the format from its suffix, one of `FORMATS`) at `DPI`."""
    if path is not None:
        path = Path(path)
        check_format(path.suffix.lstrip(".").lower())
        path.parent.mkdir(parents=True, exist_ok=True)
        with matplotlib.rc_context(STYLE):
            fig.savefig(path, dpi=DPI)
    return fig



def to_bytes(fig: Figure, fmt: str = "png") -> bytes:
    """`fig` as the bytes of a file in format `fmt` (one of `FORMATS`), at `DPI`."""
    buf = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        fig.savefig(buf, format=check_format(fmt), dpi=DPI)
    return buf.getvalue()


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
