"""Quantities with units as scenario files write them (``"10Mbps"``, ``"250p"``,
``"64KB"``, ``"40ms"``), read as numbers so that sweep tables sort and plots place them
by value, not as text ("100p" after "25p", not before it).

Only for ordering and plotting: the core's scenario reader is the one that decides what
a scenario accepts (docs/scenario.md has the grammar). Bits are ``b``, bytes ``B``
(case matters); decimal prefixes k/K, M, G, T and binary ones Ki, Mi, Gi, Ti.
"""

from __future__ import annotations

import math
import re
from typing import Dict, Hashable, Iterable, Optional, Tuple

_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
           "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40}
_TIME = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9, "ps": 1e-12}
_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµ/]*)\s*$")

#: Axis unit of each dimension `parse` returns.
UNITS = {"rate": "bit/s", "time": "s", "packets": "packets", "bytes": "B"}


def parse(text: object) -> Optional[Tuple[float, str]]:
    """``(value in base units, dimension)`` of a quantity string, or None.

    Dimensions: ``rate`` (bit/s; ``"10Mbps"``, ``"1.25MBps"`` = 10 Mbit/s), ``time``
    (seconds), ``packets`` (``"250p"``), ``bytes`` (``"64KB"``, ``"1MiB"``)."""
    if not isinstance(text, str):
        return None
    m = _QUANTITY.match(text)
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if unit in _TIME:
        return number * _TIME[unit], "time"
    if unit == "p":
        return number, "packets"
    for suffix, factor, dim in (("bps", 1.0, "rate"), ("Bps", 8.0, "rate"), ("B", 1.0, "bytes")):
        if unit.endswith(suffix):
            prefix = unit[: -len(suffix)]
            if prefix in _PREFIX:
                return number * _PREFIX[prefix] * factor, dim
    return None


def numeric(values: Iterable[Hashable]) -> Optional[Tuple[Dict[Hashable, float], str]]:
    """``({value: number}, dimension)`` when every value is a quantity of one dimension
    (numbers alone, without units, do not count), else None."""
    out: Dict[Hashable, float] = {}
    dims = set()
    for v in values:
        q = parse(v)
        if q is None:
            return None
        out[v], _ = q
        dims.add(q[1])
    if len(dims) != 1 or not out:
        return None
    return out, dims.pop()


def sort_key(value: object) -> Tuple[int, float, str]:
    """Orders numbers and quantities by value (numbers before text), text by itself."""
    if isinstance(value, bool):
        return (1, 0.0, str(value))
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return (0, float(value), "")
    try:
        import numpy as np

        if isinstance(value, (np.integer, np.floating)):
            return (0, float(value), "")
    except ImportError:  # pragma: no cover
        pass
    q = parse(value)
    if q is not None:
        return (0, q[0], q[1])
    return (1, 0.0, str(value))
