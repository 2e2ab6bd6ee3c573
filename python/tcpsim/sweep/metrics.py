"""Summary metrics of one sweep run: `run_metrics` and the `METRICS` columns of the
sweep table."""

from __future__ import annotations

from typing import Any, Dict, Tuple

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
    from ..analysis import jain  # pandas; not needed until a run is summarized

    nan = float("nan")
    f, q, l, s = results.flows, results.queues, results.links, results.summary
    m: Dict[str, Any] = {k: nan for k in METRICS}
    m["flows"] = int(len(f))
    if len(f):
        gp = f["goodput_bps"].astype(float)
        if s.get("aggregate_goodput_bps") is not None:
            m["goodput_bps"] = float(s["aggregate_goodput_bps"])
        else:  # results saved before the core reported it: same definition, from the table
            window = float(s.get("duration_s", nan)) - float(s.get("measure_from_s", 0.0))
            m["goodput_bps"] = float(f["goodput_bytes"].astype(float).sum() * 8.0 / window)
        m["goodput_bps_min"] = float(gp.min())
        tcp = f[f["type"] == "tcp"] if "type" in f else f
        m["jain_index"] = jain((tcp if len(tcp) else f)["goodput_bps"])
        m["retransmits"] = int(tcp["retransmits"].sum()) if len(tcp) else 0
        m["timeouts"] = int(tcp["timeouts"].sum()) if len(tcp) else 0
        n = f["rtt_samples"].astype(float)
        if n.sum() > 0:
            m["rtt_mean_s"] = float((f["rtt_mean_s"].astype(float).fillna(0) * n).sum() / n.sum())
    if len(q):
        for col in ("early_drops", "overflow_drops", "marks"):
            m[col] = int(q[col].sum())
        m["drops"] = m["early_drops"] + m["overflow_drops"]
    else:
        m.update(early_drops=0, overflow_drops=0, marks=0, drops=0)
    m["bottleneck"] = ""
    if len(l):
        top = l.loc[l["utilization"].astype(float).idxmax()]
        m["bottleneck"] = str(top["link"])
        m["bottleneck_utilization"] = float(top["utilization"])
        if len(q):
            bq = q[q["queue"] == top["link"]]
            if len(bq):
                m["bottleneck_queue_mean_pkts"] = float(bq["mean_length_pkts"].iloc[0])
                m["bottleneck_drops"] = int(bq["early_drops"].iloc[0] + bq["overflow_drops"].iloc[0])
    events = s.get("events")
    m["events"] = int(events) if isinstance(events, (int, float)) else nan
    wall = s.get("wall_seconds", s.get("wall_time_s"))
    m["wall_s"] = float(wall) if isinstance(wall, (int, float)) else nan
    return {k: _num(v) for k, v in m.items()}
