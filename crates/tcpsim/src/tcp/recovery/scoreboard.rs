//! The SACK scoreboard: what the sender knows about each outstanding packet.
//!
//! RFC 2018 (the SACK option), RFC 6675 §2–§4 (scoreboard, `SetPipe`, `NextSeg`), Mathis &
//! Mahdavi, "Forward Acknowledgement", SIGCOMM 1996 (`snd.fack`), and ns-2.35's
//! `ScoreBoardRQ` (scoreboard-rq.cc, over the reassembly queue of rq.cc), which
//! `Agent/TCP/Sack1` uses.
//!
//! For each packet from the first unacknowledged one (`snd.una` = cumulative ACK + 1) up
//! to the highest packet with a mark, three marks:
//!   SACKed         — a SACK block covered it (RFC 2018);
//!   retransmitted  — it was sent again during this recovery;
//!   lost           — a recovery declared it lost (RFC 6675 `IsLost`, FACK's rule, …).
//! The counts of each are kept as the marks change, so `pipe` costs O(1).
//!
//! A retransmission point (ns-2 `h_seqno_`) remembers how far the search for holes to
//! retransmit has gone: [`Scoreboard::next_hole`] returns the first packet at or after it
//! that is not SACKed and lies below a SACKed packet, and
//! [`Scoreboard::mark_retransmitted`] moves it past the packet sent. This is ns-2's
//! `GetNextRetran`/`MarkRetran`: a hole is retransmitted once per recovery, as soon as
//! any packet above it is SACKed (no `DupThresh` SACKed packets above it required, unlike
//! RFC 6675 `IsLost`), and the hole after the highest SACKed packet is never one.
//!
//! Memory follows the flight: one byte per packet from `snd.una` to the highest marked
//! packet, in a ring buffer that keeps its capacity, so a steady flow allocates nothing.
//! Only recoveries that read SACK blocks own a scoreboard.
//!
//! Representation: SACK blocks arrive as inclusive packet ranges [first, last]
//! ([`SackBlocks`]); ns-2's blocks are [`sa_left`, `sa_right`) with the right edge
//! exclusive, so ns-2's right edge is our `last + 1`.
//!
//! Deviations from ns-2's reassembly queue, none reachable with ns-2's own sink: a block
//! at or below the cumulative ACK, or above the highest packet sent, is clipped (RFC 2018
//! §8 lets a sender ignore it; ns-2's queue would move its `sack_min` back for a stale
//! block); a hole at packet 0 is returned (ns-2 returns none — `Sack1` keeps that rule
//! itself).

use crate::engine::packet::SackBlocks;
use std::collections::VecDeque;

const SACKED: u8 = 1;
const RETRANSMITTED: u8 = 2;
const LOST: u8 = 4;

#[derive(Debug, Clone)]
pub struct Scoreboard {
    /// First packet tracked: the cumulative ACK + 1 (`snd.una`; ns-2 `sack_min`).
    first: i64,
    /// Marks of packets `first`, `first + 1`, …; the last entry is the highest marked packet
    /// or lies below it.
    marks: VecDeque<u8>,
    /// Packets SACKed.
    sacked: i64,
    /// Packets marked lost and not SACKed.
    lost: i64,
    /// Packets retransmitted and not SACKed.
    retransmitted: i64,
    /// Highest SACKed packet, if any.
    highest_sacked: Option<i64>,
    /// Where the search for the next hole to retransmit starts (ns-2 `h_seqno_`).
    retransmit_point: i64,
}

impl Default for Scoreboard {
    fn default() -> Self {
        Scoreboard::new()
    }
}

impl Scoreboard {
    pub fn new() -> Self {
        Scoreboard {
            first: 0,
            marks: VecDeque::new(),
            sacked: 0,
            lost: 0,
            retransmitted: 0,
            highest_sacked: None,
            retransmit_point: 0,
        }
    }

    /// Forgets every mark and the retransmission point (ns-2 `ClearScoreBoard`); the
    /// cumulative ACK stays.
    pub fn clear(&mut self) {
        self.marks.clear();
        self.sacked = 0;
        self.lost = 0;
        self.retransmitted = 0;
        self.highest_sacked = None;
        self.retransmit_point = self.first;
    }

    /// Takes in an ACK: cumulative ACK `ack` and its SACK blocks, for packets sent up to
    /// `maxseq`. Returns true when the scoreboard changed (ns-2 `UpdateScoreBoard` +
    /// `CheckUpdate`): a block covered a packet not SACKed before, or the cumulative ACK
    /// advanced while packets were SACKed.
    pub fn update(&mut self, ack: i64, sack: &SackBlocks, maxseq: i64) -> bool {
        let mut changed = false;
        if ack >= self.first {
            changed = self.sacked > 0;
            self.advance_to(ack + 1);
        }
        for &(first, last) in sack.as_slice() {
            for seq in first.max(self.first)..=last.min(maxseq) {
                changed |= self.set(seq, SACKED);
            }
        }
        changed
    }

    /// Marks packet `seq` retransmitted and moves the retransmission point past it (ns-2
    /// `MarkRetran`).
    pub fn mark_retransmitted(&mut self, seq: i64) {
        self.set(seq, RETRANSMITTED);
        self.retransmit_point = self.retransmit_point.max(seq + 1);
    }

    /// Marks packet `seq` lost (it no longer counts in `pipe` unless retransmitted).
    pub fn mark_lost(&mut self, seq: i64) {
        self.set(seq, LOST);
    }

    pub fn is_sacked(&self, seq: i64) -> bool {
        self.has(seq, SACKED)
    }

    pub fn is_retransmitted(&self, seq: i64) -> bool {
        self.has(seq, RETRANSMITTED)
    }

    pub fn is_lost(&self, seq: i64) -> bool {
        self.has(seq, LOST)
    }

    /// Packets SACKed above the cumulative ACK.
    pub fn sacked_count(&self) -> i64 {
        self.sacked
    }

    /// Highest SACKed packet, if any.
    pub fn highest_sacked(&self) -> Option<i64> {
        self.highest_sacked
    }

    /// FACK's `snd.fack`: one past the forward-most packet the receiver holds (the
    /// highest SACKed packet + 1, or `snd.una` when nothing is SACKed).
    pub fn snd_fack(&self) -> i64 {
        self.highest_sacked.map_or(self.first, |h| h + 1)
    }

    /// The next hole to retransmit (ns-2 `GetNextRetran`): the first packet at or after
    /// the retransmission point (and above the cumulative ACK) that is not SACKed and has
    /// a SACKed packet above it.
    pub fn next_hole(&self) -> Option<i64> {
        let highest = self.highest_sacked?;
        let start = self.retransmit_point.max(self.first);
        (start..highest).find(|&seq| !self.is_sacked(seq))
    }

    /// The first packet at or after `seq` that is not SACKed (ns-2 `GetNextUnacked`); none
    /// when nothing is SACKed or `seq` lies beyond the highest SACKed packet + 1.
    pub fn next_unsacked(&self, seq: i64) -> Option<i64> {
        let highest = self.highest_sacked?;
        if seq > highest + 1 {
            return None;
        }
        (seq.max(self.first)..=highest + 1).find(|&p| !self.is_sacked(p))
    }

    /// RFC 6675 `SetPipe`: the packets among `snd.una ..= maxseq` still in the network —
    /// each packet neither SACKed nor marked lost counts one, and each retransmission not
    /// yet SACKed one more.
    pub fn pipe(&self, maxseq: i64) -> i64 {
        let outstanding = (maxseq - self.first + 1).max(0);
        outstanding - self.sacked - self.lost + self.retransmitted
    }

    /// RFC 6675 `IsLost` for every hole, packet-counted: a packet not SACKed with at
    /// least `threshold` SACKed packets above it is marked lost (RFC 6675 §4: DupThresh
    /// discontiguous SACKed segments, or more than (DupThresh − 1)·SMSS bytes, above it;
    /// with whole packets both read "`threshold` SACKed packets"). Walks the flight once
    /// from the highest marked packet down; returns how many packets became lost.
    pub fn mark_lost_by_sacks_above(&mut self, threshold: i64) -> i64 {
        let mut sacked_above = 0;
        let mut newly_lost = 0;
        for i in (0..self.marks.len()).rev() {
            let m = self.marks[i];
            if m & SACKED != 0 {
                sacked_above += 1;
            } else if sacked_above >= threshold && m & LOST == 0 {
                newly_lost += self.set(self.first + i as i64, LOST) as i64;
            }
        }
        newly_lost
    }

    /// RACK (RFC 8985 §6.2): packet `seq`, not SACKed, is lost, and so is its last
    /// retransmission if it had one: it is marked lost and no longer retransmitted, so
    /// that it is sent again. Returns true when the marks changed.
    pub fn declare_lost(&mut self, seq: i64) -> bool {
        if seq < self.first || self.is_sacked(seq) {
            return false;
        }
        let i = (seq - self.first) as usize;
        if self.marks.len() <= i {
            self.marks.resize(i + 1, 0);
        }
        let old = self.marks[i];
        let new = (old & !RETRANSMITTED) | LOST;
        if new == old {
            return false;
        }
        self.marks[i] = new;
        self.tally(old, -1);
        self.tally(new, 1);
        true
    }

    /// The lowest packet marked lost that is neither SACKed nor retransmitted yet (RFC
    /// 6675 `NextSeg` rule 1).
    pub fn next_lost(&self) -> Option<i64> {
        self.marks.iter().position(|&m| m & (LOST | SACKED | RETRANSMITTED) == LOST).map(|i| self.first + i as i64)
    }

    // ---- marks ----

    fn has(&self, seq: i64, mark: u8) -> bool {
        seq >= self.first && self.marks.get((seq - self.first) as usize).is_some_and(|m| m & mark != 0)
    }

    /// Sets `mark` on packet `seq` (ignored at or below the cumulative ACK); returns true
    /// when it was not set before.
    fn set(&mut self, seq: i64, mark: u8) -> bool {
        if seq < self.first {
            return false;
        }
        let i = (seq - self.first) as usize;
        if self.marks.len() <= i {
            self.marks.resize(i + 1, 0);
        }
        let old = self.marks[i];
        if old & mark != 0 {
            return false;
        }
        self.marks[i] = old | mark;
        self.tally(old, -1);
        self.tally(old | mark, 1);
        if mark == SACKED {
            self.highest_sacked = Some(self.highest_sacked.map_or(seq, |h| h.max(seq)));
        }
        true
    }

    /// Adds (`sign` +1) or removes (−1) a packet with marks `m` from the counts that
    /// `pipe` reads.
    fn tally(&mut self, m: u8, sign: i64) {
        let sacked = m & SACKED != 0;
        self.sacked += sign * sacked as i64;
        self.lost += sign * (!sacked && m & LOST != 0) as i64;
        self.retransmitted += sign * (!sacked && m & RETRANSMITTED != 0) as i64;
    }

    /// The cumulative ACK reached `first - 1`: packets below `first` leave.
    fn advance_to(&mut self, first: i64) {
        let leaving = ((first - self.first) as usize).min(self.marks.len());
        for _ in 0..leaving {
            let m = self.marks.pop_front().expect("counted above");
            self.tally(m, -1);
        }
        self.first = first;
        if self.highest_sacked.is_some_and(|h| h < first) {
            self.highest_sacked = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(list: &[(i64, i64)]) -> SackBlocks {
        let mut b = SackBlocks::EMPTY;
        for &(first, last) in list {
            b.push(first, last);
        }
        b
    }

    /// Packets 0..=9 sent, 0..=1 ACKed; 2, 5 and 6 lost; 3, 4, 7, 8, 9 arrive.
    fn three_losses() -> Scoreboard {
        let mut sb = Scoreboard::new();
        assert!(!sb.update(1, &SackBlocks::EMPTY, 9));
        assert!(sb.update(1, &blocks(&[(3, 4)]), 9));
        assert!(sb.update(1, &blocks(&[(7, 9), (3, 4)]), 9));
        sb
    }

    #[test]
    fn sack_blocks_mark_packets_and_the_highest() {
        let sb = three_losses();
        assert_eq!(sb.sacked_count(), 5);
        assert_eq!(sb.highest_sacked(), Some(9));
        assert_eq!(sb.snd_fack(), 10);
        assert!(sb.is_sacked(3) && sb.is_sacked(4) && sb.is_sacked(8));
        assert!(!sb.is_sacked(2) && !sb.is_sacked(5) && !sb.is_sacked(6));
    }

    #[test]
    fn a_repeated_block_changes_nothing() {
        let mut sb = three_losses();
        assert!(!sb.update(1, &blocks(&[(7, 9), (3, 4)]), 9), "ns-2 CheckUpdate: no new information");
        assert!(sb.update(1, &blocks(&[(6, 9), (3, 4)]), 9), "6 is new");
    }

    #[test]
    fn holes_are_retransmitted_in_order_once_each() {
        // ns-2 GetNextRetran / MarkRetran: 2, then 5, then 6; 10 (above every SACKed
        // packet) is not a hole.
        let mut sb = three_losses();
        assert_eq!(sb.next_hole(), Some(2));
        sb.mark_retransmitted(2);
        assert_eq!(sb.next_hole(), Some(5));
        sb.mark_retransmitted(5);
        assert_eq!(sb.next_hole(), Some(6));
        sb.mark_retransmitted(6);
        assert_eq!(sb.next_hole(), None);
        assert!(sb.is_retransmitted(5) && !sb.is_retransmitted(3));
    }

    #[test]
    fn pipe_follows_rfc_6675_set_pipe() {
        // Outstanding 2..=9: 8 packets; 5 SACKed → 3 in the network.
        let mut sb = three_losses();
        assert_eq!(sb.pipe(9), 3);
        // Declared lost: 2 and 5 no longer count.
        sb.mark_lost(2);
        sb.mark_lost(5);
        assert_eq!(sb.pipe(9), 1);
        // Retransmitting 2 puts one packet back in the network.
        sb.mark_retransmitted(2);
        assert_eq!(sb.pipe(9), 2);
        // A packet not deemed lost and retransmitted counts twice (original + copy).
        sb.mark_retransmitted(6);
        assert_eq!(sb.pipe(9), 3);
        // New data 10, 11 sent.
        assert_eq!(sb.pipe(11), 5);
    }

    #[test]
    fn cumulative_ack_drops_packets_below_it() {
        let mut sb = three_losses();
        sb.mark_retransmitted(2);
        // The retransmitted 2 arrives: ACK 4, blocks 7..9 still above.
        assert!(sb.update(4, &blocks(&[(7, 9)]), 9));
        assert_eq!((sb.sacked_count(), sb.highest_sacked()), (3, Some(9)));
        assert!(!sb.is_retransmitted(2) && !sb.is_sacked(3));
        assert_eq!(sb.pipe(9), 2, "5, 6 outstanding");
        assert_eq!(sb.next_hole(), Some(5));
        // Everything arrives: the scoreboard empties.
        assert!(sb.update(9, &SackBlocks::EMPTY, 9));
        assert_eq!((sb.sacked_count(), sb.highest_sacked(), sb.next_hole()), (0, None, None));
        assert_eq!(sb.pipe(9), 0);
        assert_eq!(sb.snd_fack(), 10);
    }

    #[test]
    fn an_advance_with_nothing_sacked_is_no_change() {
        let mut sb = Scoreboard::new();
        assert!(!sb.update(5, &SackBlocks::EMPTY, 9), "ns-2 changed_ needs a non-empty queue");
        assert_eq!(sb.snd_fack(), 6);
    }

    #[test]
    fn clear_forgets_marks_and_the_retransmission_point() {
        let mut sb = three_losses();
        sb.mark_retransmitted(2);
        sb.mark_lost(5);
        sb.clear();
        assert_eq!((sb.sacked_count(), sb.highest_sacked(), sb.next_hole()), (0, None, None));
        assert_eq!(sb.pipe(9), 8);
        // SACK information learned again starts the search from the first hole.
        sb.update(1, &blocks(&[(3, 4)]), 9);
        assert_eq!(sb.next_hole(), Some(2));
    }

    #[test]
    fn next_unsacked_skips_sacked_runs() {
        // ns-2 GetNextUnacked (rq.cc nexthole): inside a block → its right edge; beyond
        // the highest block's right edge → none.
        let sb = three_losses();
        assert_eq!(sb.next_unsacked(2), Some(2));
        assert_eq!(sb.next_unsacked(3), Some(5));
        assert_eq!(sb.next_unsacked(7), Some(10));
        assert_eq!(sb.next_unsacked(10), Some(10));
        assert_eq!(sb.next_unsacked(11), None);
        assert_eq!(Scoreboard::new().next_unsacked(0), None);
    }

    #[test]
    fn blocks_outside_the_flight_are_clipped() {
        let mut sb = Scoreboard::new();
        assert!(!sb.update(4, &blocks(&[(1, 3)]), 9), "below the cumulative ACK");
        assert!(sb.update(4, &blocks(&[(8, 50)]), 9));
        assert_eq!((sb.sacked_count(), sb.highest_sacked()), (2, Some(9)));
    }

    #[test]
    fn a_hole_is_lost_once_threshold_packets_above_it_are_sacked() {
        // 2, 5, 6 missing; SACKed above 2: 3, 4, 7, 8, 9 (5); above 5 and 6: 7, 8, 9 (3).
        let mut sb = three_losses();
        assert_eq!(sb.mark_lost_by_sacks_above(4), 1, "only 2 has 4 or more above it");
        assert!(sb.is_lost(2) && !sb.is_lost(5));
        assert_eq!(sb.mark_lost_by_sacks_above(3), 2, "5 and 6 have exactly 3");
        assert_eq!(sb.mark_lost_by_sacks_above(3), 0, "marked once");
        assert_eq!(sb.next_lost(), Some(2));
        sb.mark_retransmitted(2);
        assert_eq!(sb.next_lost(), Some(5));
        assert_eq!(sb.pipe(9), 1, "8 outstanding − 5 SACKed − 3 lost + 1 retransmitted");
    }

    #[test]
    fn memory_follows_the_flight() {
        // A long transfer with a SACKed packet in every window keeps a short ring.
        let mut sb = Scoreboard::new();
        for w in 0..10_000i64 {
            let base = w * 10;
            sb.update(base, &blocks(&[(base + 2, base + 3)]), base + 10);
            sb.mark_retransmitted(base + 1);
        }
        assert!(sb.marks.len() <= 10, "{} marks kept", sb.marks.len());
        assert!(sb.marks.capacity() < 64);
    }
}
