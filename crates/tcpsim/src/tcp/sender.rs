//! The TCP sender: a [`TcpState`] driven by a loss recovery and a congestion control.
//!
//! The state and the procedures the recoveries share are in `state.rs`; this file only
//! composes the three and routes ACKs, timeouts and timers to them.

use super::ack::AckInfo;
use super::cc::{AckEvent, CcHooks, CcView, CongestionControl};
use super::recovery::LossRecovery;
use super::state::ack_rtt;
pub use super::state::{CwndAction, CwndCut, Outgoing, RateSample, RateSampler, SendTimes, SenderStats, TcpParams, TcpState};
use crate::engine::SimTime;

/// A TCP sender: shared state + a loss-recovery variant + a congestion control.
pub struct TcpSender {
    pub state: TcpState,
    recovery: Box<dyn LossRecovery>,
    cc: Box<dyn CongestionControl>,
    /// The congestion control's optional hooks, asked once.
    hooks: CcHooks,
}

impl TcpSender {
    /// A sender with these parameters, loss recovery and congestion control, whose RTT
    /// clock has phase `clock_phase` seconds within a tick.
    pub fn new(
        params: impl Into<std::sync::Arc<TcpParams>>,
        recovery: Box<dyn LossRecovery>,
        cc: Box<dyn CongestionControl>,
        clock_phase: f64,
    ) -> Self {
        let mut state = TcpState::new(params, clock_phase);
        if cc.ns2_vegas_ring() {
            state.send_times = Some(Box::new(SendTimes::ns2_ring(state.params.max_window)));
        } else if cc.wants_send_times() || recovery.wants_send_times() {
            state.send_times = Some(Box::default());
        }
        if cc.wants_rate_samples() {
            state.rate = Some(Box::new(RateSampler::new()));
        }
        let hooks = cc.hooks();
        TcpSender { state, recovery, cc, hooks }
    }

    /// The application starts: make data available and send the initial window.
    pub fn start(&mut self, now: SimTime) {
        let syn = self.state.params.syn as i64;
        self.state.curseq = match self.state.params.packets {
            Some(n) => n as i64 + syn,
            None => i64::MAX,
        };
        self.state.send_much(now, 0);
        self.after_sending(0, now);
        self.check_app_limited();
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

    /// An ACK arrived: congestion-control per-ACK hooks, loss recovery, round boundary.
    pub fn on_ack(&mut self, info: &AckInfo, now: SimTime) {
        let sent_before = self.state.outbox.len();
        if self.state.params.ecn && info.ece {
            // ns-2 recv(): the ECN response comes before any other processing of the ACK.
            self.state.respond_to_ecn_echo(&mut *self.cc, info.ack, now);
        }
        let s = &mut self.state;
        s.ack_ts_echo = info.ts_echo;
        let duplicate = info.ack == s.last_ack;
        let ack_rtt_s = ack_rtt(info, now);
        if let Some(rtt) = ack_rtt_s {
            s.note_rtt(rtt);
        }
        if let Some(rate) = &mut s.rate {
            let sample = rate.on_ack(info, s.last_ack, s.stats.retransmits, now);
            // The box is made at the first ACK and reused.
            match &mut s.rate_sample {
                Some(latest) => **latest = sample,
                none => *none = Some(Box::new(sample)),
            }
        }
        let event = AckEvent { info, acked_packets: (info.ack - s.last_ack).max(0), duplicate, rtt_s: None, ack_rtt_s };
        if self.hooks.any_ack {
            self.cc.on_any_ack(&mut CcView::new(s, now), &event);
        }
        if duplicate && self.hooks.duplicate_ack {
            self.cc.on_duplicate_ack(&mut CcView::new(&mut self.state, now), &event);
        }
        self.recovery.on_ack(&mut self.state, &mut *self.cc, info, now);
        let s = &mut self.state;
        if let Some(times) = &mut s.send_times {
            times.acknowledge(s.last_ack);
        }
        if s.last_ack >= s.round_end && s.last_ack >= 0 {
            s.round_end = s.maxseq.max(s.last_ack + 1);
            if self.hooks.round {
                self.cc.on_round(&mut CcView::new(s, now));
            }
        }
        self.after_sending(sent_before, now);
        self.check_app_limited();
    }

    pub fn on_timeout(&mut self, now: SimTime) {
        let sent_before = self.state.outbox.len();
        if let Some(rate) = &mut self.state.rate {
            rate.on_timeout();
        }
        self.recovery.on_timeout(&mut self.state, &mut *self.cc, now);
        self.after_sending(sent_before, now);
    }

    /// Packet `seq` left for the wire at `now` (after any pacing wait): the delivery-rate
    /// sampler's send time. The TCP agent reports each departure when a sampler is kept.
    pub fn departed(&mut self, seq: i64, now: SimTime) {
        if let Some(rate) = &mut self.state.rate {
            rate.on_departure(seq, now);
        }
    }

    /// Keeps a delivery-rate sampler (the congestion control asked for one).
    pub fn samples_rates(&self) -> bool {
        self.state.rate.is_some()
    }

    /// The window control sets a pacing rate (its flows sample `pacing_rate_bps`).
    pub fn paces(&self) -> bool {
        self.cc.paces()
    }

    /// After the sender has sent what it may: with no new data to send and the window
    /// not full, the flow is app-limited (draft-cheng-iccrg-delivery-rate-estimation-01
    /// §3.4; Linux `tcp_rate_check_app_limited`). Only with a rate sampler.
    fn check_app_limited(&mut self) {
        let s = &mut self.state;
        let Some(rate) = &mut s.rate else { return };
        let in_flight = s.maxseq - s.last_ack;
        if s.t_seqno >= s.curseq && (in_flight as f64) < s.window.cwnd {
            rate.mark_app_limited(in_flight);
        }
    }

    /// The congestion control's own timer fired.
    pub fn on_cc_timer(&mut self, now: SimTime) {
        let sent_before = self.state.outbox.len();
        self.state.cc_timer = None;
        self.cc.on_timer(&mut CcView::new(&mut self.state, now));
        self.after_sending(sent_before, now);
    }

    /// The delayed-send timer fired (ns-2 `timeout_nonrtx(TCP_TIMER_DELSND)`): send what
    /// the window allows, without a new delay.
    pub fn on_delayed_send(&mut self, now: SimTime) {
        let sent_before = self.state.outbox.len();
        self.state.delayed_send = None;
        self.state.send_forced = true;
        self.state.send_much(now, 0);
        self.state.send_forced = false;
        self.after_sending(sent_before, now);
    }

    /// Tells the congestion control about each packet put on the wire since `from`.
    fn after_sending(&mut self, from: usize, now: SimTime) {
        if !self.hooks.send {
            return;
        }
        for i in from..self.state.outbox.len() {
            let sent = self.state.outbox[i];
            self.cc.on_send(&mut CcView::new(&mut self.state, now), sent.seq, sent.retransmission);
        }
    }

    pub fn recovery_name(&self) -> &'static str {
        self.recovery.name()
    }

    pub fn cc_name(&self) -> &'static str {
        self.cc.name()
    }

    /// The values the window control records for measurement
    /// ([`CongestionControl::recorded`]).
    pub fn cc_recorded(&self, push: &mut dyn FnMut(&'static str, &[f64])) {
        self.cc.recorded(push)
    }
}
