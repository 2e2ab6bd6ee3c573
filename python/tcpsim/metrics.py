"""Performance metrics of the reference documents, over numpy arrays and tcpsim result tables.

Every metric is defined exactly as in one of the reference documents
(``shared/reference/*.md``, raw text in ``shared/seeds/``), which are cited by number:

====  ======================================================================================
000   C.-W. Chang, *TCP Performance Analysis and Fairness Improvement in Different
      Congestion Control Methods*, M.S. thesis, NCTU, 2004 (Reno/Vegas, dynamic RED).
001   Y.-C. Chan, C.-L. Lin, C.-Y. Ho, *Quick Vegas: Improving Performance of TCP Vegas
      for High Bandwidth-Delay Product Networks*, IEICE Trans. Commun. E91-B(4), 2008.
002   R. M. Arora, *TCP/IP Networks with ECN over AQM*, M.Eng. thesis, Carleton, 2003
      (§2.3 "Performance Characteristics").
003   C. Zhang, V. Tsaoussidis, *Improving TCP Smoothness by Synchronized and
      Measurement-based Congestion Avoidance*, NOSSDAV 2003 (§4.2 "Performance Metrics").
004   NS-2 study of TCP Vegas, Sack and Fack under DropTail and RED (§II metrics).
====  ======================================================================================

Two kinds of functions:

* pure functions of numbers or arrays (`jain_index`, `worst_case_fairness`,
  `coefficient_of_variation`, `throughput_ratio`, `improvement_percent`,
  `convergence_time`, `utilization`, `packet_loss_rate`, ...), which raise `ValueError` on
  empty input, negative or non-finite values, and zero denominators;
* table functions that take a tcpsim result table (or a `tcpsim.Results`, from which the
  right table is taken): `throughput_series`, `window_throughput`, `throughput`, `goodput`,
  `loss_rate`, `drop_rates`, `mean_queueing_delay`, `link_utilization`,
  `group_throughput_ratio`. They return pandas objects indexed by flow, queue or link
  name. An empty table raises `ValueError`; a single row whose denominator is zero (a
  queue that saw no packet, say) gives NaN in that row rather than failing the table.

The module is long (about 900 lines) on purpose: it is the one place where each metric's
definition, source, units and worked example live side by side, and most of its length is
those docstrings and doctests.

Throughput from the time series: the monitor's ``delivered_bytes`` sample at time ``t``
is the payload delivered *in order* to the receiver during the interval ``(t - I, t]``
(``I`` = the monitor interval). `throughput_series` turns it into bits per second,
``8 * delivered_bytes / I`` — document 003's "allotted throughput ``throughput_i(t)``" —
on which `short_term_fairness`, `coefficient_of_variation` and `window_throughput` work.

See ``docs/metrics.md`` for the same definitions with worked examples and the places
where a document's printed numbers disagree with its own formula.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

__all__ = [
    # fairness
    "jain_index",
    "worst_case_fairness",
    "coefficient_of_variation",
    "mean_coefficient_of_variation",
    "jain_index_series",
    "short_term_fairness",
    "throughput_ratio",
    "group_throughput_ratio",
    "improvement_percent",
    # dynamics
    "convergence_time",
    # rates
    "throughput_bps",
    "goodput_bps",
    "throughput",
    "goodput",
    "aggregate_goodput",
    "retransmission_ratio",
    "throughput_series",
    "window_throughput",
    # links and queues
    "utilization",
    "link_utilization",
    "packet_loss_rate",
    "loss_rate",
    "drop_rates",
    "queueing_delay",
    "mean_queueing_delay",
]

ArrayLike = Union[Sequence[float], np.ndarray, pd.Series]


# ----------------------------------------------------------------------------- helpers


def _vector(x: Any, what: str = "x", allow_negative: bool = False) -> np.ndarray:
    """`x` as a non-empty 1-D float array of finite (and, by default, non-negative) values."""
    if isinstance(x, pd.DataFrame):
        raise ValueError(f"{what}: expected a 1-D sequence, got a DataFrame")
    arr = np.asarray(x, dtype=float)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D sequence, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{what}: empty input")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what}: contains NaN or infinite values")
    if not allow_negative and np.any(arr < 0):
        raise ValueError(f"{what}: contains negative values")
    return arr


def _table(obj: Any, name: str, required: Iterable[str]) -> pd.DataFrame:
    """The result table `name` from a `tcpsim.Results` or a DataFrame; checks columns."""
    df = getattr(obj, name, obj) if not isinstance(obj, pd.DataFrame) else obj
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a {name} DataFrame or a tcpsim.Results, got {type(obj).__name__}")
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{name} table lacks column(s) {missing}; columns are {list(df.columns)}")
    if df.empty:
        raise ValueError(f"{name} table is empty")
    return df


def _ratio(num: pd.Series, den: pd.Series) -> pd.Series:
    """num / den element-wise as floats, NaN where den == 0."""
    num = num.astype(float)
    den = den.astype(float)
    return num / den.where(den != 0)


def _select_rows(df: pd.DataFrame, start: Optional[float], end: Optional[float]) -> pd.DataFrame:
    """Rows whose index label t satisfies start < t <= end (open bound when None)."""
    keep = np.ones(len(df), dtype=bool)
    idx = np.asarray(df.index, dtype=float)
    if start is not None:
        keep &= idx > start + 1e-12
    if end is not None:
        keep &= idx <= end + 1e-12
    return df[keep]


def _samples_2d(samples: Any, start: Optional[float], end: Optional[float], what: str) -> pd.DataFrame:
    """A wide DataFrame (rows = sample times, columns = flows) of finite, non-negative
    values, restricted to start < t <= end."""
    if isinstance(samples, pd.DataFrame):
        df = samples
    else:
        arr = np.asarray(samples, dtype=float)
        if arr.ndim != 2:
            raise ValueError(f"{what}: expected a 2-D table (rows = samples, columns = flows), got shape {arr.shape}")
        df = pd.DataFrame(arr)
    df = _select_rows(df, start, end)
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(f"{what}: no samples (empty table or empty time window)")
    values = df.to_numpy(dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{what}: contains NaN or infinite values")
    if np.any(values < 0):
        raise ValueError(f"{what}: contains negative values")
    return df.astype(float)


# ----------------------------------------------------------------------------- fairness


def jain_index(x: ArrayLike) -> float:
    """Jain's fairness index of the allocations ``x`` (one value per flow or per group).

    Definition (003 §4.2 "Fairness Index", from Chiu & Jain; 001 §5.3.1 Eq. (13);
    002 §2.3.7.1)::

        FI = (Σ_i x_i)² / (n · Σ_i x_i²)

    Dimensionless, in ``[1/n, 1]``; 1 when every ``x_i`` is equal. (001 and 002 say
    "between 0 and 1", which is true but loose: the lower bound is ``1/n``.) Units of
    ``x`` do not matter (bps, Kbps, packets). 003 applies it to each flow's throughput
    over the whole connection time; 001 to per-connection throughput in 100 s or 50 s
    windows; 002 to the *total goodput of each subnet* over 20–100 s, n = number of
    subnets.

    Raises `ValueError` on empty input, negative or non-finite values, or all zeros.

    Example — 003 §4.2's six flows (9, 9.5, 8.5, 9, 9, 6 Mbps); the paper prints 0.982:

    >>> round(jain_index([9, 9.5, 8.5, 9, 9, 6]), 3)
    0.982
    >>> jain_index([9.5] * 6)
    1.0
    """
    v = _vector(x, "jain_index")
    total = v.sum()
    if total == 0:
        raise ValueError("jain_index: all allocations are zero; the index is undefined")
    return float(total * total / (v.size * np.dot(v, v)))


def worst_case_fairness(x: ArrayLike) -> float:
    """Worst-case fairness: the smallest allocation divided by the largest.

    Definition (003 §4.2 "Worst-Case Fairness")::

        WCF = min_i x_i / max_i x_i

    Dimensionless, in ``[0, 1]``; 1 is fairest. 003 computes it on each flow's throughput
    over the whole connection time.

    **The paper's printed example disagrees with this formula.** For the flows 9, 9.5,
    8.5, 9, 9 and 6 Mbps it prints "the worst-case fairness is 0.667", which is 6/9; the
    formula gives 6/9.5 = 0.632. This function implements the formula.

    Raises `ValueError` on empty input, negative or non-finite values, or if the largest
    allocation is zero.

    >>> round(worst_case_fairness([9, 9.5, 8.5, 9, 9, 6]), 4)   # paper prints 0.667
    0.6316
    >>> worst_case_fairness([9.5] * 6)
    1.0
    """
    v = _vector(x, "worst_case_fairness")
    hi = v.max()
    if hi == 0:
        raise ValueError("worst_case_fairness: all allocations are zero; the ratio is undefined")
    return float(v.min() / hi)


def coefficient_of_variation(
    samples: Any, start: Optional[float] = None, end: Optional[float] = None
) -> Union[float, pd.Series]:
    """Coefficient of variation over time of one flow's sampled throughput (smoothness).

    Definition (003 §4.2, following its ref. [13])::

        CoV_i = sqrt( E{x_i(t)²} − E{x_i(t)}² ) / E{x_i(t)}

    where ``E{}`` is the mean over the samples ``t`` — the population (``ddof=0``)
    standard deviation divided by the mean. Dimensionless; lower is smoother. 003 samples
    throughput every 0.5 s and uses samples from t = 15 s on.

    ``samples`` is a 1-D sequence (one flow; returns a float) or a wide DataFrame with
    one column per flow and the sample time as index, such as `throughput_series`
    returns (returns a Series of ``CoV_i`` per column). ``start``/``end`` keep only rows
    with ``start < t <= end`` (pandas input indexed by time only).

    Raises `ValueError` on empty input, negative or non-finite samples, or a zero mean.

    >>> round(coefficient_of_variation([1.0, 3.0]), 3)        # std 1, mean 2
    0.5
    >>> df = pd.DataFrame({"a": [1.0, 3.0], "b": [2.0, 2.0]}, index=[0.5, 1.0])
    >>> coefficient_of_variation(df).round(3).to_dict()
    {'a': 0.5, 'b': 0.0}
    """
    if isinstance(samples, pd.Series) and (start is not None or end is not None):
        col = samples.name if samples.name is not None else 0
        return float(coefficient_of_variation(samples.to_frame(col), start, end).iloc[0])
    if isinstance(samples, pd.DataFrame):
        df = _samples_2d(samples, start, end, "coefficient_of_variation")
        means = df.mean(axis=0)
        zero = [str(c) for c in means.index[means == 0]]
        if zero:
            raise ValueError(f"coefficient_of_variation: mean throughput is zero for {zero}")
        return df.std(axis=0, ddof=0) / means
    if start is not None or end is not None:
        raise ValueError("coefficient_of_variation: start/end need a Series or DataFrame indexed by time")
    v = _vector(samples, "coefficient_of_variation")
    mean = v.mean()
    if mean == 0:
        raise ValueError("coefficient_of_variation: the mean is zero; CoV is undefined")
    return float(v.std(ddof=0) / mean)


def mean_coefficient_of_variation(
    samples: Any, start: Optional[float] = None, end: Optional[float] = None
) -> float:
    """System CoV: the average over flows of each flow's `coefficient_of_variation`.

    Definition (003 §4.2): "For a system with multiple flows, the system CoV is the
    average of CoVs of all flows"::

        CoV = (1/n) Σ_i CoV_i

    ``samples``: wide DataFrame (rows = sample times, one column per flow) or a 2-D array
    of the same layout. Dimensionless.

    >>> df = pd.DataFrame({"a": [1.0, 3.0], "b": [2.0, 2.0]}, index=[0.5, 1.0])
    >>> mean_coefficient_of_variation(df)
    0.25
    """
    df = _samples_2d(samples, start, end, "mean_coefficient_of_variation")
    return float(coefficient_of_variation(df).mean())


def jain_index_series(samples: Any) -> pd.Series:
    """Jain's index (`jain_index`) of each row of a wide table of per-flow samples.

    Rows where every flow has zero throughput have no defined index and give NaN.

    >>> df = pd.DataFrame({"a": [1.0, 1.0, 0.0], "b": [1.0, 0.0, 0.0]}, index=[0.5, 1.0, 1.5])
    >>> jain_index_series(df).tolist()
    [1.0, 0.5, nan]
    """
    df = _samples_2d(samples, None, None, "jain_index_series")
    v = df.to_numpy(dtype=float)
    s = v.sum(axis=1)
    sq = (v * v).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        j = np.where(s > 0, s * s / (v.shape[1] * sq), np.nan)
    return pd.Series(j, index=df.index, name="jain_index")


def short_term_fairness(
    samples: Any,
    start: Optional[float] = None,
    end: Optional[float] = None,
    skip_idle: bool = True,
) -> float:
    """Short-term fairness: Jain's index of each throughput sample, averaged over time.

    Definition (003 §4.2 "ShortTermFairness")::

        STF = E_t{ (Σ_i x_i(t))² / (n · Σ_i x_i(t)²) }

    where ``x_i(t)`` is flow i's throughput in sample interval t (003: 0.5 s samples from
    t = 15 s on) and ``E_t`` the mean over samples. (The paper writes ``E_i{}`` for this
    time mean.) Dimensionless, in ``[1/n, 1]``.

    ``samples``: wide DataFrame (rows = sample times, one column per flow; e.g.
    `throughput_series`) or 2-D array. ``start``/``end`` keep rows with
    ``start < t <= end``. A sample in which no flow delivered anything has no defined
    index: with ``skip_idle=True`` (default) it is left out of the average, with
    ``skip_idle=False`` it raises `ValueError`. Raises `ValueError` if no sample remains.

    >>> df = pd.DataFrame({"a": [1.0, 1.0], "b": [1.0, 0.0]}, index=[0.5, 1.0])
    >>> short_term_fairness(df)          # mean of 1.0 and 0.5
    0.75
    """
    df = _samples_2d(samples, start, end, "short_term_fairness")
    j = jain_index_series(df)
    idle = j.isna()
    if idle.any():
        if not skip_idle:
            raise ValueError(
                f"short_term_fairness: {int(idle.sum())} sample(s) with zero throughput for "
                f"every flow (first at t={j.index[idle.to_numpy()][0]}); pass skip_idle=True to leave them out"
            )
        j = j[~idle]
    if j.empty:
        raise ValueError("short_term_fairness: every sample has zero throughput for every flow")
    return float(j.mean())


def throughput_ratio(a: Union[float, ArrayLike], b: Union[float, ArrayLike]) -> float:
    """Ratio of the mean throughput of group ``a`` to that of group ``b``.

    Definition (000 §3.3 and §4.1, the tables' "Fairness" row, e.g. Vegas/Reno): "The
    *Fairness* between TCP Vegas and TCP Reno is calculated based on dividing the mean
    throughput in Vegas by the average throughput in Reno"::

        ratio = mean_{i∈a} x_i / mean_{j∈b} x_j

    Dimensionless; 1 is an even split, below 1 favours group ``b``. It is **not** Jain's
    index. ``a`` and ``b`` are scalars or sequences of per-flow throughputs (any one unit).

    Raises `ValueError` on empty groups, negative or non-finite values, or a zero mean of
    ``b``.

    Example — 000 Table 4.3, drop-tail column: eight Vegas flows at 80 Kbps and Reno
    flows at 664 and 672 Kbps; the thesis prints Fairness 0.11976:

    >>> round(throughput_ratio([80] * 8, [664, 672]), 5)
    0.11976
    """
    va = _vector(a, "throughput_ratio: a")
    vb = _vector(b, "throughput_ratio: b")
    mb = vb.mean()
    if mb == 0:
        raise ValueError("throughput_ratio: the mean throughput of b is zero")
    return float(va.mean() / mb)


def group_throughput_ratio(
    flows: Any,
    numerator: str = "vegas",
    denominator: str = "reno",
    by: str = "cc",
    column: str = "goodput_bps",
) -> float:
    """`throughput_ratio` between two groups of rows of a ``flows`` table (000 "Fairness").

    The groups are the rows whose ``by`` column equals ``numerator`` and ``denominator``
    (default: congestion control ``cc`` "vegas" over "reno", 000's Vegas/Reno ratio), and
    the throughput is column ``column`` (default ``goodput_bps``; 000 does not say how it
    measured throughput, the receiving-side data rate is implied).

    Raises `ValueError` if either group is empty (000 prints "X" there).

    >>> flows = pd.DataFrame({"cc": ["vegas", "vegas", "reno"], "goodput_bps": [1e5, 3e5, 8e5]})
    >>> group_throughput_ratio(flows)
    0.25
    """
    df = _table(flows, "flows", [by, column])
    a = df.loc[df[by] == numerator, column]
    b = df.loc[df[by] == denominator, column]
    if a.empty or b.empty:
        raise ValueError(
            f"group_throughput_ratio: no flow with {by} == {numerator!r}" if a.empty
            else f"group_throughput_ratio: no flow with {by} == {denominator!r}"
        )
    return throughput_ratio(a.to_numpy(), b.to_numpy())


def improvement_percent(new: Union[float, ArrayLike], old: Union[float, ArrayLike]) -> Union[float, np.ndarray]:
    """Relative improvement of ``new`` over ``old``, in percent.

    Definition (000 §4.1 Table 4.2 text, §4.2, §4.3: the "6% to 157%", "69% to 302%" and
    "89% to 219%" fairness improvements are all)::

        improvement = (new / old − 1) · 100 %

    Vectorised over numpy arrays. Raises `ValueError` if any ``old`` is zero or a value
    is not finite.

    Note: 000 §4.1's "performance improvement is about 230~259%" for Table 4.1 is *not*
    this formula: it is the plain ratio ``100 · new / old`` of Vegas throughput, RED over
    drop-tail (207/80 = 259 %, 187/81 = 231 %), i.e. improvements of +131 % to +159 %;
    the text also states the division the wrong way round ("dividing ... Drop-tail ...
    by ... RED").

    Example — 000 Table 4.4, fairness with RED only at R3 (0.3282) and only at R1
    (0.5536) against all drop-tail (0.1737); the thesis prints "89% to 219%":

    >>> round(improvement_percent(0.3282, 0.1737)), round(improvement_percent(0.5536, 0.1737))
    (89, 219)
    """
    n = np.asarray(new, dtype=float)
    o = np.asarray(old, dtype=float)
    if n.size == 0 or o.size == 0:
        raise ValueError("improvement_percent: empty input")
    if not (np.all(np.isfinite(n)) and np.all(np.isfinite(o))):
        raise ValueError("improvement_percent: contains NaN or infinite values")
    if np.any(o == 0):
        raise ValueError("improvement_percent: old value is zero; the relative change is undefined")
    r = (n / o - 1.0) * 100.0
    return float(r) if r.ndim == 0 else r


# ----------------------------------------------------------------------------- dynamics


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

    001 §5.2 uses "convergence time" (after its ref. [8]) for "how many *BaseRTTs* are
    required to reach a new stable state" after a connection starts or the available
    bandwidth halves or doubles, but does not define "stable". This function fixes the
    criterion:

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


# ----------------------------------------------------------------------------- rates


def throughput_bps(packets_sent: float, packets_dropped: float, packet_size_bytes: float, duration_s: float) -> float:
    """Throughput including retransmissions, from packet counts.

    Definition (002 §2.3.3): "the data rate at which a source can send packets (including
    retransmitted packets) to the sink ... a source sends out m packets in time t, and n
    packets (n < m) are dropped ... the resulting throughput is (m−n)·packet-size/t"::

        throughput = (m − n) · packet_size · 8 / t      [bit/s]

    with ``packet_size`` in bytes and ``t`` in seconds. 004 §II: "the size of data that has
    been successfully transferred from one node to another for a certain period of time".

    >>> throughput_bps(1000, 10, 1000, 10.0)
    792000.0
    """
    _check_counts(packets_sent, packets_dropped, "throughput_bps", "packets_dropped")
    _check_positive(packet_size_bytes, "throughput_bps: packet_size_bytes", allow_zero=True)
    _check_positive(duration_s, "throughput_bps: duration_s")
    return float((packets_sent - packets_dropped) * packet_size_bytes * 8.0 / duration_s)


def goodput_bps(packets_delivered: float, packets_retransmitted: float, packet_size_bytes: float, duration_s: float) -> float:
    """Goodput (retransmissions excluded), from packet counts.

    Definition (002 §2.3.4): "the effective data rate as observed by the user ... m data
    packets are transmitted from a source to a sink, and n packets (n < m) are
    retransmitted packets, then the resulting goodput is (m−n)·packet-size/t"::

        goodput = (m − n) · packet_size · 8 / t         [bit/s]

    ``packets_delivered`` = m, ``packets_retransmitted`` = n (the retransmitted copies
    among the m). 002 uses throughput − goodput as its count of retransmitted packets.

    >>> goodput_bps(990, 10, 1000, 10.0)
    784000.0
    """
    _check_counts(packets_delivered, packets_retransmitted, "goodput_bps", "packets_retransmitted")
    _check_positive(packet_size_bytes, "goodput_bps: packet_size_bytes", allow_zero=True)
    _check_positive(duration_s, "goodput_bps: duration_s")
    return float((packets_delivered - packets_retransmitted) * packet_size_bytes * 8.0 / duration_s)


def _check_positive(v: float, what: str, allow_zero: bool = False) -> None:
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"{what} must be {'>= 0' if allow_zero else '> 0'}, got {v}")


def _check_counts(total: float, part: float, fn: str, part_name: str) -> None:
    if not (math.isfinite(total) and math.isfinite(part)) or total < 0 or part < 0:
        raise ValueError(f"{fn}: packet counts must be finite and >= 0")
    if part > total:
        raise ValueError(f"{fn}: {part_name} ({part}) exceeds the total ({total})")


def throughput(flows: Any, retransmissions: bool = True) -> pd.Series:
    """Per-flow throughput (bit/s) from a ``flows`` table, with or without retransmissions.

    * ``retransmissions=True`` — column ``throughput_bps``: every data packet that reached
      the receiver, retransmissions and duplicates included, counted at its size on the
      wire (payload + header), over the flow's active time ``[start_s, stop_s]``. This is
      002 §2.3.3's throughput, (m − n)·packet_size/t with m sent and n dropped.
    * ``retransmissions=False`` — column ``goodput_bps`` (see `goodput`).

    Returns a Series indexed by flow name.

    >>> flows = pd.DataFrame({"name": ["f"], "throughput_bps": [1.04e6], "goodput_bps": [0.9e6]})
    >>> throughput(flows).to_dict(), throughput(flows, retransmissions=False).to_dict()
    ({'f': 1040000.0}, {'f': 900000.0})
    """
    col = "throughput_bps" if retransmissions else "goodput_bps"
    df = _table(flows, "flows", ["name", col])
    return pd.Series(df[col].to_numpy(dtype=float), index=df["name"].to_numpy(), name=col)


def goodput(flows: Any) -> pd.Series:
    """Per-flow goodput (bit/s): payload delivered *in order, once* (retransmitted copies
    and duplicates excluded), over the flow's active time ``[start_s, stop_s]`` within
    the measurement window (see `aggregate_goodput` for all flows together).

    Definition: 002 §2.3.4 (see `goodput_bps`). Column ``goodput_bps`` of the ``flows``
    table (``goodput_bytes · 8 / (stop_s − start_s)``); returns a Series by flow name.

    >>> flows = pd.DataFrame({"name": ["f"], "goodput_bps": [0.9e6]})
    >>> goodput(flows).to_dict()
    {'f': 900000.0}
    """
    return throughput(flows, retransmissions=False)


def _window_s(summary: Dict[str, Any]) -> Optional[float]:
    """The measurement window of a run, seconds: ``duration_s − measure_from_s``."""
    if summary.get("duration_s") is None:
        return None
    return float(summary["duration_s"]) - float(summary.get("measure_from_s") or 0.0)


def aggregate_goodput(results: Any) -> float:
    """Aggregate goodput of a run (bit/s): the payload all flows delivered in order during
    the measurement window (``[simulation] measure_from`` to the end), divided by the
    window. Unlike the sum of per-flow `goodput` (each over its own active time) it never
    exceeds what the links carried, also when flows take turns.

    Takes a `tcpsim.Results` (its summary's ``aggregate_goodput_bps``, or the same sum
    from its flows table for results saved before the core reported it).
    """
    summary = getattr(results, "summary", None)
    if summary is None:
        raise TypeError(f"aggregate_goodput: expected tcpsim.Results, not {type(results).__name__}")
    if summary.get("aggregate_goodput_bps") is not None:
        return float(summary["aggregate_goodput_bps"])
    window = _window_s(summary)
    if not window:
        raise ValueError("aggregate_goodput: the results' summary has no duration_s")
    return float(results.flows["goodput_bytes"].astype(float).sum() * 8.0 / window)


def retransmission_ratio(flows: Any) -> pd.Series:
    """Fraction of each flow's transmissions that were retransmissions:
    ``retransmits / packets_sent`` (NaN where nothing was sent).

    002 §2.3.3–2.3.4 measures retransmissions as throughput − goodput; tcpsim counts them
    exactly, so this gives the same information without the header-size difference
    between ``throughput_bps`` (wire bytes) and ``goodput_bps`` (payload bytes).

    >>> flows = pd.DataFrame({"name": ["f"], "packets_sent": [200], "retransmits": [5]})
    >>> retransmission_ratio(flows).to_dict()
    {'f': 0.025}
    """
    df = _table(flows, "flows", ["name", "packets_sent", "retransmits"])
    r = _ratio(df["retransmits"], df["packets_sent"])
    return pd.Series(r.to_numpy(), index=df["name"].to_numpy(), name="retransmission_ratio")


def throughput_series(timeseries: Any, interval: Optional[float] = None) -> pd.DataFrame:
    """Per-flow throughput in each sampling interval (bit/s), from the time series.

    Each ``delivered_bytes`` sample at time ``t`` is the payload delivered in order during
    ``(t − I, t]``; its throughput is ``8 · delivered_bytes / I``. This is 003 §4.2's
    "allotted throughput ``throughput_i(t)``" (sampled every 0.5 s there). The sample at
    ``t = 0`` closes an empty interval and is left out.

    ``interval`` (seconds): the monitor interval ``I``; by default inferred from the
    spacing of the sample times (`ValueError` if they are not evenly spaced).

    Returns a wide DataFrame: index ``time_s`` (end of each interval), one column per flow
    (in order of first appearance), values in bit/s.

    >>> ts = pd.DataFrame({"time_s": [0.0, 0.5, 1.0], "entity": ["f"] * 3,
    ...                    "metric": ["delivered_bytes"] * 3, "value": [0.0, 62500.0, 31250.0]})
    >>> throughput_series(ts)["f"].tolist()
    [1000000.0, 500000.0]
    """
    ts = _table(timeseries, "timeseries", ["time_s", "entity", "metric", "value"])
    sel = ts[ts["metric"] == "delivered_bytes"]
    if sel.empty:
        raise ValueError(
            "throughput_series: the time series has no delivered_bytes samples "
            "(set [monitor] interval and monitor the flows)"
        )
    times = np.unique(sel["time_s"].to_numpy(dtype=float))
    if interval is None:
        if times.size < 2:
            raise ValueError("throughput_series: one sample time only; pass interval=")
        steps = np.diff(times)
        interval = float(np.median(steps))
        if np.any(np.abs(steps - interval) > 1e-6 * interval):
            raise ValueError("throughput_series: sample times are not evenly spaced; pass interval=")
    elif not (math.isfinite(interval) and interval > 0):
        raise ValueError(f"throughput_series: interval must be > 0, got {interval}")
    order = pd.unique(sel["entity"])
    wide = sel.pivot_table(index="time_s", columns="entity", values="value", aggfunc="sum")
    wide = wide.reindex(columns=order)
    wide.columns.name = None
    wide = wide[wide.index > interval / 2]
    if wide.empty:
        raise ValueError("throughput_series: no sample after t = 0")
    out = wide.astype(float) * 8.0 / interval
    out.attrs["interval_s"] = interval
    return out


def window_throughput(
    timeseries: Any,
    start: Optional[float] = None,
    end: Optional[float] = None,
    interval: Optional[float] = None,
) -> pd.Series:
    """Mean per-flow throughput (bit/s) over the time window ``[start, end]``, from the
    time series' in-order delivered payload (i.e. goodput).

    ``= 8 · Σ delivered_bytes / (k · I)`` over the ``k`` sampling intervals ``(t − I, t]``
    lying entirely inside ``[start, end]``; the window is thus rounded inward to sample
    boundaries. This is the windowed throughput the documents average: 000 over 70–100 s
    (Table 4.3) and 100–200 s (Table 4.4); 001 over 100 s / 50 s windows (Tables 2–3);
    002 over 20–100 s; 003 "over the connection time".

    Raises `ValueError` if no whole interval lies in the window.

    >>> ts = pd.DataFrame({"time_s": [0.0, 0.5, 1.0, 1.5], "entity": ["f"] * 4,
    ...                    "metric": ["delivered_bytes"] * 4, "value": [0.0, 62500.0, 31250.0, 0.0]})
    >>> window_throughput(ts, start=0.0, end=1.0).to_dict()
    {'f': 750000.0}
    """
    wide = throughput_series(timeseries, interval)
    step = wide.attrs["interval_s"]
    t = np.asarray(wide.index, dtype=float)
    keep = np.ones(t.size, dtype=bool)
    eps = 1e-9 * max(1.0, step)
    if start is not None:
        keep &= t - step >= start - eps
    if end is not None:
        keep &= t <= end + eps
    sel = wide[keep]
    if sel.empty:
        raise ValueError(
            f"window_throughput: no whole sampling interval of {step} s lies in [{start}, {end}]"
        )
    out = sel.mean(axis=0)
    out.name = "throughput_bps"
    return out


# ----------------------------------------------------------------------------- links and queues


def utilization(throughput_bps: Union[float, ArrayLike], capacity_bps: float) -> Union[float, np.ndarray]:
    """Link utilization: carried rate divided by link capacity.

    Definition (000 §3.3/§4.1: "the *Utilization* is calculated based on dividing the
    *Total* throughput by 2000" [Kbps, the bottleneck capacity]; 001 §5.3: bits delivered
    over the bottleneck per interval / (C_b · interval); 002 §2.3.2: Throughput ·
    Packet Size / Link Capacity · 100 %)::

        U = Σ_i throughput_i / C

    (002's formula multiplies "Throughput" by the packet size, so there it must be in
    packets/s, although its §2.3.3 defines throughput already multiplied by the packet
    size; both readings give carried bits / capacity.)

    Dimensionless fraction (× 100 for 002's percent). ``throughput_bps`` is the total
    rate, or a sequence of per-flow rates that are summed; ``capacity_bps`` in the same
    unit.

    Example — 000 Table 4.3, drop-tail column: Total 1976 Kbps on a 2000 Kbps bottleneck;
    the thesis prints 0.988:

    >>> utilization(1976, 2000)
    0.988
    """
    _check_positive(capacity_bps, "utilization: capacity_bps")
    total = _vector(throughput_bps, "utilization: throughput_bps").sum()
    return float(total / capacity_bps)


def link_utilization(links: Any, method: str = "busy", duration_s: Optional[float] = None) -> pd.Series:
    """Utilization of each link direction, a fraction in ``[0, 1]``, indexed by link name.

    * ``method="busy"`` (default): the ``links`` table's ``utilization`` column, the time
      the transmitter was busy divided by the run's duration.
    * ``method="bytes"``: ``8 · bytes_sent / (rate_bps · duration_s)`` — carried bits over
      capacity, the documents' definition (see `utilization`). ``duration_s`` comes from
      the argument, or from ``summary["duration_s"]`` when a `tcpsim.Results` is passed.
      It can exceed the busy-time value by one packet's transmission time (a packet
      whose transmission started before the end counts whole).

    >>> links = pd.DataFrame({"link": ["r1->r2"], "rate_bps": [1e6], "bytes_sent": [1.2e6],
    ...                       "utilization": [0.96]})
    >>> link_utilization(links).to_dict(), link_utilization(links, "bytes", duration_s=10).to_dict()
    ({'r1->r2': 0.96}, {'r1->r2': 0.96})
    """
    if method == "busy":
        df = _table(links, "links", ["link", "utilization"])
        u = df["utilization"].astype(float)
    elif method == "bytes":
        df = _table(links, "links", ["link", "rate_bps", "bytes_sent"])
        if duration_s is None and not isinstance(links, pd.DataFrame):
            duration_s = _window_s(getattr(links, "summary", None) or {})
        if duration_s is None:
            raise ValueError("link_utilization: method='bytes' needs duration_s (or a Results with a summary)")
        _check_positive(float(duration_s), "link_utilization: duration_s")
        u = _ratio(df["bytes_sent"] * 8.0, df["rate_bps"] * float(duration_s))
    else:
        raise ValueError(f"link_utilization: method must be 'busy' or 'bytes', got {method!r}")
    return pd.Series(u.to_numpy(), index=df["link"].to_numpy(), name="utilization")


def packet_loss_rate(dropped: float, total: float, percent: bool = False) -> float:
    """Packet loss (drop) rate: dropped packets over all packets.

    Definition (002 §2.3.5: "Packets Loss Rate = Number of Drop Packets / Total Number of
    Packets · 100", counting both buffer-overflow and AQM drops; 004 §II: "the drop rate
    (calculated as the number of lost packets / number of those sent)")::

        loss = dropped / total

    A fraction, or percent with ``percent=True`` (002's form).

    Raises `ValueError` if ``total`` is zero, a count is negative, or dropped > total.

    Example — 004 Table 2, Vegas over DropTail, CBR 0.5 Mb: 99035 sent, 200 lost:

    >>> round(packet_loss_rate(200, 99035, percent=True), 3)
    0.202
    """
    if not (math.isfinite(dropped) and math.isfinite(total)) or dropped < 0 or total < 0:
        raise ValueError("packet_loss_rate: counts must be finite and >= 0")
    if total == 0:
        raise ValueError("packet_loss_rate: total is zero; the rate is undefined")
    if dropped > total:
        raise ValueError(f"packet_loss_rate: dropped ({dropped}) exceeds total ({total})")
    r = dropped / total
    return float(100.0 * r if percent else r)


def loss_rate(flows: Any, aggregate: bool = False) -> Union[pd.Series, float]:
    """Loss rate of each flow's data packets: ``drops / packets_sent`` (`packet_loss_rate`).

    ``drops`` counts the flow's data packets dropped anywhere in the network (early and
    overflow); ``packets_sent`` every data packet the source transmitted, retransmissions
    included (004 §II "lost packets / number of those sent"). Returns a Series by flow
    name (NaN for a flow that sent nothing), or with ``aggregate=True`` the rate over all
    flows, ``Σ drops / Σ packets_sent``.

    >>> flows = pd.DataFrame({"name": ["a", "b"], "packets_sent": [1000, 500], "drops": [10, 20]})
    >>> loss_rate(flows).tolist(), loss_rate(flows, aggregate=True)
    ([0.01, 0.04], 0.02)
    """
    df = _table(flows, "flows", ["name", "packets_sent", "drops"])
    if aggregate:
        return packet_loss_rate(float(df["drops"].sum()), float(df["packets_sent"].sum()))
    r = _ratio(df["drops"], df["packets_sent"])
    return pd.Series(r.to_numpy(), index=df["name"].to_numpy(), name="loss_rate")


def drop_rates(queues: Any) -> pd.DataFrame:
    """Drop rates of each queue, early (AQM) and overflow (buffer full) separately.

    For each queue, over the packets offered to it (``arrivals``, dropped ones
    included)::

        early_drop_rate    = early_drops / arrivals
        overflow_drop_rate = overflow_drops / arrivals
        drop_rate          = (early_drops + overflow_drops) / arrivals
        mark_rate          = marks / arrivals           (ECN marks instead of early drops)

    ``drop_rate`` is 002 §2.3.5's packet loss rate at a router ("dropped due to router
    buffer overflow and for congestion notifications (in AQM techniques)"), split as 002
    asks its measurements to be (overflow vs early). 000 Tables 3.1–4.4 report the same
    counts as "Arrival" and "Drop" at the bottleneck router. Fractions; NaN for a queue
    with no arrivals. Returns a DataFrame indexed by queue name.

    >>> q = pd.DataFrame({"queue": ["r1->r2"], "arrivals": [1000], "early_drops": [30],
    ...                   "overflow_drops": [10], "marks": [0]})
    >>> drop_rates(q).loc["r1->r2"].tolist()
    [0.03, 0.01, 0.04, 0.0]
    """
    df = _table(queues, "queues", ["queue", "arrivals", "early_drops", "overflow_drops"])
    marks = df["marks"] if "marks" in df.columns else pd.Series(0, index=df.index)
    out = pd.DataFrame(
        {
            "early_drop_rate": _ratio(df["early_drops"], df["arrivals"]).to_numpy(),
            "overflow_drop_rate": _ratio(df["overflow_drops"], df["arrivals"]).to_numpy(),
            "drop_rate": _ratio(df["early_drops"] + df["overflow_drops"], df["arrivals"]).to_numpy(),
            "mark_rate": _ratio(marks, df["arrivals"]).to_numpy(),
        },
        index=pd.Index(df["queue"].to_numpy(), name="queue"),
    )
    return out


def queueing_delay(queue_length_pkts: Union[float, ArrayLike], packet_size_bytes: float, rate_bps: float) -> Union[float, np.ndarray]:
    """Queueing delay implied by a queue length: the time to transmit the packets ahead.

    Definition (003 §2.1 Eq. (5): ``qdelay(t) = Δw(t) / bw``, the Δw packets queued
    drained at the bottleneck rate)::

        qdelay = queue_length · packet_size · 8 / rate      [s]

    Vectorised over ``queue_length_pkts`` (e.g. the ``queue_pkts`` time series).

    >>> queueing_delay(100, 1000, 10e6)
    0.08
    """
    _check_positive(packet_size_bytes, "queueing_delay: packet_size_bytes")
    _check_positive(rate_bps, "queueing_delay: rate_bps")
    q = np.asarray(queue_length_pkts, dtype=float)
    if q.size == 0:
        raise ValueError("queueing_delay: empty input")
    if not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("queueing_delay: queue lengths must be finite and >= 0")
    d = q * packet_size_bytes * 8.0 / rate_bps
    return float(d) if d.ndim == 0 else d


def mean_queueing_delay(queues: Any) -> pd.Series:
    """Mean queueing delay of each queue (seconds), indexed by queue name.

    Definition (002 §2.3.6: "Delay indicates the queue delay", the delay at the
    bottleneck router, excluding propagation): the mean over departed packets of the time
    from arrival at the queue to the start of transmission (``mean_sojourn_s``; the
    transmission time itself is not included). NaN for a queue no packet left.

    >>> q = pd.DataFrame({"queue": ["r1->r2"], "mean_sojourn_s": [0.012]})
    >>> mean_queueing_delay(q).to_dict()
    {'r1->r2': 0.012}
    """
    df = _table(queues, "queues", ["queue", "mean_sojourn_s"])
    return pd.Series(df["mean_sojourn_s"].to_numpy(dtype=float), index=df["queue"].to_numpy(), name="mean_queueing_delay_s")
