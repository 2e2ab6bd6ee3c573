"""Quantities with units as scenario files write them (``"10Mbps"``, ``"250p"``,
``"64KB"``, ``"40ms"``), read as numbers so that sweep tables sort and plots place them
by value, not as text ("100p" after "25p", not before it).

There is one grammar of quantities, the core's (``tcpsim._core.parse_quantity``, the
scenario reader's own; docs/scenario.md#units has its table): this module asks it which
kind a text is and converts the answer to the base unit of its dimension. Bits are
``b``, bytes ``B`` (case matters); decimal prefixes k/K, M, G, T, and binary ones Ki,
Mi, Gi, Ti for sizes only.

What this module accepts is therefore exactly what a scenario accepts. Before it asked
the core, it had a grammar of its own; the texts on which the two differed now follow
the core:

- newly read: the other spellings of units (``sec``, ``min``, ``μs`` with a Greek mu;
  rates in ``b``, ``b/s``, ``bit/s``, ``B/s``, so ``"100Mb"`` is a rate; ``bytes``;
  packets as ``pkt``, ``pkts``, ``packets``);
- no longer read (`parse` returns None): spaces before or after the value, or more than
  one between number and unit; a sign (``"-1s"``, ``"+1s"``); a zero or negative rate;
  fractions of a byte or a packet (``"1.5B"``, ``"2.5p"``); binary prefixes on rates
  (``"1Mibps"``); values outside the core's ranges (rates up to 1000 Tbit/s, sizes up
  to 10^15 bytes, 10^12 packets, times below 2^63 ps); more than 30 significant digits;
- values: times are whole picoseconds and rates whole bits per second, as the core
  reads them (``"1e-13s"`` is 0 s), and the number is read exactly before it is turned
  into a float (``"1.1KB"`` is exactly 1100 bytes).
"""

from __future__ import annotations

import functools
import math
from typing import Dict, Hashable, Iterable, Optional, Tuple

from ._core import parse_quantity

#: Axis unit of each dimension `parse` returns.
UNITS = {"rate": "bit/s", "time": "s", "packets": "packets", "bytes": "B"}

#: The core's kinds tried in turn ("limit" covers packet counts and sizes in bytes; no
#: text is a quantity of two of them).
_KINDS = ("time", "rate", "limit")
#: Each unit the core answers in: how many of it make one base unit, and the dimension.
_FROM_CORE = {"ps": (1e12, "time"), "bit/s": (1, "rate"), "p": (1, "packets"),
              "B": (1, "bytes")}


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> Optional[Tuple[float, str]]:
    for kind in _KINDS:
        try:
            value, unit = parse_quantity(kind, text)
        except ValueError:  # not a quantity of this kind (or not text the core can read)
            continue
        per_base_unit, dimension = _FROM_CORE[unit]
        return value / per_base_unit, dimension
    return None


def parse(text: object) -> Optional[Tuple[float, str]]:
    """``(value in base units, dimension)`` of a quantity string, or None.

    Dimensions: ``rate`` (bit/s; ``"10Mbps"``, ``"1.25MBps"`` = 10 Mbit/s), ``time``
    (seconds), ``packets`` (``"250p"``), ``bytes`` (``"64KB"``, ``"1MiB"``)."""
    if not isinstance(text, str):
        return None
    return _parse_text(text)


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
