//! Reno: fast retransmit and fast recovery with window inflation.
//!
//! Jacobson, "Modified TCP Congestion Avoidance Algorithm", end2end-interest, 1990;
//! RFC 5681 §3.2; reference document 000 §1.1; ns-2.35 `Agent/TCP/Reno` (tcp-reno.cc).
//!   3rd duplicate ACK: recover ← maxseq; ssthresh ← max(⌊W/2⌋, 2); cwnd ← W/2
//!                      (W = min(cwnd, advertised window), real: ns-2 precisionReduce_);
//!                      retransmit last_ack + 1; inflation ← 3
//!   each further duplicate in recovery: inflation + 1 (window = ⌊cwnd⌋ + inflation)
//!   any ACK of new data: inflation ← 0 — recovery ends, even on a partial ACK
//! A partial ACK therefore leaves the rest of the losses to new duplicate ACKs, which
//! `bugFix_` ignores until `recover` is passed: several losses in one window usually end
//! in a timeout, as in ns-2.
//!
//! Choices (ns-2): new data is sent only when there are no duplicate ACKs or at least
//! dupack_threshold of them; limited transmit covers the first two. A third duplicate
//! refused by `bugFix_` does not inflate the window (`exitFastRetrans_`). A third
//! duplicate in the window of an ECN response retransmits and inflates without halving
//! again (ns-2 `dupack_action`, ECN case).

use super::{count_duplicate, fast_retransmit_allowed, retransmit_into_recovery, DupAck, LossRecovery};
use crate::engine::SimTime;
use crate::model::{Family, ModelSpec, no_check, Relations};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{CwndAction, CwndCut, TcpState};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "reno",
    summary: "fast retransmit and fast recovery with window inflation; a partial ACK ends recovery",
    source: "RFC 5681 §3.2; ns-2.35 Agent/TCP/Reno (tcp-reno.cc)",
    params: &[],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |_| Box::new(Reno) };

#[derive(Debug, Clone, Default)]
pub struct Reno;

/// Fast retransmit with halving and inflation (ns-2 `RenoTcpAgent::dupack_action`).
/// `still_in_recovery` is Reno's `allow_fast_retransmit`: a repeated threshold inside
/// the same recovery is honoured. In the window of an ECN response the retransmission
/// and fast recovery happen without a second halving (ns-2: "ECN reduced the window
/// already"; `tcp/ecn/mod.rs` rule 5).
pub(crate) fn fast_retransmit(s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime, still_in_recovery: bool) {
    if fast_retransmit_allowed(s) || still_in_recovery {
        s.recover = s.maxseq;
        // ns-2 sets CWND_ACTION_DUPACK before `slowdown`, which reads it (TCP(α, β)).
        s.last_cwnd_action = CwndAction::Dupack;
        s.slowdown(cc, CwndCut::ToReduced, now);
    } else if !s.ecn_reduced_this_window() {
        return;
    }
    retransmit_into_recovery(s, cc, now);
    s.dupwnd = s.params.dupack_threshold as i64;
}

/// Reno and NewReno inflate the window by one for each duplicate beyond the threshold
/// while in fast recovery (ns-2 `exitFastRetrans_` on: a refused fast retransmit does
/// not inflate).
pub(crate) fn on_duplicate(s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime, reno_refires: bool) {
    match count_duplicate(s, now) {
        DupAck::Threshold => {
            let still_in_recovery = reno_refires && s.last_cwnd_action == CwndAction::Dupack;
            fast_retransmit(s, cc, now, still_in_recovery);
        }
        DupAck::Beyond if s.last_cwnd_action == CwndAction::Dupack => s.dupwnd += 1,
        DupAck::Beyond | DupAck::Below => {}
    }
}

/// Reno and NewReno leave the window closed on the first dupack_threshold − 1 duplicates.
pub(crate) fn may_send_new_data(s: &TcpState) -> bool {
    s.dupacks == 0 || s.dupacks + 1 > s.params.dupack_threshold
}

impl LossRecovery for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if ack > s.last_ack {
            if s.last_cwnd_action == CwndAction::Dupack {
                s.exit_recovery(cc, now);
            }
            s.dupwnd = 0;
            s.ack_new_data(cc, info, now);
        } else if ack == s.last_ack {
            on_duplicate(s, cc, now, true);
        }
        if ack >= s.last_ack && may_send_new_data(s) {
            s.send_much(now, 0);
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.dupwnd = 0;
        s.dupacks = 0;
        s.recover = s.maxseq;
        s.on_timeout(cc, now);
    }
}
