//! PRR driven packet by packet: a sender with `prr`, a SACK receiver that ACKs every
//! packet, and the network between them played by the test (which packets arrive, in
//! which order).

use super::{Bound, Prr};
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::Reno;
use crate::tcp::receiver::every_packet::EveryPacket;
use crate::tcp::receiver::{AckAction, DataArrival, TcpReceiver};
use crate::tcp::sender::{TcpParams, TcpSender};

struct Path {
    sender: TcpSender,
    receiver: TcpReceiver,
    now: u64,
}

impl Path {
    /// Packets 0..window sent at t = 0 (no SYN, Reno window, ssthresh far above).
    fn new(window: f64, bound: Bound) -> Path {
        Path::with(window, Prr::new(bound), None)
    }

    /// The same with this recovery and, if `packets`, a transfer of that many packets.
    fn with(window: f64, prr: Prr, packets: Option<u64>) -> Path {
        let params = TcpParams { syn: false, initial_window: window, initial_ssthresh: Some(1000.0), max_window: 1000, packets, ..TcpParams::default() };
        let mut sender = TcpSender::new(params, Box::new(prr), Box::new(Reno::default()), 0.0);
        sender.start(0);
        let receiver = TcpReceiver::new(Box::new(EveryPacket), 3);
        let mut path = Path { sender, receiver, now: 0 };
        assert_eq!(path.take(), (0..window as i64).collect::<Vec<_>>());
        path
    }

    fn take(&mut self) -> Vec<i64> {
        std::mem::take(&mut self.sender.state.outbox).into_iter().map(|p| p.seq).collect()
    }

    /// Packet `seq` reaches the receiver; its ACK reaches the sender 1 ms later. Returns
    /// the packets the sender sent on it.
    fn deliver(&mut self, seq: i64) -> Vec<i64> {
        self.now += 1_000_000_000;
        let ack: AckInfo = match self.receiver.on_data(DataArrival { seq, sent_at: 0, ..DataArrival::default() }).1 {
            AckAction::SendNow(a) => a,
            AckAction::StartTimer(_) => unreachable!("every packet is ACKed"),
        };
        self.sender.on_ack(&ack, self.now);
        self.take()
    }

    fn cwnd(&self) -> f64 {
        self.sender.state.window.cwnd
    }
}

// ------------------------------------------------------------ one loss (RFC 6937 §3)
//
// 20 packets in flight (1..=20 after ACK 0 released 20), packet 1 lost, Reno's halving:
// ssthresh = 10. SACKs of 2 and 3 each release one new packet (pipe 19 < cwnd 20:
// limited transmit), so RecoverFS = 22 − 0 = 22. The SACK of 4 makes 1 lost (3 SACKed
// above it) and starts recovery. While pipe > ssthresh, the packets sent after k
// deliveries are ⌈10·k/22⌉: 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 6, 6, 7, 7 (k = 1..15), so one
// packet leaves on every other ACK (twice a gap of two). At the 16th delivery pipe is 10
// = ssthresh and the bound takes over: one packet per ACK (ssthresh − pipe = 1).

#[test]
fn one_loss_sends_on_every_other_ack_and_ends_at_ssthresh() {
    let mut p = Path::new(20.0, Bound::SlowStart);
    assert_eq!(p.deliver(0), vec![20]);
    assert_eq!(p.deliver(2), vec![21], "limited transmit: pipe 19 < cwnd 20");
    assert_eq!(p.deliver(3), vec![22]);
    let mut sent = Vec::new();
    for seq in 4..=22 {
        sent.push(p.deliver(seq));
    }
    let expected: Vec<Vec<i64>> = vec![
        vec![1], // k = 1: ⌈10/22⌉ = 1, the fast retransmit; cwnd = pipe 18 + 1
        vec![],
        vec![23], // k = 3: ⌈30/22⌉ = 2
        vec![],
        vec![24], // k = 5: 3
        vec![],
        vec![25], // k = 7: 4
        vec![],
        vec![26], // k = 9: 5
        vec![],
        vec![],
        vec![27], // k = 12: 6
        vec![],
        vec![28], // k = 14: 7
        vec![],
        vec![], // k = 16: pipe = 28 outstanding − 18 SACKed − 1 lost + 1 resent = 10
        vec![29], // pipe 9: ssthresh − pipe = 1
        vec![30],
        vec![31],
    ];
    assert_eq!(sent, expected);
    assert_eq!(p.sender.state.window.ssthresh, 10.0);
    assert_eq!(p.cwnd(), 10.0, "pipe + sndcnt at the last ACK in recovery");
    // The retransmission arrives: cumulative ACK 22 = recover, recovery ends with
    // cwnd = ssthresh and 10 packets (23..=32) in flight.
    assert_eq!(p.deliver(1), vec![32]);
    assert_eq!(p.cwnd(), 10.0);
    assert_eq!(p.sender.state.stats.fast_retransmits, 1);
    assert_eq!(p.sender.state.stats.timeouts, 0);
}

#[test]
fn cwnd_falls_gradually_instead_of_halving_at_once() {
    // Compared with Reno's cut to W/2 on the third duplicate ACK, PRR's cwnd after the
    // entering ACK is pipe + 1 = 19 and falls by about one packet every other ACK.
    let mut p = Path::new(20.0, Bound::SlowStart);
    p.deliver(0);
    p.deliver(2);
    p.deliver(3);
    p.deliver(4);
    assert_eq!(p.cwnd(), 19.0);
    p.deliver(5);
    assert_eq!(p.cwnd(), 18.0);
}

/// A window control that holds cwnd at 20 packets and says it sets the window in
/// recovery itself (as BBR does, Linux's `cong_control` modules).
struct HoldsTwenty;

impl crate::tcp::cc::CongestionControl for HoldsTwenty {
    fn name(&self) -> &'static str {
        "holds_twenty"
    }
    fn on_ack(&mut self, view: &mut crate::tcp::cc::CcView, _ack: &crate::tcp::cc::AckEvent) {
        view.set_cwnd(20.0);
    }
    fn reduced_window(&mut self, view: &crate::tcp::cc::CcView, _flight_window: f64) -> f64 {
        view.cwnd()
    }
    fn sets_window_in_recovery(&self) -> bool {
        true
    }
}

#[test]
fn a_window_control_that_sets_cwnd_in_recovery_keeps_it_and_prr_only_sends() {
    // Linux's tcp_cong_control: a cong_control module (BBR) sets cwnd on every ACK and
    // PRR's reduction is skipped; at the end, tcp_end_cwnd_reduction leaves it too.
    let params = TcpParams { syn: false, initial_window: 20.0, initial_ssthresh: Some(1000.0), max_window: 1000, ..TcpParams::default() };
    let mut sender = TcpSender::new(params, Box::new(Prr::new(Bound::SlowStart)), Box::new(HoldsTwenty), 0.0);
    sender.start(0);
    let mut p = Path { sender, receiver: TcpReceiver::new(Box::new(EveryPacket), 3), now: 0 };
    p.take();
    p.deliver(0);
    for seq in 2..=4 {
        p.deliver(seq);
    }
    assert_eq!(p.sender.state.stats.fast_retransmits, 1, "recovery started");
    assert_eq!(p.cwnd(), 20.0, "PRR's pipe + sndcnt (19) not applied");
    // Every delivery in recovery releases one packet: pipe stays at cwnd = 20.
    assert_eq!(p.deliver(5).len(), 1);
    assert_eq!(p.cwnd(), 20.0);
    for seq in 6..=22 {
        p.deliver(seq);
    }
    p.deliver(1);
    assert_eq!(p.cwnd(), 20.0, "not set to ssthresh at the end of recovery");
}

// ------------------------------------------------------------ many losses: the bounds
//
// Packets 1..=14 of 1..=20 lost. The SACKs of 15 and 16 release 21 and 22; the SACK of 17
// starts recovery with 14 packets lost: pipe = 22 − 3 SACKed − 14 lost = 5, far below
// ssthresh 10. PRR-SSRB: limit = max(prr_delivered − prr_out, DeliveredData) + 1 = 2, so
// two packets leave per ACK (slow start back to ssthresh); PRR-CRB: limit =
// prr_delivered − prr_out = 1 per ACK (packet conservation).

fn fourteen_losses(bound: Bound) -> Vec<Vec<i64>> {
    let mut p = Path::new(20.0, bound);
    assert_eq!(p.deliver(0), vec![20]);
    assert_eq!(p.deliver(15), vec![21]);
    assert_eq!(p.deliver(16), vec![22]);
    (17..=19).map(|seq| p.deliver(seq)).collect()
}

#[test]
fn slow_start_bound_sends_one_more_than_delivered() {
    // pipe 5 → send 2 (pipe 7); SACK: pipe 6 → 2 (8); SACK: pipe 7 → 2 (9).
    assert_eq!(fourteen_losses(Bound::SlowStart), vec![vec![1, 2], vec![3, 4], vec![5, 6]]);
}

#[test]
fn conservative_bound_sends_what_was_delivered() {
    assert_eq!(fourteen_losses(Bound::Conservative), vec![vec![1], vec![2], vec![3]]);
}

#[test]
fn a_timeout_clears_recovery_and_goes_back_to_the_first_unacked_packet() {
    let mut p = Path::new(20.0, Bound::SlowStart);
    p.deliver(0);
    p.deliver(2);
    p.deliver(3);
    p.deliver(4);
    let now = p.now + 1_000_000_000_000;
    p.sender.on_timeout(now);
    assert_eq!(p.take(), vec![1], "cwnd 1 from the first unacknowledged packet");
    assert_eq!(p.cwnd(), 1.0);
    assert_eq!(p.sender.state.stats.timeouts, 1);
}

// ------------------------------------------------------------ RACK-TLP (RFC 8985)

const MS: u64 = 1_000_000_000;

/// A transfer of 10 packets, all sent at t = 0; 0..=7 arrive (1 ms apart), the last
/// two are lost: no ACK will ever report them.
fn tail_loss(prr: Prr) -> Path {
    let mut p = Path::with(10.0, prr, Some(10));
    for seq in 0..=7 {
        assert_eq!(p.deliver(seq), Vec::<i64>::new());
    }
    p
}

#[test]
fn a_tail_loss_probe_goes_out_two_srtt_after_the_last_ack() {
    // Karn's sample of packet 0: 1 ms, one 10 ms tick: SRTT = 10 ms; 2 packets out, so
    // PTO = 2·SRTT = 20 ms (RFC 8985 §7.2), well before the 200 ms RTO.
    let mut p = tail_loss(Prr::with_rack(Bound::SlowStart));
    let probe_at = p.now + 20 * MS;
    assert_eq!(p.sender.state.rtx_deadline, Some(probe_at));
    p.sender.on_timeout(probe_at);
    assert_eq!(p.take(), vec![9], "no new data: the highest packet sent goes again");
    assert_eq!(p.sender.state.stats.timeouts, 0, "a probe is not a timeout");
    assert!(p.sender.state.rtx_deadline.unwrap() >= probe_at + 200 * MS, "then the RTO is armed");
    // The probe's ACK SACKs 9: 8 was sent before it and its time is up → lost, recovery.
    p.now = probe_at;
    assert_eq!(p.deliver(9), vec![8]);
    assert_eq!(p.sender.state.stats.fast_retransmits, 1);
    assert_eq!(p.deliver(8), Vec::<i64>::new());
    assert_eq!(p.sender.state.last_ack, 9);
    assert_eq!(p.sender.state.stats.timeouts, 0);
}

#[test]
fn without_rack_the_tail_loss_waits_for_the_retransmission_timeout() {
    let mut p = tail_loss(Prr::new(Bound::SlowStart));
    let rto = p.sender.state.rtx_deadline.expect("data outstanding");
    assert!(rto >= p.now + 200 * MS, "min_rto");
    p.sender.on_timeout(rto);
    assert_eq!(p.take(), vec![8]);
    assert_eq!(p.sender.state.stats.timeouts, 1);
}

#[test]
fn the_probe_timeout_adds_the_delayed_ack_allowance_for_one_packet_and_never_passes_the_rto() {
    use crate::tcp::recovery::rack::probe_timeout;
    assert_eq!(probe_timeout(10 * MS, 2), 20 * MS);
    assert_eq!(probe_timeout(10 * MS, 1), 220 * MS, "2·SRTT + WCDelAckT");
    // One packet left: PTO 220 ms is later than the RTO (min_rto 200 ms): the RTO stays.
    let mut p = Path::with(2.0, Prr::with_rack(Bound::SlowStart), Some(2));
    assert_eq!(p.deliver(0), Vec::<i64>::new());
    assert_eq!(p.sender.state.rtx_deadline, Some(p.now + 200 * MS));
}

#[test]
fn rack_marks_a_packet_lost_after_the_reordering_window_with_one_sack() {
    // 20 packets at t = 0, packet 1 lost. The SACK of 2 (sent with 1) is one SACK, not
    // three: the count would wait, RACK starts its reordering timer for 1 at
    // sent + RACK.rtt + min_RTT/4 = now + 0.25 ms and, when it fires, 1 is lost.
    let mut p = Path::with(20.0, Prr::with_rack(Bound::SlowStart), None);
    p.deliver(0);
    p.deliver(2);
    let reorder_at = p.now + MS / 4;
    assert_eq!(p.sender.state.rtx_deadline, Some(reorder_at));
    assert_eq!(p.sender.state.stats.fast_retransmits, 0);
    p.sender.on_timeout(reorder_at);
    assert_eq!(p.take(), vec![1], "the fast retransmit");
    assert_eq!((p.sender.state.stats.fast_retransmits, p.sender.state.stats.timeouts), (1, 0));
    assert_eq!(p.sender.state.window.ssthresh, 10.0);
}

#[test]
fn with_rack_three_sacks_mark_the_hole_at_once() {
    // Once DupThresh packets are SACKed the reordering window is 0 (RFC 8985 §6.2).
    let mut p = Path::with(20.0, Prr::with_rack(Bound::SlowStart), None);
    p.deliver(0);
    p.deliver(2);
    p.deliver(3);
    assert_eq!(p.deliver(4), vec![1]);
}
