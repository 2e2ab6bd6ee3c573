//! Router queue disciplines.
//!
//! A discipline decides, for each arriving packet, whether it is queued, marked (ECN CE)
//! and queued, or dropped, and which packet leaves next. The link direction that owns it
//! keeps the counters (arrivals, departures, drops by reason, marks, lengths, sojourn), so
//! a discipline contains only its algorithm.

pub mod ce_fifo;
pub mod codel;
pub mod codel_core;
pub mod dred;
pub mod dred_core;
pub mod ecn_dred;
pub mod droptail;
pub mod drr;
pub mod ecn_red;
pub mod fq_codel;
pub mod fecn_red;
pub mod mecn_red;
pub mod mffecn_red;
pub mod pie;
pub mod red;
pub mod red_core;
pub mod red_n;
pub mod red_params;
pub mod sred_estimator;

pub use ce_fifo::CeFifo;
pub use droptail::{DropTail, DropTailParams};
pub use drr::{Drr, DrrParams};
pub use red::{Red, RedParams};
pub use red_n::{RedN, RedNParams};

use crate::engine::{Dur, Ecn, PacketId, PacketKind, RandomStream, SimTime};
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec};

/// A queue discipline as the catalogue lists it: its spec, how a configuration of it
/// is typed, and the series it samples.
pub struct QueueModel {
    pub spec: &'static ModelSpec,
    /// The typed form of a configuration (which `spec.check` has accepted), made once
    /// when the scenario loads; the link is checked against it and built from it.
    pub configure: fn(&ModelConfig) -> Arc<dyn QueueConfig>,
    /// The variables a queue of this model adds to the time series of a monitored queue
    /// (`QueueDiscipline::sample`), e.g. RED's average; the run's cost counts them.
    pub series: &'static [&'static str],
}

/// A queue's parameters in their typed form: what the link direction it feeds is checked
/// against when the scenario loads, and what the queue is built from.
pub trait QueueConfig: std::fmt::Debug + Send + Sync {
    /// Checks the queue against the link direction it feeds: that its limit can hold the
    /// largest packet of the scenario, and whatever else depends on the link (RED's
    /// automatic thresholds); returns what was expected.
    fn check_link(&self, link: &QueueLink) -> Result<(), String>;
    /// A queue for the link direction `env` describes.
    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline>;
    /// Its buffer limit, if it has one (the cost estimate bounds the packets it holds).
    fn limit(&self) -> Option<Limit>;
}

impl FamilyModel for QueueModel {
    const FAMILY: Family = Family::Queue;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

impl Chosen<QueueModel> {
    /// The typed form of this configuration (`QueueModel::configure`).
    pub fn configure(&self) -> Arc<dyn QueueConfig> {
        (self.model.configure)(&self.config)
    }
}

/// The link direction a queue feeds, as its model sees it when it is checked and built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueueLink {
    /// Rate, bits per second.
    pub rate_bps: u64,
    /// Propagation delay (RED's automatic weight reads it, as ns-2's `$q link` does).
    pub delay: Dur,
    /// The largest packet any flow of the scenario sends, bytes.
    pub largest_packet: u32,
}

/// What building a queue discipline needs besides its parameters.
pub struct QueueEnv {
    /// Rate of the link direction the queue feeds, bits per second.
    pub rate_bps: u64,
    /// Propagation delay of that link direction.
    pub delay: Dur,
    /// The queue's own random stream.
    pub random: RandomStream,
}
use std::collections::VecDeque;
use std::sync::Arc;

/// What a discipline sees of an arriving packet.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub id: PacketId,
    /// Size on the wire, bytes.
    pub size: u32,
    /// The packet's ECN codepoint as it arrives (`ect()`, `ce()`).
    pub ecn: Ecn,
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

impl Arrival {
    /// The packet is ECN-capable (ECT(0), ECT(1) or already CE): it may be marked.
    pub fn ect(&self) -> bool {
        self.ecn.capable()
    }

    /// The packet arrives already CE-marked (an earlier hop marked it): a queue that
    /// counts the CE-marked packets it holds (`CeFifo`) counts it from its arrival on.
    pub fn ce(&self) -> bool {
        self.ecn == Ecn::Ce
    }
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

pub use crate::units::Limit;

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
    /// The largest packet, in bytes, that arriving while the discipline holds nothing
    /// and the transmitter is free is always accepted and taken at once, leaving the
    /// discipline as it was: the link then passes it to the transmitter without calling
    /// `enqueue` and `dequeue` (most packets on an uncongested access link). 0, the
    /// default: every packet goes through both calls.
    fn passes_when_empty(&self) -> u32 {
        0
    }
    /// Waiting packets (not counting the one being transmitted).
    fn len_packets(&self) -> usize;
    /// Waiting bytes.
    fn len_bytes(&self) -> u64;
    /// Adds the discipline's own variables to a time-series sample (`push(name, value)`),
    /// exactly the series its model declares (`QueueModel::series`); the link adds the
    /// length, counters and utilization of every queue.
    fn sample(&self, _push: &mut dyn FnMut(&'static str, f64)) {}
    /// The timer asked for with `ctx.set_timer` fired.
    fn on_timer(&mut self, _ctx: &mut QueueCtx) {}
    /// A flow whose data crosses this queue started (connection-count RED).
    fn on_flow_start(&mut self, _ctx: &mut QueueCtx, _flow: u32) {}
    /// A flow whose data crosses this queue stopped sending.
    fn on_flow_stop(&mut self, _ctx: &mut QueueCtx, _flow: u32) {}
}

/// The `QueueDiscipline` methods of a discipline that keeps its packets in one FIFO (a
/// field `fifo` with `len()` and `bytes()`) and whose dequeue of an empty queue changes
/// nothing, so the link may skip it: written once for drop-tail, DRED, ECN over DRED,
/// CoDel and PIE.
macro_rules! fifo_queue_methods {
    () => {
        fn observes_empty_dequeue(&self) -> bool {
            false
        }

        fn len_packets(&self) -> usize {
            self.fifo.len()
        }

        fn len_bytes(&self) -> u64 {
            self.fifo.bytes()
        }
    };
}
pub(crate) use fifo_queue_methods;

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

/// A packet a [`TimedFifo`] holds: its id, size and when it was queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    pub id: PacketId,
    /// Size on the wire, bytes.
    pub size: u32,
    /// When it entered the queue.
    pub enqueued_at: SimTime,
}

/// A [`Fifo`] that also keeps when each packet was queued: what the sojourn-based AQMs
/// (CoDel, PIE, FQ-CoDel's queues) read at dequeue. Kept apart from `Fifo` so that the
/// disciplines that do not need the times do not pay for them on every packet.
#[derive(Debug, Default)]
pub struct TimedFifo {
    fifo: Fifo,
    times: VecDeque<SimTime>,
}

impl TimedFifo {
    /// Queues packet `id` of `size` bytes at time `now`.
    pub fn push(&mut self, id: PacketId, size: u32, now: SimTime) {
        self.fifo.push(id, size);
        self.times.push_back(now);
    }

    /// Removes the packet at the head, with its size and enqueue time.
    pub fn pop(&mut self) -> Option<Queued> {
        let (id, size) = self.fifo.front()?;
        self.fifo.pop();
        let enqueued_at = self.times.pop_front().expect("one time per packet");
        Some(Queued { id, size, enqueued_at })
    }

    /// The packet at the head, without removing it.
    pub fn head(&self) -> Option<Queued> {
        let (id, size) = self.fifo.front()?;
        Some(Queued { id, size, enqueued_at: *self.times.front().expect("one time per packet") })
    }

    /// Removes the packet at the tail (drop from the back).
    pub fn pop_back(&mut self) -> Option<PacketId> {
        self.times.pop_back();
        self.fifo.pop_back()
    }

    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.fifo.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::{Fifo, TimedFifo};

    #[test]
    fn the_fifo_keeps_order_and_bytes() {
        let mut f = Fifo::default();
        f.push(7, 1000);
        f.push(8, 40);
        assert_eq!((f.len(), f.bytes()), (2, 1040));
        assert_eq!(f.pop(), Some(7));
        assert_eq!(f.front(), Some((8, 40)));
        assert_eq!(f.pop_back(), Some(8));
        assert!(f.is_empty() && f.bytes() == 0);
    }

    #[test]
    fn the_timed_fifo_keeps_each_packets_enqueue_time() {
        let mut f = TimedFifo::default();
        f.push(7, 1000, 5);
        f.push(8, 40, 9);
        f.push(9, 40, 12);
        assert_eq!((f.len(), f.bytes()), (3, 1080));
        assert_eq!(f.head().map(|q| q.enqueued_at), Some(5));
        let first = f.pop().expect("a packet");
        assert_eq!((first.id, first.size, first.enqueued_at), (7, 1000, 5));
        assert_eq!(f.pop_back(), Some(9));
        assert_eq!(f.head().map(|q| (q.id, q.enqueued_at)), Some((8, 9)));
        assert_eq!(f.pop().map(|q| q.enqueued_at), Some(9));
        assert!(f.is_empty() && f.bytes() == 0 && f.pop().is_none());
    }
}
