//! Tests of each CUBIC rule (RFC 9438 §4) and of HyStart++ (RFC 9406 §4.3) on a sender
//! state driven by hand; the literal values are derived in the comments.

use super::*;
use crate::engine::time::{PS_PER_MS, PS_PER_S};
use crate::tcp::ack::AckInfo;
use crate::tcp::sender::{TcpParams, TcpState};

fn ms(t: f64) -> SimTime {
    (t * PS_PER_MS as f64).round() as SimTime
}

fn cubic_cc(set: &[(&str, V)]) -> Cubic {
    let mut c = SPEC.defaults();
    for (name, value) in set {
        c.set(name, value.clone());
    }
    (SPEC.check)(&c).expect("valid parameters");
    Cubic::new(CubicParams::from_config(&c))
}

/// A sender with this window and threshold whose smallest RTT sample is `rtt_s`.
fn state(cwnd: f64, ssthresh: f64, rtt_s: f64) -> TcpState {
    let mut s = TcpState::new(TcpParams::default(), 0.0);
    s.window.cwnd = cwnd;
    s.window.ssthresh = ssthresh;
    s.rtt_range = (rtt_s, rtt_s);
    s
}

/// An ACK of `acked` new packets at `now`, with the RTT sample `rtt_s`: the per-ACK hook,
/// then the growth, as the sender calls them.
fn ack_at(cc: &mut Cubic, s: &mut TcpState, now: SimTime, acked: i64, rtt_s: Option<f64>) {
    let info = AckInfo::cumulative(s.last_ack + acked);
    let event = AckEvent { info: &info, acked_packets: acked, duplicate: false, rtt_s: None, ack_rtt_s: rtt_s };
    cc.on_any_ack(&mut CcView::new(s, now), &event);
    cc.on_ack(&mut CcView::new(s, now), &event);
    s.last_ack += acked;
}

/// A loss with flight window `w` at `now`: the sender's `slowdown` with fast recovery's
/// cut (ssthresh ⌊β·W⌋, cwnd β·W).
fn loss(cc: &mut Cubic, s: &mut TcpState, w: f64, now: SimTime) {
    let reduced = cc.reduced_window(&CcView::new(s, now), w);
    s.window.ssthresh = reduced.floor().max(2.0);
    s.window.cwnd = reduced;
}

/// Drives ACKs of one packet each, spaced one RTT / cwnd apart (a window per round trip),
/// from `from` until `until`; returns the time reached.
fn run_acks(cc: &mut Cubic, s: &mut TcpState, from: SimTime, until: SimTime, rtt_s: f64) -> SimTime {
    let mut now = from;
    while now < until {
        ack_at(cc, s, now, 1, Some(rtt_s));
        now += time::from_secs(rtt_s / s.window.cwnd);
    }
    now
}

#[test]
fn defaults_are_the_rfcs() {
    let cc = cubic_cc(&[]);
    let p = cc.params();
    assert_eq!((p.c, p.beta, p.fast_convergence, p.reno_friendly), (0.4, 0.7, true, true));
    assert_eq!(p.slow_start, SlowStart::HystartPlusPlus);
    // α_cubic = 3 · 0.3 / 1.7 = 0.5294...
    assert!((p.alpha_cubic() - 0.9 / 1.7).abs() < 1e-15);
    let h = p.hystart;
    assert_eq!((h.min_rtt_thresh_s, h.max_rtt_thresh_s, h.min_rtt_divisor), (0.004, 0.016, 8.0));
    assert_eq!((h.n_rtt_sample, h.css_growth_divisor, h.css_rounds, h.ack_limit), (8, 4.0, 5, 8.0));
}

#[test]
fn a_loss_reduces_the_window_to_beta_times_the_flight_window() {
    let mut cc = cubic_cc(&[]);
    let mut s = state(100.0, 50.0, 0.1);
    assert_eq!(cc.reduced_window(&CcView::new(&mut s, 0), 100.0), 70.0);
    assert_eq!(cc.w_max(), 100.0);
    let mut half = cubic_cc(&[("beta", V::Number(0.5))]);
    assert_eq!(half.reduced_window(&CcView::new(&mut s, 0), 100.0), 50.0);
}

#[test]
fn k_after_a_loss_is_the_cube_root_of_w_max_times_one_minus_beta_over_c() {
    // W_max = 100, cwnd_epoch = 70: K = ∛(100 · 0.3 / 0.4) = ∛75 = 4.2171633 s.
    let mut cc = cubic_cc(&[]);
    let mut s = state(100.0, 50.0, 0.1);
    loss(&mut cc, &mut s, 100.0, 0);
    assert_eq!(cc.epoch(), None, "the epoch starts at the first ACK in avoidance");
    ack_at(&mut cc, &mut s, ms(1000.0), 1, Some(0.1));
    let epoch = cc.epoch().expect("an epoch");
    assert_eq!((epoch.start, epoch.cwnd_epoch, epoch.w_max), (ms(1000.0), 70.0, 100.0));
    assert!((epoch.k - 75f64.cbrt()).abs() < 1e-12, "{}", epoch.k);
    assert!((epoch.k - 4.2171633).abs() < 1e-6);
}

#[test]
fn w_cubic_is_cwnd_epoch_at_zero_w_max_at_k_and_w_max_plus_c_k_cubed_at_2k() {
    // W(0) = 0.4 · (−K)³ + 100 = 100 − 0.4 · 75 / 0.4 = 70; W(K) = 100;
    // W(2K) = 100 + 0.4 · K³ = 100 + 30 = 130.
    let cc = cubic_cc(&[]);
    let k = cc.k(100.0, 70.0);
    let epoch = Epoch { start: 0, cwnd_epoch: 70.0, w_max: 100.0, k };
    assert!((cc.w_cubic(&epoch, 0.0) - 70.0).abs() < 1e-9);
    assert!((cc.w_cubic(&epoch, k) - 100.0).abs() < 1e-12);
    assert!((cc.w_cubic(&epoch, 2.0 * k) - 130.0).abs() < 1e-9);
}

#[test]
fn the_window_is_concave_below_w_max_and_convex_above() {
    // Reno-friendly region off: the window follows W_cubic(t + RTT) alone. Sampled every
    // K/4 from the epoch's start, the increments shrink up to K (concave, cwnd < W_max)
    // and grow after it (convex, cwnd > W_max).
    let mut cc = cubic_cc(&[("reno_friendly", V::Bool(false))]);
    let rtt = 0.1;
    let mut s = state(100.0, 50.0, rtt);
    loss(&mut cc, &mut s, 100.0, 0);
    let k = cc.k(100.0, 70.0);
    let quarter = time::from_secs(k / 4.0);
    let mut now = 0;
    let mut samples = vec![s.window.cwnd];
    for i in 1..=8 {
        now = run_acks(&mut cc, &mut s, now, quarter * i, rtt);
        samples.push(s.window.cwnd);
    }
    let steps: Vec<f64> = samples.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(steps.iter().all(|&d| d > 0.0), "{samples:?}");
    assert!(steps[0] > steps[1] && steps[1] > steps[2] && steps[2] > steps[3], "concave {steps:?}");
    assert!(steps[4] < steps[5] && steps[5] < steps[6] && steps[6] < steps[7], "convex {steps:?}");
    assert!(samples[3] < 100.0 && samples[5] > 100.0, "{samples:?}");
    // The window chases the curve one RTT ahead: it lies between W_cubic(t) and
    // W_cubic(t + RTT).
    let epoch = cc.epoch().unwrap();
    let t = time::to_secs(now - epoch.start);
    let (now_w, ahead) = (cc.w_cubic(&epoch, t), cc.w_cubic(&epoch, t + rtt));
    assert!(s.window.cwnd >= now_w - 0.5 && s.window.cwnd <= ahead, "{} not in [{now_w}, {ahead}]", s.window.cwnd);
}

#[test]
fn the_target_is_at_most_one_and_a_half_times_the_window() {
    // Far past K the curve is far above cwnd: one ACK of one packet adds at most
    // (1.5 · cwnd − cwnd) / cwnd = 0.5 packets.
    let mut cc = cubic_cc(&[("reno_friendly", V::Bool(false))]);
    let mut s = state(100.0, 50.0, 0.1);
    loss(&mut cc, &mut s, 100.0, 0);
    ack_at(&mut cc, &mut s, 0, 1, Some(0.1));
    let before = s.window.cwnd;
    ack_at(&mut cc, &mut s, 60 * PS_PER_S, 1, Some(0.1));
    assert!((s.window.cwnd - before - 0.5).abs() < 1e-12, "{before} -> {}", s.window.cwnd);
    // Below the curve's current value the window holds (target = cwnd).
    let mut s = state(120.0, 50.0, 0.1);
    let mut cc = cubic_cc(&[("reno_friendly", V::Bool(false))]);
    cc.w_max = 200.0;
    ack_at(&mut cc, &mut s, 0, 1, Some(0.1));
    assert!(s.window.cwnd > 120.0);
}

#[test]
fn fast_convergence_lowers_w_max_when_a_loss_comes_below_the_last_one() {
    let mut cc = cubic_cc(&[]);
    let mut s = state(100.0, 50.0, 0.1);
    loss(&mut cc, &mut s, 100.0, 0);
    assert_eq!(cc.w_max(), 100.0);
    // W = 90 < 100: W_max = 90 · (1 + 0.7) / 2 = 76.5.
    loss(&mut cc, &mut s, 90.0, 0);
    assert!((cc.w_max() - 76.5).abs() < 1e-12);
    // W = 110 > 76.5: W_max = 110.
    loss(&mut cc, &mut s, 110.0, 0);
    assert_eq!(cc.w_max(), 110.0);
    let mut off = cubic_cc(&[("fast_convergence", V::Bool(false))]);
    loss(&mut off, &mut s, 100.0, 0);
    loss(&mut off, &mut s, 90.0, 0);
    assert_eq!(off.w_max(), 90.0);
}

#[test]
fn the_reno_friendly_estimate_takes_over_on_a_short_rtt_and_a_small_window() {
    // W = 20 lost, RTT 10 ms: K = ∛(20 · 0.3 / 0.4) = 2.47 s, so after 1 s (100 round
    // trips) W_cubic(1 s) = 20 − 0.4 · 1.47³ = 18.7, while W_est has grown from 14 by
    // α_cubic = 0.529 per RTT until it passed cwnd_prior = 20 (about 11 RTTs), then by 1
    // per RTT: about 14 + 6 + 89 = 109. The window follows W_est.
    let rtt = 0.010;
    let mut cc = cubic_cc(&[]);
    let mut s = state(20.0, 10.0, rtt);
    loss(&mut cc, &mut s, 20.0, 0);
    run_acks(&mut cc, &mut s, 0, PS_PER_S, rtt);
    let epoch = cc.epoch().unwrap();
    assert!(cc.w_cubic(&epoch, 1.0) < 19.0);
    assert!(s.window.cwnd > 95.0 && s.window.cwnd < 115.0, "{}", s.window.cwnd);
    assert!((s.window.cwnd - cc.w_est()).abs() < 1e-9);
    // Without the Reno-friendly region the window stays on the cubic: below 20.
    let mut cubic_only = cubic_cc(&[("reno_friendly", V::Bool(false))]);
    let mut s = state(20.0, 10.0, rtt);
    loss(&mut cubic_only, &mut s, 20.0, 0);
    run_acks(&mut cubic_only, &mut s, 0, PS_PER_S, rtt);
    assert!(s.window.cwnd < 20.0, "{}", s.window.cwnd);
}

#[test]
fn the_reno_estimate_grows_by_alpha_cubic_per_round_trip_until_cwnd_prior() {
    // Long RTT, big window: the cubic is above W_est; one window of ACKs (70 ACKs of one
    // packet at cwnd ≈ 70) adds α_cubic · Σ 1/cwnd ≈ 0.529 packets to W_est.
    let mut cc = cubic_cc(&[]);
    let mut s = state(100.0, 50.0, 0.2);
    loss(&mut cc, &mut s, 100.0, 0);
    let mut sum = 0.0;
    for _ in 0..70 {
        sum += 1.0 / s.window.cwnd;
        ack_at(&mut cc, &mut s, 0, 1, Some(0.2));
    }
    assert!((cc.w_est() - (70.0 + cc.params().alpha_cubic() * sum)).abs() < 1e-9, "{}", cc.w_est());
}

#[test]
fn a_timeout_forgets_w_max_and_the_next_epoch_starts_with_k_zero() {
    let mut cc = cubic_cc(&[]);
    let mut s = state(100.0, 50.0, 0.1);
    loss(&mut cc, &mut s, 100.0, 0);
    ack_at(&mut cc, &mut s, 0, 1, Some(0.1));
    assert!(cc.epoch().is_some());
    // The sender's timeout: slowdown to one packet (ssthresh from β), then on_timeout.
    loss(&mut cc, &mut s, 80.0, ms(500.0));
    assert_eq!(s.window.ssthresh, 56.0, "⌊0.7 · 80⌋");
    s.window.cwnd = 1.0;
    cc.on_timeout(&mut CcView::new(&mut s, ms(500.0)));
    assert_eq!((cc.epoch(), cc.w_max()), (None, 0.0));
    // Slow start to ssthresh, then the first ACK in avoidance starts the epoch from cwnd.
    s.window.cwnd = 56.0;
    ack_at(&mut cc, &mut s, ms(900.0), 1, Some(0.1));
    let epoch = cc.epoch().unwrap();
    assert_eq!((epoch.k, epoch.w_max, epoch.cwnd_epoch), (0.0, 56.0, 56.0));
}

#[test]
fn standard_slow_start_adds_the_acknowledged_packets_up_to_ssthresh() {
    let mut cc = cubic_cc(&[("slow_start", V::Choice("standard"))]);
    assert_eq!(cc.hooks(), CcHooks::NONE);
    let mut s = state(10.0, 20.0, 0.1);
    ack_at(&mut cc, &mut s, 0, 2, Some(0.1));
    assert_eq!(s.window.cwnd, 12.0);
    // 9 packets at cwnd 12: 8 take it to ssthresh 20, the 9th goes to avoidance (an epoch
    // starts, K = 0 with no W_max, and the Reno estimate adds 1/20).
    ack_at(&mut cc, &mut s, 0, 9, Some(0.1));
    assert!(s.window.cwnd >= 20.0 && s.window.cwnd < 20.1, "{}", s.window.cwnd);
    assert_eq!(cc.epoch().unwrap().k, 0.0);
}

// HyStart++ (RFC 9406 §4.3).

fn hystart() -> HystartPlusPlus {
    HystartPlusPlus::new(cubic_cc(&[]).params().hystart)
}

/// One round of `n` ACKs with the same RTT sample; the round started by ACK `ack` + 1
/// ends at packet `ack` + `n` (the window sent is `n` packets). Returns whether
/// congestion avoidance began, and the next ACK number.
fn round(h: &mut HystartPlusPlus, ack: i64, n: i64, rtt_s: f64) -> (bool, i64) {
    let maxseq = ack + n;
    let mut to_avoidance = false;
    for a in ack + 1..=ack + n {
        to_avoidance |= h.on_ack(a, maxseq + (a - ack), Some(rtt_s));
    }
    (to_avoidance, ack + n)
}

#[test]
fn the_rtt_threshold_is_an_eighth_of_the_last_minimum_clamped_to_4_and_16_ms() {
    let h = hystart();
    assert!((h.rtt_thresh(0.100) - 0.0125).abs() < 1e-15);
    assert_eq!(h.rtt_thresh(0.020), 0.004);
    assert_eq!(h.rtt_thresh(0.200), 0.016);
}

#[test]
fn hystart_enters_css_on_a_rise_of_at_least_the_threshold_and_not_below_it() {
    // Rounds of 10 ACKs (≥ N_RTT_SAMPLE = 8). Last round's minimum 100 ms: threshold
    // 12.5 ms. A round at 112.4 ms stays in slow start; one at 100 + 12.5 ms enters CSS.
    let mut h = hystart();
    let (_, a) = round(&mut h, 0, 10, 0.100);
    round(&mut h, a, 10, 0.1124);
    assert_eq!(h.phase(), HystartPhase::SlowStart);
    let mut h = hystart();
    let (_, a) = round(&mut h, 0, 10, 0.100);
    let rise = 0.100 + h.rtt_thresh(0.100);
    round(&mut h, a, 10, rise);
    assert_eq!(h.phase(), HystartPhase::Css { baseline_min_rtt: rise, rounds: 1 });
    // Growth in CSS: min(N, L) / 4.
    assert_eq!(h.increase(2.0), 0.5);
    assert_eq!(h.increase(20.0), 2.0);
}

#[test]
fn hystart_waits_for_n_rtt_samples_in_a_round() {
    // The rise shows on the 7th sample of the round but counts only from the 8th.
    let mut h = hystart();
    let (_, a) = round(&mut h, 0, 10, 0.100);
    let maxseq = a + 10;
    for i in 1..=7 {
        h.on_ack(a + i, maxseq, Some(0.150));
    }
    assert_eq!(h.phase(), HystartPhase::SlowStart);
    h.on_ack(a + 8, maxseq, Some(0.150));
    assert!(matches!(h.phase(), HystartPhase::Css { .. }));
}

#[test]
fn hystart_returns_to_slow_start_when_the_rtt_falls_below_the_css_baseline() {
    let mut h = hystart();
    let (_, a) = round(&mut h, 0, 10, 0.100);
    let (_, a) = round(&mut h, a, 10, 0.120);
    assert!(matches!(h.phase(), HystartPhase::Css { .. }));
    let (_, _) = round(&mut h, a, 10, 0.110);
    assert_eq!(h.phase(), HystartPhase::SlowStart);
    assert_eq!(h.increase(2.0), 2.0);
}

#[test]
fn hystart_leaves_css_for_congestion_avoidance_after_five_rounds() {
    // CSS starts in round 2 (which counts as its first); rounds 3-6 are CSS rounds 2-5;
    // the start of round 7 ends CSS.
    let mut h = hystart();
    let (_, mut a) = round(&mut h, 0, 10, 0.100);
    for css_round in 1..=5 {
        let (done, next) = round(&mut h, a, 10, 0.120);
        assert!(!done, "round {css_round}");
        assert_eq!(h.phase(), HystartPhase::Css { baseline_min_rtt: 0.120, rounds: css_round });
        a = next;
    }
    assert!(h.on_ack(a + 1, a + 11, Some(0.120)));
    assert_eq!(h.phase(), HystartPhase::Stopped);
}

#[test]
fn cubic_with_hystart_grows_a_quarter_per_packet_in_css_then_sets_ssthresh_to_cwnd() {
    let mut cc = cubic_cc(&[]);
    assert_eq!(cc.hooks(), CcHooks { any_ack: true, ..CcHooks::NONE });
    let mut s = state(10.0, 1000.0, 0.100);
    // A self-clocked flow: cwnd packets outstanding, one ACK per packet, ACKs spaced
    // RTT / cwnd; the RTT samples rise from 100 to 120 ms at 0.3 s (a queue builds).
    let mut now = 0;
    let (mut css_start_cwnd, mut css_acks) = (None, 0);
    while s.window.ssthresh >= 1000.0 {
        let rtt = if now < ms(300.0) { 0.100 } else { 0.120 };
        s.maxseq = s.last_ack + s.window.cwnd.floor() as i64;
        ack_at(&mut cc, &mut s, now, 1, Some(rtt));
        if let Some(HystartPhase::Css { .. }) = cc.hystart_phase() {
            css_start_cwnd.get_or_insert(s.window.cwnd);
            css_acks += 1;
        }
        now += time::from_secs(rtt / s.window.cwnd);
        assert!(now < 10 * PS_PER_S, "HyStart++ never ended");
    }
    assert_eq!(cc.hystart_phase(), Some(HystartPhase::Stopped));
    // The ACK that ends CSS sets ssthresh to cwnd, then grows the window in congestion
    // avoidance (an epoch with K = 0 from that cwnd: a small fraction of a packet).
    let overshoot = s.window.cwnd - s.window.ssthresh;
    assert!((0.0..0.1).contains(&overshoot), "{overshoot}");
    // Each ACK in CSS grew the window by 1/4 (CSS_GROWTH_DIVISOR); the first one counted
    // grew it before its cwnd was noted.
    let entry = css_start_cwnd.expect("CSS was entered");
    let grown = s.window.ssthresh - entry;
    assert!((grown - (css_acks - 1) as f64 / 4.0).abs() < 1e-9, "{grown} over {css_acks} ACKs");
    assert!(css_acks > 5, "{css_acks}");
    // A loss in slow start stops HyStart++.
    let mut cc = cubic_cc(&[]);
    let mut s = state(10.0, 1000.0, 0.100);
    loss(&mut cc, &mut s, 10.0, 0);
    assert_eq!(cc.hystart_phase(), Some(HystartPhase::Stopped));
}
