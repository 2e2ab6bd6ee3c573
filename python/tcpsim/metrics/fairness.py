"""Fairness among flows and comparisons between groups of flows: Jain's index (of
allocations and of each sample of a time series), worst-case fairness, the
coefficient of variation of throughput and short-term fairness (smoothness, 003),
throughput ratios between groups (004) and improvement percentages.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
import pandas as pd

from ._inputs import ArrayLike, _samples_2d, _table, _vector
from .rates import MEASURE_FROM_S, SAMPLE_INTERVAL_S, goodput, sampled_throughput


def jain_index(x: ArrayLike) -> float:
    """Jain's fairness index of the allocations ``x`` (one value per flow or per group).

    Definition (003 §4.2 "Fairness Index", from Chiu & Jain; 001 Sect. 5.3.1, Eq. (13);
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


def fairness_and_smoothness(
    results: Any, sample_s: float = SAMPLE_INTERVAL_S, start_s: float = MEASURE_FROM_S
) -> pd.Series:
    """Document 003's four fairness and smoothness metrics (§4.2) of one run's flows.

    * ``fairness_index``: `jain_index` of each flow's throughput over its connection time;
    * ``worst_case_fairness``: `worst_case_fairness` of the same throughputs;
    * ``cov``: `mean_coefficient_of_variation` of the `sampled_throughput` (each flow's
      CoV with the population standard deviation, averaged over the flows);
    * ``short_term_fairness``: `short_term_fairness` of the same samples.

    The long-term throughput is each flow's goodput (payload delivered in order over its
    active time, `goodput`): 003 says only "throughput over the connection time", and
    the samples count the same in-order payload (``delivered_bytes``). The samples are
    ``sample_s`` long from ``start_s`` on (003: 0.5 s from 15 s, the defaults); the
    scenario needs a ``[monitor] interval`` dividing ``sample_s`` and the flows monitored.

    Every flow in the flows table counts (a CBR flow too: pass the TCP flows' results
    only if the others should not). Raises `ValueError` as the four metrics do: no flow
    delivered anything, a flow with no payload in the samples (its CoV is undefined), no
    whole sample after ``start_s``.
    """
    gp = goodput(results)
    samples = sampled_throughput(results, sample_s, start_s)
    return pd.Series({
        "fairness_index": jain_index(gp),
        "worst_case_fairness": worst_case_fairness(gp),
        "cov": mean_coefficient_of_variation(samples),
        "short_term_fairness": short_term_fairness(samples),
    }, name="fairness_and_smoothness")


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
