//! The TCP receiver (sink): cumulative ACKs, every packet or delayed, ECN echo, and the
//! SACK blocks of a SACK receiver.
//!
//! ns-2.35 `Agent/TCPSink`, `Agent/TCPSink/DelAck` and their `Sack1` variants
//! (tcp-sink.cc); RFC 1122 §4.2.3.2 and RFC 5681 §4.2 for delayed ACKs, RFC 3168 §6.1.3
//! for the ECN echo, RFC 2018 for SACK. What is common lives here; when to ACK is the
//! policy of each receiver model (`every_packet.rs`, `delayed.rs`).
//!
//! - The ACK number is the highest packet received in order (−1 before any).
//! - ECN echo (ns-2 `Acker::ecn_unacked_`): a CE-marked ECT packet sets the echo state,
//!   a packet with CWR clears it; ACKs of ECT packets carry ECE while it is set. A packet
//!   with ECE and without ECT is the sender's ECN offer (packet 0): its ACK carries ECE
//!   (ns-2 `TcpSink::ack`, "the negotiation for ECN-capability"). ACKs are never
//!   ECN-capable (ns-2 `ecn_syn_` false).
//! - Each ACK echoes the sequence number and send time of the data packet that
//!   triggered it; the delayed-ACK timer's ACK echoes the held packet's send time and no
//!   sequence number (reference document 003's echo option is absent on those).
//!
//! Deviations: the ns-2 sink counts delivered bytes including headers; our counters keep
//! packets and payload bytes apart.

pub mod delayed;
pub mod every_packet;

use super::ack::AckInfo;
use crate::engine::packet::{SackBlocks, MAX_SACK_BLOCKS};
use crate::engine::{Dur, SimTime};
use crate::registry::{Family, ModelConfig, Param, ParamError, ParamType as T, Value as V};
use std::collections::BTreeSet;

/// Parameters every receiver has: SACK on or off, and blocks per ACK.
pub(crate) const SACK: Param =
    Param::new("sack", T::Bool, "", V::Bool(false), "send SACK blocks (ns-2 Agent/TCPSink/Sack1)", "RFC 2018; ns-2.35 Sacker");
pub(crate) const SACK_BLOCKS: Param =
    Param::new("sack_blocks", T::Integer, "blocks", V::Integer(3), "most SACK blocks per ACK (ns-2 maxSackBlocks_)", "ns-2.35 Agent/TCPSink maxSackBlocks_ default")
        .range(1.0, MAX_SACK_BLOCKS as f64);

pub(crate) fn check(_: &ModelConfig) -> Result<(), ParamError> {
    Ok(())
}

/// When a receiver sends its ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckPolicy {
    /// One ACK per arriving data packet (ns-2 `TCPSink`).
    EveryPacket,
    /// Every second in-order packet or after `timeout` (ns-2 `TCPSink/DelAck`).
    Delayed { timeout: Dur },
}

/// Typed receiver parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiverParams {
    pub policy: AckPolicy,
    /// SACK blocks per ACK; 0 = no SACK.
    pub sack_blocks: usize,
}

impl ReceiverParams {
    pub fn from_config(c: &ModelConfig) -> ReceiverParams {
        assert_eq!(c.spec.family, Family::Receiver);
        let policy = match c.name() {
            "delayed" => AckPolicy::Delayed { timeout: c.time("timeout") },
            _ => AckPolicy::EveryPacket,
        };
        let sack_blocks = if c.boolean("sack") { c.integer("sack_blocks") as usize } else { 0 };
        ReceiverParams { policy, sack_blocks }
    }
}

/// What the receiver sees of an arriving data packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DataArrival {
    pub seq: i64,
    pub sent_at: SimTime,
    /// ECN-capable transport.
    pub ect: bool,
    /// Congestion experienced.
    pub ce: bool,
    /// The sender's congestion-window-reduced flag.
    pub cwr: bool,
    /// The sender's ECN-echo flag (on packet 0 of an ECN sender: the ECN offer).
    pub ece: bool,
}

/// What the receiver wants done after a data packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AckAction {
    /// Send this ACK now (and cancel any delayed-ACK timer).
    SendNow(AckInfo),
    /// Hold the ACK and start the delayed-ACK timer.
    StartTimer,
}

#[derive(Debug, Clone)]
pub struct TcpReceiver {
    params: ReceiverParams,
    /// Next packet expected in order.
    next_expected: i64,
    /// Packets received above a hole.
    out_of_order: BTreeSet<i64>,
    /// Highest packet seen (ns-2 `maxseen_`).
    max_seen: i64,
    /// ECN echo state (ns-2 `ecn_unacked_`).
    ecn_unacked: bool,
    /// The packet whose ACK is delayed, if any.
    held: Option<DataArrival>,
    /// SACK blocks reported before, most recent first (ns-2 `SackStack`).
    sack_history: SackBlocks,
    /// Data packets that arrived, duplicates included.
    pub packets_received: u64,
    /// Packets delivered in order to the application.
    pub unique_packets: u64,
}

impl TcpReceiver {
    pub fn new(params: ReceiverParams) -> Self {
        TcpReceiver {
            params,
            next_expected: 0,
            out_of_order: BTreeSet::new(),
            max_seen: -1,
            ecn_unacked: false,
            held: None,
            sack_history: SackBlocks::EMPTY,
            packets_received: 0,
            unique_packets: 0,
        }
    }

    pub fn params(&self) -> &ReceiverParams {
        &self.params
    }

    /// The cumulative ACK: highest packet received in order.
    pub fn ack_number(&self) -> i64 {
        self.next_expected - 1
    }

    /// Highest packet seen (ns-2 `maxseen_`).
    pub fn max_seen(&self) -> i64 {
        self.max_seen
    }

    /// A delayed ACK is pending.
    pub fn timer_pending(&self) -> bool {
        self.held.is_some()
    }

    /// Records packet `seq`; returns how many packets became deliverable in order.
    fn record(&mut self, seq: i64) -> u64 {
        self.packets_received += 1;
        self.max_seen = self.max_seen.max(seq);
        if seq < self.next_expected {
            return 0;
        }
        if seq > self.next_expected {
            self.out_of_order.insert(seq);
            return 0;
        }
        let before = self.next_expected;
        self.next_expected += 1;
        while self.out_of_order.remove(&self.next_expected) {
            self.next_expected += 1;
        }
        let delivered = (self.next_expected - before) as u64;
        self.unique_packets += delivered;
        delivered
    }

    /// A data packet arrived. Returns packets newly delivered and the ACK action.
    pub fn on_data(&mut self, data: DataArrival) -> (u64, AckAction) {
        let delivered = self.record(data.seq);
        let action = match self.params.policy {
            AckPolicy::EveryPacket => AckAction::SendNow(self.ack(&data, Some(data.seq))),
            AckPolicy::Delayed { .. } => delayed::on_data(self, data),
        };
        (delivered, action)
    }

    /// The delayed-ACK timer expired: the ACK to send.
    pub fn on_timer(&mut self) -> Option<AckInfo> {
        let held = self.held.take()?;
        Some(self.ack(&held, None))
    }

    /// Builds the ACK for `data` (ns-2 `TcpSink::ack`): ECN echo, SACK blocks, echoes.
    fn ack(&mut self, data: &DataArrival, echo_seq: Option<i64>) -> AckInfo {
        // The packet that triggered the ACK and, with delayed ACKs, the one held before it.
        let (mut cwr, mut congested, mut ect) = (data.cwr, data.ect && data.ce, data.ect);
        // ns-2's ECN negotiation: a non-ECT packet with ECE (packet 0 of an ECN sender)
        // is answered with ECE.
        let mut offer = !data.ect && data.ece;
        if let Some(h) = self.held.take() {
            cwr |= h.cwr;
            congested |= h.ect && h.ce;
            ect |= h.ect;
            offer |= !h.ect && h.ece;
        }
        if cwr {
            self.ecn_unacked = false;
        }
        if congested {
            self.ecn_unacked = true;
        }
        let ece = (ect && self.ecn_unacked) || offer;
        let sack = if self.params.sack_blocks > 0 { self.sack_blocks(data.seq) } else { SackBlocks::EMPTY };
        AckInfo { ack: self.ack_number(), sack, ece, echo_seq, ts_echo: data.sent_at }
    }

    /// SACK blocks for an ACK triggered by packet `seq` (RFC 2018 §4): the block holding
    /// the most recently received packet first, then earlier reported blocks that are
    /// still above the cumulative ACK, without repeating a block.
    fn sack_blocks(&mut self, seq: i64) -> SackBlocks {
        let cumulative = self.ack_number();
        let mut blocks = SackBlocks::EMPTY;
        if seq > cumulative + 1 && self.out_of_order.contains(&seq) {
            blocks.push(self.block_around(seq).0, self.block_around(seq).1);
        }
        for &(first, last) in self.sack_history.as_slice() {
            if blocks.len() >= self.params.sack_blocks {
                break;
            }
            if last <= cumulative || !self.out_of_order.contains(&first.max(cumulative + 1)) {
                continue;
            }
            // A reported block may have grown since: report it whole.
            let (a, b) = self.block_around(first.max(cumulative + 1));
            if !blocks.as_slice().iter().any(|&(x, _)| x == a) {
                blocks.push(a, b);
            }
        }
        self.sack_history = blocks;
        let mut limited = SackBlocks::EMPTY;
        for &(a, b) in blocks.as_slice().iter().take(self.params.sack_blocks) {
            limited.push(a, b);
        }
        limited
    }

    /// The run of consecutive out-of-order packets containing `seq`.
    fn block_around(&self, seq: i64) -> (i64, i64) {
        let mut first = seq;
        while first - 1 > self.ack_number() && self.out_of_order.contains(&(first - 1)) {
            first -= 1;
        }
        let mut last = seq;
        while self.out_of_order.contains(&(last + 1)) {
            last += 1;
        }
        (first, last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_MS;

    fn every_packet() -> TcpReceiver {
        TcpReceiver::new(ReceiverParams { policy: AckPolicy::EveryPacket, sack_blocks: 0 })
    }

    fn data(seq: i64) -> DataArrival {
        DataArrival { seq, ..DataArrival::default() }
    }

    fn sent(r: &mut TcpReceiver, seq: i64) -> (u64, Option<i64>) {
        match r.on_data(data(seq)) {
            (n, AckAction::SendNow(a)) => (n, Some(a.ack)),
            (n, AckAction::StartTimer) => (n, None),
        }
    }

    #[test]
    fn acks_every_packet_with_the_highest_in_order() {
        let mut r = every_packet();
        assert_eq!(sent(&mut r, 0), (1, Some(0)));
        assert_eq!(sent(&mut r, 2), (0, Some(0))); // hole at 1: duplicate ACK
        assert_eq!(sent(&mut r, 3), (0, Some(0)));
        assert_eq!(sent(&mut r, 1), (3, Some(3))); // fills the hole: 1, 2, 3
        assert_eq!(sent(&mut r, 1), (0, Some(3))); // duplicate packet
        assert_eq!((r.packets_received, r.unique_packets), (5, 4));
    }

    #[test]
    fn first_packet_lost_gives_ack_minus_one() {
        let mut r = every_packet();
        assert_eq!(sent(&mut r, 1), (0, Some(-1)));
    }

    #[test]
    fn acks_echo_the_triggering_sequence_number_and_send_time() {
        let mut r = every_packet();
        let (_, action) = r.on_data(DataArrival { seq: 0, sent_at: 7, ..DataArrival::default() });
        assert_eq!(action, AckAction::SendNow(AckInfo { echo_seq: Some(0), ts_echo: 7, ..AckInfo::cumulative(0) }));
    }

    #[test]
    fn delayed_ack_acks_every_second_in_order_packet() {
        let mut r = TcpReceiver::new(ReceiverParams { policy: AckPolicy::Delayed { timeout: 100 * PS_PER_MS }, sack_blocks: 0 });
        assert_eq!(sent(&mut r, 0).1, Some(0)); // the SYN is ACKed at once
        assert_eq!(sent(&mut r, 1).1, None);
        assert_eq!(sent(&mut r, 2).1, Some(2));
        assert_eq!(sent(&mut r, 3).1, None);
        let timer_ack = r.on_timer().expect("an ACK is held");
        assert_eq!((timer_ack.ack, timer_ack.echo_seq), (3, None));
        assert_eq!(r.on_timer(), None);
    }

    #[test]
    fn delayed_ack_sends_at_once_for_out_of_order_and_hole_filling_packets() {
        let mut r = TcpReceiver::new(ReceiverParams { policy: AckPolicy::Delayed { timeout: 100 * PS_PER_MS }, sack_blocks: 0 });
        sent(&mut r, 0);
        assert_eq!(sent(&mut r, 1).1, None);
        assert_eq!(sent(&mut r, 3).1, Some(1)); // above a hole: immediate dup ACK
        assert_eq!(sent(&mut r, 4).1, Some(1)); // still above the hole
        assert_eq!(sent(&mut r, 2).1, Some(4)); // fills it: seq 2 ≠ ack 4
    }

    #[test]
    fn ecn_echo_is_set_by_ce_and_cleared_by_cwr() {
        let mut r = every_packet();
        let ect = |seq, ce, cwr| DataArrival { seq, ect: true, ce, cwr, ..DataArrival::default() };
        let ece = |r: &mut TcpReceiver, d| match r.on_data(d).1 {
            AckAction::SendNow(a) => a.ece,
            AckAction::StartTimer => panic!("every packet is ACKed"),
        };
        assert!(!ece(&mut r, ect(0, false, false)));
        assert!(ece(&mut r, ect(1, true, false))); // CE: echo
        assert!(ece(&mut r, ect(2, false, false))); // keeps echoing until CWR
        assert!(!ece(&mut r, ect(3, false, true))); // CWR clears it
        assert!(!ece(&mut r, data(4))); // not ECT: no echo (ns-2 sink)
    }

    #[test]
    fn ecn_offer_on_packet_zero_is_answered_with_ece() {
        // ns-2 TcpSink::ack: a packet with ECE and without ECT is the sender's offer; its
        // ACK carries ECE, and the echo state is not set by it.
        let mut r = every_packet();
        let ece = |r: &mut TcpReceiver, d| match r.on_data(d).1 {
            AckAction::SendNow(a) => a.ece,
            AckAction::StartTimer => panic!("every packet is ACKed"),
        };
        assert!(ece(&mut r, DataArrival { seq: 0, ece: true, ..DataArrival::default() }));
        assert!(!ece(&mut r, DataArrival { seq: 1, ect: true, ..DataArrival::default() }));
    }

    #[test]
    fn sack_blocks_report_the_latest_block_first() {
        let mut r = TcpReceiver::new(ReceiverParams { policy: AckPolicy::EveryPacket, sack_blocks: 3 });
        let sack = |r: &mut TcpReceiver, seq| match r.on_data(data(seq)).1 {
            AckAction::SendNow(a) => a.sack.as_slice().to_vec(),
            AckAction::StartTimer => unreachable!(),
        };
        assert!(sack(&mut r, 0).is_empty());
        assert_eq!(sack(&mut r, 2), vec![(2, 2)]);
        assert_eq!(sack(&mut r, 3), vec![(2, 3)]);
        assert_eq!(sack(&mut r, 6), vec![(6, 6), (2, 3)]);
        assert_eq!(sack(&mut r, 9), vec![(9, 9), (6, 6), (2, 3)]);
        assert_eq!(sack(&mut r, 1), vec![(9, 9), (6, 6)]); // 0–3 in order now; history order kept
    }
}
