"""Summary metrics of one sweep run: `run_metrics` and the `METRICS` columns of the
sweep table."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Sequence, Tuple

from ..results import Results

METRICS_VERSION = 1

#: The summary metrics of every run (columns of the sweep table, in this order).
METRICS: Tuple[str, ...] = (
    "flows", "goodput_bps", "goodput_bps_min", "jain_index", "retransmits", "timeouts",
    "rtt_mean_s", "drops", "early_drops", "overflow_drops", "marks", "bottleneck",
    "bottleneck_utilization", "bottleneck_queue_mean_pkts", "bottleneck_drops", "events",
    "wall_s",
)


def _num(v: Any) -> Any:
    """Plain Python number (JSON-able) from a numpy scalar."""
    try:
        import numpy as np

        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.floating):
            return float(v)
    except ImportError:  # pragma: no cover
        pass
    return v


def run_metrics(results: Results) -> Dict[str, Any]:
    """The summary metrics of one run (the `METRICS` columns of the sweep table).

    - ``flows``: number of flows; ``goodput_bps``: their aggregate goodput, the bytes
      all flows delivered in the measurement window (``[simulation] measure_from`` to the
      end) per second of the window — never more than the links carried;
      ``goodput_bps_min``: the smallest flow goodput.
    - ``jain_index``: Jain's fairness index of the TCP flows' goodputs (all flows if
      there is no TCP flow).
    - ``retransmits``, ``timeouts``: summed over TCP flows; ``rtt_mean_s``: mean RTT
      over all RTT samples of all flows.
    - ``early_drops``, ``overflow_drops``, ``marks``: summed over every queue;
      ``drops`` = early + overflow drops.
    - ``bottleneck``: the link direction with the highest utilization;
      ``bottleneck_utilization``, ``bottleneck_queue_mean_pkts`` and
      ``bottleneck_drops`` of it.
    - ``events``, ``wall_s``: simulator events and wall-clock seconds of the run.
    """
    import numpy as np

    from ..analysis import jain

    nan = float("nan")
    # The tables' columns, not their DataFrames: a run's results have not built them
    # (`Results.columns`). Sums and extremes go through NumPy as pandas' would (its
    # float sums are NumPy's pairwise sums with NaN as 0), so the values are the same.
    f, q, l = (results.columns(t) for t in ("flows", "queues", "links"))
    s = results.summary
    m: Dict[str, Any] = {k: nan for k in METRICS}
    m["flows"] = _rows(f)
    if m["flows"]:
        floats = lambda c: np.asarray(f[c], dtype=float)  # noqa: E731
        gp = floats("goodput_bps")
        if s.get("aggregate_goodput_bps") is not None:
            m["goodput_bps"] = float(s["aggregate_goodput_bps"])
        else:  # results saved before the core reported it: same definition, from the table
            window = float(s.get("duration_s", nan)) - float(s.get("measure_from_s", 0.0))
            m["goodput_bps"] = float(np.nansum(floats("goodput_bytes")) * 8.0 / window)
        m["goodput_bps_min"] = float(np.nanmin(gp)) if not np.isnan(gp).all() else nan
        tcp = [t == "tcp" for t in f["type"]] if "type" in f else [True] * m["flows"]
        if any(tcp):
            m["jain_index"] = jain(gp[tcp])
            m["retransmits"] = sum(int(v) for v, t in zip(f["retransmits"], tcp) if t)
            m["timeouts"] = sum(int(v) for v, t in zip(f["timeouts"], tcp) if t)
        else:
            m.update(jain_index=jain(gp), retransmits=0, timeouts=0)
        n = floats("rtt_samples")
        if np.nansum(n) > 0:
            rtt = floats("rtt_mean_s")
            m["rtt_mean_s"] = float(np.nansum(np.where(np.isnan(rtt), 0.0, rtt) * n) / np.nansum(n))
    if _rows(q):
        for col in ("early_drops", "overflow_drops", "marks"):
            m[col] = sum(int(v) for v in q[col])
        m["drops"] = m["early_drops"] + m["overflow_drops"]
    else:
        m.update(early_drops=0, overflow_drops=0, marks=0, drops=0)
    m["bottleneck"] = ""
    if _rows(l):
        top = int(np.nanargmax(np.asarray(l["utilization"], dtype=float)))  # the first busiest
        link = str(l["link"][top])
        m["bottleneck"] = link
        m["bottleneck_utilization"] = float(l["utilization"][top])
        if _rows(q):
            queues = list(q["queue"])
            if link in queues:
                i = queues.index(link)
                m["bottleneck_queue_mean_pkts"] = float(q["mean_length_pkts"][i])
                m["bottleneck_drops"] = int(q["early_drops"][i]) + int(q["overflow_drops"][i])
    events = s.get("events")
    m["events"] = int(events) if isinstance(events, (int, float)) else nan
    wall = s.get("wall_seconds", s.get("wall_time_s"))
    m["wall_s"] = float(wall) if isinstance(wall, (int, float)) else nan
    return {k: _num(v) for k, v in m.items()}


def _rows(columns: Mapping[str, Sequence[Any]]) -> int:
    return len(next(iter(columns.values()))) if columns else 0
