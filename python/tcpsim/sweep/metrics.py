"""Summary metrics of one sweep run: `run_metrics` and the `METRICS` columns of the
sweep table."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

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
    # The columns, not the DataFrames: a run's results build those only when asked for.
    return table_metrics(*(results.columns(t) for t in ("flows", "queues", "links")), results.summary)


class _Columns:
    """A table's columns as NumPy arrays, each made when first asked for, from a DataFrame
    or from the core's ``{column: list}`` (optionally only the rows `rows` selects): the
    metrics of a sweep's run come straight from the core's lists, without a DataFrame
    (issue 22)."""

    def __init__(self, table: Any, rows: Any = None):
        self.table = table
        self.names = list(table.columns) if hasattr(table, "columns") else list(table)
        self.selected = rows
        if rows is not None:
            self.rows = int(rows.sum())
        else:
            self.rows = len(self.table[self.names[0]]) if self.names else 0
        self.arrays: Dict[str, Any] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def __getitem__(self, name: str):
        if name not in self.arrays:
            import numpy as np

            column = self.table[name]
            array = column.to_numpy() if hasattr(column, "to_numpy") else np.asarray(column)
            self.arrays[name] = array if self.selected is None else array[self.selected]
        return self.arrays[name]

    def where(self, rows) -> "_Columns":
        """The rows where the boolean array `rows` is true."""
        return _Columns(self.table, rows)


# pandas' reductions, which `run_metrics` used on DataFrames, written out on arrays with
# the same arithmetic: a sum skips NaN (NumPy's pairwise sum of the values, NaN as 0), a
# minimum skips NaN (NaN when nothing is left), the first row of the largest value.

def _nan_as_zero(values):
    """pandas' ``fillna(0)`` of a float array."""
    import numpy as np

    return np.where(np.isnan(values), 0.0, values)


def _sum(values) -> Any:
    return (_nan_as_zero(values) if values.dtype.kind == "f" else values).sum()


def _min(values) -> float:
    import numpy as np

    kept = values[~np.isnan(values)]
    return float(kept.min()) if kept.size else float("nan")


def table_metrics(flows: Any, queues: Any, links: Any, summary: Mapping[str, Any]) -> Dict[str, Any]:
    """`run_metrics` of tables given as DataFrames or as the core's ``{column: list}``."""
    from ..analysis import jain  # pandas; not needed until a run is summarized

    nan = float("nan")
    f, q, l, s = _Columns(flows), _Columns(queues), _Columns(links), summary
    m: Dict[str, Any] = {k: nan for k in METRICS}
    m["flows"] = int(f.rows)
    if f.rows:
        gp = f["goodput_bps"].astype(float)
        if s.get("aggregate_goodput_bps") is not None:
            m["goodput_bps"] = float(s["aggregate_goodput_bps"])
        else:  # results saved before the core reported it: same definition, from the table
            window = float(s.get("duration_s", nan)) - float(s.get("measure_from_s", 0.0))
            m["goodput_bps"] = float(_sum(f["goodput_bytes"].astype(float)) * 8.0 / window)
        m["goodput_bps_min"] = _min(gp)
        tcp = f.where(f["type"] == "tcp") if "type" in f else f
        m["jain_index"] = jain((tcp if tcp.rows else f)["goodput_bps"])
        m["retransmits"] = int(_sum(tcp["retransmits"])) if tcp.rows else 0
        m["timeouts"] = int(_sum(tcp["timeouts"])) if tcp.rows else 0
        n = f["rtt_samples"].astype(float)
        if _sum(n) > 0:
            m["rtt_mean_s"] = float(_sum(_nan_as_zero(f["rtt_mean_s"].astype(float)) * n) / _sum(n))
    if q.rows:
        for col in ("early_drops", "overflow_drops", "marks"):
            m[col] = int(_sum(q[col]))
        m["drops"] = m["early_drops"] + m["overflow_drops"]
    else:
        m.update(early_drops=0, overflow_drops=0, marks=0, drops=0)
    m["bottleneck"] = ""
    if l.rows:
        import numpy as np

        top = int(np.nanargmax(l["utilization"].astype(float)))
        m["bottleneck"] = str(l["link"][top])
        m["bottleneck_utilization"] = float(l["utilization"][top])
        if q.rows:
            matches = np.flatnonzero(q["queue"] == l["link"][top])
            if matches.size:
                first = matches[0]
                m["bottleneck_queue_mean_pkts"] = float(q["mean_length_pkts"][first])
                m["bottleneck_drops"] = int(q["early_drops"][first] + q["overflow_drops"][first])
    events = s.get("events")
    m["events"] = int(events) if isinstance(events, (int, float)) else nan
    wall = s.get("wall_seconds", s.get("wall_time_s"))
    m["wall_s"] = float(wall) if isinstance(wall, (int, float)) else nan
    return {k: _num(v) for k, v in m.items()}

