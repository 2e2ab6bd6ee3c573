//! DropTail: a FIFO that drops arrivals when full.
//!
//! Semantics follow ns-2.35 `DropTail::enque` (drop-tail.cc): with a limit of N packets,
//! an arrival is dropped when `waiting + 1 >= N`, so at most N − 1 packets wait while one
//! is being transmitted — N packets in the system, which is what ns-2's `queue-limit N`
//! means. In byte mode an arrival is dropped when `waiting bytes + its size >= limit`.
//!
//! Parameters:
//! - `limit`: packets or bytes; default 50 packets (ns-2 `Queue set limit_ 50`).
//!
//! Deviations: ns-2's `drop_front_` option (drop from the head) is not implemented.

use super::{Arrival, DropReason, Fifo, Limit, QueueCtx, QueueDiscipline, Verdict};
use crate::engine::PacketId;
use crate::registry::{Constructor, Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Value as V};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "droptail",
    summary: "FIFO that drops arrivals when full; a limit of N packets holds N − 1 waiting plus one on the wire (ns-2)",
    source: "ns-2.35 Queue/DropTail (drop-tail.cc)",
    params: &[Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(50)), "buffer limit, counting the packet being transmitted (ns-2 limit_)", "ns-2.35 Queue limit_ default")],
    check,
    constructor: Constructor::Queue { build: |c, _| Box::new(DropTail::new(DropTailParams::from_config(c))), capacity },
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    match c.limit("limit") {
        Limit::Packets(0) | Limit::Bytes(0) => Err(ParamError::new("limit", "a limit that can hold at least one packet")),
        _ => Ok(()),
    }
}

/// DropTail drops an arrival when waiting + 1 ≥ limit (ns-2), so a limit of 1 packet, or of
/// no more bytes than a packet, drops everything.
fn capacity(c: &ModelConfig, max_packet: u32) -> Result<(), String> {
    match c.limit("limit") {
        Limit::Packets(n) if n < 2 => {
            Err("a limit of at least 2 packets (ns-2 counts the packet being transmitted: a limit of 1 drops every packet)".into())
        }
        Limit::Bytes(b) if b <= max_packet as u64 => Err(format!("a limit larger than the largest packet ({max_packet} B)")),
        _ => Ok(()),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct DropTailParams {
    /// Buffer limit; default 50 packets (ns-2 `Queue set limit_ 50`).
    pub limit: Limit,
}

impl DropTailParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        DropTailParams { limit: c.limit("limit") }
    }
}

impl Default for DropTailParams {
    fn default() -> Self {
        DropTailParams::from_config(&SPEC.defaults())
    }
}

#[derive(Debug)]
pub struct DropTail {
    params: DropTailParams,
    fifo: Fifo,
}

impl DropTail {
    pub fn new(params: DropTailParams) -> Self {
        DropTail { params, fifo: Fifo::default() }
    }

    fn would_overflow(&self, size: u32) -> bool {
        match self.params.limit {
            Limit::Packets(n) => self.fifo.len() as u64 + 1 >= n,
            Limit::Bytes(b) => self.fifo.bytes() + size as u64 >= b,
        }
    }
}

impl QueueDiscipline for DropTail {
    fn kind(&self) -> &'static str {
        "droptail"
    }

    fn enqueue(&mut self, _ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        if self.would_overflow(arrival.size) {
            return Verdict::Dropped(DropReason::Overflow);
        }
        self.fifo.push(arrival.id, arrival.size);
        Verdict::Queued
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        self.fifo.pop()
    }

    fn observes_empty_dequeue(&self) -> bool {
        false
    }

    fn len_packets(&self) -> usize {
        self.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PacketKind;

    fn arrival(id: u32, size: u32) -> Arrival {
        Arrival { id, size, ect: false, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    fn enq(q: &mut DropTail, a: Arrival) -> Verdict {
        q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), a)
    }

    fn deq(q: &mut DropTail) -> Option<PacketId> {
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()))
    }

    #[test]
    fn packet_limit_n_holds_n_minus_one_waiting() {
        // ns-2: drop when length + 1 >= limit; limit 5 → 4 wait (the 5th is on the wire).
        let mut q = DropTail::new(DropTailParams { limit: Limit::Packets(5) });
        for i in 0..4 {
            assert_eq!(enq(&mut q, arrival(i, 1000)), Verdict::Queued);
        }
        assert_eq!(enq(&mut q, arrival(4, 1000)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(q.len_packets(), 4);
        assert_eq!(deq(&mut q), Some(0));
        assert_eq!(enq(&mut q, arrival(5, 1000)), Verdict::Queued);
    }

    #[test]
    fn byte_limit_counts_the_arrival() {
        // 2500 B limit: 1000 + 1000 = 2000 waiting; a third 1000 B would make 3000 ≥ 2500.
        let mut q = DropTail::new(DropTailParams { limit: Limit::Bytes(2500) });
        assert_eq!(enq(&mut q, arrival(0, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut q, arrival(1, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut q, arrival(2, 1000)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(enq(&mut q, arrival(3, 400)), Verdict::Queued);
        assert_eq!(q.len_bytes(), 2400);
    }

    #[test]
    fn fifo_order() {
        let mut q = DropTail::new(DropTailParams::default());
        for i in 0..3 {
            enq(&mut q, arrival(i, 100));
        }
        assert_eq!((deq(&mut q), deq(&mut q), deq(&mut q), deq(&mut q)), (Some(0), Some(1), Some(2), None));
    }
}
