"""The standard set of run plots that `plot_all` (and ``tcpsim run --plot``,
``tcpsim plot RUN_DIR``) writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from ..results import PathLike, Results
from .flows import plot_cwnd, plot_goodput_cdf, plot_throughput, plot_throughput_delay
from .links import plot_utilization
from .queues import plot_loss_rate, plot_queue, plot_queue_delay
from .style import check_format
from .series import (ARRIVALS, CWND, DELIVERED, QUEUE_LENGTH, RED_AVERAGE, SOJOURN,
                     UTILIZATION, _metric)


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


def plot_all(results: Results, directory: PathLike, *, format: str = "png") -> List[Path]:
    """Writes the run plots into `directory` and returns the paths written: from the time
    series (when the scenario has ``[monitor] interval``) cwnd.png, throughput.png,
    queue.png, utilization.png, loss.png and delay.png, each if its metrics were sampled;
    from the flows table goodput_cdf.png and throughput_delay.png. `format` is one of
    `FORMATS` (``"pdf"``: cwnd.pdf, ...)."""
    check_format(format)
    out = Path(directory)
    written = []
    for name, draw, needs in RUN_PLOTS:
        if needs and (results.timeseries.empty or _metric(results, needs) is None):
            continue
        if not needs and results.flows.empty:
            continue
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{name}.{format}"
        draw(results, path)
        written.append(path)
    return written


def skipped_plots(results: Results) -> List[Tuple[str, str]]:
    """The run plots `plot_all` leaves out for `results`, each with the reason in words:
    ``[("cwnd.png", "no time series: the scenario has no [monitor] interval"), ...]``."""
    skipped = []
    for name, _draw, needs in RUN_PLOTS:
        if needs and results.timeseries.empty:
            skipped.append((f"{name}.png", "no time series: the scenario has no [monitor] interval"))
        elif needs and _metric(results, needs) is None:
            skipped.append((f"{name}.png", f"the time series holds none of {', '.join(needs)} "
                                           "(no monitored flow or queue has them)"))
        elif not needs and results.flows.empty:
            skipped.append((f"{name}.png", "the results hold no flows"))
    return skipped

