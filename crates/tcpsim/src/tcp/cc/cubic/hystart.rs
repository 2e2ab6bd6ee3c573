//! HyStart++: slow start that leaves early on a rise in delay (RFC 9406 §4).
//!
//! Rounds: a round ends when the cumulative ACK reaches the highest packet sent when it
//! began (RFC 9406's windowEnd = SND.NXT; packets here). At the start of each round
//! (§4.3): lastRoundMinRTT ← currentRoundMinRTT, currentRoundMinRTT ← ∞,
//! rttSampleCount ← 0. Every ACK's RTT sample (its timestamp echo) lowers
//! currentRoundMinRTT and counts.
//!
//! Slow start: cwnd ← cwnd + min(N, L) per ACK of N new packets. Once a round has
//! N_RTT_SAMPLE samples and both rounds' minima are known:
//!   RttThresh = clamp(lastRoundMinRTT / MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH)
//!   currentRoundMinRTT ≥ lastRoundMinRTT + RttThresh  ⇒  enter conservative slow start
//!   (CSS) with cssBaselineMinRtt = currentRoundMinRTT.
//! CSS: cwnd ← cwnd + min(N, L) / CSS_GROWTH_DIVISOR. With N_RTT_SAMPLE samples in the
//!   round, currentRoundMinRTT < cssBaselineMinRtt ⇒ the rise was spurious: back to slow
//!   start. After CSS_ROUNDS rounds (the partial round CSS began in counts as one) ⇒
//!   congestion avoidance, ssthresh ← cwnd.
//! A loss or an ECN echo in slow start or CSS ends HyStart++ (the reduction does), and
//! later slow starts are standard ones (§4.3: HyStart++ in the initial slow start only).
//!
//! Constants (RFC 9406 §4.3, the parameters `hystart_*`): MIN_RTT_THRESH 4 ms,
//! MAX_RTT_THRESH 16 ms, MIN_RTT_DIVISOR 8, N_RTT_SAMPLE 8, CSS_GROWTH_DIVISOR 4,
//! CSS_ROUNDS 5, L 8 (no pacing; the RFC's L = ∞ is for paced senders).

/// HyStart++'s constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HystartParams {
    /// MIN_RTT_THRESH, seconds.
    pub min_rtt_thresh_s: f64,
    /// MAX_RTT_THRESH, seconds.
    pub max_rtt_thresh_s: f64,
    pub min_rtt_divisor: f64,
    pub n_rtt_sample: u32,
    pub css_growth_divisor: f64,
    pub css_rounds: u32,
    /// L, packets one ACK may add.
    pub ack_limit: f64,
}

/// Where HyStart++ is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HystartPhase {
    /// Standard slow start, watching the delay.
    SlowStart,
    /// Conservative slow start since a delay rise: the baseline minimum RTT (seconds) and
    /// the rounds begun in CSS so far (1 in the round it started in).
    Css { baseline_min_rtt: f64, rounds: u32 },
    /// Done: ended by congestion avoidance, a loss or an ECN echo.
    Stopped,
}

/// HyStart++'s state.
#[derive(Debug, Clone)]
pub struct HystartPlusPlus {
    p: HystartParams,
    phase: HystartPhase,
    /// The round ends when the cumulative ACK reaches this packet.
    window_end: i64,
    last_round_min_rtt: f64,
    current_round_min_rtt: f64,
    rtt_sample_count: u32,
}

impl HystartPlusPlus {
    pub fn new(p: HystartParams) -> Self {
        HystartPlusPlus {
            p,
            phase: HystartPhase::SlowStart,
            window_end: 0,
            last_round_min_rtt: f64::INFINITY,
            current_round_min_rtt: f64::INFINITY,
            rtt_sample_count: 0,
        }
    }

    pub fn phase(&self) -> HystartPhase {
        self.phase
    }

    /// HyStart++ still decides slow start's growth.
    pub fn running(&self) -> bool {
        self.phase != HystartPhase::Stopped
    }

    /// A loss, an ECN echo or a timeout: standard slow start from now on.
    pub fn stop(&mut self) {
        self.phase = HystartPhase::Stopped;
    }

    /// RttThresh = clamp(lastRoundMinRTT / MIN_RTT_DIVISOR, MIN_RTT_THRESH,
    /// MAX_RTT_THRESH), seconds.
    pub fn rtt_thresh(&self, last_round_min_rtt: f64) -> f64 {
        (last_round_min_rtt / self.p.min_rtt_divisor).clamp(self.p.min_rtt_thresh_s, self.p.max_rtt_thresh_s)
    }

    /// The growth `acked` newly acknowledged packets give in this phase, packets.
    pub fn increase(&self, acked: f64) -> f64 {
        let limited = acked.min(self.p.ack_limit);
        match self.phase {
            HystartPhase::Css { .. } => limited / self.p.css_growth_divisor,
            _ => limited,
        }
    }

    /// An ACK in slow start: cumulative ACK `ack`, highest packet sent `maxseq`, its RTT
    /// sample. True when CSS has run its rounds and congestion avoidance begins.
    pub fn on_ack(&mut self, ack: i64, maxseq: i64, rtt_s: Option<f64>) -> bool {
        if !self.running() {
            return false;
        }
        if ack >= self.window_end {
            self.window_end = maxseq.max(ack + 1);
            self.last_round_min_rtt = self.current_round_min_rtt;
            self.current_round_min_rtt = f64::INFINITY;
            self.rtt_sample_count = 0;
            if let HystartPhase::Css { rounds, .. } = &mut self.phase {
                *rounds += 1;
                if *rounds > self.p.css_rounds {
                    self.phase = HystartPhase::Stopped;
                    return true;
                }
            }
        }
        if let Some(rtt) = rtt_s {
            self.current_round_min_rtt = self.current_round_min_rtt.min(rtt);
            self.rtt_sample_count += 1;
        }
        if self.rtt_sample_count < self.p.n_rtt_sample {
            return false;
        }
        match self.phase {
            HystartPhase::SlowStart if self.last_round_min_rtt.is_finite() && self.current_round_min_rtt.is_finite() => {
                if self.current_round_min_rtt >= self.last_round_min_rtt + self.rtt_thresh(self.last_round_min_rtt) {
                    self.phase = HystartPhase::Css { baseline_min_rtt: self.current_round_min_rtt, rounds: 1 };
                }
            }
            HystartPhase::Css { baseline_min_rtt, .. } if self.current_round_min_rtt < baseline_min_rtt => {
                self.phase = HystartPhase::SlowStart;
            }
            _ => {}
        }
        false
    }
}
