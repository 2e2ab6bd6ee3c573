//! What a TCP receiver tells its sender in one ACK.

use crate::engine::packet::{Packet, SackBlocks, NO_ECHO, TCP_ECE};
use crate::engine::SimTime;

/// One ACK as the sender sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckInfo {
    /// Cumulative ACK: the highest packet received in order (−1 before any).
    pub ack: i64,
    /// SACK blocks, most recent first (empty unless the receiver does SACK).
    pub sack: SackBlocks,
    /// ECN echo: the receiver saw a CE mark not yet answered by CWR (RFC 3168 §6.1.3).
    pub ece: bool,
    /// The sequence number of the data packet that triggered this ACK (the echo option
    /// of reference document 003); `None` for ACKs sent by the delayed-ACK timer.
    pub echo_seq: Option<i64>,
    /// Send time of the data packet that triggered the ACK (timestamp echo).
    pub ts_echo: SimTime,
}

impl AckInfo {
    /// A plain cumulative ACK (no SACK, no ECN echo, no echo option).
    pub fn cumulative(ack: i64) -> AckInfo {
        AckInfo { ack, sack: SackBlocks::EMPTY, ece: false, echo_seq: None, ts_echo: 0 }
    }

    /// Writes the ACK's fields into an ACK packet (its SACK blocks go to the packet arena:
    /// `PacketArena::set_sack`).
    pub fn write_to(&self, p: &mut Packet) {
        p.seq = self.ack;
        if self.ece {
            p.tcp_flags |= TCP_ECE;
        }
        p.echo_seq = self.echo_seq.unwrap_or(NO_ECHO);
        p.ts_echo = self.ts_echo;
    }

    /// Reads an ACK packet and its SACK blocks.
    pub fn read_from(p: &Packet, sack: &SackBlocks) -> AckInfo {
        AckInfo {
            ack: p.seq,
            sack: *sack,
            ece: p.tcp_flags & TCP_ECE != 0,
            echo_seq: (p.echo_seq != NO_ECHO).then_some(p.echo_seq),
            ts_echo: p.ts_echo,
        }
    }
}
