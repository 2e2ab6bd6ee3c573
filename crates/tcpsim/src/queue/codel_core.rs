//! CoDel's state machine, shared by the `codel` queue and each flow queue of `fq_codel`.
//!
//! K. Nichols, V. Jacobson, A. McGregor and J. Iyengar, "Controlled Delay Active Queue
//! Management", RFC 8289, 2018: §3.3 (the control loop: the next drop at
//! t + interval/√count), §4.1 (no drop with less than an MTU queued), §4.2–4.3 (interval
//! and target), §5 (the pseudocode: `dodequeue`, `dequeue`, the re-entry rule with
//! `count − lastcount`). ECN marking as Linux `include/net/codel_impl.h` and ns-3
//! `CoDelQueueDisc` do it: a mark takes the place of a drop and ends the dropping loop,
//! the marked packet leaving.
//!
//! At each dequeue, with the packet's sojourn time s and the bytes B left behind it:
//! - s < `target` or B ≤ `mtu`: the queue is fine (`first_above_time` cleared);
//! - else the first time: `first_above_time` = now + `interval`; once now ≥ it: ok to drop.
//! Not dropping, ok to drop: drop (or mark) and enter the dropping state; count = 1, or
//! count − lastcount when that is > 1 and now − drop_next < 16 · interval (re-entry soon
//! after leaving keeps the drop rate that last controlled the queue); drop_next =
//! now + interval/√count. Dropping: leave when not ok to drop; else while now ≥
//! drop_next drop (or mark) and take the next packet, count + 1, drop_next =
//! drop_next + interval/√count. An empty queue leaves the dropping state.
//!
//! Choices: interval/√count is computed exactly (f64, rounded to the picosecond), where
//! Linux and ns-3 keep 1/√count by a Newton step in 32-bit fixed point; the times are
//! exact picoseconds where Linux counts in units of 1.024 µs. Parameters (`CodelParams`):
//! `target` 5 ms, `interval` 100 ms, `mtu` 1500 B, `ecn` (each queue model its default).

use super::{DropReason, QueueCtx};
use crate::engine::{Dur, PacketId, SimTime};
use crate::model::{ModelConfig, Param, ParamType as T, Value as V};
use std::collections::VecDeque;

const RFC: &str = "RFC 8289 §4.2, §4.3; ns-3 CoDelQueueDisc and Linux sch_codel default";

pub(crate) const TARGET: Param = Param::new("target", T::Time, "s", V::Time(5_000_000_000), "acceptable standing queue delay: a sojourn below it resets the interval", RFC).range(1e-9, 1e6);
pub(crate) const INTERVAL: Param = Param::new(
    "interval",
    T::Time,
    "s",
    V::Time(100_000_000_000),
    "how long the sojourn must stay at or above target before the first drop, and the base of the control law interval/√count",
    RFC,
)
.range(1e-9, 1e6);
pub(crate) const MTU: Param = Param::new(
    "mtu",
    T::Size,
    "B",
    V::Size(1500),
    "no drop while the queue holds at most this many bytes after the dequeue (RFC 8289 maxpacket)",
    "RFC 8289 §4.1, §5 (maxpacket); ns-3 CoDelQueueDisc MinBytes 1500; Linux the device MTU",
)
.range(0.0, 4294967295.0);

/// The CoDel parameters both queue models share (`ecn` is declared by each model, whose
/// defaults differ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CodelParams {
    pub target: Dur,
    pub interval: Dur,
    /// Bytes at or below which the queue is never judged too long (RFC 8289 `maxpacket`).
    pub mtu: u64,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
}

impl CodelParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        CodelParams { target: c.time("target"), interval: c.time("interval"), mtu: c.size("mtu"), ecn: c.boolean("ecn") }
    }
}

/// A packet a CoDel queue holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldPacket {
    pub id: PacketId,
    /// Bytes on the wire.
    pub size: u32,
    pub enqueued_at: SimTime,
    /// ECN-capable when it arrived (it may be marked instead of dropped).
    pub ect: bool,
}

/// A FIFO of [`HeldPacket`]s with their byte count. `TimedFifo` does not keep the ECN
/// codepoint CoDel needs at dequeue, hence this one.
#[derive(Debug, Default)]
pub struct CodelFifo {
    packets: VecDeque<HeldPacket>,
    bytes: u64,
}

impl CodelFifo {
    pub fn push(&mut self, p: HeldPacket) {
        self.bytes += p.size as u64;
        self.packets.push_back(p);
    }

    pub fn pop(&mut self) -> Option<HeldPacket> {
        let p = self.packets.pop_front()?;
        self.bytes -= p.size as u64;
        Some(p)
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

/// RFC 8289 §3.3: the next drop `interval/√count` after `t`.
pub fn control_law(t: SimTime, interval: Dur, count: u32) -> SimTime {
    t + (interval as f64 / (count as f64).sqrt()).round() as Dur
}

/// One CoDel queue's variables (RFC 8289 §5, per-queue state).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CodelState {
    /// Drops (and marks) since entering the dropping state, carried over on re-entry.
    count: u32,
    /// `count` when the dropping state was last entered.
    last_count: u32,
    dropping: bool,
    /// When the sojourn will have been at or above target for an interval; `None` while
    /// it is below target (RFC 8289's 0).
    first_above_time: Option<SimTime>,
    /// When the next drop is due in the dropping state.
    drop_next: SimTime,
}

impl CodelState {
    pub fn dropping(&self) -> bool {
        self.dropping
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn drop_next(&self) -> SimTime {
        self.drop_next
    }

    /// RFC 8289 `dodequeue`: the head packet and whether it may be dropped.
    fn take(&mut self, p: &CodelParams, fifo: &mut CodelFifo, now: SimTime) -> Option<(HeldPacket, bool)> {
        let Some(packet) = fifo.pop() else {
            self.first_above_time = None;
            return None;
        };
        let sojourn = now - packet.enqueued_at;
        let mut ok_to_drop = false;
        if sojourn < p.target || fifo.bytes() <= p.mtu {
            self.first_above_time = None;
        } else {
            match self.first_above_time {
                None => self.first_above_time = Some(now + p.interval),
                Some(at) => ok_to_drop = now >= at,
            }
        }
        Some((packet, ok_to_drop))
    }

    /// Drops (`ctx.drop_held`) or marks (`ctx.mark`) `packet`, the congestion signal;
    /// says whether it was marked (and so still leaves).
    fn signal(p: &CodelParams, packet: HeldPacket, ctx: &mut QueueCtx) -> bool {
        if p.ecn && packet.ect {
            ctx.mark(packet.id);
            true
        } else {
            ctx.drop_held(packet.id, DropReason::Early);
            false
        }
    }

    /// RFC 8289 `dequeue`: the packet to send from `fifo`, after the drops CoDel makes.
    pub fn dequeue(&mut self, p: &CodelParams, fifo: &mut CodelFifo, ctx: &mut QueueCtx) -> Option<HeldPacket> {
        let now = ctx.now;
        let Some((mut packet, ok_to_drop)) = self.take(p, fifo, now) else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false;
            }
            while self.dropping && now >= self.drop_next {
                self.count += 1;
                if Self::signal(p, packet, ctx) {
                    self.drop_next = control_law(self.drop_next, p.interval, self.count);
                    return Some(packet);
                }
                match self.take(p, fifo, now) {
                    None => {
                        self.dropping = false;
                        return None;
                    }
                    Some((next, ok)) => {
                        packet = next;
                        if ok {
                            self.drop_next = control_law(self.drop_next, p.interval, self.count);
                        } else {
                            self.dropping = false;
                        }
                    }
                }
            }
        } else if ok_to_drop {
            let marked = Self::signal(p, packet, ctx);
            self.dropping = true;
            let delta = self.count.wrapping_sub(self.last_count);
            let recently = (now as i128 - self.drop_next as i128) < 16 * p.interval as i128;
            self.count = if delta > 1 && recently { delta } else { 1 };
            self.drop_next = control_law(now, p.interval, self.count);
            self.last_count = self.count;
            if !marked {
                match self.take(p, fifo, now) {
                    Some((next, _)) => packet = next,
                    None => return None,
                }
            }
        }
        Some(packet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_MS;
    use crate::queue::QueueAction;

    const MS: SimTime = PS_PER_MS;

    fn params(ecn: bool) -> CodelParams {
        CodelParams { target: 5 * MS, interval: 100 * MS, mtu: 1500, ecn }
    }

    /// A queue of `n` 1000-byte packets queued at time 0 (ids 0..n), ECN-capable if `ect`.
    fn fifo(n: u32, ect: bool) -> CodelFifo {
        let mut f = CodelFifo::default();
        for id in 0..n {
            f.push(HeldPacket { id, size: 1000, enqueued_at: 0, ect });
        }
        f
    }

    fn deq(s: &mut CodelState, p: &CodelParams, f: &mut CodelFifo, now: SimTime) -> (Option<PacketId>, Vec<QueueAction>) {
        let mut actions = Vec::new();
        let sent = s.dequeue(p, f, &mut QueueCtx::new(now, &mut actions));
        (sent.map(|h| h.id), actions)
    }

    #[test]
    fn the_control_law_spaces_drops_by_interval_over_root_count() {
        assert_eq!(control_law(0, 100 * MS, 1), 100 * MS);
        assert_eq!(control_law(0, 100 * MS, 4), 50 * MS);
        // 100 ms / √2 = 70.710678118654… ms, rounded to the picosecond.
        assert_eq!(control_law(10 * MS, 100 * MS, 2), 10 * MS + 70_710_678_119);
    }

    #[test]
    fn a_sojourn_above_target_for_an_interval_starts_dropping() {
        let p = params(false);
        let mut s = CodelState::default();
        let mut f = fifo(100, false);
        // t = 10 ms: sojourn 10 ms ≥ 5 ms, first time above: first_above_time = 110 ms.
        assert_eq!(deq(&mut s, &p, &mut f, 10 * MS), (Some(0), vec![]));
        // t = 109.999 ms: not yet an interval above target.
        assert_eq!(deq(&mut s, &p, &mut f, 110 * MS - 1), (Some(1), vec![]));
        assert!(!s.dropping());
        // t = 110 ms: drop packet 2, send 3; count 1, next drop at 210 ms.
        assert_eq!(deq(&mut s, &p, &mut f, 110 * MS), (Some(3), vec![QueueAction::Drop(2, DropReason::Early)]));
        assert!(s.dropping());
        assert_eq!((s.count(), s.drop_next()), (1, 210 * MS));
        // Before drop_next nothing is dropped.
        assert_eq!(deq(&mut s, &p, &mut f, 200 * MS), (Some(4), vec![]));
        // At 210 ms: drop 5, count 2, next at 210 + 100/√2 ms.
        assert_eq!(deq(&mut s, &p, &mut f, 210 * MS), (Some(6), vec![QueueAction::Drop(5, DropReason::Early)]));
        assert_eq!((s.count(), s.drop_next()), (2, 210 * MS + 70_710_678_119));
    }

    #[test]
    fn a_late_dequeue_drops_every_drop_that_fell_due() {
        let p = params(false);
        let mut s = CodelState::default();
        let mut f = fifo(100, false);
        deq(&mut s, &p, &mut f, 10 * MS);
        deq(&mut s, &p, &mut f, 110 * MS); // drops 1, sends 2; drop_next 210 ms
        // At 300 ms drops fall due at 210, 210 + 70.7 = 280.7; the next, 280.7 + 57.7 = 338.4, has not.
        let (sent, actions) = deq(&mut s, &p, &mut f, 300 * MS);
        assert_eq!(actions, vec![QueueAction::Drop(3, DropReason::Early), QueueAction::Drop(4, DropReason::Early)]);
        assert_eq!((sent, s.count()), (Some(5), 3));
    }

    #[test]
    fn a_sojourn_below_target_leaves_the_dropping_state() {
        let p = params(false);
        let mut s = CodelState::default();
        let mut f = fifo(10, false);
        deq(&mut s, &p, &mut f, 10 * MS);
        deq(&mut s, &p, &mut f, 110 * MS);
        assert!(s.dropping());
        // A packet queued at 296 ms leaves at 300 ms after 4 ms: below target.
        let mut g = CodelFifo::default();
        g.push(HeldPacket { id: 60, size: 1000, enqueued_at: 296 * MS, ect: false });
        g.push(HeldPacket { id: 61, size: 1000, enqueued_at: 296 * MS, ect: false });
        g.push(HeldPacket { id: 62, size: 1000, enqueued_at: 296 * MS, ect: false });
        assert_eq!(deq(&mut s, &p, &mut g, 300 * MS), (Some(60), vec![]));
        assert!(!s.dropping());
    }

    #[test]
    fn re_entering_soon_keeps_the_drop_rate_count_minus_lastcount() {
        let p = params(false);
        let mut s = CodelState { count: 7, last_count: 2, dropping: false, first_above_time: Some(400 * MS), drop_next: 390 * MS };
        let mut f = fifo(10, false);
        // now − drop_next = 10 ms < 16 intervals and delta = 5 > 1: count 5.
        let (_, actions) = deq(&mut s, &p, &mut f, 400 * MS);
        assert_eq!(actions.len(), 1);
        assert_eq!((s.count(), s.last_count, s.drop_next()), (5, 5, 400 * MS + control_law(0, 100 * MS, 5)));
        // Long after (≥ 16 intervals) the count starts again at 1.
        let mut s = CodelState { count: 7, last_count: 2, dropping: false, first_above_time: Some(0), drop_next: 390 * MS };
        deq(&mut s, &p, &mut f, 390 * MS + 1600 * MS);
        assert_eq!(s.count(), 1);
        // A delta of 1 also starts at 1.
        let mut s = CodelState { count: 3, last_count: 2, dropping: false, first_above_time: Some(0), drop_next: 390 * MS };
        deq(&mut s, &p, &mut f, 400 * MS);
        assert_eq!(s.count(), 1);
    }

    #[test]
    fn no_drop_while_at_most_mtu_bytes_remain() {
        let p = params(false);
        let mut s = CodelState { first_above_time: Some(0), ..CodelState::default() };
        // Two 1000-byte packets: after taking one, 1000 B ≤ 1500 B remain.
        let mut f = fifo(2, false);
        assert_eq!(deq(&mut s, &p, &mut f, 500 * MS), (Some(0), vec![]));
        assert!(!s.dropping() && s.first_above_time.is_none());
        // Three: 2000 B remain, above the mtu: ok to drop.
        let mut s = CodelState { first_above_time: Some(0), ..CodelState::default() };
        let mut f = fifo(3, false);
        assert_eq!(deq(&mut s, &p, &mut f, 500 * MS), (Some(1), vec![QueueAction::Drop(0, DropReason::Early)]));
    }

    #[test]
    fn with_ecn_an_ect_packet_is_marked_and_sent_instead_of_dropped() {
        let p = params(true);
        let mut s = CodelState { first_above_time: Some(0), ..CodelState::default() };
        let mut f = fifo(10, true);
        assert_eq!(deq(&mut s, &p, &mut f, 500 * MS), (Some(0), vec![QueueAction::Mark(0)]));
        assert!(s.dropping());
        assert_eq!((s.count(), s.drop_next()), (1, 600 * MS));
        // In the dropping state a mark also ends the loop: one mark even when two are due.
        assert_eq!(deq(&mut s, &p, &mut f, 700 * MS), (Some(1), vec![QueueAction::Mark(1)]));
        assert_eq!((s.count(), s.drop_next()), (2, 600 * MS + 70_710_678_119));
        // A packet that is not ECN-capable is dropped even with ecn on.
        let mut s = CodelState { first_above_time: Some(0), ..CodelState::default() };
        let mut f = fifo(10, false);
        assert_eq!(deq(&mut s, &p, &mut f, 500 * MS), (Some(1), vec![QueueAction::Drop(0, DropReason::Early)]));
    }

    #[test]
    fn an_empty_queue_ends_the_dropping_state() {
        let p = params(false);
        let mut s = CodelState { dropping: true, count: 3, ..CodelState::default() };
        let mut f = CodelFifo::default();
        assert_eq!(deq(&mut s, &p, &mut f, 500 * MS), (None, vec![]));
        assert!(!s.dropping());
    }
}
