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

/// Counters of a link direction and its queue.
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
    /// Waiting packets since `last_change` (kept here so accounting needs no call into
    /// the queue).
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
    pub from: usize,
    pub to: usize,
    /// Transmission rate, bits per second (change it with `set_rate`).
    pub rate_bps: u64,
    /// The last packet size serialized and its transmission time at `rate_bps` (packets
    /// of a flow mostly have one size: the division is done once per size change).
    last_transmission: (u32, Dur),
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
    pub stats: LinkStats,
}

impl LinkDirection {
    pub fn new(from: usize, to: usize, rate_bps: u64, delay: Dur, queue: Box<dyn QueueDiscipline>) -> Self {
        LinkDirection {
            from,
            to,
            rate_bps,
            last_transmission: (0, 0),
            delay,
            empty_dequeue_matters: queue.observes_empty_dequeue(),
            passes_when_empty: queue.passes_when_empty(),
            queue,
            busy_until: 0,
            done_seq: 0,
            done_event_pending: false,
            owes_empty_dequeue: false,
            head: None,
            stats: LinkStats::default(),
        }
    }

    /// How long serializing `size` bytes takes (`time::transmission_time`).
    #[inline]
    pub fn transmission_time(&mut self, size: u32) -> Dur {
        if self.last_transmission.0 != size {
            self.last_transmission = (size, crate::engine::time::transmission_time(size as u64, self.rate_bps));
        }
        self.last_transmission.1
    }

    /// Changes the transmission rate (a link change of the scenario).
    pub fn set_rate(&mut self, rate_bps: u64) {
        self.rate_bps = rate_bps;
        self.last_transmission = (0, 0);
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
        s.length_area += s.length_now as u128 * (now - s.last_change) as u128;
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
}
