//! SACK loss recovery with a scoreboard and a `pipe` estimate: ns-2.35 `Agent/TCP/Sack1`.
//!
//! Fall & Floyd, "Simulation-based Comparisons of Tahoe, Reno, and SACK TCP", CCR 26(3),
//! 1996; RFC 2018; reference document 004 §II (its description of the pipe); ns-2.35 tcp-sack1.cc
//! (`Sack1TcpAgent::recv`, `dupack_action`, `send_much`, `partial_ack_action`, `timeout`)
//! with the scoreboard of scoreboard-rq.cc (here `scoreboard.rs`). Needs a receiver that
//! sends SACK blocks (`receiver = { ..., sack = true }`, ns-2 `Agent/TCPSink/Sack1`).
//!
//! Outside fast recovery
//!   ACK of new data: window growth and RTT sample as every variant; scoreboard cleared.
//!   duplicate ACK:   its SACK blocks go into the scoreboard, and it counts as a duplicate
//!                    only if they SACK something new (ns-2 `CheckUpdate`). Each of the
//!                    first dupack_threshold − 1 sends one new packet (limited transmit);
//!                    the threshold starts fast recovery, if `bugFix_` allows.
//!   New data leaves only while no duplicate is counted.
//! Fast retransmit (ns-2 `dupack_action`)
//!   pipe ← maxseq − cumulative ACK − dupack_threshold (outstanding packets minus those
//!   whose duplicate ACKs came back; the retransmission is not counted); recover ←
//!   maxseq; ssthresh ← max(⌊W/2⌋, 2), cwnd ← W/2 (W = min(cwnd, advertised window));
//!   resend the first unacknowledged packet, marked retransmitted in the scoreboard;
//!   rearm the timer without going back.
//! In fast recovery, on every ACK: pipe − 1, then
//!   ACK ≥ recover: recovery ends. The ACK is taken (RTT sample, timer) but the window
//!     does not grow on it; recover ← 0, so the next loss may fast-retransmit at once;
//!     the scoreboard is cleared.
//!   partial ACK: the scoreboard forgets what it acknowledges; pipe − 1 once more (the
//!     partial ACK also acknowledges a retransmission: "so that we never do worse than
//!     slow-start"); the timer is rearmed and its back-off reset.
//!   duplicate ACK: its SACK blocks go into the scoreboard.
//!   Then, while pipe < ⌊cwnd⌋: send the next hole (the lowest packet not SACKed below a
//!   SACKed one that was not resent in this recovery) or, when there is none, a new
//!   packet within the advertised window; pipe + 1 for each.
//! Timeout: fast recovery ends, the scoreboard is cleared, recover ← maxseq, and duplicate
//!   ACKs are ignored (no SACK processing, no fast retransmit) until an ACK of new data;
//!   otherwise as every variant (ssthresh halved, cwnd 1, go back to the first
//!   unacknowledged packet, back off). Packets SACKed before the timeout are sent again.
//!
//! Parameter `partial_ack` (default false, ns-2 `partial_ack_`): on a partial ACK send
//! the next two packets that are not SACKed at once and count pipe + 1 instead of − 1;
//! the timer is then rearmed only on the first partial ACK of a recovery.
//!
//! Choices, ns-2.35 defaults kept fixed: `LimTransmitFix_` and `oldCode_` off (pipe as
//! above), `maxburst_` 0 (no burst limit), `aggressive_maxburst_` on (sending is tried
//! even on an ACK older than the cumulative ACK), `numdupacksFrac_` off. ns-2 freezes
//! `last_ack_` during recovery while `highest_ack_` follows partial ACKs; with
//! `aggressive_maxburst_` on, `last_ack_` only guards `last_ack_ + 1 < curseq_`, which
//! holds during recovery either way (recovery ends once everything sent is ACKed), so
//! the shared `last_ack` plays `highest_ack_`'s part. A hole at packet 0 is never
//! retransmitted from the scoreboard (ns-2 `GetNextRetran` returns only positive numbers).
//!
//! Deviations: with `partial_ack`, packets beyond the application's data are not sent
//! (ns-2's `partial_ack_action` does not check `curseq_`). ns-2's ECN branch of
//! `dupack_action` is not modelled: the sender does not react to ECN echo yet.

use super::scoreboard::Scoreboard;
use super::{count_duplicate, fast_retransmit_allowed, halve_and_retransmit, DupAck, LossRecovery};
use crate::engine::SimTime;
use crate::model::{Family, ModelSpec, no_check, Param, ParamType as T, Relations, Value as V};
use crate::tcp::recovery::RecoveryModel;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::TcpState;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Recovery,
    name: "sack1",
    summary: "SACK recovery: a scoreboard of SACKed packets and a pipe estimate decide what to (re)send (ns-2 Agent/TCP/Sack1); needs receiver sack = true",
    source: "Fall & Floyd 1996; RFC 2018; ns-2.35 Agent/TCP/Sack1 (tcp-sack1.cc)",
    params: &[Param::new(
        "partial_ack",
        T::Bool,
        "",
        V::Bool(false),
        "on a partial ACK send the next two packets not SACKed at once, and rearm the timer only on the first partial ACK (ns-2 partial_ack_)",
        "ns-2.35 Agent/TCP default",
    )],
    check: no_check,
    relations: Relations { reads_sack: true, ..Relations::NONE },
};

pub static MODEL: RecoveryModel = RecoveryModel { spec: &SPEC, build: |c| Box::new(Sack1::new(c.boolean("partial_ack"))) };

/// Packets sent at once on a partial ACK with `partial_ack` (ns-2 `partial_ack_action`).
const PARTIAL_ACK_BURST: usize = 2;

#[derive(Debug, Clone)]
pub struct Sack1 {
    scoreboard: Scoreboard,
    /// Fast recovery is in progress (ns-2 `fastrecov_`).
    fast_recovery: bool,
    /// Packets estimated in the network during fast recovery (ns-2 `pipe_`).
    pipe: i64,
    /// A timeout happened and no ACK of new data has come since (ns-2 `timeout_`).
    after_timeout: bool,
    /// `partial_ack` parameter (ns-2 `partial_ack_`).
    send_two_on_partial_ack: bool,
    /// Next packet `partial_ack` sends (ns-2 `next_pkt_`; never reset, as in ns-2).
    next_partial_send: i64,
}

impl Sack1 {
    pub fn new(send_two_on_partial_ack: bool) -> Self {
        Sack1 {
            scoreboard: Scoreboard::new(),
            fast_recovery: false,
            pipe: -1,
            after_timeout: false,
            send_two_on_partial_ack,
            next_partial_send: 0,
        }
    }

    /// The estimate of packets in the network (meaningful during fast recovery).
    pub fn pipe(&self) -> i64 {
        self.pipe
    }

    pub fn in_fast_recovery(&self) -> bool {
        self.fast_recovery
    }

    pub fn scoreboard(&self) -> &Scoreboard {
        &self.scoreboard
    }

    /// ns-2 `Sack1TcpAgent::dupack_action` (bug_fix_ on, ECN off).
    fn fast_retransmit(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        if !fast_retransmit_allowed(s) {
            return;
        }
        self.pipe = s.maxseq - s.last_ack - s.params.dupack_threshold as i64;
        self.fast_recovery = true;
        self.scoreboard.mark_retransmitted(s.last_ack + 1);
        halve_and_retransmit(s, cc, now);
    }

    /// An ACK at or beyond `recover` ends fast recovery; the window does not grow on it
    /// (ns-2 calls `newack`, not `recv_newack_helper`).
    fn end_recovery(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, ack: i64, ece: bool, now: SimTime) {
        s.recover = 0;
        self.fast_recovery = false;
        s.new_ack(ack, ece, now);
        s.exit_recovery(cc, now);
        self.after_timeout = false;
        self.scoreboard.clear();
    }

    /// A partial ACK: `ack` moves up but recovery goes on.
    fn partial_ack(&mut self, s: &mut TcpState, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        s.last_ack = ack;
        self.scoreboard.update(ack, &info.sack, s.maxseq);
        if self.send_two_on_partial_ack {
            self.send_next_unsacked(s, now);
            self.pipe += 1;
            if !s.first_partial_seen {
                s.first_partial_seen = true;
                s.restart_timer_if_outstanding(ack, now);
                s.rtt.backoff = 1;
            }
        } else {
            self.pipe -= 1;
            s.restart_timer_if_outstanding(ack, now);
            s.rtt.backoff = 1;
        }
    }

    /// ns-2 `partial_ack_action`: the next packets that are not SACKed, at once. Like
    /// ns-2 it pulls `t_seqno` up to the packet it sends without moving it past it.
    fn send_next_unsacked(&mut self, s: &mut TcpState, now: SimTime) {
        self.next_partial_send = self.next_partial_send.max(s.last_ack + 1);
        for _ in 0..PARTIAL_ACK_BURST {
            if let Some(next) = self.scoreboard.next_unsacked(self.next_partial_send) {
                self.next_partial_send = self.next_partial_send.max(next);
            }
            let seq = self.next_partial_send;
            if seq >= s.curseq {
                break;
            }
            s.t_seqno = s.t_seqno.max(seq);
            s.output(seq, now);
            self.scoreboard.mark_retransmitted(seq);
            self.next_partial_send += 1;
        }
    }

    /// ns-2 `Sack1TcpAgent::send_much` (no burst limit): outside recovery, new packets
    /// within the window; in recovery, while pipe < ⌊cwnd⌋, the next hole or else a new
    /// packet within the advertised window.
    fn send_much(&mut self, s: &mut TcpState, now: SimTime) {
        // ns-2 window(): min(⌊cwnd⌋, advertised window); Sack1 has no inflation.
        let window = s.flight_window();
        loop {
            let open = if self.fast_recovery { self.pipe < s.window.cwnd as i64 } else { s.t_seqno <= s.last_ack + window };
            if !open || s.last_ack + 1 >= s.curseq {
                break;
            }
            let seq = match self.scoreboard.next_hole().filter(|&hole| hole > 0) {
                // ns-2 requires recover_ > 0 to retransmit from the scoreboard, and stops
                // (sends nothing new either) when the hole cannot be sent.
                Some(hole) if s.recover > 0 && hole <= s.last_ack + s.wnd => {
                    self.scoreboard.mark_retransmitted(hole);
                    hole
                }
                Some(_) => break,
                None => {
                    let limit = if self.fast_recovery { s.wnd } else { window };
                    if s.t_seqno > s.last_ack + limit || s.t_seqno >= s.curseq {
                        break;
                    }
                    s.t_seqno += 1;
                    s.t_seqno - 1
                }
            };
            s.output(seq, now);
            s.t_seqno = s.t_seqno.max(seq + 1);
            self.pipe += 1;
        }
    }
}

impl LossRecovery for Sack1 {
    fn name(&self) -> &'static str {
        "sack1"
    }

    fn on_ack(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, info: &AckInfo, now: SimTime) {
        let ack = info.ack;
        if !self.fast_recovery {
            if ack > s.last_ack {
                s.first_partial_seen = false;
                s.ack_new_data(cc, info, now);
                self.after_timeout = false;
                self.scoreboard.clear();
            } else if ack == s.last_ack && !self.after_timeout {
                let news = self.scoreboard.update(ack, &info.sack, s.maxseq);
                if news && count_duplicate(s, now) == DupAck::Threshold {
                    self.fast_retransmit(s, cc, now);
                }
            }
            if s.dupacks == 0 {
                self.send_much(s, now);
            }
        } else {
            self.pipe -= 1;
            if ack >= s.recover {
                self.end_recovery(s, cc, ack, info.ece, now);
            } else if ack > s.last_ack {
                self.partial_ack(s, info, now);
            } else {
                // A duplicate (fast recovery never runs after a timeout, so its SACK
                // blocks always count). ns-2 counts it only when dupacks_ > 0.
                if self.scoreboard.update(s.last_ack, &info.sack, s.maxseq) && s.dupacks > 0 {
                    s.dupacks += 1;
                }
            }
            self.send_much(s, now);
        }
    }

    fn on_timeout(&mut self, s: &mut TcpState, cc: &mut dyn CongestionControl, now: SimTime) {
        s.dupacks = 0;
        self.fast_recovery = false;
        self.after_timeout = true;
        s.recover = s.maxseq;
        self.scoreboard.clear();
        // ns-2 then runs TcpAgent::timeout, whose send_much (Sack1's, with an empty
        // scoreboard and no recovery) sends new packets within the window as every
        // variant's does.
        s.on_timeout(cc, now);
    }
}
