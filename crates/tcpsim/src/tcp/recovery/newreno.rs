//! NewReno: fast recovery that stays in recovery across partial ACKs.
//!
//! RFC 6582 (and RFC 2582, which ns-2 follows); Hoe, "Improving the Start-up Behavior of
//! a Congestion Control Scheme for TCP", SIGCOMM 1996; ns-2.35 `Agent/TCP/Newreno`
//! (tcp-newreno.cc) with its defaults partial_window_deflation_ = 1,
//! newreno_changes1_ = 1, newreno_changes_ = 0, exit_recovery_fix_ = 0.
//!   3rd duplicate ACK: as Reno (recover ← maxseq, halve, retransmit, inflation ← 3)
//!   partial ACK (last_ack < ack < recover): retransmit ack + 1 at once, stay in
//!     recovery; deflate by the packets acknowledged: if inflation > acked then
//!     inflation −= acked − 1, else cwnd −= acked − inflation and inflation ← 1;
//!     the timer is restarted only on the first partial ACK ("impatient" variant)
//!   ACK ≥ recover: recovery ends, inflation ← 0 (cwnd stays at the halved value)
//!   during recovery new data leaves at most two packets per ACK (ns-2 maxburst 2).

use super::reno::{may_send_new_data, on_duplicate};
use super::LossRecovery;
use crate::engine::SimTime;
use crate::model::{Family, ModelSpec, no_check, Relations};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{CwndAction, TcpState};

/// Packets NewReno may send per ACK while in recovery (ns-2 `send_much(0, 0, 2)`).
const RECOVERY_MAX_BURST: u32 = 2;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "newreno",
    summary: "fast recovery that stays in recovery across partial ACKs, retransmitting one packet per partial ACK",
    source: "RFC 6582; ns-2.35 Agent/TCP/Newreno (tcp-newreno.cc)",
    params: &[],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |_| Box::new(NewReno) };

#[derive(Debug, Clone, Default)]
pub struct NewReno;

impl NewReno {
    /// ns-2 `partialnewack_helper` + `partialnewack`.
    fn partial_ack(s: &mut TcpState, ack: i64, now: SimTime) {
        if !s.first_partial_seen {
            s.first_partial_seen = true;
            s.restart_timer_if_outstanding(ack, now);
        }
        let acked = ack - s.last_ack;
        if s.dupwnd > acked {
            s.dupwnd -= acked - 1;
        } else {
            s.window.cwnd -= (acked - s.dupwnd) as f64;
            // Inflation stays positive to flag that recovery continues.
            s.dupwnd = 1;
        }
        if s.window.cwnd < 1.0 {
            s.window.cwnd = 1.0;
        }
        s.last_ack = ack;
        if s.t_seqno < ack + 1 {
            s.t_seqno = ack + 1;
        }
        // Karn: the timed packet may have been retransmitted; drop the measurement.
        if s.rtt_active && ack >= s.rtt_seq {
            s.rtt_active = false;
            s.rtt.backoff = 1;
        }
        s.output(ack + 1, now);
    }
}

impl LossRecovery for NewReno {
    fn name(&self) -> &'static str {
        "newreno"
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if ack > s.last_ack {
            if ack >= s.recover || s.last_cwnd_action != CwndAction::Dupack {
                if s.dupwnd > 0 {
                    s.dupwnd = 0;
                    if s.last_cwnd_action == CwndAction::Dupack {
                        s.exit_recovery(cc, now);
                    }
                }
                s.first_partial_seen = false;
                s.ack_new_data(cc, info, now);
            } else {
                Self::partial_ack(s, ack, now);
            }
        } else if ack == s.last_ack {
            on_duplicate(s, cc, now, false);
        }
        if ack >= s.last_ack {
            if s.dupacks == 0 {
                s.send_much(now, 0);
            } else if may_send_new_data(s) {
                s.send_much(now, RECOVERY_MAX_BURST);
            }
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.dupwnd = 0;
        s.dupacks = 0;
        s.recover = s.maxseq;
        s.on_timeout(cc, now);
    }
}
