//! Vegas loss recovery: the retransmission mechanism of ns-2.35's `Agent/TCP/Vegas`.
//!
//! Brakmo & Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global Internet",
//! IEEE JSAC 13(8), 1995, §3.1 ("New retransmission mechanism"); Chan, Lin & Ho 2008
//! (reference document 001), Sect. 3.1 (Vegas' retransmission and window cuts); ns-2.35
//! `VegasTcpAgent::recv` and
//! `VegasTcpAgent::timeout` (tcp/tcp-vegas.cc). The window rules of the same agent are
//! `cc = "vegas"` (tcp/cc/vegas.rs); a scenario that names `cc = "vegas"` gets this
//! recovery unless it names another.
//!
//! Duplicate ACK (dupacks + 1):
//!   if the first unacknowledged packet timed out on the congestion control's fine-grained
//!   timer (`CongestionControl::packet_timed_out`), or this is the dupack_threshold-th:
//!     unless a timeout came last and `recover` is not passed (ns-2 `bug_fix_`):
//!       recover ← maxseq; check the next min(2, snd_nxt − last_ack) new ACKs (`worried`)
//!       if the window was not cut since that packet was sent (ns-2 `t_cwnd_changed_`):
//!         reduced ← reduced_window(W), W = min(⌊cwnd⌋, advertised window);
//!         cwnd ← reduced + dupacks (inflated at once)
//!       the congestion control's `on_recovery_start` (Vegas backs off its fine-grained
//!       timer); back off the retransmission timer and rearm it, keeping snd_nxt
//!       (ns-2 `reset_rtx_timer(1)`, whose back-off is on); retransmit the packet;
//!       if it had been sent only once, dupacks ← dupack_threshold
//!   else, beyond the threshold: cwnd ← cwnd + 1
//! New ACK:
//!   if the previous ACK was for packet 0: cwnd ← initial window (ns-2 `delay_growth_`,
//!     tested before the ACK is taken, so one ACK later than the other agents)
//!   if more than dupack_threshold duplicates came before and cwnd > reduced:
//!     cwnd ← reduced, ssthresh ← 2 (deflate; ssthresh only marks slow start in Vegas)
//!   ACK bookkeeping (RTT sample for the coarse timer, timer), the congestion control's
//!   `on_ack`, then, while `worried`: if the new first unacknowledged packet timed out,
//!   retransmit it and dupacks ← dupack_threshold, else stop checking
//! New data leaves only with no duplicates or at least dupack_threshold of them.
//! Timeout: dupacks ← 0, recover ← maxseq, back off, go back to the first unacknowledged
//!   packet; ssthresh ← max(⌊W/2⌋, 2) with W = min(cwnd, advertised window) real (ns-2
//!   `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)`), cwnd ← 1, then the congestion
//!   control's `on_timeout` (Vegas: cwnd ← 2); reduced ← 0; the window counts as cut now.
//!
//! How it differs from Reno recovery (tcp/recovery/reno.rs), all as in ns-2:
//! - fast retransmit can come on the first or second duplicate (fine-grained timer), and
//!   again within the same window; only a timeout blocks it until `recover` is passed;
//! - no ssthresh change on fast retransmit, and no cut at all when the window was already
//!   cut after the lost packet was sent (one cut per congestion episode);
//! - inflation is in cwnd itself; it is undone only when more than dupack_threshold
//!   duplicates arrived (exactly three leave cwnd = reduced + 3);
//! - the retransmission timer is backed off on every fast retransmit;
//! - no limited transmit (`limited_transmit` has no effect), no ECN response;
//! - the timeout sets ssthresh from the halved window whatever the congestion control's
//!   `reduced_window`, and has no special case for "nothing outstanding".
//!
//! Parameter `resend_unsent` (default true, ns-2): when the new ACK acknowledges every
//! packet sent, the next packet has not been sent yet; ns-2's `vegas_expire` reads its
//! cleared send-time slot as long expired, so the check above sends it at once, and then
//! sends it again as new data (the second copy counts as a retransmission). This happens
//! whenever a retransmission's ACK finds nothing else outstanding, so it changes the
//! trajectory after losses in small windows. false: only packets already sent are checked
//! (Brakmo & Peterson's mechanism).

use super::LossRecovery;
use crate::engine::SimTime;
use crate::model::{Family, ModelConfig, ModelSpec, no_check, Param, ParamType as T, Relations, Value as V};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::{AckEvent, CcView, CongestionControl};
use crate::tcp::state::{ack_rtt, CwndAction, TcpState};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "vegas",
    summary: "Vegas retransmission: fine-grained timer checked on duplicate ACKs and after retransmissions, one window cut per episode, inflation in cwnd",
    source: "Brakmo & Peterson, IEEE JSAC 13(8), 1995, §3.1; ns-2.35 Agent/TCP/Vegas (tcp-vegas.cc)",
    params: &[Param::new(
        "resend_unsent",
        T::Bool,
        "",
        V::Bool(true),
        "after a retransmission, a new ACK that leaves nothing outstanding sends the next packet at once and again as new data (ns-2 reads its cleared send-time slot as expired); false checks only packets already sent",
        "ns-2.35 VegasTcpAgent::recv and vegas_expire",
    )],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |c| Box::new(Vegas::new(c)) };

/// ssthresh after the window is deflated (ns-2; Vegas uses ssthresh only for slow start).
const SSTHRESH_AFTER_DEFLATION: f64 = 2.0;
/// New ACKs checked for another timed-out packet after a retransmission (ns-2).
const ACKS_CHECKED_AFTER_RETRANSMIT: i64 = 2;

#[derive(Debug, Clone, Default)]
pub struct Vegas {
    /// Check the next packet even when it was not sent yet (ns-2; `resend_unsent`).
    resend_unsent: bool,
    /// New ACKs still to check for a timed-out packet (ns-2 `v_worried_`).
    worried: i64,
    /// The window set by the last cut, before inflation, packets (ns-2 `v_newcwnd_`).
    reduced: f64,
    /// When the window was last cut (ns-2 `t_cwnd_changed_`); None: never, which ns-2
    /// counts as the instant of the first send.
    cut_at: Option<SimTime>,
}

impl Vegas {
    pub fn new(c: &ModelConfig) -> Self {
        Vegas { resend_unsent: c.boolean("resend_unsent"), ..Vegas::default() }
    }

    fn new_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let threshold = s.params.dupack_threshold;
        if s.last_ack == 0 {
            s.window.cwnd = s.wnd_init;
        }
        if s.dupacks > threshold && s.window.cwnd > self.reduced {
            s.window.cwnd = self.reduced;
            s.window.ssthresh = SSTHRESH_AFTER_DEFLATION;
        }
        if s.last_cwnd_action == CwndAction::Dupack {
            s.exit_recovery(cc, now);
        }
        let ack = info.ack;
        let acked_packets = ack - s.last_ack;
        let rtt_s = s.new_ack(ack, info.ece, now);
        let event = AckEvent { info, acked_packets, duplicate: false, rtt_s, ack_rtt_s: ack_rtt(info, now) };
        cc.on_ack(&mut CcView::new(s, now), &event);
        if self.worried > 0 {
            // Brakmo & Peterson §3.1: the first or second ACK after a retransmission
            // checks whether the next packet was lost too.
            self.worried -= 1;
            let next = ack + 1;
            let checked = next <= s.maxseq || self.resend_unsent;
            if checked && cc.packet_timed_out(&CcView::new(s, now), next) {
                s.dupacks = threshold;
                s.output(next, now);
            } else {
                self.worried = 0;
            }
        }
    }

    fn duplicate(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.dupacks += 1;
        let first_unacked = s.last_ack + 1;
        let timed_out = cc.packet_timed_out(&CcView::new(s, now), first_unacked);
        if timed_out || s.dupacks == s.params.dupack_threshold {
            // ns-2 bug_fix_: after a timeout, wait for `recover` to be passed, so that the
            // duplicates of packets resent by go-back-N start no fast retransmit.
            if s.last_ack > s.recover || s.last_cwnd_action != CwndAction::Timeout {
                self.fast_retransmit(s, cc, now);
            }
        } else if s.dupacks > s.params.dupack_threshold {
            s.window.cwnd += 1.0;
        }
    }

    fn fast_retransmit(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        let first_unacked = s.last_ack + 1;
        let flight_window = s.flight_window();
        let (sent_at, transmissions) = match &s.send_times {
            Some(t) => (t.get(first_unacked), t.transmissions(first_unacked)),
            None => (None, 0),
        };
        s.recover = s.maxseq;
        self.worried = (s.t_seqno - s.last_ack).min(ACKS_CHECKED_AFTER_RETRANSMIT);
        // One cut per congestion episode: a packet sent before the last cut was lost to
        // the congestion that cut already answered.
        let cut_at = self.cut_at.or(s.first_sent);
        if sent_at.map_or(true, |sent| cut_at.map_or(true, |cut| cut < sent)) {
            self.reduced = cc.reduced_window(&CcView::new(s, now), flight_window as f64);
            s.window.cwnd = self.reduced + s.dupacks as f64;
            self.cut_at = Some(now);
        }
        s.enter_recovery(cc, now);
        s.reset_rtx_timer(true, true, now);
        s.output(first_unacked, now);
        if transmissions <= 1 {
            s.dupacks = s.params.dupack_threshold;
        }
    }
}

impl LossRecovery for Vegas {
    fn name(&self) -> &'static str {
        "vegas"
    }

    fn wants_send_times(&self) -> bool {
        true
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        if info.ack > s.last_ack {
            self.new_ack(s, cc, info, now);
        } else if info.ack == s.last_ack {
            self.duplicate(s, cc, now);
        }
        if s.dupacks == 0 || s.dupacks >= s.params.dupack_threshold {
            s.send_much(now, 0);
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.dupacks = 0;
        s.recover = s.maxseq;
        s.last_cwnd_action = CwndAction::Timeout;
        s.reset_rtx_timer(false, true, now);
        s.stats.timeouts += 1;
        // ns-2 slowdown after a timeout takes half the real window for ssthresh.
        s.window.ssthresh = (s.flight_window_real() / 2.0).floor().max(2.0);
        s.window.cwnd = 1.0;
        cc.on_timeout(&mut CcView::new(s, now));
        self.reduced = 0.0;
        self.cut_at = Some(now);
        s.send_much(now, 0);
    }
}
