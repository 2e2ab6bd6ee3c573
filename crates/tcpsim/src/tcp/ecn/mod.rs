//! The ECN sender: what an ECN-capable TCP puts in its packets and how it answers an ECN
//! echo. Shared by every loss-recovery variant, as in ns-2.35, where `TcpAgent`
//! (tcp.cc) holds these rules and Tahoe, Reno and NewReno call them.
//!
//! RFC 3168 §6.1 (Ramakrishnan, Floyd, Black, "The Addition of Explicit Congestion
//! Notification (ECN) to IP", 2001); reference document 002 §2.4; ns-2.35 `tcp.cc`
//! (`output`, `ecn`, `newack`, `recv_newack_helper`, `dupack_action`, `timeout`),
//! `tcp-reno.cc` and `tcp-newreno.cc` (`dupack_action`). The receiver's half (the echo
//! of ns-2 `Acker::ecn_unacked_`) is in `tcp/receiver/mod.rs`; routers mark in
//! `queue/red.rs`.
//!
//! Rules (parameter `ecn = true`):
//!   1. Packets (ns-2 `output`): packet 0 (the SYN, or the first data packet without a
//!      SYN) carries ECE and not ECT — the ECN offer; every other data packet carries
//!      ECT(0), retransmissions too unless `ect_on_retransmit = false` (RFC 3168
//!      §6.1.5). After any window reduction (ECN, fast retransmit, timeout) the next
//!      packet carries CWR, also a retransmission unless `cwr_on_retransmit = false`
//!      (ns-2 `slowdown` sets `cong_action_`, `output` honours `SetCWRonRetransmit_`;
//!      RFC 3168 §6.1.2 says the first new data packet).
//!   2. The receiver answers the offer with ECE on the ACK of packet 0; the first ACK of
//!      new data carrying ECE marks the peer ECN-capable (ns-2 `ect_`). Before that, ECE
//!      does not stop window growth or end a timer back-off.
//!   3. Response (ns-2 `ecn(seqno)`, called for every ACK with ECE, new or duplicate,
//!      before anything else): if ack > recover or the last window action was a timeout,
//!      then recover ← maxseq and last action ← ECN; if cwnd ≤ 1, back the timer off if
//!      the previous response also found cwnd ≤ 1, else remember that it did (ns-2
//!      `ecn_backoff_`); ssthresh ← max(⌊W/2⌋, 2), cwnd ← W/2 even below 1 (the sender
//!      then sends nothing until the retransmission timer expires, RFC 3168 §6.1.2);
//!      count it (`ecn_reductions`, ns-2 `necnresponses_`). So at most one response per
//!      window of data: later echoes for packets sent before the response are ignored.
//!      With `ecn_once_per_window = false` the first condition is dropped once the peer
//!      is known to be ECN-capable (rule 2): every ACK carrying ECE (new or duplicate)
//!      responds, each halving cwnd and ssthresh again
//!      with the same floors (ssthresh ≥ 2; cwnd may fall below 1, and the sender then
//!      waits for the timer). The receiver repeats ECE until CWR reaches it, about one
//!      RTT, so a window of echoes cuts the window many times: the sensitivity reading
//!      of reference document 002 §2.4, whose thesis does not state the once-per-window
//!      rule.
//!   4. An ACK of new data with ECE (peer ECN-capable) does not open the window (ns-2
//!      `recv_newack_helper`; its `old_ecn_` switch, default off, is not implemented).
//!      It does not end a timer back-off while an echo found cwnd ≤ 1 (ns-2 `newack`);
//!      an ACK without ECE forgets that state.
//!   5. Third duplicate ACK in the window of an ECN response (ack ≤ recover, last action
//!      ECN; ns-2 `dupack_action`): Reno and NewReno retransmit and enter fast recovery
//!      without halving again; Tahoe sets cwnd to 1 (ssthresh kept) and goes back N.
//!      Implemented in `tcp/recovery/` with [`TcpState::ecn_reduced_this_window`].
//!   6. Retransmission timeout with data outstanding after an ECN response: cwnd ← 1,
//!      ssthresh kept (ns-2 `timeout`); implemented in `TcpState::on_timeout`.
//!
//! Choices and deviations:
//! - The ECN-branch timeout of rule 6 is counted in `timeouts` (a timer expiry with data
//!   outstanding); ns-2's `nrexmit_` leaves it out.
//! - As in ns-2, every sender sets CWR after a window reduction, ECN-capable or not
//!   (without ECT on its packets the flag has no effect on the receiver).
//! - Not modelled: ns-2 `old_ecn_`/`ecn_burst_`, the sink's `ecn_syn_` (an ECN-capable
//!   SYN-ACK; our ACKs are never ECN-capable), ECT(1) and the ECN nonce.

use super::ack::AckInfo;
use super::cc::{CcView, CongestionControl};
use super::state::{CwndAction, CwndCut, TcpState};
use crate::engine::SimTime;

impl TcpState {
    /// ECT and ECE of packet `seq` (rule 1).
    pub(crate) fn ecn_codepoints(&self, seq: i64, retransmission: bool) -> (bool, bool) {
        let p = &self.params;
        if !p.ecn {
            return (false, false);
        }
        if seq == 0 {
            return (false, true);
        }
        (!retransmission || p.ect_on_retransmit, false)
    }

    /// Rule 3: the response to an ACK (cumulative `ack`) carrying ECE.
    pub fn respond_to_ecn_echo(&mut self, cc: &mut dyn CongestionControl, ack: i64, now: SimTime) {
        let new_window = ack > self.recover || self.last_cwnd_action == CwndAction::Timeout;
        // Without the once-per-window rule every congestion echo responds; the answer to
        // the offer (before the peer is known to be ECN-capable, rule 2) still does not.
        let every_echo = !self.params.ecn_once_per_window && self.ecn_peer;
        if !(new_window || every_echo) {
            return;
        }
        self.recover = self.maxseq;
        self.last_cwnd_action = CwndAction::Ecn;
        if self.window.cwnd <= 1.0 {
            if self.ecn_backoff {
                self.rtt.back_off();
            } else {
                self.ecn_backoff = true;
            }
        } else {
            self.ecn_backoff = false;
        }
        self.slowdown(cc, CwndCut::ToReducedMayIdle, now);
        self.stats.ecn_reductions += 1;
        cc.on_ecn_echo(&mut CcView::new(self, now));
    }

    /// Rule 4: an ACK whose ECE is a congestion signal (not the answer to the offer).
    pub(crate) fn is_congestion_echo(&self, info: &AckInfo) -> bool {
        self.params.ecn && self.ecn_peer && info.ece
    }

    /// Rules 2 and 4, after an ACK of new data: learn that the peer is ECN-capable; an
    /// ACK without ECE forgets that an echo found cwnd ≤ 1.
    pub(crate) fn note_ecn_echo(&mut self, info: &AckInfo) {
        if !self.params.ecn {
            return;
        }
        if self.ecn_peer && !info.ece {
            self.ecn_backoff = false;
        }
        if !self.ecn_peer && info.ece {
            self.ecn_peer = true;
        }
    }

    /// Rule 4 (ns-2 `newack`): a new RTT sample ends the timer back-off, unless the ACK
    /// echoes ECN while an echo found cwnd ≤ 1.
    pub(crate) fn end_backoff_unless_ecn_idle(&mut self, ece: bool) {
        if !(self.ecn_peer && self.ecn_backoff && ece) {
            self.rtt.backoff = 1;
            self.ecn_backoff = false;
        }
    }

    /// Rule 5: the last window action was an ECN response, so this window was already
    /// reduced (ns-2 `dupack_action`: `ecn_ && last_cwnd_action_ == CWND_ACTION_ECN`).
    pub fn ecn_reduced_this_window(&self) -> bool {
        self.params.ecn && self.last_cwnd_action == CwndAction::Ecn
    }
}

#[cfg(test)]
mod tests;
