//! Tahoe: fast retransmit, then slow start from one packet (go-back-N).
//!
//! Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988; ns-2.35 `Agent/TCP`
//! (`TcpAgent::recv`, `dupack_action`). On the third duplicate ACK:
//!   recover ← maxseq; ssthresh ← max(⌊window/2⌋, 2); cwnd ← 1;
//!   resend from the first unacknowledged packet (t_seqno ← last_ack + 1).
//! A timeout does the same and backs the timer off.
//!
//! Choices (ns-2): no second fast retransmit until an ACK passes `recover` (bugFix_),
//! except after an ECN response in the same window: then cwnd ← 1 with ssthresh kept and
//! go-back-N (ns-2 `dupack_action`, ECN case; `tcp/ecn/mod.rs` rule 5).

use super::{count_duplicate, fast_retransmit_allowed, DupAck, LossRecovery};
use crate::engine::SimTime;
use crate::model::{Family, ModelSpec, no_check, Relations};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{CwndAction, CwndCut, TcpState};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "tahoe",
    summary: "fast retransmit, then slow start from one packet (go-back-N)",
    source: "Jacobson 1988; ns-2.35 Agent/TCP (tcp.cc)",
    params: &[],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |_| Box::new(Tahoe) };

#[derive(Debug, Clone, Default)]
pub struct Tahoe;

impl LossRecovery for Tahoe {
    fn name(&self) -> &'static str {
        "tahoe"
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if ack > s.last_ack {
            s.ack_new_data(cc, info, now);
        } else if ack == s.last_ack && count_duplicate(s, now) == DupAck::Threshold {
            if fast_retransmit_allowed(s) {
                s.recover = s.maxseq;
                // ns-2 sets CWND_ACTION_DUPACK before `slowdown`, which reads it.
                s.last_cwnd_action = CwndAction::Dupack;
                s.slowdown(cc, CwndCut::ToOne, now);
                s.enter_recovery(cc, now);
                s.reset_rtx_timer(false, false, now);
            } else if s.ecn_reduced_this_window() {
                // ns-2 dupack_action: an ECN response already halved ssthresh in this
                // window; restart from one packet without halving again.
                s.close_cwnd_to_one();
                s.enter_recovery(cc, now);
                s.reset_rtx_timer(false, false, now);
            }
        }
        if ack >= s.last_ack {
            s.send_much(now, 0);
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.on_timeout(cc, now);
    }
}
