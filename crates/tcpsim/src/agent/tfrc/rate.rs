//! The TFRC sender's allowed sending rate X: what it does on each feedback report and
//! when the no-feedback timer expires (RFC 5348 §4.2-4.4), as a state machine that
//! knows nothing of packets or the engine: the agent feeds it reports and timer
//! expiries and paces its packets at [`SenderRate::rate`].
//!
//! Two rule sets ([`RateRules`]); the default is ns-2.35's `Agent/TFRC` (tcp/tfrc.cc),
//! which the model is checked against:
//!
//! | | ns-2 (`RateRules::Ns2`, default) | RFC 5348 (`RateRules::Rfc5348`) |
//! |---|---|---|
//! | before feedback | `InitRate_` (300 B/s) | one packet per second (§4.2) |
//! | first feedback | X = max(X, W_init/R), W_init in whole packets: 4, 3 or 2 by size (RFC 3390 via ns-2 `rfc3390()`) | X = W_init/R, W_init = min(4s, max(2s, 4380 B)) (§4.2) |
//! | slow start (p = 0) | at most once per R: X = min(2·X, 2·X_recv), at least s/R; if X is already above 2·X_recv, X = X_recv; kept at W_init/R for the first two reports | once per R: X = max(min(2·X, 2·X_recv), W_init/R) (§4.3 step 4) |
//! | first report with p > 0 | X = X_calc, uncapped | X = max(min(X_calc, 2·X_recv), s/t_mbi) |
//! | after slow start, X_calc > X | X grows by at most two packets per RTT: X += (s/R)·min(2, (t − t_last)/R), capped by min(X_calc, max(2·X_recv, s/R)) | X = max(min(X_calc, 2·X_recv), s/t_mbi) |
//! | after slow start, X_calc ≤ X | X = min(X_calc, max(2·X_recv, s/R)) (`maxHeavyRounds_ 0`) | the same rule as above |
//! | no-feedback timer | X = X/2 | no feedback yet or p = 0: X = max(X/2, s/t_mbi); else X_recv = max(X_recv/2, s/(2·t_mbi)) if X_calc > 2·X_recv, otherwise X_calc/4, then X = max(min(X_calc, 2·X_recv), s/t_mbi) (§4.4) |
//! | no-feedback timeout | max(2·R, 2·s/X); before any RTT, 2·s/X | max(4·R, 2·s/X) (t_RTO = 4R); 2 s before feedback (§4.2, §4.3 step 5) |
//!
//! ns-2's `slow_increase_` (on by default) is here too: after a slow-start increase the
//! rate packets are paced at climbs to the new X over one RTT's worth of packets
//! ([`SenderRate::next_ramp_rate`]). Not modelled here: ns-2's `ca_` pacing, which
//! scales each interval by sqrt(R_sample)/sqrt(R) (the agent's part, `super::source`),
//! the data-limited and idle rules
//! of both (ns-2 `idleFix_`, `datalimited_`; the RFC's X_recv_set, §4.3 and §8.2), and
//! ns-2's `conservative_` mode (off by default).
//!
//! Parameters ([`SenderRules`]): `segment_size_bytes` (s, bytes; ns-2 `packetSize_`
//! 1000), `rules` (default `Ns2`), `slow_start_multiplier` (ns-2 `ssmult_`, default 2),
//! `ns2_initial_rate_bytes_per_s` (bytes/s, ns-2 `InitRate_`, default 300),
//! `max_backoff_interval_s` (t_mbi, seconds, RFC 5348: 64).

/// ns-2's `SMALLFLOAT` (tcp/tfrc.h): the margin by which the slow-start ramp must be
/// below X to climb.
const NS2_SMALL_FLOAT: f64 = 1e-7;

/// Which rules the sender follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RateRules {
    /// ns-2.35 `Agent/TFRC` with its default settings.
    #[default]
    Ns2,
    /// RFC 5348 §4 (without the data-limited X_recv_set).
    Rfc5348,
}

/// The sender's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SenderRules {
    /// Segment size s, bytes (ns-2 `packetSize_`: 1000).
    pub segment_size_bytes: f64,
    pub rules: RateRules,
    /// Slow start multiplies the rate by this each RTT (ns-2 `ssmult_`: 2; the RFC: 2).
    pub slow_start_multiplier: f64,
    /// ns-2's rate before the first feedback, bytes/s (`InitRate_`: 300).
    pub ns2_initial_rate_bytes_per_s: f64,
    /// t_mbi, the longest interval between packets the RFC backs off to, seconds (64).
    pub max_backoff_interval_s: f64,
}

impl Default for SenderRules {
    fn default() -> Self {
        SenderRules {
            segment_size_bytes: 1000.0,
            rules: RateRules::Ns2,
            slow_start_multiplier: 2.0,
            ns2_initial_rate_bytes_per_s: 300.0,
            max_backoff_interval_s: 64.0,
        }
    }
}

impl SenderRules {
    /// W_init, the initial window, bytes. ns-2 (`rfc3390()`): 4 packets up to 1095 B,
    /// 3 below 2190 B, else 2. RFC 5348 §4.2 (RFC 3390): min(4·s, max(2·s, 4380 B)).
    pub fn initial_window_bytes(&self) -> f64 {
        let s = self.segment_size_bytes;
        match self.rules {
            RateRules::Ns2 => {
                let packets = if s <= 1095.0 {
                    4.0
                } else if s < 2190.0 {
                    3.0
                } else {
                    2.0
                };
                packets * s
            }
            RateRules::Rfc5348 => (4.0 * s).min((2.0 * s).max(4380.0)),
        }
    }

    /// s / t_mbi: the RFC's lowest rate, bytes/s.
    fn min_rate(&self) -> f64 {
        self.segment_size_bytes / self.max_backoff_interval_s
    }
}

/// What one feedback report tells the sender.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feedback {
    /// When it arrives, seconds.
    pub now_s: f64,
    /// The sender's round-trip time estimate R after this report's sample, seconds.
    pub rtt_s: f64,
    /// X_recv, the rate the receiver reports receiving since its last report, bytes/s.
    pub receive_rate_bytes_per_s: f64,
    /// p, the loss event rate the receiver reports.
    pub loss_event_rate: f64,
    /// X_calc, the throughput equation at p and R (`super::equation`), bytes/s.
    pub equation_rate_bytes_per_s: f64,
}

/// Where the sender is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No feedback yet.
    AwaitingFeedback,
    /// No loss reported yet: the rate doubles each RTT up to twice the receive rate.
    SlowStart,
    /// A loss has been reported: the rate follows the equation.
    Equation,
}

/// The sender's allowed rate and what it keeps to update it.
#[derive(Debug, Clone, PartialEq)]
pub struct SenderRate {
    pub rules: SenderRules,
    /// X, bytes/s.
    rate: f64,
    phase: Phase,
    /// Feedback reports and no-feedback expiries so far (ns-2 `round_id`).
    rounds: u64,
    /// When X last changed in slow start or on a report (RFC tld, ns-2 `last_change_`),
    /// seconds.
    last_change_s: f64,
    /// R, seconds; `None` before feedback.
    rtt_s: Option<f64>,
    /// X_recv as the RFC's no-feedback rule changes it, bytes/s.
    receive_rate: f64,
    /// p and X_calc of the last report.
    loss_event_rate: f64,
    equation_rate: f64,
    /// ns-2's gradual slow-start increase (`slow_increase_`): the rate the next packet
    /// is paced at climbs from the old rate towards X by `ramp_step` per packet
    /// (ns-2 `oldrate_` and `delta_`), bytes/s.
    ramp_rate: f64,
    ramp_step: f64,
}

impl SenderRate {
    pub fn new(rules: SenderRules) -> Self {
        let rate = match rules.rules {
            RateRules::Ns2 => rules.ns2_initial_rate_bytes_per_s,
            // One packet per second (RFC 5348 §4.2).
            RateRules::Rfc5348 => rules.segment_size_bytes,
        };
        SenderRate {
            rules,
            rate,
            phase: Phase::AwaitingFeedback,
            rounds: 0,
            last_change_s: 0.0,
            rtt_s: None,
            receive_rate: 0.0,
            loss_event_rate: 0.0,
            equation_rate: 0.0,
            ramp_rate: rate,
            ramp_step: 0.0,
        }
    }

    /// ns-2 `nextpkt()` with `slow_increase_`: in slow start after the second report,
    /// while the ramp is below X, the rate to pace the next packet at, one `ramp_step`
    /// higher than the last; `None` otherwise (pace at X). ns-2 rules only.
    pub fn next_ramp_rate(&mut self) -> Option<f64> {
        let climbing = self.rules.rules == RateRules::Ns2
            && self.phase == Phase::SlowStart
            && self.rounds > 2
            && self.ramp_rate + NS2_SMALL_FLOAT < self.rate;
        if climbing {
            self.ramp_rate += self.ramp_step;
            Some(self.ramp_rate)
        } else {
            None
        }
    }

    /// Feedback reports and no-feedback expiries so far (ns-2 `round_id`), which the
    /// sender stamps on each data packet.
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// R, seconds, once a report has given one.
    pub fn rtt_s(&self) -> Option<f64> {
        self.rtt_s
    }

    /// p of the last report.
    pub fn loss_event_rate(&self) -> f64 {
        self.loss_event_rate
    }

    /// ns-2 sets the ramp's start to `from` and its per-packet step so that it reaches
    /// X in one RTT's worth of packets: (X − from) / (X·R/s).
    fn ramp_from(&mut self, from: f64, rtt_s: f64) {
        self.ramp_rate = from;
        self.ramp_step = (self.rate - from) / (self.rate * rtt_s / self.rules.segment_size_bytes);
    }

    /// X, the allowed sending rate, bytes/s.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How long until the no-feedback timer expires, from a report or an expiry now,
    /// seconds.
    pub fn no_feedback_timeout_s(&self) -> f64 {
        let two_packets = 2.0 * self.rules.segment_size_bytes / self.rate;
        match (self.rules.rules, self.rtt_s) {
            (RateRules::Ns2, Some(rtt)) => (2.0 * rtt).max(two_packets),
            (RateRules::Ns2, None) => two_packets,
            (RateRules::Rfc5348, Some(rtt)) => (4.0 * rtt).max(two_packets),
            (RateRules::Rfc5348, None) => 2.0,
        }
    }

    /// A feedback report: the new X.
    pub fn on_feedback(&mut self, feedback: &Feedback) -> f64 {
        self.rounds += 1;
        self.rtt_s = Some(feedback.rtt_s);
        self.receive_rate = feedback.receive_rate_bytes_per_s;
        self.loss_event_rate = feedback.loss_event_rate;
        self.equation_rate = feedback.equation_rate_bytes_per_s;
        match self.rules.rules {
            RateRules::Ns2 => self.ns2_feedback(feedback),
            RateRules::Rfc5348 => self.rfc_feedback(feedback),
        }
        self.rate
    }

    /// The no-feedback timer expired: the new X.
    pub fn on_no_feedback(&mut self) -> f64 {
        self.rounds += 1;
        match self.rules.rules {
            RateRules::Ns2 => {
                // ns-2 halves X itself, with no floor (when not data-limited), and
                // leaves slow start only if it was out of it already.
                self.rate *= 0.5;
            }
            RateRules::Rfc5348 => {
                let min_rate = self.rules.min_rate();
                if self.rtt_s.is_none() || self.loss_event_rate == 0.0 {
                    self.rate = (self.rate / 2.0).max(min_rate);
                } else {
                    self.receive_rate = if self.equation_rate > 2.0 * self.receive_rate {
                        (self.receive_rate / 2.0).max(min_rate / 2.0)
                    } else {
                        self.equation_rate / 4.0
                    };
                    self.rate = self.equation_rate.min(2.0 * self.receive_rate).max(min_rate);
                }
            }
        }
        self.rate
    }

    fn ns2_feedback(&mut self, f: &Feedback) {
        let s = self.rules.segment_size_bytes;
        // ns-2 `maxrate_` and `ss_maxrate_` (equal unless `conservative_`): twice the
        // receive rate, from the second report on.
        let receive_limit = if self.rounds > 1 && f.receive_rate_bytes_per_s > 0.0 { 2.0 * f.receive_rate_bytes_per_s } else { 0.0 };
        match self.phase {
            Phase::AwaitingFeedback => {
                self.phase = Phase::SlowStart;
                self.ns2_slow_start(f, receive_limit);
            }
            Phase::SlowStart if f.loss_event_rate > 0.0 => {
                self.phase = Phase::Equation;
                self.rate = f.equation_rate_bytes_per_s;
                self.ramp_rate = self.rate;
            }
            Phase::SlowStart => self.ns2_slow_start(f, receive_limit),
            Phase::Equation => {
                let ceiling = receive_limit.max(s / f.rtt_s);
                if f.equation_rate_bytes_per_s > self.rate {
                    // At most two packets per RTT more, however long since the last change.
                    let rtts_since_change = ((f.now_s - self.last_change_s) / f.rtt_s).min(2.0);
                    self.rate += s / f.rtt_s * rtts_since_change;
                    self.rate = self.rate.min(ceiling.min(f.equation_rate_bytes_per_s));
                } else {
                    self.rate = f.equation_rate_bytes_per_s.min(ceiling);
                }
                self.last_change_s = f.now_s;
            }
        }
    }

    /// ns-2 `slowstart()` (not data-limited), with its ramp (`oldrate_`, `delta_`).
    fn ns2_slow_start(&mut self, f: &Feedback, receive_limit: f64) {
        let s = self.rules.segment_size_bytes;
        let initial_rate = self.rules.initial_window_bytes() / f.rtt_s;
        let before = self.rate;
        // The first two reports carry no useful receive rate yet (ns-2: round 2 keeps the
        // initial rate when the initial window is more than one packet, always here).
        if self.rounds <= 2 {
            self.rate = self.rate.max(initial_rate);
            self.ramp_from(before, f.rtt_s);
            self.last_change_s = f.now_s;
        } else if receive_limit > 0.0 {
            if self.rate < receive_limit && super::ties::longer(f.now_s - self.last_change_s, f.rtt_s) {
                self.rate = (self.rules.slow_start_multiplier * self.rate).min(receive_limit).max(s / f.rtt_s);
                self.ramp_from(before, f.rtt_s);
                self.last_change_s = f.now_s;
            } else if self.rate > receive_limit {
                // Above twice the receive rate: back to the receive rate, at once.
                self.rate = receive_limit / 2.0;
                self.ramp_rate = self.rate;
                self.ramp_step = 0.0;
                self.last_change_s = f.now_s;
            }
        } else {
            // Nothing received since the last report: one packet per RTT. (ns-2 leaves
            // the ramp at the old rate with no step.)
            self.rate = s / f.rtt_s;
            self.ramp_rate = before;
            self.ramp_step = 0.0;
            self.last_change_s = f.now_s;
        }
    }

    /// RFC 5348 §4.2 and §4.3 step 4.
    fn rfc_feedback(&mut self, f: &Feedback) {
        let initial_rate = self.rules.initial_window_bytes() / f.rtt_s;
        let receive_limit = 2.0 * f.receive_rate_bytes_per_s;
        if f.loss_event_rate > 0.0 {
            self.phase = Phase::Equation;
            self.rate = f.equation_rate_bytes_per_s.min(receive_limit).max(self.rules.min_rate());
        } else if self.phase == Phase::AwaitingFeedback {
            self.phase = Phase::SlowStart;
            self.rate = initial_rate;
            self.last_change_s = f.now_s;
        } else if super::ties::at_least(f.now_s - self.last_change_s, f.rtt_s) {
            self.rate = (self.rules.slow_start_multiplier * self.rate).min(receive_limit).max(initial_rate);
            self.last_change_s = f.now_s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RTT: f64 = 0.1;

    fn sender(rules: RateRules) -> SenderRate {
        SenderRate::new(SenderRules { rules, ..SenderRules::default() })
    }

    /// A report at `now_s` with R = 100 ms.
    fn report(now_s: f64, receive_rate: f64, p: f64, equation_rate: f64) -> Feedback {
        Feedback { now_s, rtt_s: RTT, receive_rate_bytes_per_s: receive_rate, loss_event_rate: p, equation_rate_bytes_per_s: equation_rate }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn initial_rates_and_windows() {
        assert_eq!(sender(RateRules::Ns2).rate(), 300.0);
        assert_eq!(sender(RateRules::Rfc5348).rate(), 1000.0, "one 1000 B packet per second");
        // W_init: 1000 B → 4 packets in both; 1460 B → ns-2 3 packets (4380 B), RFC
        // min(5840, max(2920, 4380)) = 4380 B; 1200 B → ns-2 3 packets (3600 B), RFC 4380 B.
        let window = |s: f64, rules| SenderRules { segment_size_bytes: s, rules, ..SenderRules::default() }.initial_window_bytes();
        assert_eq!(window(1000.0, RateRules::Ns2), 4000.0);
        assert_eq!(window(1000.0, RateRules::Rfc5348), 4000.0);
        assert_eq!(window(1460.0, RateRules::Ns2), 4380.0);
        assert_eq!(window(1460.0, RateRules::Rfc5348), 4380.0);
        assert_eq!(window(1200.0, RateRules::Ns2), 3600.0);
        assert_eq!(window(1200.0, RateRules::Rfc5348), 4380.0);
        assert_eq!(window(3000.0, RateRules::Ns2), 6000.0);
        assert_eq!(window(3000.0, RateRules::Rfc5348), 6000.0);
    }

    #[test]
    fn first_feedback_sets_the_initial_window_per_rtt() {
        for rules in [RateRules::Ns2, RateRules::Rfc5348] {
            let mut x = sender(rules);
            // 4 packets of 1000 B per 100 ms = 40,000 B/s.
            assert_eq!(x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY)), 40_000.0);
            assert_eq!(x.phase(), Phase::SlowStart);
        }
    }

    #[test]
    fn ns2_slow_start_doubles_once_per_rtt_up_to_twice_the_receive_rate() {
        let mut x = sender(RateRules::Ns2);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        // Round 2 keeps the initial rate.
        assert_eq!(x.on_feedback(&report(1.1, 30_000.0, 0.0, f64::INFINITY)), 40_000.0);
        // Round 3, more than an RTT after the last change: doubles (2·X_recv = 100,000).
        assert_eq!(x.on_feedback(&report(1.21, 50_000.0, 0.0, f64::INFINITY)), 80_000.0);
        // Within an RTT of that change: unchanged.
        assert_eq!(x.on_feedback(&report(1.3, 50_000.0, 0.0, f64::INFINITY)), 80_000.0);
        // Doubling capped at 2·X_recv = 120,000.
        assert_eq!(x.on_feedback(&report(1.4, 60_000.0, 0.0, f64::INFINITY)), 120_000.0);
        // Above 2·X_recv (= 100,000): back to X_recv.
        assert_eq!(x.on_feedback(&report(1.45, 50_000.0, 0.0, f64::INFINITY)), 50_000.0);
        // Nothing received: one packet per RTT.
        assert_eq!(x.on_feedback(&report(1.6, 0.0, 0.0, f64::INFINITY)), 10_000.0);
    }

    #[test]
    fn ns2_slow_start_ramps_the_pacing_rate_over_one_rtt_of_packets() {
        let mut x = sender(RateRules::Ns2);
        // Rounds 1 and 2 jump to W_init/R at once: no ramp before round 3.
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(x.next_ramp_rate(), None);
        x.on_feedback(&report(1.1, 30_000.0, 0.0, f64::INFINITY));
        assert_eq!(x.next_ramp_rate(), None);
        // Round 3 doubles 40,000 → 80,000: X·R/s = 8 packets per RTT, so the step is
        // 40,000 / 8 = 5,000 B/s per packet, and the eighth packet reaches X.
        x.on_feedback(&report(1.21, 50_000.0, 0.0, f64::INFINITY));
        let ramp: Vec<f64> = std::iter::from_fn(|| x.next_ramp_rate()).take(20).collect();
        assert_eq!(ramp.len(), 8, "{ramp:?}");
        assert!(close(ramp[0], 45_000.0) && close(ramp[7], 80_000.0), "{ramp:?}");
        // Above twice the receive rate: X falls at once and the ramp with it.
        x.on_feedback(&report(1.25, 20_000.0, 0.0, f64::INFINITY));
        assert_eq!((x.rate(), x.next_ramp_rate()), (20_000.0, None));
    }

    #[test]
    fn rfc_slow_start_doubles_once_per_rtt_capped_by_twice_the_receive_rate() {
        let mut x = sender(RateRules::Rfc5348);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        // One RTT later: min(2·40,000, 2·50,000) = 80,000.
        assert_eq!(x.on_feedback(&report(1.1, 50_000.0, 0.0, f64::INFINITY)), 80_000.0);
        // Less than an RTT later: unchanged.
        assert_eq!(x.on_feedback(&report(1.15, 50_000.0, 0.0, f64::INFINITY)), 80_000.0);
        // Capped at 2·X_recv = 120,000 (not 160,000).
        assert_eq!(x.on_feedback(&report(1.25, 60_000.0, 0.0, f64::INFINITY)), 120_000.0);
        // Never below W_init/R = 40,000, even if little was received.
        assert_eq!(x.on_feedback(&report(1.4, 5_000.0, 0.0, f64::INFINITY)), 40_000.0);
    }

    #[test]
    fn the_first_loss_ends_slow_start() {
        // ns-2 takes X_calc as it is, even above 2·X_recv.
        let mut ns2 = sender(RateRules::Ns2);
        ns2.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(ns2.on_feedback(&report(1.1, 30_000.0, 0.01, 112_332.0)), 112_332.0);
        assert_eq!(ns2.phase(), Phase::Equation);
        // The RFC caps it at 2·X_recv.
        let mut rfc = sender(RateRules::Rfc5348);
        rfc.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(rfc.on_feedback(&report(1.1, 30_000.0, 0.01, 112_332.0)), 60_000.0);
        assert_eq!(rfc.phase(), Phase::Equation);
    }

    /// An ns-2 sender in the equation phase at 50,000 B/s. Leaving slow start does not
    /// count as a change in ns-2: its last change is the first report's, at 1.9 s.
    fn ns2_after_slow_start() -> SenderRate {
        let mut x = sender(RateRules::Ns2);
        x.on_feedback(&report(1.9, 300.0, 0.0, f64::INFINITY));
        x.on_feedback(&report(2.0, 40_000.0, 0.01, 50_000.0));
        assert_eq!((x.rate(), x.phase()), (50_000.0, Phase::Equation));
        x
    }

    #[test]
    fn ns2_increases_by_at_most_two_packets_per_rtt() {
        // X_calc far above X: 1.5 RTTs since the last change add 1.5·s/R = 15,000 B/s.
        let mut x = ns2_after_slow_start();
        assert!(close(x.on_feedback(&report(2.05, 100_000.0, 0.001, 400_000.0)), 65_000.0));
        // Ten RTTs: at most two packets per RTT, 20,000 more.
        assert!(close(x.on_feedback(&report(3.05, 100_000.0, 0.001, 400_000.0)), 85_000.0));
        // One RTT would give 95,000: capped by X_calc = 90,000.
        assert!(close(x.on_feedback(&report(3.15, 100_000.0, 0.001, 90_000.0)), 90_000.0));
        // Two RTTs would give 110,000: capped by 2·X_recv = 92,000.
        assert!(close(x.on_feedback(&report(3.35, 46_000.0, 0.001, 400_000.0)), 92_000.0));
    }

    #[test]
    fn ns2_falls_to_the_equation_rate_at_once() {
        let mut x = ns2_after_slow_start();
        assert_eq!(x.on_feedback(&report(2.1, 100_000.0, 0.05, 30_000.0)), 30_000.0);
        // Capped by max(2·X_recv, s/R): 2·X_recv = 8,000 < s/R = 10,000.
        let mut x = ns2_after_slow_start();
        assert_eq!(x.on_feedback(&report(2.1, 4_000.0, 0.001, 45_000.0)), 10_000.0);
    }

    #[test]
    fn rfc_follows_the_equation_within_twice_the_receive_rate_and_above_s_over_t_mbi() {
        let mut x = sender(RateRules::Rfc5348);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        x.on_feedback(&report(1.1, 30_000.0, 0.01, 50_000.0));
        // X_calc below 2·X_recv: X_calc, at once, up or down.
        assert_eq!(x.on_feedback(&report(1.2, 100_000.0, 0.001, 150_000.0)), 150_000.0);
        assert_eq!(x.on_feedback(&report(1.3, 100_000.0, 0.05, 20_000.0)), 20_000.0);
        // Never below s/t_mbi = 1000/64 = 15.625 B/s.
        assert_eq!(x.on_feedback(&report(1.4, 100_000.0, 0.9, 3.0)), 15.625);
    }

    #[test]
    fn ns2_no_feedback_halves_the_rate() {
        let mut x = ns2_after_slow_start();
        assert_eq!(x.on_no_feedback(), 25_000.0);
        assert_eq!(x.on_no_feedback(), 12_500.0);
        // Timeout: max(2R, 2s/X) = max(0.2, 2000/12,500 = 0.16) = 0.2 s.
        assert!(close(x.no_feedback_timeout_s(), 0.2));
        assert_eq!(x.on_no_feedback(), 6_250.0);
        // max(0.2, 2000/6,250 = 0.32) = 0.32 s.
        assert!(close(x.no_feedback_timeout_s(), 0.32));
        // Before any feedback: 2s/X with X = InitRate_ 300 B/s = 6.667 s.
        assert!(close(sender(RateRules::Ns2).no_feedback_timeout_s(), 2000.0 / 300.0));
    }

    #[test]
    fn rfc_no_feedback_before_feedback_or_without_loss_halves_x_down_to_s_over_t_mbi() {
        let mut x = sender(RateRules::Rfc5348);
        assert_eq!(x.no_feedback_timeout_s(), 2.0);
        assert_eq!(x.on_no_feedback(), 500.0);
        for _ in 0..10 {
            x.on_no_feedback();
        }
        assert_eq!(x.rate(), 15.625, "s/t_mbi = 1000/64");
        let mut x = sender(RateRules::Rfc5348);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(x.on_no_feedback(), 20_000.0, "slow start at 40,000 B/s halves");
        // Timeout: max(4R, 2s/X) = max(0.4, 0.1) = 0.4 s.
        assert!(close(x.no_feedback_timeout_s(), 0.4));
    }

    #[test]
    fn rfc_no_feedback_halves_the_receive_rate_limit() {
        // Limited by the receive rate (X_calc = 150,000 > 2·X_recv = 100,000):
        // X_recv = 25,000, X = min(150,000, 50,000) = 50,000.
        let mut x = sender(RateRules::Rfc5348);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(x.on_feedback(&report(1.1, 50_000.0, 0.001, 150_000.0)), 100_000.0);
        assert_eq!(x.on_no_feedback(), 50_000.0);
        // Limited by the equation (X_calc = 60,000 ≤ 2·X_recv = 100,000): X_recv = X_calc/4 = 15,000,
        // X = min(60,000, 30,000) = 30,000, half of X_calc.
        let mut x = sender(RateRules::Rfc5348);
        x.on_feedback(&report(1.0, 300.0, 0.0, f64::INFINITY));
        assert_eq!(x.on_feedback(&report(1.1, 50_000.0, 0.01, 60_000.0)), 60_000.0);
        assert_eq!(x.on_no_feedback(), 30_000.0);
    }
}
