//! The TCP receiver (sink): cumulative ACKs, every packet or delayed, ECN echo, and the
//! SACK blocks of a SACK receiver.
//!
//! ns-2.35 `Agent/TCPSink`, `Agent/TCPSink/DelAck` and their `Sack1` variants
//! (tcp-sink.cc); RFC 1122 §4.2.3.2 and RFC 5681 §4.2 for delayed ACKs, RFC 3168 §6.1.3
//! for the ECN echo, RFC 2018 for SACK. What is common lives here; when to ACK is the
//! [`AckPolicy`] of each receiver model (`every_packet.rs`, `delayed.rs`), listed in
//! `crate::catalogue` as a [`ReceiverModel`].
//!
//! - The ACK number is the highest packet received in order (−1 before any).
//! - ECN echo (ns-2 `Acker::ecn_unacked_`): a CE-marked ECT packet sets the echo state,
//!   a packet with CWR clears it; ACKs of ECT packets carry ECE while it is set. A packet
//!   with ECE and without ECT is the sender's ECN offer (packet 0): its ACK carries ECE
//!   (ns-2 `TcpSink::ack`, "the negotiation for ECN-capability"). ACKs are never
//!   ECN-capable (ns-2 `ecn_syn_` false).
//! - Each ACK echoes the sequence number of the data packet that triggered it; the
//!   delayed-ACK timer's ACK echoes none (reference document 003's echo option is absent
//!   on those). Every receiver model has the parameter `echo` (default true); false
//!   writes no echo at all.
//! - The timestamp echo follows ns-2.35's `ts_echo_bugfix_` (default true; RFC 1323 /
//!   TCP/IP Illustrated vol. 2 p. 870, `Acker::update_ts`): the receiver keeps a send time
//!   to echo, taken from each arriving packet that is not older than it and lies at or
//!   below the last ACK number sent + 1 (0 before any ACK). A packet above a hole does not
//!   update it, so the ACK of an out-of-order packet echoes the last in-order one.
//!
//! Deviations: the ns-2 sink counts delivered bytes including headers; our counters keep
//! packets and payload bytes apart.

pub mod delayed;
pub mod every_packet;

use super::ack::AckInfo;
use crate::engine::packet::{SackBlocks, MAX_SACK_BLOCKS};
use crate::engine::{Dur, SimTime};
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Value as V};
use std::collections::BTreeSet;

/// Parameters every receiver has: SACK on or off, and blocks per ACK.
pub(crate) const SACK: Param =
    Param::new("sack", T::Bool, "", V::Bool(false), "send SACK blocks (ns-2 Agent/TCPSink/Sack1)", "RFC 2018; ns-2.35 Sacker");
pub(crate) const SACK_BLOCKS: Param =
    Param::new("sack_blocks", T::Integer, "blocks", V::Integer(3), "most SACK blocks per ACK (ns-2 maxSackBlocks_)", "ns-2.35 Agent/TCPSink maxSackBlocks_ default")
        .range(1.0, MAX_SACK_BLOCKS as f64);

/// The echo option of reference document 003 (Zhang & Tsaoussidis, NOSSDAV 2003, §3.2):
/// each ACK carries the sequence number of the data packet that triggered it. On by
/// default, as every receiver has always written it; only window controls whose
/// relations say `reads_echo` use it.
pub(crate) const ECHO: Param =
    Param::new("echo", T::Bool, "", V::Bool(true), "write into each ACK the sequence number of the data packet that triggered it (none on delayed-ACK timer ACKs): the echo option", "Zhang & Tsaoussidis, NOSSDAV 2003, §3.2");

pub(crate) fn check(_: &ModelConfig) -> Result<(), ParamError> {
    Ok(())
}

/// SACK blocks per ACK of a receiver configured with the common `sack` and `sack_blocks`
/// parameters (every receiver model has them); 0 = no SACK.
pub fn sack_blocks(c: &ModelConfig) -> usize {
    if c.boolean("sack") {
        c.integer("sack_blocks") as usize
    } else {
        0
    }
}

/// When a receiver sends its ACKs: what each receiver model decides. The receiver has
/// recorded the packet (its ACK number and out-of-order set are up to date) when the
/// policy is asked.
pub trait AckPolicy: std::fmt::Debug {
    /// A data packet arrived: ACK now (`r.ack(...)`) or hold the ACK. A policy may keep
    /// state of its own (the delayed receiver's quick-ACK credit).
    fn on_data(&mut self, r: &mut TcpReceiver, data: DataArrival) -> AckAction;
}

/// A receiver model as the catalogue lists it: its spec and the constructor of its ACK
/// policy (the common SACK parameters are read with [`sack_blocks`]).
pub struct ReceiverModel {
    pub spec: &'static ModelSpec,
    pub build: fn(&ModelConfig) -> Box<dyn AckPolicy>,
}

impl FamilyModel for ReceiverModel {
    const FAMILY: Family = Family::Receiver;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

impl Chosen<ReceiverModel> {
    /// A receiver of this model and configuration (one per flow).
    pub fn build(&self) -> TcpReceiver {
        let mut receiver = TcpReceiver::new((self.model.build)(&self.config), sack_blocks(&self.config));
        receiver.echo = self.config.boolean("echo");
        receiver
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
    /// Hold the ACK and start the delayed-ACK timer, which sends it after this long
    /// unless a packet sends it before.
    StartTimer(Dur),
}

#[derive(Debug)]
pub struct TcpReceiver {
    /// When to ACK (the receiver model). Taken out while it runs, so that it can work on
    /// the receiver.
    policy: Option<Box<dyn AckPolicy>>,
    /// SACK blocks per ACK; 0 = no SACK.
    sack_blocks: usize,
    /// Write the echo option (the triggering packet's sequence number) into ACKs.
    echo: bool,
    /// Next packet expected in order.
    next_expected: i64,
    /// Packets received above a hole.
    out_of_order: BTreeSet<i64>,
    /// Highest packet seen (ns-2 `maxseen_`).
    max_seen: i64,
    /// The last packet had arrived before (at or below the cumulative ACK, or already
    /// held above a hole).
    last_was_duplicate: bool,
    /// ECN echo state (ns-2 `ecn_unacked_`).
    ecn_unacked: bool,
    /// The packet whose ACK is delayed, if any.
    held: Option<DataArrival>,
    /// SACK blocks reported before, most recent first (ns-2 `SackStack`), at most
    /// `sack_blocks` of them.
    /// (Boxed when first used: only SACK receivers keep one.)
    sack_history: Option<Box<SackBlocks>>,
    /// Send time the next ACK echoes (ns-2 `Acker::ts_to_echo_`).
    ts_to_echo: SimTime,
    /// ACK number of the last ACK sent; 0 before any (ns-2 `Acker::last_ack_sent_`).
    last_ack_sent: i64,
    /// Data packets that arrived, duplicates included.
    pub packets_received: u64,
    /// Packets delivered in order to the application.
    pub unique_packets: u64,
}

impl TcpReceiver {
    /// A receiver that ACKs by `policy` and sends up to `sack_blocks` SACK blocks per ACK
    /// (0: no SACK).
    pub fn new(policy: Box<dyn AckPolicy>, sack_blocks: usize) -> Self {
        TcpReceiver {
            policy: Some(policy),
            sack_blocks,
            echo: true,
            next_expected: 0,
            out_of_order: BTreeSet::new(),
            max_seen: -1,
            last_was_duplicate: false,
            ecn_unacked: false,
            held: None,
            sack_history: None,
            ts_to_echo: 0,
            last_ack_sent: 0,
            packets_received: 0,
            unique_packets: 0,
        }
    }

    /// SACK blocks per ACK; 0 = no SACK.
    pub fn sack_blocks_per_ack(&self) -> usize {
        self.sack_blocks
    }

    /// The cumulative ACK: highest packet received in order.
    pub fn ack_number(&self) -> i64 {
        self.next_expected - 1
    }

    /// Highest packet seen (ns-2 `maxseen_`).
    pub fn max_seen(&self) -> i64 {
        self.max_seen
    }

    /// The packet just recorded had arrived before (a spurious retransmission).
    pub fn last_was_duplicate(&self) -> bool {
        self.last_was_duplicate
    }

    /// A delayed ACK is pending.
    pub fn timer_pending(&self) -> bool {
        self.held.is_some()
    }

    /// Holds the ACK of `data` (an ACK policy that delays it): the next ACK sent covers
    /// it, or the delayed-ACK timer sends it.
    pub fn hold(&mut self, data: DataArrival) {
        self.held = Some(data);
    }

    /// Records packet `seq`; returns how many packets became deliverable in order.
    fn record(&mut self, seq: i64) -> u64 {
        self.packets_received += 1;
        self.max_seen = self.max_seen.max(seq);
        if seq < self.next_expected {
            self.last_was_duplicate = true;
            return 0;
        }
        if seq > self.next_expected {
            self.last_was_duplicate = !self.out_of_order.insert(seq);
            return 0;
        }
        self.last_was_duplicate = false;
        let before = self.next_expected;
        self.next_expected += 1;
        // Most packets arrive in order with no hole behind them: the set is then empty and
        // the tree need not be searched.
        if !self.out_of_order.is_empty() {
            while self.out_of_order.remove(&self.next_expected) {
                self.next_expected += 1;
            }
        }
        let delivered = (self.next_expected - before) as u64;
        self.unique_packets += delivered;
        delivered
    }

    /// A data packet arrived. Returns packets newly delivered and the ACK action.
    pub fn on_data(&mut self, data: DataArrival) -> (u64, AckAction) {
        // ns-2 `Acker::update_ts` (ts_echo_rfc1323_ false), before the packet is recorded.
        if data.sent_at >= self.ts_to_echo && data.seq <= self.last_ack_sent + 1 {
            self.ts_to_echo = data.sent_at;
        }
        let delivered = self.record(data.seq);
        let mut policy = self.policy.take().expect("the policy is back after each packet");
        let action = policy.on_data(self, data);
        self.policy = Some(policy);
        (delivered, action)
    }

    /// The delayed-ACK timer expired: the ACK to send.
    pub fn on_timer(&mut self) -> Option<AckInfo> {
        let held = self.held.take()?;
        Some(self.ack(&held, None))
    }

    /// Builds the ACK for `data` (ns-2 `TcpSink::ack`): ECN echo, SACK blocks, echoes.
    /// Inlined into the ACK policies so that the ACK is built in place of their answer
    /// rather than built and then copied (an `AckInfo` is 112 bytes; B1 sends one per data
    /// packet).
    #[inline]
    pub fn ack(&mut self, data: &DataArrival, echo_seq: Option<i64>) -> AckInfo {
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
        let sack = if self.sack_blocks > 0 { self.sack_blocks(data.seq) } else { SackBlocks::EMPTY };
        self.last_ack_sent = self.ack_number();
        let echo_seq = echo_seq.filter(|_| self.echo);
        AckInfo { ack: self.ack_number(), sack, ece, echo_seq, ts_echo: self.ts_to_echo }
    }

    /// SACK blocks for the ACK of packet `seq`: ns-2.35 `Sacker::append_ack` (tcp-sink.cc,
    /// `generateDSacks_` off, its default). ns-2 keeps a stack of the blocks it reported
    /// (`SackStack`, as deep as `sack_blocks`), most recent first:
    ///   - cumulative ACK ≥ highest packet seen: no blocks, and the stack is emptied;
    ///   - otherwise, if `seq` lies above the cumulative ACK, the first block is the run
    ///     of received packets holding it; then the stack's blocks follow in order,
    ///     except those inside the first block (dropped from the stack), until
    ///     `sack_blocks` are written; the first block is then pushed on the stack. A
    ///     packet at or below the cumulative ACK (a hole being filled, a duplicate) gives
    ///     no first block, and drops the stack's blocks at or below the cumulative ACK.
    ///
    /// Blocks are sent as reported: a stacked block is not re-measured (one that grew
    /// was inside the first block of the ACK that grew it). ns-2 writes [left, right)
    /// with the right edge exclusive; here blocks are [first, last], last = right − 1.
    fn sack_blocks(&mut self, seq: i64) -> SackBlocks {
        let cumulative = self.ack_number();
        let capacity = self.sack_blocks;
        if cumulative >= self.max_seen {
            if let Some(h) = &mut self.sack_history {
                **h = SackBlocks::EMPTY;
            }
            return SackBlocks::EMPTY;
        }
        let first_block = (seq > cumulative).then(|| self.block_around(seq));
        // ns-2 treats a packet at or below the cumulative ACK as the block [0, cumulative].
        let (cover_first, cover_last) = first_block.unwrap_or((0, cumulative));
        let mut sent = SackBlocks::EMPTY;
        if let Some((a, b)) = first_block {
            sent.push(a, b);
        }
        let history = self.sack_history.as_deref().copied().unwrap_or(SackBlocks::EMPTY);
        let mut next = 0;
        while sent.len() < capacity && next < history.len() {
            let (a, b) = history.as_slice()[next];
            if b > self.max_seen {
                break; // ns-2: "no more history"
            }
            next += 1;
            if cover_first <= a && b <= cover_last {
                continue; // covered: popped from the stack
            }
            sent.push(a, b);
        }
        // The new stack: the blocks just sent (first block on top), then any the loop did
        // not reach, as deep as `sack_blocks`.
        let mut stack = sent;
        for &(a, b) in &history.as_slice()[next..] {
            if stack.len() < capacity {
                stack.push(a, b);
            }
        }
        **self.sack_history.get_or_insert_with(Box::default) = stack;
        sent
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
        TcpReceiver::new(Box::new(every_packet::EveryPacket), 0)
    }

    fn data(seq: i64) -> DataArrival {
        DataArrival { seq, ..DataArrival::default() }
    }

    fn sent(r: &mut TcpReceiver, seq: i64) -> (u64, Option<i64>) {
        match r.on_data(data(seq)) {
            (n, AckAction::SendNow(a)) => (n, Some(a.ack)),
            (n, AckAction::StartTimer(_)) => (n, None),
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
    fn with_echo_off_no_ack_carries_the_echo_option() {
        let mut config = every_packet::SPEC.defaults();
        config.set("echo", V::Bool(false));
        let mut r = Chosen { model: &every_packet::MODEL, config }.build();
        let (_, action) = r.on_data(DataArrival { seq: 0, sent_at: 7, ..DataArrival::default() });
        assert_eq!(action, AckAction::SendNow(AckInfo { echo_seq: None, ts_echo: 7, ..AckInfo::cumulative(0) }));
    }

    #[test]
    fn timestamp_echo_skips_packets_above_a_hole_and_older_send_times() {
        // ns-2 Acker::update_ts with ts_echo_bugfix_: update when sent_at ≥ the time held
        // and seq ≤ last ACK sent + 1.
        let mut r = every_packet();
        let echo = |r: &mut TcpReceiver, seq, sent_at| match r.on_data(DataArrival { seq, sent_at, ..DataArrival::default() }).1 {
            AckAction::SendNow(info) => info.ts_echo,
            AckAction::StartTimer(_) => unreachable!(),
        };
        assert_eq!(echo(&mut r, 0, 10), 10);
        assert_eq!(echo(&mut r, 2, 30), 10, "2 > last ACK 0 + 1: above the hole");
        assert_eq!(echo(&mut r, 1, 50), 50, "the retransmission fills the hole");
        assert_eq!(echo(&mut r, 1, 40), 50, "an older send time is not taken");
        assert_eq!(echo(&mut r, 3, 60), 60);
    }

    #[test]
    fn delayed_ack_acks_every_second_in_order_packet() {
        let mut r = TcpReceiver::new(Box::new(delayed::Delayed::new(100 * PS_PER_MS, 0)), 0);
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
        let mut r = TcpReceiver::new(Box::new(delayed::Delayed::new(100 * PS_PER_MS, 0)), 0);
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
            AckAction::StartTimer(_) => panic!("every packet is ACKed"),
        };
        assert!(!ece(&mut r, ect(0, false, false)));
        assert!(ece(&mut r, ect(1, true, false))); // CE: echo
        assert!(ece(&mut r, ect(2, false, false))); // keeps echoing until CWR
        assert!(!ece(&mut r, ect(3, false, true))); // CWR clears it
        assert!(!ece(&mut r, data(4))); // not ECT: no echo (ns-2 sink)
    }

    fn sack_receiver(blocks: usize) -> TcpReceiver {
        TcpReceiver::new(Box::new(every_packet::EveryPacket), blocks)
    }

    /// The SACK blocks of the ACK for packet `seq`.
    fn sack(r: &mut TcpReceiver, seq: i64) -> Vec<(i64, i64)> {
        match r.on_data(data(seq)).1 {
            AckAction::SendNow(a) => a.sack.as_slice().to_vec(),
            AckAction::StartTimer(_) => unreachable!("the tests use an every-packet receiver"),
        }
    }

    // Worked examples of ns-2.35 Sacker::append_ack (maxSackBlocks_ 3). ns-2 writes
    // [sa_left, sa_right) with sa_right exclusive; ours are [first, last] = [left, right − 1].

    #[test]
    fn ecn_offer_on_packet_zero_is_answered_with_ece() {
        // ns-2 TcpSink::ack: a packet with ECE and without ECT is the sender's offer; its
        // ACK carries ECE, and the echo state is not set by it.
        let mut r = every_packet();
        let ece = |r: &mut TcpReceiver, d| match r.on_data(d).1 {
            AckAction::SendNow(a) => a.ece,
            AckAction::StartTimer(_) => panic!("every packet is ACKed"),
        };
        assert!(ece(&mut r, DataArrival { seq: 0, ece: true, ..DataArrival::default() }));
        assert!(!ece(&mut r, DataArrival { seq: 1, ect: true, ..DataArrival::default() }));
    }

    #[test]
    fn sack_blocks_report_the_latest_block_first() {
        let mut r = sack_receiver(3);
        assert!(sack(&mut r, 0).is_empty());
        assert_eq!(sack(&mut r, 2), vec![(2, 2)]); // ns-2 [2, 3)
        assert_eq!(sack(&mut r, 3), vec![(2, 3)]); // grew: the old (2, 2) is covered, popped
        assert_eq!(sack(&mut r, 6), vec![(6, 6), (2, 3)]);
        assert_eq!(sack(&mut r, 9), vec![(9, 9), (6, 6), (2, 3)]);
        // 1 fills the first hole: cumulative 3. No first block (1 ≤ 3); the stack's blocks
        // at or below 3 are dropped, the others sent in stack order.
        assert_eq!(sack(&mut r, 1), vec![(9, 9), (6, 6)]);
        assert_eq!(r.ack_number(), 3);
    }

    #[test]
    fn sack_stack_is_as_deep_as_the_blocks_per_ack() {
        // Four holes: the fourth block pushes the oldest off ns-2's 3-deep SackStack, and
        // it is not reported again until a packet next to it arrives.
        let mut r = sack_receiver(3);
        sack(&mut r, 0);
        sack(&mut r, 2);
        sack(&mut r, 4);
        assert_eq!(sack(&mut r, 6), vec![(6, 6), (4, 4), (2, 2)]);
        assert_eq!(sack(&mut r, 8), vec![(8, 8), (6, 6), (4, 4)]);
        assert_eq!(sack(&mut r, 10), vec![(10, 10), (8, 8), (6, 6)]);
        // 3 joins 2 and 4: the first block [2, 4] covers neither (8, 8) nor (6, 6), which
        // fill the ACK; (4, 4), never examined, falls off the stack.
        assert_eq!(sack(&mut r, 3), vec![(2, 4), (10, 10), (8, 8)]);
        assert_eq!(sack(&mut r, 11), vec![(10, 11), (2, 4), (8, 8)]);
        // (6, 6) is no longer on the stack: only a packet next to it brings it back.
        assert_eq!(sack(&mut r, 7), vec![(6, 8), (10, 11), (2, 4)]);
    }

    #[test]
    fn sack_of_a_duplicate_reports_its_block_first() {
        let mut r = sack_receiver(3);
        sack(&mut r, 0);
        sack(&mut r, 2);
        assert_eq!(sack(&mut r, 5), vec![(5, 5), (2, 2)]);
        // A second copy of 2 (above the cumulative ACK): its block moves to the top.
        assert_eq!(sack(&mut r, 2), vec![(2, 2), (5, 5)]);
        // A copy of 0 (at the cumulative ACK): no first block, the stack in order.
        assert_eq!(sack(&mut r, 0), vec![(2, 2), (5, 5)]);
    }

    #[test]
    fn sack_stops_and_forgets_once_the_holes_are_filled() {
        let mut r = sack_receiver(3);
        sack(&mut r, 0);
        sack(&mut r, 2);
        sack(&mut r, 4);
        assert_eq!(sack(&mut r, 1), vec![(4, 4)]); // cumulative 2
        assert!(sack(&mut r, 3).is_empty(), "cumulative 4 = highest seen: no blocks, stack emptied");
        assert!(sack(&mut r, 5).is_empty());
        assert_eq!(sack(&mut r, 7), vec![(7, 7)], "nothing left from before");
    }

    #[test]
    fn sack_blocks_per_ack_is_a_parameter() {
        let mut r = sack_receiver(1);
        sack(&mut r, 0);
        assert_eq!(sack(&mut r, 2), vec![(2, 2)]);
        assert_eq!(sack(&mut r, 4), vec![(4, 4)]);
        assert_eq!(sack(&mut r, 1), vec![(4, 4)]);
    }

    #[test]
    fn delayed_ack_receiver_sacks_out_of_order_packets_at_once() {
        let mut r = TcpReceiver::new(Box::new(delayed::Delayed::new(100 * PS_PER_MS, 0)), 3);
        sent(&mut r, 0);
        assert_eq!(sent(&mut r, 1).1, None);
        match r.on_data(data(3)).1 {
            AckAction::SendNow(a) => assert_eq!((a.ack, a.sack.as_slice().to_vec()), (1, vec![(3, 3)])),
            AckAction::StartTimer(_) => panic!("out of order: ACK at once"),
        }
        match r.on_data(data(2)).1 {
            AckAction::SendNow(a) => assert_eq!((a.ack, a.sack.len()), (3, 0)),
            AckAction::StartTimer(_) => panic!("fills a hole: ACK at once"),
        }
    }
}
