//! Link error models: packets lost on a link, for example during a wireless handoff.
//!
//! ns-2 attaches an `ErrorModel` to a link after its queue (`$ns lossmodel $em $a $b`):
//! the model sees each packet as it leaves the queue for the transmitter, and a packet it
//! corrupts still occupies the transmitter for its serialization time but never reaches
//! the far end (ns-2 schedules the queue's resume after the packet's transmission time
//! whether or not the packet was dropped). tcpsim does the same: the model decides when
//! the transmission starts, and the packet is dropped where it would have arrived.
//! Losses are counted per link direction (`error_drops` in the links table) and in the
//! flow's `drops`.
//!
//! Each model lives in its own file with a `SPEC` in the registry; each link direction
//! draws from its own random stream ("error FROM->TO"), so a run is deterministic for a
//! seed and adding a flow does not move another link's losses.

pub mod blackout;
pub mod uniform;

use crate::engine::{RandomStream, SimTime};

/// What an error model sees of a packet about to be transmitted.
#[derive(Debug, Clone, Copy)]
pub struct Transmission {
    /// When its transmission starts.
    pub at: SimTime,
    /// Size on the wire, bytes.
    pub size: u32,
}

/// The error-model trait: decide, for each packet a link transmits, whether it is lost.
pub trait ErrorModel {
    /// True if the packet is lost.
    fn loses(&mut self, packet: &Transmission, random: &mut RandomStream) -> bool;
}
