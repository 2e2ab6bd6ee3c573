//! Router queue disciplines.
//!
//! A discipline decides, for each arriving packet, whether it is queued, marked (ECN CE)
//! and queued, or dropped, and which packet leaves next. The link direction that owns it
//! keeps the counters (arrivals, departures, drops by reason, marks, lengths, sojourn), so
//! a discipline contains only its algorithm.

pub mod droptail;
pub mod red;

pub use droptail::{DropTail, DropTailParams};
pub use red::{Red, RedParams};

use crate::engine::{PacketId, RandomStream, SimTime};
use std::collections::VecDeque;

/// What a discipline sees of an arriving packet.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub id: PacketId,
    /// Size on the wire, bytes.
    pub size: u32,
    /// The packet is ECN-capable (ECT set).
    pub ect: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The buffer was full.
    Overflow,
    /// An AQM dropped it before the buffer was full.
    Early,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Queued,
    /// Queued with the CE codepoint set.
    Marked,
    /// The arriving packet is dropped (and not queued).
    Dropped(DropReason),
}

/// A queue size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

/// The queue-discipline trait.
pub trait QueueDiscipline {
    /// Name used in result tables ("droptail", "red").
    fn kind(&self) -> &'static str;
    /// Offers an arriving packet at time `now`.
    fn enqueue(&mut self, arrival: Arrival, now: SimTime) -> Verdict;
    /// Takes the next packet to transmit. Called each time the link becomes free, also
    /// when the queue is empty (RED starts its idle period then, as in ns-2).
    fn dequeue(&mut self, now: SimTime) -> Option<PacketId>;
    /// Waiting packets (not counting the one being transmitted).
    fn len_packets(&self) -> usize;
    /// Waiting bytes.
    fn len_bytes(&self) -> u64;
    /// The AQM's average queue estimate, if it keeps one (RED: packets or bytes).
    fn average(&self) -> Option<f64> {
        None
    }
}

/// A FIFO of packet ids with a byte count, shared by the disciplines.
#[derive(Debug, Default)]
pub struct Fifo {
    packets: VecDeque<(PacketId, u32)>,
    bytes: u64,
}

impl Fifo {
    pub fn push(&mut self, id: PacketId, size: u32) {
        self.packets.push_back((id, size));
        self.bytes += size as u64;
    }

    pub fn pop(&mut self) -> Option<PacketId> {
        let (id, size) = self.packets.pop_front()?;
        self.bytes -= size as u64;
        Some(id)
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

/// Parameters of any discipline, as read from a scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum QueueParams {
    DropTail(DropTailParams),
    Red(RedParams),
}

impl QueueParams {
    /// Builds the discipline for a link direction of `rate_bps`; `random` is the
    /// component's own stream.
    pub fn build(&self, rate_bps: u64, random: RandomStream) -> Box<dyn QueueDiscipline> {
        match self {
            QueueParams::DropTail(p) => Box::new(DropTail::new(p.clone())),
            QueueParams::Red(p) => Box::new(Red::new(p.clone(), rate_bps, random)),
        }
    }

    /// The largest packet (bytes) the configured limit can hold, to reject limits that
    /// cannot hold one packet.
    pub fn capacity_check(&self, max_packet: u32) -> Result<(), String> {
        match self {
            // DropTail drops an arrival when waiting + 1 ≥ limit (ns-2), so a limit of 1
            // packet, or of no more bytes than a packet, drops everything.
            QueueParams::DropTail(p) => match p.limit {
                Limit::Packets(n) if n < 2 => {
                    Err("a limit of at least 2 packets (ns-2 counts the packet being transmitted: a limit of 1 drops every packet)".into())
                }
                Limit::Bytes(b) if b <= max_packet as u64 => {
                    Err(format!("a limit larger than the largest packet ({max_packet} B)"))
                }
                _ => Ok(()),
            },
            QueueParams::Red(p) => {
                if p.queue_in_bytes {
                    let bytes = p.limit_bytes();
                    if bytes < max_packet as u64 {
                        return Err(format!(
                            "a limit of at least one packet ({max_packet} B); in byte mode the limit is {bytes} B"
                        ));
                    }
                } else if p.limit_packets() == 0 {
                    return Err(format!(
                        "a limit of at least 1 packet; a byte limit counts packets of mean_packet_size ({} B) in packet mode",
                        p.mean_packet_size
                    ));
                }
                Ok(())
            }
        }
    }
}
