//! The TFRC sender as an agent: ns-2.35's `Agent/TFRC` (tcp/tfrc.cc) with its default
//! settings, an infinite source.
//!
//! - **Sending.** One data packet of `packet_size` bytes (plus `header_size` on the
//!   wire) now, then one per `packet_size / rate`, where the rate is X ([`SenderRate`]),
//!   or, in slow start after the second report, the ramp towards X (`slow_increase`), or
//!   X · sqrt_avg(R) / sqrt(R_latest) (`sqrt_rtt_pacing`, ns-2 `ca_`); with `overhead`
//!   each interval is scaled by a uniform factor in [1 − overhead, 1 + overhead). Each
//!   packet carries its sequence number, send time, R, t_RTO, the sender's round and the
//!   urgent flag ([`super::wire::DataHeader`]).
//! - **On a report.** The RTT sample is now − (echoed send time + the time the receiver
//!   held it); R is filtered, R ← df·R + (1 − df)·sample (ns-2 `df_` 0.95); t_RTO is
//!   TCP's estimate in `tcp_tick` ticks (srtt and rttvar as 3 and 2 fraction bits,
//!   RTO = srtt + 4·rttvar, at least `min_rto`); X_calc is the equation at p, R and
//!   t_RTO (`super::equation`, ns-2's form); the no-feedback timer is re-armed at
//!   max(2R, 2s/X) with the X from before the report; then X follows
//!   [`SenderRate::on_feedback`]. In slow start (the first report included) a packet
//!   leaves at once and the send timer restarts from the new rate, as ns-2's
//!   `nextpkt()`; in the equation phase the packet already scheduled keeps its time.
//! - **No-feedback timer.** X halves ([`SenderRate::on_no_feedback`]), the round
//!   advances, the next packets ask for an urgent report, the timer is re-armed at
//!   max(2R, 2s/X) and a packet leaves at once.
//! - **Start and stop.** At start X is `initial_rate` (ns-2 `InitRate_` 300 B/s): the
//!   first packet leaves at once, the second s/X later and the no-feedback timer is set
//!   at 2s/X. At stop the source sends nothing more; reports that still arrive update its
//!   state.

use super::equation::{self, EquationInputs, EquationRules};
use super::rate::{Feedback, Phase, SenderRate};
use super::wire::{DataHeader, SharedWire};
use super::params::TfrcParams;
use crate::agent::{Agent, AgentCtx, FlowCounters, RttSummary};
use crate::engine::packet::Outgoing;
use crate::engine::time;
use crate::engine::{Packet, PacketKind, RandomStream, SackBlocks};

/// ns-2's `SMALLFLOAT` (tcp/tfrc.h): the shortest interval between packets, seconds, and
/// the smallest rate that is paced at all, bytes/s.
const NS2_SMALL_FLOAT: f64 = 1e-7;

/// The source's timers.
const SEND: u32 = 0;
const NO_FEEDBACK: u32 = 1;

/// What a TFRC source adds to each time-series sample, in this order.
pub const SAMPLED: &[&str] = &["send_rate_bps", "srtt_s", "loss_event_rate"];

/// ns-2's TCP-style RTO estimator in `tcp_tick` ticks (tfrc.cc `update_rtt`: srtt kept
/// with 3 fraction bits, rttvar with 2, RTO = (srtt + 4·rttvar) ticks).
#[derive(Debug, Clone, PartialEq)]
struct TickRto {
    tick_s: f64,
    min_rto_s: f64,
    /// `t_srtt_` (·8) and `t_rttvar_` (·4), ticks; 0 before the first sample.
    srtt: i64,
    rttvar: i64,
    /// t_RTO, seconds (ns-2 `tzero_`, 0 before the first sample).
    rto_s: f64,
}

/// ns-2 `T_SRTT_BITS` 3 and `T_RTTVAR_BITS` 2 and `rttvar_exp_` 2 (fixed in
/// ns-default.tcl; not parameters here).
const SRTT_BITS: u32 = 3;
const RTTVAR_BITS: u32 = 2;
const RTTVAR_EXP: u32 = 2;

impl TickRto {
    fn sample(&mut self, rtt_s: f64) {
        let ticks = ((rtt_s / self.tick_s + 0.5) as i64).max(1);
        if self.srtt != 0 {
            let mut delta = ticks - (self.srtt >> SRTT_BITS);
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            delta = delta.abs() - (self.rttvar >> RTTVAR_BITS);
            self.rttvar += delta;
            if self.rttvar <= 0 {
                self.rttvar = 1;
            }
        } else {
            self.srtt = ticks << SRTT_BITS;
            self.rttvar = ticks << (RTTVAR_BITS - 1);
        }
        let rto_ticks = ((self.rttvar << (RTTVAR_EXP + SRTT_BITS - RTTVAR_BITS)) + self.srtt) >> SRTT_BITS;
        self.rto_s = (rto_ticks as f64 * self.tick_s).max(self.min_rto_s);
    }
}

/// The sender's round-trip time estimates (ns-2 `rtt_`, `sqrtrtt_`, `rttcur_`).
#[derive(Debug, Clone, PartialEq)]
struct RttFilter {
    /// Weight of the old estimate (ns-2 `df_`).
    history_weight: f64,
    /// R, seconds; 0 before the first sample.
    smoothed_s: f64,
    /// The filtered square root of the samples, and the latest sample (ns-2 starts both
    /// at 1, so the `ca_` factor is 1 until the first report).
    smoothed_sqrt: f64,
    latest_s: f64,
}

impl RttFilter {
    fn sample(&mut self, rtt_s: f64) {
        if self.smoothed_s > 0.0 {
            let keep = self.history_weight;
            self.smoothed_s = keep * self.smoothed_s + (1.0 - keep) * rtt_s;
            self.smoothed_sqrt = keep * self.smoothed_sqrt + (1.0 - keep) * rtt_s.sqrt();
        } else {
            self.smoothed_s = rtt_s;
            self.smoothed_sqrt = rtt_s.sqrt();
        }
        self.latest_s = rtt_s;
    }
}

/// Statistics of the RTT samples, for the flows table.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct RttStats {
    samples: u64,
    sum: f64,
    min: f64,
    max: f64,
}

/// The TFRC source agent.
pub struct TfrcSource {
    params: TfrcParams,
    rate: SenderRate,
    wire: SharedWire,
    random: RandomStream,
    running: bool,
    next_seq: i64,
    rtt: RttFilter,
    rto: TickRto,
    /// Ask the receiver for a report at once (ns-2 `UrgentFlag`).
    urgent: bool,
    /// Each re-arm of a timer makes the older events stale.
    send_generation: u32,
    no_feedback_generation: u32,
    packets_sent: u64,
    reports_received: u64,
    no_feedback_expiries: u64,
    rtt_stats: RttStats,
}

impl TfrcSource {
    pub fn new(params: TfrcParams, wire: SharedWire, random: RandomStream) -> Self {
        let rate = SenderRate::new(params.sender_rules());
        TfrcSource {
            rate,
            wire,
            random,
            running: false,
            next_seq: 0,
            rtt: RttFilter { history_weight: params.rtt_filter, smoothed_s: 0.0, smoothed_sqrt: 1.0, latest_s: 1.0 },
            rto: TickRto { tick_s: params.tcp_tick_s, min_rto_s: params.min_rto_s, srtt: 0, rttvar: 0, rto_s: 0.0 },
            urgent: true,
            send_generation: 0,
            no_feedback_generation: 0,
            packets_sent: 0,
            reports_received: 0,
            no_feedback_expiries: 0,
            rtt_stats: RttStats::default(),
            params,
        }
    }

    /// X, the allowed rate, bytes/s.
    pub fn rate(&self) -> f64 {
        self.rate.rate()
    }

    pub fn phase(&self) -> Phase {
        self.rate.phase()
    }

    pub fn smoothed_rtt_s(&self) -> f64 {
        self.rtt.smoothed_s
    }

    pub fn rto_s(&self) -> f64 {
        self.rto.rto_s
    }

    fn segment(&self) -> f64 {
        self.params.packet_size as f64
    }

    /// ns-2 `sendpkt()`: one data packet with its header.
    fn send_packet(&mut self, ctx: &mut AgentCtx) {
        if !self.running {
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.packets_sent += 1;
        let header = DataHeader { round: self.rate.rounds(), urgent: self.urgent, rtt_s: self.rtt.smoothed_s, rto_s: self.rto.rto_s };
        self.wire.borrow_mut().send_data(seq, header);
        let rtt_hint = time::from_secs(self.rtt.smoothed_s);
        ctx.send(Outgoing { seq, retransmission: false, ect: false, ece: false, cwr: false, rtt_hint });
    }

    /// ns-2 `nextpkt()`: a packet now, and the send timer re-armed one interval later.
    fn send_and_schedule(&mut self, ctx: &mut AgentCtx) {
        if !self.running {
            return;
        }
        self.send_packet(ctx);
        let ramp = if self.params.slow_increase { self.rate.next_ramp_rate() } else { None };
        let pacing_rate = match ramp {
            Some(rate) => rate,
            None if self.params.sqrt_rtt_pacing => self.rate.rate() * self.rtt.smoothed_sqrt / self.rtt.latest_s.sqrt(),
            None => self.rate.rate(),
        };
        if pacing_rate <= NS2_SMALL_FLOAT {
            return;
        }
        let mut interval_s = self.segment() / pacing_rate;
        if self.params.overhead > 0.0 {
            let spread = self.params.overhead;
            interval_s *= 2.0 * spread * self.random.uniform() - spread + 1.0;
        }
        self.arm_send_timer(ctx, interval_s.max(NS2_SMALL_FLOAT));
    }

    fn arm_send_timer(&mut self, ctx: &mut AgentCtx, after_s: f64) {
        self.send_generation = self.send_generation.wrapping_add(1);
        ctx.set_timer(ctx.now.saturating_add(time::from_secs(after_s)), SEND, self.send_generation);
    }

    fn arm_no_feedback_timer(&mut self, ctx: &mut AgentCtx, after_s: f64) {
        self.no_feedback_generation = self.no_feedback_generation.wrapping_add(1);
        ctx.set_timer(ctx.now.saturating_add(time::from_secs(after_s)), NO_FEEDBACK, self.no_feedback_generation);
    }

    /// A feedback report arrived (ns-2 `TfrcAgent::recv`).
    fn on_report(&mut self, ctx: &mut AgentCtx, packet: &Packet) {
        let Some(report) = self.wire.borrow_mut().receive_feedback(packet.seq) else {
            debug_assert!(false, "a feedback packet without its report");
            return;
        };
        self.reports_received += 1;
        let now_s = time::to_secs(ctx.now);
        let sample = now_s - (time::to_secs(packet.ts_echo) + report.echo_delay_s);
        self.record_rtt(sample);
        self.rtt.sample(sample);
        self.rto.sample(sample);
        let s = self.segment();
        let inputs = EquationInputs {
            segment_size_bytes: s,
            rtt_s: self.rtt.smoothed_s,
            t_rto_s: self.rto.rto_s,
            loss_event_rate: report.loss_event_rate,
            packets_per_ack: self.params.packets_per_ack,
        };
        let equation_rate = equation::throughput_bytes_per_s(&inputs, &EquationRules::NS2);
        // ns-2 re-arms the timer with the rate from before this report.
        let timeout_s = (2.0 * self.rtt.smoothed_s).max(2.0 * s / self.rate.rate());
        if self.running {
            self.arm_no_feedback_timer(ctx, timeout_s);
        }
        let before = self.rate.phase();
        self.rate.on_feedback(&Feedback {
            now_s,
            rtt_s: self.rtt.smoothed_s,
            receive_rate_bytes_per_s: report.receive_rate_packets_per_s * s,
            loss_event_rate: report.loss_event_rate,
            equation_rate_bytes_per_s: equation_rate,
        });
        self.urgent = false;
        let still_in_slow_start = before != Phase::Equation && self.rate.phase() == Phase::SlowStart;
        if still_in_slow_start {
            self.send_and_schedule(ctx);
        }
    }

    fn record_rtt(&mut self, sample: f64) {
        let r = &mut self.rtt_stats;
        if r.samples == 0 {
            r.min = sample;
            r.max = sample;
        }
        r.samples += 1;
        r.sum += sample;
        r.min = r.min.min(sample);
        r.max = r.max.max(sample);
    }
}

impl Agent for TfrcSource {
    fn start(&mut self, ctx: &mut AgentCtx) {
        if self.running {
            return;
        }
        self.running = true;
        let first_interval_s = self.segment() / self.rate.rate();
        self.send_packet(ctx);
        self.arm_send_timer(ctx, first_interval_s);
        self.arm_no_feedback_timer(ctx, 2.0 * first_interval_s);
    }

    fn stop(&mut self, _ctx: &mut AgentCtx) {
        self.running = false;
    }

    fn on_packet(&mut self, ctx: &mut AgentCtx, packet: &Packet, _sack: &SackBlocks) {
        debug_assert_eq!(packet.kind, PacketKind::Ack);
        self.on_report(ctx, packet);
    }

    fn on_timer(&mut self, ctx: &mut AgentCtx, timer: u32, generation: u32) {
        match timer {
            SEND if generation == self.send_generation => self.send_and_schedule(ctx),
            NO_FEEDBACK if generation == self.no_feedback_generation && self.running => {
                self.no_feedback_expiries += 1;
                self.rate.on_no_feedback();
                self.urgent = true;
                let timeout_s = self.rate.no_feedback_timeout_s();
                self.arm_no_feedback_timer(ctx, timeout_s);
                self.send_and_schedule(ctx);
            }
            _ => {}
        }
    }

    fn report(&self, c: &mut FlowCounters) {
        c.transport = "tfrc";
        c.packets_sent = self.packets_sent;
        c.timeouts = self.no_feedback_expiries;
        let r = &self.rtt_stats;
        if r.samples > 0 {
            c.rtt = Some(RttSummary { samples: r.samples, mean: r.sum / r.samples as f64, min: r.min, max: r.max });
        }
    }

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        let values = [self.rate.rate() * 8.0, self.rtt.smoothed_s, self.rate.loss_event_rate()];
        for (name, value) in SAMPLED.iter().zip(values) {
            push(name, value);
        }
    }

    fn measurement_starts(&mut self) {
        self.rtt_stats.min = f64::INFINITY;
        self.rtt_stats.max = f64::NEG_INFINITY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::tfrc::wire::{FeedbackHeader, Wire};
    use crate::agent::AgentOutputs;
    use crate::engine::time::PS_PER_MS;

    fn new_source() -> (TfrcSource, SharedWire) {
        let wire = Wire::shared();
        (TfrcSource::new(TfrcParams::default(), wire.clone(), RandomStream::new(1, "tfrc")), wire)
    }

    /// What one call asked for: data packets (sequence number, urgent flag) and timers
    /// (which, when in ms).
    #[derive(Debug, Default, PartialEq)]
    struct Asked {
        packets: Vec<(i64, bool)>,
        timers: Vec<(u32, f64)>,
    }

    fn asked(wire: &SharedWire, out: &AgentOutputs) -> Asked {
        let packets = out.segments.iter().map(|o| (o.seq, wire.borrow_mut().receive_data(o.seq).expect("header").urgent)).collect();
        let timers = out.timers.iter().map(|t| (t.timer, time::to_secs(t.at) * 1e3)).collect();
        Asked { packets, timers }
    }

    /// Report `report` (p, X_recv in packets/s) echoing a packet sent at `echo_ms`, held
    /// 0 ms, arriving at `at_ms`.
    fn report(source: &mut TfrcSource, wire: &SharedWire, report: i64, echo_ms: u64, at_ms: u64, p: f64, x_recv: f64) -> Asked {
        wire.borrow_mut().send_feedback(report, FeedbackHeader { echo_delay_s: 0.0, loss_event_rate: p, receive_rate_packets_per_s: x_recv });
        let mut packet = Packet::new(0, report, 40, PacketKind::Ack, 0, 0);
        packet.ts_echo = echo_ms * PS_PER_MS;
        let mut out = AgentOutputs::default();
        let mut ctx = AgentCtx::new(at_ms * PS_PER_MS, &mut out);
        source.on_packet(&mut ctx, &packet, &SackBlocks::EMPTY);
        asked(wire, &out)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.abs().max(1.0)
    }

    #[test]
    fn starts_at_the_initial_rate_then_jumps_to_four_packets_per_rtt_on_the_first_report() {
        let (mut source, wire) = new_source();
        let mut out = AgentOutputs::default();
        source.start(&mut AgentCtx::new(0, &mut out));
        // InitRate_ 300 B/s: packet 0 now (urgent), the next 1000/300 s later, the
        // no-feedback timer at twice that.
        let started = asked(&wire, &out);
        assert_eq!(started.packets, vec![(0, true)]);
        assert!(close(started.timers[0].1, 1e3 / 0.3) && close(started.timers[1].1, 2e3 / 0.3), "{started:?}");
        // The first report, 100 ms later: R = 100 ms, X = 4 packets per R = 40,000 B/s,
        // a packet at once (not urgent any more) and the next 25 ms later; the
        // no-feedback timer at max(2R, 2s/X) with the X from before the report
        // (2000/300 s), as ns-2 does.
        let first = report(&mut source, &wire, 0, 0, 100, 0.0, 1.0);
        assert_eq!(source.rate(), 40_000.0);
        assert_eq!(first.packets, vec![(1, false)]);
        assert_eq!(first.timers.len(), 2);
        let (no_feedback, send) = (first.timers[0], first.timers[1]);
        assert_eq!(no_feedback.0, NO_FEEDBACK);
        assert!(close(no_feedback.1, 100.0 + 2e3 / 0.3), "{no_feedback:?}");
        assert_eq!(send.0, SEND);
        assert!(close(send.1, 125.0), "{send:?}");
        // t_RTO: one 100 ms tick, srtt 8 and rttvar 2 in their fraction bits, RTO =
        // (8 + 4·2)/8 = 3 ticks.
        assert!(close(source.rto_s(), 0.3));
    }

    #[test]
    fn a_loss_report_in_slow_start_moves_to_the_equation_rate_without_an_extra_packet() {
        let (mut source, wire) = new_source();
        let mut out = AgentOutputs::default();
        source.start(&mut AgentCtx::new(0, &mut out));
        report(&mut source, &wire, 0, 0, 100, 0.0, 1.0);
        let loss = report(&mut source, &wire, 1, 100, 200, 0.01, 300.0);
        assert_eq!(source.phase(), Phase::Equation);
        assert!(loss.packets.is_empty(), "the scheduled packet keeps its time");
        // X = X_calc at p = 0.01, R = 100 ms (both samples 100 ms), t_RTO = 0.3 s.
        let inputs = EquationInputs { segment_size_bytes: 1000.0, rtt_s: 0.1, t_rto_s: 0.3, loss_event_rate: 0.01, packets_per_ack: 1.0 };
        assert!(close(source.rate(), equation::throughput_bytes_per_s(&inputs, &EquationRules::NS2)));
    }

    #[test]
    fn the_no_feedback_timer_halves_the_rate_sends_and_asks_for_an_urgent_report() {
        let (mut source, wire) = new_source();
        let mut out = AgentOutputs::default();
        source.start(&mut AgentCtx::new(0, &mut out));
        let first = report(&mut source, &wire, 0, 0, 100, 0.0, 1.0);
        let generation = source.no_feedback_generation;
        let mut out = AgentOutputs::default();
        source.on_timer(&mut AgentCtx::new(first.timers[0].1 as u64 * PS_PER_MS, &mut out), NO_FEEDBACK, generation);
        assert_eq!(source.rate(), 20_000.0);
        let expired = asked(&wire, &out);
        assert_eq!(expired.packets, vec![(2, true)]);
        // Re-armed at max(2R, 2s/X) = max(0.2, 0.1) s.
        let rearmed = expired.timers.iter().find(|t| t.0 == NO_FEEDBACK).expect("re-armed");
        assert!(close(rearmed.1 - first.timers[0].1.floor(), 200.0), "{expired:?}");
        // A stale expiry (an older generation) does nothing.
        let mut out = AgentOutputs::default();
        source.on_timer(&mut AgentCtx::new(0, &mut out), NO_FEEDBACK, generation);
        assert_eq!(source.rate(), 20_000.0);
        assert!(out.is_empty());
    }
}
