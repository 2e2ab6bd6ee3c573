//! Tests of the Vegas+ rules (file header): the counter, one test per rule, with
//! synthetic round RTTs and windows; the modes' window growth and loss cut.

use super::*;
use crate::engine::time::PS_PER_MS;
use crate::engine::SimTime;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::Window;
use crate::tcp::sender::{TcpParams, TcpState};

fn vp(countmax: u32) -> VegasPlus {
    VegasPlus::new(VegasParams::from_config(&SPEC.defaults()), countmax)
}

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

/// `rounds` rounds whose RTT rises by 10 ms each at a constant window.
fn rising_rtt_rounds(v: &mut VegasPlus, rounds: u32) {
    let start = v.trend.last_rtt().unwrap_or(0.100);
    if v.trend.last_rtt().is_none() {
        v.count_round(start, 10.0);
    }
    for k in 1..=rounds {
        v.count_round(start + 0.010 * k as f64, 10.0);
    }
}

#[test]
fn countmax_defaults_to_8() {
    assert_eq!(SPEC.defaults().integer("countmax"), 8);
}

#[test]
fn rtt_rising_at_a_window_that_did_not_grow_counts_up() {
    let mut v = vp(8);
    v.count_round(0.100, 10.0);
    assert_eq!(v.count(), 0, "the first round only records");
    v.count_round(0.110, 10.0);
    v.count_round(0.120, 9.0);
    assert_eq!(v.count(), 2);
    v.count_round(0.130, 11.0); // the window grew: no count
    assert_eq!(v.count(), 2);
    v.count_round(0.130, 11.0); // RTT equal: no change
    assert_eq!(v.count(), 2);
}

#[test]
fn a_window_grown_in_the_previous_round_does_not_count_as_held() {
    // Vegas' own growth raises the next round's mean RTT too.
    let mut v = vp(8);
    v.count_round(0.100, 10.0);
    v.count_round(0.110, 11.0); // grew
    v.count_round(0.120, 11.0); // held this round, grew the round before
    assert_eq!(v.count(), 0);
    v.count_round(0.130, 11.0); // held two rounds
    assert_eq!(v.count(), 1);
}

#[test]
fn rtt_falling_counts_down_but_not_below_zero() {
    let mut v = vp(8);
    rising_rtt_rounds(&mut v, 2);
    v.count_round(0.100, 12.0);
    assert_eq!(v.count(), 1);
    v.count_round(0.090, 12.0);
    v.count_round(0.080, 12.0);
    assert_eq!(v.count(), 0);
}

#[test]
fn reaching_countmax_turns_aggressive_and_zero_turns_moderate_again() {
    let mut v = vp(3);
    rising_rtt_rounds(&mut v, 2);
    assert!(!v.aggressive());
    rising_rtt_rounds(&mut v, 1);
    assert!(v.aggressive(), "count 3 = countmax");
    // Falling RTTs: still aggressive at 2 and 1, moderate at 0.
    let mut rtt = v.trend.last_rtt().unwrap();
    for expected_aggressive in [true, true, false] {
        rtt -= 0.005;
        v.count_round(rtt, 10.0);
        assert_eq!(v.aggressive(), expected_aggressive, "count {}", v.count());
    }
}

fn bare_state(cwnd: f64, ssthresh: f64) -> TcpState {
    let mut s = TcpState::new(TcpParams { max_window: 1000, ..TcpParams::default() }, 0.0);
    s.window = Window { cwnd, ssthresh };
    s.send_times = Some(Box::default());
    s
}

#[test]
fn a_fast_retransmit_halves_the_count_and_a_timeout_clears_it() {
    let mut v = vp(4);
    rising_rtt_rounds(&mut v, 5);
    assert_eq!((v.count(), v.aggressive()), (5, true));
    let mut s = bare_state(10.0, 2.0);
    v.on_recovery_start(&mut CcView::new(&mut s, ms(1000)));
    assert_eq!((v.count(), v.aggressive()), (2, true), "5/2 = 2: not yet 0, stays aggressive");
    v.on_recovery_start(&mut CcView::new(&mut s, ms(1000)));
    v.on_recovery_start(&mut CcView::new(&mut s, ms(1000)));
    assert_eq!((v.count(), v.aggressive()), (0, false));

    let mut v = vp(4);
    rising_rtt_rounds(&mut v, 4);
    assert!(v.aggressive());
    let mut s = bare_state(10.0, 2.0);
    v.on_timeout(&mut CcView::new(&mut s, ms(1000)));
    assert_eq!((v.count(), v.aggressive()), (0, false));
    assert_eq!(s.window.cwnd, 2.0, "moderate again: Vegas' window after a timeout");
}

#[test]
fn the_loss_cut_is_vegas_in_moderate_mode_and_reno_half_in_aggressive_mode() {
    let mut moderate = vp(4);
    let mut s1 = bare_state(20.0, 2.0);
    assert_eq!(moderate.reduced_window(&CcView::new(&mut s1, ms(1000)), 20.0), 15.0, "Vegas: 20 − 20/4");
    let mut aggressive = vp(4);
    rising_rtt_rounds(&mut aggressive, 4);
    let mut s2 = bare_state(20.0, 2.0);
    assert_eq!(aggressive.reduced_window(&CcView::new(&mut s2, ms(1000)), 21.0), 10.0, "Reno: ⌊21/2⌋");
    assert_eq!(aggressive.reduced_window(&CcView::new(&mut s2, ms(1000)), 3.0), 2.0, "floor 2");
}

#[test]
fn aggressive_mode_grows_as_reno_on_every_ack() {
    // Congestion avoidance (ssthresh 2): +1/cwnd per new ACK, with no Vegas guard (cwnd
    // 10 with nothing outstanding would stop Vegas' increment).
    let mut v = vp(1);
    rising_rtt_rounds(&mut v, 1);
    assert!(v.aggressive());
    v.core = Vegas::mid_connection(0.100, 1_000, 0);
    let mut s = bare_state(10.0, 2.0);
    s.first_sent = Some(0);
    s.output(1, ms(900));
    s.t_seqno = 2;
    s.curseq = i64::MAX;
    let info = AckInfo::cumulative(1);
    let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
    s.last_ack = 1;
    v.on_ack(&mut CcView::new(&mut s, ms(1000)), &event);
    assert_eq!(s.window.cwnd, 10.1);
    // In slow start, one packet per ACK.
    let mut s = bare_state(4.0, 100.0);
    s.last_ack = 1;
    v.on_ack(&mut CcView::new(&mut s, ms(1000)), &event);
    assert_eq!(s.window.cwnd, 5.0);
}
