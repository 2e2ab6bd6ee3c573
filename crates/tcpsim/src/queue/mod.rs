//! Router queue disciplines.
//!
//! A discipline decides, for each arriving packet, whether it is queued, marked (ECN CE)
//! and queued, or dropped, and which packet leaves next. The link direction that owns it
//! keeps the counters (arrivals, departures, drops by reason, marks, lengths, sojourn), so
//! a discipline contains only its algorithm.

pub mod droptail;
pub mod drr;
pub mod red;
pub mod red_core;

pub use droptail::{DropTail, DropTailParams};
pub use drr::{Drr, DrrParams};
pub use red::{Red, RedParams};

/// The queue of a link that names none (ns-2 `duplex-link ... DropTail`).
pub const DEFAULT_QUEUE: &str = "droptail";

use crate::engine::{Dur, PacketId, PacketKind, SimTime};
use std::collections::VecDeque;

/// What a discipline sees of an arriving packet.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub id: PacketId,
    /// Size on the wire, bytes.
    pub size: u32,
    /// The packet is ECN-capable (ECT(0), ECT(1) or already CE).
    pub ect: bool,
    /// The flow it belongs to (index in the scenario's flows).
    pub flow: u32,
    /// Data, ACK or datagram.
    pub kind: PacketKind,
    /// The node that sent it (index in the scenario's nodes): the flow's source for data
    /// and datagrams, its destination for ACKs. ns-2's IP source address (`saddr()`), by
    /// which its fair queues classify.
    pub source: u32,
    /// The sender's RTT written into the packet (FECN), picoseconds; 0 if none.
    pub rtt_hint: Dur,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The buffer was full.
    Overflow,
    /// An AQM dropped it before the buffer was full.
    Early,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Queued,
    /// Queued with the CE codepoint set.
    Marked,
    /// The arriving packet is dropped (and not queued).
    Dropped(DropReason),
}

/// A queue limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

/// Something a discipline asks the link to do besides its verdict on the arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAction {
    /// Set CE on a packet the queue holds (it must be ECN-capable).
    Mark(PacketId),
    /// A packet the queue held was removed and is dropped (push-out, drop at dequeue).
    Drop(PacketId, DropReason),
    /// Call `on_timer` at this time.
    Timer(SimTime),
}

/// The context of a call into a discipline: the time, and a place for actions.
pub struct QueueCtx<'a> {
    pub now: SimTime,
    actions: &'a mut Vec<QueueAction>,
}

impl<'a> QueueCtx<'a> {
    pub fn new(now: SimTime, actions: &'a mut Vec<QueueAction>) -> Self {
        QueueCtx { now, actions }
    }

    /// Marks (CE) a packet the queue holds.
    pub fn mark(&mut self, id: PacketId) {
        self.actions.push(QueueAction::Mark(id));
    }

    /// Drops a packet the queue held and has removed from its buffer.
    pub fn drop_held(&mut self, id: PacketId, reason: DropReason) {
        self.actions.push(QueueAction::Drop(id, reason));
    }

    /// Asks for `on_timer` at `at` (for example DRED's sampling every Δt).
    pub fn set_timer(&mut self, at: SimTime) {
        self.actions.push(QueueAction::Timer(at.max(self.now)));
    }
}

/// The queue-discipline trait.
pub trait QueueDiscipline {
    /// Name used in result tables ("droptail", "red").
    fn kind(&self) -> &'static str;
    /// Offers an arriving packet.
    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict;
    /// Takes the next packet to transmit. Called each time the link becomes free, also
    /// when the queue is empty (RED starts its idle period then, as in ns-2). A
    /// discipline may drop packets here (`ctx.drop_held`) before choosing one.
    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId>;
    /// Whether `dequeue` on an empty queue changes anything (RED: its idle period
    /// starts). When it does not, the link skips those calls.
    fn observes_empty_dequeue(&self) -> bool {
        true
    }
    /// Waiting packets (not counting the one being transmitted).
    fn len_packets(&self) -> usize;
    /// Waiting bytes.
    fn len_bytes(&self) -> u64;
    /// The AQM's average queue estimate, if it keeps one (RED: packets).
    fn average(&self) -> Option<f64> {
        None
    }
    /// The timer asked for with `ctx.set_timer` fired.
    fn on_timer(&mut self, _ctx: &mut QueueCtx) {}
    /// A flow whose data crosses this queue started (connection-count RED).
    fn on_flow_start(&mut self, _ctx: &mut QueueCtx, _flow: u32) {}
    /// A flow whose data crosses this queue stopped sending.
    fn on_flow_stop(&mut self, _ctx: &mut QueueCtx, _flow: u32) {}
}

/// A FIFO of packet ids with a byte count, shared by the disciplines.
#[derive(Debug, Default)]
pub struct Fifo {
    packets: VecDeque<(PacketId, u32)>,
    bytes: u64,
}

impl Fifo {
    pub fn push(&mut self, id: PacketId, size: u32) {
        self.packets.push_back((id, size));
        self.bytes += size as u64;
    }

    pub fn pop(&mut self) -> Option<PacketId> {
        let (id, size) = self.packets.pop_front()?;
        self.bytes -= size as u64;
        Some(id)
    }

    /// The packet at the head and its size, without removing it.
    pub fn front(&self) -> Option<(PacketId, u32)> {
        self.packets.front().copied()
    }

    /// Removes the packet at the tail (drop from the back).
    pub fn pop_back(&mut self) -> Option<PacketId> {
        let (id, size) = self.packets.pop_back()?;
        self.bytes -= size as u64;
        Some(id)
    }

    /// The packets held, head first, with their sizes.
    pub fn iter(&self) -> impl Iterator<Item = (PacketId, u32)> + '_ {
        self.packets.iter().copied()
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

