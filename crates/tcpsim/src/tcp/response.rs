//! The congestion responses every loss recovery shares, each asking the congestion
//! control: window growth on an ACK of new data, the cut after a loss (`slowdown`), the
//! retransmission timeout, and the start and end of a fast recovery. ns-2.35 `Agent/TCP`
//! (tcp.cc: `recv_newack_helper`, `slowdown`, `timeout`); they sit above `cc/` because
//! they call it, while the state they work on (`state/`) does not know it.

use super::ack::AckInfo;
use super::cc::{AckEvent, CcView, CongestionControl};
use super::state::{ack_rtt, CwndAction, CwndCut, TcpState};
use crate::engine::SimTime;

impl TcpState {
    /// An ACK of new data outside recovery: bookkeeping, then window growth (ns-2
    /// `recv_newack_helper`).
    pub fn ack_new_data(&mut self, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        let acked_packets = ack - self.last_ack;
        let rtt_s = self.new_ack(ack, info.ece, now);
        let ack_rtt_s = ack_rtt(info, now);
        let event = AckEvent { info, acked_packets, duplicate: false, rtt_s, ack_rtt_s };
        if !self.is_congestion_echo(info) {
            cc.on_ack(&mut CcView::new(self, now), &event);
        }
        self.note_ecn_echo(info);
        if ack == 0 {
            // ns-2 delay_growth_: the first ACK (of the SYN, or of packet 0 without one)
            // sets the initial window, replacing the slow-start increment.
            self.window.cwnd = self.wnd_init;
        }
    }

    /// Congestion response (ns-2 `slowdown(CLOSE_SSTHRESH_HALF | cut)` with
    /// `precisionReduce_`: ssthresh ← ⌊W/2⌋ ≥ 2, cwnd ← W/2 real or 1). The next packet
    /// carries CWR (ns-2 `cong_action_`).
    pub fn slowdown(&mut self, cc: &mut dyn CongestionControl, cut: CwndCut, now: SimTime) {
        let flight = self.flight_window_real();
        let reduced = cc.reduced_window(&CcView::new(self, now), flight);
        // ns-2 `slowdown` with CLOSE_CWND_HALF or CLOSE_CWND_ONE sets `cong_action_`.
        self.cwr_pending = true;
        self.window.ssthresh = reduced.floor().max(2.0);
        self.window.cwnd = match cut {
            CwndCut::ToReduced => reduced.max(1.0),
            CwndCut::ToReducedMayIdle => reduced,
            CwndCut::ToOne => 1.0,
        };
        self.cwr_pending = true;
    }

    /// The retransmission timer expired (ns-2 `TcpAgent::timeout`, restart_bugfix_ on).
    pub fn on_timeout(&mut self, cc: &mut dyn CongestionControl, now: SimTime) {
        let nothing_outstanding = self.last_ack == self.maxseq;
        if self.window.cwnd < 1.0 {
            self.window.cwnd = 1.0;
        }
        self.recover = self.maxseq;
        if nothing_outstanding {
            // ns-2 restart_bugfix_: restart from one packet but keep ssthresh.
            self.close_cwnd_to_one();
        } else {
            if self.last_ack == -1 && self.wnd_init > 1.0 {
                // The very first packet was lost: restart with a window of one (ns-2 bugfix_ss_).
                self.wnd_init = 1.0;
            }
            self.stats.timeouts += 1;
            if self.last_cwnd_action == CwndAction::Ecn {
                // ns-2 timeout(): in recovery from a recent ECN response, which already
                // halved ssthresh in this window, do not halve it again.
                self.close_cwnd_to_one();
            } else {
                self.last_cwnd_action = CwndAction::Timeout;
                self.slowdown(cc, CwndCut::ToOne, now);
            }
        }
        self.reset_rtx_timer(false, !nothing_outstanding, now);
        self.last_cwnd_action = CwndAction::Timeout;
        cc.on_timeout(&mut CcView::new(self, now));
        self.send_much(now, 0);
    }

    /// Fast retransmit starts a loss recovery: note it and tell the congestion control
    /// (after the window was reduced).
    pub fn enter_recovery(&mut self, cc: &mut dyn CongestionControl, now: SimTime) {
        self.last_cwnd_action = CwndAction::Dupack;
        self.stats.fast_retransmits += 1;
        cc.on_recovery_start(&mut CcView::new(self, now));
    }

    /// Fast recovery ends (ns-2 `last_cwnd_action_` becomes EXITED).
    pub fn exit_recovery(&mut self, cc: &mut dyn CongestionControl, now: SimTime) {
        self.last_cwnd_action = CwndAction::Exited;
        cc.on_recovery_end(&mut CcView::new(self, now));
    }
}
