//! TCP as agents: the sender (`TcpSource`, ns-2 `Agent/TCP/*`) and the receiver
//! (`TcpSink`, ns-2 `Agent/TCPSink[/DelAck|/Sack1]`).
//!
//! The TCP models themselves live in `tcp/`; this file connects them to the simulation:
//! it lends the sender the simulation's segment buffer as its outbox, keeps the
//! sender's retransmission and congestion-control timers in step with the event heap,
//! and runs the receiver's delayed-ACK timer.
//!
//! When the congestion control sets a pacing rate (`CcView::set_pacing_rate`), the
//! segments the window releases wait here and leave one per `size · 8 / rate`.
//!
//! The retransmission timer is lazy, as in ns-2's practice of resetting a timer without
//! cancelling events: one event stays in the heap; when it fires before the sender's
//! current deadline it re-arms itself for the deadline; a deadline moved *earlier*
//! schedules a new event (with a new generation, which makes the old one stale).

use super::{Agent, AgentCtx, FlowAgents, FlowCounters, FlowShape, Load, RttSummary, Selected, SourceConfig, SourceModel};
use crate::engine::packet::{SACK_BLOCK_BYTES, TCP_CWR, TCP_ECE};
use crate::engine::time;
use crate::engine::{Ecn, Packet, PacketKind, RandomStream, SackBlocks, SimTime};
use crate::model::{Chosen, ModelConfig, ParamError};
use crate::tcp::cc::CcModel;
use crate::tcp::params::SPEC;
use crate::tcp::receiver::{self, AckAction, DataArrival, ReceiverModel};
use crate::tcp::recovery::RecoveryModel;
use crate::engine::packet::Outgoing;
use crate::tcp::{AckInfo, TcpParams, TcpReceiver, TcpSender};
use std::collections::VecDeque;
use std::sync::Arc;

/// The `tcp` traffic source; its parameters are the sender's (`tcp/params.rs`).
pub static MODEL: SourceModel = SourceModel { spec: &SPEC, configure };

fn configure(c: &ModelConfig, selected: Selected) -> Result<Arc<dyn SourceConfig>, ParamError> {
    let missing = |family: &str| ParamError::new(SPEC.name, format!("a {family} for the TCP flow"));
    Ok(Arc::new(TcpFlow {
        params: Arc::new(TcpParams::from_config(c)),
        cc: selected.cc.ok_or_else(|| missing("congestion control"))?,
        recovery: selected.recovery.ok_or_else(|| missing("loss recovery"))?,
        receiver: selected.receiver.ok_or_else(|| missing("receiver"))?,
    }))
}

/// A TCP flow, configured: the sender's parameters and the three models it combines.
#[derive(Debug, Clone, PartialEq)]
pub struct TcpFlow {
    pub params: Arc<TcpParams>,
    pub cc: Chosen<CcModel>,
    pub recovery: Chosen<RecoveryModel>,
    pub receiver: Chosen<ReceiverModel>,
}

impl SourceConfig for TcpFlow {
    fn shape(&self) -> FlowShape {
        let p = &self.params;
        FlowShape {
            data_kind: PacketKind::Data,
            data_size: p.packet_size + p.header_size,
            payload: p.packet_size,
            ack_size: p.ack_size,
            header_size: p.header_size,
            syn: p.syn,
            syn_size: p.syn_wire_size(),
        }
    }

    fn largest_packet(&self) -> u32 {
        let p = &self.params;
        // An ACK grows by 8 bytes per SACK block it carries.
        let largest_ack = p.ack_size + SACK_BLOCK_BYTES * receiver::sack_blocks(&self.receiver.config) as u32;
        (p.packet_size + p.header_size).max(p.syn_wire_size()).max(largest_ack)
    }

    fn load(&self) -> Load {
        let p = &self.params;
        let packets = p.packets.map_or(f64::INFINITY, |n| n as f64 + 1.0);
        Load::Window {
            packet_size: p.packet_size + p.header_size,
            max_window: (p.max_window as f64).min(packets),
            initial_window: p.initial_window,
            agent_bytes: (std::mem::size_of::<TcpSender>() + std::mem::size_of::<TcpReceiver>() + 512) as u64,
        }
    }

    fn build(&self, random: RandomStream) -> FlowAgents {
        build(self, random)
    }

    fn sampled(&self) -> &'static [&'static str] {
        if self.cc.build().paces() {
            SAMPLED_PACED
        } else {
            SAMPLED
        }
    }
}

/// What a TCP source adds to each time-series sample, in this order.
const SAMPLED: &[&str] = &["cwnd", "ssthresh", "srtt_s"];
/// The same for a window control that paces, and its pacing rate (bits per second on the
/// wire, 0 while it does not pace).
const SAMPLED_PACED: &[&str] = &["cwnd", "ssthresh", "srtt_s", "pacing_rate_bps"];

/// The source's timers.
const RETRANSMIT: u32 = 0;
const CONGESTION_CONTROL: u32 = 1;
const PACING: u32 = 2;
const DELAYED_SEND: u32 = 3;
/// The sink's timer.
const DELAYED_ACK: u32 = 0;

/// Builds a TCP flow's sender and receiver.
fn build(flow: &TcpFlow, mut random: RandomStream) -> FlowAgents {
    let p = &flow.params;
    // ns-2 boot_time_: each agent's clock has a random phase within a tick.
    let clock_phase = random.uniform() * time::to_secs(p.clock_granularity);
    let overhead = p.overhead;
    // The window control's stream: a fork seeded from a copy of the flow's stream, so the
    // flow's own later draws (ns-2 overhead_) are those they were without it.
    let cc_random_seed = (random.clone().uniform() * (1u64 << 53) as f64) as u64;
    FlowAgents {
        sink: Box::new(TcpSink::new(flow.receiver.build(), p.syn, p.packet_size)),
        shape: flow.shape(),
        source: Box::new(TcpSource::new({
            let mut sender = TcpSender::new(Arc::clone(p), flow.recovery.build(), flow.cc.build(), clock_phase);
            sender.state.cc_random_seed = cc_random_seed;
            if overhead > 0 {
                // Later draws of the flow's stream: the clock phase above is unchanged.
                sender.state.overhead_random = Some(Box::new(random));
            }
            sender
        })),
    }
}

/// No timer event pending: the source's event times use this rather than an
/// `Option<SimTime>`, 8 bytes less each (issue 22: a source per flow, a million flows). No
/// event is due at the end of time, and a deadline is always earlier.
const NO_EVENT: SimTime = SimTime::MAX;

/// A TCP sender as an agent.
pub struct TcpSource {
    pub sender: TcpSender,
    /// Generation of the live retransmission-timer event (older ones are stale).
    rtx_generation: u32,
    /// Time of the pending retransmission-timer event, or `NO_EVENT`.
    rtx_event_at: SimTime,
    /// Time of the pending congestion-control timer event, or `NO_EVENT`.
    cc_timer_at: SimTime,
    /// Time of the pending delayed-send event (ns-2 `overhead_`), or `NO_EVENT`.
    delayed_send_at: SimTime,
    /// Pacing state, once the congestion control has asked for pacing (kept apart:
    /// most senders never pace).
    pacer: Option<Box<Pacer>>,
    /// The window control paces (its samples add the pacing rate).
    paces: bool,
}

#[derive(Debug, Default)]
struct Pacer {
    /// Segments released by the window and waiting for their pacing slot.
    waiting: VecDeque<Outgoing>,
    /// Earliest time the next paced segment may leave.
    next_send: SimTime,
    timer_pending: bool,
}

impl TcpSource {
    pub fn new(sender: TcpSender) -> Self {
        let paces = sender.paces();
        TcpSource { sender, rtx_generation: 0, rtx_event_at: NO_EVENT, cc_timer_at: NO_EVENT, delayed_send_at: NO_EVENT, pacer: None, paces }
    }

    /// Holds the segments just released when pacing is on, and sends those whose slot
    /// has come; asks for a timer for the next slot.
    fn pace(&mut self, ctx: &mut AgentCtx) {
        let params = &self.sender.state.params;
        let segment_bytes = (params.packet_size + params.header_size) as u64;
        let pacer = self.pacer.get_or_insert_with(Box::default);
        pacer.waiting.extend(ctx.segments.drain(..));
        let Some(rate) = self.sender.state.pacing_rate_bps else {
            // Pacing was switched off: what waits leaves now.
            ctx.segments.extend(pacer.waiting.drain(..));
            return;
        };
        while ctx.now >= pacer.next_send {
            let Some(segment) = pacer.waiting.pop_front() else { break };
            ctx.send(segment);
            pacer.next_send = ctx.now + time::transmission_time(segment_bytes, rate).max(1);
        }
        if !pacer.waiting.is_empty() && !pacer.timer_pending {
            pacer.timer_pending = true;
            ctx.set_timer(pacer.next_send, PACING, 0);
        }
    }

    /// Tells the sender's rate sampler, if it keeps one, that the segments in the
    /// simulation's buffer leave now.
    fn report_departures(&mut self, ctx: &AgentCtx) {
        if self.sender.samples_rates() {
            for segment in ctx.segments.iter() {
                self.sender.departed(segment.seq, ctx.now);
            }
        }
    }

    /// Segments waiting for their pacing slot.
    fn paced(&self) -> usize {
        self.pacer.as_ref().map_or(0, |p| p.waiting.len())
    }

    /// Runs `f` on the sender with the simulation's segment buffer as its outbox, then
    /// brings the timer events in step with the sender's deadlines.
    fn drive(&mut self, ctx: &mut AgentCtx, f: impl FnOnce(&mut TcpSender, SimTime)) {
        std::mem::swap(&mut self.sender.state.outbox, ctx.segments);
        f(&mut self.sender, ctx.now);
        std::mem::swap(&mut self.sender.state.outbox, ctx.segments);
        if self.sender.state.pacing_rate_bps.is_some() || self.paced() > 0 {
            self.pace(ctx);
        }
        self.report_departures(ctx);
        if let Some(at) = self.sender.state.cc_timer {
            if self.cc_timer_at != at {
                self.cc_timer_at = at;
                ctx.set_timer(at, CONGESTION_CONTROL, 0);
            }
        }
        if let Some(deadline) = self.sender.state.rtx_deadline {
            if self.rtx_event_at > deadline {
                self.arm_retransmit(ctx, deadline);
            }
        }
        if let Some(at) = self.sender.state.delayed_send {
            if self.delayed_send_at != at {
                self.delayed_send_at = at;
                ctx.set_timer(at, DELAYED_SEND, 0);
            }
        }
    }

    fn arm_retransmit(&mut self, ctx: &mut AgentCtx, at: SimTime) {
        self.rtx_generation = self.rtx_generation.wrapping_add(1);
        self.rtx_event_at = at;
        ctx.set_timer(at, RETRANSMIT, self.rtx_generation);
    }
}

impl Agent for TcpSource {
    fn start(&mut self, ctx: &mut AgentCtx) {
        self.drive(ctx, |s, now| s.start(now));
    }

    fn stop(&mut self, _ctx: &mut AgentCtx) {
        self.sender.stop();
    }

    fn on_packet(&mut self, ctx: &mut AgentCtx, packet: &Packet, sack: &SackBlocks) {
        debug_assert_eq!(packet.kind, PacketKind::Ack);
        let ack = AckInfo::read_from(packet, sack);
        self.drive(ctx, |s, now| s.on_ack(&ack, now));
    }

    fn on_timer(&mut self, ctx: &mut AgentCtx, timer: u32, generation: u32) {
        let now = ctx.now;
        match timer {
            RETRANSMIT => {
                if generation != self.rtx_generation {
                    return;
                }
                self.rtx_event_at = NO_EVENT;
                match self.sender.state.rtx_deadline {
                    None => {}
                    Some(deadline) if deadline > now => self.arm_retransmit(ctx, deadline),
                    Some(_) => {
                        self.sender.state.rtx_deadline = None;
                        self.drive(ctx, |s, now| s.on_timeout(now));
                    }
                }
            }
            CONGESTION_CONTROL => {
                // Only the latest request counts; an earlier event for a moved timer is stale.
                if self.cc_timer_at != now || self.sender.state.cc_timer != Some(now) {
                    return;
                }
                self.cc_timer_at = NO_EVENT;
                self.drive(ctx, |s, now| s.on_cc_timer(now));
            }
            DELAYED_SEND => {
                if self.delayed_send_at != now || self.sender.state.delayed_send != Some(now) {
                    return;
                }
                self.delayed_send_at = NO_EVENT;
                self.drive(ctx, |s, now| s.on_delayed_send(now));
            }
            PACING => {
                if let Some(pacer) = &mut self.pacer {
                    pacer.timer_pending = false;
                }
                self.pace(ctx);
                self.report_departures(ctx);
            }
            _ => unreachable!("TCP source timer {timer}"),
        }
    }

    fn report(&self, c: &mut FlowCounters) {
        let s = &self.sender.state.stats;
        c.transport = "tcp";
        c.recovery = self.sender.recovery_name();
        c.cc = self.sender.cc_name();
        c.packets_sent = s.packets_sent;
        c.retransmits = s.retransmits;
        c.timeouts = s.timeouts;
        c.fast_retransmits = s.fast_retransmits;
        c.ecn_reductions = s.ecn_reductions;
        c.rtt = (s.rtt_samples > 0).then(|| RttSummary {
            samples: s.rtt_samples,
            mean: s.rtt_sum / s.rtt_samples as f64,
            min: s.rtt_min,
            max: s.rtt_max,
        });
        c.final_cwnd = Some(self.sender.state.window.cwnd);
        self.sender.cc_recorded(&mut |name, values| c.recorded.push((name, values.to_vec())));
    }

    fn measurement_starts(&mut self) {
        let s = &mut self.sender.state.stats;
        s.rtt_min = f64::INFINITY;
        s.rtt_max = 0.0;
    }

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        let s = &self.sender.state;
        let values = [s.window.cwnd, s.window.ssthresh, s.rtt.srtt()];
        for (name, value) in SAMPLED.iter().zip(values) {
            push(name, value);
        }
        if self.paces {
            push("pacing_rate_bps", s.pacing_rate_bps.unwrap_or(0) as f64);
        }
    }
}

/// A TCP receiver as an agent.
pub struct TcpSink {
    pub receiver: TcpReceiver,
    /// The flow opens with a SYN (packet 0, no payload).
    syn: bool,
    /// Payload bytes per data packet.
    payload: u32,
    /// Each data packet makes the pending delayed-ACK event stale.
    delack_generation: u32,
}

impl TcpSink {
    pub fn new(receiver: TcpReceiver, syn: bool, payload: u32) -> Self {
        TcpSink { receiver, syn, payload, delack_generation: 0 }
    }
}

impl Agent for TcpSink {
    fn on_packet(&mut self, ctx: &mut AgentCtx, p: &Packet, _sack: &SackBlocks) {
        debug_assert_eq!(p.kind, PacketKind::Data);
        let syn_pending = self.syn && self.receiver.ack_number() < 0;
        let arrival = DataArrival {
            seq: p.seq,
            sent_at: p.sent_at,
            ect: p.ecn.capable(),
            ce: p.ecn == Ecn::Ce,
            cwr: p.tcp_flags & TCP_CWR != 0,
            ece: p.tcp_flags & TCP_ECE != 0,
        };
        let (delivered, action) = self.receiver.on_data(arrival);
        // The SYN carries no payload.
        let data_packets = delivered - (syn_pending && delivered > 0) as u64;
        ctx.delivered(data_packets * self.payload as u64);
        self.delack_generation = self.delack_generation.wrapping_add(1);
        match action {
            AckAction::SendNow(ack) => ctx.send_ack(ack),
            AckAction::StartTimer(timeout) => {
                ctx.set_timer(ctx.now.saturating_add(timeout), DELAYED_ACK, self.delack_generation);
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut AgentCtx, timer: u32, generation: u32) {
        debug_assert_eq!(timer, DELAYED_ACK);
        if generation != self.delack_generation {
            return;
        }
        if let Some(ack) = self.receiver.on_timer() {
            ctx.send_ack(ack);
        }
    }

    fn report(&self, c: &mut FlowCounters) {
        // The SYN is not data: leave it out of the delivered count.
        let syn = (self.syn && self.receiver.unique_packets > 0) as u64;
        c.packets_received = self.receiver.packets_received;
        c.unique_packets = self.receiver.unique_packets - syn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentOutputs;

    fn source(initial_window: f64) -> TcpSource {
        let params = TcpParams { syn: false, initial_window, packet_size: 1000, header_size: 40, ..TcpParams::default() };
        TcpSource::new(crate::catalogue::default_tcp_sender(params, 0.0))
    }

    #[test]
    fn without_pacing_the_whole_window_leaves_at_once() {
        let mut s = source(4.0);
        let mut out = AgentOutputs::default();
        s.start(&mut AgentCtx::new(0, &mut out));
        assert_eq!(out.segments.iter().map(|o| o.seq).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert!(out.timers.iter().all(|t| t.timer != PACING));
    }

    #[test]
    fn a_pacing_rate_spaces_segments_by_their_transmission_time() {
        let mut s = source(4.0);
        // 1040 B at 8.32 Mb/s: one segment per millisecond.
        s.sender.state.pacing_rate_bps = Some(8_320_000);
        let ms = 1_000_000_000;
        let mut out = AgentOutputs::default();
        s.start(&mut AgentCtx::new(0, &mut out));
        assert_eq!(out.segments.iter().map(|o| o.seq).collect::<Vec<_>>(), vec![0]);
        let pacing: Vec<_> = out.timers.iter().filter(|t| t.timer == PACING).copied().collect();
        assert_eq!(pacing.len(), 1);
        assert_eq!(pacing[0].at, ms);
        let mut sent_at = vec![0];
        let mut at = pacing[0].at;
        for _ in 0..3 {
            let mut out = AgentOutputs::default();
            s.on_timer(&mut AgentCtx::new(at, &mut out), PACING, 0);
            assert_eq!(out.segments.len(), 1, "one segment per slot");
            sent_at.push(at);
            if let Some(t) = out.timers.iter().find(|t| t.timer == PACING) {
                at = t.at;
            }
        }
        assert_eq!(sent_at, vec![0, ms, 2 * ms, 3 * ms]);
        assert_eq!(s.paced(), 0);
    }

    #[test]
    fn switching_pacing_off_releases_what_waits() {
        let mut s = source(4.0);
        s.sender.state.pacing_rate_bps = Some(8_320_000);
        let mut out = AgentOutputs::default();
        s.start(&mut AgentCtx::new(0, &mut out));
        assert_eq!(s.paced(), 3);
        s.sender.state.pacing_rate_bps = None;
        let mut out = AgentOutputs::default();
        s.on_timer(&mut AgentCtx::new(1_000_000_000, &mut out), PACING, 0);
        assert_eq!(out.segments.iter().map(|o| o.seq).collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}
