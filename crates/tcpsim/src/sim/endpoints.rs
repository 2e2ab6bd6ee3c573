//! The flows' endpoints: calls into the agents (packets, timers, application start and
//! stop) and carrying out what they ask for (see `agent/mod.rs` for the order).

use crate::agent::{Agent, AgentCtx};
use crate::engine::{EventKind, PacketId, PacketKind};
use super::Simulation;

/// Agent numbers: a flow's source is agent `2·flow`, its sink `2·flow + 1`.
const SOURCE: u32 = 0;
const SINK: u32 = 1;

/// What the agent is called for.
enum Call {
    Start,
    Stop,
    Packet(PacketId),
    Timer { timer: u32, generation: u32 },
}

impl Simulation<'_> {

    /// Hands packet `id`, at the end of its route, to its flow's agent at that end: data
    /// and datagrams to the sink, ACKs to the source (the caller frees the packet).
    pub(super) fn deliver(&mut self, id: PacketId) {
        let p = self.packets.get(id);
        let flow = p.flow;
        if p.kind == PacketKind::Ack {
            self.call(2 * flow + SOURCE, Call::Packet(id));
        } else {
            self.flows[flow as usize].received_bytes += p.size as u64;
            self.call(2 * flow + SINK, Call::Packet(id));
        }
    }

    pub(super) fn agent_timer(&mut self, agent: u32, timer: u32, generation: u32) {
        self.call(agent, Call::Timer { timer, generation });
    }

    pub(super) fn flow_start(&mut self, flow: u32) {
        self.notify_queues(flow, true);
        self.call(2 * flow + SOURCE, Call::Start);
    }

    pub(super) fn flow_stop(&mut self, flow: u32) {
        self.notify_queues(flow, false);
        self.call(2 * flow + SOURCE, Call::Stop);
    }

    /// Calls an agent, then schedules its timers and sends its segments and ACKs.
    fn call(&mut self, agent: u32, call: Call) {
        let now = self.now();
        let flow = agent / 2;
        let f = &mut self.flows[flow as usize];
        let a: &mut dyn Agent = if agent % 2 == SOURCE { &mut *f.source } else { &mut *f.sink };
        let mut ctx = AgentCtx::new(now, &mut self.agent_outputs);
        match call {
            Call::Start => a.start(&mut ctx),
            Call::Stop => a.stop(&mut ctx),
            Call::Packet(id) => a.on_packet(&mut ctx, self.packets.get(id), self.packets.sack(id)),
            Call::Timer { timer, generation } => a.on_timer(&mut ctx, timer, generation),
        }
        f.delivered_bytes += ctx.delivered_bytes();
        // Most calls ask for no timer: skip making and dropping the drain.
        if !self.agent_outputs.timers.is_empty() {
            for t in self.agent_outputs.timers.drain(..) {
                self.sched.schedule(t.at, EventKind::AgentTimer { agent, timer: t.timer, generation: t.generation });
            }
        }
        // Indexing, not iterating: sending needs the whole simulation (no agent is called
        // meanwhile, so the buffers do not change).
        for i in 0..self.agent_outputs.segments.len() {
            let segment = self.agent_outputs.segments[i];
            self.inject_data(flow, segment);
        }
        self.agent_outputs.segments.clear();
        for i in 0..self.agent_outputs.acks.len() {
            let ack = self.agent_outputs.acks[i];
            self.inject_ack(flow, &ack);
        }
        self.agent_outputs.acks.clear();
    }
}
