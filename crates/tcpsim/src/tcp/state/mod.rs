//! The TCP sender's variables and the procedures every loss-recovery variant shares.
//!
//! Loss recovery (`recovery/`) and congestion control (`cc/`) work on this state; the
//! sender that composes them (`sender.rs`) depends on them, not they on it. The
//! parameters are `params.rs` (`TcpParams`, shared by the flows of a table), the counters
//! `stats.rs`, the send-time records `send_times.rs`; the procedures that ask the
//! congestion control (window growth on a new ACK, the cuts) are in `tcp/response.rs`,
//! above `cc/`, so that this state does not depend on the congestion controls.
//!
//! Follows ns-2.35's one-way `Agent/TCP` (tcp.cc): sequence numbers count packets from 0,
//! the ACK number is the highest in-order packet received, cwnd is real-valued, and the
//! sender may have `min(⌊cwnd⌋ + inflation, advertised window)` packets beyond the last
//! ACK. The names of the state follow ns-2 where a reader will want to compare
//! (`t_seqno`, `maxseq`, `recover`, `dupacks`, `dupwnd`).
//!
//! Choices left open by the documents, taken from ns-2.35 defaults: initial window 2,
//! advertised window 20, ssthresh starts at the advertised window, 3 duplicate ACKs,
//! limited transmit of one new packet on each of the first two duplicate ACKs (ns-2
//! `singledup_` = 1), no max-burst limit outside NewReno recovery (`maxburst_` = 0), RTO
//! timer reset on every new ACK (`timerfix_`), ns-2 `bugFix_` on (no second fast
//! retransmit before `recover` is passed). Packet 0 is a header-only SYN sent at the
//! start time; data starts at packet 1 (ns-2 `syn_`, `delay_growth_`).
//!
//! Deviation: after a halving for a loss, cwnd is kept at least 1 packet (ns-2 can leave
//! it below 1 when the window was a single packet). The ECN response does not keep it:
//! there ns-2's cwnd below 1 is how the sender waits for the retransmission timer
//! (`tcp/ecn/mod.rs`).

mod rate_sample;
mod send_times;
mod stats;

pub use rate_sample::{RateSample, RateSampler};
pub use send_times::SendTimes;
pub use stats::SenderStats;

use super::ack::AckInfo;
use super::params::{RttHint, RttSamples};
use super::rtt::RtoRule;
pub use super::params::TcpParams;
use super::rtt::RttEstimator;
pub use crate::engine::packet::Outgoing;
use crate::engine::time::{self, SimTime};

/// The window a congestion control moves, in packets (ns-2 counts packets; cwnd is real).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Congestion window, packets.
    pub cwnd: f64,
    /// Slow-start threshold, packets.
    pub ssthresh: f64,
}

/// The last action that changed the window (ns-2 `last_cwnd_action_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CwndAction {
    None,
    /// Fast retransmit / fast recovery in progress.
    Dupack,
    Timeout,
    /// Fast recovery ended.
    Exited,
    /// The window was reduced for an ECN echo (ns-2 CWND_ACTION_ECN).
    Ecn,
}

/// How `slowdown` sets cwnd (ns-2 CLOSE_CWND_* flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CwndCut {
    /// cwnd ← reduced window, at least 1 (Reno fast recovery).
    ToReduced,
    /// cwnd ← reduced window, even below 1 (ECN response: ns-2 `CLOSE_CWND_HALF` as
    /// `ecn()` uses it; below 1 the sender waits for the retransmission timer).
    ToReducedMayIdle,
    /// cwnd ← 1 (Tahoe fast retransmit, timeout).
    ToOne,
}

/// State shared by the loss-recovery variants.
#[derive(Debug, Clone)]
pub struct TcpState {
    /// Shared by the flows with the same parameters (one copy, not one per flow).
    pub params: std::sync::Arc<TcpParams>,
    pub window: Window,
    /// Advertised window, packets.
    pub wnd: i64,
    /// Initial window (may drop to 1 if the very first packet is lost, as ns-2).
    pub wnd_init: f64,
    /// Next new packet to send (ns-2 `t_seqno_`).
    pub t_seqno: i64,
    /// Highest packet sent (ns-2 `maxseq_`).
    pub maxseq: i64,
    /// Highest cumulative ACK (ns-2 `last_ack_` = `highest_ack_`).
    pub last_ack: i64,
    /// Packets the application made available (ns-2 `curseq_`).
    pub curseq: i64,
    pub dupacks: u32,
    /// Fast-recovery window inflation, packets (ns-2 `dupwnd_`).
    pub dupwnd: i64,
    /// maxseq when the last loss response started (ns-2 `recover_`).
    pub recover: i64,
    pub last_cwnd_action: CwndAction,
    /// NewReno, Sack1: a partial ACK was seen in this recovery (ns-2 `firstpartial_`).
    pub first_partial_seen: bool,
    pub rtt: RttEstimator,
    /// The timestamp echo of the ACK being processed (read by `rtt_samples = "every_ack"`).
    pub ack_ts_echo: SimTime,
    /// Karn: a packet is being timed (ns-2 `rtt_active_`, `rtt_seq_`, `rtt_ts_`).
    pub rtt_active: bool,
    pub rtt_seq: i64,
    pub rtt_sent_at: SimTime,
    /// Random phase of the sender's clock within a tick (ns-2 `boot_time_`), seconds.
    pub clock_phase: f64,
    /// Deadline of the retransmission timer, if armed.
    pub rtx_deadline: Option<SimTime>,
    /// When the congestion control's timer is due, if it asked for one.
    pub cc_timer: Option<SimTime>,
    /// Pacing rate set by the congestion control, bits per second on the wire (none:
    /// segments leave as soon as the window allows, as in ns-2).
    pub pacing_rate_bps: Option<u64>,
    /// With `overhead`: when the delayed send is due, if one is pending (ns-2
    /// `delsnd_timer_`), and the stream its random delays come from.
    pub delayed_send: Option<SimTime>,
    pub overhead_random: Option<Box<crate::engine::RandomStream>>,
    /// `send_much` runs from the delayed-send timer, so it sends without a new delay.
    pub send_forced: bool,
    /// The round ends when the cumulative ACK reaches this packet (the highest packet
    /// sent when the previous round ended).
    pub round_end: i64,
    /// Smallest and largest RTT sample (Karn's and per-ACK), seconds.
    pub rtt_range: (f64, f64),
    /// Send times and counts of outstanding packets, kept when the congestion control or
    /// the loss recovery asks.
    pub send_times: Option<Box<SendTimes>>,
    /// Delivery-rate samples, kept when the congestion control asks
    /// (`CongestionControl::wants_rate_samples`), and the latest ACK's sample (boxed: only
    /// those window controls have one, and inline it made every sender 96 bytes larger;
    /// issue 22, a million flows).
    pub rate: Option<Box<RateSampler>>,
    pub rate_sample: Option<Box<RateSample>>,
    /// The congestion control's own random stream (forked from the flow's, so the
    /// flow's other draws do not change), made from `cc_random_seed` at its first draw:
    /// most window controls never draw, and a stream per flow cost 32 bytes of heap.
    pub cc_random: Option<Box<crate::engine::RandomStream>>,
    /// The seed of `cc_random` (the TCP agent sets it from the flow's stream).
    pub cc_random_seed: u64,
    /// When the first packet was put on the wire (ns-2 `firstsent_`, set by `send_much`
    /// whenever it starts from packet 0).
    pub first_sent: Option<SimTime>,
    /// The next packet carries CWR: the window was reduced (ns-2 `cong_action_`).
    pub cwr_pending: bool,
    /// ECN: the receiver answered the ECN offer of packet 0 (ns-2 `ect_`); until then an
    /// ECE flag is no congestion signal for window growth and timer back-off.
    pub ecn_peer: bool,
    /// ECN: an echo arrived while cwnd was at most one packet; the next such echo backs
    /// the timer off, and ACKs with ECE do not end the back-off (ns-2 `ecn_backoff_`).
    pub ecn_backoff: bool,
    /// Packets to put on the wire now, in order (drained by the simulation).
    pub outbox: Vec<Outgoing>,
    pub stats: SenderStats,
}

impl TcpState {
    /// A sender whose RTT clock has phase `clock_phase` seconds within a tick.
    pub fn new(params: impl Into<std::sync::Arc<TcpParams>>, clock_phase: f64) -> Self {
        let params = params.into();
        let wnd = params.max_window as i64;
        // ns-2 reset(): with a SYN the window is 1 until the SYN is ACKed.
        let cwnd = if params.syn { 1.0 } else { params.initial_window };
        let ssthresh = params.initial_ssthresh.unwrap_or(wnd as f64);
        let rtt = RttEstimator::new(
            time::to_secs(params.clock_granularity),
            time::to_secs(params.min_rto),
            time::to_secs(params.max_rto),
            time::to_secs(params.initial_rto),
        )
        .with_rule(params.rto_rule);
        TcpState {
            window: Window { cwnd, ssthresh },
            wnd,
            wnd_init: params.initial_window,
            t_seqno: 0,
            maxseq: -1,
            last_ack: -1,
            curseq: 0,
            dupacks: 0,
            dupwnd: 0,
            recover: 0,
            last_cwnd_action: CwndAction::None,
            first_partial_seen: false,
            rtt,
            ack_ts_echo: 0,
            rtt_active: false,
            rtt_seq: -1,
            rtt_sent_at: 0,
            clock_phase,
            rtx_deadline: None,
            cc_timer: None,
            pacing_rate_bps: None,
            delayed_send: None,
            overhead_random: None,
            send_forced: false,
            round_end: 0,
            rtt_range: (f64::INFINITY, 0.0),
            send_times: None,
            rate: None,
            rate_sample: None,
            cc_random: None,
            cc_random_seed: 0,
            first_sent: None,
            cwr_pending: false,
            ecn_peer: false,
            ecn_backoff: false,
            outbox: Vec::new(),
            stats: SenderStats { rtt_min: f64::INFINITY, ..SenderStats::default() },
            params,
        }
    }

    /// Packets allowed beyond the last ACK (ns-2 `window()`; Reno's adds `dupwnd`).
    pub fn flight_window(&self) -> i64 {
        (self.window.cwnd as i64 + self.dupwnd).min(self.wnd)
    }

    /// The same window without truncation (ns-2 `windowd()`), used for decreases.
    pub fn flight_window_real(&self) -> f64 {
        (self.window.cwnd + self.dupwnd as f64).min(self.wnd as f64)
    }

    /// Sends as many new packets as the window allows, at most `max_burst` (0 = no
    /// limit) (ns-2 `send_much`).
    pub fn send_much(&mut self, now: SimTime, max_burst: u32) {
        if self.t_seqno == 0 {
            self.first_sent = Some(now);
        }
        let mut sent = 0;
        while self.t_seqno <= self.last_ack + self.flight_window() && self.t_seqno < self.curseq {
            if let Some(random) = self.overhead_random.as_mut().filter(|_| !self.send_forced) {
                // ns-2 overhead_: new data waits a random processing delay; the
                // delayed-send timer then sends what the window allows.
                if self.delayed_send.is_none() {
                    let delay = (self.params.overhead as f64 * random.uniform()).round() as SimTime;
                    self.delayed_send = Some(now.saturating_add(delay));
                }
                return;
            }
            self.output(self.t_seqno, now);
            self.t_seqno += 1;
            sent += 1;
            if max_burst != 0 && sent == max_burst {
                break;
            }
        }
    }

    /// Limited transmit: one new packet on a duplicate ACK (ns-2 `send_one`).
    pub fn send_one(&mut self, now: SimTime) {
        let within = self.t_seqno <= self.last_ack + self.wnd
            && self.t_seqno < self.curseq
            && (self.t_seqno as f64) <= self.last_ack as f64 + self.window.cwnd + self.dupacks as f64;
        if within {
            self.output(self.t_seqno, now);
            self.t_seqno += 1;
        }
    }

    /// Puts packet `seq` on the wire (ns-2 `output`).
    pub fn output(&mut self, seq: i64, now: SimTime) {
        let retransmission = seq <= self.maxseq;
        let (ect, ece) = self.ecn_codepoints(seq, retransmission);
        let cwr = self.cwr_pending && (!retransmission || self.params.cwr_on_retransmit);
        if cwr {
            self.cwr_pending = false;
        }
        let rtt_hint = self.rtt_hint();
        self.outbox.push(Outgoing { seq, retransmission, ect, ece, cwr, rtt_hint });
        if let Some(times) = &mut self.send_times {
            times.record(seq, now);
        }
        self.stats.packets_sent += 1;
        let nothing_outstanding = self.last_ack == self.maxseq;
        if seq > self.maxseq {
            self.maxseq = seq;
            // Karn: only a packet never sent before is timed, one at a time.
            if !self.rtt_active {
                self.rtt_active = true;
                if seq > self.rtt_seq {
                    self.rtt_seq = seq;
                    self.rtt_sent_at = now;
                }
            }
        } else {
            self.stats.retransmits += 1;
        }
        if self.rtx_deadline.is_none() || nothing_outstanding {
            self.set_rtx_timer(now);
        }
    }

    pub fn set_rtx_timer(&mut self, now: SimTime) {
        self.rtx_deadline = Some(now.saturating_add(time::from_secs(self.rtt.timeout())));
    }

    /// Rearms the timer while data is outstanding, else stops it (ns-2 `newtimer`).
    pub fn restart_timer_if_outstanding(&mut self, ack: i64, now: SimTime) {
        if self.t_seqno > ack || ack < self.maxseq || self.window.cwnd < 1.0 {
            self.set_rtx_timer(now);
        } else {
            self.rtx_deadline = None;
        }
    }

    /// ns-2 `reset_rtx_timer(mild, backoff)`: optionally back off, rearm, and unless
    /// `mild` go back to the first unacknowledged packet; cancel the RTT measurement.
    pub fn reset_rtx_timer(&mut self, mild: bool, back_off: bool, now: SimTime) {
        if back_off {
            self.rtt.back_off();
        }
        self.set_rtx_timer(now);
        if !mild {
            self.t_seqno = self.last_ack + 1;
        }
        self.rtt_active = false;
    }

    /// Bookkeeping for an ACK of new data (ns-2 `newack`); returns the RTT sample taken.
    /// `ece`: the ACK carries an ECN echo.
    pub fn new_ack(&mut self, ack: i64, ece: bool, now: SimTime) -> Option<f64> {
        self.dupacks = 0;
        self.last_ack = ack;
        if self.t_seqno < ack + 1 {
            self.t_seqno = ack + 1;
        }
        let mut sample = None;
        let every_ack = self.params.rtt_samples == RttSamples::EveryAck;
        if every_ack && self.ack_ts_echo > 0 && self.ack_ts_echo <= now {
            // RFC 7323 §4: every ACK of new data gives a sample from its timestamp echo
            // (a retransmission's echo is its own send time, so Karn's rule is not needed).
            self.end_backoff_unless_ecn_idle(ece);
            self.rtt_active = false;
            sample = Some(self.take_rtt_sample(now, self.ack_ts_echo, ack));
        } else if !every_ack && self.rtt_active && ack >= self.rtt_seq {
            self.end_backoff_unless_ecn_idle(ece);
            self.rtt_active = false;
            sample = Some(self.take_rtt_sample(now, self.rtt_sent_at, ack));
        }
        // ns-2 timerfix_: rearm after the RTT update so the new RTO is used.
        self.restart_timer_if_outstanding(ack, now);
        sample
    }

    /// Feeds the estimator the RTT of a packet sent at `sent_at` whose ACK `ack` came
    /// at `now`, by the sender's `rto_rule`; returns the sample, seconds.
    fn take_rtt_sample(&mut self, now: SimTime, sent_at: SimTime, ack: i64) -> f64 {
        let rtt_s = time::to_secs(now - sent_at);
        match self.rtt.rule() {
            RtoRule::Ns2 => self.rtt.update(rtt_s, time::to_secs(sent_at) + self.clock_phase),
            RtoRule::Linux => self.rtt.update_linux(rtt_s, ack + 1, self.maxseq + 1),
        }
        self.record_rtt(rtt_s);
        rtt_s
    }

    fn record_rtt(&mut self, rtt_s: f64) {
        self.note_rtt(rtt_s);
        let s = &mut self.stats;
        s.rtt_samples += 1;
        s.rtt_sum += rtt_s;
        s.rtt_min = s.rtt_min.min(rtt_s);
        s.rtt_max = s.rtt_max.max(rtt_s);
    }

    /// The RTT this sender writes into its data packets (agent parameter `rtt_hint`),
    /// picoseconds; 0 when it writes none or has no sample yet.
    fn rtt_hint(&self) -> crate::engine::Dur {
        let rtt = match self.params.rtt_hint {
            RttHint::None => return 0,
            RttHint::Last => self.rtt.last_sample(),
            RttHint::Smoothed => (self.rtt.srtt() > 0.0).then(|| self.rtt.srtt()),
            RttHint::Min => self.rtt_range.0.is_finite().then_some(self.rtt_range.0),
        };
        rtt.map_or(0, time::from_secs)
    }

    /// Widens the range of RTT samples seen.
    pub fn note_rtt(&mut self, rtt_s: f64) {
        self.rtt_range.0 = self.rtt_range.0.min(rtt_s);
        self.rtt_range.1 = self.rtt_range.1.max(rtt_s);
    }

    /// Fast retransmit / fast recovery is in progress.
    pub fn in_recovery(&self) -> bool {
        self.last_cwnd_action == CwndAction::Dupack
    }

    /// cwnd ← 1 with ssthresh kept (ns-2 `slowdown(CLOSE_CWND_ONE)`); the next packet
    /// carries CWR.
    pub fn close_cwnd_to_one(&mut self) {
        self.window.cwnd = 1.0;
        self.cwr_pending = true;
    }

    /// True once every packet of a finite transfer is acknowledged.
    pub fn finished(&self) -> bool {
        self.curseq != i64::MAX && self.last_ack >= self.curseq - 1 && self.curseq > 0
    }
}

/// This ACK's own RTT sample from its timestamp echo, seconds.
pub(crate) fn ack_rtt(info: &AckInfo, now: SimTime) -> Option<f64> {
    (info.ts_echo > 0 && info.ts_echo <= now).then(|| time::to_secs(now - info.ts_echo))
}

