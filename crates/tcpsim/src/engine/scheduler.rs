//! The event scheduler: events pop in (time, insertion sequence) order, ties by insertion
//! order, so a run is deterministic. Timers are cancelled lazily: the owner keeps a
//! generation counter and ignores events whose generation is stale.
//!
//! Why a timing wheel. Nearly every event is a link's end of transmission or arrival, a
//! few microseconds to a few tens of milliseconds ahead of the clock, and the clock only
//! moves forward. A binary heap of all pending events moved each 32-byte event through
//! log2(pending) levels at every pop (about 110 instructions per event in B1); a wheel of
//! time slots (a hashed timing wheel: Varghese and Lauck, "Hashed and hierarchical timing
//! wheels", SOSP 1987; ns-2's calendar queue, Brown, CACM 31(10), 1988, is its cousin)
//! files an event under its slot in constant time, and a pop finds the first occupied slot
//! from a bitmap and takes the earliest of the few events there. Events beyond the
//! wheel's horizon when they are scheduled (long timers, the end of a flow) wait in a
//! binary heap, `far`; a pop takes the earlier of the two minima, so there is no horizon
//! to the clock. A radix heap on the 128-bit key and a 4-ary heap were measured too and
//! ran more instructions than the binary heap (docs/performance.md, "Event queue").
//!
//! The order is exactly that of one sorted list on (time, sequence): a slot holds one
//! slot-width of time, so the earliest event is in the first occupied slot at or after
//! the clock's, and is found by comparing whole keys. That covers `schedule_reserved`,
//! which gives an event a tie-order place taken earlier and so can file a key below the
//! last popped one (a zero-length transmission, a link change, an arrival at `now`): it
//! lands in the clock's own slot and pops next, as it would from a heap.

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

/// log2 of a wheel slot's width in picoseconds: 2^22 ps ≈ 4.19 µs. Of 2^18 to 2^24,
/// measured with callgrind (docs/performance.md, "Event queue"), it gives B1 and B2
/// together the fewest instructions since every packet on a wire has an arrival event of
/// its own (2^20 before): wider slots hold more events to compare at each pop, narrower
/// ones put more of them beyond the horizon.
const SLOT_SHIFT: u32 = 22;
/// Slots on the wheel: 4 096 slots of 4.19 µs cover 17.2 ms ahead.
const SLOTS: usize = 4096;
/// Words of the occupied-slot bitmap; one summary word marks the non-empty ones.
const WORDS: usize = SLOTS / 64;
const _: () = assert!(SLOTS % 64 == 0 && WORDS <= 64, "the bitmap's summary is one u64");

/// The wheel slot of time `at`.
fn slot_of(at: SimTime) -> u64 {
    at >> SLOT_SHIFT
}

#[derive(Debug)]
pub struct Scheduler {
    /// `wheel[s % SLOTS]` holds the pending events of slot s, for s in
    /// `cursor .. cursor + SLOTS`, unordered.
    wheel: Vec<Vec<Event>>,
    /// Bit `i % 64` of word `i / 64` set when `wheel[i]` is not empty.
    occupied: [u64; WORDS],
    /// Bit w set when word w of `occupied` is not zero.
    occupied_words: u64,
    /// The slot of the clock: no pending event is earlier.
    cursor: u64,
    /// Events beyond the wheel's horizon when they were scheduled.
    far: BinaryHeap<Event>,
    pending: usize,
    next_seq: u64,
    now: SimTime,
    executed: u64,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler {
            wheel: (0..SLOTS).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            occupied_words: 0,
            cursor: 0,
            far: BinaryHeap::new(),
            pending: 0,
            next_seq: 0,
            now: 0,
            executed: 0,
        }
    }
}

impl Scheduler {
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules `kind` at absolute time `at` (never in the past).
    #[inline]
    pub fn schedule(&mut self, at: SimTime, kind: EventKind) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        self.push(Event { at, seq, kind });
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
    #[inline]
    pub fn schedule_reserved(&mut self, at: SimTime, seq: u64, kind: EventKind) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        self.push(Event { at, seq, kind });
    }

    #[inline(always)]
    fn push(&mut self, ev: Event) {
        self.pending += 1;
        let slot = slot_of(ev.at);
        if slot - self.cursor < SLOTS as u64 {
            let i = slot as usize % SLOTS;
            self.wheel[i].push(ev);
            self.occupied[i / 64] |= 1 << (i % 64);
            self.occupied_words |= 1 << (i / 64);
        } else {
            self.far.push(ev);
        }
    }

    /// Removes every pending event of these kinds and returns them (rare: a link going down
    /// takes back its transmission and arrival events). Linear in the number of pending
    /// events.
    pub fn cancel_where(&mut self, cancelled: impl Fn(&EventKind) -> bool) -> Vec<Event> {
        let mut removed = Vec::new();
        for (i, slot) in self.wheel.iter_mut().enumerate() {
            slot.retain(|e| {
                let cancel = cancelled(&e.kind);
                if cancel {
                    removed.push(*e);
                }
                !cancel
            });
            if slot.is_empty() {
                self.occupied[i / 64] &= !(1 << (i % 64));
            }
        }
        self.occupied_words = 0;
        for (w, word) in self.occupied.iter().enumerate() {
            if *word != 0 {
                self.occupied_words |= 1 << w;
            }
        }
        let (far_removed, far_kept): (Vec<Event>, Vec<Event>) = std::mem::take(&mut self.far).into_vec().into_iter().partition(|e| cancelled(&e.kind));
        self.far = BinaryHeap::from(far_kept);
        removed.extend(far_removed);
        self.pending -= removed.len();
        removed
    }

    /// The first non-empty wheel slot at or after the cursor's, if any.
    #[inline(always)]
    fn first_occupied(&self) -> Option<usize> {
        let start = self.cursor as usize % SLOTS;
        let word = start / 64;
        let here = self.occupied[word] & (!0u64 << (start % 64));
        if here != 0 {
            return Some(word * 64 + here.trailing_zeros() as usize);
        }
        // The words after this one, then (wrapping round) those before it and this one's
        // low bits, which hold the slots at the far end of the horizon.
        let after = self.occupied_words & (!1u64).checked_shl(word as u32).unwrap_or(0);
        let w = if after != 0 { after.trailing_zeros() as usize } else if self.occupied_words != 0 { self.occupied_words.trailing_zeros() as usize } else { return None };
        Some(w * 64 + self.occupied[w].trailing_zeros() as usize)
    }

    /// Pops the next event with time ≤ `until`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, until: SimTime) -> Option<Event> {
        let on_wheel = self.first_occupied().map(|i| {
            let slot = &self.wheel[i];
            let mut min_index = 0;
            let mut min_key = slot[0].key();
            for (j, e) in slot.iter().enumerate().skip(1) {
                if e.key() < min_key {
                    min_index = j;
                    min_key = e.key();
                }
            }
            (i, min_index, min_key)
        });
        let ev = match (on_wheel, self.far.peek()) {
            (Some((i, j, key)), far) if far.map_or(true, |f| key < f.key()) => {
                if self.wheel[i][j].at > until {
                    return None;
                }
                let slot = &mut self.wheel[i];
                let ev = slot.swap_remove(j);
                if slot.is_empty() {
                    self.occupied[i / 64] &= !(1 << (i % 64));
                    if self.occupied[i / 64] == 0 {
                        self.occupied_words &= !(1 << (i / 64));
                    }
                }
                ev
            }
            (_, Some(f)) if f.at <= until => self.far.pop().expect("peeked"),
            _ => return None,
        };
        self.cursor = slot_of(ev.at);
        self.pending -= 1;
        self.now = ev.at;
        self.executed += 1;
        Some(ev)
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
        self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// The time span the wheel covers ahead of its cursor.
    const HORIZON: SimTime = (SLOTS as u64) << SLOT_SHIFT;

    fn drain(s: &mut Scheduler, until: SimTime) -> Vec<(SimTime, u64)> {
        std::iter::from_fn(|| s.pop_until(until)).map(|e| (e.at, e.seq)).collect()
    }

    #[test]
    fn a_reserved_place_below_the_last_popped_key_pops_next() {
        let mut s = Scheduler::default();
        let early = s.reserve(); // seq 0
        s.schedule(10, EventKind::Sample); // seq 1
        s.schedule(10, EventKind::Progress); // seq 2
        s.schedule(11, EventKind::MeasureStart); // seq 3
        assert_eq!(s.pop_until(100).map(|e| e.seq), Some(1));
        // At time 10, after (10, 1) ran: (10, 0) is below the last popped key.
        s.schedule_reserved(10, early, EventKind::FlowStart { flow: 7 });
        assert_eq!(s.pop_until(100).map(|e| (e.at, e.seq, e.kind)), Some((10, 0, EventKind::FlowStart { flow: 7 })));
        assert_eq!(drain(&mut s, 100), vec![(10, 2), (11, 3)]);
    }

    #[test]
    fn timers_beyond_the_horizon_pop_in_order_with_near_events() {
        let mut s = Scheduler::default();
        s.schedule(SimTime::MAX, EventKind::FlowStop { flow: 0 });
        s.schedule(HORIZON * 3 + 5, EventKind::FlowStop { flow: 1 });
        s.schedule(HORIZON + 1, EventKind::FlowStop { flow: 2 });
        s.schedule(HORIZON - 1, EventKind::FlowStop { flow: 3 });
        s.schedule(1, EventKind::FlowStop { flow: 4 });
        assert_eq!(s.pop_until(SimTime::MAX).map(|e| e.at), Some(1));
        // Now within the horizon of the far event at HORIZON + 1, an event just before it.
        s.schedule(HORIZON, EventKind::Sample);
        let order: Vec<_> = std::iter::from_fn(|| s.pop_until(SimTime::MAX)).map(|e| e.at).collect();
        assert_eq!(order, vec![HORIZON - 1, HORIZON, HORIZON + 1, HORIZON * 3 + 5, SimTime::MAX]);
        assert_eq!(s.now(), SimTime::MAX);
        assert_eq!(s.pending(), 0);
    }

    #[test]
    fn the_wheel_wraps_round_in_slot_order() {
        // Events a little less than a horizon apart, so that each lap's slots are reused.
        let mut s = Scheduler::default();
        let step = HORIZON - (1 << SLOT_SHIFT);
        let mut expected = Vec::new();
        for lap in 0..5u64 {
            let at = lap * step + 3;
            s.schedule(at, EventKind::Sample);
            s.schedule(at + 1, EventKind::Progress);
            expected.extend([at, at + 1]);
            let popped: Vec<_> = drain(&mut s, at + 1).into_iter().map(|(at, _)| at).collect();
            assert_eq!(popped, vec![at, at + 1]);
        }
        assert_eq!(s.events_executed(), expected.len() as u64);
    }

    #[test]
    fn slots_past_the_end_of_the_bitmap_come_after_those_before_it() {
        // The clock in slot 3000: slot 3500 sits further along the bitmap, slot
        // SLOTS + 100 wraps round to its start, and comes later.
        let slot = 1u64 << SLOT_SHIFT;
        let mut s = Scheduler::default();
        s.schedule(3000 * slot, EventKind::Sample);
        assert_eq!(s.pop_until(SimTime::MAX).map(|e| e.at), Some(3000 * slot));
        s.schedule((SLOTS as u64 + 100) * slot, EventKind::Progress);
        s.schedule(3500 * slot, EventKind::MeasureStart);
        let order: Vec<_> = drain(&mut s, SimTime::MAX).into_iter().map(|(at, _)| at / slot).collect();
        assert_eq!(order, vec![3500, SLOTS as u64 + 100]);
    }

    #[test]
    fn pop_until_leaves_later_events_on_the_wheel_and_far_away() {
        let mut s = Scheduler::default();
        s.schedule(50, EventKind::Sample);
        s.schedule(HORIZON * 2, EventKind::Progress);
        assert!(s.pop_until(49).is_none());
        assert_eq!(s.now(), 0);
        assert_eq!(s.pop_until(50).map(|e| e.at), Some(50));
        assert!(s.pop_until(HORIZON * 2 - 1).is_none());
        assert_eq!(s.pending(), 1);
        assert_eq!(s.pop_until(HORIZON * 2).map(|e| e.at), Some(HORIZON * 2));
        assert!(s.pop_until(SimTime::MAX).is_none());
    }

    #[test]
    fn cancel_where_takes_events_from_the_wheel_and_far_away() {
        let mut s = Scheduler::default();
        s.schedule(5, EventKind::Arrive { link: 1, packet: 0 });
        s.schedule(5, EventKind::Arrive { link: 2, packet: 0 });
        s.schedule(HORIZON * 4, EventKind::Arrive { link: 1, packet: 0 });
        s.schedule(7, EventKind::TransmitDone { link: 1 });
        let mut removed: Vec<_> = s.cancel_where(|k| matches!(*k, EventKind::Arrive { link: 1, .. })).into_iter().map(|e| (e.at, e.seq)).collect();
        removed.sort_unstable();
        assert_eq!(removed, vec![(5, 0), (HORIZON * 4, 2)]);
        assert_eq!(s.pending(), 2);
        assert_eq!(drain(&mut s, SimTime::MAX), vec![(5, 1), (7, 3)]);
    }

    /// The order every scheduler must give: one sorted list on (time, sequence).
    #[derive(Default)]
    struct Reference {
        events: Vec<Event>,
        now: SimTime,
    }

    impl Reference {
        fn pop_until(&mut self, until: SimTime) -> Option<Event> {
            let (i, _) = self.events.iter().enumerate().min_by_key(|(_, e)| e.key())?;
            if self.events[i].at > until {
                return None;
            }
            let ev = self.events.remove(i);
            self.now = ev.at;
            Some(ev)
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// Schedule this far after `now`, on link `link`.
        Schedule { after: SimTime, link: u32 },
        /// Take a place in the tie order for later.
        Reserve,
        /// Schedule with the oldest unused reserved place (if any), this far after `now`.
        ScheduleReserved { after: SimTime, link: u32 },
        /// Pop events up to this far after `now`.
        PopUntil { after: SimTime },
        /// Cancel a link's events.
        Cancel { link: u32 },
    }

    /// Time offsets at every scale: ties at `now`, within a slot, across the wheel, past
    /// its horizon and to the end of the clock.
    fn offset() -> impl Strategy<Value = SimTime> {
        prop_oneof![
            Just(0),
            0..(1u64 << SLOT_SHIFT),
            0..HORIZON,
            HORIZON - 2..HORIZON + 2,
            0..HORIZON * 10,
            Just(SimTime::MAX),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (offset(), 0..4u32).prop_map(|(after, link)| Op::Schedule { after, link }),
            2 => Just(Op::Reserve),
            2 => (offset(), 0..4u32).prop_map(|(after, link)| Op::ScheduleReserved { after, link }),
            3 => offset().prop_map(|after| Op::PopUntil { after }),
            1 => (0..4u32).prop_map(|link| Op::Cancel { link }),
        ]
    }

    proptest! {
        #[test]
        fn pops_match_one_sorted_list(ops in proptest::collection::vec(op(), 1..300)) {
            let mut s = Scheduler::default();
            let mut r = Reference::default();
            let mut reserved = std::collections::VecDeque::new();
            for op in ops {
                let now = s.now();
                match op {
                    Op::Schedule { after, link } => {
                        let at = now.saturating_add(after);
                        s.schedule(at, EventKind::Arrive { link, packet: 0 });
                        r.events.push(Event { at, seq: s.next_seq - 1, kind: EventKind::Arrive { link, packet: 0 } });
                    }
                    Op::Reserve => reserved.push_back(s.reserve()),
                    Op::ScheduleReserved { after, link } => {
                        if let Some(seq) = reserved.pop_front() {
                            let at = now.saturating_add(after);
                            s.schedule_reserved(at, seq, EventKind::TransmitDone { link });
                            r.events.push(Event { at, seq, kind: EventKind::TransmitDone { link } });
                        }
                    }
                    Op::PopUntil { after } => {
                        let until = now.saturating_add(after);
                        loop {
                            let (got, want) = (s.pop_until(until), r.pop_until(until));
                            prop_assert_eq!(got.map(|e| (e.at, e.seq, e.kind)), want.map(|e| (e.at, e.seq, e.kind)));
                            if got.is_none() {
                                break;
                            }
                        }
                        prop_assert_eq!(s.now(), r.now);
                    }
                    Op::Cancel { link } => {
                        let on_link = |k: &EventKind| matches!(*k, EventKind::Arrive { link: l, .. } | EventKind::TransmitDone { link: l } if l == link);
                        let mut got: Vec<_> = s.cancel_where(on_link).into_iter().map(|e| (e.at, e.seq)).collect();
                        let mut want: Vec<_> = r.events.iter().filter(|e| on_link(&e.kind)).map(|e| (e.at, e.seq)).collect();
                        r.events.retain(|e| !on_link(&e.kind));
                        got.sort_unstable();
                        want.sort_unstable();
                        prop_assert_eq!(got, want);
                    }
                }
                prop_assert_eq!(s.pending(), r.events.len());
            }
            let rest: Vec<_> = std::iter::from_fn(|| s.pop_until(SimTime::MAX)).map(|e| (e.at, e.seq)).collect();
            let want: Vec<_> = std::iter::from_fn(|| r.pop_until(SimTime::MAX)).map(|e| (e.at, e.seq)).collect();
            prop_assert_eq!(rest, want);
        }
    }

}
