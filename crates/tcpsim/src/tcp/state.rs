//! The TCP sender's state and the procedures every loss-recovery variant shares.
//!
//! Loss recovery (`recovery/`) and congestion control (`cc/`) work on this state; the
//! sender that composes them (`sender.rs`) depends on them, not they on it.
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

use super::ack::AckInfo;
pub use super::agent::TcpParams;
use super::agent::RttHint;
use super::cc::{AckEvent, CcView, CongestionControl, Window};
use super::rtt::RttEstimator;
use crate::engine::time::{self, SimTime};
use std::collections::VecDeque;

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

/// Per-flow sender counters.
#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub packets_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// Window reductions for ECN echoes (ns-2 `necnresponses_`).
    pub ecn_reductions: u64,
    pub rtt_samples: u64,
    pub rtt_sum: f64,
    pub rtt_min: f64,
    pub rtt_max: f64,
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

/// A packet the sender puts on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outgoing {
    pub seq: i64,
    /// Sent before.
    pub retransmission: bool,
    /// ECN-capable transport: set on data packets of an ECN sender except packet 0
    /// (retransmissions per `ect_on_retransmit`).
    pub ect: bool,
    /// Carries the ECE flag: packet 0 of an ECN sender offers ECN (ns-2 `output()`).
    pub ece: bool,
    /// Carries the CWR flag.
    pub cwr: bool,
    /// The RTT the sender writes into the packet (`rtt_hint`), picoseconds; 0 for none.
    pub rtt_hint: crate::engine::Dur,
}

/// When each packet was last sent and how many times it was sent (ns-2 Vegas
/// `v_sendtime_`, `v_transmits_`), kept one of two ways:
///
/// - exact (the default): a record of each packet last_ack + 1 ..= maxseq, forgotten when
///   acknowledged (memory follows the flight);
/// - ns-2 Agent/TCP/Vegas's ring ([`SendTimes::ns2_ring`]): `window_` slots indexed by
///   `seq % window_`, re-created when packet 0 is sent. A new ACK clears the slots of the
///   packets it acknowledges with tcp-vegas.cc's loop, which runs from `(oldack + 1) %
///   window_` while the index is at most `ack % window_`: when the acknowledged range wraps
///   around the ring it clears nothing, so those slots keep their send time and count, and
///   the packets that reuse them count 2 transmissions or more (no RTT sample from their
///   ACKs, the doubled fine-grained timer and the halved window of a retransmission). A
///   lookup returns whatever the slot holds. Vegas with ns-2's `window_` 20 depends on it.
#[derive(Debug, Clone, Default)]
pub struct SendTimes {
    first: i64,
    records: VecDeque<SendRecord>,
    /// The ring's size (ns-2 `v_maxwnd_` = `window_`); 0 = exact records.
    ring_size: u32,
}

#[derive(Debug, Clone, Copy)]
struct SendRecord {
    last_sent: SimTime,
    transmissions: u32,
}

impl SendTimes {
    /// ns-2 Agent/TCP/Vegas's ring of `window` slots (see the type's text).
    pub fn ns2_ring(window: u32) -> Self {
        SendTimes { first: 0, records: VecDeque::new(), ring_size: window.max(1) }
    }

    /// When packet `seq` was last sent, if it is outstanding (the ring: what its slot holds).
    pub fn get(&self, seq: i64) -> Option<SimTime> {
        self.record_of(seq).map(|r| r.last_sent)
    }

    /// How many times packet `seq` was sent, 0 if it is not outstanding (the ring: its
    /// slot's count).
    pub fn transmissions(&self, seq: i64) -> u32 {
        self.record_of(seq).map_or(0, |r| r.transmissions)
    }

    /// The ring's slot of `seq` (slots are created as packets reach them; one never
    /// reached is a cleared one).
    fn slot(&self, seq: i64) -> Option<usize> {
        (seq >= 0).then(|| (seq % self.ring_size as i64) as usize)
    }

    fn record_of(&self, seq: i64) -> Option<&SendRecord> {
        if self.ring_size > 0 {
            return self.records.get(self.slot(seq)?).filter(|r| r.transmissions > 0);
        }
        let i = seq.checked_sub(self.first)?;
        if i < 0 {
            return None;
        }
        self.records.get(i as usize).filter(|r| r.transmissions > 0)
    }

    fn record(&mut self, seq: i64, now: SimTime) {
        if self.ring_size > 0 {
            let Some(k) = self.slot(seq) else { return };
            if seq == 0 {
                self.records.clear(); // ns-2 allocates the ring anew on every send of packet 0
            }
            while self.records.len() <= k {
                self.records.push_back(SendRecord { last_sent: now, transmissions: 0 });
            }
            let r = &mut self.records[k];
            r.last_sent = now;
            r.transmissions += 1;
            return;
        }
        if self.records.is_empty() {
            self.first = seq;
        }
        let i = seq - self.first;
        if i < 0 {
            return;
        }
        let i = i as usize;
        while self.records.len() <= i {
            self.records.push_back(SendRecord { last_sent: now, transmissions: 0 });
        }
        let r = &mut self.records[i];
        r.last_sent = now;
        r.transmissions += 1;
    }

    /// The ring: a new cumulative ACK `ack` (the previous one was `old_ack`) clears the
    /// slots of the packets it acknowledges, as ns-2's loop does (see the type's text).
    /// Nothing for exact records.
    pub(crate) fn release_ring_slots(&mut self, old_ack: i64, ack: i64) {
        if self.ring_size > 0 {
            let size = self.ring_size as i64;
            let end = ack.rem_euclid(size);
            let mut k = (old_ack + 1).rem_euclid(size);
            let mut range = ack - old_ack;
            while k <= end && range > 0 {
                if let Some(r) = self.records.get_mut(k as usize) {
                    r.transmissions = 0;
                }
                k = (k + 1) % size;
                range -= 1;
            }
        }
    }

    /// Exact records: forgets the packets up to and including `ack`. Nothing for the ring,
    /// whose model releases slots itself (`release_ring_slots`).
    pub(crate) fn acknowledge(&mut self, ack: i64) {
        if self.ring_size > 0 {
            return;
        }
        while self.first <= ack && !self.records.is_empty() {
            self.records.pop_front();
            self.first += 1;
        }
        if self.records.is_empty() {
            self.first = ack + 1;
        }
    }
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
        );
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
        if self.rtt_active && ack >= self.rtt_seq {
            self.end_backoff_unless_ecn_idle(ece);
            self.rtt_active = false;
            let rtt_s = time::to_secs(now - self.rtt_sent_at);
            self.rtt.update(rtt_s, time::to_secs(self.rtt_sent_at) + self.clock_phase);
            self.record_rtt(rtt_s);
            sample = Some(rtt_s);
        }
        // ns-2 timerfix_: rearm after the RTT update so the new RTO is used.
        self.restart_timer_if_outstanding(ack, now);
        sample
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

    /// cwnd ← 1 with ssthresh kept (ns-2 `slowdown(CLOSE_CWND_ONE)`); the next packet
    /// carries CWR.
    pub fn close_cwnd_to_one(&mut self) {
        self.window.cwnd = 1.0;
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

    /// True once every packet of a finite transfer is acknowledged.
    pub fn finished(&self) -> bool {
        self.curseq != i64::MAX && self.last_ack >= self.curseq - 1 && self.curseq > 0
    }
}

/// This ACK's own RTT sample from its timestamp echo, seconds.
pub(crate) fn ack_rtt(info: &AckInfo, now: SimTime) -> Option<f64> {
    (info.ts_echo > 0 && info.ts_echo <= now).then(|| time::to_secs(now - info.ts_echo))
}

#[cfg(test)]
mod send_times_tests {
    use super::SendTimes;

    /// Exact records forget what is acknowledged and know each packet's own count.
    #[test]
    fn exact_records_follow_the_flight() {
        let mut t = SendTimes::default();
        for seq in 0..6 {
            t.record(seq, 10 * seq as u64);
        }
        t.record(3, 100);
        t.acknowledge(2);
        assert_eq!((t.get(2), t.transmissions(2)), (None, 0));
        assert_eq!((t.get(3), t.transmissions(3)), (Some(100), 2));
        assert_eq!((t.get(5), t.transmissions(5)), (Some(50), 1));
    }

    /// ns-2 Agent/TCP/Vegas's ring (tcp-vegas.cc): slots seq % window; a new ACK clears
    /// from (old + 1) % window while the index is at most ack % window, so a range that
    /// wraps clears nothing and the packets reusing those slots count 2 transmissions.
    #[test]
    fn the_ns2_ring_skips_clearing_a_range_that_wraps() {
        let mut t = SendTimes::ns2_ring(4);
        for seq in 0..4 {
            t.record(seq, seq as u64);
        }
        // ACK of 0 and 1 (from -1): slots 0 and 1 cleared.
        t.release_ring_slots(-1, 1);
        assert_eq!((t.transmissions(0), t.transmissions(1), t.transmissions(2)), (0, 0, 1));
        t.record(4, 40); // slot 0
        t.record(5, 50); // slot 1
        // ACK of 2..=4 (from 1): the range wraps (slot 2 > slot 0): nothing is cleared.
        t.release_ring_slots(1, 4);
        assert_eq!((t.transmissions(2), t.transmissions(3), t.transmissions(4)), (1, 1, 1));
        t.record(6, 60); // slot 2, never cleared: a second transmission as far as ns-2 knows
        assert_eq!((t.get(6), t.transmissions(6)), (Some(60), 2));
        // A lookup returns what the slot holds: packet 2's slot now tells of packet 6.
        assert_eq!(t.get(2), Some(60));
        // Exact acknowledgements leave the ring alone.
        t.acknowledge(6);
        assert_eq!(t.transmissions(6), 2);
        // Sending packet 0 again re-creates the ring.
        t.record(0, 70);
        assert_eq!((t.transmissions(0), t.transmissions(6)), (1, 0));
    }
}
