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
//!
//! With `rto_rule = "linux"` the estimator is Linux's (`tcp_rtt_estimator`,
//! `tcp_set_rto`, `__tcp_set_rto`, `tcp_bound_rto` in `net/ipv4/tcp_input.c` and
//! `include/net/tcp.h`), in whole microseconds as Linux keeps it (srtt 8·SRTT, mdev
//! 4·deviation, both in µs):
//!   m = sample in µs, at least 1
//!   first sample: srtt = m; mdev = 2m (4·deviation = 2m, so the RTO is 3·RTT);
//!                 rttvar = mdev_max = max(mdev, min_rto)
//!   then  srtt ← srtt + (m − srtt)/8
//!         err = m − srtt (before the update); if err < 0: err = (|err| − mdev/4)/8 when
//!         positive, else |err| − mdev/4 (a falling RTT moves the deviation 8 times less)
//!         else err = err − mdev/4;  mdev ← mdev + err (in 4·deviation units)
//!         mdev_max ← max(mdev_max, mdev); rttvar ← max(rttvar, mdev_max)
//!         once per window of data (the ACK passed the snd.nxt of the last such step):
//!         rttvar ← rttvar − (rttvar − mdev_max)/4 if mdev_max < rttvar;
//!         mdev_max ← min_rto
//!   rto = srtt + rttvar, i.e. SRTT + max(4·deviation over the last window, min_rto),
//!         rounded up to the clock tick (Linux's jiffies), times the back-off, at most
//!         max_rto (TCP_RTO_MAX 120 s); before any sample: initial_rto (Linux 1 s).
//! The back-off doubles on each timeout; srtt is never forgotten (ns-2's fold after a
//! back-off of 8 is not Linux's).

/// Fraction bits of the fixed-point smoothed RTT (ns-2 T_SRTT_BITS).
const SRTT_BITS: u32 = 3;
/// Fraction bits of the fixed-point RTT variance (ns-2 T_RTTVAR_BITS).
const RTTVAR_BITS: u32 = 2;
/// The RTO adds 2^RTTVAR_EXP = 4 variances (ns-2 rttvar_exp_).
const RTTVAR_EXP: u32 = 2;
/// Back-off stops doubling at this factor unless the RTO is still below max_rto.
const MAX_BACKOFF_DOUBLING: u32 = 64;

/// Which RTO rule the estimator follows (sender parameter `rto_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RtoRule {
    /// ns-2.35 `rtt_update` / `rtt_timeout` in clock ticks.
    Ns2,
    /// Linux `tcp_rtt_estimator` / `tcp_set_rto` in microseconds.
    Linux,
}

/// Linux's estimator state, microseconds (`tcp_sock` fields of the same names).
#[derive(Debug, Clone, Default)]
struct LinuxRtt {
    /// 8 × smoothed RTT (`srtt_us`); 0 = no sample yet.
    srtt8: i64,
    /// 4 × mean deviation (`mdev_us`).
    mdev4: i64,
    /// Largest mdev4 in the current window (`mdev_max_us`).
    mdev_max: i64,
    /// The variance the RTO adds (`rttvar_us`).
    rttvar: i64,
    /// The window step ends when snd.una passes this packet (`rtt_seq`).
    rtt_seq: i64,
}

#[derive(Debug, Clone)]
pub struct RttEstimator {
    rule: RtoRule,
    linux: LinuxRtt,
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
            rule: RtoRule::Ns2,
            linux: LinuxRtt::default(),
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

    /// The same estimator following `rule`.
    pub fn with_rule(mut self, rule: RtoRule) -> Self {
        self.rule = rule;
        self
    }

    pub fn rule(&self) -> RtoRule {
        self.rule
    }

    /// Linux `tcp_rtt_estimator` + `tcp_set_rto`: one sample of `sample_s` seconds taken
    /// when the cumulative ACK is `snd_una` and the next new packet is `snd_nxt`.
    pub fn update_linux(&mut self, sample_s: f64, snd_una: i64, snd_nxt: i64) {
        self.last = Some(sample_s);
        let min_rto_us = (self.min_rto * 1e6).round() as i64;
        let l = &mut self.linux;
        let mut m = ((sample_s * 1e6).round() as i64).max(1);
        if l.srtt8 != 0 {
            m -= l.srtt8 >> 3;
            l.srtt8 += m;
            if m < 0 {
                m = -m - (l.mdev4 >> 2);
                if m > 0 {
                    m >>= 3;
                }
            } else {
                m -= l.mdev4 >> 2;
            }
            l.mdev4 += m;
            if l.mdev4 > l.mdev_max {
                l.mdev_max = l.mdev4;
                l.rttvar = l.rttvar.max(l.mdev_max);
            }
            if snd_una > l.rtt_seq {
                if l.mdev_max < l.rttvar {
                    l.rttvar -= (l.rttvar - l.mdev_max) >> 2;
                }
                l.rtt_seq = snd_nxt;
                l.mdev_max = min_rto_us;
            }
        } else {
            l.srtt8 = m << 3;
            l.mdev4 = m << 1;
            l.rttvar = l.mdev4.max(min_rto_us);
            l.mdev_max = l.rttvar;
            l.rtt_seq = snd_nxt;
        }
        let rto_us = (l.srtt8 >> 3) + l.rttvar;
        // Linux keeps the RTO in jiffies, rounded up (usecs_to_jiffies).
        let tick_us = ((self.tick * 1e6).round() as i64).max(1);
        let ticks = (rto_us + tick_us - 1) / tick_us;
        self.rto_base = (ticks * tick_us) as f64 * 1e-6;
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

    /// The current retransmission timeout, seconds (ns-2 `rtt_timeout` with rfc2988_;
    /// Linux: the base RTO, already above min_rto, times the back-off, at most max_rto).
    pub fn timeout(&self) -> f64 {
        let backoff = self.backoff as f64;
        if self.rule == RtoRule::Linux {
            return (self.rto_base * backoff).min(self.max_rto);
        }
        let mut rto = if self.rto_base < self.min_rto { self.min_rto * backoff } else { self.rto_base * backoff };
        if rto > self.max_rto {
            rto = self.max_rto;
        }
        rto.max(2.0 * self.tick)
    }

    /// Doubles the back-off after a timeout (ns-2 `rtt_backoff`; Linux doubles the RTO
    /// up to max_rto and keeps srtt).
    pub fn back_off(&mut self) {
        if self.rule == RtoRule::Linux {
            if self.timeout() < self.max_rto {
                self.backoff <<= 1;
            }
            return;
        }
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
        if self.rule == RtoRule::Linux {
            return (self.linux.srtt8 >> 3) as f64 * 1e-6;
        }
        self.srtt_fixed as f64 / (1 << SRTT_BITS) as f64 * self.tick
    }

    /// RTT variance, seconds (Linux: `rttvar_us`, the term the RTO adds).
    pub fn rttvar(&self) -> f64 {
        if self.rule == RtoRule::Linux {
            return self.linux.rttvar as f64 * 1e-6;
        }
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

    fn linux() -> RttEstimator {
        RttEstimator::new(0.001, 0.2, 120.0, 1.0).with_rule(RtoRule::Linux)
    }

    #[test]
    fn linux_first_sample_gives_three_rtts_or_rtt_plus_min_rto() {
        // 100 ms: srtt 100 ms, mdev4 200 ms, rttvar max(200, 200) → RTO 300 ms.
        let mut r = linux();
        assert_eq!(r.timeout(), 1.0, "initial_rto before any sample");
        r.update_linux(0.1, 0, 10);
        assert!((r.srtt() - 0.1).abs() < 1e-12);
        assert!((r.timeout() - 0.3).abs() < 1e-12);
        // 20 ms: 4·deviation 40 ms < min_rto: RTO = 20 + 200 ms.
        let mut r = linux();
        r.update_linux(0.02, 0, 10);
        assert!((r.timeout() - 0.22).abs() < 1e-12);
    }

    #[test]
    fn linux_rto_is_srtt_plus_max_of_deviation_and_min_rto_after_it_settles() {
        // A steady 50 ms: srtt 50 ms; the deviation decays, rttvar falls towards its
        // floor min_rto once per window (rttvar −= (rttvar − mdev_max)/4, mdev_max
        // reset to min_rto): RTO → 50 + 200 ms.
        let mut r = linux();
        for window in 0..200 {
            r.update_linux(0.05, window * 10 + 1, window * 10 + 11);
        }
        assert!((r.srtt() - 0.05).abs() < 1e-12);
        assert!((r.rttvar() - 0.2).abs() < 1e-5, "rttvar {}", r.rttvar());
        assert!((r.timeout() - 0.25).abs() < 1e-12, "{}", r.timeout());
    }

    #[test]
    fn linux_falling_rtt_moves_the_deviation_eight_times_less() {
        // srtt8 = 800 ms·8, mdev4 = 1600 ms... in µs: first 400 ms → mdev4 = 800 000.
        // A 200 ms sample: err = 200 000 − 400 000 = −200 000 → (200 000 − 200 000)/…
        // = 0, not positive: mdev4 += 0. A rising 600 ms sample after that:
        // err = 600 000 − 375 000 = 225 000 − mdev4/4 (200 000) = 25 000 → mdev4 825 000.
        let mut r = linux();
        r.update_linux(0.4, 0, 10);
        r.update_linux(0.2, 0, 10);
        assert!((r.srtt() - 0.375).abs() < 1e-12);
        assert_eq!(r.linux.mdev4, 800_000);
        r.update_linux(0.6, 0, 10);
        assert_eq!(r.linux.mdev4, 825_000);
    }

    #[test]
    fn linux_rto_rounds_up_to_the_tick_and_backs_off_to_max_rto() {
        let mut r = linux();
        r.update_linux(0.0004, 0, 10); // 0.4 ms + 200 ms = 200.4 ms → 201 ms
        assert!((r.timeout() - 0.201).abs() < 1e-12);
        for _ in 0..20 {
            r.back_off();
        }
        assert_eq!(r.timeout(), 120.0);
        assert!(r.srtt() > 0.0, "Linux keeps srtt through back-off");
    }

    #[test]
    fn timeout_never_below_two_ticks() {
        let r = RttEstimator::new(0.5, 0.0, 60.0, 0.1);
        assert_eq!(r.timeout(), 1.0);
    }
}
