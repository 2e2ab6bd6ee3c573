//! Congestion control: how the window moves.
//!
//! Loss recovery (in `tcp/recovery/`) decides what to retransmit and when; a congestion
//! control decides how much the window grows on each ACK and how far it falls on
//! congestion. The sender calls these hooks; an algorithm owns only its own state.

pub mod reno;

pub use reno::Reno;

use crate::engine::SimTime;

/// The window a congestion control moves, in packets (ns-2 counts packets; cwnd is real).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Congestion window, packets.
    pub cwnd: f64,
    /// Slow-start threshold, packets.
    pub ssthresh: f64,
}

/// What the sender knows when an ACK of new data arrives.
#[derive(Debug, Clone, Copy)]
pub struct AckSample {
    /// Arrival time of the ACK.
    pub now: SimTime,
    /// Packets newly acknowledged by this ACK (≥ 1).
    pub acked_packets: i64,
    /// A round-trip-time measurement completed by this ACK, in seconds (`None` if none).
    pub rtt_s: Option<f64>,
}

/// The congestion-control trait.
pub trait CongestionControl {
    /// The scenario-file name of the algorithm.
    fn name(&self) -> &'static str;

    /// An ACK of new data arrived outside loss recovery: grow the window (ns-2 `opencwnd`).
    /// Called once per ACK, however many packets it acknowledges, as ns-2 does.
    fn on_ack(&mut self, window: &mut Window, sample: &AckSample);

    /// The window to fall back to after congestion, in packets, given the flight window
    /// W (ns-2 `windowd()`: min(cwnd + fast-recovery inflation, advertised window)).
    /// The sender sets ssthresh to ⌊result⌋ (at least 2), and cwnd to the result (fast
    /// recovery) or to one packet (Tahoe, timeout).
    fn reduced_window(&mut self, window: &Window, flight_window: f64) -> f64;
}

/// Congestion-control algorithms selectable in a scenario file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CcKind {
    Reno,
}

impl CcKind {
    pub const NAMES: &'static [&'static str] = &["reno"];

    pub fn from_name(name: &str) -> Option<CcKind> {
        match name {
            "reno" => Some(CcKind::Reno),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CcKind::Reno => "reno",
        }
    }

    pub fn build(self) -> Box<dyn CongestionControl> {
        match self {
            CcKind::Reno => Box::new(Reno::default()),
        }
    }
}
