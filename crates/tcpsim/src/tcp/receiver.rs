//! The TCP receiver (sink): cumulative ACKs, every packet or delayed.
//!
//! ns-2.35 `Agent/TCPSink` and `Agent/TCPSink/DelAck` (tcp-sink.cc); RFC 1122 §4.2.3.2
//! and RFC 5681 §4.2 for delayed ACKs.
//! - The ACK number is the highest packet received in order (−1 before any).
//! - `every_packet`: one ACK per arriving data packet, including duplicates.
//! - `delayed`: an in-order packet that finds no ACK pending starts the delayed-ACK
//!   timer; the next packet (or the timer, after `delayed_ack_timeout`, default 100 ms)
//!   sends the ACK. A packet that arrives out of order or fills a hole is ACKed at once.
//!
//! Deviations: none from ns-2 for these two sinks. The ns-2 sink counts delivered bytes
//! including headers; our counters keep packets and payload bytes apart.

use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiverKind {
    /// ns-2 `TCPSink`: ACK every packet.
    EveryPacket,
    /// ns-2 `TCPSink/DelAck`: ACK every second in-order packet, or after a timeout.
    Delayed,
}

impl ReceiverKind {
    pub const NAMES: &'static [&'static str] = &["every_packet", "delayed"];

    pub fn from_name(name: &str) -> Option<ReceiverKind> {
        match name {
            "every_packet" => Some(ReceiverKind::EveryPacket),
            "delayed" => Some(ReceiverKind::Delayed),
            _ => None,
        }
    }
}

/// What the receiver wants done after a data packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckAction {
    /// Send an ACK for this sequence number now (and cancel any delayed-ACK timer).
    SendNow(i64),
    /// Hold the ACK and start the delayed-ACK timer.
    StartTimer,
}

#[derive(Debug, Clone)]
pub struct TcpReceiver {
    kind: ReceiverKind,
    /// Next packet expected in order.
    next_expected: i64,
    /// Packets received above a hole.
    out_of_order: BTreeSet<i64>,
    /// Highest packet seen (ns-2 `maxseen_`).
    max_seen: i64,
    /// A delayed ACK is pending.
    pub timer_pending: bool,
    /// Data packets that arrived, duplicates included.
    pub packets_received: u64,
    /// Packets delivered in order to the application.
    pub unique_packets: u64,
}

impl TcpReceiver {
    pub fn new(kind: ReceiverKind) -> Self {
        TcpReceiver {
            kind,
            next_expected: 0,
            out_of_order: BTreeSet::new(),
            max_seen: -1,
            timer_pending: false,
            packets_received: 0,
            unique_packets: 0,
        }
    }

    /// The cumulative ACK: highest packet received in order.
    pub fn ack_number(&self) -> i64 {
        self.next_expected - 1
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
    pub fn on_data(&mut self, seq: i64) -> (u64, AckAction) {
        let delivered = self.record(seq);
        let action = match self.kind {
            ReceiverKind::EveryPacket => AckAction::SendNow(self.ack_number()),
            ReceiverKind::Delayed => {
                // ns-2 DelAckSink: delay only when no ACK is pending and this packet is the
                // new in-order edge with no gap above it (RFC2581_immediate_ack_), and it is
                // not the SYN (SYN_immediate_ack_).
                let in_order_edge = seq == self.ack_number() && seq >= self.max_seen;
                if !self.timer_pending && in_order_edge && seq != 0 {
                    self.timer_pending = true;
                    AckAction::StartTimer
                } else {
                    self.timer_pending = false;
                    AckAction::SendNow(self.ack_number())
                }
            }
        };
        (delivered, action)
    }

    /// The delayed-ACK timer expired: the ACK to send.
    pub fn on_timer(&mut self) -> Option<i64> {
        if self.timer_pending {
            self.timer_pending = false;
            Some(self.ack_number())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_every_packet_with_the_highest_in_order() {
        let mut r = TcpReceiver::new(ReceiverKind::EveryPacket);
        assert_eq!(r.on_data(0), (1, AckAction::SendNow(0)));
        assert_eq!(r.on_data(2), (0, AckAction::SendNow(0))); // hole at 1: duplicate ACK
        assert_eq!(r.on_data(3), (0, AckAction::SendNow(0)));
        assert_eq!(r.on_data(1), (3, AckAction::SendNow(3))); // fills the hole: 1, 2, 3
        assert_eq!(r.on_data(1), (0, AckAction::SendNow(3))); // duplicate packet
        assert_eq!((r.packets_received, r.unique_packets), (5, 4));
    }

    #[test]
    fn first_packet_lost_gives_ack_minus_one() {
        let mut r = TcpReceiver::new(ReceiverKind::EveryPacket);
        assert_eq!(r.on_data(1), (0, AckAction::SendNow(-1)));
    }

    #[test]
    fn delayed_ack_acks_every_second_in_order_packet() {
        let mut r = TcpReceiver::new(ReceiverKind::Delayed);
        assert_eq!(r.on_data(0).1, AckAction::SendNow(0)); // the SYN is ACKed at once
        assert_eq!(r.on_data(1).1, AckAction::StartTimer);
        assert_eq!(r.on_data(2).1, AckAction::SendNow(2));
        assert_eq!(r.on_data(3).1, AckAction::StartTimer);
        assert_eq!(r.on_timer(), Some(3));
        assert_eq!(r.on_timer(), None);
    }

    #[test]
    fn delayed_ack_sends_at_once_for_out_of_order_and_hole_filling_packets() {
        let mut r = TcpReceiver::new(ReceiverKind::Delayed);
        r.on_data(0);
        assert_eq!(r.on_data(1).1, AckAction::StartTimer);
        assert_eq!(r.on_data(3).1, AckAction::SendNow(1)); // above a hole: immediate dup ACK
        assert_eq!(r.on_data(4).1, AckAction::SendNow(1)); // still above the hole
        assert_eq!(r.on_data(2).1, AckAction::SendNow(4)); // fills it: seq 2 ≠ ack 4
    }
}
