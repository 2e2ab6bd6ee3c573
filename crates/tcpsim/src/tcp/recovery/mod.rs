//! Loss recovery: what to retransmit and when.
//!
//! A variant reacts to each ACK (new data, duplicate, partial) and to the retransmission
//! timer, using the procedures of the shared sender state (`TcpState`) and asking the
//! congestion control how far to cut the window. Each variant lives in its own file with
//! a `SPEC` and a [`RecoveryModel`], listed in `crate::catalogue`; what Reno and NewReno share is in
//! `reno.rs`, what every variant shares is here and in `TcpState`.

pub mod fack;
pub mod newreno;
pub mod prr;
pub mod rack;
pub mod reno;
pub mod sack1;
pub mod scoreboard;
pub mod tahoe;
pub mod vegas;

use super::ack::AckInfo;
use super::cc::CongestionControl;
use super::state::{CwndAction, CwndCut, TcpState};
use crate::engine::SimTime;
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec};

/// A loss recovery as the catalogue lists it: its spec and its constructor.
pub struct RecoveryModel {
    pub spec: &'static ModelSpec,
    pub build: fn(&ModelConfig) -> Box<dyn LossRecovery>,
}

impl FamilyModel for RecoveryModel {
    const FAMILY: Family = Family::Recovery;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

impl Chosen<RecoveryModel> {
    /// A loss recovery of this model and configuration (one per flow).
    pub fn build(&self) -> Box<dyn LossRecovery> {
        (self.model.build)(&self.config)
    }
}

pub trait LossRecovery {
    /// The scenario-file name of the variant.
    fn name(&self) -> &'static str;
    /// An ACK arrived (cumulative ACK `ack.ack`, SACK blocks, ECN echo).
    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, ack: &AckInfo, now: SimTime);
    /// The retransmission timer expired.
    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime);
    /// Keep the send time and transmission count of every outstanding packet
    /// (`TcpState::send_times`), as a congestion control can ask with
    /// `CongestionControl::wants_send_times`.
    fn wants_send_times(&self) -> bool {
        false
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

/// The fast retransmit of the variants that halve the window (ns-2
/// `RenoTcpAgent::dupack_action`, the `sack_action` of `Sack1TcpAgent::dupack_action`):
/// recover ← maxseq; ssthresh ← max(⌊W/2⌋, 2), cwnd ← W/2; the timer is rearmed without
/// going back (`reset_rtx_timer(1, 0)`); the first unacknowledged packet is resent.
pub(crate) fn halve_and_retransmit(s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
    s.recover = s.maxseq;
    // ns-2 sets CWND_ACTION_DUPACK before `slowdown`, which reads it (TCP(α, β)).
    s.last_cwnd_action = CwndAction::Dupack;
    s.slowdown(cc, CwndCut::ToReduced, now);
    retransmit_into_recovery(s, cc, now);
}

/// The second half of a fast retransmit, after any window cut: enter recovery, restart
/// the timer without back-off, resend the first unacknowledged packet.
pub(crate) fn retransmit_into_recovery(s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
    s.enter_recovery(cc, now);
    s.reset_rtx_timer(true, false, now);
    let first_unacked = s.last_ack + 1;
    s.output(first_unacked, now);
}

#[cfg(test)]
mod tests;
