//! Packets and the packet arena.
//!
//! Packets live in a slab with a free list and travel as `PacketId` indices (slots are
//! reused); each packet also carries a `uid` that is never reused within a run, for traces
//! and tests. A packet carries only what the models need, and the route it follows (an
//! interned list of link directions plus the index of the next hop), so forwarding needs
//! no lookup. Everything is inline: no heap allocation per packet, SACK blocks included.

use super::time::{Dur, SimTime};

pub type PacketId = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PacketKind {
    /// TCP data segment.
    Data,
    /// TCP acknowledgement; `seq` is the cumulative ACK (highest in-order sequence number).
    Ack,
    /// UDP datagram (CBR).
    Datagram,
}

/// The ECN field of the IP header (RFC 3168 §5), with its two-bit codepoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Ecn {
    /// Not ECN-capable transport (0b00).
    #[default]
    NotEct = 0b00,
    /// ECN-capable transport, ECT(1) (0b01).
    Ect1 = 0b01,
    /// ECN-capable transport, ECT(0) (0b10); what an ECN sender sets.
    Ect0 = 0b10,
    /// Congestion experienced (0b11), set by a marking queue.
    Ce = 0b11,
}

impl Ecn {
    /// ECT(0), ECT(1) or CE: a queue may mark instead of dropping.
    pub fn capable(self) -> bool {
        self != Ecn::NotEct
    }

    /// The two ECN bits, as they sit in the low bits of the IPv4 TOS byte.
    pub fn bits(self) -> u8 {
        self as u8
    }
}

/// TCP flag: ECN echo (receiver to sender, RFC 3168 §6.1).
pub const TCP_ECE: u8 = 1;
/// TCP flag: congestion window reduced (sender to receiver).
pub const TCP_CWR: u8 = 2;

/// Most SACK blocks a packet can carry. RFC 2018 fits at most 4 in the TCP option space;
/// ns-2's `max_sack_blocks_` defaults to 3, which is the receiver's default here.
pub const MAX_SACK_BLOCKS: usize = 4;

/// Bytes one SACK block adds to an ACK on the wire: two 32-bit edges (RFC 2018 §3;
/// ns-2 `Sacker::append_ack` adds 8 bytes per block and nothing for the option header).
pub const SACK_BLOCK_BYTES: u32 = 8;

/// SACK blocks of an ACK: inclusive packet ranges [first, last], most recent first
/// (RFC 2018 §4; ns-2 `Agent/TCPSink/Sack1` counts packets, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlocks {
    len: u8,
    blocks: [(i64, i64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub const EMPTY: SackBlocks = SackBlocks { len: 0, blocks: [(0, 0); MAX_SACK_BLOCKS] };

    /// Appends a block; ignored when full.
    pub fn push(&mut self, first: i64, last: i64) {
        if (self.len as usize) < MAX_SACK_BLOCKS {
            self.blocks[self.len as usize] = (first, last);
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[(i64, i64)] {
        &self.blocks[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// "No sequence number echoed" (ACKs sent by the delayed-ACK timer).
pub const NO_ECHO: i64 = i64::MIN;

#[derive(Debug, Clone, Copy)]
pub struct Packet {
    /// Unique in the run, never reused (unlike the arena slot).
    pub uid: u64,
    pub flow: u32,
    /// The node that sent it (ns-2's IP source address).
    pub source: u32,
    /// Packet sequence number (ns-2 counts packets, not bytes); on an ACK, the cumulative ACK.
    pub seq: i64,
    /// Size on the wire in bytes.
    pub size: u32,
    pub kind: PacketKind,
    /// IP ECN field.
    pub ecn: Ecn,
    /// TCP flags `TCP_ECE`, `TCP_CWR`.
    pub tcp_flags: u8,
    /// Index in the route of the link direction the packet is on or queued for.
    pub hop: u16,
    /// Index into the simulation's route table.
    pub route: u32,
    /// When the sender sent it.
    pub sent_at: SimTime,
    /// When it entered its current queue (for sojourn times).
    pub enqueued_at: SimTime,
    /// ACK: the sequence number of the data packet that triggered it (the echo option of
    /// reference document 003), `NO_ECHO` when the delayed-ACK timer sent it.
    pub echo_seq: i64,
    /// ACK: the send time of the data packet that triggered it (timestamp echo).
    pub ts_echo: SimTime,
    /// Data: the sender's RTT written into the packet (for FECN/MFFECN, reference
    /// document 002), picoseconds; 0 when the sender writes none.
    pub rtt_hint: Dur,
    /// ACK: its SACK blocks, kept in the arena beside the packet (most ACKs carry none,
    /// and an inline copy would triple the packet).
    pub sack: SackRef,
}

/// A packet's SACK blocks in the arena; `SackRef::NONE` when it carries none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SackRef(u32);

impl SackRef {
    pub const NONE: SackRef = SackRef(u32::MAX);
}

impl Packet {
    /// A packet with every optional field empty.
    pub fn new(flow: u32, seq: i64, size: u32, kind: PacketKind, route: u32, now: SimTime) -> Packet {
        Packet {
            uid: 0,
            flow,
            source: 0,
            seq,
            size,
            kind,
            ecn: Ecn::NotEct,
            tcp_flags: 0,
            hop: 0,
            route,
            sent_at: now,
            enqueued_at: now,
            echo_seq: NO_ECHO,
            ts_echo: 0,
            rtt_hint: 0,
            sack: SackRef::NONE,
        }
    }
}

#[derive(Debug, Default)]
pub struct PacketArena {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
    next_uid: u64,
    /// SACK blocks of packets that carry some, and the free slots among them.
    sacks: Vec<SackBlocks>,
    free_sacks: Vec<u32>,
}

impl PacketArena {
    /// Stores a packet and gives it the next unique id.
    pub fn alloc(&mut self, mut packet: Packet) -> PacketId {
        packet.uid = self.next_uid;
        self.next_uid += 1;
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = packet;
            id
        } else {
            self.slots.push(packet);
            (self.slots.len() - 1) as PacketId
        }
    }

    pub fn free(&mut self, id: PacketId) {
        let sack = std::mem::replace(&mut self.slots[id as usize].sack, SackRef::NONE);
        if sack != SackRef::NONE {
            self.free_sacks.push(sack.0);
        }
        self.free.push(id);
    }

    /// Gives packet `id` these SACK blocks (none: nothing is stored).
    pub fn set_sack(&mut self, id: PacketId, blocks: &SackBlocks) {
        if blocks.is_empty() {
            return;
        }
        let slot = match self.free_sacks.pop() {
            Some(i) => {
                self.sacks[i as usize] = *blocks;
                i
            }
            None => {
                self.sacks.push(*blocks);
                (self.sacks.len() - 1) as u32
            }
        };
        self.slots[id as usize].sack = SackRef(slot);
    }

    /// The SACK blocks of packet `id` (empty if it carries none).
    pub fn sack(&self, id: PacketId) -> &SackBlocks {
        match self.slots[id as usize].sack {
            SackRef::NONE => &SackBlocks::EMPTY,
            SackRef(i) => &self.sacks[i as usize],
        }
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    /// The ids of the packets currently allocated, in slot order (for rare whole-network
    /// changes such as rerouting; linear in the arena's size).
    pub fn live_ids(&self) -> Vec<PacketId> {
        let mut free = vec![false; self.slots.len()];
        for &id in &self.free {
            free[id as usize] = true;
        }
        (0..self.slots.len() as PacketId).filter(|&id| !free[id as usize]).collect()
    }

    /// Packets currently allocated.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Packets allocated so far in the run (the next uid).
    pub fn allocated(&self) -> u64 {
        self.next_uid
    }
}

/// A packet the sender puts on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outgoing {
    pub seq: i64,
    /// Sent before.
    pub retransmission: bool,
    /// ECN-capable transport: set on data packets of an ECN sender except packet 0
    /// (retransmissions per `ect_on_retransmit`).
    pub ect: bool,
    /// Carries the ECE flag: packet 0 of an ECN sender offers ECN (ns-2 `output()`).
    pub ece: bool,
    /// Carries the CWR flag.
    pub cwr: bool,
    /// The RTT the sender writes into the packet (`rtt_hint`), picoseconds; 0 for none.
    pub rtt_hint: Dur,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_are_never_reused_though_slots_are() {
        let mut arena = PacketArena::default();
        let a = arena.alloc(Packet::new(0, 1, 100, PacketKind::Data, 0, 0));
        arena.free(a);
        let b = arena.alloc(Packet::new(0, 2, 100, PacketKind::Data, 0, 0));
        assert_eq!(a, b, "the slot is reused");
        assert_eq!(arena.get(b).uid, 1);
        assert_eq!(arena.allocated(), 2);
    }

    #[test]
    fn sack_blocks_live_beside_the_packet_and_their_slot_is_reused() {
        let mut arena = PacketArena::default();
        let mut blocks = SackBlocks::EMPTY;
        blocks.push(5, 7);
        let a = arena.alloc(Packet::new(0, 1, 40, PacketKind::Ack, 0, 0));
        assert!(arena.sack(a).is_empty());
        arena.set_sack(a, &blocks);
        assert_eq!(arena.sack(a).as_slice(), &[(5, 7)]);
        arena.free(a);
        let b = arena.alloc(Packet::new(0, 2, 40, PacketKind::Ack, 0, 0));
        assert!(arena.sack(b).is_empty(), "a new packet carries no blocks");
        arena.set_sack(b, &blocks);
        assert_eq!(arena.sacks.len(), 1, "the freed slot is reused");
    }

    #[test]
    fn sack_blocks_keep_order_and_capacity() {
        let mut s = SackBlocks::EMPTY;
        for i in 0..6 {
            s.push(10 * i, 10 * i + 2);
        }
        assert_eq!(s.len(), MAX_SACK_BLOCKS);
        assert_eq!(s.as_slice()[0], (0, 2));
    }

    #[test]
    fn ecn_codepoints_are_rfc3168_bits() {
        assert_eq!(Ecn::Ce as u8, 3);
        assert_eq!(Ecn::Ect0 as u8, 2);
        assert!(Ecn::Ect1.capable() && !Ecn::NotEct.capable());
    }
}
