"""Plot of link utilization over time, of the busiest sampled link directions by
default.
"""

from __future__ import annotations

from typing import Iterable, Optional

import numpy as np
from matplotlib.figure import Figure

from ..results import PathLike, Results
from .series import UTILIZATION, _duration, interval_series, smoothed
from .style import legend, _new_axes, _no_data, save, _style, styled


#: `plot_utilization` draws by default the busiest sampled link directions: at most
#: `MAX_LINKS`, each with a mean utilization of at least `MIN_LINK_PCT` percent.
MAX_LINKS = 6
MIN_LINK_PCT = 1.0


@styled
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
    wide, interval = interval_series(results, UTILIZATION, links)
    if interval is None:
        _no_data(ax, "utilization samples")
    pct = wide * 100.0
    hidden = 0
    if links is None and len(pct.columns):
        # t = 0 closes an empty interval; links that are nearly idle are left out
        ranked = pct[pct.index > 0].mean().sort_values(ascending=False, kind="stable")
        busy = [name for name, mean in ranked.items() if mean >= MIN_LINK_PCT]
        keep = (busy or list(ranked.index[:1]))[:MAX_LINKS]
        hidden = len(ranked) - len(keep)
        pct = pct[keep]
    pct, samples, how = smoothed(pct, interval, average)
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
    legend(ax, title, outside=False)
    return save(fig, path)
