//! The TCP sender's counters (the flows table's columns and RTT statistics).

/// Per-flow sender counters.
#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub packets_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// Window reductions for ECN echoes (ns-2 `necnresponses_`).
    pub ecn_reductions: u64,
    pub rtt_samples: u64,
    pub rtt_sum: f64,
    pub rtt_min: f64,
    pub rtt_max: f64,
}
