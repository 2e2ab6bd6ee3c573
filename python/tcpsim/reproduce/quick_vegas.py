"""The analysis of reference document 001 (Chan, Lin & Ho, "Quick Vegas", IEICE Trans.
Commun. E91-B(4), 2008, Sect. 4) as functions, and the one definition of convergence
time its experiments use.

    from tcpsim.reproduce import quick_vegas as qv

    mu_d = qv.bdp_packets(5e6)                      # 5 Mb BDP, 1000-byte packets: 625
    qv.critical_window_vegas(mu_d)                  # Eq. (6): 50.50 packets
    qv.critical_window_quick_vegas(mu_d)            # Eq. (10): 61.74 packets
    qv.rounds_to_equilibrium_quick_vegas(125, 2)    # Eq. (12): 7.42 rounds
    c = qv.convergence_time(t, cwnd, start=80.0, end=160.0, base_rtt=0.1)
    c.seconds, c.base_rtts

Notation (the paper's, Sect. 4.1): μ the bottleneck rate in packets per second, d the
round-trip time without queueing (Eq. 5), so μd is the bandwidth-delay product in
packets; γ the slow-start exit threshold; W an equilibrium window and nW the new one
after the available bandwidth grows n times; β the upper threshold of Eq. (3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import metrics

__all__ = [
    "bdp_packets",
    "critical_window_vegas",
    "critical_window_quick_vegas",
    "rounds_to_equilibrium_vegas",
    "rounds_to_equilibrium_quick_vegas",
    "Convergence",
    "convergence_time",
    "CONVERGENCE_TOLERANCE_PACKETS",
    "CONVERGENCE_SMOOTHING_RTTS",
]

#: The paper's thresholds (its Sect. 5: γ = 1, α = 2, β = 4).
GAMMA = 1.0
BETA = 4.0

#: Convergence: the smoothed window must stay within this many packets of its final
#: value (β, the width Vegas' own equilibrium allows: our choice, as document 001's
#: Sect. 5.2 gives no criterion).
CONVERGENCE_TOLERANCE_PACKETS = BETA
#: ... averaged over a trailing window of this many BaseRTTs.
CONVERGENCE_SMOOTHING_RTTS = 10.0


def _positive(x: float, what: str) -> float:
    x = float(x)
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"{what} must be a finite number > 0, got {x}")
    return x


def bdp_packets(bdp_bits: float, packet_size_bytes: float = 1000.0) -> float:
    """μd in packets for a bandwidth-delay product in bits (the paper's 1 kB packets:
    5 Mb → 625 packets)."""
    return _positive(bdp_bits, "bdp_bits") / (8.0 * _positive(packet_size_bytes, "packet_size_bytes"))


def critical_window_vegas(mu_d: float, gamma: float = GAMMA) -> float:
    """Vegas' window on leaving slow start, Eq. (6) (after the paper's ref. [8]):
    W^v = (γ + √(γ² + 16γμd)) / 2 packets. The same method as Eq. (10) with the average
    queue of a doubling round, W/(4μ)."""
    mu_d, gamma = _positive(mu_d, "mu_d"), _positive(gamma, "gamma")
    return (gamma + math.sqrt(gamma * gamma + 16.0 * gamma * mu_d)) / 2.0


def critical_window_quick_vegas(mu_d: float, gamma: float = GAMMA, average_rtt: bool = True) -> float:
    """Quick Vegas' window on leaving slow start.

    ``average_rtt=True`` (the paper's Fig. 4 theory): Eq. (10), the round's average RTT
    d + W/(6μ): W^q = (γ + √(γ² + 24γμd)) / 2. ``False``: Eq. (9), the RTT of the round's
    last packet d + W/(3μ) (Eqs. 7–8): W^q = (γ + √(γ² + 12γμd)) / 2.
    """
    mu_d, gamma = _positive(mu_d, "mu_d"), _positive(gamma, "gamma")
    k = 24.0 if average_rtt else 12.0
    return (gamma + math.sqrt(gamma * gamma + k * gamma * mu_d)) / 2.0


def rounds_to_equilibrium_vegas(w: float, n: float) -> float:
    """Rounds (RTTs) Vegas needs from equilibrium window W to nW, one packet per round:
    (n − 1)W (Sect. 4.3)."""
    w, n = _positive(w, "w"), _positive(n, "n")
    if n < 1:
        raise ValueError(f"n must be >= 1 (more bandwidth), got {n}")
    return (n - 1.0) * w


def rounds_to_equilibrium_quick_vegas(w: float, n: float, beta: float = BETA) -> float:
    """Rounds Quick Vegas needs from W to nW, Eq. (12): i = (−1 + √((β + 8W(n − 1))/β))/2,
    from Eq. (11), nW = W + β·i(i + 1)/2 with Δ ≈ 0 throughout (the paper ignores the
    at-most-double cap; so does this)."""
    w, n, beta = _positive(w, "w"), _positive(n, "n"), _positive(beta, "beta")
    if n < 1:
        raise ValueError(f"n must be >= 1 (more bandwidth), got {n}")
    return (-1.0 + math.sqrt((beta + 8.0 * w * (n - 1.0)) / beta)) / 2.0


@dataclass(frozen=True)
class Convergence:
    """A convergence time, in seconds and in BaseRTTs (``inf`` if it never settled)."""

    seconds: float
    base_rtts: float
    #: The final window it settled at, packets.
    final_window: float


def convergence_time(
    t,
    cwnd,
    *,
    start: float,
    base_rtt: float,
    end: Optional[float] = None,
    tolerance: float = CONVERGENCE_TOLERANCE_PACKETS,
    smoothing_rtts: float = CONVERGENCE_SMOOTHING_RTTS,
    final_window: Optional[float] = None,
) -> Convergence:
    """Reference document 001's convergence time: how long after an event (a connection
    start, the available bandwidth halving or doubling at ``start``) the window reaches
    its new stable state. The paper counts "how many BaseRTTs are required to reach a new
    stable state" (Sect. 5.2) and reports seconds in Sect. 5.1, without defining
    "stable"; this is the definition every 001 experiment uses:

    1. take the window samples with ``start <= t < end`` (``end`` = the next event, or
       the end of the run);
    2. smooth them with a trailing mean over ``smoothing_rtts`` BaseRTTs (10: 1 s at
       100 ms), using only samples from ``start`` on;
    3. the result is `metrics.convergence_time` of the smoothed series with an absolute
       band of ``tolerance`` packets (β = 4) around its final value (the mean over
       ``final_window`` seconds before ``end``; default the last 10 % of the span):
       the time from ``start`` after which it stays in the band.

    The smoothing is what lets a Quick Vegas window count as settled: its Eq. (3)
    increments and Eq. (4) cuts, acting on a Δ that shows a change two rounds late,
    leave a ripple of about ±10 packets (3 %) at 630 packets that never stays within
    ±β sample by sample. A Vegas or FAST window, which settles smoothly, is delayed by
    half the smoothing window at most (0.5 s). See docs/models/quick-vegas.md for the
    alternatives considered and their values.

    ``t`` in seconds (strictly increasing), ``cwnd`` in packets, ``base_rtt`` in seconds.
    Returns `Convergence` (seconds, seconds / base_rtt, final window).
    """
    tv = np.asarray(t, dtype=float)
    wv = np.asarray(cwnd, dtype=float)
    if tv.shape != wv.shape or tv.ndim != 1:
        raise ValueError(f"convergence_time: t and cwnd must be 1-d of one length ({tv.shape} vs {wv.shape})")
    base_rtt = _positive(base_rtt, "base_rtt")
    smoothing_rtts = float(smoothing_rtts)
    if not (math.isfinite(smoothing_rtts) and smoothing_rtts >= 0):
        raise ValueError("smoothing_rtts must be >= 0")
    keep = tv >= start
    if end is not None:
        keep &= tv < end
    tv, wv = tv[keep], wv[keep]
    if tv.size == 0:
        raise ValueError(f"convergence_time: no sample in [{start}, {end})")
    smoothed = _trailing_mean(tv, wv, smoothing_rtts * base_rtt)
    seconds = metrics.convergence_time(tv, smoothed, band=0.0, atol=tolerance, start=start, final_window=final_window)
    span = float(tv[-1] - start)
    fw = 0.1 * span if final_window is None else final_window
    tail = tv >= tv[-1] - fw - 1e-12 * max(1.0, abs(tv[-1]))
    tail[-1] = True
    return Convergence(seconds=seconds, base_rtts=seconds / base_rtt, final_window=float(smoothed[tail].mean()))


def _trailing_mean(t: np.ndarray, y: np.ndarray, width: float) -> np.ndarray:
    """Mean of the samples with t_i − width < t ≤ t_i, for each i (width 0: y itself)."""
    if width <= 0:
        return y.copy()
    csum = np.concatenate([[0.0], np.cumsum(y)])
    first = np.searchsorted(t, t - width, side="right")
    idx = np.arange(t.size)
    return (csum[idx + 1] - csum[first]) / (idx + 1 - first)
