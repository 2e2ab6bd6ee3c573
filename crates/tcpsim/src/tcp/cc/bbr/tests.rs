//! BBRv1's rules, each at its boundary, driven with hand-made rate samples.

use super::*;
use crate::tcp::ack::AckInfo;
use crate::tcp::state::{RateSampler, TcpState};
use crate::tcp::TcpParams;

fn ms(t: f64) -> SimTime {
    time::from_secs(t / 1000.0)
}

/// A BBR at its defaults on a sender with default parameters (1000 + 40 bytes on the
/// wire), fed one sample at a time.
struct Rig {
    bbr: Bbr,
    s: TcpState,
    delivered: i64,
    /// Packets delivered when the latest round trip ended: a sample whose packet left
    /// before that (prior_delivered below it) belongs to the current round.
    round_base: i64,
}

impl Rig {
    fn new() -> Rig {
        let mut s = TcpState::new(TcpParams { max_window: 100_000, ..TcpParams::default() }, 0.0);
        s.window.cwnd = 10.0;
        Rig { bbr: Bbr::from_config(&SPEC.defaults()), s, delivered: 0, round_base: 0 }
    }

    /// One ACK at `at_ms` delivering `acked` packets at `rate` packets/s with RTT
    /// `rtt_ms`, `in_flight` packets in the network before it; it closes a round trip
    /// when `new_round`.
    fn ack(&mut self, at_ms: f64, acked: i64, rate: f64, rtt_ms: f64, in_flight: i64, new_round: bool) {
        let prior_delivered = if new_round { self.delivered } else { self.round_base - 1 };
        self.delivered += acked;
        if new_round {
            self.round_base = self.delivered;
        }
        let rs = RateSample {
            delivered: acked,
            prior_delivered,
            interval_s: 0.1,
            delivery_rate: Some(rate),
            rtt_s: Some(rtt_ms / 1000.0),
            is_app_limited: false,
            newly_delivered: acked,
            lost: 0,
            prior_in_flight: in_flight,
            in_flight: (in_flight - acked).max(0),
            total_delivered: self.delivered,
        };
        self.feed(at_ms, rs);
    }

    fn feed(&mut self, at_ms: f64, rs: RateSample) {
        self.s.rate = Some(Box::new(RateSampler::with_counts(rs.total_delivered, rs.in_flight)));
        self.s.rate_sample = Some(Box::new(rs));
        let info = AckInfo::cumulative(self.delivered);
        let event = AckEvent { info: &info, acked_packets: rs.newly_delivered, duplicate: false, rtt_s: None, ack_rtt_s: None };
        self.bbr.on_any_ack(&mut CcView::new(&mut self.s, ms(at_ms)), &event);
    }

    /// Runs rounds of 100 ms at `rate` until Startup ends; returns the time reached.
    fn fill_pipe(&mut self, rate: f64) -> f64 {
        let mut t = 0.0;
        while self.bbr.mode == Mode::Startup {
            t += 100.0;
            self.ack(t, 10, rate, 100.0, 200, true);
            assert!(t < 2000.0, "Startup never ended");
        }
        t
    }

    fn cwnd(&self) -> f64 {
        self.s.window.cwnd
    }

    fn pacing(&self) -> u64 {
        self.s.pacing_rate_bps.unwrap_or(0)
    }
}

#[test]
fn the_bandwidth_filter_keeps_the_maximum_of_the_last_ten_rounds() {
    let mut r = Rig::new();
    r.ack(100.0, 1, 1000.0, 100.0, 10, true); // round 1
    for round in 2..=11 {
        r.ack(100.0 * round as f64, 1, 500.0, 100.0, 10, true);
        assert_eq!(r.bbr.btl_bw(), 1000.0, "round {round}: within the window");
    }
    r.ack(1200.0, 1, 500.0, 100.0, 10, true); // round 12: round 1 is 11 rounds old
    assert_eq!(r.bbr.btl_bw(), 500.0);
}

#[test]
fn an_app_limited_sample_counts_only_when_it_raises_the_bandwidth() {
    let mut r = Rig::new();
    r.ack(100.0, 1, 1000.0, 100.0, 10, true);
    let limited = |rate| RateSample { delivery_rate: Some(rate), is_app_limited: true, prior_delivered: 0, newly_delivered: 1, total_delivered: 2, rtt_s: Some(0.1), ..RateSample::default() };
    r.feed(150.0, limited(800.0));
    assert_eq!(r.bbr.btl_bw(), 1000.0);
    r.feed(160.0, limited(1200.0));
    assert_eq!(r.bbr.btl_bw(), 1200.0);
}

#[test]
fn the_min_rtt_is_kept_ten_seconds_then_a_larger_sample_replaces_it_and_probe_rtt_starts() {
    let mut r = Rig::new();
    r.ack(100.0, 1, 1000.0, 50.0, 10, true);
    assert_eq!(r.bbr.min_rtt_s, 0.05);
    r.ack(5000.0, 1, 1000.0, 80.0, 10, true);
    assert_eq!(r.bbr.min_rtt_s, 0.05, "a larger sample within 10 s");
    r.ack(10_100.0, 1, 1000.0, 80.0, 10, true);
    assert_eq!(r.bbr.min_rtt_s, 0.05, "exactly 10 s after: not expired yet");
    r.ack(10_101.0, 1, 1000.0, 80.0, 10, true);
    assert_eq!(r.bbr.min_rtt_s, 0.08, "expired: the new sample is taken");
    assert_eq!(r.bbr.mode, Mode::ProbeRtt);
}

#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth() {
    let mut r = Rig::new();
    // Growth of 25 % or more keeps Startup going; 1000 → 1250 is exactly 25 %.
    for (i, rate) in [400.0, 800.0, 1000.0, 1250.0].into_iter().enumerate() {
        r.ack(100.0 * (i + 1) as f64, 10, rate, 100.0, 500, true);
    }
    // Three rounds at 1249 (less than 25 % above 1250): the third ends Startup.
    r.ack(500.0, 10, 1249.0, 100.0, 500, true);
    r.ack(600.0, 10, 1249.0, 100.0, 500, true);
    assert_eq!(r.bbr.mode, Mode::Startup);
    assert!(!r.bbr.full_bw_reached);
    r.ack(700.0, 10, 1249.0, 100.0, 500, true);
    assert!(r.bbr.full_bw_reached);
    assert_eq!(r.bbr.mode, Mode::Drain, "500 in the network > BDP 125");
    assert!((r.bbr.pacing_gain - 1.0 / 2.885).abs() < 1e-12);
    assert_eq!(r.bbr.cwnd_gain, 2.885);
}

#[test]
fn acks_within_a_round_do_not_count_as_rounds_for_the_full_pipe() {
    let mut r = Rig::new();
    r.ack(100.0, 10, 1000.0, 100.0, 500, true);
    for i in 0..10 {
        r.ack(110.0 + i as f64, 1, 1000.0, 100.0, 500, false);
    }
    assert_eq!(r.bbr.mode, Mode::Startup);
    assert_eq!(r.bbr.full_bw_count, 0);
}

#[test]
fn drain_ends_when_the_network_holds_at_most_one_bdp() {
    let mut r = Rig::new();
    let t = r.fill_pipe(1000.0);
    assert_eq!(r.bbr.mode, Mode::Drain);
    // BDP = 1000 packets/s × 100 ms = 100 packets.
    r.ack(t + 10.0, 1, 1000.0, 100.0, 102, false);
    assert_eq!(r.bbr.mode, Mode::Drain, "101 in the network after the ACK");
    r.ack(t + 20.0, 1, 1000.0, 100.0, 101, false);
    assert_eq!(r.bbr.mode, Mode::ProbeBw, "100 in the network");
    assert_ne!(r.bbr.cycle_index, DRAIN_PHASE);
    assert_eq!(r.bbr.cwnd_gain, 2.0);
}

#[test]
fn probe_bw_never_starts_in_the_draining_phase_and_reaches_every_other_phase() {
    let mut seen = [0; 8];
    for seed in 0..200 {
        let mut r = Rig::new();
        r.s.cc_random = Some(Box::new(crate::engine::RandomStream::new(seed, "bbr test")));
        let t = r.fill_pipe(1000.0);
        r.ack(t + 10.0, 1, 1000.0, 100.0, 50, false);
        assert_eq!(r.bbr.mode, Mode::ProbeBw);
        seen[r.bbr.cycle_index] += 1;
    }
    assert_eq!(seen[DRAIN_PHASE], 0);
    for (phase, &count) in seen.iter().enumerate() {
        if phase != DRAIN_PHASE {
            assert!(count > 10, "phase {phase} drawn {count} times in 200: {seen:?}");
        }
    }
}

/// A rig in ProbeBW at 1000 packets/s, RTprop 100 ms (BDP 100), in phase `phase`,
/// which started at `t` ms; returns t.
fn in_probe_bw(phase: usize) -> (Rig, f64) {
    let mut r = Rig::new();
    let t = r.fill_pipe(1000.0);
    r.ack(t + 10.0, 1, 1000.0, 100.0, 50, false);
    assert_eq!(r.bbr.mode, Mode::ProbeBw);
    r.bbr.cycle_index = phase;
    r.bbr.cycle_stamp = ms(t + 10.0);
    r.bbr.update_gains();
    (r, t + 10.0)
}

#[test]
fn a_phase_of_gain_one_lasts_one_min_rtt() {
    let (mut r, t) = in_probe_bw(3);
    r.ack(t + 100.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.bbr.cycle_index, 3, "exactly one RTprop: not more than it");
    r.ack(t + 100.5, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.bbr.cycle_index, 4);
    assert_eq!(r.bbr.pacing_gain, 1.0);
}

#[test]
fn the_probing_phase_lasts_until_the_network_holds_one_and_a_quarter_bdp() {
    let (mut r, t) = in_probe_bw(0);
    assert_eq!(r.bbr.pacing_gain, 1.25);
    // 1.25 × BDP = 125 packets: 124 in the network is not enough, even after RTprop.
    r.ack(t + 150.0, 1, 1000.0, 100.0, 124, false);
    assert_eq!(r.bbr.cycle_index, 0);
    r.ack(t + 160.0, 1, 1000.0, 100.0, 125, false);
    assert_eq!(r.bbr.cycle_index, 1);
    assert_eq!(r.bbr.pacing_gain, 0.75);
    // ... or until a loss.
    let (mut r, t) = in_probe_bw(0);
    let lossy = RateSample { lost: 1, delivery_rate: Some(1000.0), prior_delivered: r.round_base - 1, newly_delivered: 1, total_delivered: r.delivered + 1, prior_in_flight: 50, in_flight: 49, rtt_s: Some(0.1), ..RateSample::default() };
    r.delivered += 1;
    r.feed(t + 150.0, lossy);
    assert_eq!(r.bbr.cycle_index, 1);
}

#[test]
fn the_draining_phase_ends_early_once_the_network_holds_at_most_one_bdp() {
    let (mut r, t) = in_probe_bw(1);
    r.ack(t + 20.0, 1, 1000.0, 100.0, 101, false);
    assert_eq!(r.bbr.cycle_index, 1);
    r.ack(t + 30.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.bbr.cycle_index, 2, "at most one BDP before RTprop has passed");
}

#[test]
fn pacing_rate_and_cwnd_follow_the_estimates() {
    let (mut r, t) = in_probe_bw(3);
    // 1000 packets/s of 1040 bytes: 8.32 Mb/s × gain 1 × 0.99.
    r.ack(t + 10.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.pacing(), 8_236_800);
    // cwnd target: 2 × BDP (200) + 3 send quanta of 2 packets (8.2 Mb/s is below 24 Mb/s)
    // = 206, even. cwnd grows by what is delivered, up to it.
    r.s.window.cwnd = 205.0;
    r.ack(t + 20.0, 5, 1000.0, 100.0, 100, false);
    assert_eq!(r.cwnd(), 206.0);
    r.s.window.cwnd = 300.0;
    r.ack(t + 30.0, 5, 1000.0, 100.0, 100, false);
    assert_eq!(r.cwnd(), 206.0, "cut to the target at once");
    // Phase 0 (1.25) adds 2 packets to the target and paces at 1.25 × 0.99.
    let (mut r, t) = in_probe_bw(0);
    r.s.window.cwnd = 300.0;
    r.ack(t + 10.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.cwnd(), 208.0);
    assert_eq!(r.pacing(), 10_296_000);
}

#[test]
fn startup_paces_at_its_gain_and_grows_cwnd_by_what_is_delivered() {
    let mut r = Rig::new();
    r.s.window.cwnd = 10.0;
    r.ack(100.0, 10, 100.0, 100.0, 10, true);
    assert_eq!(r.cwnd(), 20.0);
    // 100 packets/s × 1040 B × 8 × 2.885 × 0.99; the initial rate from cwnd/RTT (10 /
    // 0.1 s = 100 packets/s) is the same here.
    assert_eq!(r.pacing(), (100.0 * 1040.0 * 8.0 * 2.885 * 0.99f64).round() as u64);
    // The pacing rate does not fall before the pipe is full.
    r.ack(200.0, 10, 50.0, 100.0, 10, true);
    assert_eq!(r.pacing(), (100.0 * 1040.0 * 8.0 * 2.885 * 0.99f64).round() as u64);
}

#[test]
fn probe_rtt_holds_four_packets_for_200_ms_and_a_round_then_restores_cwnd() {
    let (mut r, _) = in_probe_bw(3);
    r.s.window.cwnd = 206.0;
    // 10 s after RTprop was last set (at the first ACK, t = 100 ms), it expires.
    r.ack(10_101.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.bbr.mode, Mode::ProbeRtt);
    assert_eq!(r.cwnd(), 4.0);
    assert_eq!(r.bbr.window.prior_cwnd, 206.0);
    // The 200 ms start once at most 4 packets are in the network.
    r.ack(10_150.0, 1, 1000.0, 100.0, 6, false);
    assert_eq!(r.bbr.probe_rtt_done_stamp, None, "5 in the network");
    r.ack(10_200.0, 1, 1000.0, 100.0, 5, false);
    assert_eq!(r.bbr.probe_rtt_done_stamp, Some(ms(10_400.0)));
    // A round trip passes, but not yet 200 ms.
    r.ack(10_300.0, 1, 1000.0, 100.0, 4, true);
    assert_eq!(r.bbr.mode, Mode::ProbeRtt);
    r.ack(10_400.0, 1, 1000.0, 100.0, 4, false);
    assert_eq!(r.bbr.mode, Mode::ProbeRtt, "exactly 200 ms: not more");
    r.ack(10_401.0, 1, 1000.0, 100.0, 4, false);
    assert_eq!(r.bbr.mode, Mode::ProbeBw);
    assert!(r.cwnd() >= 206.0, "restored: {}", r.cwnd());
    // RTprop's clock restarts: no ProbeRTT for another 10 s.
    r.ack(20_400.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.bbr.mode, Mode::ProbeBw);
}

#[test]
fn probe_rtt_waits_for_a_round_after_the_200_ms() {
    let (mut r, _) = in_probe_bw(3);
    r.ack(10_101.0, 1, 1000.0, 100.0, 4, false);
    assert_eq!(r.bbr.probe_rtt_done_stamp, Some(ms(10_301.0)));
    r.ack(10_500.0, 1, 1000.0, 100.0, 4, false);
    assert_eq!(r.bbr.mode, Mode::ProbeRtt, "no round trip ended yet");
    r.ack(10_510.0, 1, 1000.0, 100.0, 4, true);
    assert_eq!(r.bbr.mode, Mode::ProbeBw);
}

#[test]
fn loss_keeps_the_window_and_recovery_conserves_packets_for_a_round_then_restores() {
    let (mut r, t) = in_probe_bw(3);
    r.s.window.cwnd = 206.0;
    let reduced = r.bbr.reduced_window(&CcView::new(&mut r.s, ms(t)), 206.0);
    assert_eq!(reduced, 206.0, "no multiplicative decrease");
    assert_eq!(r.bbr.window.prior_cwnd, 206.0);
    // The recovery starts on an ACK that delivered 1 packet with 150 left in the network.
    r.s.rate_sample = Some(Box::new(RateSample { newly_delivered: 1, in_flight: 150, ..RateSample::default() }));
    r.s.last_cwnd_action = crate::tcp::state::CwndAction::Dupack;
    r.bbr.on_recovery_start(&mut CcView::new(&mut r.s, ms(t)));
    assert_eq!(r.cwnd(), 151.0);
    // In the first round, each ACK allows what it delivered beyond those in the network.
    r.ack(t + 10.0, 2, 1000.0, 100.0, 150, false);
    assert_eq!(r.cwnd(), 151.0, "max(cwnd, 148 + 2)");
    r.ack(t + 20.0, 1, 1000.0, 100.0, 100, false);
    assert_eq!(r.cwnd(), 151.0);
    // A new round ends conservation: cwnd grows by what is delivered again.
    r.ack(t + 110.0, 3, 1000.0, 100.0, 100, true);
    assert_eq!(r.cwnd(), 154.0);
    // The recovery ends: cwnd back to at least its value before.
    r.bbr.on_recovery_end(&mut CcView::new(&mut r.s, ms(t + 120.0)));
    assert_eq!(r.cwnd(), 206.0);
}

#[test]
fn each_loss_in_a_sample_takes_one_packet_off_cwnd() {
    let (mut r, t) = in_probe_bw(3);
    r.s.window.cwnd = 206.0;
    r.s.last_cwnd_action = crate::tcp::state::CwndAction::Dupack;
    let lossy = RateSample { lost: 3, delivery_rate: Some(1000.0), prior_delivered: r.round_base - 1, newly_delivered: 1, total_delivered: r.delivered + 1, prior_in_flight: 100, in_flight: 99, rtt_s: Some(0.1), ..RateSample::default() };
    r.delivered += 1;
    r.feed(t + 10.0, lossy);
    assert_eq!(r.cwnd(), 204.0, "206 − 3 + 1");
}

#[test]
fn after_a_timeout_cwnd_comes_back_when_the_lost_flight_is_acknowledged() {
    let (mut r, t) = in_probe_bw(3);
    r.s.window.cwnd = 206.0;
    r.s.maxseq = 500;
    r.bbr.reduced_window(&CcView::new(&mut r.s, ms(t)), 206.0);
    r.s.window.cwnd = 1.0; // the sender's timeout cut
    r.bbr.on_timeout(&mut CcView::new(&mut r.s, ms(t)));
    r.delivered = 400;
    r.ack(t + 100.0, 1, 1000.0, 100.0, 1, false);
    assert_eq!(r.cwnd(), 4.0, "1 + 1, at least min_cwnd");
    r.delivered = 499;
    r.ack(t + 200.0, 1, 1000.0, 100.0, 1, false);
    assert_eq!(r.cwnd(), 206.0, "the ACK of packet 500 ends the loss state");
}

#[test]
fn only_a_window_control_that_asks_gets_a_rate_sampler() {
    use crate::catalogue::chosen;
    use crate::tcp::cc::CcModel;
    use crate::tcp::recovery::RecoveryModel;
    let sender = |cc: &str| {
        let recovery = chosen::<RecoveryModel>("sack1").build();
        crate::tcp::TcpSender::new(TcpParams::default(), recovery, chosen::<CcModel>(cc).build(), 0.0)
    };
    assert!(!sender("reno").samples_rates());
    assert!(!sender("reno").paces());
    assert!(sender("bbr").samples_rates());
    assert!(sender("bbr").paces());
}

#[test]
fn a_sender_with_bbr_samples_what_departs_and_paces_after_the_first_ack() {
    use crate::catalogue::chosen;
    use crate::tcp::cc::CcModel;
    use crate::tcp::recovery::RecoveryModel;
    let params = TcpParams { syn: false, max_window: 1000, ..TcpParams::default() };
    let recovery = chosen::<RecoveryModel>("sack1").build();
    let mut sender = crate::tcp::TcpSender::new(params, recovery, chosen::<CcModel>("bbr").build(), 0.0);
    sender.start(0);
    let first: Vec<i64> = sender.state.outbox.drain(..).map(|o| o.seq).collect();
    assert_eq!(first.len(), 2, "ns-2's initial window of 2, unpaced");
    for &seq in &first {
        sender.departed(seq, 0);
    }
    let info = AckInfo { ts_echo: 0, ..AckInfo::cumulative(0) };
    sender.on_ack(&info, ms(100.0));
    let rs = *sender.state.rate_sample.expect("a sample");
    assert_eq!(rs.newly_delivered, 1);
    assert_eq!(rs.rtt_s, Some(0.1));
    assert!(sender.state.pacing_rate_bps.is_some(), "BBR paces from its first RTT sample");
}
