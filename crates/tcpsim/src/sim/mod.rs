//! The simulation: builds the network and agents of a scenario, runs the event loop and
//! hands the counters to the report.
//!
//! Single-threaded and deterministic: the same scenario and seed give the same results.

mod build;
mod report;
mod trace;

/// Checks everything about a scenario that needs the assembled network (routes, queue
/// limits, serialization times) without building the simulation.
pub fn plan(scenario: &Scenario) -> Result<(), ScenarioError> {
    build::plan(scenario).map(|_| ())
}

use crate::app::CbrSource;
use crate::engine::packet::{SACK_BLOCK_BYTES, TCP_CWR, TCP_ECE};
use crate::engine::time::{self, SimTime};
use crate::engine::{Ecn, EventKind, Packet, PacketArena, PacketId, PacketKind, Scheduler};
use crate::monitor::trace::TraceOp;
use crate::monitor::TimeSeries;
use crate::net::error::Transmission;
use crate::net::LinkDirection;
use crate::queue::{Arrival, DropReason, QueueAction, QueueCtx, Verdict};
use crate::results::RunResults;
use crate::scenario::{Scenario, ScenarioError};
use crate::tcp::agent::RttHint;
use crate::tcp::receiver::{AckAction, AckPolicy, DataArrival};
use crate::tcp::sender::Outgoing;
use crate::tcp::{AckInfo, TcpReceiver, TcpSender};

/// Progress reports per run.
const PROGRESS_STEPS: u64 = 100;

pub(crate) enum Endpoints {
    Tcp {
        sender: Box<TcpSender>,
        receiver: TcpReceiver,
        /// Generation of the live retransmission-timer event (older ones are stale).
        rtx_generation: u32,
        /// Time of the pending retransmission-timer event, if any.
        rtx_event_at: Option<SimTime>,
        delack_generation: u32,
        /// Time of the pending congestion-control timer event, if any.
        cc_timer_at: Option<SimTime>,
    },
    Cbr {
        source: CbrSource,
        packets_received: u64,
    },
}

pub(crate) struct Flow {
    pub data_route: u32,
    pub ack_route: u32,
    /// Data packet size on the wire, and payload, bytes.
    pub data_size: u32,
    pub payload: u32,
    pub ack_size: u32,
    /// TCP opens with a header-only SYN as packet 0.
    pub syn: bool,
    pub header_size: u32,
    /// Sender's and receiver's nodes (a queue may classify by the sending node).
    pub src_node: u32,
    pub dst_node: u32,
    pub endpoints: Endpoints,
    /// Data packets of this flow dropped in the network.
    pub drops: u64,
    /// Data bytes (on the wire) that reached the receiver, duplicates included.
    pub received_bytes: u64,
    /// Payload bytes delivered in order since the last sample.
    pub delivered_since_sample: u64,
}

pub struct Simulation<'s> {
    scenario: &'s Scenario,
    sched: Scheduler,
    packets: PacketArena,
    pub(crate) links: Vec<LinkDirection>,
    routes: Vec<Vec<u32>>,
    pub(crate) flows: Vec<Flow>,
    series: Option<TimeSeries>,
    /// Reused buffer for what queue disciplines ask for.
    queue_actions: Vec<QueueAction>,
    /// Packet traces, when the scenario asks for any.
    tracer: Option<Box<trace::Tracer>>,
}

impl<'s> Simulation<'s> {
    /// Builds every component of the scenario; fails if a destination is unreachable.
    pub fn new(scenario: &'s Scenario) -> Result<Self, ScenarioError> {
        build::build(scenario, None)
    }

    /// Builds the simulation; trace files go under `output_dir` (else the working
    /// directory).
    pub fn new_in(scenario: &'s Scenario, output_dir: Option<&std::path::Path>) -> Result<Self, ScenarioError> {
        build::build(scenario, output_dir)
    }

    /// Runs to the scenario's duration and reports; fails only if a trace file cannot be
    /// written.
    pub fn run(mut self, progress: &mut dyn FnMut(f64)) -> Result<RunResults, ScenarioError> {
        let wall = std::time::Instant::now();
        let end = self.scenario.duration;
        for (i, f) in self.scenario.flows.iter().enumerate() {
            if f.start <= end {
                self.sched.schedule(f.start, EventKind::FlowStart { flow: i as u32 });
            }
            if let Some(stop) = f.stop.filter(|&s| s <= end) {
                self.sched.schedule(stop, EventKind::FlowStop { flow: i as u32 });
            }
        }
        if self.series.is_some() {
            self.sched.schedule(0, EventKind::Sample);
        }
        self.sched.schedule(end / PROGRESS_STEPS, EventKind::Progress);

        while let Some(ev) = self.sched.pop_until(end) {
            match ev.kind {
                EventKind::TransmitDone { link } => self.transmit_done(link),
                EventKind::Arrive { link } => self.arrive(link),
                EventKind::RetransmitTimer { flow, generation } => self.retransmit_timer(flow, generation),
                EventKind::DelayedAckTimer { flow, generation } => self.delayed_ack_timer(flow, generation),
                EventKind::FlowStart { flow } => self.flow_start(flow),
                EventKind::FlowStop { flow } => self.flow_stop(flow),
                EventKind::CbrSend { flow } => self.cbr_send(flow),
                EventKind::CcTimer { flow } => self.cc_timer(flow),
                EventKind::QueueTimer { link } => self.queue_timer(link),
                EventKind::Sample => self.sample(),
                EventKind::Progress => {
                    let now = self.sched.now();
                    progress(time::to_secs(now) / time::to_secs(end).max(1e-30));
                    let next = now + end / PROGRESS_STEPS;
                    if end / PROGRESS_STEPS > 0 && next < end {
                        self.sched.schedule(next, EventKind::Progress);
                    }
                }
            }
        }
        self.sched.advance_to(end);
        for l in &mut self.links {
            l.account_length(end);
        }
        progress(1.0);
        let trace_files = match self.tracer.as_mut().map(|t| t.finish()).transpose() {
            Ok(files) => files.unwrap_or_default(),
            Err(message) => {
                return Err(ScenarioError { file: self.scenario.file.clone(), line: None, key: "trace".into(), message });
            }
        };
        let wall_seconds = wall.elapsed().as_secs_f64();
        let mut results = report::report(&self, wall_seconds);
        results.summary["trace_files"] = trace_files.iter().map(|p| p.display().to_string()).collect();
        Ok(results)
    }

    /// Records a trace event of packet `id` on link direction `link`, if tracing (hot
    /// paths check `self.tracer.is_some()` first).
    #[cold]
    #[inline(never)]
    fn trace(&mut self, op: TraceOp, link: u32, id: PacketId) {
        if let Some(t) = &mut self.tracer {
            let now = self.sched.now();
            t.record(op, now, link as usize, &self.links[link as usize], self.packets.get(id));
        }
    }

    fn now(&self) -> SimTime {
        self.sched.now()
    }

    // ---- links ----

    /// Offers packet `id` to link direction `link`: its error model, then its queue.
    fn send_on_link(&mut self, link: u32, id: PacketId) {
        let now = self.now();
        if let Some(e) = &mut self.links[link as usize].errors {
            let p = self.packets.get(id);
            if e.model.loses(&Transmission { at: now, size: p.size }, &mut e.random) {
                self.lose_on_link(link, id);
                return;
            }
        }
        let p = self.packets.get_mut(id);
        p.enqueued_at = now;
        let (flow, kind) = (p.flow, p.kind);
        let arrival = Arrival { id, size: p.size, ect: p.ecn.capable(), flow, kind, source: p.source, rtt_hint: p.rtt_hint };
        // Disjoint fields: the queue of a link and the shared action buffer.
        let l = &mut self.links[link as usize];
        if l.owes_empty_dequeue && now >= l.busy_until {
            // ns-2 asked the queue for a packet when the last transmission ended.
            l.owes_empty_dequeue = false;
            let nothing = l.queue.dequeue(&mut QueueCtx::new(l.busy_until, &mut self.queue_actions));
            debug_assert!(nothing.is_none());
        }
        l.account_length(now);
        l.stats.arrivals += 1;
        let verdict = l.queue.enqueue(&mut QueueCtx::new(now, &mut self.queue_actions), arrival);
        if self.tracer.is_some() {
            if verdict == Verdict::Marked {
                self.packets.get_mut(id).ecn = Ecn::Ce;
            }
            self.trace(TraceOp::Enqueue, link, id);
            if matches!(verdict, Verdict::Dropped(_)) {
                self.trace(TraceOp::Drop, link, id);
            }
        }
        let l = &mut self.links[link as usize];
        match verdict {
            Verdict::Queued => {}
            Verdict::Marked => {
                l.stats.marks += 1;
                self.packets.get_mut(id).ecn = Ecn::Ce;
            }
            Verdict::Dropped(reason) => {
                match reason {
                    DropReason::Early => l.stats.early_drops += 1,
                    DropReason::Overflow => l.stats.overflow_drops += 1,
                }
                if kind != PacketKind::Ack {
                    self.flows[flow as usize].drops += 1;
                }
                self.packets.free(id);
            }
        }
        if !self.queue_actions.is_empty() {
            self.apply_pending_queue_actions(link);
        }
        let l = &mut self.links[link as usize];
        l.stats.max_length = l.stats.max_length.max(l.queue.len_packets());
        if l.idle(now) {
            self.start_transmission(link);
        } else if !l.done_event_pending && l.queue.len_packets() > 0 {
            // A packet now waits for the transmitter: take it when the current one ends.
            l.owes_empty_dequeue = false;
            l.done_event_pending = true;
            self.sched.schedule_reserved(l.busy_until, l.done_seq, EventKind::TransmitDone { link });
        }
    }

    /// The link's error model lost packet `id` before it reached the queue (ns-2's
    /// `lossmodel` sits at the head of the link; its drops are traced as `d`).
    #[cold]
    fn lose_on_link(&mut self, link: u32, id: PacketId) {
        self.trace(TraceOp::Drop, link, id);
        self.links[link as usize].stats.error_drops += 1;
        let p = self.packets.get(id);
        if p.kind != PacketKind::Ack {
            self.flows[p.flow as usize].drops += 1;
        }
        self.packets.free(id);
    }

    /// Carries out the actions a queue left in the shared buffer (rare: only disciplines
    /// that mark or drop held packets, or run timers, leave any).
    #[cold]
    fn apply_pending_queue_actions(&mut self, link: u32) {
        let mut actions = std::mem::take(&mut self.queue_actions);
        self.apply_queue_actions(link, &mut actions);
        self.queue_actions = actions;
    }

    /// Carries out what a queue discipline asked for: marks and drops of packets it held,
    /// timers.
    fn apply_queue_actions(&mut self, link: u32, actions: &mut Vec<QueueAction>) {
        for action in actions.drain(..) {
            match action {
                QueueAction::Mark(id) => {
                    let p = self.packets.get_mut(id);
                    if p.ecn.capable() && p.ecn != Ecn::Ce {
                        p.ecn = Ecn::Ce;
                        self.links[link as usize].stats.marks += 1;
                    }
                }
                QueueAction::Drop(id, reason) => {
                    self.trace(TraceOp::Drop, link, id);
                    let l = &mut self.links[link as usize];
                    match reason {
                        DropReason::Early => l.stats.early_drops += 1,
                        DropReason::Overflow => l.stats.overflow_drops += 1,
                    }
                    let p = self.packets.get(id);
                    if p.kind != PacketKind::Ack {
                        self.flows[p.flow as usize].drops += 1;
                    }
                    self.packets.free(id);
                }
                QueueAction::Timer(at) => self.sched.schedule(at, EventKind::QueueTimer { link }),
            }
        }
    }

    fn queue_timer(&mut self, link: u32) {
        let now = self.now();
        let mut actions = std::mem::take(&mut self.queue_actions);
        let l = &mut self.links[link as usize];
        l.account_length(now);
        l.queue.on_timer(&mut QueueCtx::new(now, &mut actions));
        self.apply_queue_actions(link, &mut actions);
        self.queue_actions = actions;
    }

    /// Tells the queues on a flow's data path that it started or stopped.
    fn notify_queues(&mut self, flow: u32, started: bool) {
        let now = self.now();
        let route = self.flows[flow as usize].data_route as usize;
        let mut actions = std::mem::take(&mut self.queue_actions);
        for hop in 0..self.routes[route].len() {
            let link = self.routes[route][hop];
            let q = &mut self.links[link as usize].queue;
            let mut ctx = QueueCtx::new(now, &mut actions);
            if started {
                q.on_flow_start(&mut ctx, flow);
            } else {
                q.on_flow_stop(&mut ctx, flow);
            }
            self.apply_queue_actions(link, &mut actions);
        }
        self.queue_actions = actions;
    }

    /// The transmitter is free: take the next packet, as ns-2 does even if the queue is
    /// empty (RED starts its idle period then).
    fn start_transmission(&mut self, link: u32) {
        let now = self.now();
        let end = self.scenario.duration;
        let l = &mut self.links[link as usize];
        l.account_length(now);
        let next = l.queue.dequeue(&mut QueueCtx::new(now, &mut self.queue_actions));
        if !self.queue_actions.is_empty() {
            self.apply_pending_queue_actions(link);
        }
        let Some(id) = next else { return };
        let l = &mut self.links[link as usize];
        let p = self.packets.get(id);
        l.stats.departures += 1;
        l.stats.sojourn_sum += time::to_secs(now - p.enqueued_at);
        l.stats.bytes_sent += p.size as u64;
        let done = now.saturating_add(time::transmission_time(p.size as u64, l.rate_bps));
        l.stats.busy_time += done.min(end).saturating_sub(now);
        l.busy_until = done;
        // The packet reaches the far end after serialization and propagation. ns-2's
        // LinkDelay schedules that arrival, then the end of the transmission, when the
        // transmission starts; the places taken here give same-time events ns-2's order
        // even when the events themselves are scheduled later.
        let arrival = done.saturating_add(l.delay);
        let arrival_seq = self.sched.reserve();
        l.done_seq = self.sched.reserve();
        l.in_flight.push_back((arrival, arrival_seq, id));
        let first_in_flight = l.in_flight.len() == 1;
        if self.tracer.is_some() {
            self.trace(TraceOp::Dequeue, link, id);
        }
        let l = &mut self.links[link as usize];
        if first_in_flight {
            self.sched.schedule_reserved(arrival, arrival_seq, EventKind::Arrive { link });
        }
        if l.queue.len_packets() > 0 {
            l.done_event_pending = true;
            self.sched.schedule_reserved(done, l.done_seq, EventKind::TransmitDone { link });
        } else {
            l.owes_empty_dequeue = true;
        }
    }

    fn transmit_done(&mut self, link: u32) {
        self.links[link as usize].done_event_pending = false;
        self.start_transmission(link);
    }

    fn arrive(&mut self, link: u32) {
        let l = &mut self.links[link as usize];
        let (_, _, id) = l.in_flight.pop_front().expect("an arrival was pending");
        if let Some(&(next, seq, _)) = l.in_flight.front() {
            self.sched.schedule_reserved(next, seq, EventKind::Arrive { link });
        }
        if self.tracer.is_some() {
            self.trace(TraceOp::Receive, link, id);
        }
        self.forward(id);
    }

    /// Moves a packet to its next hop, or delivers it at the end of its route.
    fn forward(&mut self, id: PacketId) {
        let p = self.packets.get_mut(id);
        p.hop += 1;
        let route = &self.routes[p.route as usize];
        if (p.hop as usize) < route.len() {
            let next = route[p.hop as usize];
            self.send_on_link(next, id);
        } else {
            self.deliver(id);
            self.packets.free(id);
        }
    }

    /// Puts a new packet of `flow` on its route.
    fn inject(&mut self, packet: Packet) {
        let first = self.routes[packet.route as usize][0];
        let id = self.packets.alloc(packet);
        self.send_on_link(first, id);
    }

    fn inject_data(&mut self, flow: u32, out: Outgoing) {
        let now = self.now();
        let f = &self.flows[flow as usize];
        let size = if out.seq == 0 && f.syn { build::syn_size(f.header_size) } else { f.data_size };
        let mut p = Packet::new(flow, out.seq, size, PacketKind::Data, f.data_route, now);
        p.source = f.src_node;
        if out.ect {
            p.ecn = Ecn::Ect0;
        }
        if out.ece {
            p.tcp_flags |= TCP_ECE;
        }
        if out.cwr {
            p.tcp_flags |= TCP_CWR;
        }
        if let Endpoints::Tcp { sender, .. } = &f.endpoints {
            let s = &sender.state;
            let rtt = match s.params.rtt_hint {
                RttHint::None => None,
                RttHint::Last => s.rtt.last_sample(),
                RttHint::Smoothed => (s.rtt.srtt() > 0.0).then(|| s.rtt.srtt()),
                RttHint::Min => s.rtt_range.0.is_finite().then_some(s.rtt_range.0),
            };
            p.rtt_hint = rtt.map_or(0, time::from_secs);
        }
        self.inject(p);
    }

    fn inject_ack(&mut self, flow: u32, ack: &AckInfo) {
        let now = self.now();
        let f = &self.flows[flow as usize];
        let size = f.ack_size + SACK_BLOCK_BYTES * ack.sack.len() as u32;
        let mut p = Packet::new(flow, ack.ack, size, PacketKind::Ack, f.ack_route, now);
        p.source = f.dst_node;
        ack.write_to(&mut p);
        self.inject(p);
    }

    fn inject_datagram(&mut self, flow: u32, seq: i64) {
        let now = self.now();
        let f = &self.flows[flow as usize];
        let mut p = Packet::new(flow, seq, f.data_size, PacketKind::Datagram, f.data_route, now);
        p.source = f.src_node;
        self.inject(p);
    }

    // ---- endpoints ----

    /// Hands packet `id`, at the end of its route, to its flow's endpoint (the caller
    /// frees it afterwards).
    fn deliver(&mut self, id: PacketId) {
        let now = self.now();
        let p = self.packets.get(id);
        let f = &mut self.flows[p.flow as usize];
        let payload = f.payload as u64;
        match (&mut f.endpoints, p.kind) {
            (Endpoints::Tcp { receiver, delack_generation, .. }, PacketKind::Data) => {
                f.received_bytes += p.size as u64;
                let syn_pending = f.syn && receiver.ack_number() < 0;
                let arrival = DataArrival {
                    seq: p.seq,
                    sent_at: p.sent_at,
                    ect: p.ecn.capable(),
                    ce: p.ecn == Ecn::Ce,
                    cwr: p.tcp_flags & TCP_CWR != 0,
                    ece: p.tcp_flags & TCP_ECE != 0,
                };
                let (delivered, action) = receiver.on_data(arrival);
                // The SYN carries no payload.
                let data_packets = delivered - (syn_pending && delivered > 0) as u64;
                f.delivered_since_sample += data_packets * payload;
                *delack_generation += 1;
                let flow = p.flow;
                match action {
                    AckAction::SendNow(ack) => self.inject_ack(flow, &ack),
                    AckAction::StartTimer => {
                        let AckPolicy::Delayed { timeout } = receiver.params().policy else {
                            unreachable!("only a delayed-ACK receiver holds ACKs")
                        };
                        let at = now.saturating_add(timeout);
                        let generation = *delack_generation;
                        self.sched.schedule(at, EventKind::DelayedAckTimer { flow, generation });
                    }
                }
            }
            (Endpoints::Tcp { sender, .. }, PacketKind::Ack) => {
                let flow = p.flow;
                sender.on_ack(&AckInfo::read_from(p), now);
                self.flush(flow);
            }
            (Endpoints::Cbr { packets_received, .. }, _) => {
                *packets_received += 1;
                f.received_bytes += p.size as u64;
                f.delivered_since_sample += p.size as u64;
            }
            (Endpoints::Tcp { .. }, PacketKind::Datagram) => unreachable!("datagram on a TCP flow"),
        }
    }

    /// Sends what the TCP sender queued and keeps its timer event in step.
    fn flush(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, rtx_generation, rtx_event_at, cc_timer_at, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        let outbox = std::mem::take(&mut sender.state.outbox);
        if let Some(at) = sender.state.cc_timer {
            if *cc_timer_at != Some(at) {
                *cc_timer_at = Some(at);
                self.sched.schedule(at, EventKind::CcTimer { flow });
            }
        }
        // Lazy timer: keep one heap event; if it is due before the deadline it re-arms.
        if let Some(deadline) = sender.state.rtx_deadline {
            if rtx_event_at.map_or(true, |t| t > deadline) {
                *rtx_generation += 1;
                *rtx_event_at = Some(deadline);
                let generation = *rtx_generation;
                self.sched.schedule(deadline.max(now), EventKind::RetransmitTimer { flow, generation });
            }
        }
        for &out in &outbox {
            self.inject_data(flow, out);
        }
        if let Endpoints::Tcp { sender, .. } = &mut self.flows[flow as usize].endpoints {
            let mut outbox = outbox;
            outbox.clear();
            sender.state.outbox = outbox;
        }
    }

    fn retransmit_timer(&mut self, flow: u32, generation: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, rtx_generation, rtx_event_at, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        if generation != *rtx_generation {
            return;
        }
        *rtx_event_at = None;
        match sender.state.rtx_deadline {
            None => {}
            Some(deadline) if deadline > now => {
                *rtx_generation += 1;
                *rtx_event_at = Some(deadline);
                let generation = *rtx_generation;
                self.sched.schedule(deadline, EventKind::RetransmitTimer { flow, generation });
            }
            Some(_) => {
                sender.state.rtx_deadline = None;
                sender.on_timeout(now);
                self.flush(flow);
            }
        }
    }

    fn delayed_ack_timer(&mut self, flow: u32, generation: u32) {
        let Endpoints::Tcp { receiver, delack_generation, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        if generation != *delack_generation {
            return;
        }
        if let Some(ack) = receiver.on_timer() {
            self.inject_ack(flow, &ack);
        }
    }

    fn cc_timer(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, cc_timer_at, .. } = &mut self.flows[flow as usize].endpoints else { return };
        // Only the latest request counts; an earlier event for a moved timer is stale.
        if *cc_timer_at != Some(now) || sender.state.cc_timer != Some(now) {
            return;
        }
        *cc_timer_at = None;
        sender.on_cc_timer(now);
        self.flush(flow);
    }

    fn flow_start(&mut self, flow: u32) {
        self.notify_queues(flow, true);
        let now = self.now();
        match &mut self.flows[flow as usize].endpoints {
            Endpoints::Tcp { sender, .. } => {
                sender.start(now);
                self.flush(flow);
            }
            Endpoints::Cbr { source, .. } => {
                source.running = true;
                self.cbr_send(flow);
            }
        }
    }

    fn flow_stop(&mut self, flow: u32) {
        self.notify_queues(flow, false);
        match &mut self.flows[flow as usize].endpoints {
            Endpoints::Tcp { sender, .. } => sender.stop(),
            Endpoints::Cbr { source, .. } => source.running = false,
        }
    }

    fn cbr_send(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Cbr { source, .. } = &mut self.flows[flow as usize].endpoints else { return };
        if !source.running {
            return;
        }
        let seq = source.next_packet();
        let next = now.saturating_add(source.next_interval());
        self.sched.schedule(next, EventKind::CbrSend { flow });
        self.inject_datagram(flow, seq);
    }

    // ---- monitoring ----

    fn sample(&mut self) {
        let now = self.now();
        let Some(series) = self.series.as_mut() else { return };
        let t = time::to_secs(now);
        // Indexing (not iterating) lets `push` borrow the series inside the loop.
        for k in 0..series.flow_entities.len() {
            let (i, entity) = series.flow_entities[k];
            let f = &mut self.flows[i];
            if let Endpoints::Tcp { sender, .. } = &f.endpoints {
                let s = &sender.state;
                series.push(t, entity, "cwnd", s.window.cwnd);
                series.push(t, entity, "ssthresh", s.window.ssthresh);
                series.push(t, entity, "srtt_s", s.rtt.srtt());
            }
            series.push(t, entity, "delivered_bytes", f.delivered_since_sample as f64);
            f.delivered_since_sample = 0;
        }
        let interval_s = time::to_secs(series.interval);
        for k in 0..series.queue_entities.len() {
            let (i, entity) = series.queue_entities[k];
            let l = &self.links[i];
            series.push(t, entity, "queue_pkts", l.queue.len_packets() as f64);
            if let Some(avg) = l.queue.average() {
                series.push(t, entity, "red_avg_pkts", avg);
            }
            let now_counts = [l.stats.early_drops, l.stats.overflow_drops, l.stats.marks, l.stats.bytes_sent];
            let before = std::mem::replace(&mut series.queue_previous[k], now_counts);
            series.push(t, entity, "early_drops", (now_counts[0] - before[0]) as f64);
            series.push(t, entity, "overflow_drops", (now_counts[1] - before[1]) as f64);
            series.push(t, entity, "marks", (now_counts[2] - before[2]) as f64);
            let bits = (now_counts[3] - before[3]) as f64 * 8.0;
            let utilization = if now == 0 { 0.0 } else { bits / (l.rate_bps as f64 * interval_s) };
            series.push(t, entity, "utilization", utilization);
        }
        let next = now.saturating_add(series.interval);
        if next <= self.scenario.duration {
            self.sched.schedule(next, EventKind::Sample);
        }
    }
}
