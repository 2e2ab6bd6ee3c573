//! Tests of each Reno + γ (+ δ) rule (file header) on a sender state driven by hand: the
//! echo sample and Karn's rule, eq. 10's decrease one RTT later and its suppression, γ
//! of eq. 11, and δ under eq. 12.

use super::*;
use crate::engine::time::PS_PER_MS;
use crate::tcp::ack::AckInfo;
use crate::tcp::sender::{TcpParams, TcpState};

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

fn gamma_cc(set: &[(&str, V)]) -> RenoGamma {
    let mut c = SPEC.defaults();
    for (name, value) in set {
        c.set(name, value.clone());
    }
    (SPEC.check)(&c).expect("valid parameters");
    RenoGamma::new(GammaParams::from_config(&c))
}

/// A sender in congestion avoidance (cwnd 30, ssthresh 20) with send records.
fn state() -> TcpState {
    let mut s = TcpState::new(TcpParams::default(), 0.0);
    s.window.cwnd = 30.0;
    s.window.ssthresh = 20.0;
    s.send_times = Some(Box::default());
    s
}

/// Packet `seq` sent at `at_ms`.
fn sent(s: &mut TcpState, seq: i64, at_ms: u64) {
    s.send_times.as_mut().unwrap().record(seq, ms(at_ms));
    s.maxseq = s.maxseq.max(seq);
}

/// An ACK `ack` echoing `echo` (None: the delayed-ACK timer's) arrives at `at_ms`; the
/// per-ACK hook, then window growth if it acknowledges new data.
fn ack(cc: &mut RenoGamma, s: &mut TcpState, ack: i64, echo: Option<i64>, at_ms: u64) {
    let info = AckInfo { echo_seq: echo, ..AckInfo::cumulative(ack) };
    let duplicate = ack == s.last_ack;
    let event = AckEvent { info: &info, acked_packets: (ack - s.last_ack).max(0), duplicate, rtt_s: None, ack_rtt_s: None };
    cc.on_any_ack(&mut CcView::new(s, ms(at_ms)), &event);
    if !duplicate {
        cc.on_ack(&mut CcView::new(s, ms(at_ms)), &event);
        s.last_ack = ack;
    }
}

/// A Reno + γ that has seen samples of 80 ms (packet 0) and 160 ms (packet 1): k = 1.
fn primed(set: &[(&str, V)]) -> (RenoGamma, TcpState) {
    let (mut cc, mut s) = (gamma_cc(set), state());
    sent(&mut s, 0, 160);
    sent(&mut s, 1, 0);
    // Packet 1's ACK is a duplicate (packet 0 not yet acknowledged): it still gives a sample.
    s.last_ack = -1;
    ack(&mut cc, &mut s, -1, Some(1), 160);
    ack(&mut cc, &mut s, 0, Some(0), 240);
    assert_eq!(cc.rtt_range(), (0.080, 0.160));
    assert_eq!(cc.gamma_due(), None);
    (cc, s)
}

#[test]
fn gamma_at_k_one_is_two_thirds() {
    // k = (160 − 80) / 80 = 1: γ = 1 / (1 + 0.5 · 1) = 80 / (0.5 · 160 + 0.5 · 80) = 2/3.
    let (cc, _) = primed(&[]);
    assert!((cc.gamma() - 2.0 / 3.0).abs() < 1e-12, "{}", cc.gamma());
    // k = 3 (max 320 ms): 1 / 2.5 = 0.4; th_upper 0.25 at k = 1: 1 / 1.25 = 0.8.
    let mut wide = cc.clone();
    wide.max_rtt = 0.320;
    assert!((wide.gamma() - 0.4).abs() < 1e-12);
    let mut low = gamma_cc(&[("th_upper", V::Number(0.25))]);
    (low.min_rtt, low.max_rtt) = (0.080, 0.160);
    assert!((low.gamma() - 0.8).abs() < 1e-12);
}

#[test]
fn the_echo_sample_is_now_minus_the_send_time_of_the_echoed_packet() {
    let (mut cc, mut s) = (gamma_cc(&[]), state());
    sent(&mut s, 0, 10);
    sent(&mut s, 1, 20);
    // ACK 1 echoes packet 1 (sent at 20 ms), arrives at 120 ms: 100 ms, not 110 ms.
    s.last_ack = -1;
    ack(&mut cc, &mut s, 1, Some(1), 120);
    assert_eq!(cc.rtt_range(), (0.1, 0.1));
}

#[test]
fn a_delayed_ack_timer_ack_gives_no_sample() {
    let (mut cc, mut s) = (gamma_cc(&[]), state());
    sent(&mut s, 0, 0);
    s.last_ack = -1;
    ack(&mut cc, &mut s, 0, None, 180);
    assert_eq!(cc.rtt_range(), (f64::INFINITY, 0.0));
}

#[test]
fn duplicate_acks_give_samples() {
    // Packet 0 lost; packets 1 and 2 arrive and trigger duplicate ACKs of −1 that echo
    // them: their delays (the queue at overflow) are measured.
    let (mut cc, mut s) = (gamma_cc(&[]), state());
    for seq in 0..3 {
        sent(&mut s, seq, 0);
    }
    s.last_ack = -1;
    ack(&mut cc, &mut s, -1, Some(1), 150);
    ack(&mut cc, &mut s, -1, Some(2), 170);
    assert_eq!(cc.rtt_range(), (0.15, 0.17));
}

#[test]
fn a_retransmitted_packet_gives_no_sample() {
    // Karn: packet 0 sent twice; the ACK that echoes it is ambiguous.
    let (mut cc, mut s) = (gamma_cc(&[]), state());
    sent(&mut s, 0, 0);
    sent(&mut s, 0, 300);
    s.last_ack = -1;
    ack(&mut cc, &mut s, 0, Some(0), 400);
    assert_eq!(cc.rtt_range(), (f64::INFINITY, 0.0));
}

#[test]
fn crossing_th_upper_cuts_the_window_by_gamma_one_rtt_later() {
    let (mut cc, mut s) = primed(&[]);
    // Packet 5 sent at 1000 ms, echoed at 1130 ms: x = (130 − 80) / 80 = 0.625 ≥ 0.5.
    sent(&mut s, 5, 1000);
    ack(&mut cc, &mut s, 1, Some(5), 1130);
    let cwnd = s.window.cwnd;
    assert_eq!(cc.gamma_due(), Some(ms(1130 + 130)), "one RTT (the detecting sample) later");
    assert_eq!(s.cc_timer, Some(ms(1260)));
    // Nothing before the timer; at it, cwnd × 2/3 and ssthresh follows.
    cc.on_timer(&mut CcView::new(&mut s, ms(1260)));
    assert!((s.window.cwnd - cwnd * 2.0 / 3.0).abs() < 1e-12, "{} vs {cwnd}", s.window.cwnd);
    assert_eq!(s.window.ssthresh, s.window.cwnd);
    assert_eq!(cc.gammas.len(), 1);
    assert!((cc.gammas[0] - 2.0 / 3.0).abs() < 1e-12, "the γ applied is recorded: {:?}", cc.gammas);
    assert_eq!(cc.gamma_due(), None);
    // What the flows table receives is exactly that list.
    let mut pushed = Vec::new();
    cc.recorded(&mut |name, values| pushed.push((name, values.to_vec())));
    // With it, the minRTT and maxRTT γ was computed from (80 and 160 ms: γ = 2/3).
    assert_eq!(cc.decrease_min_rtts, vec![0.080]);
    assert_eq!(cc.decrease_max_rtts, vec![0.160]);
    assert_eq!(
        pushed,
        vec![("gamma", cc.gammas.clone()), ("gamma_min_rtt", vec![0.080]), ("gamma_max_rtt", vec![0.160])]
    );
}

#[test]
fn gamma_is_reported_before_any_decrease_so_the_columns_do_not_depend_on_the_run() {
    let (cc, _) = primed(&[]);
    let mut pushed = Vec::new();
    cc.recorded(&mut |name, values| pushed.push((name, values.to_vec())));
    assert_eq!(pushed, vec![("gamma", vec![]), ("gamma_min_rtt", vec![]), ("gamma_max_rtt", vec![])]);
}

#[test]
fn below_th_upper_schedules_nothing() {
    let (mut cc, mut s) = primed(&[]);
    sent(&mut s, 5, 1000);
    ack(&mut cc, &mut s, 1, Some(5), 1119); // x = 39/80 < 0.5
    assert_eq!(cc.gamma_due(), None);
}

#[test]
fn further_crossings_are_suppressed_while_a_decrease_is_pending_and_one_rtt_after() {
    let (mut cc, mut s) = primed(&[]);
    for seq in 5..7 {
        sent(&mut s, seq, 1000);
    }
    sent(&mut s, 7, 1250);
    ack(&mut cc, &mut s, 1, Some(5), 1130);
    ack(&mut cc, &mut s, 2, Some(6), 1150); // x = 0.875, pending: no new schedule
    assert_eq!(cc.gamma_due(), Some(ms(1260)));
    cc.on_timer(&mut CcView::new(&mut s, ms(1260)));
    // Hold-off: one RTT (the latest sample, 150 ms) after the cut, i.e. until 1410 ms.
    sent(&mut s, 9, 1250);
    ack(&mut cc, &mut s, 3, Some(7), 1400);
    assert_eq!(cc.gamma_due(), None, "within one RTT of the decrease");
    ack(&mut cc, &mut s, 4, Some(9), 1420);
    assert_eq!(cc.gamma_due(), Some(ms(1420 + 170)));
    // Without the hold-off, a sample right after the cut schedules the next one.
    let (mut cc, mut s) = primed(&[("holdoff", V::Bool(false))]);
    for seq in 5..8 {
        sent(&mut s, seq, 1000);
    }
    ack(&mut cc, &mut s, 1, Some(5), 1130);
    cc.on_timer(&mut CcView::new(&mut s, ms(1260)));
    ack(&mut cc, &mut s, 2, Some(6), 1270);
    assert_eq!(cc.gamma_due(), Some(ms(1270 + 270)));
}

#[test]
fn a_loss_response_cancels_a_pending_decrease() {
    let (mut cc, mut s) = primed(&[]);
    sent(&mut s, 5, 1000);
    ack(&mut cc, &mut s, 1, Some(5), 1130);
    cc.on_recovery_start(&mut CcView::new(&mut s, ms(1140)));
    assert_eq!((cc.gamma_due(), s.cc_timer), (None, None));
}

#[test]
fn the_rules_wait_for_congestion_avoidance() {
    let (mut cc, mut s) = primed(&[]);
    s.window.ssthresh = 64.0; // slow start
    sent(&mut s, 5, 1000);
    ack(&mut cc, &mut s, 1, Some(5), 1150);
    assert_eq!(cc.gamma_due(), None);
}

#[test]
fn delta_applies_only_at_or_below_th_lower() {
    let (mut cc, mut s) = primed(&[("delta", V::Bool(true))]);
    for seq in 5..8 {
        sent(&mut s, seq, 1000);
    }
    // x = 4/80 = 0.05 ≤ 0.1: cwnd + 2/cwnd.
    let cwnd = s.window.cwnd;
    ack(&mut cc, &mut s, 1, Some(5), 1084);
    assert!(cc.delta_on());
    assert!((s.window.cwnd - (cwnd + 2.0 / cwnd)).abs() < 1e-12);
    // x = 16/80 = 0.2 > 0.1: back to α, cwnd + 1/cwnd.
    let cwnd = s.window.cwnd;
    ack(&mut cc, &mut s, 2, Some(6), 1096);
    assert!(!cc.delta_on());
    assert!((s.window.cwnd - (cwnd + 1.0 / cwnd)).abs() < 1e-12);
    // Reno + γ (delta = false) never uses δ.
    let (mut plain, mut s) = primed(&[]);
    sent(&mut s, 5, 1000);
    let cwnd = s.window.cwnd;
    ack(&mut plain, &mut s, 1, Some(5), 1084);
    assert!(!plain.delta_on());
    assert!((s.window.cwnd - (cwnd + 1.0 / cwnd)).abs() < 1e-12);
}

#[test]
fn delta_persisting_over_an_rtt_waits_a_whole_rtt_under_th_lower() {
    let (mut cc, mut s) = primed(&[("delta", V::Bool(true)), ("delta_persist", V::Choice("rtt"))]);
    // The priming's 80 ms sample met eq. 12; a 104 ms one (x = 0.3) ends that run.
    sent(&mut s, 4, 900);
    for seq in 5..9 {
        sent(&mut s, seq, 1000);
    }
    ack(&mut cc, &mut s, 1, Some(4), 1004);
    ack(&mut cc, &mut s, 1, Some(5), 1084);
    assert!(!cc.delta_on(), "first sample under th_lower");
    ack(&mut cc, &mut s, 2, Some(6), 1084);
    assert!(!cc.delta_on());
    sent(&mut s, 9, 1100);
    ack(&mut cc, &mut s, 3, Some(9), 1184); // 100 ms after the first: ≥ one RTT (84 ms)
    assert!(cc.delta_on());
}

#[test]
fn slow_start_is_reno_s() {
    let (mut cc, mut s) = (gamma_cc(&[("delta", V::Bool(true))]), state());
    s.window.ssthresh = 64.0;
    sent(&mut s, 0, 0);
    s.last_ack = -1;
    ack(&mut cc, &mut s, 0, Some(0), 80);
    assert_eq!(s.window.cwnd, 31.0);
}

#[test]
fn th_lower_must_lie_below_th_upper() {
    let mut c = SPEC.defaults();
    c.set("th_lower", V::Number(0.6));
    let e = (SPEC.check)(&c).unwrap_err();
    assert_eq!(e.key, "th_lower");
}
