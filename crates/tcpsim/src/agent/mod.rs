//! Agents: the traffic sources and sinks at the two ends of a flow, behind one interface.
//!
//! A flow has a *source* agent at its `from` node and a *sink* agent at its `to` node
//! (ns-2: an `Agent/TCP` connected to an `Agent/TCPSink`, an `Agent/UDP` with CBR
//! connected to an `Agent/Null`). Data and datagrams travel the flow's data route and are
//! handed to the sink; ACKs travel the reverse route and are handed to the source. The
//! simulation knows nothing about what an agent does: it calls [`Agent`] methods with an
//! [`AgentCtx`] and carries out what the agent asked for, in this order:
//!
//! 1. timers (`ctx.set_timer`), each an event addressed to the agent alone;
//! 2. segments for the data route (`ctx.segments`), in order;
//! 3. ACKs for the reverse route (`ctx.send_ack`).
//!
//! (That order is also the order in which ns-2's TCP agents schedule their timers and
//! hand packets to the link, so same-time events keep ns-2's order.)
//!
//! A timer carries two numbers the agent chooses, `timer` (which of its timers) and
//! `generation` (to recognise stale ones: cancelling is lazy, as in the scheduler); the
//! simulation only passes them back.
//!
//! A traffic source is a model like the others: its file declares a `SPEC` and a
//! [`SourceModel`], whose `configure` turns a flow's parameters (and the models the flow
//! selects, `relations.selects`) into a typed [`SourceConfig`] once, when the scenario
//! loads; that configuration says what the simulation needs to know before the run (the
//! shape of the flow's packets, what it may cost) and builds the flow's two agents. A new
//! source is its file here, one line in `crate::catalogue` and its docs page; the event
//! loop, the scenario reader and the builder do not change.

pub mod cbr;
pub mod tcp;
pub mod tfrc;

use crate::engine::{Packet, PacketKind, RandomStream, SackBlocks, SimTime};
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec, ParamError};
use crate::tcp::cc::CcModel;
use crate::tcp::receiver::ReceiverModel;
use crate::tcp::recovery::RecoveryModel;
use crate::engine::packet::Outgoing;
use crate::tcp::AckInfo;
use std::sync::Arc;

/// A traffic source as the catalogue lists it: its spec and how a flow of it is
/// configured.
pub struct SourceModel {
    pub spec: &'static ModelSpec,
    /// The typed configuration of a flow from its parameters and the models it selects
    /// (those of the families in `spec.relations.selects`, chosen or defaulted by the
    /// scenario reader); runs once, when the scenario loads.
    pub configure: fn(&ModelConfig, Selected) -> Result<Arc<dyn SourceConfig>, ParamError>,
}

impl FamilyModel for SourceModel {
    const FAMILY: Family = Family::Agent;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

/// The models a flow selects besides its source: one per family in the source's
/// `relations.selects`, the others `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selected {
    pub cc: Option<Chosen<CcModel>>,
    pub recovery: Option<Chosen<RecoveryModel>>,
    pub receiver: Option<Chosen<ReceiverModel>>,
}

/// A flow's source, configured: what the simulation asks of it before the run, and the
/// builder of its agents. Shared by the flows of one `[[flow]]` table with `count`.
pub trait SourceConfig: std::fmt::Debug + Send + Sync {
    /// The shape of the flow's packets.
    fn shape(&self) -> FlowShape;
    /// The largest packet the flow puts on the wire in either direction (an ACK with
    /// every SACK block it may carry, for instance), bytes.
    fn largest_packet(&self) -> u32;
    /// What the flow may cost, for the estimate made before the run (`crate::cost`).
    fn load(&self) -> Load;
    /// The flow's two agents; `random` is the flow's own stream.
    fn build(&self, random: RandomStream) -> FlowAgents;
    /// The variables the flow's agents add to a time-series sample besides
    /// `delivered_bytes` (`Agent::sample`; TCP: cwnd, ssthresh, srtt_s).
    fn sampled(&self) -> &'static [&'static str] {
        &[]
    }
}

/// How a source loads the network, for the cost estimate: the two ways the estimate
/// knows how to bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    /// Window-limited (TCP-like): at most `max_window` packets of `packet_size` bytes
    /// outstanding, `initial_window` of them sent at once when it starts; the sender
    /// keeps a record per outstanding packet.
    Window { packet_size: u32, max_window: f64, initial_window: f64, agent_bytes: u64 },
    /// Rate-limited (CBR-like): `rate_bps` of `packet_size`-byte packets whatever the
    /// network does.
    Rate { packet_size: u32, rate_bps: u64, agent_bytes: u64 },
}

/// A timer an agent asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimerRequest {
    pub at: SimTime,
    /// Which of the agent's timers (its own numbering).
    pub timer: u32,
    /// Passed back unchanged when the timer fires.
    pub generation: u32,
}

/// What the agents asked for during one call; owned by the simulation and reused, so
/// that no agent keeps buffers of its own.
#[derive(Debug, Default)]
pub struct AgentOutputs {
    pub segments: Vec<Outgoing>,
    pub acks: Vec<AckInfo>,
    pub timers: Vec<TimerRequest>,
}

impl AgentOutputs {
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty() && self.acks.is_empty() && self.timers.is_empty()
    }
}

/// The context of a call into an agent: the time, and where its requests go.
pub struct AgentCtx<'a> {
    pub now: SimTime,
    /// Segments to put on the flow's data route, in order. A TCP source lends this
    /// buffer to its sender as the outbox for the length of a call.
    pub segments: &'a mut Vec<Outgoing>,
    acks: &'a mut Vec<AckInfo>,
    timers: &'a mut Vec<TimerRequest>,
    /// Payload bytes handed to the application in order during this call (goodput).
    delivered_bytes: u64,
}

impl<'a> AgentCtx<'a> {
    pub fn new(now: SimTime, outputs: &'a mut AgentOutputs) -> Self {
        AgentCtx { now, segments: &mut outputs.segments, acks: &mut outputs.acks, timers: &mut outputs.timers, delivered_bytes: 0 }
    }

    /// Sends a segment (data or datagram) on the flow's data route.
    pub fn send(&mut self, segment: Outgoing) {
        self.segments.push(segment);
    }

    /// Sends an ACK back to the flow's source.
    pub fn send_ack(&mut self, ack: AckInfo) {
        self.acks.push(ack);
    }

    /// Asks for `on_timer(timer, generation)` at `at` (not before now).
    pub fn set_timer(&mut self, at: SimTime, timer: u32, generation: u32) {
        self.timers.push(TimerRequest { at: at.max(self.now), timer, generation });
    }

    /// Counts payload bytes delivered to the application in order.
    pub fn delivered(&mut self, bytes: u64) {
        self.delivered_bytes += bytes;
    }

    pub fn delivered_bytes(&self) -> u64 {
        self.delivered_bytes
    }
}

/// Round-trip-time statistics over a flow's samples, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RttSummary {
    pub samples: u64,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

/// A flow's row in the flows table; each of its two agents fills what it knows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FlowCounters {
    /// Transport, as the flows table names it ("tcp", "cbr").
    pub transport: &'static str,
    pub recovery: &'static str,
    pub cc: &'static str,
    pub packets_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub ecn_reductions: u64,
    pub rtt: Option<RttSummary>,
    /// Data packets that reached the sink, duplicates included.
    pub packets_received: u64,
    /// Distinct data packets delivered in order (the SYN left out).
    pub unique_packets: u64,
    /// The congestion window at the end, packets (window-based sources only).
    pub final_cwnd: Option<f64>,
    /// Values the flow's models record for measurement, by name, each with every value so
    /// far in the order recorded (a window control's
    /// [`CongestionControl::recorded`](crate::tcp::cc::CongestionControl::recorded)).
    pub recorded: Vec<(&'static str, Vec<f64>)>,
}

/// A traffic source or sink.
pub trait Agent {
    /// The application starts (sources: begin sending).
    fn start(&mut self, _ctx: &mut AgentCtx) {}
    /// The application stops sending.
    fn stop(&mut self, _ctx: &mut AgentCtx) {}
    /// A packet of this flow reached the agent (with its SACK blocks, if any).
    fn on_packet(&mut self, ctx: &mut AgentCtx, packet: &Packet, sack: &SackBlocks);
    /// A timer asked for with `ctx.set_timer` fired.
    fn on_timer(&mut self, _ctx: &mut AgentCtx, _timer: u32, _generation: u32) {}
    /// Adds this agent's counters to its flow's row.
    fn report(&self, counters: &mut FlowCounters);
    /// Adds this agent's variables to a time-series sample (`push(name, value)`).
    fn sample(&self, _push: &mut dyn FnMut(&'static str, f64)) {}
    /// The measurement window opens (`measure_from`): restart the statistics that cannot
    /// be taken as a difference of two reports (minima and maxima). Counters need
    /// nothing: the simulation subtracts the report it takes now from the final one.
    fn measurement_starts(&mut self) {}
}

/// What the simulation needs to know of a flow's packets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowShape {
    /// Packet kind on the data route (TCP data or UDP datagram).
    pub data_kind: PacketKind,
    /// Data packet size on the wire, and its payload, bytes.
    pub data_size: u32,
    pub payload: u32,
    /// ACK size on the wire without SACK blocks, bytes (0: no ACKs).
    pub ack_size: u32,
    /// Header bytes.
    pub header_size: u32,
    /// Packet 0 is a SYN.
    pub syn: bool,
    /// The SYN's size on the wire, bytes.
    pub syn_size: u32,
}

impl FlowShape {
    /// The smallest packet of the flow on the wire, bytes.
    pub fn smallest_packet(&self) -> u32 {
        let mut smallest = self.data_size;
        if self.syn {
            smallest = smallest.min(self.syn_size);
        }
        if self.ack_size > 0 {
            smallest = smallest.min(self.ack_size);
        }
        smallest
    }
}

/// A flow's two agents and the shape of its packets.
pub struct FlowAgents {
    pub source: Box<dyn Agent>,
    pub sink: Box<dyn Agent>,
    pub shape: FlowShape,
}

