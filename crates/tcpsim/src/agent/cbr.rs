//! Constant bit rate over UDP: ns-2.35 `Application/Traffic/CBR` on `Agent/UDP`, with a
//! sink that counts what arrives (ns-2 `Agent/Null`, or `Agent/LossMonitor` for its
//! counters).
//!
//! A packet of `packet_size` bytes every `interval = packet_size · 8 / rate`; the first
//! leaves at the start time. With `jitter` (ns-2 `random_`), each interval is multiplied
//! by a uniform factor in [0.5, 1.5) drawn from the flow's own random stream.
//!
//! Parameters (ns-2 defaults): rate 448 Kb/s, packet_size 210 B (on the wire; UDP adds no
//! header in ns-2), jitter false.

use super::{Agent, AgentCtx, FlowAgents, FlowCounters, FlowShape, Load, SourceConfig, SourceModel};
use crate::engine::time::{self, Dur};
use crate::engine::{Packet, PacketKind, RandomStream, SackBlocks};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::engine::packet::Outgoing;
use std::sync::Arc;

const NS2: &str = "ns-2.35 Application/Traffic/CBR default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Agent,
    name: "cbr",
    summary: "constant bit rate over UDP: one packet every packet_size·8/rate, optionally jittered",
    source: "ns-2.35 Application/Traffic/CBR on Agent/UDP (cbr_traffic.cc)",
    params: &[
        Param::new("rate", T::Rate, "bit/s", V::Rate(448_000), "sending rate (ns-2 rate_)", NS2).range(1.0, 1e15),
        Param::new("packet_size", T::Size, "B", V::Size(210), "packet size on the wire; UDP adds no header in ns-2 (ns-2 packetSize_)", NS2).range(1.0, 1e9),
        Param::new("jitter", T::Bool, "", V::Bool(false), "multiply each interval by a uniform factor in [0.5, 1.5) (ns-2 random_)", NS2),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: SourceModel = SourceModel { spec: &SPEC, configure: |c, _| Ok(Arc::new(CbrParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if time::transmission_time(c.size("packet_size"), c.rate("rate")) == 0 {
        return Err(ParamError::new("rate", "a CBR rate that leaves at least 1 ps between packets"));
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq)]
pub struct CbrParams {
    /// Sending rate, bits per second (ns-2 `rate_`).
    pub rate_bps: u64,
    /// Packet size on the wire, bytes (ns-2 `packetSize_`).
    pub packet_size: u32,
    /// Randomize intervals (ns-2 `random_`).
    pub jitter: bool,
}

impl CbrParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        CbrParams { rate_bps: c.rate("rate"), packet_size: c.size("packet_size") as u32, jitter: c.boolean("jitter") }
    }
}

impl SourceConfig for CbrParams {
    fn shape(&self) -> FlowShape {
        FlowShape {
            data_kind: PacketKind::Datagram,
            data_size: self.packet_size,
            payload: self.packet_size,
            ack_size: 0,
            header_size: 0,
            syn: false,
            syn_size: 0,
        }
    }

    fn largest_packet(&self) -> u32 {
        self.packet_size
    }

    fn load(&self) -> Load {
        Load::Rate {
            packet_size: self.packet_size,
            rate_bps: self.rate_bps,
            agent_bytes: (std::mem::size_of::<CbrSource>() + 256) as u64,
        }
    }

    fn build(&self, random: RandomStream) -> FlowAgents {
        FlowAgents {
            source: Box::new(CbrAgent { source: CbrSource::new(self.clone(), random), generation: 0 }),
            sink: Box::new(DatagramSink::default()),
            shape: self.shape(),
        }
    }
}

impl Default for CbrParams {
    fn default() -> Self {
        CbrParams::from_config(&SPEC.defaults())
    }
}

#[derive(Debug, Clone)]
pub struct CbrSource {
    pub params: CbrParams,
    random: RandomStream,
    next_seq: i64,
    pub running: bool,
    pub packets_sent: u64,
}

impl CbrSource {
    pub fn new(params: CbrParams, random: RandomStream) -> Self {
        CbrSource { params, random, next_seq: 0, running: false, packets_sent: 0 }
    }

    /// Sequence number of the packet to send now.
    pub fn next_packet(&mut self) -> i64 {
        self.packets_sent += 1;
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// Time until the next packet.
    pub fn next_interval(&mut self) -> Dur {
        let interval = time::transmission_time(self.params.packet_size as u64, self.params.rate_bps);
        if self.params.jitter {
            let factor = 0.5 + self.random.uniform();
            (interval as f64 * factor).round() as Dur
        } else {
            interval
        }
    }
}

const SEND: u32 = 0;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_is_packet_time_at_rate() {
        // 210 B · 8 / 448 kb/s = 3.75 ms
        let mut c = CbrSource::new(CbrParams::default(), RandomStream::new(1, "cbr"));
        assert_eq!(c.next_interval(), 3_750_000_000);
    }

    #[test]
    fn jitter_stays_within_half_to_one_and_a_half_intervals() {
        let p = CbrParams { jitter: true, ..CbrParams::default() };
        let mut c = CbrSource::new(p, RandomStream::new(1, "cbr"));
        let mean: f64 = (0..1000).map(|_| c.next_interval() as f64).sum::<f64>() / 1000.0;
        for _ in 0..1000 {
            let i = c.next_interval();
            assert!((1_875_000_000..=5_625_000_000).contains(&i));
        }
        assert!((mean / 3.75e9 - 1.0).abs() < 0.05);
    }
}
