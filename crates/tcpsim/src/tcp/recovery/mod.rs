//! Loss recovery: what to retransmit and when.
//!
//! A variant reacts to each ACK (new data, duplicate, partial) and to the retransmission
//! timer, using the procedures of the shared sender state (`TcpState`) and asking the
//! congestion control how far to cut the window.

pub mod newreno;
pub mod reno;
pub mod tahoe;

use super::cc::CongestionControl;
use super::sender::TcpState;
use crate::engine::SimTime;

pub trait LossRecovery {
    /// The scenario-file name of the variant.
    fn name(&self) -> &'static str;
    /// A cumulative ACK for packet `ack` arrived.
    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, ack: i64, now: SimTime);
    /// The retransmission timer expired.
    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryKind {
    Tahoe,
    Reno,
    NewReno,
}

impl RecoveryKind {
    pub const NAMES: &'static [&'static str] = &["tahoe", "reno", "newreno"];

    pub fn from_name(name: &str) -> Option<RecoveryKind> {
        match name {
            "tahoe" => Some(RecoveryKind::Tahoe),
            "reno" => Some(RecoveryKind::Reno),
            "newreno" => Some(RecoveryKind::NewReno),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RecoveryKind::Tahoe => "tahoe",
            RecoveryKind::Reno => "reno",
            RecoveryKind::NewReno => "newreno",
        }
    }

    pub fn build(self) -> Box<dyn LossRecovery> {
        match self {
            RecoveryKind::Tahoe => Box::new(tahoe::Tahoe),
            RecoveryKind::Reno => Box::new(reno::Reno),
            RecoveryKind::NewReno => Box::new(newreno::NewReno),
        }
    }
}

/// Duplicate-ACK counting common to all variants; returns true when the duplicate
/// reaches the fast-retransmit threshold.
pub(crate) fn count_duplicate(s: &mut TcpState, now: SimTime) -> DupAck {
    s.dupacks += 1;
    let threshold = s.params.dupack_threshold;
    if s.dupacks == threshold {
        DupAck::Threshold
    } else if s.dupacks > threshold {
        DupAck::Beyond
    } else {
        if s.params.limited_transmit {
            s.send_one(now);
        }
        DupAck::Below
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DupAck {
    Below,
    Threshold,
    Beyond,
}

/// ns-2's guard against a second fast retransmit for losses of one window (`bugFix_`):
/// allowed once the ACK passed `recover`, or while only packet 0 is acknowledged (ns-2
/// `bugfix_ss_`), so that a loss of the first data packet is repaired.
pub(crate) fn fast_retransmit_allowed(s: &TcpState) -> bool {
    s.last_ack > s.recover || s.last_ack == 0
}

#[cfg(test)]
mod tests;
