//! Constant bit rate over UDP as agents: the source (ns-2 `Agent/UDP` driven by
//! `Application/Traffic/CBR`; the model is `app/cbr.rs`) and a sink that counts what
//! arrives (ns-2 `Agent/Null`, or `Agent/LossMonitor` for its counters).

use super::{Agent, AgentCtx, FlowAgents, FlowCounters, FlowShape};
use crate::app::{CbrParams, CbrSource};
use crate::engine::{Packet, PacketKind, RandomStream, SackBlocks};
use crate::tcp::state::Outgoing;

const SEND: u32 = 0;

pub fn build(p: &CbrParams, random: RandomStream) -> FlowAgents {
    FlowAgents {
        source: Box::new(CbrAgent { source: CbrSource::new(p.clone(), random), generation: 0 }),
        sink: Box::new(DatagramSink::default()),
        shape: FlowShape {
            data_kind: PacketKind::Datagram,
            data_size: p.packet_size,
            payload: p.packet_size,
            ack_size: 0,
            header_size: 0,
            syn: false,
            syn_size: 0,
        },
    }
}

/// The CBR source: one datagram now, then one per interval while running.
pub struct CbrAgent {
    source: CbrSource,
    /// Each start begins a new chain of send timers; older ones are stale.
    generation: u32,
}

impl CbrAgent {
    fn send(&mut self, ctx: &mut AgentCtx) {
        let seq = self.source.next_packet();
        let next = ctx.now.saturating_add(self.source.next_interval());
        ctx.set_timer(next, SEND, self.generation);
        ctx.send(Outgoing { seq, retransmission: false, ect: false, ece: false, cwr: false, rtt_hint: 0 });
    }
}

impl Agent for CbrAgent {
    fn start(&mut self, ctx: &mut AgentCtx) {
        self.source.running = true;
        self.generation = self.generation.wrapping_add(1);
        self.send(ctx);
    }

    fn stop(&mut self, _ctx: &mut AgentCtx) {
        self.source.running = false;
    }

    fn on_packet(&mut self, _ctx: &mut AgentCtx, _packet: &Packet, _sack: &SackBlocks) {
        debug_assert!(false, "a CBR source receives nothing");
    }

    fn on_timer(&mut self, ctx: &mut AgentCtx, _timer: u32, generation: u32) {
        if self.source.running && generation == self.generation {
            self.send(ctx);
        }
    }

    fn report(&self, c: &mut FlowCounters) {
        c.transport = "cbr";
        c.packets_sent = self.source.packets_sent;
    }
}

/// Counts the datagrams that arrive; every byte on the wire counts as delivered.
#[derive(Debug, Default)]
pub struct DatagramSink {
    packets_received: u64,
}

impl Agent for DatagramSink {
    fn on_packet(&mut self, ctx: &mut AgentCtx, packet: &Packet, _sack: &SackBlocks) {
        self.packets_received += 1;
        ctx.delivered(packet.size as u64);
    }

    fn report(&self, c: &mut FlowCounters) {
        c.packets_received = self.packets_received;
        c.unique_packets = self.packets_received;
    }
}
