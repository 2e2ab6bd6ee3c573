"""How long a quantity takes to settle: `convergence_time`, the time after which a
series stays within a band around its final value.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ._inputs import ArrayLike, _vector


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
