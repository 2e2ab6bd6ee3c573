"""Reading a run's time series for plotting: the metric names the core samples
(crates/tcpsim/src/monitor/timeseries.rs), which of them a run has, its
sampling interval and duration, and the order of its flows.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np
import pandas as pd

from ..results import Results


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


def _metric(results: Results, candidates: Sequence[str]) -> Optional[str]:
    present = set(results.metrics())
    for name in candidates:
        if name in present:
            return name
    return None


def sampling_interval(results: Results) -> Optional[float]:
    """The time-series sampling interval in seconds (median spacing of sample times)."""
    times = np.unique(results.timeseries["time_s"].to_numpy(dtype=float))
    steps = np.diff(times)
    steps = steps[steps > 0]
    return float(np.median(steps)) if steps.size else None


def _duration(results: Results, wide: pd.DataFrame) -> Optional[float]:
    d = results.summary.get("duration_s")
    if isinstance(d, (int, float)) and d > 0:
        return float(d)
    return float(wide.index.max()) if len(wide.index) else None


def _flow_order(results: Results, wide: pd.DataFrame) -> List[str]:
    names = [n for n in results.flows.get("name", pd.Series([], dtype=object)) if n in wide.columns]
    return names + [c for c in wide.columns if c not in names]
