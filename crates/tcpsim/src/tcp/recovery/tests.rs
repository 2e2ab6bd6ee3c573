//! Scripted tests of the loss-recovery variants, driven ACK by ACK.
//!
//! Common script: no SYN, initial window 8, ssthresh 5 (so the sender is in congestion
//! avoidance), advertised window 100. The sender sends packets 0..7 at t = 0. ACK 0 sets
//! cwnd to the initial window (ns-2 delay_growth_) and releases packet 8; ACK 1 adds 1/cwnd
//! and releases 9: cwnd = 8 + 1/8 = 8.125 (W below).
//! Packet 2 is lost; later packets bring duplicate ACKs for 1.

use crate::engine::time::PS_PER_MS;
use crate::catalogue::{chosen, default_tcp_sender};
use crate::model::Value;
use crate::tcp::cc::CcModel;
use super::RecoveryModel;
use super::sack1::Sack1;
use super::LossRecovery;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::Reno;
use crate::tcp::receiver::every_packet::EveryPacket;
use crate::tcp::receiver::{AckAction, DataArrival, TcpReceiver};
use crate::tcp::sender::{CwndAction, TcpParams, TcpSender, TcpState};

/// The loss-recovery variants under test, by registry name.
#[derive(Debug, Clone, Copy)]
enum RecoveryKind {
    Tahoe,
    Reno,
    NewReno,
}

const W: f64 = 8.125;

fn ms(t: u64) -> u64 {
    t * PS_PER_MS
}

fn sender(kind: RecoveryKind) -> TcpSender {
    let name = match kind {
        RecoveryKind::Tahoe => "tahoe",
        RecoveryKind::Reno => "reno",
        RecoveryKind::NewReno => "newreno",
    };
    let params = TcpParams { syn: false, initial_window: 8.0, initial_ssthresh: Some(5.0), max_window: 100, ..TcpParams::default() };
    let mut s = TcpSender::new(params, chosen::<RecoveryModel>(name).build(), Box::new(Reno::default()), 0.0);
    s.start(0);
    assert_eq!(take(&mut s), (0..8).collect::<Vec<_>>());
    s
}

/// Packets put on the wire since the last call.
fn take(s: &mut TcpSender) -> Vec<i64> {
    std::mem::take(&mut s.state.outbox).into_iter().map(|p| p.seq).collect()
}

#[track_caller]
fn ack(s: &mut TcpSender, at_ms: u64, ack: i64, expect_sent: &[i64]) {
    s.on_ack(&AckInfo::cumulative(ack), ms(at_ms));
    assert_eq!(take(s), expect_sent, "packets sent after ACK {ack} at {at_ms} ms");
}

/// Packets 0..=1 ACKed, packet 2 lost: the state every test starts from.
fn after_two_acks(kind: RecoveryKind) -> TcpSender {
    let mut s = sender(kind);
    ack(&mut s, 100, 0, &[8]);
    ack(&mut s, 101, 1, &[9]);
    assert!((s.state.window.cwnd - W).abs() < 1e-12);
    s
}

// ---------------------------------------------------------------- limited transmit

#[test]
fn first_two_duplicates_each_send_one_new_packet() {
    // RFC 3042 / ns-2 send_one: t_seqno ≤ last_ack + cwnd + dupacks → 10 ≤ 1 + 8.125 + 1.
    let mut s = after_two_acks(RecoveryKind::Reno);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
}

#[test]
fn limited_transmit_can_be_turned_off() {
    let params = TcpParams { syn: false, initial_window: 4.0, limited_transmit: false, ..TcpParams::default() };
    let mut s = default_tcp_sender(params, 0.0);
    s.start(0);
    take(&mut s);
    ack(&mut s, 100, 1, &[4, 5, 6]); // ACKs 0 and 1 at once: cwnd 4 → 5, window reaches 6
    ack(&mut s, 101, 1, &[]);
    ack(&mut s, 102, 1, &[]);
}

// ---------------------------------------------------------------- Tahoe

#[test]
fn tahoe_third_duplicate_halves_ssthresh_and_restarts_from_one_packet() {
    let mut s = after_two_acks(RecoveryKind::Tahoe);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
    // ssthresh = ⌊W/2⌋ = 4; cwnd = 1; go back to last_ack + 1 = 2.
    ack(&mut s, 104, 1, &[2]);
    assert_eq!(s.state.window.ssthresh, 4.0);
    assert_eq!(s.state.window.cwnd, 1.0);
    assert_eq!(s.state.recover, 11);
    assert_eq!(s.state.stats.fast_retransmits, 1);
    // The ACK of the retransmission (cumulative 11) opens the window in slow start: 1 → 2
    // and go-back-N resends nothing already ACKed.
    ack(&mut s, 300, 11, &[12, 13]);
    assert_eq!(s.state.window.cwnd, 2.0);
}

// ---------------------------------------------------------------- Reno

#[test]
fn reno_third_duplicate_retransmits_halves_and_inflates() {
    let mut s = after_two_acks(RecoveryKind::Reno);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
    ack(&mut s, 104, 1, &[2]);
    let half = W / 2.0; // ns-2 precisionReduce_: cwnd = W/2 real, ssthresh = ⌊W/2⌋
    assert!((s.state.window.cwnd - half).abs() < 1e-12);
    assert_eq!(s.state.window.ssthresh, 4.0);
    assert_eq!(s.state.dupwnd, 3);
    assert_eq!(s.state.last_cwnd_action, CwndAction::Dupack);
    // Window = ⌊4.12⌋ + inflation; new packet 12 needs 1 + 4 + inflation ≥ 12: inflation 7.
    for (i, dup) in (4..=9).enumerate() {
        let expect: &[i64] = match dup {
            7 => &[12],
            8 => &[13],
            9 => &[14],
            _ => &[],
        };
        ack(&mut s, 105 + i as u64, 1, expect);
        assert_eq!(s.state.dupwnd, dup);
    }
    // The retransmission's ACK covers everything: inflation gone, cwnd grows by 1/cwnd.
    ack(&mut s, 300, 11, &[15]);
    assert_eq!(s.state.dupwnd, 0);
    assert!((s.state.window.cwnd - (half + 1.0 / half)).abs() < 1e-12);
    assert_eq!(s.state.last_cwnd_action, CwndAction::Exited);
}

#[test]
fn reno_partial_ack_ends_recovery_and_a_second_loss_waits_for_the_timeout() {
    // Packets 2 and 5 lost. Duplicates come from 3, 4, 6..11.
    let mut s = after_two_acks(RecoveryKind::Reno);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
    ack(&mut s, 104, 1, &[2]);
    for (i, expect) in [vec![], vec![], vec![], vec![12], vec![13]].iter().enumerate() {
        ack(&mut s, 105 + i as u64, 1, expect);
    }
    // Retransmitted 2 arrives; 3, 4 were there: ACK 4 is partial, yet Reno leaves recovery.
    ack(&mut s, 300, 4, &[]);
    assert_eq!(s.state.dupwnd, 0);
    // Duplicates (from 12, 13, and a late copy) cannot fast-retransmit: ACK 4 ≤ recover 11.
    ack(&mut s, 301, 4, &[]);
    ack(&mut s, 302, 4, &[]);
    ack(&mut s, 303, 4, &[]);
    assert_eq!(s.state.stats.fast_retransmits, 1);
    // The timer expires: ssthresh = max(⌊cwnd/2⌋, 2), cwnd = 1, resend 5, back off.
    let cwnd = s.state.window.cwnd;
    s.on_timeout(ms(600));
    assert_eq!(take(&mut s), vec![5]);
    assert_eq!(s.state.window.cwnd, 1.0);
    assert_eq!(s.state.window.ssthresh, (cwnd / 2.0).floor().max(2.0));
    assert_eq!(s.state.stats.timeouts, 1);
    assert_eq!(s.state.rtt.backoff, 2);
}

// ---------------------------------------------------------------- NewReno

#[test]
fn newreno_partial_ack_retransmits_the_next_hole_and_stays_in_recovery() {
    // Packets 2 and 5 lost, as above.
    let mut s = after_two_acks(RecoveryKind::NewReno);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
    ack(&mut s, 104, 1, &[2]);
    for (i, expect) in [vec![], vec![], vec![], vec![12], vec![13]].iter().enumerate() {
        ack(&mut s, 105 + i as u64, 1, expect);
    }
    assert_eq!(s.state.dupwnd, 8);
    // Partial ACK 4 (< recover 11): acked = 3 < inflation 8 → inflation 8 − (3 − 1) = 6;
    // resend 5 at once; then window ⌊4.12⌋ + 6 = 10 allows 14 (≤ 4 + 10), burst ≤ 2.
    ack(&mut s, 300, 4, &[5, 14]);
    assert_eq!(s.state.dupwnd, 6);
    assert_eq!(s.state.last_ack, 4);
    assert_eq!(s.state.last_cwnd_action, CwndAction::Dupack);
    // Duplicates of 4 (from 12, 13, 14) keep inflating: one new packet each.
    ack(&mut s, 301, 4, &[15]);
    ack(&mut s, 302, 4, &[16]);
    ack(&mut s, 303, 4, &[17]);
    // Full ACK (≥ recover): recovery ends, cwnd keeps W/2 and grows by 1/cwnd.
    let half = W / 2.0;
    ack(&mut s, 400, 14, &[18]);
    assert_eq!(s.state.dupwnd, 0);
    assert!((s.state.window.cwnd - (half + 1.0 / half)).abs() < 1e-12);
    assert_eq!((s.state.stats.fast_retransmits, s.state.stats.timeouts, s.state.stats.retransmits), (1, 0, 2));
}

#[test]
fn newreno_partial_ack_larger_than_the_inflation_deflates_cwnd() {
    // ns-2 partialnewack: acked ≥ inflation → cwnd −= acked − inflation, inflation ← 1.
    let mut s = after_two_acks(RecoveryKind::NewReno);
    ack(&mut s, 102, 1, &[10]);
    ack(&mut s, 103, 1, &[11]);
    ack(&mut s, 104, 1, &[2]); // inflation 3, cwnd W/2
    // Partial ACK 6: acked 5 ≥ 3 → cwnd = W/2 − 2, inflation 1; resend 7.
    s.on_ack(&AckInfo::cumulative(6), ms(300));
    assert_eq!(take(&mut s)[0], 7);
    assert!((s.state.window.cwnd - (W / 2.0 - 2.0)).abs() < 1e-12);
    assert_eq!(s.state.dupwnd, 1);
}

#[test]
fn newreno_restarts_the_timer_only_on_the_first_partial_ack() {
    let mut s = after_two_acks(RecoveryKind::NewReno);
    for t in 102..=104 {
        s.on_ack(&AckInfo::cumulative(1), ms(t));
    }
    s.on_ack(&AckInfo::cumulative(3), ms(300));
    let first = s.state.rtx_deadline.expect("timer armed");
    s.on_ack(&AckInfo::cumulative(5), ms(350));
    assert_eq!(s.state.rtx_deadline, Some(first), "ns-2 newreno_changes1_: no restart on later partial ACKs");
}

// ---------------------------------------------------------------- RTO and Karn

#[test]
fn new_ack_takes_an_rtt_sample_and_rearms_the_timer() {
    let mut s = sender(RecoveryKind::NewReno);
    assert_eq!(s.state.rtx_deadline, Some(ms(3000)), "initial RTO 3 s");
    // Packet 0 timed from t = 0; ACK at 100 ms → 10 ticks → RTO 0.3 s from now.
    s.on_ack(&AckInfo::cumulative(0), ms(100));
    assert_eq!(s.state.stats.rtt_samples, 1);
    assert_eq!(s.state.rtx_deadline, Some(ms(400)));
}

#[test]
fn karn_retransmissions_are_never_timed() {
    let mut s = after_two_acks(RecoveryKind::Reno);
    for t in 102..=104 {
        s.on_ack(&AckInfo::cumulative(1), ms(t));
    }
    take(&mut s);
    assert!(!s.state.rtt_active, "fast retransmit cancels the measurement");
    // Inflate until new data (12) leaves: it, not the retransmitted 2, is timed.
    for t in 105..=108 {
        s.on_ack(&AckInfo::cumulative(1), ms(t));
    }
    assert_eq!(take(&mut s), vec![12]);
    assert!(s.state.rtt_active);
    assert_eq!(s.state.rtt_seq, 12);
}

#[test]
fn timeout_goes_back_to_the_first_unacked_packet_with_one_packet_window() {
    let mut s = sender(RecoveryKind::NewReno);
    s.on_timeout(ms(3000));
    // W = min(8, 100) → ssthresh 4, cwnd 1, resend 0, RTO doubled to 6 s.
    assert_eq!(take(&mut s), vec![0]);
    assert_eq!((s.state.window.cwnd, s.state.window.ssthresh), (1.0, 4.0));
    assert_eq!(s.state.rtx_deadline, Some(ms(3000 + 6000)));
    assert_eq!(s.state.last_cwnd_action, CwndAction::Timeout);
}

#[test]
fn syn_ack_sets_the_initial_window() {
    // ns-2 syn_ + delay_growth_: packet 0 is the SYN, cwnd 1 until its ACK, then 2.
    let mut s = default_tcp_sender(TcpParams::default(), 0.0);
    s.start(0);
    assert_eq!(take(&mut s), vec![0]);
    s.on_ack(&AckInfo::cumulative(0), ms(50));
    assert_eq!(s.state.window.cwnd, 2.0);
    assert_eq!(take(&mut s), vec![1, 2]);
}

#[test]
fn finite_transfer_stops_after_its_packets() {
    let params = TcpParams { packets: Some(3), ..TcpParams::default() };
    let mut s = default_tcp_sender(params, 0.0);
    s.start(0);
    s.on_ack(&AckInfo::cumulative(0), ms(50));
    s.on_ack(&AckInfo::cumulative(2), ms(100));
    assert_eq!(take(&mut s), vec![0, 1, 2, 3]);
    s.on_ack(&AckInfo::cumulative(3), ms(150));
    assert!(take(&mut s).is_empty());
    assert!(s.state.finished());
}

// ---------------------------------------------------------------- Sack1

/// A Sack1 sender and a SACK receiver (ns-2 `Agent/TCPSink/Sack1`, 3 blocks per ACK),
/// driven packet by packet: `deliver` hands a data packet to the receiver and its ACK to
/// the sender. Same start as the scripts above (W = 8.125 after ACKs 0 and 1).
struct SackScript {
    s: TcpState,
    sack1: Sack1,
    cc: Reno,
    sink: TcpReceiver,
}

impl SackScript {
    fn new(partial_ack: bool) -> Self {
        let params = TcpParams { syn: false, initial_window: 8.0, initial_ssthresh: Some(5.0), max_window: 100, ..TcpParams::default() };
        let mut s = TcpState::new(params, 0.0);
        s.curseq = i64::MAX;
        s.send_much(0, 0);
        let sink = TcpReceiver::new(Box::new(EveryPacket), 3);
        let mut script = SackScript { s, sack1: Sack1::new(partial_ack), cc: Reno::default(), sink };
        assert_eq!(script.sent(), (0..8).collect::<Vec<_>>());
        script.deliver(100, 0, &[8]);
        script.deliver(101, 1, &[9]);
        assert!((script.s.window.cwnd - W).abs() < 1e-12);
        script
    }

    fn sent(&mut self) -> Vec<i64> {
        std::mem::take(&mut self.s.outbox).into_iter().map(|p| p.seq).collect()
    }

    /// Packet `seq` reaches the receiver; its ACK reaches the sender at `at_ms`.
    #[track_caller]
    fn deliver(&mut self, at_ms: u64, seq: i64, expect_sent: &[i64]) -> AckInfo {
        let info = match self.sink.on_data(DataArrival { seq, ..DataArrival::default() }).1 {
            AckAction::SendNow(info) => info,
            AckAction::StartTimer(_) => unreachable!("the receiver ACKs every packet"),
        };
        self.sack1.on_ack(&mut self.s, &mut self.cc, &info, ms(at_ms));
        assert_eq!(self.sent(), expect_sent, "packets sent after the ACK of {seq} ({info:?})");
        info
    }

    #[track_caller]
    fn timeout(&mut self, at_ms: u64, expect_sent: &[i64]) {
        self.sack1.on_timeout(&mut self.s, &mut self.cc, ms(at_ms));
        assert_eq!(self.sent(), expect_sent, "packets sent after the timeout");
    }

    fn blocks(info: &AckInfo) -> Vec<(i64, i64)> {
        info.sack.as_slice().to_vec()
    }
}

/// Packets 2, 5 and 6 of the window 2..=9 are lost; 3, 4, 7 arrive. Limited transmit
/// sends 10 and 11; the third duplicate that SACKs something new (7) fast-retransmits 2.
fn sack_three_losses(partial_ack: bool) -> SackScript {
    let mut t = SackScript::new(partial_ack);
    // RFC 3042 / ns-2 send_one, as for Reno: t_seqno ≤ last_ack + cwnd + dupacks.
    let a = t.deliver(102, 3, &[10]);
    assert_eq!(SackScript::blocks(&a), vec![(3, 3)]);
    t.deliver(103, 4, &[11]);
    let a = t.deliver(104, 7, &[2]);
    assert_eq!((a.ack, SackScript::blocks(&a)), (1, vec![(7, 7), (3, 4)]));
    // pipe = maxseq − ACK − 3 = 11 − 1 − 3 = 7 (the retransmission is not counted);
    // ssthresh ⌊W/2⌋ = 4, cwnd W/2 real (precisionReduce_), recover = maxseq.
    assert!(t.sack1.in_fast_recovery());
    assert_eq!(t.sack1.pipe(), 7);
    assert_eq!((t.s.window.ssthresh, t.s.recover), (4.0, 11));
    assert!((t.s.window.cwnd - W / 2.0).abs() < 1e-12);
    assert_eq!(t.s.last_cwnd_action, CwndAction::Dupack);
    assert_eq!(t.sack1.scoreboard().sacked_count(), 3);
    t
}

#[test]
fn sack1_counts_a_duplicate_only_when_it_sacks_something_new() {
    // ns-2 CheckUpdate: a second copy of 3 brings the same block; it is not a duplicate.
    let mut t = SackScript::new(false);
    t.deliver(102, 3, &[10]);
    t.deliver(103, 3, &[]);
    assert_eq!(t.s.dupacks, 1);
    t.deliver(104, 4, &[11]);
    assert_eq!(t.s.dupacks, 2);
}

#[test]
fn sack1_repairs_three_losses_in_one_window_without_a_timeout() {
    let mut t = sack_three_losses(false);
    // Every ACK in recovery takes one from pipe; nothing leaves until pipe < ⌊cwnd⌋ = 4.
    t.deliver(105, 8, &[]);
    t.deliver(106, 9, &[]);
    t.deliver(107, 10, &[]);
    assert_eq!(t.sack1.pipe(), 4);
    // pipe 3 < 4: the next hole after 2 is 5 (3, 4 SACKed).
    let a = t.deliver(108, 11, &[5]);
    assert_eq!(SackScript::blocks(&a), vec![(7, 11), (3, 4)]);
    assert_eq!(t.sack1.pipe(), 4);
    // The retransmitted 2 arrives: partial ACK 4. pipe − 1 − 1 = 2: hole 6, then no hole
    // is left below the highest SACKed packet (11), so new data 12.
    let a = t.deliver(300, 2, &[6, 12]);
    assert_eq!((a.ack, SackScript::blocks(&a)), (4, vec![(7, 11)]));
    assert_eq!(t.sack1.pipe(), 4);
    assert_eq!(t.s.last_ack, 4);
    // The retransmitted 5: partial ACK 5, pipe 2 → two new packets.
    t.deliver(301, 5, &[13, 14]);
    // The retransmitted 6: ACK 11 ≥ recover. Recovery ends with cwnd still W/2 (no
    // growth on this ACK), recover 0; window ⌊4.06⌋ = 4 beyond 11 allows 15.
    let a = t.deliver(302, 6, &[15]);
    assert_eq!((a.ack, a.sack.len()), (11, 0));
    assert!(!t.sack1.in_fast_recovery());
    assert!((t.s.window.cwnd - W / 2.0).abs() < 1e-12);
    assert_eq!((t.s.recover, t.s.last_cwnd_action), (0, CwndAction::Exited));
    assert_eq!(t.sack1.scoreboard().sacked_count(), 0);
    let st = &t.s.stats;
    assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));
}

#[test]
fn sack1_partial_ack_rearms_the_timer_and_resets_the_back_off() {
    let mut t = sack_three_losses(false);
    for (i, seq) in [8, 9, 10, 11].into_iter().enumerate() {
        t.deliver(105 + i as u64, seq, if seq == 11 { &[5] } else { &[] });
    }
    // RTO 0.3 s (from the sample of ACK 0); say it was backed off twice.
    t.s.rtt.backoff = 4;
    t.deliver(300, 2, &[6, 12]);
    // ns-2 rearms (newtimer) before resetting t_backoff_: this deadline is still backed off.
    assert_eq!(t.s.rtx_deadline, Some(ms(300 + 1200)));
    assert_eq!(t.s.rtt.backoff, 1);
    // Every partial ACK rearms it (partial_ack off), now with back-off 1.
    t.deliver(350, 5, &[13, 14]);
    assert_eq!(t.s.rtx_deadline, Some(ms(350 + 300)));
}

#[test]
fn sack1_partial_ack_option_sends_the_next_two_unsacked_packets() {
    // ns-2 partial_ack_ true: partial_ack_action sends the next two packets that are not
    // SACKed from the partial ACK on (5 again, although the scoreboard already resent
    // it, then 6) and counts pipe + 1 instead of − 1.
    let mut t = sack_three_losses(true);
    for (i, seq) in [8, 9, 10, 11].into_iter().enumerate() {
        t.deliver(105 + i as u64, seq, if seq == 11 { &[5] } else { &[] });
    }
    t.deliver(300, 2, &[5, 6]);
    assert_eq!(t.sack1.pipe(), 4);
    let first = t.s.rtx_deadline;
    // Partial ACK 5: the next packets not SACKed after 6 are 12 and 13 (7–11 are
    // SACKed). Only the first partial ACK rearms the timer.
    t.deliver(350, 5, &[12, 13]);
    assert_eq!(t.s.rtx_deadline, first);
    // ns-2 pulls t_seqno up to the packet it sends but not past it: 13 goes again.
    assert_eq!(t.s.t_seqno, 13);
    t.deliver(400, 6, &[13, 14, 15]);
}

#[test]
fn sack1_timeout_clears_the_scoreboard_and_ignores_duplicates_until_new_data_is_acked() {
    // As above, but the fast retransmission of 2 is lost too.
    let mut t = sack_three_losses(false);
    t.deliver(105, 8, &[]);
    t.deliver(106, 9, &[]);
    // ssthresh max(⌊4.06/2⌋, 2) = 2, cwnd 1, go back to 2, recover = maxseq.
    t.timeout(1000, &[2]);
    assert!(!t.sack1.in_fast_recovery());
    assert_eq!(t.sack1.scoreboard().sacked_count(), 0);
    assert_eq!((t.s.window.cwnd, t.s.window.ssthresh, t.s.recover), (1.0, 2.0, 11));
    assert_eq!((t.s.stats.timeouts, t.s.rtt.backoff), (1, 2));
    // Late duplicates with new SACK blocks are ignored: no scoreboard, no count.
    let a = t.deliver(1010, 10, &[]);
    assert_eq!(SackScript::blocks(&a), vec![(7, 10), (3, 4)]);
    t.deliver(1011, 11, &[]);
    assert_eq!((t.s.dupacks, t.sack1.scoreboard().sacked_count()), (0, 0));
    // The timeout's 2 arrives: ACK 4, slow start to 2: the holes 5, 6 go first.
    t.deliver(1100, 2, &[5, 6]);
    // ACK 5: congestion avoidance (cwnd 2 = ssthresh) to 2.5; 7 goes again although
    // it was SACKed before the timeout (ns-2 forgets SACK information on a timeout).
    t.deliver(1200, 5, &[7]);
    assert_eq!(t.s.window.cwnd, 2.5);
}

// ---------------------------------------------------------------- Vegas (cc + recovery)
//
// Script: cc vegas (α 1, β 3, γ 1) + recovery vegas, no SYN, initial window 8, ssthresh 2
// (congestion avoidance from the start), advertised window 100. Packets 0..7 leave at
// t = 0; ACKs 0..7 arrive at 100..107 ms.
//   ACK 0: first ACK → base_rtt 0.1 s, fine-grained timeout 1.5·0.1 = 0.15 s. The round
//          (no samples: packets sent at the first-send instant give none) has rtt 0.1 s,
//          Δ = 0 < α → increment 1/8: cwnd 8.125, send 8.
//   ACK 1: previous ACK was 0 → cwnd back to the initial window 8, then + 1/8; send 9.
//   ACKs 2..7: + 1/8 each → cwnd 8.875 (V below); one new packet each (10..15).
// State: last_ack 7, snd_nxt 16; packet 8 was sent at 100 ms, 9 at 101 ms.

const V: f64 = 8.875;

fn vegas_sender() -> TcpSender {
    vegas_sender_with(true)
}

fn vegas_sender_with(resend_unsent: bool) -> TcpSender {
    let mut recovery = chosen::<RecoveryModel>("vegas");
    recovery.config.set("resend_unsent", Value::Bool(resend_unsent));
    let params = TcpParams {
        syn: false,
        initial_window: 8.0,
        initial_ssthresh: Some(2.0),
        max_window: 100,
        ..TcpParams::default()
    };
    let mut s = TcpSender::new(params, recovery.build(), chosen::<CcModel>("vegas").build(), 0.0);
    s.start(0);
    assert_eq!(take(&mut s), (0..8).collect::<Vec<_>>());
    for seq in 0..8 {
        ack(&mut s, 100 + seq as u64, seq, &[8 + seq]);
    }
    assert!((s.state.window.cwnd - V).abs() < 1e-12, "{}", s.state.window.cwnd);
    s
}

#[test]
fn vegas_third_duplicate_cuts_to_three_quarters_and_inflates_cwnd() {
    // Packet 8 lost; duplicates of 7 at 201.. ms (packet 8 out 0.101 s < 0.15 s: no
    // fine-grained retransmission). No limited transmit: nothing on the first two.
    let mut s = vegas_sender();
    ack(&mut s, 201, 7, &[]);
    ack(&mut s, 202, 7, &[]);
    // Third: W = ⌊8.875⌋ = 8 → reduced 8 − ⌊8/4⌋ = 6, cwnd = 6 + 3 duplicates = 9;
    // ssthresh untouched; resend 8; window 9 lets 16 out (16 ≤ 7 + 9).
    ack(&mut s, 203, 7, &[8, 16]);
    assert_eq!(s.state.window.cwnd, 9.0);
    assert_eq!(s.state.window.ssthresh, 2.0);
    assert_eq!(s.state.stats.fast_retransmits, 1);
    assert_eq!(s.state.rtt.backoff, 2, "ns-2 reset_rtx_timer(1) backs the timer off");
    // Each further duplicate: cwnd + 1 → one new packet.
    ack(&mut s, 204, 7, &[17]);
    assert_eq!(s.state.window.cwnd, 10.0);
    // The retransmission's ACK (all up to 15): more than three duplicates came, so cwnd
    // is deflated to 6 and ssthresh set to 2. Vegas' round (rtt 0.3 − 0.1 = 0.2 s without
    // samples, 10 packets, expected (18 − 15)/0.1 = 30, actual 10/0.2 = 50, Δ = −1)
    // sets increment 1/6 but cwnd − (18 − 15) = 3 > 2 holds it; window 6 → 18..21.
    ack(&mut s, 300, 15, &[18, 19, 20, 21]);
    assert_eq!(s.state.window.cwnd, 6.0);
    assert_eq!(s.state.last_cwnd_action, CwndAction::Exited);
}

#[test]
fn vegas_retransmits_on_the_first_duplicate_once_the_fine_grained_timer_expired() {
    // Packet 8 left at 100 ms; the timeout is 0.15 s. A duplicate at 249 ms finds it out
    // 0.149 s: nothing. At 251 ms: 0.151 s ≥ 0.15 → retransmit on the second duplicate:
    // cwnd = 6 + 2; sent once, so duplicates count as three from here (new data allowed,
    // but 16 > 7 + 8).
    let mut s = vegas_sender();
    ack(&mut s, 249, 7, &[]);
    ack(&mut s, 251, 7, &[8]);
    assert_eq!(s.state.window.cwnd, 8.0);
    assert_eq!(s.state.dupacks, 3);
    assert_eq!(s.state.stats.fast_retransmits, 1);
}

#[test]
fn vegas_first_new_ack_after_a_retransmission_checks_the_next_packet() {
    // Packets 8 and 9 lost. Third duplicate at 203 ms: resend 8, check the next
    // min(2, 16 − 7) = 2 new ACKs. The fine-grained timeout is now 0.15 × 9/8 = 0.16875 s.
    let mut s = vegas_sender();
    ack(&mut s, 201, 7, &[]);
    ack(&mut s, 202, 7, &[]);
    ack(&mut s, 203, 7, &[8, 16]);
    // The resent 8 arrives; 9 is missing: partial ACK 8 at 303 ms. Packet 9 left at
    // 101 ms: out 0.202 s ≥ 0.16875 → resent at once, before any new data.
    s.on_ack(&AckInfo::cumulative(8), ms(303));
    let sent = take(&mut s);
    assert_eq!(sent[0], 9, "{sent:?}");
    assert_eq!(s.state.stats.retransmits, 2);
    assert_eq!(s.state.stats.fast_retransmits, 1, "not a fast retransmit: no new cut");
    assert_eq!(s.state.dupacks, 3, "later duplicates inflate");
}

#[test]
fn vegas_cuts_once_for_losses_sent_before_the_last_cut() {
    // Packets 8 and 10 lost. 8 is fast-retransmitted at 203 ms: cwnd 6 + 3 = 9.
    let mut s = vegas_sender();
    ack(&mut s, 201, 7, &[]);
    ack(&mut s, 202, 7, &[]);
    ack(&mut s, 203, 7, &[8, 16]);
    // Partial ACK 9 at 260 ms. Exactly three duplicates came, so cwnd stays 6 + 3 (ns-2
    // deflates only beyond three). Vegas' round: rtt 0.26 − 0.1 = 0.16 s (no samples),
    // 9 packets, expected (17 − 9)/0.1 = 80, actual 9/0.16 = 56.25, Δ = 2.375 → 2: hold.
    // Packet 9's sample (0.159 s) moves the fine-grained timeout to about 0.185 s, so 10
    // (sent at 102 ms, out 0.158 s) is not timed out. Window 9 → 17, 18.
    ack(&mut s, 260, 9, &[17, 18]);
    assert_eq!(s.state.window.cwnd, 9.0);
    // Three duplicates of 9: the third retransmits 10, without a cut: 10 was sent at
    // 102 ms, before the cut at 203 ms answered the same congestion.
    ack(&mut s, 261, 9, &[]);
    ack(&mut s, 262, 9, &[]);
    ack(&mut s, 263, 9, &[10]);
    assert_eq!(s.state.window.cwnd, 9.0);
    assert_eq!(s.state.stats.fast_retransmits, 2);
}

#[test]
fn vegas_after_a_retransmission_an_ack_of_everything_sends_the_next_packet_twice() {
    // ns-2 quirk (resend_unsent): packet 8 fast-retransmitted at 203 ms, then the ACK of
    // everything sent (16) at 300 ms. Exactly three duplicates: no deflation, cwnd 9.
    // Vegas' round: rtt 0.2 s, 9 packets, expected (17 − 16)/0.1 = 10, actual 45,
    // Δ = int(−3.5 + 0.5) = −3: increment 1/9, held (9 − 1 > 2). The check of the next
    // packet, 17, finds it never sent: ns-2 reads its cleared slot as sent long ago, so
    // 17 leaves at once, then again as new data, with 18..25 (window 9 from 16).
    let mut s = vegas_sender_with(true);
    ack(&mut s, 201, 7, &[]);
    ack(&mut s, 202, 7, &[]);
    ack(&mut s, 203, 7, &[8, 16]);
    let mut expect = vec![17];
    expect.extend(17..=25);
    ack(&mut s, 300, 16, &expect);
    assert_eq!(s.state.stats.retransmits, 2, "8, and the second copy of 17");
    // Brakmo & Peterson's mechanism checks only packets already sent.
    let mut s = vegas_sender_with(false);
    ack(&mut s, 201, 7, &[]);
    ack(&mut s, 202, 7, &[]);
    ack(&mut s, 203, 7, &[8, 16]);
    ack(&mut s, 300, 16, &(17..=25).collect::<Vec<_>>());
}

#[test]
fn vegas_timeout_halves_ssthresh_and_restarts_from_two_packets() {
    // W = min(8.875, 100): ssthresh ⌊4.4375⌋ = 4, cwnd 1 then Vegas' 2; go back to 8.
    let mut s = vegas_sender();
    s.on_timeout(ms(1000));
    assert_eq!(take(&mut s), vec![8, 9]);
    assert_eq!((s.state.window.cwnd, s.state.window.ssthresh), (2.0, 4.0));
    assert_eq!(s.state.stats.timeouts, 1);
    assert_eq!(s.state.rtt.backoff, 2);
    // Until recover (15) is passed, duplicates start no fast retransmit (ns-2 bug_fix_).
    for t in 1101..=1105 {
        s.on_ack(&AckInfo::cumulative(7), ms(t));
    }
    assert_eq!(s.state.stats.fast_retransmits, 0);
}

#[test]
fn vegas_is_the_default_recovery_of_a_vegas_flow() {
    let recovery_of = |cc: &str| crate::catalogue::default_recovery(chosen::<CcModel>(cc).config.spec).spec.name;
    assert_eq!(recovery_of("vegas"), "vegas");
    assert_eq!(recovery_of("reno"), "newreno");
}

// ---------------------------------------------------------------- RTT samples

#[test]
fn every_ack_samples_take_the_timestamp_echo_of_each_ack_of_new_data() {
    // rtt_samples = "every_ack": each ACK of new data feeds the estimator (RFC 7323 §4);
    // "one_per_rtt" times one packet at a time (ns-2, Karn).
    use crate::tcp::params::RttSamples;
    let run = |samples: RttSamples| {
        let params = TcpParams { syn: false, initial_window: 4.0, rtt_samples: samples, ..TcpParams::default() };
        let mut s = default_tcp_sender(params, 0.0);
        s.start(ms(1));
        take(&mut s);
        for (i, seq) in (0..4).enumerate() {
            let info = AckInfo { ts_echo: ms(1), ..AckInfo::cumulative(seq) };
            s.on_ack(&info, ms(101 + 10 * i as u64));
        }
        s.state.stats.rtt_samples
    };
    assert_eq!(run(RttSamples::EveryAck), 4);
    assert_eq!(run(RttSamples::OnePerRtt), 1, "packet 0 timed; 4 (sent on ACK 0) not yet ACKed");
}

#[test]
fn linux_rto_rule_gives_srtt_plus_min_rto_for_a_short_rtt() {
    use crate::tcp::params::RtoRule;
    let params = TcpParams { syn: false, initial_window: 1.0, rto_rule: RtoRule::Linux, clock_granularity: ms(1), ..TcpParams::default() };
    let mut s = default_tcp_sender(params, 0.0);
    s.start(0);
    take(&mut s);
    s.on_ack(&AckInfo::cumulative(0), ms(30));
    // 30 ms sample: RTO = 30 + max(2·30, 200) ms = 230 ms (ns-2's rule: max(30 + 4·15, 200) = 200 ms).
    assert!((s.state.rtt.timeout() - 0.23).abs() < 1e-12, "{}", s.state.rtt.timeout());
}
