//! The TFRC receiver as an agent: ns-2.35's `Agent/TFRCSink` (tcp/tfrc-sink.cc) with
//! its default settings (`algo_ 1`, the weighted average of loss intervals; `numPkts_ 1`;
//! `NumFeedback_ 1`).
//!
//! - **Losses.** A gap in the sequence numbers is a loss as soon as the next packet
//!   arrives (ns-2 `numPkts_ 1`; the RFC waits for three later packets, §5.1). Each lost
//!   packet's send time is interpolated between the packets around the gap, and it
//!   starts a new loss event when that time is more than R after the start of the last
//!   event and (`precise_loss`, ns-2 `PreciseLoss_`) the sender's round has moved on
//!   ([`LossEvents`]).
//! - **Loss intervals.** Every sequence number counts, received or lost; they are
//!   folded into [`LossIntervals`] when a report is built, as ns-2 does (`est_loss`).
//!   At the first loss the history is seeded (`seed_history`, ns-2
//!   `AdjustHistoryAfterSS_`): the losses seen so far no longer start events, the last
//!   event starts at this packet, and a closed interval of ⌊1/p⌋ packets is made up, p
//!   being the loss event rate at which the equation gives the rate received
//!   (§6.3.1; ns-2 `adjust_history`, `b_to_p` with b = 1); that report carries this p.
//!   The packets since the last report stay in the open interval, as in ns-2.
//! - **Reports.** A report goes back at once when a packet asks for one (the sender's
//!   urgent flag), at the first loss, on a new loss event, or on a new packet at least
//!   R/`feedback_per_rtt` after the last report; each report re-arms a timer 1.5·R later
//!   that sends one if data arrived since the last (ns-2 `nack_timer_`). R is the
//!   sender's, from the latest data packet. A report carries p, X_recv (below), the
//!   send time of the latest data packet and how long it was held.
//! - **X_recv** (ns-2 `est_thput`, packets per second): if the last report is at least R
//!   old, the packets received since it over the time since it; otherwise the packets
//!   received within R of the latest arrival, over R; 1 when there is nothing to count
//!   or no R yet.
//!
//! Not modelled: ECN marks (ns-2 `ecn_` is off by default), reordering (ns-2 ignores
//! out-of-order packets with `numPkts_ 1`; routes here are static and keep order).

use super::equation::{self, EquationInputs, EquationRules, NS2_INVERSE_TOLERANCE};
use super::loss_history::{interpolated_send_time, LossEvents, LossIntervals};
use super::wire::{FeedbackHeader, SharedWire};
use super::params::TfrcParams;
use super::ties::{at_least, longer};
use crate::agent::{Agent, AgentCtx, FlowCounters};
use crate::engine::time;
use crate::engine::{Packet, SackBlocks, SimTime};
use crate::tcp::AckInfo;
use std::collections::VecDeque;

/// ns-2's `SMALLFLOAT` (tcp/tfrc.h): below this R counts as none.
const NS2_SMALL_FLOAT: f64 = 1e-7;

/// ns-2 re-arms the report timer 1.5·R/`NumFeedback_` after each report (tfrc-sink.cc
/// `nextpkt`, where a comment asks why 1.5 and not 1).
const REPORT_TIMER_RTTS: f64 = 1.5;

/// How many R of arrivals the sink keeps for X_recv: the count looks back one R, and R
/// (filtered at the sender) would have to grow this much between two reports for the
/// count to miss a packet ns-2 would see.
const ARRIVALS_KEPT_RTTS: f64 = 4.0;

const REPORT: u32 = 0;

/// The TFRC sink agent.
pub struct TfrcSink {
    params: TfrcParams,
    wire: SharedWire,
    events: LossEvents,
    intervals: LossIntervals,
    /// The highest sequence number received (ns-2 `maxseq`), −1 before any, and its send
    /// time, seconds.
    highest_seq: i64,
    highest_send_s: f64,
    /// Sequence numbers not yet folded into the loss intervals, oldest first: whether
    /// each starts a loss event (ns-2 `lossvec_` from `last_sample` to `maxseq`).
    unfolded: VecDeque<bool>,
    loss_seen: bool,
    /// From the latest data packet: the sender's round, R and t_RTO (seconds), its send
    /// time, and when it arrived (seconds).
    round: u64,
    rtt_s: f64,
    rto_s: f64,
    last_send_time: SimTime,
    last_arrival_s: f64,
    /// Received data packets since the last report, and (sequence number, arrival time)
    /// of the recent ones.
    received_since_report: u64,
    recent_arrivals: VecDeque<(i64, f64)>,
    last_report_s: f64,
    reports_sent: i64,
    report_generation: u32,
    packets_received: u64,
}

impl TfrcSink {
    pub fn new(params: TfrcParams, wire: SharedWire) -> Self {
        TfrcSink {
            events: LossEvents::new(params.precise_loss),
            intervals: LossIntervals::new(params.loss_history_rules()),
            params,
            wire,
            highest_seq: -1,
            highest_send_s: 0.0,
            unfolded: VecDeque::new(),
            loss_seen: false,
            round: 0,
            rtt_s: 0.0,
            rto_s: 0.0,
            last_send_time: 0,
            last_arrival_s: 0.0,
            received_since_report: 0,
            recent_arrivals: VecDeque::new(),
            last_report_s: 0.0,
            reports_sent: 0,
            report_generation: 0,
            packets_received: 0,
        }
    }

    pub fn reports_sent(&self) -> i64 {
        self.reports_sent
    }

    /// A data packet: losses, loss events, and a report if one is due.
    fn on_data(&mut self, ctx: &mut AgentCtx, packet: &Packet) {
        let Some(header) = self.wire.borrow_mut().receive_data(packet.seq) else {
            debug_assert!(false, "a data packet without its header");
            return;
        };
        let now_s = time::to_secs(ctx.now);
        self.packets_received += 1;
        self.received_since_report += 1;
        ctx.delivered(u64::from(self.params.packet_size));
        let seq = packet.seq;
        if seq <= self.highest_seq {
            return;
        }
        let send_s = time::to_secs(packet.sent_at);
        if self.highest_seq < 0 {
            // Packets before the first to arrive count in the first interval, unlost
            // (ns-2 starts its count at 0 and checks for losses only after this one).
            self.unfolded.extend(std::iter::repeat(false).take(seq as usize));
            self.highest_seq = seq - 1;
            self.highest_send_s = send_s;
        }
        self.round = header.round;
        self.rtt_s = header.rtt_s;
        self.rto_s = header.rto_s;
        self.last_send_time = packet.sent_at;
        self.last_arrival_s = now_s;
        let before_gap = (self.highest_seq, self.highest_send_s);
        let mut new_event = false;
        for lost in self.highest_seq + 1..seq {
            let lost_send_s = interpolated_send_time(before_gap, (seq, send_s), lost);
            let starts = self.events.starts_new_event(lost_send_s, self.round as i64, self.rtt_s);
            self.unfolded.push_back(starts);
            new_event |= starts;
        }
        self.unfolded.push_back(false);
        let gap = seq - self.highest_seq > 1;
        self.highest_seq = seq;
        self.highest_send_s = send_s;
        self.recent_arrivals.push_back((seq, now_s));

        let mut urgent = header.urgent;
        let mut seeded_rate = None;
        if gap && !self.loss_seen {
            urgent = true;
            self.loss_seen = true;
            if self.params.seed_history {
                seeded_rate = Some(self.seed_history(now_s, send_s));
            }
        }
        if self.rtt_s > NS2_SMALL_FLOAT && at_least(now_s - self.last_report_s, self.rtt_s / self.params.feedback_per_rtt) {
            urgent = true;
        }
        if urgent || new_event {
            self.report_and_rearm(ctx, seeded_rate);
        }
    }

    /// ns-2 `adjust_history`: at the first loss, forget the losses so far and make up the
    /// interval before them from the rate received; the p it gives.
    fn seed_history(&mut self, now_s: f64, send_s: f64) -> f64 {
        for starts in self.unfolded.iter_mut() {
            *starts = false;
        }
        self.events.restart_at(send_s, self.round as i64);
        let s = f64::from(self.params.packet_size);
        let inputs = EquationInputs { segment_size_bytes: s, rtt_s: self.rtt_s, t_rto_s: self.rto_s, loss_event_rate: 0.0, packets_per_ack: 1.0 };
        let received_rate = self.receive_rate(now_s) * s;
        let p = equation::loss_event_rate_for_rate(received_rate, &inputs, &EquationRules::NS2, NS2_INVERSE_TOLERANCE);
        // ns-2 stores the made-up interval as a whole number of packets.
        self.intervals.start_first_loss_event_seeded((1.0 / p).trunc());
        p
    }

    /// ns-2 `nextpkt`: a report now, and the report timer re-armed.
    fn report_and_rearm(&mut self, ctx: &mut AgentCtx, loss_event_rate: Option<f64>) {
        self.send_report(ctx, loss_event_rate);
        if self.rtt_s > 0.0 && self.params.feedback_per_rtt > 0.0 {
            self.report_generation = self.report_generation.wrapping_add(1);
            let after = time::from_secs(REPORT_TIMER_RTTS * self.rtt_s / self.params.feedback_per_rtt);
            ctx.set_timer(ctx.now.saturating_add(after), REPORT, self.report_generation);
        }
    }

    /// ns-2 `sendpkt`: a report, if data arrived since the last one.
    fn send_report(&mut self, ctx: &mut AgentCtx, loss_event_rate: Option<f64>) {
        let now_s = time::to_secs(ctx.now);
        if self.last_arrival_s < self.last_report_s {
            return;
        }
        let p = loss_event_rate.unwrap_or_else(|| self.fold_and_estimate_loss());
        let receive_rate = self.receive_rate(now_s);
        let report = self.reports_sent;
        let header = FeedbackHeader { echo_delay_s: now_s - self.last_arrival_s, loss_event_rate: p, receive_rate_packets_per_s: receive_rate };
        self.wire.borrow_mut().send_feedback(report, header);
        ctx.send_ack(AckInfo { ack: report, sack: SackBlocks::EMPTY, ece: false, echo_seq: Some(self.highest_seq), ts_echo: self.last_send_time });
        self.reports_sent += 1;
        self.last_report_s = now_s;
        self.received_since_report = 0;
        self.forget_old_arrivals();
    }

    /// ns-2 `est_loss_WALI`: the sequence numbers since the last count go into the loss
    /// intervals, then p.
    fn fold_and_estimate_loss(&mut self) -> f64 {
        for starts in self.unfolded.drain(..) {
            if starts {
                self.intervals.start_loss_event();
            } else {
                self.intervals.count_packet();
            }
        }
        self.intervals.loss_event_rate()
    }

    /// X_recv, packets per second (ns-2 `est_thput`).
    fn receive_rate(&self, now_s: f64) -> f64 {
        let rtt = self.rtt_s;
        if rtt <= 0.0 {
            return 1.0;
        }
        let since_report = now_s - self.last_report_s;
        if at_least(since_report, rtt) {
            return if self.received_since_report > 0 { self.received_since_report as f64 / since_report } else { 1.0 };
        }
        // Packets that arrived within R of the latest arrival (ns-2 never counts packet 0).
        let latest = self.last_arrival_s;
        let within = self.recent_arrivals.iter().rev().take_while(|&&(_, arrived)| longer(arrived + rtt, latest)).filter(|&&(seq, _)| seq > 0).count();
        if within > 0 {
            within as f64 / rtt
        } else {
            1.0
        }
    }

    fn forget_old_arrivals(&mut self) {
        let horizon = self.last_arrival_s - ARRIVALS_KEPT_RTTS * self.rtt_s;
        while self.recent_arrivals.front().is_some_and(|&(_, arrived)| arrived < horizon) {
            self.recent_arrivals.pop_front();
        }
    }
}

impl Agent for TfrcSink {
    fn on_packet(&mut self, ctx: &mut AgentCtx, packet: &Packet, _sack: &SackBlocks) {
        self.on_data(ctx, packet);
    }

    fn on_timer(&mut self, ctx: &mut AgentCtx, timer: u32, generation: u32) {
        if timer == REPORT && generation == self.report_generation {
            self.report_and_rearm(ctx, None);
        }
    }

    fn report(&self, c: &mut FlowCounters) {
        c.packets_received = self.packets_received;
        c.unique_packets = self.packets_received;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentOutputs;
    use crate::engine::time::PS_PER_MS;
    use crate::engine::PacketKind;
    use crate::agent::tfrc::wire::{DataHeader, Wire};

    const RTT_MS: u64 = 100;

    fn new_sink() -> (TfrcSink, SharedWire) {
        let wire = Wire::shared();
        (TfrcSink::new(TfrcParams::default(), wire.clone()), wire)
    }

    /// What one call asked for: the reports (p, X_recv in packets/s) and the timers
    /// (ms).
    #[derive(Debug, Default)]
    struct Asked {
        reports: Vec<(f64, f64)>,
        timers_ms: Vec<f64>,
    }

    fn asked(wire: &SharedWire, out: &AgentOutputs) -> Asked {
        let reports = out
            .acks
            .iter()
            .map(|ack| {
                let h = wire.borrow_mut().receive_feedback(ack.ack).expect("a report travels with its header");
                (h.loss_event_rate, h.receive_rate_packets_per_s)
            })
            .collect();
        let timers_ms = out.timers.iter().map(|t| time::to_secs(t.at) * 1e3).collect();
        Asked { reports, timers_ms }
    }

    /// Data packet `seq` sent at `sent_ms` in sender round `round` (R = 100 ms in its
    /// header), arriving at `at_ms`.
    fn deliver(sink: &mut TfrcSink, wire: &SharedWire, seq: i64, sent_ms: u64, at_ms: u64, round: u64, urgent: bool) -> Asked {
        wire.borrow_mut().send_data(seq, DataHeader { round, urgent, rtt_s: RTT_MS as f64 / 1e3, rto_s: 0.4 });
        let mut out = AgentOutputs::default();
        let mut ctx = AgentCtx::new(at_ms * PS_PER_MS, &mut out);
        let packet = Packet::new(0, seq, 1032, PacketKind::Datagram, 0, sent_ms * PS_PER_MS);
        sink.on_packet(&mut ctx, &packet, &SackBlocks::EMPTY);
        asked(wire, &out)
    }

    fn fire_report_timer(sink: &mut TfrcSink, wire: &SharedWire, at_ms: u64) -> Asked {
        let mut out = AgentOutputs::default();
        let mut ctx = AgentCtx::new(at_ms * PS_PER_MS, &mut out);
        sink.on_timer(&mut ctx, REPORT, sink.report_generation);
        asked(wire, &out)
    }

    #[test]
    fn reports_once_per_rtt_on_arrivals_and_on_the_timer_when_data_came() {
        let (mut sink, wire) = new_sink();
        // Packet 0 asks for a report (urgent): X_recv before a full R is the packets
        // within R of the latest arrival over R; packet 0 is never counted (ns-2), so 1.
        let first = deliver(&mut sink, &wire, 0, 0, 50, 1, true);
        assert_eq!(first.reports, vec![(0.0, 1.0)]);
        assert_eq!(first.timers_ms, vec![200.0], "1.5 R after the report");
        // One packet every 10 ms: no report until one arrives R after the last report.
        for seq in 1..10 {
            let a = deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 1, false);
            assert!(a.reports.is_empty(), "packet {seq}");
        }
        // Packet 10 at 150 ms, exactly R later: a report; X_recv = 10 packets in 100 ms.
        let on_time = deliver(&mut sink, &wire, 10, 100, 150, 1, false);
        assert_eq!(on_time.reports.len(), 1);
        let (p, x_recv) = on_time.reports[0];
        assert!(p == 0.0 && (x_recv - 100.0).abs() < 1e-9, "{:?}", on_time.reports);
        assert_eq!(on_time.timers_ms, vec![300.0]);
        // The timer 1.5 R later sends a report if data came since the last one ...
        deliver(&mut sink, &wire, 11, 110, 160, 1, false);
        let timer = fire_report_timer(&mut sink, &wire, 300);
        assert_eq!(timer.reports.len(), 1);
        assert_eq!(timer.timers_ms, vec![450.0]);
        // ... and none when nothing came, though it re-arms.
        let idle = fire_report_timer(&mut sink, &wire, 450);
        assert!(idle.reports.is_empty());
        assert_eq!(idle.timers_ms, vec![600.0]);
    }

    #[test]
    fn the_first_loss_reports_at_once_with_a_seeded_loss_event_rate() {
        let (mut sink, wire) = new_sink();
        for seq in 0..20 {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 2, seq == 0);
        }
        // Packet 20 is lost; packet 21 reveals it: a report whose p is the one at which
        // the equation gives the rate received (about 95 packets/s of 1000 B at
        // R = 100 ms, t_RTO = 0.4 s).
        let a = deliver(&mut sink, &wire, 21, 210, 255, 2, false);
        assert_eq!(a.reports.len(), 1);
        let (p, x_recv) = a.reports[0];
        let inputs = EquationInputs { segment_size_bytes: 1000.0, rtt_s: 0.1, t_rto_s: 0.4, loss_event_rate: p, packets_per_ack: 1.0 };
        let rate = equation::throughput_bytes_per_s(&inputs, &EquationRules::NS2);
        assert!((rate / (x_recv * 1000.0) - 1.0).abs() < NS2_INVERSE_TOLERANCE, "p {p} gives {rate} B/s for X_recv {x_recv} packets/s");
        assert!(p > 0.0 && p < 0.1, "{p}");
        // The seeded interval, ⌊1/p⌋ packets, is the whole history: the next report's
        // p averages it with the open interval only when that raises the average.
        let seeded = (1.0 / p).trunc();
        assert_eq!(sink.intervals.closed_intervals().collect::<Vec<_>>(), vec![seeded]);
    }

    #[test]
    fn a_loss_more_than_an_rtt_after_the_last_event_reports_at_once_and_one_within_does_not() {
        let (mut sink, wire) = new_sink();
        for seq in 0..20 {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 2, seq == 0);
        }
        deliver(&mut sink, &wire, 21, 210, 260, 2, false); // first loss (20): seeded, reported
        // Packet 24 lost, sent at 240 ms: within R of the event's start (packet 21's send
        // time, 210 ms): same loss event, no report.
        for seq in [22, 23] {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 3, false);
        }
        let within = deliver(&mut sink, &wire, 25, 250, 300, 3, false);
        assert!(within.reports.is_empty());
        // Packet 38 lost, sent at 380 ms, in a newer round: a new loss event, reported
        // at once although the last report (at 360 ms) is less than R old.
        for seq in 26..38 {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 4, false);
        }
        assert_eq!(sink.last_report_s, 0.36);
        let new_event = deliver(&mut sink, &wire, 39, 390, 440, 4, false);
        assert_eq!(new_event.reports.len(), 1);
        // With precise_loss, the same loss in the round of the last event is no event.
        let (mut sink, wire) = new_sink();
        for seq in 0..20 {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 2, seq == 0);
        }
        deliver(&mut sink, &wire, 21, 210, 260, 2, false);
        for seq in 22..38 {
            deliver(&mut sink, &wire, seq, 10 * seq as u64, 50 + 10 * seq as u64, 2, false);
        }
        let same_round = deliver(&mut sink, &wire, 39, 390, 440, 2, false);
        assert!(same_round.reports.is_empty());
    }
}
