"""Plots of a run's time series and of a sweep's metrics (matplotlib, no pyplot state:
safe on headless machines and in threads).

Run plots take `Results`, draw on a new figure (or on `ax` if given), save it when
`path` is given (PNG, PDF or SVG by the path's suffix: `FORMATS`; PNG at `DPI` dots per
inch), and return the figure. Every figure is drawn in one style (`style.STYLE`: font
sizes, constrained layout, fonts embedded in PDF). `plot_all` writes the standard set
(``format="pdf"`` or ``"svg"``: the same names with that suffix):

- ``cwnd.png``: congestion window of each flow (packets) vs time;
- ``throughput.png``: per-flow throughput (Mbit/s, from bytes delivered per interval,
  1 s moving average) vs time;
- ``queue.png``: queue length and RED's average (packets) vs time, above a panel of the
  drops per sampling interval split into early (RED) and overflow drops, and the ECN
  marks as a line of their own;
- ``utilization.png``: utilization (% of the link rate, per sampling interval) of the
  busiest sampled link directions vs time;
- ``loss.png``: loss rate (drops / arrivals per sampling interval, %) of the busiest
  queue vs time;
- ``delay.png``: queueing delay (mean wait of the packets that left in each interval,
  ms) of the busiest queue vs time;
- ``goodput_cdf.png``: the CDF of per-flow goodput (from the flows table);
- ``throughput_delay.png``: each flow's goodput against its mean RTT (flows table), one
  marker per congestion control.

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
interval of the mean (``error="ci95"``, Student's t). `plot_sweep_all` writes one PNG (or
``format=`` PDF, SVG) per metric (``sweep_<metric>.png``).

Modules, one subject each (every public name is importable from here,
``tcpsim.plots.plot_cwnd``): `flows` (per-flow time series and the flows table),
`queues`, `links`, `standard` (`plot_all`), `sweeps` (sweep plots) and what they share:
`style` (the shared style, figures, flow styles, legends, saving), `series` (reading a run's time series),
`sweep_table` (reading a sweep table).
"""

from __future__ import annotations

# The public names of each module; those beside __all__ (metric names, limits, RUN_PLOTS)
# stay importable from here as they were before the split.
from .style import MAX_LEGEND, LINE_STYLES, DPI, FORMATS, STYLE, flow_styles
from .series import (CWND, DELIVERED, QUEUE_LENGTH, RED_AVERAGE, EARLY_DROPS, OVERFLOW_DROPS,
                     MARKS, UTILIZATION, ARRIVALS, SOJOURN, sampling_interval)
from .flows import plot_cwnd, plot_throughput, plot_goodput_cdf, plot_throughput_delay
from .queues import busiest_queues, plot_queue, plot_loss_rate, plot_queue_delay
from .links import MAX_LINKS, MIN_LINK_PCT, plot_utilization
from .standard import RUN_PLOTS, plot_all
from .sweep_table import SWEEP_METRICS, BOUNDED_ABOVE, DEFAULT_SWEEP_METRICS, sweep_parameters
from .sweeps import sweep_facets, sweep_plot, plot_sweep_all

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
    "FORMATS",
    "DPI",
    "busiest_queues",
    "sampling_interval",
    "sweep_plot",
    "sweep_facets",
    "plot_sweep_all",
    "sweep_parameters",
    "SWEEP_METRICS",
    "DEFAULT_SWEEP_METRICS",
]
