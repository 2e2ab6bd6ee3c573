//! The application's `stop` (ns-2 FTP `stop` = `$agent advance 0`): ns-2.35 sets
//! `curseq_` to `maxseq_` (tcp.cc, `TcpAgent::command` "advance"), so packets below the
//! highest one sent can still be resent (also by a go-back-N after a timeout), and
//! `send_much` never sends `maxseq` again.
//!
//! Script: no SYN, initial window 4, advertised window 100; packets 0..3 leave at t = 0.

use tcpsim::catalogue::{chosen, default_tcp_sender};
use tcpsim::tcp::recovery::RecoveryModel;
use tcpsim::tcp::{AckInfo, TcpParams, TcpSender};

/// Loss-recovery variants by catalogue name.
#[derive(Debug, Clone, Copy)]
enum RecoveryKind {
    Tahoe,
    Reno,
    NewReno,
}

impl RecoveryKind {
    fn build(self) -> Box<dyn tcpsim::tcp::recovery::LossRecovery> {
        let name = match self {
            RecoveryKind::Tahoe => "tahoe",
            RecoveryKind::Reno => "reno",
            RecoveryKind::NewReno => "newreno",
        };
        chosen::<RecoveryModel>(name).build()
    }
}

const MS: u64 = 1_000_000_000;

fn sender(recovery: RecoveryKind) -> TcpSender {
    let params = TcpParams { syn: false, initial_window: 4.0, max_window: 100, ..TcpParams::default() };
    let mut s = TcpSender::new(params, recovery.build(), Box::new(tcpsim::tcp::cc::Reno::default()), 0.0);
    s.start(0);
    assert_eq!(sent(&mut s), vec![0, 1, 2, 3]);
    s
}

fn sent(s: &mut TcpSender) -> Vec<i64> {
    std::mem::take(&mut s.state.outbox).into_iter().map(|p| p.seq).collect()
}

#[track_caller]
fn ack(s: &mut TcpSender, at_ms: u64, ack: i64, expect: &[i64]) {
    s.on_ack(&AckInfo::cumulative(ack), at_ms * MS);
    assert_eq!(sent(s), expect, "packets sent after ACK {ack}");
}

/// Packets 0..=6 sent, 0 and 1 ACKed, 2..=6 lost, then the timer expires: the sender is
/// going back to packet 2 with cwnd 1.
fn in_go_back_n(recovery: RecoveryKind) -> TcpSender {
    let mut s = sender(recovery);
    ack(&mut s, 50, 0, &[4]); // ns-2 delay_growth_: cwnd ← initial window 4
    ack(&mut s, 51, 1, &[5, 6]); // slow start: cwnd 5
    s.on_timeout(3000 * MS);
    assert_eq!(sent(&mut s), vec![2]);
    assert_eq!((s.state.last_ack, s.state.t_seqno, s.state.maxseq), (1, 3, 6));
    s
}

#[test]
fn stop_in_go_back_n_still_resends_all_but_the_highest_packet() {
    for recovery in [RecoveryKind::Tahoe, RecoveryKind::Reno, RecoveryKind::NewReno] {
        let mut s = in_go_back_n(recovery);
        s.stop();
        assert_eq!(s.state.curseq, 6, "{recovery:?}: curseq ← maxseq");
        ack(&mut s, 3100, 2, &[3, 4]); // cwnd 2
        ack(&mut s, 3200, 4, &[5]); // cwnd 3 would allow 5..=7, but 6 is not < curseq
        ack(&mut s, 3300, 5, &[]);
        assert_eq!(s.state.maxseq, 6);
    }
}

#[test]
fn the_highest_packet_is_not_resent_after_a_timeout() {
    // Packet 6 (maxseq) lost after the stop: the timer keeps expiring, nothing is sent.
    let mut s = in_go_back_n(RecoveryKind::NewReno);
    s.stop();
    ack(&mut s, 3100, 2, &[3, 4]);
    ack(&mut s, 3200, 5, &[]);
    s.on_timeout(4000 * MS);
    assert!(sent(&mut s).is_empty());
    assert_eq!(s.state.stats.timeouts, 2);
}

#[test]
fn stop_with_a_full_window_in_flight_sends_no_new_data() {
    let mut s = sender(RecoveryKind::Reno);
    ack(&mut s, 50, 0, &[4]);
    s.stop();
    assert_eq!(s.state.curseq, 4);
    ack(&mut s, 60, 1, &[]);
    ack(&mut s, 70, 3, &[]);
    ack(&mut s, 80, 4, &[]);
    assert_eq!(s.state.maxseq, 4);
}

#[test]
fn stop_before_start_is_undone_by_start() {
    // ns-2: `advance 0` with maxseq_ = -1 sets curseq_ to 0; FTP `start` then sets it to
    // the infinite backlog again.
    let params = TcpParams { syn: false, ..TcpParams::default() };
    let mut s = default_tcp_sender(params, 0.0);
    s.stop();
    assert_eq!(s.state.curseq, 0);
    s.start(0);
    assert_eq!(sent(&mut s), vec![0, 1]);
}
