//! Tests of the Quick Vegas rules, expected values worked out by hand from the paper's
//! equations (file header). Three rigs: the per-round rule alone (`decide`), driven in the
//! paper's fluid rounds for Table 1; a bare sender state for the per-ACK increment; and a
//! whole sender (cc quick_vegas + recovery vegas) driven round by round.

use super::*;
use crate::engine::time::PS_PER_MS;
use crate::engine::SimTime;
use crate::catalogue::chosen;
use crate::tcp::cc::CcModel;
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::sender::{TcpParams, TcpSender, TcpState};

fn qv() -> QuickVegas {
    QuickVegas::new(QuickVegasParams::default())
}

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

const SLOW_START: f64 = 1e9;
const CONGESTION_AVOIDANCE: f64 = 2.0;

fn ca(cwnd: f64) -> Window {
    Window { cwnd, ssthresh: CONGESTION_AVOIDANCE }
}

/// The paper's fluid round: the round's rule, then one ACK per packet of the window,
/// each adding `incr` (Sect. 3.2.2: incr is added to the window on each ACK), so a round
/// adds incr × cwnd.
fn fluid_round(q: &mut QuickVegas, w: Window, delta: f64) -> Window {
    let w = q.decide(w, delta);
    Window { cwnd: w.cwnd + q.incr() * w.cwnd, ..w }
}

fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

// ---------------------------------------------------------------- slow start

#[test]
fn table_1_quick_vegas_row_in_fluid_rounds() {
    // Chan, Lin & Ho Table 1, "the congestion window size ... at each RTT round (if Δ is
    // not greater than γ)": 2, 3, 4.5, 6.75, 10.13, 15.19, 22.78, 34.17, 51.26, i.e.
    // 2·1.5^k (10.125, 15.1875, 22.78125, 34.171875, 51.2578125) printed to 2 decimals.
    let mut q = qv();
    let mut w = Window { cwnd: 2.0, ssthresh: SLOW_START };
    let mut row = Vec::new();
    for _ in 0..9 {
        row.push(two_decimals(w.cwnd));
        w = fluid_round(&mut q, w, 0.0);
    }
    assert_eq!(row, [2.0, 3.0, 4.5, 6.75, 10.13, 15.19, 22.78, 34.17, 51.26]);
    assert_eq!(q.incr(), 0.5, "one extra packet per two ACKs");
}

#[test]
fn slow_start_ends_when_delta_exceeds_gamma_with_the_vegas_cut() {
    // Δ = γ = 1 is "not greater than γ": still growing. Δ = 2 > 1: ssthresh 2 and
    // cwnd 64 − 64/8 = 56 (Vegas' exit, the default exit_cut 1/8), no increment.
    let mut q = qv();
    let w = q.decide(Window { cwnd: 64.0, ssthresh: SLOW_START }, 1.0);
    assert_eq!((w.cwnd, w.ssthresh, q.incr()), (64.0, SLOW_START, 0.5));
    let w = q.decide(w, 2.0);
    assert_eq!((w.cwnd, w.ssthresh, q.incr(), q.succ()), (56.0, 2.0, 0.0, 0));
    // exit_cut is a parameter: 0 keeps the window.
    let mut q = QuickVegas::new(QuickVegasParams { exit_cut: 0.0, ..QuickVegasParams::default() });
    assert_eq!(q.decide(Window { cwnd: 64.0, ssthresh: SLOW_START }, 2.0).cwnd, 64.0);
}

// ---------------------------------------------------------------- the five branches

#[test]
fn below_alpha_grows_by_beta_minus_delta_times_succ_per_round() {
    // Eq. 3 with β = 4: Δ = 0 gives +4, +8, +12 in three consecutive rounds; Δ = 1 then
    // +3·4 = 12 in the fourth (succ keeps counting while Δ < α).
    let mut q = qv();
    let mut w = ca(100.0);
    for (delta, added, succ) in [(0.0, 4.0, 1), (0.0, 8.0, 2), (0.0, 12.0, 3), (1.0, 12.0, 4)] {
        let before = w.cwnd;
        w = fluid_round(&mut q, w, delta);
        assert!((w.cwnd - before - added).abs() < 1e-9, "Δ {delta}: +{} expected {added}", w.cwnd - before);
        assert_eq!(q.succ(), succ);
    }
    // The increment is per ACK: (β − Δ)·succ / cwnd.
    let mut q = qv();
    q.decide(ca(100.0), 0.0);
    assert_eq!(q.incr(), 0.04);
}

#[test]
fn below_alpha_at_most_doubles_the_window() {
    // (β − Δ)·succ > cwnd → incr = 1 per ACK: the round doubles the window, no more.
    // cwnd 10, Δ 0: +4 (14), +8 (22), +12 (34), then 16 ≤ 34 → +16 (50) ... but from
    // cwnd 5: +4 (9), then 8 ≤ 9 (+8 → 17), 12 ≤ 17 (+12 → 29), 16 ≤ 29: never capped;
    // from cwnd 3: 4 > 3 → incr 1 → 6 (doubled, not 7).
    let mut q = qv();
    let w = fluid_round(&mut q, ca(3.0), 0.0);
    assert_eq!(q.incr(), 1.0);
    assert_eq!(w.cwnd, 6.0);
    // Exactly (β − Δ)·succ = cwnd is not capped: incr = 4/4 = 1 all the same.
    let mut q = qv();
    q.decide(ca(4.0), 0.0);
    assert_eq!(q.incr(), 1.0);
}

#[test]
fn above_beta_removes_half_the_excess_at_once() {
    // Eq. 4: cwnd − (Δ − (α+β)/2)/2 with target 3: Δ 9 → 100 − 3 = 97; Δ 5 → 99.
    let mut q = qv();
    fluid_round(&mut q, ca(100.0), 0.0);
    assert_eq!(q.succ(), 1);
    let w = q.decide(ca(100.0), 9.0);
    assert_eq!((w.cwnd, q.incr(), q.succ()), (97.0, 0.0, 0));
    assert_eq!(q.decide(ca(100.0), 5.0).cwnd, 99.0);
    // Never below 2 packets (as ns-2 Vegas).
    assert_eq!(q.decide(ca(4.0), 40.0).cwnd, 2.0);
    // Unrounded Δ works the same: 4.5 > β → 100 − 0.75.
    assert_eq!(q.decide(ca(100.0), 4.5).cwnd, 99.25);
}

#[test]
fn between_target_and_beta_decreases_by_one() {
    // Δ = 4 = β is not above β, but above (α+β)/2 = 3: cwnd − 1 at once.
    let mut q = qv();
    fluid_round(&mut q, ca(100.0), 0.0);
    let w = q.decide(ca(100.0), 4.0);
    assert_eq!((w.cwnd, q.incr(), q.succ()), (99.0, 0.0, 0));
    assert_eq!(q.decide(ca(2.5), 3.5).cwnd, 2.0, "floor of 2");
}

#[test]
fn between_alpha_and_target_increases_by_one_per_round() {
    // Δ = 2 = α is not below α; below the target 3: incr = 1/cwnd (+1 over the round);
    // succ resets.
    let mut q = qv();
    fluid_round(&mut q, ca(100.0), 0.0);
    let w = fluid_round(&mut q, ca(100.0), 2.0);
    assert_eq!(q.incr(), 0.01);
    assert_eq!(q.succ(), 0);
    assert!((w.cwnd - 101.0).abs() < 1e-9);
}

#[test]
fn at_the_target_holds() {
    let mut q = qv();
    fluid_round(&mut q, ca(100.0), 0.0);
    let w = fluid_round(&mut q, ca(100.0), 3.0);
    assert_eq!((w.cwnd, q.incr(), q.succ()), (100.0, 0.0, 0));
}

#[test]
fn doubling_the_window_takes_thirteen_rounds_at_delta_zero() {
    // Our derivation for document 001's Sect. 5.1: from the equilibrium after halving
    // (about 316) to 630 the increments are 4, 8, 12, …: 4·k(k+1)/2 ≥ 314 first at
    // k = 13 (k = 12 gives 312). Vegas needs 314 rounds.
    let mut q = qv();
    let mut w = ca(316.0);
    let mut rounds = 0;
    while w.cwnd < 630.0 {
        w = fluid_round(&mut q, w, 0.0);
        rounds += 1;
    }
    assert_eq!(rounds, 13);
    assert!((w.cwnd - (316.0 + 4.0 * 91.0)).abs() < 1e-9);
}

// ---------------------------------------------------------------- per-ACK increment

/// A sender in congestion avoidance that sent packets 100 .. 100 + `outstanding` − 1 at
/// 900 ms, with base_rtt 100 ms; the ACK of packet 100 at 1 s ends the round with
/// round-trip 100 ms for packet 100 (no queue: Δ = 0).
fn end_of_round(cwnd: f64, outstanding: i64, params: QuickVegasParams) -> (TcpState, QuickVegas) {
    let mut s = TcpState::new(TcpParams { max_window: 1000, ..TcpParams::default() }, 0.0);
    s.window = Window { cwnd, ssthresh: CONGESTION_AVOIDANCE };
    s.send_times = Some(Box::default());
    s.first_sent = Some(0);
    for seq in 100..100 + outstanding {
        s.output(seq, ms(900));
    }
    s.t_seqno = 100 + outstanding;
    s.last_ack = 99;
    s.curseq = i64::MAX;
    let mut q = QuickVegas::new(params);
    q.core = Vegas::mid_connection(0.1, 100, ms(900));
    (s, q)
}

fn ack_event(info: &AckInfo) -> AckEvent<'_> {
    AckEvent { info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None }
}

fn ack(s: &mut TcpState, q: &mut QuickVegas, seq: i64, at: SimTime) {
    let info = AckInfo::cumulative(seq);
    s.last_ack = seq;
    q.on_ack(&mut CcView::new(s, at), &ack_event(&info));
}

#[test]
fn the_increment_is_applied_on_every_ack_of_the_round() {
    // Δ = 0 < α with succ 1: incr = 4/10 per ACK; each of the round's ten ACKs adds it
    // (the sender keeps up: cwnd − outstanding ≤ 2 as packets leave), +4 in all.
    let (mut s, mut q) = end_of_round(10.0, 10, QuickVegasParams::default());
    for seq in 100..110 {
        ack(&mut s, &mut q, seq, ms(1000) + seq as u64);
        s.t_seqno = seq + 1 + s.window.cwnd as i64; // the sender fills the window
    }
    assert_eq!(q.last_delta(), Some(0.0));
    assert_eq!(q.incr(), 0.4);
    assert!((s.window.cwnd - 14.0).abs() < 1e-9, "{}", s.window.cwnd);
}

#[test]
fn the_increment_guard_waits_while_the_sender_lags() {
    // cwnd 20 with 10 outstanding: 20 − 10 = 10 > 2, so ns-2's guard holds the window.
    let (mut s, mut q) = end_of_round(20.0, 10, QuickVegasParams::default());
    ack(&mut s, &mut q, 100, ms(1000));
    assert_eq!(q.incr(), 0.2);
    assert_eq!(s.window.cwnd, 20.0);
    // increment_guard = false grows all the same.
    let (mut s, mut q) = end_of_round(20.0, 10, QuickVegasParams { increment_guard: false, ..QuickVegasParams::default() });
    ack(&mut s, &mut q, 100, ms(1000));
    assert_eq!(s.window.cwnd, 20.2);
}

// ---------------------------------------------------------------- loss

#[test]
fn loss_resets_succ_and_uses_the_vegas_cut_or_half() {
    let (mut s, mut q) = end_of_round(100.0, 10, QuickVegasParams::default());
    q.decide(ca(100.0), 0.0);
    q.decide(ca(100.0), 0.0);
    assert_eq!(q.succ(), 2);
    q.on_recovery_start(&mut CcView::new(&mut s, ms(1000)));
    assert_eq!((q.succ(), q.incr()), (0, 0.0));
    s.last_ack = 99;
    // Vegas: W − ⌊W/4⌋ for a packet sent once; half: W/2.
    assert_eq!(q.reduced_window(&CcView::new(&mut s, ms(1000)), 100.0), 75.0);
    let mut half = QuickVegas::new(QuickVegasParams { loss_window: LossWindow::Half, ..QuickVegasParams::default() });
    assert_eq!(half.reduced_window(&CcView::new(&mut s, ms(1000)), 100.0), 50.0);
    // reset_on_loss = false keeps succ; a timeout with the Vegas window leaves cwnd 2.
    let mut keep = QuickVegas::new(QuickVegasParams { reset_on_loss: false, ..QuickVegasParams::default() });
    keep.decide(ca(100.0), 0.0);
    keep.on_timeout(&mut CcView::new(&mut s, ms(1000)));
    assert_eq!(keep.succ(), 1);
    assert_eq!(s.window.cwnd, 2.0);
}

// ---------------------------------------------------------------- whole sender

fn quick_vegas_sender() -> TcpSender {
    let params = TcpParams { max_window: 1000, syn: false, initial_window: 2.0, ..TcpParams::default() };
    TcpSender::new(params, chosen::<RecoveryModel>("vegas").build(), chosen::<CcModel>("quick_vegas").build(), 0.0)
}

/// ACKs every outstanding packet, each `rtt` after it was sent, in order; returns how
/// many ACKs the round had.
fn round(s: &mut TcpSender, rtt: SimTime) -> usize {
    let (first, last) = (s.state.last_ack + 1, s.state.maxseq);
    let times = s.state.send_times.as_ref().expect("keeps send times");
    let acks: Vec<(i64, SimTime)> = (first..=last).map(|q| (q, times.get(q).expect("outstanding") + rtt)).collect();
    for &(seq, at) in &acks {
        s.on_ack(&AckInfo::cumulative(seq), at);
        s.state.outbox.clear();
    }
    acks.len()
}

#[test]
fn packet_level_slow_start_grows_by_half_the_acks_every_round() {
    // Without queueing (every ACK 100 ms after its packet) Δ = 0 each round, so every
    // round adds 1/2 per ACK. ns-2 Vegas' delay_growth_ (recovery "vegas") replaces the
    // first ACK's increment by the initial window on the second ACK: round 1 ends at 2.5
    // (2 ACKs: 2.5, reset to 2, 2.5). A round has as many ACKs as packets left in the
    // round before: the previous round's ACKs plus the integers its window crossed
    // (2.5 → 3.5 crosses 3: 2 + 1 = 3 ACKs; 3.5 → 5: 3 + 2 = 5; 5 → 7.5: 7; 7.5 → 11: 11):
    // windows 2, 2.5, 3.5, 5, 7.5, 11, 16.5, each +ACKs/2 (Table 1's fluid 2, 3, 4.5, 6.75
    // keeps the fractions of a packet that a packet-level sender cannot send).
    let mut s = quick_vegas_sender();
    s.start(0);
    s.state.outbox.clear();
    let mut windows = vec![s.state.window.cwnd];
    let mut acks = Vec::new();
    for _ in 0..6 {
        acks.push(round(&mut s, ms(100)));
        windows.push(s.state.window.cwnd);
    }
    assert_eq!(windows, [2.0, 2.5, 3.5, 5.0, 7.5, 11.0, 16.5]);
    assert_eq!(acks, [2, 2, 3, 5, 7, 11]);
    for k in 2..windows.len() {
        assert_eq!(windows[k] - windows[k - 1], acks[k - 1] as f64 / 2.0, "round {k}: windows {windows:?}, ACKs {acks:?}");
    }
    assert!(s.state.window.ssthresh > 100.0, "still in slow start");
}
