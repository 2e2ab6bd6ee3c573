//! The event scheduler: a binary heap ordered by (time, insertion sequence).
//!
//! Ties break by insertion order, so a run is deterministic. Timers are cancelled lazily:
//! the owner keeps a generation counter and ignores events whose generation is stale.

use super::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens when an event fires. Small and `Copy`; the target is an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A link direction finished serializing its current packet.
    TransmitDone { link: u32 },
    /// A packet reaches the far end of a link direction.
    Arrive { link: u32, packet: u32 },
    /// A timer an agent asked for: `timer` and `generation` are the agent's own and are
    /// passed back to it unchanged (see `agent::AgentCtx::set_timer`).
    AgentTimer { agent: u32, timer: u32, generation: u32 },
    /// A flow's application starts sending.
    FlowStart { flow: u32 },
    /// A flow's application stops sending.
    FlowStop { flow: u32 },
    /// A queue discipline's own timer.
    QueueTimer { link: u32 },
    /// Take one time-series sample.
    Sample,
    /// Report progress to the caller.
    Progress,
    /// The measurement window opens (`measure_from`).
    MeasureStart,
    /// A scenario's `[[event]]` changes a link (index into the scenario's events).
    LinkChange { event: u32 },
}

#[derive(Debug, Clone, Copy)]
pub struct Event {
    pub at: SimTime,
    pub seq: u64,
    pub kind: EventKind,
}

impl Event {
    /// Time, then tie order, as one number: one comparison instead of two.
    #[inline(always)]
    fn key(&self) -> u128 {
        (self.at as u128) << 64 | self.seq as u128
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    // Reversed so that the max-heap pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

#[derive(Debug, Default)]
pub struct Scheduler {
    heap: BinaryHeap<Event>,
    next_seq: u64,
    now: SimTime,
    executed: u64,
}

impl Scheduler {
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules `kind` at absolute time `at` (never in the past).
    pub fn schedule(&mut self, at: SimTime, kind: EventKind) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Event { at, seq, kind });
    }

    /// Takes a place in the tie order now, for an event that will be scheduled later
    /// (see `schedule_reserved`).
    pub fn reserve(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Schedules `kind` at `at` with a tie-order place taken earlier by `reserve`, so it
    /// runs among same-time events as if it had been scheduled when the place was taken.
    pub fn schedule_reserved(&mut self, at: SimTime, seq: u64, kind: EventKind) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        self.heap.push(Event { at, seq, kind });
    }

    /// Removes every pending event of these kinds and returns them (rare: a link going down
    /// takes back its transmission and arrival events). Linear in the number of pending
    /// events.
    pub fn cancel_where(&mut self, cancelled: impl Fn(&EventKind) -> bool) -> Vec<Event> {
        let (removed, kept): (Vec<Event>, Vec<Event>) = std::mem::take(&mut self.heap).into_vec().into_iter().partition(|e| cancelled(&e.kind));
        self.heap = BinaryHeap::from(kept);
        removed
    }

    /// Pops the next event with time ≤ `until`, advancing the clock to it.
    pub fn pop_until(&mut self, until: SimTime) -> Option<Event> {
        match self.heap.peek() {
            Some(ev) if ev.at <= until => {
                let ev = self.heap.pop().expect("peeked");
                self.now = ev.at;
                self.executed += 1;
                Some(ev)
            }
            _ => None,
        }
    }

    /// Moves the clock to `t` (used at the end of a run).
    pub fn advance_to(&mut self, t: SimTime) {
        if t > self.now {
            self.now = t;
        }
    }

    pub fn events_executed(&self) -> u64 {
        self.executed
    }

    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order_and_ties_in_insertion_order() {
        let mut s = Scheduler::default();
        s.schedule(20, EventKind::Sample);
        s.schedule(10, EventKind::FlowStart { flow: 1 });
        s.schedule(10, EventKind::FlowStart { flow: 2 });
        s.schedule(10, EventKind::FlowStart { flow: 3 });
        let order: Vec<_> = std::iter::from_fn(|| s.pop_until(100)).map(|e| e.kind).collect();
        assert_eq!(
            order,
            vec![
                EventKind::FlowStart { flow: 1 },
                EventKind::FlowStart { flow: 2 },
                EventKind::FlowStart { flow: 3 },
                EventKind::Sample
            ]
        );
        assert_eq!(s.now(), 20);
    }

    #[test]
    fn reserved_places_keep_their_tie_order() {
        let mut s = Scheduler::default();
        let early = s.reserve();
        s.schedule(10, EventKind::FlowStart { flow: 2 });
        s.schedule_reserved(10, early, EventKind::FlowStart { flow: 1 });
        assert_eq!(s.pop_until(10).map(|e| e.kind), Some(EventKind::FlowStart { flow: 1 }));
        assert_eq!(s.pop_until(10).map(|e| e.kind), Some(EventKind::FlowStart { flow: 2 }));
    }

    #[test]
    fn pop_until_leaves_later_events() {
        let mut s = Scheduler::default();
        s.schedule(50, EventKind::Sample);
        assert!(s.pop_until(49).is_none());
        assert!(s.pop_until(50).is_some());
    }
}
