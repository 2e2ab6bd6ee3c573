//! Tests of the NewVegas rules (file header), expected values worked out by hand: the
//! threshold rule alone, with synthetic round RTTs and windows; then a whole sender (cc
//! new_vegas + recovery vegas) driven round by round with scripted RTTs.

use super::*;
use crate::catalogue::chosen;
use crate::engine::time::PS_PER_MS;
use crate::engine::SimTime;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CcModel;
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::sender::{TcpParams, TcpSender, TcpState};

fn nv() -> NewVegas {
    NewVegas::new(VegasParams::from_config(&SPEC.defaults()))
}

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

// ---------------------------------------------------------------- the threshold rule

#[test]
fn thresholds_start_at_alpha0_beta0_and_the_first_round_only_records() {
    let mut n = nv();
    assert_eq!(n.thresholds(), (1.0, 3.0));
    n.update_thresholds(0.100, 10.0);
    assert_eq!(n.thresholds(), (1.0, 3.0), "no RTTold yet");
}

#[test]
fn rtt_rising_at_a_window_that_did_not_grow_raises_both_thresholds() {
    let mut n = nv();
    n.update_thresholds(0.100, 10.0);
    n.update_thresholds(0.110, 10.0); // RTT up, W = Wold
    assert_eq!(n.thresholds(), (2.0, 4.0));
    n.update_thresholds(0.120, 9.0); // RTT up, W < Wold
    assert_eq!(n.thresholds(), (3.0, 5.0));
}

#[test]
fn rtt_rising_while_the_window_grew_changes_nothing() {
    let mut n = nv();
    n.update_thresholds(0.100, 10.0);
    n.update_thresholds(0.110, 11.0);
    assert_eq!(n.thresholds(), (1.0, 3.0));
}

#[test]
fn a_window_grown_in_the_previous_round_does_not_count_as_held() {
    // Vegas spreads a growth over a round: its own extra packet raises the next round's
    // mean RTT too, so W ≤ Wold is read over two rounds.
    let mut n = nv();
    n.update_thresholds(0.100, 10.0);
    n.update_thresholds(0.110, 11.0); // grew
    n.update_thresholds(0.120, 11.0); // held this round, grew the round before
    assert_eq!(n.thresholds(), (1.0, 3.0));
    n.update_thresholds(0.130, 11.0); // held two rounds
    assert_eq!(n.thresholds(), (2.0, 4.0));
}

#[test]
fn rtt_not_rising_lowers_the_thresholds_down_to_alpha0_only() {
    let mut n = nv();
    n.update_thresholds(0.100, 10.0);
    n.update_thresholds(0.110, 10.0);
    n.update_thresholds(0.120, 10.0);
    assert_eq!(n.thresholds(), (3.0, 5.0));
    n.update_thresholds(0.120, 12.0); // RTT = RTTold: "RTT ≤ RTTold"
    assert_eq!(n.thresholds(), (2.0, 4.0));
    n.update_thresholds(0.090, 12.0);
    assert_eq!(n.thresholds(), (1.0, 3.0));
    n.update_thresholds(0.080, 12.0); // α = α0: stays
    assert_eq!(n.thresholds(), (1.0, 3.0));
}

fn bare_state() -> TcpState {
    let mut s = TcpState::new(TcpParams { max_window: 1000, ..TcpParams::default() }, 0.0);
    s.send_times = Some(Box::default());
    s
}

#[test]
fn a_fast_retransmit_or_a_timeout_resets_the_thresholds() {
    for timeout in [false, true] {
        let mut n = nv();
        n.update_thresholds(0.100, 10.0);
        n.update_thresholds(0.110, 10.0);
        assert_eq!(n.thresholds(), (2.0, 4.0));
        let mut s = bare_state();
        let mut view = CcView::new(&mut s, ms(1000));
        if timeout {
            n.on_timeout(&mut view);
        } else {
            n.on_recovery_start(&mut view);
        }
        assert_eq!(n.thresholds(), (1.0, 3.0), "timeout {timeout}");
        // RTTold is forgotten too: a higher RTT next round only records.
        n.update_thresholds(0.200, 5.0);
        assert_eq!(n.thresholds(), (1.0, 3.0));
    }
}

#[test]
fn a_configured_alpha0_is_the_floor() {
    let mut n = NewVegas::new(VegasParams { alpha: 2, beta: 4, gamma: 1, round_delta: true });
    n.update_thresholds(0.100, 10.0);
    n.update_thresholds(0.090, 10.0);
    assert_eq!(n.thresholds(), (2.0, 4.0));
}

// ---------------------------------------------------------------- a whole sender

fn new_vegas_sender() -> TcpSender {
    let params = TcpParams { syn: false, initial_window: 2.0, max_window: 1000, ..TcpParams::default() };
    TcpSender::new(params, chosen::<RecoveryModel>("vegas").build(), chosen::<CcModel>("new_vegas").build(), 0.0)
}

/// ACKs every outstanding packet, each `rtt` after it was sent, in order.
fn round(s: &mut TcpSender, rtt: SimTime) {
    let (first, last) = (s.state.last_ack + 1, s.state.maxseq);
    let times = s.state.send_times.as_ref().expect("new_vegas keeps send times");
    let acks: Vec<(i64, SimTime)> = (first..=last).map(|q| (q, times.get(q).expect("outstanding") + rtt)).collect();
    for (seq, at) in acks {
        s.on_ack(&AckInfo::cumulative(seq), at);
        s.state.outbox.clear();
    }
}

#[test]
fn in_a_sender_rising_rtts_at_a_held_window_let_it_keep_more_packets_queued() {
    // Slow start at 100 ms rounds, then two rounds at 200 ms (the first a slow-start hold
    // round): Δ jumps above γ and the flow leaves slow start. Then the RTT rises by 20 ms a round: Vegas (β = 3) would shrink
    // the window every round; NewVegas raises β at each round whose window did not grow,
    // so the window shrinks less.
    let mut newvegas = new_vegas_sender();
    let mut vegas = TcpSender::new(
        TcpParams { syn: false, initial_window: 2.0, max_window: 1000, ..TcpParams::default() },
        chosen::<RecoveryModel>("vegas").build(),
        chosen::<CcModel>("vegas").build(),
        0.0,
    );
    for s in [&mut newvegas, &mut vegas] {
        s.start(0);
        s.state.outbox.clear();
        for _ in 0..6 {
            round(s, ms(100));
        }
        for _ in 0..2 {
            round(s, ms(200));
        }
        assert_eq!(s.state.window.ssthresh, 2.0, "left slow start");
        for k in 0..8 {
            round(s, ms(200 + 20 * k));
        }
    }
    let (nv, v) = (newvegas.state.window.cwnd, vegas.state.window.cwnd);
    eprintln!("after the rising-RTT rounds: NewVegas cwnd {nv}, Vegas cwnd {v}");
    assert!(nv > v, "NewVegas {nv} vs Vegas {v}");
}
