"""The measurements of a reproduction in words: the one table (`MEASURE_LABELS`) from
which a figure labels an axis with a measurement (`measure_label`), so no figure shows an
internal name such as ``conv_rtts.0``.

The names are those of `tcpsim.reproduce.measures` (and docs/reproducing.md#metrics).
A name with a suffix after a dot (``conv_rtts.N`` per event, ``jain_window.K`` per
window, ``flow_throughput_mbps.NAME`` per flow) is labelled by what comes before the dot;
the figure's caption says which event, window or flow. `tests/test_reproduce_figures.py`
fails when a measurement has no label here.
"""

from __future__ import annotations

from typing import Dict, Tuple

#: Each measurement: what it is in words, and its unit ("" for a pure number).
MEASURE_LABELS: Dict[str, Tuple[str, str]] = {
    # run_measures: counters and time series of one run
    "tcp_sent": ("TCP packets sent", "packets"),
    "tcp_lost": ("TCP packets lost", "packets"),
    "tcp_received": ("TCP packets received", "packets"),
    "tcp_drop_rate": ("TCP drop rate (lost / sent)", ""),
    "tcp_throughput_mbps": ("TCP throughput", "Mb/s"),
    "tcp_goodput_mbps": ("TCP goodput", "Mb/s"),
    "udp_sent": ("UDP packets sent", "packets"),
    "udp_received": ("UDP packets received", "packets"),
    "udp_throughput_mbps": ("UDP throughput", "Mb/s"),
    "rtt_ms": ("mean RTT of the TCP flows", "ms"),
    "jain": ("Jain's fairness index", ""),
    "max_min_share": ("largest over smallest goodput", ""),
    # values a window control records (Reno + γ: gamma), the name after the dot
    "recorded_count": ("values a window control recorded", ""),
    "recorded_mean": ("mean value a window control recorded", ""),
    "recorded_min": ("smallest value a window control recorded", ""),
    "recorded_max": ("largest value a window control recorded", ""),
    "flow_recorded_mean": ("mean value the window control of one flow recorded", ""),
    "cwnd_cuts": ("window reductions per TCP flow", ""),
    "bottleneck_queue_mean_pkts": ("mean bottleneck queue", "packets"),
    "tcp_retransmits": ("TCP retransmissions", "packets"),
    "tcp_timeouts": ("TCP retransmission timeouts", ""),
    "bottleneck_early_drops": ("early drops at the bottleneck (AQM)", "packets"),
    "bottleneck_forced_drops": ("drops of arrivals at a full bottleneck queue", "packets"),
    "bottleneck_marks": ("ECN marks at the bottleneck", "packets"),
    "flow_throughput_mbps": ("throughput", "Mb/s"),
    # event_measures: slow-start exit and convergence after each event
    "ss_exit_s": ("time slow start ended", "s"),
    "ss_exit_cwnd": ("window on leaving slow start", "packets"),
    "conv_s": ("convergence time", "s"),
    "conv_rtts": ("convergence time", "BaseRTTs"),
    "cwnd_eq": ("stable window", "packets"),
    "queue_peak_pkts": ("peak bottleneck queue", "packets"),
    "queue_eq_pkts": ("settled bottleneck queue", "packets"),
    # window_measures: per measurement window
    "jain_window": ("Jain's fairness index", ""),
    "utilization_window": ("bottleneck utilization", ""),
    "full_utilization_s": ("time to full bottleneck utilization", "s"),
    # smoothness_measures: reference document 003's fairness and smoothness metrics
    "fairness_index": ("fairness index (Jain's, over the connection time)", ""),
    "worst_case_fairness": ("worst-case fairness (smallest over largest throughput)", ""),
    "cov": ("coefficient of variation of throughput, mean over flows", ""),
    "short_term_fairness": ("short-term fairness (Jain's index per sample, averaged)", ""),
    "queue_norm_mean": ("mean bottleneck queue over its buffer", ""),
    "queue_norm_max": ("largest bottleneck queue over its buffer", ""),
    # aqm_measures: reference document 002's measures of groups (subnets) and the bottleneck
    "group_goodput_mbps": ("goodput of a group of flows (a subnet)", "Mb/s"),
    "jain_groups": ("Jain's fairness index over the groups (subnets)", ""),
    "bottleneck_utilization": ("bottleneck utilization", ""),
    "bottleneck_loss_rate": ("bottleneck loss rate (drops / arrivals)", ""),
    "bottleneck_delay_ms": ("mean queueing delay at the bottleneck", "ms"),
    "bottleneck_delay_median_ms": ("median of the bottleneck's per-interval queueing delay", "ms"),
    "queue_mean_pkts": ("mean bottleneck queue (samples)", "packets"),
    "queue_std_pkts": ("standard deviation of the bottleneck queue (samples)", "packets"),
    "queue_max_pkts": ("largest bottleneck queue (samples)", "packets"),
    "retransmit_fraction": ("retransmitted share of the packets sent ((throughput − goodput) / throughput)", ""),
    # cubic_epoch_measures: CUBIC's window curve after each loss (RFC 9438)
    "cubic_epochs": ("CUBIC epochs measured (reductions followed by a regained W_max)", ""),
    "cubic_regain_s": ("time from a reduction to regaining W_max (fitted plateau)", "s"),
    "cubic_k_s": ("K of RFC 9438 eq. 2 for the epoch's W_max", "s"),
    "cubic_regain_k": ("time to regain W_max over K", ""),
    "cubic_w_max": ("W_max, the fitted plateau of an epoch", "packets"),
    "cubic_c": ("C of the fitted cubic curve", "packets/s^3"),
    "cubic_rate_first": ("window growth in the first quarter of the climb to W_max", "packets/s"),
    "cubic_rate_before": ("window growth in the last quarter before W_max", "packets/s"),
    "cubic_rate_after": ("window growth from W_max to the next reduction", "packets/s"),
    "flow_share": ("share of the TCP throughput", ""),
    # handoff_measures: recovery after an outage
    "recovery_s": ("recovery time after the outage", "s"),
    # group_measures: reference document 000's measures per congestion control and queue
    "flow_kbps": ("throughput", "Kb/s"),
    "flow_kbps_window": ("throughput", "Kb/s"),
    "flow_rtt_min_ms": ("smallest RTT sample (Vegas' BaseRTT)", "ms"),
    "flow_rtt_mean_ms": ("mean RTT sample", "ms"),
    "flow_timeouts": ("retransmission timeouts of one flow", ""),
    "cc_mean_kbps": ("mean throughput of the flows of one congestion control", "Kb/s"),
    "vegas_reno_ratio": ("mean Vegas over mean Reno throughput", ""),
    "total_kbps": ("total TCP throughput", "Kb/s"),
    "utilization_total": ("total TCP throughput over the bottleneck rate", ""),
    "cc_mean_kbps_window": ("mean throughput of the flows of one congestion control", "Kb/s"),
    "vegas_reno_ratio_window": ("mean Vegas over mean Reno throughput", ""),
    "total_kbps_window": ("total TCP throughput", "Kb/s"),
    "utilization_total_window": ("total TCP throughput over the bottleneck rate", ""),
    "queue_arrivals": ("packets arriving at the queue", "packets"),
    "queue_drops": ("packets dropped by the queue", "packets"),
    # trace_measures: from an ns-2 trace, as the document's scripts compute them
    "trace_sent": ("TCP packets sent (trace)", "packets"),
    "trace_received": ("TCP packets received (trace)", "packets"),
    "trace_lost": ("TCP packets lost (trace)", "packets"),
    "trace_drop_rate": ("TCP drop rate (trace)", ""),
    "trace_delay_ms": ("mean packet delay (trace)", "ms"),
    "trace_delay_min_ms": ("smallest packet delay (trace)", "ms"),
    "trace_throughput_mbps": ("TCP throughput (trace)", "Mb/s"),
    "trace_received_bytes": ("TCP bytes received (trace)", "bytes"),
    "trace_acks": ("ACKs sent (trace)", "packets"),
    "trace_ack_drops": ("ACKs lost (trace)", "packets"),
    "trace_drops_all": ("packets lost on the traced links (trace)", "packets"),
}


def measure_label(name: str) -> str:
    """The axis label of measurement `name`: its words and unit, ``"convergence time
    (BaseRTTs)"`` for ``conv_rtts.0``. A ValueError for a name the table lacks."""
    base = name.split(".", 1)[0]
    if base not in MEASURE_LABELS:
        raise ValueError(f"measurement {name!r} has no label in "
                         f"tcpsim.reproduce.labels.MEASURE_LABELS; add one there")
    words, unit = MEASURE_LABELS[base]
    return f"{words} ({unit})" if unit else words
