//! Tests of the Vegas window rules, with expected values worked out from the equations in
//! the file header. Two rigs: a bare sender state at the end of a round (the per-round
//! decision in isolation), and a whole sender (cc vegas + recovery vegas) driven round by
//! round with scripted ACKs.

use super::*;
use crate::engine::time::{PS_PER_MS, PS_PER_US};
use crate::catalogue::chosen;
use crate::tcp::cc::CcModel;
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::Window;
use crate::tcp::sender::{TcpParams, TcpSender, TcpState};

const ALPHA_1_BETA_3: VegasParams = VegasParams { alpha: 1, beta: 3, gamma: 1, round_delta: true };

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

// ---------------------------------------------------------------- the round's Δ and decision

/// A sender at the end of a round that sent packets 100 .. 100 + `rtt_len` − 1 at 900 ms,
/// whose fine-grained samples averaged `rtt` seconds, with base_rtt `base`; the next ACK
/// (of packet 100) evaluates the round. With that ACK, snd_nxt − last_ack = rtt_len, so
/// expected = rtt_len/base, actual = rtt_len/rtt and Δ = rtt_len·(1 − base/rtt).
struct EndOfRound {
    s: TcpState,
    v: Vegas,
}

impl EndOfRound {
    fn new(cwnd: f64, ssthresh: f64, rtt_len: i64, base: f64, rtt: f64) -> Self {
        let mut s = TcpState::new(TcpParams { max_window: 1000, ..TcpParams::default() }, 0.0);
        s.window = Window { cwnd, ssthresh };
        s.send_times = Some(Box::default());
        s.first_sent = Some(0);
        for seq in 100..100 + rtt_len {
            s.output(seq, ms(900));
        }
        s.t_seqno = 100 + rtt_len;
        s.last_ack = 99;
        s.curseq = i64::MAX;
        let mut v = Vegas::new(ALPHA_1_BETA_3);
        v.seen_first_ack = true;
        v.round_end = 100;
        v.round_start = ms(900);
        v.base_rtt = base;
        v.rtt_sum = rtt;
        v.rtt_count = 1;
        EndOfRound { s, v }
    }

    /// The ACK of packet `seq` at `at`, as the sender delivers it to the window control;
    /// then the sender sends what the window allows.
    fn ack(&mut self, seq: i64, at: SimTime) {
        let info = AckInfo::cumulative(seq);
        let event = AckEvent { info: &info, acked_packets: seq - self.s.last_ack, duplicate: false, rtt_s: None, ack_rtt_s: None };
        self.v.on_any_ack(&mut CcView::new(&mut self.s, at), &event);
        self.s.last_ack = seq;
        self.v.on_ack(&mut CcView::new(&mut self.s, at), &event);
        self.s.send_much(at, 0);
    }
}

/// Δ of a round of 16 packets with base_rtt 0.125 s and the given mean RTT.
fn delta_of_round(rtt: f64) -> f64 {
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, rtt);
    r.ack(100, ms(1000));
    r.v.last_delta().expect("the round was evaluated")
}

#[test]
fn delta_is_extra_packets_in_the_network_rounded() {
    // Δ = 16·(1 − 0.125/rtt): no queueing → 0; rtt 0.25 → 8; 0.140625 → 1.78 → 2;
    // 0.15625 → 3.2 → 3; 0.171875 → 4.36 → 4.
    assert_eq!(delta_of_round(0.125), 0.0);
    assert_eq!(delta_of_round(0.25), 8.0);
    assert_eq!(delta_of_round(0.140625), 2.0);
    assert_eq!(delta_of_round(0.15625), 3.0);
    assert_eq!(delta_of_round(0.171875), 4.0);
}

#[test]
fn without_rounding_delta_is_compared_as_a_real_number() {
    // round_delta = false: Δ = 16·(1 − 0.125/0.140625) = 16/9 = 1.78 stays 1.78, and
    // with α = 2 (β 4) it is below α, so the window grows (rounded, Δ = 2 = α holds).
    let params = VegasParams { alpha: 2, beta: 4, gamma: 1, round_delta: false };
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.140625);
    r.v.params = params;
    r.ack(100, ms(1000));
    assert!((r.v.last_delta().unwrap() - 16.0 / 9.0).abs() < 1e-12);
    assert_eq!(r.v.increment, 0.1);
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.140625);
    r.v.params = VegasParams { round_delta: true, ..params };
    r.ack(100, ms(1000));
    assert_eq!(r.v.last_delta(), Some(2.0));
    assert_eq!(r.v.increment, 0.0);
    // 4.36 > β = 4 shrinks the window unrounded; rounded to 4 it holds.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.171875);
    r.v.params = params;
    r.ack(100, ms(1000));
    assert_eq!(r.s.window.cwnd, 9.0);
}

#[test]
fn delta_rounding_is_ns2_int_of_x_plus_a_half() {
    assert_eq!(ns2_round(2.5), 3);
    assert_eq!(ns2_round(2.49), 2);
    assert_eq!(ns2_round(0.0), 0);
    // Below zero int() truncates toward zero: −1.5 + 0.5 = −1.0 → −1; −0.7 + 0.5 → 0.
    assert_eq!(ns2_round(-1.5), -1);
    assert_eq!(ns2_round(-0.7), 0);
    assert_eq!(ns2_round(-2.6), -2);
}

#[test]
fn below_alpha_the_window_grows_one_packet_per_round() {
    // A round of 10 packets without queueing: Δ = 0 < α = 1 → increment 1/cwnd per ACK.
    // cwnd 10 with 10 outstanding (10 − 10 ≤ 2): this very ACK adds 1/10, and the ten
    // ACKs of the round one packet in all.
    let mut r = EndOfRound::new(10.0, 2.0, 10, 0.125, 0.125);
    r.ack(100, ms(1025));
    assert_eq!(r.v.increment, 0.1);
    assert!((r.s.window.cwnd - 10.1).abs() < 1e-12);
    for seq in 101..110 {
        r.ack(seq, ms(1025) + seq as u64 * PS_PER_US);
    }
    assert!((r.s.window.cwnd - 11.0).abs() < 1e-9, "{}", r.s.window.cwnd);
}

#[test]
fn between_alpha_and_beta_the_window_holds() {
    // Δ = 16·(1 − 0.125·13/(0.125·16)) = 3 = β and Δ = 1 = α: both hold (α ≤ Δ ≤ β).
    for rtt in [0.125 * 16.0 / 13.0, 0.125 * 16.0 / 15.0] {
        let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, rtt);
        r.ack(100, ms(1000));
        assert_eq!(r.s.window.cwnd, 10.0);
        assert_eq!(r.v.increment, 0.0);
    }
}

#[test]
fn above_beta_the_window_shrinks_one_packet_per_round() {
    // Δ = 4 > β = 3: cwnd − 1 once, no increment for the round.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.171875);
    r.ack(100, ms(1000));
    assert_eq!(r.s.window.cwnd, 9.0);
    r.ack(101, ms(1001));
    assert_eq!(r.s.window.cwnd, 9.0);
    // ns-2 never lets a decrease go below 2 packets.
    let mut r = EndOfRound::new(2.5, 2.0, 16, 0.125, 0.171875);
    r.ack(100, ms(1000));
    assert_eq!(r.s.window.cwnd, 2.0);
}

#[test]
fn growth_waits_while_the_sender_lags_behind_its_window() {
    // Δ = 0, cwnd 20 with 16 outstanding: 20 − 16 = 4 > 2, so the increment is set but
    // not applied (ns-2: "incr cwnd unless we havent been able to keep up with it").
    let mut r = EndOfRound::new(20.0, 2.0, 16, 0.125, 0.125);
    r.ack(100, ms(1000));
    assert_eq!(r.v.increment, 1.0 / 20.0);
    assert_eq!(r.s.window.cwnd, 20.0);
}

#[test]
fn base_rtt_is_the_smallest_round_rtt_or_any_smaller_sample() {
    // The ACK at 1025 ms samples packet 100 (sent at 900 ms): 0.125 s, no lower than base.
    // A round slower than base_rtt leaves it.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.15625);
    r.ack(100, ms(1025));
    assert_eq!(r.v.base_rtt(), 0.125);
    // A faster round replaces it.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.1);
    r.ack(100, ms(1025));
    assert_eq!(r.v.base_rtt(), 0.1);
    // With one packet in the round the round's RTT replaces it even when larger: there
    // was no queue of our own to mistake for propagation delay (ACK at 1100 ms: 0.2 s).
    let mut r = EndOfRound::new(10.0, 2.0, 1, 0.125, 0.2);
    r.ack(100, ms(1100));
    assert_eq!(r.v.base_rtt(), 0.2);
    // A single sample below base_rtt lowers it at once: the ACK at 980 ms gives 0.08 s.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.ack(100, ms(980));
    assert!((r.v.base_rtt() - 0.08).abs() < 1e-12);
}

// ---------------------------------------------------------------- fine-grained timer

#[test]
fn first_ack_seeds_base_rtt_and_a_timeout_of_one_and_a_half_rtt() {
    // ns-2 firstrecv_: the first ACK's delay since the first send (100 ms) gives
    // base_rtt; sa = 8·rtt, sd = rtt, timeout = (sa/4 + sd)/2 = 1.5·rtt.
    let mut s = TcpState::new(TcpParams::default(), 0.0);
    s.first_sent = Some(0);
    let mut v = Vegas::new(ALPHA_1_BETA_3);
    assert_eq!(v.fine_timeout(), 1000.0, "ns-2 v_timeout_ before any ACK");
    let info = AckInfo::cumulative(0);
    let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
    v.on_any_ack(&mut CcView::new(&mut s, ms(100)), &event);
    assert_eq!(v.base_rtt(), 0.1);
    assert!((v.fine_timeout() - 0.15).abs() < 1e-12);
}

#[test]
fn samples_update_the_fine_grained_timeout() {
    // From sa = 0.8, sd = 0.1 (first ACK at 0.1 s), a sample of 0.2 s:
    //   error = 0.2 − 0.8/8 = 0.1;  sa = 0.9;  sd = 0.1 + (0.1 − 0.1/4) = 0.175;
    //   timeout = (0.9/4 + 0.175)/2 = 0.2, + 1/16 → 0.2125.
    let mut v = Vegas::new(ALPHA_1_BETA_3);
    v.sa = 0.8;
    v.sd = 0.1;
    v.base_rtt = 0.1;
    v.take_sample(0.2);
    assert!((v.sa - 0.9).abs() < 1e-12);
    assert!((v.sd - 0.175).abs() < 1e-12);
    assert!((v.fine_timeout() - 0.2125).abs() < 1e-12);
    assert_eq!(v.base_rtt(), 0.1);
}

#[test]
fn a_packet_times_out_once_it_is_out_for_the_fine_grained_timeout() {
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.v.fine_timeout = 0.15;
    // Packet 100 was sent at 900 ms.
    assert!(!r.v.packet_timed_out(&CcView::new(&mut r.s, ms(1049)), 100));
    assert!(r.v.packet_timed_out(&CcView::new(&mut r.s, ms(1050)), 100));
    // Never sent: ns-2 reads a cleared slot, −1 s on a clock that starts at the first
    // send (here t = 0): at 1.049 s it has been "out" 2.049 s. Only a timeout longer than
    // the time since the first send plus 1 s keeps it in.
    assert!(r.v.packet_timed_out(&CcView::new(&mut r.s, ms(1049)), 500));
    r.v.fine_timeout = 2.1;
    assert!(!r.v.packet_timed_out(&CcView::new(&mut r.s, ms(1049)), 500));
}

#[test]
fn retransmitted_packets_and_the_first_send_instant_give_no_sample() {
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.s.output(101, ms(950)); // packet 101 sent twice
    let view = CcView::new(&mut r.s, ms(1000));
    assert_eq!(Vegas::sample(&view, 100), Some(0.1));
    assert_eq!(Vegas::sample(&view, 101), None);
    // ns-2 skips sendTime == 0, the instant of the first send.
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.s.first_sent = Some(ms(900));
    assert_eq!(Vegas::sample(&CcView::new(&mut r.s, ms(1000)), 100), None);
}

// ---------------------------------------------------------------- loss response

#[test]
fn fast_retransmit_window_is_three_quarters_or_half_if_already_retransmitted() {
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.s.last_ack = 99; // first unacknowledged: 100, sent once
    let mut v = Vegas::new(ALPHA_1_BETA_3);
    let view = CcView::new(&mut r.s, ms(1000));
    // W − ⌊W/4⌋: 10 → 8, 13.9 → 13 − 3 = 10; W ≤ 3 → 2.
    assert_eq!(v.reduced_window(&view, 10.0), 8.0);
    assert_eq!(v.reduced_window(&view, 13.9), 10.0);
    assert_eq!(v.reduced_window(&view, 3.0), 2.0);
    assert_eq!(v.reduced_window(&view, 1.0), 2.0);
    // Packet 100 sent a second time and lost again: ⌊W/2⌋.
    r.s.output(100, ms(950));
    let view = CcView::new(&mut r.s, ms(1000));
    assert_eq!(v.reduced_window(&view, 13.9), 6.0);
}

#[test]
fn fast_retransmit_backs_off_the_fine_grained_timeout() {
    let mut r = EndOfRound::new(10.0, 2.0, 16, 0.125, 0.125);
    r.v.fine_timeout = 0.16;
    r.v.on_recovery_start(&mut CcView::new(&mut r.s, ms(1000)));
    assert!((r.v.fine_timeout() - 0.18).abs() < 1e-12, "sent once: × 9/8");
    r.s.output(100, ms(1000));
    r.v.on_recovery_start(&mut CcView::new(&mut r.s, ms(1000)));
    assert!((r.v.fine_timeout() - 0.36).abs() < 1e-12, "retransmitted: × 2");
}

// ---------------------------------------------------------------- slow start, whole sender

fn vegas_sender(params: TcpParams) -> TcpSender {
    let params = TcpParams { max_window: 1000, ..params };
    TcpSender::new(params, chosen::<RecoveryModel>("vegas").build(), chosen::<CcModel>("vegas").build(), 0.0)
}

/// ACKs every outstanding packet, each `rtt` after it was sent, in order; returns the
/// packets the sender put on the wire in response.
fn round(s: &mut TcpSender, rtt: SimTime) -> Vec<i64> {
    let (first, last) = (s.state.last_ack + 1, s.state.maxseq);
    let times = s.state.send_times.as_ref().expect("vegas keeps send times");
    let acks: Vec<(i64, SimTime)> = (first..=last).map(|q| (q, times.get(q).expect("outstanding") + rtt)).collect();
    let mut sent = Vec::new();
    for (seq, at) in acks {
        s.on_ack(&AckInfo::cumulative(seq), at);
        sent.extend(s.state.outbox.drain(..).map(|p| p.seq));
    }
    sent
}

#[test]
fn slow_start_doubles_the_window_every_other_round() {
    // Reference document 001 Table 1: 2, 2, 4, 4, 8, 8, 16, 16 without queueing.
    let mut s = vegas_sender(TcpParams { syn: false, initial_window: 2.0, ..TcpParams::default() });
    s.start(0);
    let mut sizes = vec![s.state.outbox.drain(..).count()];
    for _ in 0..7 {
        sizes.push(round(&mut s, ms(100)).len());
    }
    assert_eq!(sizes, [2, 2, 4, 4, 8, 8, 16, 16]);
    assert_eq!(s.state.window.cwnd, 16.0);
    assert_eq!(s.state.window.ssthresh, 1000.0, "still in slow start");
}

#[test]
fn slow_start_ends_with_a_one_eighth_cut_when_delta_exceeds_gamma() {
    // Rounds at 100 ms until cwnd 8 (2, 2, 4, 4, 8 packets). The next round of 8 packets
    // holds, and its ACKs come back after 150 ms; the round after it grows, and its first
    // ACK evaluates them: Δ = 8·(1 − 0.1/0.15) = 2.67 → 3 > γ = 1 → leave slow start:
    // ssthresh 2, cwnd 8 − 8/8 = 7.
    let mut s = vegas_sender(TcpParams { syn: false, initial_window: 2.0, ..TcpParams::default() });
    s.start(0);
    s.state.outbox.clear();
    for _ in 0..4 {
        round(&mut s, ms(100));
    }
    assert_eq!(s.state.window.cwnd, 8.0);
    round(&mut s, ms(150));
    assert_eq!((s.state.window.cwnd, s.state.window.ssthresh), (8.0, 1000.0), "hold round");
    round(&mut s, ms(150));
    assert_eq!(s.state.window.ssthresh, 2.0);
    assert_eq!(s.state.window.cwnd, 7.0);
}

#[test]
fn with_a_syn_the_initial_window_comes_one_ack_late() {
    // ns-2 Vegas tests `last_ack_ == 0` before taking the ACK: ACK 0 (of the SYN) leaves
    // cwnd 1; ACK 1 sets the initial window 2 and, in a growth round, adds 1 → 3.
    let mut s = vegas_sender(TcpParams::default());
    s.start(0);
    assert_eq!(s.state.outbox.drain(..).map(|p| p.seq).collect::<Vec<_>>(), [0]);
    assert_eq!(round(&mut s, ms(100)), [1]);
    assert_eq!(s.state.window.cwnd, 1.0);
    assert_eq!(round(&mut s, ms(100)), [2, 3, 4]);
    assert_eq!(s.state.window.cwnd, 3.0);
}
