//! Forward Acknowledgement (FACK) loss recovery: ns-2.35 `Agent/TCP/Fack`.
//!
//! Mathis & Mahdavi, "Forward Acknowledgement: Refining TCP Congestion Control", ACM
//! SIGCOMM 1996 (`snd.fack`, `awnd = snd.nxt − snd.fack + retran_data`, rampdown,
//! overdamping); RFC 2018 (SACK); reference document 004 §II (its description of TCP Fack);
//! ns-2.35 tcp-fack.cc (`FackTcpAgent::recv`, `oldack`, `send_much`, `timeout`,
//! `window`) over the scoreboard of scoreboard.cc (`UpdateScoreBoard`, `CheckSndNxt`,
//! `GetNextRetran`, `MarkRetran`). Needs a receiver that sends SACK blocks
//! (`receiver = { ..., sack = true }`, ns-2 `Agent/TCPSink/Sack1`).
//!
//! Sequence numbers count packets. `fack` is ns-2's `fack_`: the highest packet the
//! receiver is known to hold (the highest SACKed packet, or the cumulative ACK), so the
//! paper's snd.fack = fack + 1 and snd.una = ACK + 1.
//!
//! (1) awnd = snd.nxt − snd.fack + retran_data       (packets the sender believes in the network)
//! (2) send while awnd < win, i.e. t_seqno ≤ fack + win − retran_data
//! (3) win  = ⌊min(cwnd, advertised window) + wintrim⌋                    (ns-2 `window()`)
//! (4) recovery starts when fack − ACK − 1 ≥ dupack_threshold, i.e. snd.fack − snd.una > 3
//!
//! Outside recovery
//!   ACK of new data without SACK blocks: bookkeeping and window growth (ns-2 `newack` +
//!     `opencwnd`); fack ← ACK; the scoreboard, retran_data and wintrim are cleared.
//!   any other ACK at or above the last one (a duplicate, or new data with SACK blocks):
//!     the SACK blocks go into the scoreboard (taken with the previous cumulative ACK, as
//!     ns-2 does); the ACK is taken without growing the window (ns-2 `oldack`, below);
//!     fack ← max(fack, highest SACKed); t_seqno ≥ fack + 1; dupacks ← fack − ACK − 1.
//!     ns-2 counts no duplicate ACKs: "dupacks" is the distance (4), so three duplicates
//!     that each SACK one more packet after a single loss reach it, and so does one ACK
//!     whose SACK block is far ahead. There is no limited transmit.
//!   An ACK below the last one is ignored.
//!   New packets leave only while dupacks = 0 (ns-2 `if (dupacks_ == 0) send_much`).
//! Fast retransmit (dupacks ≥ dupack_threshold; no `recover` guard, as ns-2)
//!   recover ← t_seqno; with `ss_div4` and cwnd ≤ ssthresh + ½ (slow start), cwnd ← cwnd/2
//!   first and the rampdown factor is ¾, else ½; ssthresh ← max(⌊min(cwnd, wnd)/2⌋, 2),
//!   cwnd ← 1 (ns-2 `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)`, `wnd_restart_`
//!   1); with `rampdown`, wintrim ← (t_seqno − fack − 1)·factor; the timer is rearmed
//!   without going back; the first unacknowledged packet is resent and counted in
//!   retran_data.
//! In recovery, on every ACK (ns-2 `oldack` first):
//!   fack ← max(fack, highest SACKed); with `rampdown`, wintrim falls by factor × the
//!   packets fack advanced (not below 0); t_seqno ≥ fack + 1; the SACK blocks go into
//!   the scoreboard, and retran_data falls by the retransmissions now ACKed or SACKed;
//!   a retransmission is lost again when a SACK block's right edge passes the t_seqno it
//!   was sent at while it is itself not SACKed (ns-2 `CheckSndNxt`): then nothing more is
//!   sent until the timer fires or recovery ends; the window grows (`opencwnd`, on every
//!   ACK, duplicates included: cwnd restarts from 1 and slow-starts up to the halved
//!   ssthresh during recovery).
//!   An ACK without SACK blocks at or beyond `recover` ends recovery.
//!   Then send, per (2): the next hole (ns-2 `GetNextRetran`: the lowest packet not
//!   SACKed, not retransmitted, below a SACKed one; retran_data + 1 and win recomputed) or
//!   else a new packet, within the advertised window while in recovery.
//! Timeout (ns-2 `FackTcpAgent::timeout`): recovery is *not* left and `recover` is kept;
//!   retran_data ← 0, the scoreboard is cleared, ssthresh halved and cwnd ← 1 (with
//!   nothing outstanding, cwnd ← initial window and ssthresh kept), the timer backs off,
//!   fack ← ACK, t_seqno ← ACK + 1, and sending resumes by (2).
//! ns-2 `oldack` (every ACK that is not a plain ACK of new data): last ACK ← ACK;
//!   t_seqno ≥ ACK + 1; the timer is rearmed while data is outstanding; a timed packet at
//!   or below the ACK ends the measurement without a sample and resets the back-off; an
//!   RTT sample is taken from the ACK's timestamp echo (now − send time of the packet that
//!   triggered it), whatever `ts_option_` says.
//!
//! Parameters (ns-2.35 ns-default.tcl defaults):
//!   rampdown (boolean, default false, ns-2 `rampdown_`): instead of halving at once,
//!     let win fall gradually by half of the packets the receiver reports.
//!   ss_div4 (boolean, default false, ns-2 `ss-div4_`): when loss is detected in slow
//!     start, halve cwnd before the usual halving (ssthresh falls to a quarter of the
//!     window), against the overdamping of a window that doubled in the last round.
//!
//! Choices, ns-2.35 defaults kept fixed: `maxburst_` 0, `overhead_` 0, `maxcwnd_` 0,
//! `ts_resetRTO_` false, `slow_start_restart_` and `restart_bugfix_` true. ns-2's Fack
//! does not apply `delay_growth_`: the ACK of the SYN grows cwnd from 1 to 2 by slow
//! start instead of setting the initial window (the same with the default of 2). The
//! window grows on ECN-echo ACKs too, as ns-2's `FackTcpAgent::recv_newack_helper` does.
//!
//! Deviations: ns-2's `oldack` would move the cumulative ACK back on a reordered ACK in
//! recovery; tcpsim's paths keep ACKs in order, and an older ACK is ignored. ns-2's ECN
//! response is the sender's common one (`TcpSender::on_ack`), not validated with FACK.
//! The `timeouts` counter counts timeouts with data outstanding; ns-2's Fack never
//! increments `nrexmit_`, so the differential case reads its timeouts from `backoff_`.

use super::scoreboard::Scoreboard;
use super::{retransmit_into_recovery, LossRecovery};
use crate::engine::time::{self, SimTime};
use crate::model::{Family, ModelSpec, no_check, Param, ParamType as T, Relations, Value as V};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::{AckEvent, CcView, CongestionControl};
use crate::tcp::state::{ack_rtt, CwndAction, CwndCut, TcpState};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "fack",
    summary: "Forward Acknowledgement: the highest SACKed packet (snd.fack) bounds the data in flight, awnd = snd.nxt − snd.fack + retransmitted (ns-2 Agent/TCP/Fack); needs receiver sack = true",
    source: "Mathis & Mahdavi 1996; RFC 2018; ns-2.35 Agent/TCP/Fack (tcp-fack.cc, scoreboard.cc)",
    params: &[
        Param::new(
            "rampdown",
            T::Bool,
            "",
            V::Bool(false),
            "reduce the window gradually during recovery: win = cwnd + wintrim, wintrim starting at half the packets in flight and falling by half of each advance of snd.fack (ns-2 rampdown_)",
            "ns-2.35 Agent/TCP/Fack default",
        ),
        Param::new(
            "ss_div4",
            T::Bool,
            "",
            V::Bool(false),
            "a loss found in slow start halves cwnd once more before the usual halving, so ssthresh falls to a quarter (overdamping correction; ns-2 ss-div4_)",
            "ns-2.35 Agent/TCP/Fack default",
        ),
    ],
    check: no_check,
    relations: Relations { reads_sack: true, ..Relations::NONE },
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |c| Box::new(Fack::new(c.boolean("rampdown"), c.boolean("ss_div4"))) };

/// Rampdown factor after a loss found outside slow start (ns-2 `wintrimmult_` 0.5).
const WINTRIM_FACTOR: f64 = 0.5;
/// Rampdown factor after a loss found in slow start with `ss_div4` (ns-2 0.75).
const WINTRIM_FACTOR_SS_DIV4: f64 = 0.75;
/// `ss_div4` applies while cwnd ≤ ssthresh + this (ns-2 `cwnd_ <= ssthresh_ + .5`).
const SLOW_START_MARGIN: f64 = 0.5;

/// A retransmission not yet ACKed, SACKed or found lost again (ns-2 `retran_` with
/// `snd_nxt_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Retransmission {
    seq: i64,
    /// t_seqno when it was sent.
    snd_nxt: i64,
}

#[derive(Debug, Clone)]
pub struct Fack {
    scoreboard: Scoreboard,
    /// Retransmissions outstanding, in the order sent.
    retransmissions: Vec<Retransmission>,
    /// Fast recovery is in progress (ns-2 `fastrecov_`).
    fast_recovery: bool,
    /// Highest packet the receiver holds (ns-2 `fack_`; snd.fack − 1).
    fack: i64,
    /// Retransmitted packets believed in the network (ns-2 `retran_data_`).
    retran_data: i64,
    /// ns-2's duplicate count: fack − ACK − 1 when last computed, 0 after new data
    /// (`dupacks_`; may be −1).
    dupacks: i64,
    /// A retransmission was lost again: send nothing until the timer fires or recovery
    /// ends (ns-2 `timeout_`).
    retransmission_lost: bool,
    /// Rampdown: packets added to the window (ns-2 `wintrim_`).
    wintrim: f64,
    /// Rampdown factor of this recovery (ns-2 `wintrimmult_`).
    wintrim_factor: f64,
    /// `rampdown` parameter (ns-2 `rampdown_`).
    rampdown: bool,
    /// `ss_div4` parameter (ns-2 `ss-div4_`).
    ss_div4: bool,
}

impl Fack {
    pub fn new(rampdown: bool, ss_div4: bool) -> Self {
        Fack {
            scoreboard: Scoreboard::new(),
            retransmissions: Vec::new(),
            fast_recovery: false,
            fack: -1,
            retran_data: 0,
            dupacks: 0,
            retransmission_lost: false,
            wintrim: 0.0,
            wintrim_factor: WINTRIM_FACTOR,
            rampdown,
            ss_div4,
        }
    }

    pub fn in_fast_recovery(&self) -> bool {
        self.fast_recovery
    }

    /// snd.fack − 1: the highest packet the receiver is known to hold.
    pub fn fack(&self) -> i64 {
        self.fack
    }

    pub fn retran_data(&self) -> i64 {
        self.retran_data
    }

    pub fn wintrim(&self) -> f64 {
        self.wintrim
    }

    /// Sending is stopped until the timer fires or recovery ends.
    pub fn retransmission_lost(&self) -> bool {
        self.retransmission_lost
    }

    pub fn scoreboard(&self) -> &Scoreboard {
        &self.scoreboard
    }

    /// (3): ⌊min(cwnd, advertised window) + wintrim⌋ (ns-2 `FackTcpAgent::window`).
    fn window(&self, s: &TcpState) -> i64 {
        (s.window.cwnd.min(s.wnd as f64) + self.wintrim) as i64
    }

    /// Forgets the SACK information and the retransmissions (ns-2 `ClearScoreBoard`,
    /// `retran_data_ = 0`).
    fn clear(&mut self) {
        self.scoreboard.clear();
        self.retransmissions.clear();
        self.retran_data = 0;
    }

    /// ns-2 `UpdateScoreBoard`: takes in cumulative ACK `ack` and the ACK's blocks;
    /// retran_data falls by the retransmissions they cover.
    fn update_scoreboard(&mut self, ack: i64, info: &AckInfo, maxseq: i64) {
        self.scoreboard.update(ack, &info.sack, maxseq);
        let before = self.retransmissions.len();
        let sb = &self.scoreboard;
        self.retransmissions.retain(|r| r.seq > ack && !sb.is_sacked(r.seq));
        self.retran_data -= (before - self.retransmissions.len()) as i64;
    }

    /// ns-2 `CheckSndNxt`: a block whose right edge (last + 1) passes the t_seqno a
    /// retransmission was sent at, while that retransmission is not SACKed, means it was
    /// lost again. It stops counting as retransmitted without leaving retran_data.
    fn retransmission_lost_again(&mut self, info: &AckInfo) -> bool {
        let mut lost = false;
        for &(_, last) in info.sack.as_slice() {
            let right = last + 1;
            self.retransmissions.retain(|r| {
                let again = r.seq < right && r.snd_nxt < right;
                lost |= again;
                !again
            });
        }
        lost
    }

    fn mark_retransmitted(&mut self, seq: i64, snd_nxt: i64) {
        self.scoreboard.mark_retransmitted(seq);
        self.retransmissions.push(Retransmission { seq, snd_nxt });
        self.retran_data += 1;
    }

    /// The highest SACKed packet an ACK reports (ns-2 `maxsack`).
    fn max_sacked(info: &AckInfo) -> Option<i64> {
        info.sack.as_slice().iter().map(|&(_, last)| last).max()
    }

    /// ns-2 `oldack`: an ACK taken without growing the window.
    fn old_ack(&mut self, s: &mut TcpState, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        s.last_ack = ack;
        self.fack = self.fack.max(ack);
        s.t_seqno = s.t_seqno.max(ack + 1);
        // newtimer comes before the RTT update, so it uses the RTO (and back-off) as was.
        s.restart_timer_if_outstanding(ack, now);
        if s.rtt_active && ack >= s.rtt_seq {
            s.rtt_active = false;
            s.rtt.backoff = 1;
        }
        // "with timestamp option": ns-2 takes this sample whatever ts_option_ says.
        let sample = time::to_secs(now.saturating_sub(info.ts_echo));
        s.rtt.update(sample, time::to_secs(info.ts_echo) + s.clock_phase);
        s.note_rtt(sample);
    }

    /// ns-2 `recv_newack_helper`: `newack`, then `opencwnd` (no `delay_growth_`, no ECN
    /// test).
    fn new_data(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let acked_packets = info.ack - s.last_ack;
        let rtt_s = s.new_ack(info.ack, info.ece, now);
        self.dupacks = 0;
        let event = AckEvent { info, acked_packets, duplicate: false, rtt_s, ack_rtt_s: ack_rtt(info, now) };
        cc.on_ack(&mut CcView::new(s, now), &event);
    }

    /// ns-2 `opencwnd` on an ACK in recovery.
    fn open_cwnd(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, duplicate: bool, now: SimTime) {
        let event = AckEvent { info, acked_packets: 0, duplicate, rtt_s: None, ack_rtt_s: ack_rtt(info, now) };
        cc.on_ack(&mut CcView::new(s, now), &event);
    }

    /// (4) reached: the fast retransmit of `FackTcpAgent::recv`.
    fn fast_retransmit(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.recover = s.t_seqno;
        if self.ss_div4 && s.window.cwnd <= s.window.ssthresh + SLOW_START_MARGIN {
            s.window.cwnd /= 2.0;
            self.wintrim_factor = WINTRIM_FACTOR_SS_DIV4;
        } else {
            self.wintrim_factor = WINTRIM_FACTOR;
        }
        s.slowdown(cc, CwndCut::ToOne, now);
        if self.rampdown {
            self.wintrim = (s.t_seqno - self.fack - 1) as f64 * self.wintrim_factor;
        }
        self.fast_recovery = true;
        let first_unacked = s.last_ack + 1;
        let snd_nxt = s.t_seqno;
        self.mark_retransmitted(first_unacked, snd_nxt);
        retransmit_into_recovery(s, cc, now);
    }

    fn on_ack_outside_recovery(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if ack > s.last_ack && info.sack.is_empty() {
            self.new_data(s, cc, info, now);
            self.fack = s.last_ack;
            self.retransmission_lost = false;
            self.clear();
            self.wintrim = 0.0;
        } else if ack >= s.last_ack {
            // ns-2 updates the scoreboard with highest_ack_ before oldack moves it.
            self.update_scoreboard(s.last_ack, info, s.maxseq);
            self.old_ack(s, info, now);
            if let Some(ms) = Self::max_sacked(info) {
                self.fack = self.fack.max(ms);
            }
            s.t_seqno = s.t_seqno.max(self.fack + 1);
            self.dupacks = self.fack - s.last_ack - 1;
            if self.dupacks >= s.params.dupack_threshold as i64 {
                self.fast_retransmit(s, cc, now);
            }
        }
        if self.dupacks == 0 {
            self.send_much(s, now);
        }
    }

    fn on_ack_in_recovery(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let duplicate = info.ack == s.last_ack;
        if info.ack >= s.last_ack {
            self.old_ack(s, info, now);
        }
        if let Some(ms) = Self::max_sacked(info).filter(|&ms| ms > self.fack) {
            if self.rampdown {
                self.wintrim = (self.wintrim - (ms - self.fack) as f64 * self.wintrim_factor).max(0.0);
            }
            self.fack = ms;
        }
        s.t_seqno = s.t_seqno.max(self.fack + 1);
        self.update_scoreboard(s.last_ack, info, s.maxseq);
        self.retransmission_lost |= self.retransmission_lost_again(info);
        self.open_cwnd(s, cc, info, duplicate, now);
        if info.sack.is_empty() && s.last_ack >= s.recover {
            self.fast_recovery = false;
            self.retransmission_lost = false;
            self.clear();
            self.wintrim = 0.0;
            self.dupacks = 0;
            s.exit_recovery(cc, now);
        }
        self.send_much(s, now);
    }

    /// ns-2 `FackTcpAgent::send_much` (no burst limit): while (2) holds, the next hole or
    /// else a new packet.
    fn send_much(&mut self, s: &mut TcpState, now: SimTime) {
        let mut win = self.window(s);
        while s.t_seqno <= self.fack + win - self.retran_data && !self.retransmission_lost {
            let seq = match self.scoreboard.next_hole() {
                Some(hole) => {
                    let snd_nxt = s.t_seqno;
                    self.mark_retransmitted(hole, snd_nxt);
                    win = self.window(s);
                    hole
                }
                None => {
                    if s.t_seqno >= s.curseq {
                        return;
                    }
                    if self.fast_recovery && s.t_seqno > s.last_ack + s.wnd {
                        break;
                    }
                    s.t_seqno += 1;
                    s.t_seqno - 1
                }
            };
            s.output(seq, now);
            s.t_seqno = s.t_seqno.max(seq + 1);
        }
    }
}

impl LossRecovery for Fack {
    fn name(&self) -> &'static str {
        "fack"
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        if self.fast_recovery {
            self.on_ack_in_recovery(s, cc, info, now);
        } else {
            self.on_ack_outside_recovery(s, cc, info, now);
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        let nothing_outstanding = s.last_ack == s.maxseq;
        self.retransmission_lost = false;
        self.retran_data = 0;
        self.retransmissions.clear();
        s.last_cwnd_action = CwndAction::Timeout;
        if nothing_outstanding {
            // ns-2 restart_bugfix_: slowdown(CLOSE_CWND_INIT), ssthresh kept.
            s.window.cwnd = s.wnd_init.floor();
            s.cwr_pending = true;
        } else {
            s.stats.timeouts += 1;
            s.slowdown(cc, CwndCut::ToOne, now);
        }
        self.scoreboard.clear();
        // ns-2 passes TCP_REASON_TIMEOUT as `mild`; t_seqno goes back just below.
        s.reset_rtx_timer(true, !nothing_outstanding, now);
        self.fack = s.last_ack;
        s.t_seqno = s.last_ack + 1;
        cc.on_timeout(&mut CcView::new(s, now));
        self.send_much(s, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::packet::SackBlocks;
    use crate::engine::time::PS_PER_MS;
    use crate::tcp::cc::Reno;
    use crate::tcp::TcpParams;

    fn ms(t: u64) -> SimTime {
        t * PS_PER_MS
    }

    /// A FACK sender (no SYN, initial window 8, ssthresh `ssthresh`, advertised window
    /// 100) fed hand-written ACKs. It sends 0..=7 at t = 0; ACK 0 (cwnd 8 → 9 in slow
    /// start, or 8 + 1/8 in congestion avoidance) and ACK 1 release the next packets.
    struct Script {
        s: TcpState,
        fack: Fack,
        cc: Reno,
    }

    impl Script {
        fn new(ssthresh: f64, rampdown: bool, ss_div4: bool) -> Script {
            let params = TcpParams { syn: false, initial_window: 8.0, initial_ssthresh: Some(ssthresh), max_window: 100, ..TcpParams::default() };
            let mut s = TcpState::new(params, 0.0);
            s.curseq = i64::MAX;
            s.send_much(0, 0);
            let mut t = Script { s, fack: Fack::new(rampdown, ss_div4), cc: Reno::default() };
            assert_eq!(t.sent(), (0..8).collect::<Vec<_>>());
            t
        }

        fn sent(&mut self) -> Vec<i64> {
            std::mem::take(&mut self.s.outbox).into_iter().map(|p| p.seq).collect()
        }

        /// ACK `ack` with SACK blocks `blocks` (inclusive, most recent first) at `at_ms`.
        #[track_caller]
        fn ack(&mut self, at_ms: u64, ack: i64, blocks: &[(i64, i64)], expect_sent: &[i64]) {
            let mut sack = SackBlocks::EMPTY;
            for &(a, b) in blocks {
                sack.push(a, b);
            }
            let info = AckInfo { sack, ts_echo: ms(at_ms.saturating_sub(40)), ..AckInfo::cumulative(ack) };
            self.fack.on_ack(&mut self.s, &mut self.cc, &info, ms(at_ms));
            assert_eq!(self.sent(), expect_sent, "packets sent after ACK {ack} {blocks:?} at {at_ms} ms");
        }
    }

    /// Congestion avoidance (ssthresh 5): ACKs 0 and 1 bring cwnd to 8 + 1/8 + 1/8.125 =
    /// 8.2481 and release 8, 9 (t_seqno ≤ ACK + ⌊cwnd⌋ = 1 + 8). Packet 2 is lost.
    fn lost_packet_two(rampdown: bool) -> Script {
        let mut t = Script::new(5.0, rampdown, false);
        t.ack(100, 0, &[], &[8]);
        t.ack(101, 1, &[], &[9]);
        t
    }

    // ---------------------------------------------------------------- entering recovery

    #[test]
    fn no_limited_transmit_and_no_new_data_while_fack_is_ahead_of_the_ack() {
        // dupacks = fack − ACK − 1 = 3 − 1 − 1 = 1, then 2: below the threshold, and ns-2
        // sends only when dupacks = 0.
        let mut t = lost_packet_two(false);
        t.ack(102, 1, &[(3, 3)], &[]);
        t.ack(103, 1, &[(3, 4)], &[]);
        assert!(!t.fack.in_fast_recovery());
        assert_eq!((t.fack.fack(), t.s.t_seqno), (4, 10));
    }

    #[test]
    fn three_packets_sacked_above_the_hole_start_recovery() {
        // (4): fack − ACK − 1 = 5 − 1 − 1 = 3 ≥ 3. W = min(cwnd 8.248, 100): ssthresh
        // ⌊8.248/2⌋ = 4, cwnd 1 (CLOSE_CWND_RESTART); recover = t_seqno = 10; packet 2
        // resent and counted in retran_data.
        let mut t = lost_packet_two(false);
        t.ack(102, 1, &[(3, 3)], &[]);
        t.ack(103, 1, &[(3, 4)], &[]);
        t.ack(104, 1, &[(3, 5)], &[2]);
        assert!(t.fack.in_fast_recovery());
        assert_eq!((t.s.window.cwnd, t.s.window.ssthresh, t.s.recover), (1.0, 4.0, 10));
        assert_eq!(t.fack.retran_data(), 1);
        assert_eq!((t.s.last_cwnd_action, t.s.stats.fast_retransmits), (CwndAction::Dupack, 1));
    }

    #[test]
    fn one_ack_whose_block_is_far_ahead_starts_recovery_at_once() {
        // Packets 2..=5 lost, 6 arrives: one ACK with fack − ACK − 1 = 6 − 1 − 1 = 4.
        let mut t = lost_packet_two(false);
        t.ack(102, 1, &[(6, 6)], &[2]);
        assert!(t.fack.in_fast_recovery());
        assert_eq!(t.s.t_seqno, 10);
    }

    #[test]
    fn new_data_with_sack_blocks_does_not_grow_the_window() {
        // ACK 2 with 4 SACKed (3 lost): ns-2 takes it as `oldack` — no opencwnd.
        let mut t = lost_packet_two(false);
        let cwnd = t.s.window.cwnd;
        t.ack(102, 2, &[(4, 4)], &[]);
        assert_eq!(t.s.window.cwnd, cwnd);
        assert_eq!((t.s.last_ack, t.fack.fack()), (2, 4));
    }

    #[test]
    fn ss_div4_quarters_ssthresh_for_a_loss_found_in_slow_start() {
        // Slow start (ssthresh 100): ACKs 0, 1 → cwnd 10; 8..=11 sent. 2 lost; 3, 4, 5
        // SACKed. cwnd ≤ ssthresh + ½: cwnd 10 → 5, then ssthresh ⌊5/2⌋ = 2 (instead of
        // ⌊10/2⌋ = 5), rampdown factor ¾.
        for (ss_div4, ssthresh) in [(false, 5.0), (true, 2.0)] {
            let mut t = Script::new(100.0, false, ss_div4);
            t.ack(100, 0, &[], &[8, 9]);
            t.ack(101, 1, &[], &[10, 11]);
            t.ack(102, 1, &[(3, 3)], &[]);
            t.ack(103, 1, &[(3, 4)], &[]);
            t.ack(104, 1, &[(3, 5)], &[2]);
            assert_eq!((t.s.window.cwnd, t.s.window.ssthresh), (1.0, ssthresh), "ss_div4 {ss_div4}");
            let factor = if ss_div4 { 0.75 } else { 0.5 };
            assert_eq!(t.fack.wintrim_factor, factor);
        }
    }

    // ---------------------------------------------------------------- in recovery

    /// Recovery from three_packets_sacked_above_the_hole_start_recovery: 2 resent,
    /// fack 5, t_seqno 10, cwnd 1, retran_data 1.
    fn in_recovery(rampdown: bool) -> Script {
        let mut t = lost_packet_two(rampdown);
        t.ack(102, 1, &[(3, 3)], &[]);
        t.ack(103, 1, &[(3, 4)], &[]);
        t.ack(104, 1, &[(3, 5)], &[2]);
        t
    }

    #[test]
    fn awnd_counts_retransmissions_and_the_window_slow_starts_from_one() {
        // Each ACK in recovery: opencwnd (cwnd 1 < ssthresh 4: +1). Send while
        // t_seqno ≤ fack + ⌊cwnd⌋ − retran_data.
        let mut t = in_recovery(false);
        // 6 SACKed: fack 6, cwnd 2: 10 ≤ 6 + 2 − 1 = 7? no.
        t.ack(105, 1, &[(3, 6)], &[]);
        // 7: fack 7, cwnd 3: 10 ≤ 7 + 3 − 1 = 9? no.
        t.ack(106, 1, &[(3, 7)], &[]);
        // 8: fack 8, cwnd 4: 10 ≤ 8 + 4 − 1 = 11 → 10, 11.
        t.ack(107, 1, &[(3, 8)], &[10, 11]);
        assert_eq!(t.s.window.cwnd, 4.0);
        // 9: fack 9, cwnd 4 + 1/4 (ssthresh reached): 12 ≤ 9 + 4 − 1 = 12 → 12.
        t.ack(108, 1, &[(3, 9)], &[12]);
    }

    #[test]
    fn holes_are_resent_before_new_data_and_counted_in_retran_data() {
        // 2 and 6 lost in the window: the hole 6 (below the SACKed 7..) goes first.
        let mut t = in_recovery(false);
        t.ack(105, 1, &[(7, 7), (3, 5)], &[]); // fack 7, cwnd 2: 10 ≤ 7 + 2 − 1 = 8? no
        t.ack(106, 1, &[(7, 8), (3, 5)], &[6]); // fack 8, cwnd 3: 10 ≤ 8 + 3 − 1 → hole 6
        assert_eq!(t.fack.retran_data(), 2);
        // The retransmission of 2 arrives: ACK 5, 6 still missing; retran_data − 1.
        // fack 8, cwnd 4: 10 ≤ 8 + 4 − 1 = 11 → 10, 11.
        t.ack(130, 5, &[(7, 8)], &[10, 11]);
        assert_eq!(t.fack.retran_data(), 1);
    }

    /// in_recovery, then 6, 7, 8, 9 SACKed in turn: 10, 11 and 12 leave (see
    /// awnd_counts_retransmissions_and_the_window_slow_starts_from_one); cwnd 4.25.
    fn all_but_the_retransmission_sacked(rampdown: bool) -> Script {
        let mut t = in_recovery(rampdown);
        t.ack(105, 1, &[(3, 6)], &[]);
        t.ack(106, 1, &[(3, 7)], &[]);
        t.ack(107, 1, &[(3, 8)], &[10, 11]);
        t.ack(108, 1, &[(3, 9)], &[12]);
        t
    }

    #[test]
    fn an_ack_without_blocks_at_or_beyond_recover_ends_recovery() {
        let mut t = all_but_the_retransmission_sacked(false);
        // The resent 2 arrives: ACK 9, no blocks, but 9 < recover 10: recovery goes on.
        // retran_data 0; cwnd 4.25 + 1/4.25 = 4.485: 13 ≤ 9 + 4 − 0 → 13.
        t.ack(140, 9, &[], &[13]);
        assert!(t.fack.in_fast_recovery());
        assert_eq!(t.fack.retran_data(), 0);
        // ACK 10 ≥ recover: recovery ends; cwnd 4.485 + 1/4.485 = 4.708; 14 ≤ 10 + 4 → 14.
        t.ack(141, 10, &[], &[14]);
        assert!(!t.fack.in_fast_recovery());
        assert_eq!(t.s.last_cwnd_action, CwndAction::Exited);
        assert!((t.s.window.cwnd - (4.25 + 1.0 / 4.25 + 1.0 / (4.25 + 1.0 / 4.25))).abs() < 1e-12);
    }

    #[test]
    fn a_retransmission_lost_again_stops_sending_until_the_timer() {
        // 2 was resent when t_seqno was 10. A block reaching 10 (right edge 11) while 2 is
        // not SACKed means the retransmission was lost (ns-2 CheckSndNxt); retran_data
        // keeps counting it, and nothing is sent although awnd would allow it.
        let mut t = all_but_the_retransmission_sacked(false);
        t.ack(109, 1, &[(3, 10)], &[]);
        assert!(t.fack.retransmission_lost());
        assert_eq!(t.fack.retran_data(), 1);
        t.ack(110, 1, &[(3, 12)], &[]);
        // The timer: ssthresh ⌊cwnd/2⌋ = ⌊4.71/2⌋ = 2, cwnd 1, back-off 2; fack and
        // t_seqno back to the ACK; 2 is sent again. Recovery is not left (ns-2).
        t.s.rtt.backoff = 1;
        t.fack.on_timeout(&mut t.s, &mut t.cc, ms(1000));
        assert_eq!(t.sent(), vec![2]);
        assert!(t.fack.in_fast_recovery() && !t.fack.retransmission_lost());
        assert_eq!((t.s.window.cwnd, t.s.window.ssthresh, t.s.rtt.backoff), (1.0, 2.0, 2));
        assert_eq!((t.fack.fack(), t.s.recover, t.s.stats.timeouts), (1, 10, 1));
        // Everything up to 12 is now held: ACK 12 without blocks ends recovery; cwnd
        // 1 → 2 (slow start below ssthresh 2): 13 ≤ 12 + 2 → 13, 14.
        t.ack(1100, 12, &[], &[13, 14]);
        assert!(!t.fack.in_fast_recovery());
    }

    #[test]
    fn rampdown_lets_the_window_fall_by_half_of_each_fack_advance() {
        // At the fast retransmit wintrim = (t_seqno 10 − fack 5 − 1)·½ = 2. Each packet
        // fack advances takes ½ off: 1.5, 1, 0.5, 0; win = ⌊cwnd + wintrim⌋.
        let mut t = in_recovery(true);
        assert_eq!(t.fack.wintrim(), 2.0);
        t.ack(105, 1, &[(3, 6)], &[]); // win ⌊2 + 1.5⌋ = 3: 10 ≤ 6 + 3 − 1 = 8? no
        assert_eq!(t.fack.wintrim(), 1.5);
        t.ack(106, 1, &[(3, 7)], &[10]); // win ⌊3 + 1⌋ = 4: 10 ≤ 7 + 4 − 1 → 10
        t.ack(107, 1, &[(3, 8)], &[11]); // win ⌊4 + 0.5⌋ = 4: 11 ≤ 8 + 4 − 1 → 11
        t.ack(108, 1, &[(3, 9)], &[12]); // win ⌊4.25 + 0⌋ = 4: 12 ≤ 9 + 4 − 1 → 12
        assert_eq!(t.fack.wintrim(), 0.0);
    }

    #[test]
    fn every_ack_that_is_not_plain_new_data_takes_an_rtt_sample_from_its_echo() {
        // ns-2 oldack: rtt_update(now − ts_echo). The Karn sample of packet 0 (100 ms =
        // 10 ticks) set srtt = 10 ticks. A duplicate at 102 ms echoing a send at 62 ms:
        // m = ⌊(40 ms + 62 ms mod 10 ms) / 10 ms⌋ = 4; srtt·8 = 80 + (4 − 10) = 74 →
        // srtt = 9.25 ticks = 92.5 ms.
        let mut t = lost_packet_two(false);
        assert!((t.s.rtt.srtt() - 0.1).abs() < 1e-12);
        t.ack(102, 1, &[(3, 3)], &[]);
        assert!((t.s.rtt.srtt() - 0.0925).abs() < 1e-12, "{}", t.s.rtt.srtt());
    }

    #[test]
    fn an_older_ack_is_ignored() {
        let mut t = lost_packet_two(false);
        t.ack(102, 0, &[], &[]);
        assert_eq!((t.s.last_ack, t.fack.fack()), (1, 1));
    }
}
