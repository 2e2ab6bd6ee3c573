"""How long a quantity takes to settle: `convergence_time`, the time after which a
series stays within a band around its final value; and `recovery_time`, the time a
flow's throughput takes to regain its level after an outage (003's handoff), with
`handoff_recovery_time` on a run's results.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Tuple

import numpy as np
import pandas as pd

from ._inputs import ArrayLike, _check_positive, _vector
from .rates import SAMPLE_INTERVAL_S, sampled_throughput

#: The share of the flow's level before the outage that counts as recovered. 003
#: §4.3.4 says only that the flow "fully recovers"; 95 % leaves room for the
#: fluctuation of a throughput sample at full rate.
RECOVERED_SHARE = 0.95
#: The trailing window (s) over which throughput is averaged before it is compared with
#: the level: two of 003's 0.5 s samples, so one burst sample does not count as recovery.
RECOVERY_WINDOW_S = 1.0
#: The span (s) before the outage over which the flow's level is its mean throughput.
LEVEL_BEFORE_S = 5.0


def convergence_time(
    t: ArrayLike,
    y: ArrayLike,
    band: float = 0.1,
    final_window: Optional[float] = None,
    start: Optional[float] = None,
    atol: float = 0.0,
) -> float:
    """Time from ``start`` until the series ``y(t)`` enters, and then stays within, a band
    around its final value.

    001 Sect. 5.2 takes "convergence time" from its ref. [8]: the number of BaseRTTs a
    connection needs to settle in a new stable state after it starts or the available
    bandwidth halves or doubles; it does not say when a window counts as stable. This
    function fixes the criterion:

    * final value ``y_f`` = mean of the samples with ``t >= t_last − final_window``
      (default ``final_window`` = the last 10 % of the time span from ``start``; at least
      the last sample is always used);
    * tolerance ``tol = band · |y_f| + atol`` (``band`` relative, ``atol`` absolute, in
      the units of ``y``);
    * result = ``t_k − start`` for the earliest sample ``k`` with ``t_k >= start`` such that
      every sample from ``k`` on satisfies ``|y_j − y_f| <= tol``.

    Units: those of ``t`` (seconds in tcpsim); divide by the base RTT to count BaseRTTs as
    001 does. Resolution is the sampling interval. Returns 0.0 if the series is inside
    the band from ``start`` on, and ``math.inf`` if the last sample is outside it (the
    series has not settled within the run).

    Parameters: ``t`` increasing sample times; ``y`` values (e.g. cwnd in packets, or
    throughput); ``band`` ≥ 0; ``final_window`` > 0 (units of ``t``); ``start`` the time
    of the event (default ``t[0]``); ``atol`` ≥ 0.

    Raises `ValueError` on empty or mismatched input, non-increasing ``t``, no sample
    after ``start``, a zero tolerance band, or non-finite values.

    >>> t = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> y = [0, 5, 8, 9.5, 10.6, 9.8, 10.1, 10, 10, 10]
    >>> convergence_time(t, y, band=0.05)     # within 10 ± 0.5 from t = 5 on
    5.0
    >>> convergence_time(t, y, band=0.1)      # within 10 ± 1 from t = 3 on
    3.0
    """
    tv = _vector(t, "convergence_time: t", allow_negative=True)
    yv = _vector(y, "convergence_time: y", allow_negative=True)
    if tv.size != yv.size:
        raise ValueError(f"convergence_time: t and y differ in length ({tv.size} vs {yv.size})")
    if tv.size > 1 and np.any(np.diff(tv) <= 0):
        raise ValueError("convergence_time: t must be strictly increasing")
    if not (math.isfinite(band) and band >= 0) or not (math.isfinite(atol) and atol >= 0):
        raise ValueError("convergence_time: band and atol must be finite and >= 0")
    t0 = float(tv[0]) if start is None else float(start)
    keep = tv >= t0
    if not keep.any():
        raise ValueError(f"convergence_time: no sample at or after start={t0}")
    tv, yv = tv[keep], yv[keep]
    span = float(tv[-1] - t0)
    if final_window is None:
        final_window = 0.1 * span
    elif not (math.isfinite(final_window) and final_window > 0):
        raise ValueError("convergence_time: final_window must be > 0")
    tail = tv >= tv[-1] - final_window - 1e-12 * max(1.0, abs(tv[-1]))
    tail[-1] = True
    y_final = float(yv[tail].mean())
    tol = band * abs(y_final) + atol
    if tol == 0:
        raise ValueError(
            "convergence_time: the tolerance band is zero (final value 0 with a relative band); pass atol > 0"
        )
    outside = np.abs(yv - y_final) > tol
    if outside[-1]:
        return math.inf
    if not outside.any():
        return 0.0
    k = int(np.nonzero(outside)[0][-1]) + 1
    return float(tv[k] - t0)


def recovery_time(
    t: ArrayLike,
    y: ArrayLike,
    outage_end: float,
    level: float,
    share: float = RECOVERED_SHARE,
    window: float = RECOVERY_WINDOW_S,
) -> float:
    """Time from the end of an outage until the throughput ``y(t)``, averaged over a
    trailing ``window``, first reaches ``share · level``.

    003 §4.3.4 (Fig. 10) measures how long a flow takes to "fully recover" after a 1 s
    handoff (100 % loss over [20 s, 21 s)) and does not define the moment: it reads it
    off the throughput plot. This function fixes it:

    * ``t_k`` are the ends of the sample intervals ``(t_k − I, t_k]`` and ``y_k`` the
      throughput in each (`sampled_throughput`);
    * ``m_k`` = mean of the ``y_j`` with ``t_k − window < t_j <= t_k`` (``window`` a
      multiple of the sample interval ``I``: the whole intervals in it);
    * result = ``t_k − outage_end`` for the first ``k`` whose window lies wholly after the
      outage (``t_k − window >= outage_end``) and ``m_k >= share · level``.

    ``level`` is the flow's throughput before the outage (`handoff_recovery_time` takes
    its mean over the ``LEVEL_BEFORE_S`` before it) or the rate it should regain, in the
    units of ``y``. The result is in the units of ``t``; its resolution is the sample
    interval and it is never below ``window``. ``math.inf`` if the level is not regained
    by the last sample.

    Raises `ValueError` on empty or mismatched input, non-increasing ``t``, a ``level``,
    ``share`` or ``window`` that is not > 0, or non-finite values.

    >>> t = [20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5]
    >>> y = [0, 0, 2, 4, 6, 10, 10]
    >>> recovery_time(t, y, outage_end=21.0, level=10, window=1.0)   # mean of 10, 10 at 23.5
    2.5
    >>> recovery_time(t, y, outage_end=21.0, level=10, share=0.5, window=0.5)  # 6 >= 5 at 22.5
    1.5
    """
    tv = _vector(t, "recovery_time: t", allow_negative=True)
    yv = _vector(y, "recovery_time: y")
    if tv.size != yv.size:
        raise ValueError(f"recovery_time: t and y differ in length ({tv.size} vs {yv.size})")
    if tv.size > 1 and np.any(np.diff(tv) <= 0):
        raise ValueError("recovery_time: t must be strictly increasing")
    if not math.isfinite(outage_end):
        raise ValueError(f"recovery_time: outage_end must be finite, got {outage_end}")
    _check_positive(level, "recovery_time: level")
    _check_positive(share, "recovery_time: share")
    _check_positive(window, "recovery_time: window")
    eps = 1e-9 * max(1.0, abs(float(tv[-1])))
    target = share * level
    for k in np.nonzero(tv - window >= outage_end - eps)[0]:
        inside = (tv > tv[k] - window + eps) & (tv <= tv[k])
        if yv[inside].mean() >= target:
            return float(tv[k] - outage_end)
    return math.inf


def handoff_recovery_time(
    results: Any,
    outage: Tuple[float, float],
    flows: Optional[Iterable[str]] = None,
    share: float = RECOVERED_SHARE,
    window: float = RECOVERY_WINDOW_S,
    sample_s: float = SAMPLE_INTERVAL_S,
    level_bps: Optional[float] = None,
    before_s: float = LEVEL_BEFORE_S,
) -> pd.Series:
    """`recovery_time` of each flow after an outage ``(start, end)`` in seconds, such as
    003's handoff (the ``blackout`` error model over ``[20 s, 21 s)``), in seconds from
    the end of the outage; a Series by flow name (``math.inf`` where the flow never
    regained its level).

    The throughput is `sampled_throughput` (``sample_s`` samples, 003: 0.5 s). The level
    is ``level_bps`` if given (e.g. the bottleneck's rate), otherwise each flow's mean
    throughput over the ``before_s`` seconds before the outage starts (whole samples);
    ``share`` and ``window`` as `recovery_time`. ``flows``: the flows to measure (default:
    every flow in the time series).

    Raises `ValueError` if the outage is not a finite span with start < end, no whole
    sample lies in the span before it, or a flow delivered nothing there (no level).
    """
    start, end = (float(v) for v in outage)
    if not (math.isfinite(start) and math.isfinite(end) and start < end):
        raise ValueError(f"handoff_recovery_time: outage must be (start, end) with start < end, got {outage}")
    samples = sampled_throughput(results, sample_s, start_s=None)
    if flows is not None:
        wanted = list(flows)
        missing = [f for f in wanted if f not in samples.columns]
        if missing:
            raise ValueError(f"handoff_recovery_time: no delivered_bytes samples of flow(s) {missing}; "
                             f"flows in the time series: {list(samples.columns)}")
        samples = samples[wanted]
    t = np.asarray(samples.index, dtype=float)
    eps = 1e-9 * max(1.0, end)
    before = samples[(t - sample_s >= start - before_s - eps) & (t <= start + eps)]
    if level_bps is None and before.empty:
        raise ValueError(f"handoff_recovery_time: no whole {sample_s} s sample in the {before_s} s "
                         f"before the outage at {start} s; pass level_bps")
    out = {}
    for name in samples.columns:
        level = float(level_bps) if level_bps is not None else float(before[name].mean())
        if level <= 0:
            raise ValueError(f"handoff_recovery_time: flow {name!r} delivered nothing in the {before_s} s "
                             f"before the outage at {start} s, so it has no level to regain; pass level_bps")
        out[name] = recovery_time(t, samples[name].to_numpy(), end, level, share, window)
    return pd.Series(out, name="recovery_time_s", dtype=float)
