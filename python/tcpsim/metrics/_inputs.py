"""Checks and shapes shared by the metrics: a 1-D vector of finite values, a result
table with its required columns, a wide table of per-flow samples within a time
window, ratios that are NaN where the denominator is zero, and a run's measurement
window.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

#: What the pure metrics accept as a sequence of numbers.
ArrayLike = Union[Sequence[float], np.ndarray, pd.Series]


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


def _check_positive(v: float, what: str, allow_zero: bool = False) -> None:
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"{what} must be {'>= 0' if allow_zero else '> 0'}, got {v}")


def _check_counts(total: float, part: float, fn: str, part_name: str) -> None:
    if not (math.isfinite(total) and math.isfinite(part)) or total < 0 or part < 0:
        raise ValueError(f"{fn}: packet counts must be finite and >= 0")
    if part > total:
        raise ValueError(f"{fn}: {part_name} ({part}) exceeds the total ({total})")


def _window_s(summary: Dict[str, Any]) -> Optional[float]:
    """The measurement window of a run, seconds: ``duration_s − measure_from_s``."""
    if summary.get("duration_s") is None:
        return None
    return float(summary["duration_s"]) - float(summary.get("measure_from_s") or 0.0)
