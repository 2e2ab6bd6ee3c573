//! A FIFO that knows which of its packets carry CE, and how many.
//!
//! ECN over RED and ECN over DRED (Arora, "TCP/IP Networks with ECN over AQM", M.Eng.
//! thesis, Carleton University, 2003, §3.1.1 and §3.1.3) feed their controllers the queue
//! length less the CE-marked packets it holds: `q − queue_ce_count` for RED's average,
//! `e(n) = q(n) − c(n) − T` for DRED. A packet counts as CE-marked while it waits if it
//! was queued marked (`Verdict::Marked`), arrived already CE (`Arrival::ce`), or was
//! marked in place (`CeFifo::mark`, which the discipline pairs with `QueueCtx::mark`);
//! it stops counting when it leaves: departure (`pop`) or a drop from the queue
//! (`pop_back`).
//!
//! Each packet gets a serial number when it is queued, consecutive in arrival order, so
//! a discipline can name a held packet (to mark it in place) in O(1) without searching:
//! the packet of serial `s` sits at position `s − head_serial`. Kept apart from `Fifo`
//! so that RED and DropTail do not pay for the flag and the count on every packet.

use crate::engine::PacketId;
use std::collections::VecDeque;

/// A packet a [`CeFifo`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CeQueued {
    pub id: PacketId,
    /// Size on the wire, bytes.
    pub size: u32,
    /// It carries CE.
    pub ce: bool,
}

#[derive(Debug, Default)]
pub struct CeFifo {
    packets: VecDeque<CeQueued>,
    bytes: u64,
    /// CE-marked packets held (the thesis' queue_ce_count, c(n)).
    ce_count: usize,
    /// Serial number of the packet at the head (of the next one to be queued when empty).
    head_serial: u64,
}

impl CeFifo {
    /// Queues packet `id` of `size` bytes, CE-marked or not; returns its serial number.
    pub fn push(&mut self, id: PacketId, size: u32, ce: bool) -> u64 {
        let serial = self.next_serial();
        self.packets.push_back(CeQueued { id, size, ce });
        self.bytes += size as u64;
        self.ce_count += ce as usize;
        serial
    }

    /// Removes the packet at the head (a departure).
    pub fn pop(&mut self) -> Option<CeQueued> {
        let p = self.packets.pop_front()?;
        self.head_serial += 1;
        self.forget(p);
        Some(p)
    }

    /// Removes the packet at the tail (a drop from the back).
    pub fn pop_back(&mut self) -> Option<CeQueued> {
        let p = self.packets.pop_back()?;
        self.forget(p);
        Some(p)
    }

    fn forget(&mut self, p: CeQueued) {
        self.bytes -= p.size as u64;
        self.ce_count -= p.ce as usize;
    }

    /// Flags the held packet of serial `serial` as CE-marked and returns its id, for the
    /// discipline to pass to `QueueCtx::mark` (the packet must be ECN-capable: the link
    /// marks only those). `None` if it has left the queue or already carries CE.
    pub fn mark(&mut self, serial: u64) -> Option<PacketId> {
        let position = usize::try_from(serial.checked_sub(self.head_serial)?).ok()?;
        let p = self.packets.get_mut(position)?;
        if p.ce {
            return None;
        }
        p.ce = true;
        self.ce_count += 1;
        Some(p.id)
    }

    /// The held packet of serial `serial`, if it is still queued.
    pub fn get(&self, serial: u64) -> Option<CeQueued> {
        let position = usize::try_from(serial.checked_sub(self.head_serial)?).ok()?;
        self.packets.get(position).copied()
    }

    /// Serial number of the packet at the head; every packet queued before it has left.
    pub fn head_serial(&self) -> u64 {
        self.head_serial
    }

    /// Serial number the next packet queued will get.
    pub fn next_serial(&self) -> u64 {
        self.head_serial + self.packets.len() as u64
    }

    /// CE-marked packets held (queue_ce_count, c(n)).
    pub fn ce_count(&self) -> usize {
        self.ce_count
    }

    /// The packets held, head first.
    pub fn iter(&self) -> impl Iterator<Item = CeQueued> + '_ {
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

#[cfg(test)]
mod tests {
    use super::{CeFifo, CeQueued};

    #[test]
    fn the_count_follows_packets_queued_marked_and_their_departures() {
        let mut f = CeFifo::default();
        f.push(1, 1000, false);
        f.push(2, 1000, true); // queued marked, or arrived CE
        f.push(3, 40, true);
        assert_eq!((f.len(), f.bytes(), f.ce_count()), (3, 2040, 2));
        assert_eq!(f.pop(), Some(CeQueued { id: 1, size: 1000, ce: false }));
        assert_eq!(f.ce_count(), 2, "an unmarked departure leaves the count");
        assert_eq!(f.pop().map(|p| p.ce), Some(true));
        assert_eq!(f.ce_count(), 1, "a CE departure lowers it");
        assert_eq!(f.pop_back().map(|p| (p.id, p.ce)), Some((3, true)));
        assert_eq!((f.ce_count(), f.bytes()), (0, 0), "a CE packet dropped from the queue lowers it");
        assert!(f.pop().is_none() && f.pop_back().is_none());
    }

    #[test]
    fn marking_in_place_counts_once_and_only_held_packets() {
        let mut f = CeFifo::default();
        let a = f.push(10, 500, false);
        let b = f.push(11, 500, false);
        let c = f.push(12, 500, true);
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(f.mark(b), Some(11));
        assert_eq!(f.ce_count(), 2);
        assert_eq!(f.mark(b), None, "already marked: not counted twice");
        assert_eq!(f.mark(c), None, "arrived CE");
        assert_eq!(f.ce_count(), 2);
        assert_eq!(f.pop().map(|p| p.id), Some(10));
        assert_eq!(f.mark(a), None, "departed");
        assert_eq!(f.mark(3), None, "never queued");
        assert_eq!(f.head_serial(), 1);
        assert_eq!(f.get(b).map(|p| (p.id, p.ce)), Some((11, true)));
        assert_eq!(f.pop().map(|p| p.ce), Some(true));
        assert_eq!(f.ce_count(), 1, "the packet marked in place left marked");
        assert_eq!(f.next_serial(), 3);
        assert_eq!(f.push(13, 500, false), 3, "serials keep rising across departures");
    }
}
