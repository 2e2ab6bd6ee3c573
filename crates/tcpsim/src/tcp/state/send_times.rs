//! Send times and transmission counts of outstanding packets, for the congestion controls
//! and loss recoveries that ask for them (Vegas).

use crate::engine::time::SimTime;
use std::collections::VecDeque;

/// When each packet was last sent and how many times it was sent (ns-2 Vegas
/// `v_sendtime_`, `v_transmits_`), kept one of two ways:
///
/// - exact (the default): a record of each packet last_ack + 1 ..= maxseq, forgotten when
///   acknowledged (memory follows the flight);
/// - ns-2 Agent/TCP/Vegas's ring ([`SendTimes::ns2_ring`]): `window_` slots indexed by
///   `seq % window_`, re-created when packet 0 is sent. A new ACK clears the slots of the
///   packets it acknowledges with tcp-vegas.cc's loop, which runs from `(oldack + 1) %
///   window_` while the index is at most `ack % window_`: when the acknowledged range wraps
///   around the ring it clears nothing, so those slots keep their send time and count, and
///   the packets that reuse them count 2 transmissions or more (no RTT sample from their
///   ACKs, the doubled fine-grained timer and the halved window of a retransmission). A
///   lookup returns whatever the slot holds. Vegas with ns-2's `window_` 20 depends on it.
#[derive(Debug, Clone, Default)]
pub struct SendTimes {
    first: i64,
    records: VecDeque<SendRecord>,
    /// The ring's size (ns-2 `v_maxwnd_` = `window_`); 0 = exact records.
    ring_size: u32,
}

#[derive(Debug, Clone, Copy)]
struct SendRecord {
    last_sent: SimTime,
    transmissions: u32,
}

impl SendTimes {
    /// ns-2 Agent/TCP/Vegas's ring of `window` slots (see the type's text).
    pub fn ns2_ring(window: u32) -> Self {
        SendTimes { first: 0, records: VecDeque::new(), ring_size: window.max(1) }
    }

    /// When packet `seq` was last sent, if it is outstanding (the ring: what its slot holds).
    pub fn get(&self, seq: i64) -> Option<SimTime> {
        self.record_of(seq).map(|r| r.last_sent)
    }

    /// How many times packet `seq` was sent, 0 if it is not outstanding (the ring: its
    /// slot's count).
    pub fn transmissions(&self, seq: i64) -> u32 {
        self.record_of(seq).map_or(0, |r| r.transmissions)
    }

    /// The ring's slot of `seq` (slots are created as packets reach them; one never
    /// reached is a cleared one).
    fn slot(&self, seq: i64) -> Option<usize> {
        (seq >= 0).then(|| (seq % self.ring_size as i64) as usize)
    }

    fn record_of(&self, seq: i64) -> Option<&SendRecord> {
        if self.ring_size > 0 {
            return self.records.get(self.slot(seq)?).filter(|r| r.transmissions > 0);
        }
        let i = seq.checked_sub(self.first)?;
        if i < 0 {
            return None;
        }
        self.records.get(i as usize).filter(|r| r.transmissions > 0)
    }

    pub(crate) fn record(&mut self, seq: i64, now: SimTime) {
        if self.ring_size > 0 {
            let Some(k) = self.slot(seq) else { return };
            if seq == 0 {
                self.records.clear(); // ns-2 allocates the ring anew on every send of packet 0
            }
            while self.records.len() <= k {
                self.records.push_back(SendRecord { last_sent: now, transmissions: 0 });
            }
            let r = &mut self.records[k];
            r.last_sent = now;
            r.transmissions += 1;
            return;
        }
        if self.records.is_empty() {
            self.first = seq;
        }
        let i = seq - self.first;
        if i < 0 {
            return;
        }
        let i = i as usize;
        while self.records.len() <= i {
            self.records.push_back(SendRecord { last_sent: now, transmissions: 0 });
        }
        let r = &mut self.records[i];
        r.last_sent = now;
        r.transmissions += 1;
    }

    /// The ring: a new cumulative ACK `ack` (the previous one was `old_ack`) clears the
    /// slots of the packets it acknowledges, as ns-2's loop does (see the type's text).
    /// Nothing for exact records.
    pub(crate) fn release_ring_slots(&mut self, old_ack: i64, ack: i64) {
        if self.ring_size > 0 {
            let size = self.ring_size as i64;
            let end = ack.rem_euclid(size);
            let mut k = (old_ack + 1).rem_euclid(size);
            let mut range = ack - old_ack;
            while k <= end && range > 0 {
                if let Some(r) = self.records.get_mut(k as usize) {
                    r.transmissions = 0;
                }
                k = (k + 1) % size;
                range -= 1;
            }
        }
    }

    /// Exact records: forgets the packets up to and including `ack`. Nothing for the ring,
    /// whose model releases slots itself (`release_ring_slots`).
    pub(crate) fn acknowledge(&mut self, ack: i64) {
        if self.ring_size > 0 {
            return;
        }
        while self.first <= ack && !self.records.is_empty() {
            self.records.pop_front();
            self.first += 1;
        }
        if self.records.is_empty() {
            self.first = ack + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SendTimes;

    /// Exact records forget what is acknowledged and know each packet's own count.
    #[test]
    fn exact_records_follow_the_flight() {
        let mut t = SendTimes::default();
        for seq in 0..6 {
            t.record(seq, 10 * seq as u64);
        }
        t.record(3, 100);
        t.acknowledge(2);
        assert_eq!((t.get(2), t.transmissions(2)), (None, 0));
        assert_eq!((t.get(3), t.transmissions(3)), (Some(100), 2));
        assert_eq!((t.get(5), t.transmissions(5)), (Some(50), 1));
    }

    /// ns-2 Agent/TCP/Vegas's ring (tcp-vegas.cc): slots seq % window; a new ACK clears
    /// from (old + 1) % window while the index is at most ack % window, so a range that
    /// wraps clears nothing and the packets reusing those slots count 2 transmissions.
    #[test]
    fn the_ns2_ring_skips_clearing_a_range_that_wraps() {
        let mut t = SendTimes::ns2_ring(4);
        for seq in 0..4 {
            t.record(seq, seq as u64);
        }
        // ACK of 0 and 1 (from -1): slots 0 and 1 cleared.
        t.release_ring_slots(-1, 1);
        assert_eq!((t.transmissions(0), t.transmissions(1), t.transmissions(2)), (0, 0, 1));
        t.record(4, 40); // slot 0
        t.record(5, 50); // slot 1
        // ACK of 2..=4 (from 1): the range wraps (slot 2 > slot 0): nothing is cleared.
        t.release_ring_slots(1, 4);
        assert_eq!((t.transmissions(2), t.transmissions(3), t.transmissions(4)), (1, 1, 1));
        t.record(6, 60); // slot 2, never cleared: a second transmission as far as ns-2 knows
        assert_eq!((t.get(6), t.transmissions(6)), (Some(60), 2));
        // A lookup returns what the slot holds: packet 2's slot now tells of packet 6.
        assert_eq!(t.get(2), Some(60));
        // Exact acknowledgements leave the ring alone.
        t.acknowledge(6);
        assert_eq!(t.transmissions(6), 2);
        // Sending packet 0 again re-creates the ring.
        t.record(0, 70);
        assert_eq!((t.transmissions(0), t.transmissions(6)), (1, 0));
    }
}
