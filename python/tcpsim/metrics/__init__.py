"""Performance metrics of the reference documents, over numpy arrays and tcpsim result tables.

Every metric is defined exactly as in one of the reference documents, which are cited by
number:

====  ======================================================================================
000   C.-W. Chang, *TCP Performance Analysis and Fairness Improvement in Different
      Congestion Control Methods*, M.S. thesis, NCTU, 2004 (Reno/Vegas, dynamic RED).
001   Y.-C. Chan, C.-L. Lin, C.-Y. Ho, *Quick Vegas: Improving Performance of TCP Vegas
      for High Bandwidth-Delay Product Networks*, IEICE Trans. Commun. E91-B(4), 2008
      (Sect. 5.2 convergence time, Sect. 5.3.1 Eq. (13)).
002   R. M. Arora, *TCP/IP Networks with ECN over AQM*, M.Eng. thesis, Carleton, 2003
      (§2.3 "Performance Characteristics").
003   C. Zhang, V. Tsaoussidis, *Improving TCP Smoothness by Synchronized and
      Measurement-based Congestion Avoidance*, NOSSDAV 2003 (§4.2 "Performance Metrics").
004   NS-2 study of TCP Vegas, Sack and Fack under DropTail and RED, no title or authors
      printed (§I "Performance metrics", §II).
====  ======================================================================================

Two kinds of functions:

* pure functions of numbers or arrays (`jain_index`, `worst_case_fairness`,
  `coefficient_of_variation`, `throughput_ratio`, `improvement_percent`,
  `convergence_time`, `recovery_time`, `utilization`, `packet_loss_rate`,
  `normalized_queue_length`, `retransmission_fraction`, `queue_statistics`, ...), which raise `ValueError` on
  empty input, negative or non-finite values, and zero denominators;
* table functions that take a tcpsim result table (or a `tcpsim.Results`, from which the
  right table is taken): `throughput_series`, `window_throughput`, `throughput`, `goodput`,
  `loss_rate`, `drop_rates`, `mean_queueing_delay`, `link_utilization`,
  `group_throughput_ratio`, `sampled_throughput`, `fairness_and_smoothness`,
  `handoff_recovery_time`, `normalized_queue`, `group_goodput`. They return pandas objects indexed by flow, queue or link
  name. An empty table raises `ValueError`; a single row whose denominator is zero (a
  queue that saw no packet, say) gives NaN in that row rather than failing the table.

Each metric's definition, source, units and worked example (a doctest) live side by side
in its docstring, in one module per subject; every name is importable from here
(``tcpsim.metrics.jain_index``):

* `fairness` — Jain's index, worst-case fairness, coefficient of variation, short-term
  fairness, the four of them together on a run (003), throughput ratios between
  groups, improvement percentages;
* `convergence` — `convergence_time`, and `recovery_time` after an outage (003's handoff);
* `rates` — throughput and goodput (from counts and from the flows table),
  aggregate goodput, goodput per group of flows (002's subnets), retransmission ratio
  and 002's retransmission fraction, throughput over time, in 003's 0.5 s samples and
  within windows;
* `links` — link utilization;
* `queues` — packet loss and drop rates, queueing delay, normalized queue length (003),
  the mean, spread and maximum of a sampled queue (002).

Throughput from the time series: the monitor's ``delivered_bytes`` sample at time ``t``
is the payload delivered *in order* to the receiver during the interval ``(t - I, t]``
(``I`` = the monitor interval). `throughput_series` turns it into bits per second,
``8 * delivered_bytes / I`` — document 003's "allotted throughput ``throughput_i(t)``" —
on which `short_term_fairness`, `coefficient_of_variation` and `window_throughput` work.

See ``docs/metrics.md`` for the same definitions with worked examples and the places
where a document's printed numbers disagree with its own formula.
"""

from __future__ import annotations

from ._inputs import ArrayLike
from .fairness import (
    jain_index, worst_case_fairness, coefficient_of_variation,
    mean_coefficient_of_variation, jain_index_series, short_term_fairness,
    fairness_and_smoothness, throughput_ratio, group_throughput_ratio, improvement_percent,
)
from .convergence import convergence_time, recovery_time, handoff_recovery_time
from .rates import (
    throughput_bps, goodput_bps, throughput, goodput, aggregate_goodput,
    retransmission_ratio, retransmission_fraction, group_goodput, throughput_series,
    window_throughput, sampled_throughput,
)
from .links import utilization, link_utilization
from .queues import (
    packet_loss_rate, loss_rate, drop_rates, queueing_delay, mean_queueing_delay,
    normalized_queue_length, normalized_queue, queue_statistics,
)

__all__ = [
    # fairness
    "jain_index",
    "worst_case_fairness",
    "coefficient_of_variation",
    "mean_coefficient_of_variation",
    "jain_index_series",
    "short_term_fairness",
    "fairness_and_smoothness",
    "throughput_ratio",
    "group_throughput_ratio",
    "improvement_percent",
    # convergence
    "convergence_time",
    "recovery_time",
    "handoff_recovery_time",
    # rates
    "throughput_bps",
    "goodput_bps",
    "throughput",
    "goodput",
    "aggregate_goodput",
    "retransmission_ratio",
    "retransmission_fraction",
    "group_goodput",
    "throughput_series",
    "window_throughput",
    "sampled_throughput",
    # links
    "utilization",
    "link_utilization",
    # queues
    "packet_loss_rate",
    "loss_rate",
    "drop_rates",
    "queueing_delay",
    "mean_queueing_delay",
    "normalized_queue_length",
    "normalized_queue",
    "queue_statistics",
]
