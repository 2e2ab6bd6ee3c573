//! Retransmission timeout: Jacobson/Karels estimator with Karn's rule and exponential
//! back-off, counted in clock ticks as ns-2.35 does.
//!
//! Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988 (appendix A); Karn &
//! Partridge, "Improving Round-Trip Time Estimates", SIGCOMM 1987; RFC 6298 (clamping the
//! minimum before back-off). Semantics of ns-2.35 `TcpAgent::rtt_update`, `rtt_timeout`,
//! `rtt_backoff` (tcp.cc):
//!   m     = ⌊(sample + offset of the send time within its tick) / tick⌋, at least 1 tick
//!   first sample: srtt = m, rttvar = m/2
//!   then  srtt ← srtt + (m − srtt)/8;  rttvar ← rttvar + (|m − srtt| − rttvar)/4
//!         (fixed point: srtt with 3 fraction bits, rttvar with 2, as ns-2)
//!   rto_base = (srtt + 4·rttvar) ticks, truncated;  before any sample: `initial_rto`
//!   rto = max(rto_base, min_rto)·backoff, capped at max_rto, at least 2 ticks
//!   on timeout: backoff doubles (while < 64 or the RTO is below max_rto); beyond 8 the
//!   smoothed RTT is folded into the variance and forgotten (ns-2 `rtt_backoff`).
//! Karn: the sender times one packet at a time and never a retransmitted one; a timeout
//! cancels the measurement in progress.
//!
//! Parameters (defaults, ns-2): tick 10 ms (`tcpTick_`), min_rto 200 ms (`minrto_`),
//! max_rto 60 s (`maxrto_`), initial_rto 3 s (`rtxcur_init_`).

/// Fraction bits of the fixed-point smoothed RTT (ns-2 T_SRTT_BITS).
const SRTT_BITS: u32 = 3;
/// Fraction bits of the fixed-point RTT variance (ns-2 T_RTTVAR_BITS).
const RTTVAR_BITS: u32 = 2;
/// The RTO adds 2^RTTVAR_EXP = 4 variances (ns-2 rttvar_exp_).
const RTTVAR_EXP: u32 = 2;
/// Back-off stops doubling at this factor unless the RTO is still below max_rto.
const MAX_BACKOFF_DOUBLING: u32 = 64;

#[derive(Debug, Clone)]
pub struct RttEstimator {
    tick: f64,
    min_rto: f64,
    max_rto: f64,
    /// Smoothed RTT in ticks, 3 fraction bits (0 = no sample yet).
    srtt_fixed: i64,
    /// RTT variance in ticks, 2 fraction bits.
    rttvar_fixed: i64,
    /// srtt + 4·rttvar, seconds (ns-2 t_rtxcur_).
    rto_base: f64,
    /// Exponential back-off factor (ns-2 t_backoff_).
    pub backoff: u32,
    /// The latest sample, seconds (unquantized).
    last: Option<f64>,
}

impl RttEstimator {
    pub fn new(tick: f64, min_rto: f64, max_rto: f64, initial_rto: f64) -> Self {
        RttEstimator {
            tick,
            min_rto,
            max_rto,
            srtt_fixed: 0,
            rttvar_fixed: 0,
            rto_base: initial_rto,
            backoff: 1,
            last: None,
        }
    }

    /// Feeds one RTT sample of `sample_s` seconds for a packet sent at `sent_at_s`.
    pub fn update(&mut self, sample_s: f64, sent_at_s: f64) {
        self.last = Some(sample_s);
        let tick_offset = sent_at_s % self.tick;
        let m = (((sample_s + tick_offset) / self.tick) as i64).max(1);
        if self.srtt_fixed != 0 {
            let mut delta = m - (self.srtt_fixed >> SRTT_BITS);
            self.srtt_fixed += delta;
            if self.srtt_fixed <= 0 {
                self.srtt_fixed = 1;
            }
            delta = delta.abs() - (self.rttvar_fixed >> RTTVAR_BITS);
            self.rttvar_fixed += delta;
            if self.rttvar_fixed <= 0 {
                self.rttvar_fixed = 1;
            }
        } else {
            self.srtt_fixed = m << SRTT_BITS;
            self.rttvar_fixed = m << (RTTVAR_BITS - 1);
        }
        let ticks = ((self.rttvar_fixed << (RTTVAR_EXP + (SRTT_BITS - RTTVAR_BITS))) + self.srtt_fixed)
            >> SRTT_BITS;
        self.rto_base = ticks as f64 * self.tick;
    }

    /// The current retransmission timeout, seconds (ns-2 `rtt_timeout` with rfc2988_).
    pub fn timeout(&self) -> f64 {
        let backoff = self.backoff as f64;
        let mut rto = if self.rto_base < self.min_rto { self.min_rto * backoff } else { self.rto_base * backoff };
        if rto > self.max_rto {
            rto = self.max_rto;
        }
        rto.max(2.0 * self.tick)
    }

    /// Doubles the back-off after a timeout (ns-2 `rtt_backoff`).
    pub fn back_off(&mut self) {
        if self.backoff < MAX_BACKOFF_DOUBLING || self.timeout() < self.max_rto {
            self.backoff <<= 1;
        }
        if self.backoff > 8 {
            self.rttvar_fixed += self.srtt_fixed >> SRTT_BITS;
            self.srtt_fixed = 0;
        }
    }

    /// The latest sample fed to the estimator, seconds.
    pub fn last_sample(&self) -> Option<f64> {
        self.last
    }

    /// Smoothed RTT, seconds (0 before the first sample).
    pub fn srtt(&self) -> f64 {
        self.srtt_fixed as f64 / (1 << SRTT_BITS) as f64 * self.tick
    }

    /// RTT variance, seconds.
    pub fn rttvar(&self) -> f64 {
        self.rttvar_fixed as f64 / (1 << RTTVAR_BITS) as f64 * self.tick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns2_default() -> RttEstimator {
        RttEstimator::new(0.01, 0.2, 60.0, 3.0)
    }

    #[test]
    fn before_any_sample_the_initial_rto_applies() {
        assert_eq!(ns2_default().timeout(), 3.0);
    }

    #[test]
    fn first_sample_sets_srtt_and_half_variance() {
        // 100 ms = 10 ticks: srtt 10, rttvar 5, rto = 10 + 4·5 = 30 ticks = 0.3 s.
        let mut r = ns2_default();
        r.update(0.1, 0.0);
        assert!((r.srtt() - 0.1).abs() < 1e-12);
        assert!((r.rttvar() - 0.05).abs() < 1e-12);
        assert!((r.timeout() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn second_sample_moves_srtt_by_an_eighth_and_rttvar_by_a_quarter() {
        // srtt_fixed 80, rttvar_fixed 10 (=5 ticks ×2... fixed: 10<<1 = 20 → 5 ticks).
        // sample 18 ticks: delta = 18 − 10 = 8 → srtt_fixed 88 (11 ticks);
        // |8| − (20 >> 2 = 5) = 3 → rttvar_fixed 23 (5.75 ticks);
        // rto ticks = ((23 << 3) + 88) >> 3 = (184 + 88) >> 3 = 34 → 0.34 s.
        let mut r = ns2_default();
        r.update(0.1, 0.0);
        r.update(0.18, 0.0);
        assert!((r.srtt() - 0.11).abs() < 1e-12);
        assert!((r.rttvar() - 0.0575).abs() < 1e-12);
        assert!((r.timeout() - 0.34).abs() < 1e-12);
    }

    #[test]
    fn samples_are_whole_ticks_including_the_send_offset() {
        // 95 ms sent 7 ms into a tick: ⌊(0.095 + 0.007)/0.01⌋ = 10 ticks.
        let mut r = ns2_default();
        r.update(0.095, 1.007);
        assert!((r.srtt() - 0.1).abs() < 1e-12);
        // A tiny sample still counts as one tick.
        let mut r = ns2_default();
        r.update(0.0001, 0.0);
        assert!((r.srtt() - 0.01).abs() < 1e-12);
    }

    #[test]
    fn min_rto_is_clamped_before_back_off() {
        // rto_base 30 ms < min 200 ms → 200 ms · backoff.
        let mut r = ns2_default();
        r.update(0.01, 0.0); // srtt 1 tick, rttvar 0.5 → (4·... ) = 3 ticks = 0.03 s
        assert!((r.timeout() - 0.2).abs() < 1e-12);
        r.back_off();
        assert!((r.timeout() - 0.4).abs() < 1e-12);
        r.back_off();
        assert!((r.timeout() - 0.8).abs() < 1e-12);
    }

    #[test]
    fn back_off_is_capped_by_max_rto() {
        let mut r = ns2_default();
        for _ in 0..20 {
            r.back_off();
        }
        assert_eq!(r.timeout(), 60.0);
    }

    #[test]
    fn deep_back_off_forgets_srtt() {
        let mut r = ns2_default();
        r.update(0.1, 0.0);
        for _ in 0..4 {
            r.back_off(); // 2, 4, 8, 16: the last one exceeds 8
        }
        assert_eq!(r.srtt(), 0.0);
        // rttvar_fixed 20 + srtt ticks 10 = 30 → 7.5 ticks
        assert!((r.rttvar() - 0.075).abs() < 1e-12);
    }

    #[test]
    fn timeout_never_below_two_ticks() {
        let r = RttEstimator::new(0.5, 0.0, 60.0, 0.1);
        assert_eq!(r.timeout(), 1.0);
    }
}
