//! Tests of the Vegas-A rules (file header), one per branch of the original paper's
//! algorithm, with synthetic Δ and throughputs; then the rule's effect on the window
//! through Vegas' per-round machinery.

use super::*;
use crate::engine::time::PS_PER_MS;
use crate::engine::SimTime;
use crate::tcp::cc::{AckEvent, Window};
use crate::tcp::sender::{TcpParams, TcpState};

fn va() -> VegasA {
    VegasA::new(VegasParams::from_config(&SPEC.defaults()))
}

/// A Vegas-A whose thresholds were raised to (α, β) = (1 + k, 3 + k).
fn raised(k: u32) -> VegasA {
    let mut v = va();
    for _ in 0..k {
        assert_eq!(v.decide(2.0 + v.thresholds().0 - 1.0, 2.0, Some(1.0)), Step::Grow);
    }
    assert_eq!(v.thresholds(), (1.0 + k as f64, 3.0 + k as f64));
    v
}

const LOWER: Option<f64> = Some(90.0);
const SAME: Option<f64> = Some(100.0);
const HIGHER: Option<f64> = Some(110.0);

// ---------------------------------------------------------------- α ≤ Δ ≤ β

#[test]
fn inside_the_band_with_rising_throughput_grows_and_raises_both_thresholds() {
    // The original paper's rule; the thesis' transcription has cwnd − 1, α − 1, β − 1 here.
    for delta in [1.0, 2.0, 3.0] {
        let mut v = va();
        assert_eq!(v.decide(delta, 100.0, LOWER), Step::Grow, "Δ {delta}");
        assert_eq!(v.thresholds(), (2.0, 4.0));
    }
}

#[test]
fn inside_the_band_without_rising_throughput_changes_nothing() {
    for previous in [SAME, HIGHER, None] {
        let mut v = va();
        assert_eq!(v.decide(2.0, 100.0, previous), Step::Hold);
        assert_eq!(v.thresholds(), (1.0, 3.0));
    }
}

// ---------------------------------------------------------------- Δ < α

#[test]
fn below_alpha_at_alpha_1_grows_whatever_the_throughput() {
    for previous in [LOWER, SAME, HIGHER, None] {
        let mut v = va();
        assert_eq!(v.decide(0.0, 100.0, previous), Step::Grow);
        assert_eq!(v.thresholds(), (1.0, 3.0));
    }
}

#[test]
fn below_a_raised_alpha_with_rising_throughput_grows_and_keeps_the_thresholds() {
    let mut v = raised(2);
    assert_eq!(v.decide(1.0, 100.0, LOWER), Step::Grow);
    assert_eq!(v.thresholds(), (3.0, 5.0));
}

#[test]
fn below_a_raised_alpha_with_falling_throughput_shrinks_and_lowers_the_thresholds() {
    let mut v = raised(2);
    assert_eq!(v.decide(1.0, 100.0, HIGHER), Step::Shrink);
    assert_eq!(v.thresholds(), (2.0, 4.0));
}

#[test]
fn below_a_raised_alpha_with_equal_throughput_holds() {
    let mut v = raised(1);
    assert_eq!(v.decide(1.0, 100.0, SAME), Step::Hold);
    assert_eq!(v.thresholds(), (2.0, 4.0));
}

// ---------------------------------------------------------------- Δ > β

#[test]
fn above_beta_shrinks_and_lowers_the_thresholds_but_not_below_the_initial_alpha() {
    let mut v = raised(1);
    assert_eq!(v.decide(5.0, 100.0, LOWER), Step::Shrink);
    assert_eq!(v.thresholds(), (1.0, 3.0));
    assert_eq!(v.decide(4.0, 100.0, LOWER), Step::Shrink);
    assert_eq!(v.thresholds(), (1.0, 3.0), "α stays at its floor 1");
}

// ---------------------------------------------------------------- through Vegas' round

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

/// A sender in congestion avoidance (cwnd 10) whose round of 10 packets (100..109) was
/// sent at 900 ms; ACKs of packet 100 at `at` end the round.
fn end_of_round(v: &mut VegasA, rtt_ms: u64) -> TcpState {
    let mut s = TcpState::new(TcpParams { max_window: 1000, ..TcpParams::default() }, 0.0);
    s.window = Window { cwnd: 10.0, ssthresh: 2.0 };
    s.send_times = Some(Box::default());
    s.first_sent = Some(0);
    for seq in 100..110 {
        s.output(seq, ms(900));
    }
    s.t_seqno = 110;
    s.last_ack = 99;
    s.curseq = i64::MAX;
    v.core = Vegas::mid_connection(0.100, 100, ms(900));
    let info = crate::tcp::ack::AckInfo::cumulative(100);
    let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
    let now = ms(900 + rtt_ms);
    v.on_any_ack(&mut CcView::new(&mut s, now), &event);
    s.last_ack = 100;
    v.on_ack(&mut CcView::new(&mut s, now), &event);
    s
}

#[test]
fn a_round_above_beta_cuts_one_packet_at_once() {
    // No samples: the round's RTT is the 160 ms since it began; Δ = 10·(1 − 100/160)
    // = 3.75 → 4 > β = 3: cwnd 10 → 9 at once.
    let mut v = va();
    let s = end_of_round(&mut v, 160);
    assert_eq!(s.window.cwnd, 9.0);
}

#[test]
fn a_round_in_the_band_after_a_lower_throughput_raises_thresholds_and_grows_over_the_round() {
    // Δ = 10·(1 − 100/125) = 2 inside [1, 3]; Th = 10/0.125 = 80 packets/s against 50.
    let mut v = va();
    v.previous_throughput = Some(50.0);
    let s = end_of_round(&mut v, 125);
    assert_eq!(v.thresholds(), (2.0, 4.0));
    assert_eq!(s.window.cwnd, 10.0 + 1.0 / 10.0, "the first of the round's ten 1/cwnd increments");
}
