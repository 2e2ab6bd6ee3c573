//! One direction of a duplex point-to-point link: a queue, a transmitter of fixed rate,
//! and a propagation delay.
//!
//! A packet leaves the queue when the transmitter is free, occupies it for
//! size · 8 / rate, then travels `delay` to the far end (ns-2 `LinkDelay`: the queue
//! resumes after the transmission time, the packet arrives after transmission + delay).
//! Each packet on the wire has its own arrival event, scheduled when its transmission
//! starts (as ns-2's `LinkDelay` does); the link keeps no list of them. The end of a
//! transmission needs an event only
//! when a packet is waiting for the transmitter; otherwise the link just records when it
//! becomes free and, like ns-2, tells the queue it found nothing to send at that moment
//! when the next packet comes (RED's idle period starts then). The link keeps the queue's
//! counters, so every discipline is measured the same way.

use super::error::ErrorModel;
use crate::engine::{Dur, RandomStream, SimTime};
use crate::queue::QueueDiscipline;

/// Counters of a link direction and its queue, as the report reads them (a copy taken
/// with `LinkCounters::stats`).
#[derive(Debug, Clone, Default)]
pub struct LinkStats {
    /// Packets offered to the queue.
    pub arrivals: u64,
    /// Packets that left the queue for the transmitter.
    pub departures: u64,
    pub early_drops: u64,
    pub overflow_drops: u64,
    pub marks: u64,
    /// ∫ waiting packets dt, in packet·picoseconds (exact; converting to floating point
    /// per change costs more than the rest of the accounting).
    pub length_area: u128,
    pub last_change: SimTime,
    /// Waiting packets since `last_change`.
    pub length_now: u32,
    pub max_length: u32,
    /// Sum of queueing delays of departed packets, picoseconds (exact).
    pub sojourn_sum: u128,
    pub bytes_sent: u64,
    /// Transmitter busy time, picoseconds (clipped at the end of the run).
    pub busy_time: Dur,
    /// Packets lost by the link's error model.
    pub error_drops: u64,
    /// Packets dropped because the link was down: arriving while it was down, or waiting
    /// in its queue, being sent or propagating when it went down (`[[event]]`).
    pub down_drops: u64,
}

/// The counters a link direction keeps while the simulation runs: those every packet
/// moves inline, the drops and marks (which most links of a large network never see) in
/// a box made at the first one. A million flows own four million link directions
/// (issue 22), so every byte here counts four times per flow.
#[derive(Debug, Clone, Default)]
pub struct LinkCounters {
    /// Packets offered to the queue.
    pub arrivals: u64,
    /// Packets that left the queue for the transmitter.
    pub departures: u64,
    /// ∫ waiting packets dt, in packet·picoseconds.
    pub length_area: ExactSum,
    pub last_change: SimTime,
    /// Waiting packets since `last_change` (kept here so accounting needs no call into
    /// the queue).
    pub length_now: u32,
    pub max_length: u32,
    /// Sum of queueing delays of departed packets, picoseconds.
    pub sojourn_sum: ExactSum,
    pub bytes_sent: u64,
    /// Transmitter busy time, picoseconds (clipped at the end of the run).
    pub busy_time: Dur,
    /// Drops and marks, once there is one.
    losses: Option<Box<LossCounters>>,
}

/// The drops and marks of a link direction and its queue (`LinkStats` has each).
#[derive(Debug, Clone, Copy, Default)]
pub struct LossCounters {
    pub early_drops: u64,
    pub overflow_drops: u64,
    pub marks: u64,
    pub error_drops: u64,
    pub down_drops: u64,
}

impl LinkCounters {
    /// The drops and marks so far (all zero before the first).
    pub fn losses(&self) -> LossCounters {
        self.losses.as_deref().copied().unwrap_or_default()
    }

    /// The drops and marks, to count one more.
    #[inline]
    pub fn losses_mut(&mut self) -> &mut LossCounters {
        if self.losses.is_none() {
            self.make_losses();
        }
        self.losses.as_mut().expect("made above")
    }

    #[cold]
    #[inline(never)]
    fn make_losses(&mut self) {
        self.losses = Some(Box::default());
    }

    /// All the counters, as the report reads them.
    pub fn stats(&self) -> LinkStats {
        let losses = self.losses();
        LinkStats {
            arrivals: self.arrivals,
            departures: self.departures,
            early_drops: losses.early_drops,
            overflow_drops: losses.overflow_drops,
            marks: losses.marks,
            length_area: self.length_area.get(),
            last_change: self.last_change,
            length_now: self.length_now,
            max_length: self.max_length,
            sojourn_sum: self.sojourn_sum.get(),
            bytes_sent: self.bytes_sent,
            busy_time: self.busy_time,
            error_drops: losses.error_drops,
            down_drops: losses.down_drops,
        }
    }
}

/// An exact `u128` sum held as two `u64` halves: the same integer, but needing only
/// 8-byte alignment (a `u128` field gives the struct around it 16-byte alignment and
/// the padding that comes with it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExactSum {
    low: u64,
    high: u64,
}

impl ExactSum {
    #[inline]
    pub fn get(self) -> u128 {
        (self.high as u128) << 64 | self.low as u128
    }

    #[inline]
    pub fn add(&mut self, amount: u128) {
        let sum = self.get() + amount;
        (self.low, self.high) = (sum as u64, (sum >> 64) as u64);
    }
}

/// A link direction's error model and its own random stream.
pub struct LinkErrors {
    pub model: Box<dyn ErrorModel>,
    pub random: RandomStream,
}

/// What a packet meets at a link direction before its queue, on the links that have
/// anything there: the link being down (ns-2's `DynamicLink`, which ns-2 puts at the
/// head of a link that `rtmodel` changes) and the error model (ns-2's `lossmodel`). A
/// link with neither has no head, so its packets pay one pointer test.
#[derive(Default)]
pub struct LinkHead {
    pub down: bool,
    pub errors: Option<LinkErrors>,
}

pub struct LinkDirection {
    /// The nodes at its two ends (indices into the scenario's nodes; u32 as elsewhere in
    /// the simulation, e.g. `Flow::src_node`).
    pub from: u32,
    pub to: u32,
    /// Transmission rate, bits per second (change it with `set_rate`).
    pub rate_bps: u64,
    /// The last packet size serialized and its transmission time at `rate_bps` (packets
    /// of a flow mostly have one size: the division is done once per size change). Two
    /// fields rather than a tuple, so the size shares 8 bytes with another u32.
    last_size: u32,
    last_transmission_time: Dur,
    pub delay: Dur,
    pub queue: Box<dyn QueueDiscipline>,
    /// When the transmitter finishes its current packet.
    pub busy_until: SimTime,
    /// A `TransmitDone` event is scheduled at `busy_until`.
    pub done_event_pending: bool,
    /// The transmitter went free at `busy_until` with an empty queue and the queue has
    /// not yet been asked for a packet at that time.
    pub owes_empty_dequeue: bool,
    /// The queue wants that call (`QueueDiscipline::observes_empty_dequeue`).
    pub empty_dequeue_matters: bool,
    /// Packets up to this size skip the queue when it is empty and the transmitter free
    /// (`QueueDiscipline::passes_when_empty`).
    pub passes_when_empty: u32,
    /// The link's head, if it has an error model or is down.
    pub head: Option<Box<LinkHead>>,
    /// Tie-order place of the end of the current transmission, taken when it started.
    pub done_seq: u64,
    pub stats: LinkCounters,
}

impl LinkDirection {
    pub fn new(from: u32, to: u32, rate_bps: u64, delay: Dur, queue: Box<dyn QueueDiscipline>) -> Self {
        LinkDirection {
            from,
            to,
            rate_bps,
            last_size: 0,
            last_transmission_time: 0,
            delay,
            empty_dequeue_matters: queue.observes_empty_dequeue(),
            passes_when_empty: queue.passes_when_empty(),
            queue,
            busy_until: 0,
            done_seq: 0,
            done_event_pending: false,
            owes_empty_dequeue: false,
            head: None,
            stats: LinkCounters::default(),
        }
    }

    /// How long serializing `size` bytes takes (`time::transmission_time`).
    #[inline]
    pub fn transmission_time(&mut self, size: u32) -> Dur {
        if self.last_size != size {
            self.last_size = size;
            self.last_transmission_time = crate::engine::time::transmission_time(size as u64, self.rate_bps);
        }
        self.last_transmission_time
    }

    /// Changes the transmission rate (a link change of the scenario).
    pub fn set_rate(&mut self, rate_bps: u64) {
        self.rate_bps = rate_bps;
        (self.last_size, self.last_transmission_time) = (0, 0);
    }

    /// The transmitter is free and nothing is scheduled to take the next packet.
    pub fn idle(&self, now: SimTime) -> bool {
        !self.done_event_pending && now >= self.busy_until
    }

    /// Whether the link direction is down (`[[event]]` with action "down").
    pub fn is_down(&self) -> bool {
        self.head.as_ref().is_some_and(|h| h.down)
    }

    /// Accumulates the queue-length integral up to `now`; call before the length changes.
    pub fn account_length(&mut self, now: SimTime) {
        let s = &mut self.stats;
        s.length_area.add(s.length_now as u128 * (now - s.last_change) as u128);
        s.last_change = now;
    }

    /// Records the queue's length after it may have changed (and the maximum); call
    /// after every call into the queue that can add or remove packets.
    pub fn note_length(&mut self) -> usize {
        let s = &mut self.stats;
        s.length_now = self.queue.len_packets() as u32;
        s.max_length = s.max_length.max(s.length_now);
        s.length_now as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::droptail::DropTail;

    #[test]
    fn transmission_time_follows_size_and_rate_changes() {
        let queue = Box::new(DropTail::new(Default::default()));
        let mut l = LinkDirection::new(0, 1, 1_500_000, 0, queue);
        assert_eq!(l.transmission_time(1040), 5_546_666_667);
        assert_eq!(l.transmission_time(40), crate::engine::time::transmission_time(40, 1_500_000));
        assert_eq!(l.transmission_time(1040), 5_546_666_667);
        l.set_rate(3_000_000);
        assert_eq!(l.transmission_time(1040), 2_773_333_333);
        assert_eq!(l.transmission_time(0), 0);
    }

    #[test]
    fn exact_sum_carries_into_its_high_half() {
        let mut sum = ExactSum::default();
        sum.add(u64::MAX as u128);
        sum.add(3);
        assert_eq!(sum.get(), u64::MAX as u128 + 3);
        sum.add(u128::MAX / 4);
        assert_eq!(sum.get(), u64::MAX as u128 + 3 + u128::MAX / 4);
    }

    #[test]
    fn losses_are_zero_until_the_first_and_reach_the_stats() {
        let mut counters = LinkCounters::default();
        assert_eq!(counters.stats().early_drops, 0);
        assert!(counters.losses.is_none(), "no box before the first drop or mark");
        counters.losses_mut().early_drops += 2;
        counters.losses_mut().marks += 1;
        counters.losses_mut().down_drops += 4;
        counters.sojourn_sum.add(7);
        let stats = counters.stats();
        assert_eq!((stats.early_drops, stats.overflow_drops, stats.marks, stats.error_drops, stats.down_drops), (2, 0, 1, 0, 4));
        assert_eq!(stats.sojourn_sum, 7);
    }
}
