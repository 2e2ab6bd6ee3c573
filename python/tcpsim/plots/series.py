"""Reading a run's time series for plotting: the metric names the core samples
(crates/tcpsim/src/monitor/timeseries.rs), which of them a run has, its
sampling interval and duration, and the order of its flows.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

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


def interval_series(results: Results, candidates: Sequence[str],
                    names: Optional[Iterable[str]] = None) -> Tuple[pd.DataFrame, Optional[float]]:
    """The first of `candidates` the run sampled, one column per entity of `names` (all
    by default), and the sampling interval in seconds — or an empty frame and None when
    the run has no such samples, so a plot draws its "no data" note instead."""
    metric = _metric(results, candidates)
    wide = results.series(metric, names) if metric else pd.DataFrame()
    interval = sampling_interval(results) if not wide.empty else None
    if interval is None:
        return pd.DataFrame(), None
    return wide, interval


def smoothed(wide: pd.DataFrame, interval: Optional[float],
             average: Optional[float]) -> Tuple[pd.DataFrame, int, str]:
    """`wide` as a centred moving average over `average` seconds (None: as sampled), the
    number of samples averaged, and how the values were taken in words for an axis
    label ("1 s average", "per 100 ms"; "" without an interval)."""
    samples = max(1, int(round(average / interval))) if (average and interval) else 1
    if samples > 1:
        return (wide.rolling(samples, min_periods=1, center=True).mean(), samples,
                f"{samples * interval:g} s average")
    return wide, 1, (f"per {interval * 1e3:g} ms" if interval else "")
