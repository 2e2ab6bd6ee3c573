//! Scripted tests of the ECN sender, driven ACK by ACK (rules of `ecn/mod.rs`).
//!
//! Common script, as in `recovery/tests.rs`: no SYN, initial window 8, ssthresh 5,
//! advertised window 100, `ecn = true`. Packets 0..7 leave at t = 0; packet 0 is the ECN
//! offer. ACK 0 answers it with ECE (not a congestion signal) and sets cwnd to the initial
//! window; ACK 1 adds 1/8 (congestion avoidance): cwnd W = 8.125, packets 0..9 sent.

use crate::engine::time::{self, PS_PER_MS};
use crate::catalogue::{chosen, default_tcp_sender};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::{AckEvent, CcView, CongestionControl};
use crate::tcp::sender::{CwndAction, Outgoing, TcpParams, TcpSender, TcpState};

const W: f64 = 8.125;
/// ECN response to W: cwnd W/2 (real, ns-2 precisionReduce_), ssthresh ⌊W/2⌋.
const HALF: f64 = W / 2.0;

fn ms(t: u64) -> u64 {
    t * PS_PER_MS
}

fn params() -> TcpParams {
    TcpParams {
        syn: false,
        initial_window: 8.0,
        initial_ssthresh: Some(5.0),
        max_window: 100,
        ecn: true,
        ..TcpParams::default()
    }
}

/// Packets put on the wire since the last call.
fn take(s: &mut TcpSender) -> Vec<Outgoing> {
    std::mem::take(&mut s.state.outbox)
}

fn seqs(out: &[Outgoing]) -> Vec<i64> {
    out.iter().map(|p| p.seq).collect()
}

/// An ACK, with or without ECN echo; returns the packets it released.
#[track_caller]
fn ack(s: &mut TcpSender, at_ms: u64, ack: i64, ece: bool) -> Vec<Outgoing> {
    s.on_ack(&AckInfo { ece, ..AckInfo::cumulative(ack) }, ms(at_ms));
    take(s)
}

/// The common script up to ACK 1, with `params`.
/// A sender with `params`, the Reno window and the loss recovery called `recovery`.
fn sender(params: TcpParams, recovery: &str) -> TcpSender {
    TcpSender::new(params, chosen::<RecoveryModel>(recovery).build(), Box::new(crate::tcp::cc::Reno::default()), 0.0)
}

fn after_two_acks_with(params: TcpParams, recovery: &str) -> TcpSender {
    let mut s = sender(params, recovery);
    s.start(0);
    assert_eq!(seqs(&take(&mut s)), (0..8).collect::<Vec<_>>());
    assert_eq!(seqs(&ack(&mut s, 100, 0, true)), [8]);
    assert_eq!(seqs(&ack(&mut s, 101, 1, false)), [9]);
    assert!((s.state.window.cwnd - W).abs() < 1e-12);
    s
}

fn after_two_acks(recovery: &str) -> TcpSender {
    after_two_acks_with(params(), recovery)
}

#[track_caller]
fn assert_window(s: &TcpSender, cwnd: f64, ssthresh: f64) {
    assert!((s.state.window.cwnd - cwnd).abs() < 1e-12, "cwnd {} ≠ {cwnd}", s.state.window.cwnd);
    assert_eq!(s.state.window.ssthresh, ssthresh);
}

// ---------------------------------------------------------------- packets and the offer

#[test]
fn packet_zero_offers_ecn_and_data_packets_are_ect() {
    let mut s = default_tcp_sender(params(), 0.0);
    s.start(0);
    let out = take(&mut s);
    // ns-2 output(): seqno 0 gets ecnecho = 1, ect = 0; every other data packet ect = 1.
    assert!(out[0].ece && !out[0].ect);
    assert!(out[1..].iter().all(|p| p.ect && !p.ece && !p.cwr));
}

#[test]
fn the_answer_to_the_offer_is_not_a_congestion_signal() {
    let s = after_two_acks("newreno");
    assert!(s.state.ecn_peer);
    assert_eq!(s.state.stats.ecn_reductions, 0);
    assert_eq!(s.state.last_cwnd_action, CwndAction::None);
}

#[test]
fn after_a_syn_timeout_the_answer_to_the_offer_is_responded_to() {
    // ns-2 ecn(): "seqno > recover_ || last_cwnd_action_ == CWND_ACTION_TIMEOUT". After the
    // SYN timed out the answer's ECE halves the one-packet window: ssthresh 2.
    let mut s = default_tcp_sender(TcpParams { syn: true, ..params() }, 0.0);
    s.start(0);
    take(&mut s);
    s.on_timeout(ms(3000));
    assert_eq!(seqs(&take(&mut s)), [0]);
    ack(&mut s, 3100, 0, true);
    assert_eq!(s.state.stats.ecn_reductions, 1);
    assert_eq!(s.state.window.ssthresh, 2.0);
    assert!(s.state.ecn_peer);
}

#[test]
fn a_sender_without_ecn_ignores_ecn_echo() {
    let mut s = default_tcp_sender(TcpParams { ecn: false, ..params() }, 0.0);
    s.start(0);
    assert!(take(&mut s).iter().all(|p| !p.ect && !p.ece));
    ack(&mut s, 100, 0, false);
    ack(&mut s, 101, 1, true);
    assert_window(&s, W, 5.0);
    assert_eq!(s.state.stats.ecn_reductions, 0);
}

// ---------------------------------------------------------------- the response

#[test]
fn ece_halves_cwnd_and_ssthresh_once_per_window() {
    let mut s = after_two_acks("newreno");
    // ACK 2 echoes a mark: recover ← maxseq 9, ssthresh ⌊8.125/2⌋ = 4, cwnd 4.0625; the
    // ACK does not open the window, and ⌊4.0625⌋ = 4 allows packets up to 6: none new.
    assert!(ack(&mut s, 102, 2, true).is_empty());
    assert_window(&s, HALF, 4.0);
    assert_eq!((s.state.recover, s.state.last_cwnd_action), (9, CwndAction::Ecn));
    assert_eq!(s.state.stats.ecn_reductions, 1);
    // The receiver echoes until it sees CWR: ACKs 3..5 of packets sent before the
    // response change nothing (3 ≤ recover), and an ECE ACK never opens the window.
    for a in 3..=5 {
        assert!(ack(&mut s, 100 + a as u64, a, true).is_empty());
        assert_window(&s, HALF, 4.0);
    }
    assert_eq!(s.state.stats.ecn_reductions, 1);
    // Window 4 beyond ACK 6 releases packet 10, the first after the response: CWR.
    let out = ack(&mut s, 106, 6, true);
    assert_eq!(seqs(&out), [10]);
    assert!(out[0].cwr && out[0].ect);
    let out = ack(&mut s, 107, 7, true);
    assert_eq!(seqs(&out), [11]);
    assert!(!out[0].cwr, "CWR goes on one packet only");
    ack(&mut s, 108, 8, true);
    ack(&mut s, 109, 9, true);
    assert_eq!(s.state.stats.ecn_reductions, 1);
    // ACK 10 (packet 10 carried CWR, so no echo) opens the window: 4.0625 + 1/4.0625.
    ack(&mut s, 110, 10, false);
    assert_window(&s, HALF + 1.0 / HALF, 4.0);
    // A mark on packet 11, sent after the response: ACK 11 > recover 9, a new response.
    let before = s.state.window.cwnd;
    ack(&mut s, 111, 11, true);
    assert_window(&s, before / 2.0, (before / 2.0).floor());
    assert_eq!(s.state.stats.ecn_reductions, 2);
}

#[test]
fn without_once_per_window_every_echo_halves_again() {
    let params = TcpParams { ecn_once_per_window: false, ..params() };
    let mut s = after_two_acks_with(params, "newreno");
    // ACK 2 responds as with the rule: cwnd W/2, ssthresh ⌊W/2⌋ = 4, recover ← 9.
    assert!(ack(&mut s, 102, 2, true).is_empty());
    assert_window(&s, HALF, 4.0);
    // ACKs 3, 4, 5 acknowledge packets sent before that response (≤ recover 9), which
    // the rule would ignore: each halves again, ssthresh down to its floor of 2, cwnd
    // below 1 (the sender then waits for the timer).
    for (a, cwnd, ssthresh) in [(3, HALF / 2.0, 2.0), (4, HALF / 4.0, 2.0), (5, HALF / 8.0, 2.0)] {
        assert!(ack(&mut s, 100 + a as u64, a, true).is_empty());
        assert_window(&s, cwnd, ssthresh);
    }
    assert_eq!(s.state.stats.ecn_reductions, 4);
    assert_eq!((s.state.recover, s.state.last_cwnd_action), (9, CwndAction::Ecn));
    // An ACK without ECE responds to nothing.
    ack(&mut s, 106, 6, false);
    assert_eq!(s.state.stats.ecn_reductions, 4);
}

#[test]
fn the_response_tells_the_congestion_control_after_reducing() {
    struct Counting {
        echoes: u32,
        cwnd_seen: f64,
    }
    impl CongestionControl for Counting {
        fn name(&self) -> &'static str {
            "counting"
        }
        fn on_ack(&mut self, _view: &mut CcView, _ack: &AckEvent) {}
        fn reduced_window(&mut self, _view: &CcView, flight_window: f64) -> f64 {
            flight_window / 2.0
        }
        fn on_ecn_echo(&mut self, view: &mut CcView) {
            self.echoes += 1;
            self.cwnd_seen = view.cwnd();
        }
    }
    let mut s = TcpState::new(params(), 0.0);
    s.window.cwnd = 10.0;
    s.maxseq = 20;
    s.last_ack = 5;
    s.ecn_peer = true;
    let mut cc = Counting { echoes: 0, cwnd_seen: 0.0 };
    s.respond_to_ecn_echo(&mut cc, 6, 0);
    s.respond_to_ecn_echo(&mut cc, 7, 0); // same window: ignored
    assert_eq!((cc.echoes, cc.cwnd_seen), (1, 5.0));
}

// ---------------------------------------------------------------- ECN and loss in one window

#[test]
fn ecn_then_three_duplicates_retransmit_without_halving_again() {
    // ns-2 RenoTcpAgent/NewRenoTcpAgent::dupack_action: "ECN reduced the window already".
    for recovery in ["reno", "newreno"] {
        let mut s = after_two_acks(recovery);
        ack(&mut s, 102, 2, true); // response: cwnd 4.0625, ssthresh 4, recover 9
        // Packet 3 lost; 4, 5, 6 bring duplicates of 2, still echoing. Limited transmit
        // needs 10 ≤ 2 + 4.0625 + dupacks: nothing new.
        assert!(ack(&mut s, 103, 2, true).is_empty());
        assert!(ack(&mut s, 104, 2, true).is_empty());
        let out = ack(&mut s, 105, 2, true);
        assert_eq!(seqs(&out), [3], "{recovery}");
        assert!(out[0].cwr && out[0].ect, "ns-2 defaults: CWR and ECT on the retransmission");
        assert_window(&s, HALF, 4.0);
        assert_eq!(s.state.recover, 9);
        assert_eq!(s.state.dupwnd, 3);
        assert_eq!(s.state.last_cwnd_action, CwndAction::Dupack);
        assert_eq!((s.state.stats.fast_retransmits, s.state.stats.ecn_reductions), (1, 1));
    }
}

#[test]
fn an_echo_on_a_duplicate_ack_responds_and_the_fast_retransmit_then_keeps_the_window() {
    // ns-2 recv() calls ecn() for every ACK with ECE, duplicates included. Packet 2 lost,
    // packet 3 marked: the first duplicate of 1 carries the echo.
    let mut s = after_two_acks("newreno");
    assert!(ack(&mut s, 102, 1, true).is_empty());
    assert_window(&s, HALF, 4.0);
    assert_eq!(s.state.stats.ecn_reductions, 1);
    ack(&mut s, 103, 1, true);
    assert_eq!(seqs(&ack(&mut s, 104, 1, true)), [2]);
    assert_window(&s, HALF, 4.0);
    assert_eq!(s.state.stats.fast_retransmits, 1);
}

#[test]
fn tahoe_after_ecn_restarts_from_one_packet_and_keeps_ssthresh() {
    // ns-2 TcpAgent::dupack_action, ECN case: slowdown(CLOSE_CWND_ONE), go back N.
    let mut s = after_two_acks("tahoe");
    ack(&mut s, 102, 2, true);
    ack(&mut s, 103, 2, true);
    ack(&mut s, 104, 2, true);
    let out = ack(&mut s, 105, 2, true);
    assert_eq!(seqs(&out), [3]);
    assert!(out[0].cwr);
    assert_window(&s, 1.0, 4.0);
    assert_eq!(s.state.stats.fast_retransmits, 1);
}

#[test]
fn three_duplicates_after_the_window_of_the_response_halve_as_usual() {
    let mut s = after_two_acks("newreno");
    ack(&mut s, 102, 2, true); // recover 9
    for a in 3..=10 {
        ack(&mut s, 100 + a as u64, a, false);
    }
    // ACK 10 > recover: a loss of 11 is a new congestion event and halves again.
    let cwnd = s.state.window.cwnd;
    for t in 0..3 {
        ack(&mut s, 120 + t, 10, false);
    }
    assert_window(&s, cwnd / 2.0, (cwnd / 2.0).floor().max(2.0));
    assert_eq!(s.state.stats.fast_retransmits, 1);
}

#[test]
fn a_timeout_after_an_ecn_response_keeps_ssthresh() {
    // ns-2 timeout(): highest_ack < recover and last action ECN → slowdown(CLOSE_CWND_ONE).
    let mut s = after_two_acks("newreno");
    ack(&mut s, 102, 2, true);
    s.on_timeout(ms(1000));
    let out = take(&mut s);
    assert_eq!(seqs(&out), [3], "go back to the first unacknowledged packet");
    assert!(out[0].cwr);
    assert_window(&s, 1.0, 4.0); // a plain timeout would set ssthresh ⌊4.0625/2⌋ = 2
    assert_eq!((s.state.stats.timeouts, s.state.rtt.backoff), (1, 2));
    assert_eq!(s.state.last_cwnd_action, CwndAction::Timeout);
}

// ---------------------------------------------------------------- cwnd of one packet

#[test]
fn an_echo_at_one_packet_waits_for_the_timer_and_a_second_backs_it_off() {
    // RFC 3168 §6.1.2; ns-2 ecn() with ecn_backoff_, newtimer() with cwnd < 1.
    let mut s = default_tcp_sender(TcpParams { initial_window: 1.0, ..params() }, 0.0);
    s.start(0);
    assert_eq!(seqs(&take(&mut s)), [0]);
    assert_eq!(seqs(&ack(&mut s, 100, 0, true)), [1]); // the answer; cwnd = initial window 1
    // Packet 1 marked: cwnd 1 → 0.5, ssthresh 2; nothing may be sent, the timer runs.
    assert!(ack(&mut s, 200, 1, true).is_empty());
    assert_window(&s, 0.5, 2.0);
    assert!(s.state.ecn_backoff);
    assert_eq!(s.state.rtt.backoff, 1, "the first echo at one packet does not back off");
    let deadline = s.state.rtx_deadline.expect("timer armed while cwnd < 1");
    // The timer expires with nothing outstanding: cwnd 1, packet 2 with CWR, no back-off.
    s.on_timeout(deadline);
    let out = take(&mut s);
    assert_eq!(seqs(&out), [2]);
    assert!(out[0].cwr && out[0].ect);
    assert_eq!((s.state.stats.timeouts, s.state.rtt.backoff), (0, 1));
    // Packet 2 marked too: the second echo at one packet doubles the timeout, and the
    // echoing ACK does not end the back-off.
    let at = deadline + ms(100);
    assert!(ack(&mut s, at / PS_PER_MS, 2, true).is_empty());
    assert_eq!(s.state.rtt.backoff, 2);
    assert_eq!(s.state.rtx_deadline, Some(at + time::from_secs(s.state.rtt.timeout())));
    assert_eq!(s.state.stats.ecn_reductions, 2);
    // The next packet's ACK comes back without echo: the back-off ends.
    let deadline = s.state.rtx_deadline.unwrap();
    s.on_timeout(deadline);
    assert_eq!(seqs(&take(&mut s)), [3]);
    ack(&mut s, deadline / PS_PER_MS + 100, 3, false);
    assert_eq!(s.state.rtt.backoff, 1);
    assert!(!s.state.ecn_backoff);
}

// ---------------------------------------------------------------- retransmissions: ns-2 vs RFC 3168

#[test]
fn rfc3168_options_keep_ect_and_cwr_off_retransmissions() {
    let p = TcpParams { ect_on_retransmit: false, cwr_on_retransmit: false, ..params() };
    let mut s = after_two_acks_with(p, "newreno");
    ack(&mut s, 102, 2, true);
    ack(&mut s, 103, 2, true);
    ack(&mut s, 104, 2, true);
    let out = ack(&mut s, 105, 2, true);
    assert_eq!(seqs(&out), [3]);
    assert!(!out[0].ect && !out[0].cwr, "RFC 3168 §6.1.5 / §6.1.2");
    // The fourth duplicate inflates the window to ⌊4.0625⌋ + 4 = 8: packet 10, new data,
    // takes the pending CWR.
    let out = ack(&mut s, 106, 2, true);
    assert_eq!(seqs(&out), [10]);
    assert!(out[0].ect && out[0].cwr);
}
