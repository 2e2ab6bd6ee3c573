//! The simulation: builds the network and agents of a scenario, runs the event loop and
//! hands the counters to the report.
//!
//! Single-threaded and deterministic: the same scenario and seed give the same results.

mod build;
mod dynamics;
mod endpoints;
mod links;
mod measure;
mod report;
mod sampling;
mod tracing;

pub use report::Finished;

/// Checks everything about a scenario that needs the assembled network (routes, queue
/// limits, serialization times) without building the simulation; returns the
/// routes (refused above `limits.max_memory` at 4 bytes a hop).
pub fn plan(scenario: &Scenario, limits: &crate::cost::Limits) -> Result<crate::net::routing::Routes, ScenarioError> {
    build::plan(scenario, limits)
}

use crate::agent::{Agent, AgentOutputs, FlowShape};
use crate::engine::time::{self, SimTime};
use crate::engine::{EventKind, PacketArena, PacketId, Scheduler};
use crate::monitor::trace::TraceOp;
use crate::monitor::TimeSeries;
use crate::net::LinkDirection;
use crate::queue::QueueAction;
use crate::results::RunResults;
use crate::scenario::{Scenario, ScenarioError};

/// Progress reports per run.
const PROGRESS_STEPS: u64 = 100;

pub(crate) struct Flow {
    pub data_route: u32,
    pub ack_route: u32,
    /// Packet kind and sizes on the wire.
    pub shape: FlowShape,
    /// Sender's and receiver's nodes (a queue may classify by the sending node).
    pub src_node: u32,
    pub dst_node: u32,
    /// The agent at `src_node` (gets the ACKs) and the one at `dst_node` (gets the data).
    pub source: Box<dyn Agent>,
    pub sink: Box<dyn Agent>,
    /// Data packets of this flow dropped in the network.
    pub drops: u64,
    /// Data bytes (on the wire) that reached the receiver, duplicates included.
    pub received_bytes: u64,
    /// Payload bytes delivered in order since the start (the time series report each
    /// interval's difference).
    pub delivered_bytes: u64,
}

pub struct Simulation<'s> {
    scenario: &'s Scenario,
    sched: Scheduler,
    packets: PacketArena,
    pub(crate) links: Vec<LinkDirection>,
    routes: crate::net::routing::RouteTable,
    /// Each route's id, filled when dynamic routing first adds routes (empty otherwise).
    route_ids: std::collections::HashMap<Vec<u32>, u32>,
    /// Per link direction whose delay went down during the run, the tie-order place
    /// taken then (packets sent before it were on the wire at the change).
    delay_lowered_at: std::collections::HashMap<u32, u64>,
    pub(crate) flows: Vec<Flow>,
    series: Option<TimeSeries>,
    /// Reused buffer for what queue disciplines ask for.
    queue_actions: Vec<QueueAction>,
    /// Reused buffers for what agents ask for.
    agent_outputs: AgentOutputs,
    /// Packet traces, when the scenario asks for any.
    tracer: Option<Box<tracing::Tracer>>,
    /// The counters at `measure_from`, once it has passed (None when it is 0).
    measurement_start: Option<Box<measure::MeasurementStart>>,
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
    pub fn run(self, progress: &mut dyn FnMut(f64)) -> Result<RunResults, ScenarioError> {
        Ok(self.run_to_end(progress)?.results())
    }

    /// Runs to the scenario's duration; the finished run gives the result tables whole or
    /// a range of rows at a time. Fails only if a trace file cannot be written.
    pub fn run_to_end(mut self, progress: &mut dyn FnMut(f64)) -> Result<Finished<'s>, ScenarioError> {
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
        for (i, e) in self.scenario.events.iter().enumerate() {
            self.sched.schedule(e.at, EventKind::LinkChange { event: i as u32 });
        }
        if self.series.is_some() {
            self.sched.schedule(0, EventKind::Sample);
        }
        self.sched.schedule(end / PROGRESS_STEPS, EventKind::Progress);
        if self.scenario.measure_from > 0 {
            self.sched.schedule(self.scenario.measure_from, EventKind::MeasureStart);
        }

        while let Some(ev) = self.sched.pop_until(end) {
            match ev.kind {
                EventKind::TransmitDone { link } => self.transmit_done(link),
                EventKind::Arrive { link, packet } => self.arrive(link, packet),
                EventKind::AgentTimer { agent, timer, generation } => self.agent_timer(agent, timer, generation),
                EventKind::FlowStart { flow } => self.flow_start(flow),
                EventKind::FlowStop { flow } => self.flow_stop(flow),
                EventKind::QueueTimer { link } => self.queue_timer(link),
                EventKind::Sample => self.sample(),
                EventKind::MeasureStart => self.measurement_starts(),
                EventKind::LinkChange { event } => self.link_change(event),
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
        Ok(Finished::new(self, wall_seconds, trace_files))
    }

    /// Records a trace event of packet `id` on link direction `link`, if tracing (hot
    /// paths check `self.tracer.is_some()` first).
    #[cold]
    #[inline(never)]
    pub(super) fn trace(&mut self, op: TraceOp, link: u32, id: PacketId) {
        if let Some(t) = &mut self.tracer {
            let now = self.sched.now();
            t.record(op, now, link as usize, &self.links[link as usize], self.packets.get(id), self.packets.sack(id).as_slice());
        }
    }

    pub(super) fn now(&self) -> SimTime {
        self.sched.now()
    }
}
