//! The TCP sender: state and the procedures every loss-recovery variant shares.
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
//! Deviation: after a halving, cwnd is kept at least 1 packet (ns-2 can leave it below 1
//! when the window was a single packet).

use super::cc::{AckSample, CcKind, CongestionControl, Window};
use super::receiver::ReceiverKind;
use super::recovery::{LossRecovery, RecoveryKind};
use super::rtt::RttEstimator;
use crate::engine::time::{self, Dur, SimTime};

/// Parameters of a TCP flow; every default is ns-2.35's.
#[derive(Debug, Clone, PartialEq)]
pub struct TcpParams {
    pub recovery: RecoveryKind,
    pub cc: CcKind,
    /// Payload bytes per packet (ns-2 `packetSize_`); default 1000.
    pub packet_size: u32,
    /// Header bytes added on the wire (ns-2 `tcpip_base_hdr_size_`); default 40.
    pub header_size: u32,
    /// ACK size on the wire (ns-2 `Agent/TCPSink packetSize_`); default 40.
    pub ack_size: u32,
    /// Initial congestion window, packets (ns-2 `windowInit_`); default 2.
    pub initial_window: f64,
    /// Advertised window, packets (ns-2 `window_`); default 20.
    pub max_window: u32,
    /// Initial ssthresh, packets; default the advertised window (ns-2 `reset`).
    pub initial_ssthresh: Option<f64>,
    /// Duplicate ACKs that trigger fast retransmit (ns-2 `numdupacks_`); default 3.
    pub dupack_threshold: u32,
    /// Send one new packet on each of the first dupack_threshold − 1 duplicate ACKs
    /// (RFC 3042; ns-2 `singledup_`); default true.
    pub limited_transmit: bool,
    /// Minimum RTO (ns-2 `minrto_`); default 200 ms.
    pub min_rto: Dur,
    /// Maximum RTO (ns-2 `maxrto_`); default 60 s.
    pub max_rto: Dur,
    /// RTO before the first sample (ns-2 `rtxcur_init_`); default 3 s.
    pub initial_rto: Dur,
    /// Clock granularity of RTT samples and RTO (ns-2 `tcpTick_`); default 10 ms.
    pub clock_granularity: Dur,
    pub receiver: ReceiverKind,
    /// Delayed-ACK timeout (ns-2 `DelAck interval_`); default 100 ms.
    pub delayed_ack_timeout: Dur,
    /// Packets to transfer; `None` = unlimited (ns-2 FTP `start`).
    pub packets: Option<u64>,
    /// Open with a header-only SYN as packet 0 and start data at packet 1 with cwnd
    /// `initial_window` once the SYN is ACKed (ns-2 `syn_` and `delay_growth_`, both on).
    pub syn: bool,
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpParams {
            recovery: RecoveryKind::NewReno,
            cc: CcKind::Reno,
            packet_size: 1000,
            header_size: 40,
            ack_size: 40,
            initial_window: 2.0,
            max_window: 20,
            initial_ssthresh: None,
            dupack_threshold: 3,
            limited_transmit: true,
            min_rto: 200 * time::PS_PER_MS,
            max_rto: 60 * time::PS_PER_S,
            initial_rto: 3 * time::PS_PER_S,
            clock_granularity: 10 * time::PS_PER_MS,
            receiver: ReceiverKind::EveryPacket,
            delayed_ack_timeout: 100 * time::PS_PER_MS,
            packets: None,
            syn: true,
        }
    }
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
}

/// How `slowdown` sets cwnd (ns-2 CLOSE_CWND_* flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CwndCut {
    /// cwnd ← reduced window (Reno fast recovery).
    ToReduced,
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
    pub rtt_samples: u64,
    pub rtt_sum: f64,
    pub rtt_min: f64,
    pub rtt_max: f64,
}

/// State shared by the loss-recovery variants.
#[derive(Debug, Clone)]
pub struct TcpState {
    pub params: TcpParams,
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
    /// NewReno: a partial ACK was seen in this recovery (ns-2 `firstpartial_`).
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
    /// Packets to put on the wire now, in order (drained by the simulation).
    pub outbox: Vec<i64>,
    pub stats: SenderStats,
}

impl TcpState {
    /// A sender whose RTT clock has phase `clock_phase` seconds within a tick.
    pub fn new(params: TcpParams, clock_phase: f64) -> Self {
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
        let mut sent = 0;
        while self.t_seqno <= self.last_ack + self.flight_window() && self.t_seqno < self.curseq {
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
        self.outbox.push(seq);
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
    pub fn new_ack(&mut self, ack: i64, now: SimTime) -> Option<f64> {
        self.dupacks = 0;
        self.last_ack = ack;
        if self.t_seqno < ack + 1 {
            self.t_seqno = ack + 1;
        }
        let mut sample = None;
        if self.rtt_active && ack >= self.rtt_seq {
            self.rtt.backoff = 1;
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
        let s = &mut self.stats;
        s.rtt_samples += 1;
        s.rtt_sum += rtt_s;
        s.rtt_min = s.rtt_min.min(rtt_s);
        s.rtt_max = s.rtt_max.max(rtt_s);
    }

    /// An ACK of new data outside recovery: bookkeeping, then window growth (ns-2
    /// `recv_newack_helper`).
    pub fn ack_new_data(&mut self, cc: &mut dyn CongestionControl, ack: i64, now: SimTime) {
        let acked_packets = ack - self.last_ack;
        let rtt_s = self.new_ack(ack, now);
        cc.on_ack(&mut self.window, &AckSample { now, acked_packets, rtt_s });
        if ack == 0 {
            // ns-2 delay_growth_: the first ACK (of the SYN, or of packet 0 without one)
            // sets the initial window, replacing the slow-start increment.
            self.window.cwnd = self.wnd_init;
        }
    }

    /// Congestion response (ns-2 `slowdown(CLOSE_SSTHRESH_HALF | cut)` with
    /// `precisionReduce_`: ssthresh ← ⌊W/2⌋ ≥ 2, cwnd ← W/2 real or 1).
    pub fn slowdown(&mut self, cc: &mut dyn CongestionControl, cut: CwndCut) {
        let reduced = cc.reduced_window(&self.window, self.flight_window_real());
        self.window.ssthresh = reduced.floor().max(2.0);
        self.window.cwnd = match cut {
            CwndCut::ToReduced => reduced,
            CwndCut::ToOne => 1.0,
        }
        .max(1.0);
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
            self.window.cwnd = 1.0;
        } else {
            if self.last_ack == -1 && self.wnd_init > 1.0 {
                // The very first packet was lost: restart with a window of one (ns-2 bugfix_ss_).
                self.wnd_init = 1.0;
            }
            self.stats.timeouts += 1;
            self.last_cwnd_action = CwndAction::Timeout;
            self.slowdown(cc, CwndCut::ToOne);
        }
        self.reset_rtx_timer(false, !nothing_outstanding, now);
        self.last_cwnd_action = CwndAction::Timeout;
        self.send_much(now, 0);
    }

    /// True once every packet of a finite transfer is acknowledged.
    pub fn finished(&self) -> bool {
        self.curseq != i64::MAX && self.last_ack >= self.curseq - 1 && self.curseq > 0
    }
}

/// A TCP sender: shared state + a loss-recovery variant + a congestion control.
pub struct TcpSender {
    pub state: TcpState,
    recovery: Box<dyn LossRecovery>,
    cc: Box<dyn CongestionControl>,
}

impl TcpSender {
    pub fn new(params: TcpParams, clock_phase: f64) -> Self {
        let recovery = params.recovery.build();
        let cc = params.cc.build();
        TcpSender { state: TcpState::new(params, clock_phase), recovery, cc }
    }

    /// The application starts: make data available and send the initial window.
    pub fn start(&mut self, now: SimTime) {
        let syn = self.state.params.syn as i64;
        self.state.curseq = match self.state.params.packets {
            Some(n) => n as i64 + syn,
            None => i64::MAX,
        };
        self.state.send_much(now, 0);
    }

    /// The application stops (ns-2 FTP `stop` = `advance 0`, tcp.cc `TcpAgent::command`):
    /// `curseq ← maxseq`, or 0 if nothing was sent. Every packet below the highest one
    /// sent can still go out again (fast retransmits and partial-ACK retransmissions are
    /// not bounded by `curseq`; a go-back-N after a timeout resends up to `maxseq − 1`),
    /// but `send_much` never resends `maxseq` itself. ns-2 then calls `send_much`; with
    /// `curseq` lowered it cannot send anything the last call did not, so it is left out.
    pub fn stop(&mut self) {
        self.state.curseq = self.state.maxseq.max(0);
    }

    pub fn on_ack(&mut self, ack: i64, now: SimTime) {
        self.recovery.on_ack(&mut self.state, &mut *self.cc, ack, now);
    }

    pub fn on_timeout(&mut self, now: SimTime) {
        self.recovery.on_timeout(&mut self.state, &mut *self.cc, now);
    }

    pub fn recovery_name(&self) -> &'static str {
        self.recovery.name()
    }

    pub fn cc_name(&self) -> &'static str {
        self.cc.name()
    }
}
