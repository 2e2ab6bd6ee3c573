//! Packets and the packet arena.
//!
//! Packets live in a slab with a free list and travel as `PacketId` indices. A packet
//! carries only what the models need, and the route it follows (an interned list of link
//! directions plus the index of the next hop), so forwarding needs no lookup.

use super::time::SimTime;

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

/// ECN-capable transport (ECT codepoint set by the sender).
pub const FLAG_ECT: u8 = 1;
/// Congestion experienced (set by a marking queue).
pub const FLAG_CE: u8 = 2;
/// ECN echo (receiver to sender).
pub const FLAG_ECE: u8 = 4;
/// Congestion window reduced (sender to receiver).
pub const FLAG_CWR: u8 = 8;

#[derive(Debug, Clone, Copy)]
pub struct Packet {
    pub flow: u32,
    /// Packet sequence number (ns-2 counts packets, not bytes).
    pub seq: i64,
    /// Size on the wire in bytes.
    pub size: u32,
    pub kind: PacketKind,
    pub flags: u8,
    /// Index into the simulation's route table.
    pub route: u32,
    /// Index in the route of the link direction the packet is on or queued for.
    pub hop: u16,
    /// When the sender sent it.
    pub sent_at: SimTime,
    /// When it entered its current queue (for sojourn times).
    pub enqueued_at: SimTime,
}

#[derive(Debug, Default)]
pub struct PacketArena {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
}

impl PacketArena {
    pub fn alloc(&mut self, packet: Packet) -> PacketId {
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = packet;
            id
        } else {
            self.slots.push(packet);
            (self.slots.len() - 1) as PacketId
        }
    }

    pub fn free(&mut self, id: PacketId) {
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    /// Packets currently allocated.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}
