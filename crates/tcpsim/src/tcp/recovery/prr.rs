//! SACK loss recovery with Proportional Rate Reduction, as Linux runs it.
//!
//! RFC 6675 (conservative SACK-based loss recovery: the scoreboard, `IsLost`, `SetPipe`,
//! `NextSeg`), RFC 6937 §3 (Mathis, Dukkipati and Cheng, "Proportional Rate Reduction
//! for TCP", 2013: how much may be sent on each ACK during recovery), and Linux
//! `net/ipv4/tcp_input.c` (`tcp_init_cwnd_reduction`, `tcp_cwnd_reduction`,
//! `tcp_end_cwnd_reduction`), where PRR with the slow-start reduction bound has been the
//! default since 3.2. Needs a receiver that sends SACK blocks. Packet-counted like every
//! recovery here: sequence numbers, cwnd, pipe and the PRR counters are in packets where
//! Linux counts segments (and the RFC bytes).
//!
//! Outside recovery
//!   ACK of new data: window growth and RTT sample as every variant; the scoreboard
//!     takes in the ACK.
//!   an ACK whose SACK blocks report something new (RFC 6675 §5: a duplicate ACK): the
//!     scoreboard marks lost every hole with dupack_threshold SACKed packets above it
//!     (RFC 6675 `IsLost`). While packets are SACKed, new data leaves while pipe < cwnd
//!     (Linux `tcp_packets_in_flight`: SACKed packets have left the network), which
//!     contains RFC 3042's limited transmit (off with `limited_transmit = false`).
//!   recovery starts when the first unacknowledged packet is lost (RFC 6675 §5
//!     `IsLost(HighACK + 1)`: dupack_threshold packets above it SACKed; with every packet
//!     ACKed this is the third duplicate ACK). The scoreboard tells a new loss from the
//!     old window's duplicates, so no `recover` guard (RFC 6582, ns-2 `bugFix_`) is
//!     needed outside the time after a timeout.
//! Recovery start (RFC 6937 §3 "on entering recovery")
//!   ssthresh ← max(⌊reduced window⌋, 2), the congestion control's `reduced_window` of
//!     the window before the loss (Reno ½, CUBIC 0.7), as every variant's `slowdown`;
//!   RecoverFS ← snd.nxt − snd.una (packets outstanding); prr_delivered ← 0;
//!     prr_out ← 0; recover ← the highest packet sent (RFC 6675 `RecoveryPoint`).
//!   The entering ACK is then handled as every ACK in recovery.
//! On every ACK in recovery (RFC 6937 §3)
//!   DeliveredData = packets newly cumulatively ACKed + packets newly SACKed;
//!   prr_delivered += DeliveredData; pipe = RFC 6675 `SetPipe` (scoreboard);
//!   pipe > ssthresh (proportional part):
//!     sndcnt = ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out
//!   otherwise (reduction bound):
//!     PRR-SSRB (bound = "ssrb", default): limit = max(prr_delivered − prr_out,
//!       DeliveredData) + 1
//!     PRR-CRB  (bound = "crb"): limit = prr_delivered − prr_out
//!     sndcnt = min(ssthresh − pipe, limit)
//!   sndcnt ← max(sndcnt, 0), and at least 1 while nothing was sent in this recovery
//!   (Linux: the fast retransmit always leaves); cwnd ← pipe + sndcnt.
//!   Then, while pipe < cwnd, RFC 6675 `NextSeg`: the lowest packet marked lost not yet
//!   retransmitted, else a new packet within the advertised window; prr_out + 1 each.
//! Recovery end: the cumulative ACK reaches `recover`: cwnd ← ssthresh (RFC 6937 §3,
//!   Linux `tcp_end_cwnd_reduction`); the window does not grow on that ACK.
//! A window control that sets cwnd itself in recovery (`sets_window_in_recovery`: BBR,
//!   Linux's `cong_control` modules) keeps it: PRR then neither computes cwnd on an ACK
//!   nor sets it to ssthresh at the end, and only sends what that cwnd allows, as
//!   Linux's `tcp_cong_control` and `tcp_end_cwnd_reduction` leave such a module alone.
//! Timeout: as every variant (ns-2 `timeout`: ssthresh from the congestion control,
//!   cwnd 1, back off, go back to the first unacknowledged packet); the scoreboard is
//!   cleared, and until the ACK passes the `recover` point of the timeout SACK blocks
//!   are not read and no recovery starts (as `sack1`).
//!
//! With `rack = true` (RFC 8985, `rack.rs`): losses are marked by RACK's time rule
//!   instead of the SACK count, recovery starts when any packet is marked lost, RACK's
//!   reordering timer and the tail loss probe bring the retransmission timer forward
//!   (it stands for the RTO again after), and a retransmission that is lost again is
//!   marked and resent.
//!
//! Choices and what is left out:
//! - RecoverFS is RFC 6937's snd.nxt − snd.una; Linux divides by `prior_cwnd` (cwnd
//!   before the reduction), equal when the window was full.
//! - RFC 6675 `NextSeg` rule 3 (retransmit a hole not yet deemed lost when there is no
//!   new data) is left out, as Linux leaves it out.
//! - Karn's rule: a packet retransmitted in this recovery is never timed (the timed
//!   packet's measurement is dropped when it is retransmitted).
//! - Linux's undo (DSACK, Eifel, F-RTO), its adaptive reordering degree and its SACK-aware
//!   retransmission after a timeout (CA_Loss) are not modelled; the ECN response is the
//!   sender's generic one (`tcp/ecn/`), not Linux's CWR state.

use super::rack::{probe_timeout, Rack};
use super::scoreboard::Scoreboard;
use super::{LossRecovery, RecoveryModel};
use crate::engine::time::{self, Dur};
use crate::engine::SimTime;
use crate::model::{no_check, Family, ModelSpec, Param, ParamType as T, Relations, Value as V};
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{CwndAction, CwndCut, TcpState};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "prr",
    summary: "SACK recovery (RFC 6675 scoreboard and pipe) that sends on each ACK in proportion to what was delivered: Proportional Rate Reduction, as Linux; needs receiver sack = true",
    source: "RFC 6675; RFC 6937 §3; Linux net/ipv4/tcp_input.c (tcp_cwnd_reduction)",
    params: &[Param::new(
        "bound",
        T::Choice(&["ssrb", "crb"]),
        "",
        V::Choice("ssrb"),
        "reduction bound once pipe falls to ssthresh: \"ssrb\" (slow-start reduction bound, Linux's) lets pipe grow back towards ssthresh by one packet more than was delivered; \"crb\" (conservative) sends no more than was delivered",
        "RFC 6937 §3; Linux tcp_cwnd_reduction",
    ),
    Param::new(
        "rack",
        T::Bool,
        "",
        V::Bool(false),
        "RACK-TLP loss detection instead of the SACK count: a packet is lost once a packet sent after it was delivered and a round trip plus min_rtt/4 has passed (reordering timer), and a tail loss probe goes out 2·SRTT (+200 ms with one packet outstanding) after the last ACK (Linux's default since 4.18)",
        "RFC 8985; Linux tcp_recovery.c, tcp_schedule_loss_probe",
    )],
    check: no_check,
    relations: Relations { reads_sack: true, ..Relations::NONE },
};

pub static MODEL: RecoveryModel = RecoveryModel {
    spec: &SPEC,
    build: |c| {
        let bound = if c.choice("bound") == "crb" { Bound::Conservative } else { Bound::SlowStart };
        Box::new(if c.boolean("rack") { Prr::with_rack(bound) } else { Prr::new(bound) })
    },
};

/// What the retransmission timer stands for when it fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TimerRole {
    /// The retransmission timeout.
    Rto,
    /// RACK's reordering timer (RFC 8985 §6.3).
    Reorder,
    /// The tail loss probe (RFC 8985 §7).
    Probe,
}

/// How far PRR lets pipe grow back once it is at or below ssthresh (RFC 6937 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// PRR-CRB: no more than was delivered (packet conservation).
    Conservative,
    /// PRR-SSRB: one packet more than was delivered on each ACK (Linux's).
    SlowStart,
}

#[derive(Debug, Clone)]
pub struct Prr {
    scoreboard: Scoreboard,
    bound: Bound,
    /// Fast recovery is in progress.
    in_recovery: bool,
    /// A timeout happened and the ACK has not passed its `recover` point yet.
    after_timeout: bool,
    /// Packets outstanding when recovery started (RFC 6937 `RecoverFS`).
    recover_fs: i64,
    /// Packets delivered to the receiver during recovery (RFC 6937 `prr_delivered`).
    prr_delivered: i64,
    /// Packets sent during recovery (RFC 6937 `prr_out`).
    prr_out: i64,
    /// RACK-TLP's state, with `rack = true`.
    rack: Option<Rack>,
    /// What the retransmission timer stands for now; with `Reorder` or `Probe` it was
    /// brought forward from `rto_deadline` to `early_deadline`.
    timer_role: TimerRole,
    early_deadline: Option<SimTime>,
    rto_deadline: Option<SimTime>,
}

impl Prr {
    pub fn new(bound: Bound) -> Self {
        Prr {
            scoreboard: Scoreboard::new(),
            bound,
            in_recovery: false,
            after_timeout: false,
            recover_fs: 0,
            prr_delivered: 0,
            prr_out: 0,
            rack: None,
            timer_role: TimerRole::Rto,
            early_deadline: None,
            rto_deadline: None,
        }
    }

    /// PRR with RACK-TLP loss detection (`rack = true`).
    pub fn with_rack(bound: Bound) -> Self {
        Prr { rack: Some(Rack::default()), ..Prr::new(bound) }
    }

    pub fn scoreboard(&self) -> &Scoreboard {
        &self.scoreboard
    }

    pub fn in_fast_recovery(&self) -> bool {
        self.in_recovery
    }

    /// RFC 6937's counters: (RecoverFS, prr_delivered, prr_out).
    pub fn counters(&self) -> (i64, i64, i64) {
        (self.recover_fs, self.prr_delivered, self.prr_out)
    }

    /// RFC 6675 `SetPipe`, packets.
    fn pipe(&self, s: &TcpState) -> i64 {
        self.scoreboard.pipe(s.maxseq)
    }

    /// RFC 6937 §3, on entering recovery; the cut asks the congestion control.
    fn enter_recovery(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        self.recover_fs = s.maxseq - s.last_ack;
        self.prr_delivered = 0;
        self.prr_out = 0;
        self.in_recovery = true;
        s.recover = s.maxseq;
        // `slowdown` reads CWND_ACTION_DUPACK (as ns-2's does for TCP(α, β)); the cwnd it
        // sets is replaced by PRR's on this same ACK.
        s.last_cwnd_action = CwndAction::Dupack;
        s.slowdown(cc, CwndCut::ToReduced, now);
        s.enter_recovery(cc, now);
    }

    /// RFC 6937 §3, on every ACK in recovery: cwnd ← pipe + sndcnt.
    fn proportional_window(&mut self, s: &mut TcpState, delivered: i64) {
        self.prr_delivered += delivered;
        let pipe = self.pipe(s);
        let ssthresh = s.window.ssthresh as i64;
        let sndcnt = if pipe > ssthresh {
            // ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out, in integers.
            let rfs = self.recover_fs.max(1);
            (self.prr_delivered * ssthresh + rfs - 1) / rfs - self.prr_out
        } else {
            let limit = match self.bound {
                Bound::Conservative => self.prr_delivered - self.prr_out,
                Bound::SlowStart => (self.prr_delivered - self.prr_out).max(delivered) + 1,
            };
            (ssthresh - pipe).min(limit)
        };
        // Linux: the fast retransmit leaves even when the proportion allows nothing yet.
        let floor = if self.prr_out == 0 { 1 } else { 0 };
        s.window.cwnd = (pipe + sndcnt.max(floor)) as f64;
    }

    /// RFC 6675 `NextSeg` while pipe < cwnd: lost packets first, then new data.
    fn send_while_pipe_below_cwnd(&mut self, s: &mut TcpState, now: SimTime) {
        while self.pipe(s) < s.window.cwnd as i64 {
            let seq = if let Some(lost) = self.scoreboard.next_lost() {
                if s.rtt_active && s.rtt_seq == lost {
                    // Karn: the timed packet is being sent again.
                    s.rtt_active = false;
                }
                self.scoreboard.mark_retransmitted(lost);
                lost
            } else if s.t_seqno < s.curseq && s.t_seqno <= s.last_ack + s.wnd {
                s.t_seqno += 1;
                s.t_seqno - 1
            } else {
                break;
            };
            s.output(seq, now);
            if self.in_recovery {
                self.prr_out += 1;
            }
        }
    }

    /// The ACK reached `recover`: recovery ends with cwnd = ssthresh.
    fn end_recovery(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        self.in_recovery = false;
        s.new_ack(info.ack, info.ece, now);
        if !cc.sets_window_in_recovery() {
            s.window.cwnd = s.window.ssthresh;
        }
        s.exit_recovery(cc, now);
    }
}

impl Prr {
    /// The smallest RTT seen, ps (0 before any sample).
    fn min_rtt(s: &TcpState) -> Dur {
        let min = s.rtt_range.0;
        if min.is_finite() {
            time::from_secs(min)
        } else {
            0
        }
    }

    /// RACK, before the scoreboard takes in the ACK: the packets it delivers (newly
    /// ACKed cumulatively or SACKed) advance RACK.xmit_ts (RFC 8985 §6.2).
    fn rack_on_delivered(&mut self, s: &TcpState, info: &AckInfo, now: SimTime) {
        let (Some(rack), Some(times)) = (self.rack.as_mut(), s.send_times.as_deref()) else { return };
        let min_rtt = Self::min_rtt(s);
        let sb = &self.scoreboard;
        let cumulative = (s.last_ack + 1)..=info.ack;
        let sacked = info.sack.as_slice().iter().flat_map(|&(a, b)| a.max(info.ack + 1)..=b.min(s.maxseq));
        for seq in cumulative.chain(sacked).filter(|&p| !sb.is_sacked(p)) {
            if let Some(sent) = times.get(seq) {
                rack.on_delivered(seq, sent, times.transmissions(seq), now, min_rtt);
            }
        }
    }

    /// RACK's loss marking over the outstanding packets; returns the reordering timer's
    /// deadline, if a packet waits for it.
    fn rack_detect(&mut self, s: &TcpState, now: SimTime) -> Option<SimTime> {
        let (Some(rack), Some(times)) = (self.rack.as_ref(), s.send_times.as_deref()) else { return None };
        let sacked = self.scoreboard.sacked_count();
        if sacked == 0 && !self.in_recovery {
            return None; // nothing was delivered above a packet still outstanding
        }
        // RFC 8985 §6.2 step 4, no reordering seen: no window in recovery or once
        // DupThresh packets are SACKed, else min_RTT / 4.
        let reo_wnd = if self.in_recovery || sacked >= s.params.dupack_threshold as i64 { 0 } else { Self::min_rtt(s) / 4 };
        rack.detect_losses(&mut self.scoreboard, times, s.last_ack + 1, s.maxseq, reo_wnd, now)
    }

    /// After each event: the retransmission timer stands for the RTO, or is brought
    /// forward for RACK's reordering timer or, in the open state, for a loss probe.
    fn arm_timers(&mut self, s: &mut TcpState, reorder_at: Option<SimTime>, now: SimTime) {
        if self.timer_role != TimerRole::Rto && s.rtx_deadline == self.early_deadline {
            s.rtx_deadline = self.rto_deadline; // nobody rearmed it: the RTO stands again
        }
        self.timer_role = TimerRole::Rto;
        let Some(rack) = &self.rack else { return };
        let flight = s.maxseq - s.last_ack;
        let (role, at) = match reorder_at {
            Some(at) => (TimerRole::Reorder, at),
            None if !self.in_recovery && !self.after_timeout && flight > 0 && rack.probe_end.is_none() && s.rtt.srtt() > 0.0 => {
                (TimerRole::Probe, now + probe_timeout(time::from_secs(s.rtt.srtt()), flight))
            }
            None => return,
        };
        if s.rtx_deadline.is_some_and(|rto| at < rto) {
            self.rto_deadline = s.rtx_deadline;
            self.early_deadline = Some(at);
            s.rtx_deadline = Some(at);
            self.timer_role = role;
        }
    }

    /// RACK's reordering timer: enter recovery if a packet is now lost, then PRR's
    /// sending for `delivered` packets.
    fn recover_if_lost(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, delivered: i64, now: SimTime) {
        if !self.in_recovery && self.scoreboard.next_lost().is_some() {
            self.enter_recovery(s, cc, now);
        }
        if self.in_recovery {
            if !cc.sets_window_in_recovery() {
                self.proportional_window(s, delivered);
            }
            self.send_while_pipe_below_cwnd(s, now);
        }
    }

    /// RFC 8985 §7.3: one probe, a new packet if possible, else the highest sent again.
    fn send_loss_probe(&mut self, s: &mut TcpState, now: SimTime) {
        let seq = if s.t_seqno < s.curseq && s.t_seqno <= s.last_ack + s.wnd && s.t_seqno > s.maxseq {
            s.t_seqno += 1;
            s.t_seqno - 1
        } else {
            s.maxseq
        };
        s.output(seq, now);
        if let Some(rack) = &mut self.rack {
            rack.probe_end = Some(s.maxseq);
        }
        s.set_rtx_timer(now);
    }
}

impl LossRecovery for Prr {
    fn name(&self) -> &'static str {
        "prr"
    }

    fn wants_send_times(&self) -> bool {
        self.rack.is_some()
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if let Some(rack) = &mut self.rack {
            if rack.probe_end.is_some_and(|end| ack >= end) {
                rack.probe_end = None;
            }
        }
        if self.after_timeout {
            // After a timeout: ns-2's go-back-N until the ACK passes `recover`.
            if ack > s.last_ack {
                s.ack_new_data(cc, info, now);
                self.scoreboard.update(ack, &crate::engine::packet::SackBlocks::EMPTY, s.maxseq);
                self.after_timeout = ack < s.recover;
            }
            s.send_much(now, 0);
            self.arm_timers(s, None, now);
            return;
        }
        if ack < s.last_ack {
            return; // an ACK older than the cumulative ACK: reordered, carries nothing new
        }
        // Karn: the timed packet was retransmitted in this recovery.
        if s.rtt_active && ack >= s.rtt_seq && self.scoreboard.is_retransmitted(s.rtt_seq) {
            s.rtt_active = false;
        }
        self.rack_on_delivered(s, info, now);
        let sacked_before = self.scoreboard.sacked_count();
        let newly_acked = ack - s.last_ack;
        // Packets SACKed before and now covered by the cumulative ACK are not delivered
        // again: count only packets that were neither.
        let sacked_below_ack = (s.last_ack + 1..=ack).filter(|&p| self.scoreboard.is_sacked(p)).count() as i64;
        let news = self.scoreboard.update(ack, &info.sack, s.maxseq);
        let delivered = newly_acked - sacked_below_ack + (self.scoreboard.sacked_count() - (sacked_before - sacked_below_ack));
        if news && self.rack.is_none() {
            self.scoreboard.mark_lost_by_sacks_above(s.params.dupack_threshold as i64);
        }
        if self.in_recovery && ack >= s.recover {
            self.end_recovery(s, cc, info, now);
            s.send_much(now, 0);
            self.arm_timers(s, None, now);
            return;
        }
        if newly_acked > 0 {
            if self.in_recovery {
                // A partial ACK: RTT sample (Karn), timer rearmed, no window growth.
                s.new_ack(ack, info.ece, now);
            } else {
                s.ack_new_data(cc, info, now);
            }
        }
        let reorder_at = self.rack_detect(s, now);
        // RFC 6675 §5: IsLost(HighACK + 1); RACK: any packet marked lost.
        let lost = if self.rack.is_some() { self.scoreboard.next_lost().is_some() } else { self.scoreboard.is_lost(s.last_ack + 1) };
        if !self.in_recovery && lost {
            self.enter_recovery(s, cc, now);
        }
        if self.in_recovery {
            if !cc.sets_window_in_recovery() {
                self.proportional_window(s, delivered);
            }
            self.send_while_pipe_below_cwnd(s, now);
        } else if self.scoreboard.sacked_count() > 0 {
            // Disorder: SACKed packets have left the network; new data within cwnd.
            if s.params.limited_transmit {
                self.send_while_pipe_below_cwnd(s, now);
            }
        } else {
            s.send_much(now, 0);
        }
        self.arm_timers(s, reorder_at, now);
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        match self.timer_role {
            TimerRole::Reorder => {
                s.rtx_deadline = self.rto_deadline;
                self.timer_role = TimerRole::Rto;
                let reorder_at = self.rack_detect(s, now);
                self.recover_if_lost(s, cc, 0, now);
                self.arm_timers(s, reorder_at, now);
            }
            TimerRole::Probe => {
                self.timer_role = TimerRole::Rto;
                self.send_loss_probe(s, now);
            }
            TimerRole::Rto => {
                self.in_recovery = false;
                self.after_timeout = true;
                self.scoreboard.clear();
                if let Some(rack) = &mut self.rack {
                    rack.probe_end = None;
                }
                s.dupacks = 0;
                s.recover = s.maxseq;
                s.on_timeout(cc, now);
            }
        }
    }
}

#[cfg(test)]
mod tests;
