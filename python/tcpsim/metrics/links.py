"""Use of links: utilization as carried rate over capacity, and per link from the
links table (busy time or bytes sent).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
import pandas as pd

from ._inputs import ArrayLike, _check_positive, _ratio, _table, _vector, _window_s


def utilization(throughput_bps: Union[float, ArrayLike], capacity_bps: float) -> Union[float, np.ndarray]:
    """Link utilization: carried rate divided by link capacity.

    Definition (000 §3.3/§4.1: "the *Utilization* is calculated based on dividing the
    *Total* throughput by 2000" [Kbps, the bottleneck capacity]; 001 Sect. 5.3 reports
    utilization undefined, our reading: bits delivered over the bottleneck per interval /
    (C_b · interval); 002 §2.3.2: Throughput ·
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
