//! DropTail: a FIFO that drops arrivals when full.
//!
//! Semantics follow ns-2.35 `DropTail::enque` (drop-tail.cc): with a limit of N packets,
//! an arrival is dropped when `waiting + 1 >= N`, so at most N − 1 packets wait while one
//! is being transmitted — N packets in the system, which is what ns-2's `queue-limit N`
//! means. In byte mode an arrival is dropped when `waiting bytes + its size >= limit`.
//!
//! This is also the "Management" queue of reference document 004 §IV, the ns-2 manual's
//! "Example: Drop Tail" (§7.2): enqueue, then drop the arrival when `length ≥ qlim_`; a
//! limit of n therefore holds n − 1 waiting packets, as both note. The test is the same as drop-tail.cc's, so `Queue/DropTail` behaves so by default
//! (checked with ns-2.35, docs/models/droptail.md).
//!
//! Parameters:
//! - `limit`: packets or bytes; default 50 packets (ns-2 `Queue set limit_ 50`).
//! - `limit_includes_transmission`: boolean, default true (ns-2). True: the limit counts
//!   the packet being transmitted, so N − 1 wait (drop when `waiting + 1 ≥ N`; bytes:
//!   `waiting + size ≥ B`). False: N packets wait besides the one on the wire, the reading
//!   of a limit as the queue's own capacity (drop when `waiting + 1 > N`; bytes:
//!   `waiting + size > B`).
//!
//! Deviations: ns-2's `drop_front_` option (drop from the head) is not implemented.

use super::{fifo_queue_methods, Arrival, DropReason, Fifo, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, Verdict};
use crate::engine::PacketId;
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::queue::QueueModel;
use std::sync::Arc;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "droptail",
    summary: "FIFO that drops arrivals when full; a limit of N packets holds N − 1 waiting plus one on the wire (ns-2)",
    source: "ns-2.35 Queue/DropTail (drop-tail.cc)",
    params: &[
        Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(50)), "buffer limit, counting the packet being transmitted unless limit_includes_transmission is false (ns-2 limit_)", "ns-2.35 Queue limit_ default"),
        Param::new(
            "limit_includes_transmission",
            T::Bool,
            "",
            V::Bool(true),
            "true: a limit of N packets holds N − 1 waiting plus the one on the wire (ns-2 DropTail; document 004's Management queue, ns-2 manual §7.2); false: N wait besides the one on the wire",
            "ns-2.35 drop-tail.cc (length + 1 >= qlim_)",
        ),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel { spec: &SPEC, configure: |c| Arc::new(DropTailParams::from_config(c)), series: &[] };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    match c.limit("limit") {
        Limit::Packets(0) | Limit::Bytes(0) => Err(ParamError::new("limit", "a limit that can hold at least one packet")),
        _ => Ok(()),
    }
}

/// DropTail drops an arrival when waiting + 1 ≥ limit (ns-2), so a limit of 1 packet, or of
/// no more bytes than a packet, drops everything.
fn capacity(p: &DropTailParams, max_packet: u32) -> Result<(), String> {
    if !p.limit_includes_transmission {
        return match p.limit {
            Limit::Bytes(b) if b < max_packet as u64 => Err(format!("a limit of at least the largest packet ({max_packet} B)")),
            _ => Ok(()),
        };
    }
    match p.limit {
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
    /// The limit counts the packet being transmitted (N − 1 wait); default true (ns-2).
    pub limit_includes_transmission: bool,
}

impl DropTailParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        DropTailParams { limit: c.limit("limit"), limit_includes_transmission: c.boolean("limit_includes_transmission") }
    }
}

impl QueueConfig for DropTailParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        capacity(self, link.largest_packet)
    }

    fn build(&self, _env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(DropTail::new(self.clone()))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

impl Default for DropTailParams {
    fn default() -> Self {
        DropTailParams::from_config(&SPEC.defaults())
    }
}

#[derive(Debug)]
pub struct DropTail {
    /// The packets (or bytes) waiting after an arrival that make it a drop: the limit,
    /// or one more when the limit does not count the packet in transmission.
    overflow_at: Limit,
    fifo: Fifo,
}

impl DropTail {
    pub fn new(params: DropTailParams) -> Self {
        let beyond = !params.limit_includes_transmission as u64;
        let overflow_at = match params.limit {
            Limit::Packets(n) => Limit::Packets(n.saturating_add(beyond)),
            Limit::Bytes(b) => Limit::Bytes(b.saturating_add(beyond)),
        };
        DropTail { overflow_at, fifo: Fifo::default() }
    }

    /// ns-2 `DropTail::enque`: the arrival would make the waiting packets (or bytes)
    /// reach the limit; with `limit_includes_transmission` false, exceed it.
    fn would_overflow(&self, size: u32) -> bool {
        match self.overflow_at {
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

    fn passes_when_empty(&self) -> u32 {
        // An empty FIFO takes a packet unless its limit cannot hold one (`would_overflow`
        // with nothing queued); enqueue then dequeue change nothing.
        match self.overflow_at {
            Limit::Packets(n) if n >= 2 => u32::MAX,
            Limit::Packets(_) => 0,
            Limit::Bytes(b) => b.saturating_sub(1).min(u32::MAX as u64) as u32,
        }
    }

    fifo_queue_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ecn, PacketKind};

    fn arrival(id: u32, size: u32) -> Arrival {
        Arrival { id, size, ecn: Ecn::NotEct, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    fn enq(q: &mut DropTail, a: Arrival) -> Verdict {
        q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), a)
    }

    fn deq(q: &mut DropTail) -> Option<PacketId> {
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()))
    }

    #[test]
    fn an_empty_queue_passes_exactly_the_packets_enqueue_would_take() {
        let cases = [
            (Limit::Packets(2), true, u32::MAX),
            (Limit::Packets(1), false, u32::MAX),
            (Limit::Bytes(1000), true, 999),
            (Limit::Bytes(1000), false, 1000),
        ];
        for (limit, limit_includes_transmission, passes) in cases {
            let params = DropTailParams { limit, limit_includes_transmission };
            let q = DropTail::new(params.clone());
            assert_eq!(q.passes_when_empty(), passes, "{params:?}");
            // The promise the link relies on: up to that size, enqueue takes the packet and
            // dequeue hands it back; one byte more is dropped.
            for size in [1, 40, passes.min(5000)] {
                let mut q = DropTail::new(params.clone());
                assert_eq!(enq(&mut q, arrival(7, size)), Verdict::Queued, "{params:?} {size}");
                assert_eq!(deq(&mut q), Some(7));
            }
            if passes < u32::MAX {
                let mut q = DropTail::new(params.clone());
                assert_eq!(enq(&mut q, arrival(7, passes + 1)), Verdict::Dropped(DropReason::Overflow), "{params:?}");
            }
        }
    }

    #[test]
    fn packet_limit_n_holds_n_minus_one_waiting() {
        // ns-2: drop when length + 1 >= limit; limit 5 → 4 wait (the 5th is on the wire).
        let mut q = DropTail::new(DropTailParams { limit: Limit::Packets(5), ..DropTailParams::default() });
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
        let mut q = DropTail::new(DropTailParams { limit: Limit::Bytes(2500), ..DropTailParams::default() });
        assert_eq!(enq(&mut q, arrival(0, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut q, arrival(1, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut q, arrival(2, 1000)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(enq(&mut q, arrival(3, 400)), Verdict::Queued);
        assert_eq!(q.len_bytes(), 2400);
    }

    fn queue(limit: Limit, limit_includes_transmission: bool) -> DropTail {
        DropTail::new(DropTailParams { limit, limit_includes_transmission })
    }

    #[test]
    fn management_queue_of_limit_n_accepts_n_minus_one_and_drops_the_nth() {
        // Document 004 §IV / ns-2 manual §7.2: enqueue, then drop the arrival when
        // length ≥ qlim_. qlim_ = 10: arrivals 1..9 wait, the 10th and 11th are dropped.
        let mut q = queue(Limit::Packets(10), true);
        for i in 0..9 {
            assert_eq!(enq(&mut q, arrival(i, 1000)), Verdict::Queued, "arrival {}", i + 1);
        }
        assert_eq!(enq(&mut q, arrival(9, 1000)), Verdict::Dropped(DropReason::Overflow), "the n-th");
        assert_eq!(enq(&mut q, arrival(10, 1000)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(q.len_packets(), 9);
    }

    #[test]
    fn limit_without_the_transmission_holds_n_waiting() {
        // limit_includes_transmission = false: 10 wait, the 11th is dropped.
        let mut q = queue(Limit::Packets(10), false);
        for i in 0..10 {
            assert_eq!(enq(&mut q, arrival(i, 1000)), Verdict::Queued, "arrival {}", i + 1);
        }
        assert_eq!(enq(&mut q, arrival(10, 1000)), Verdict::Dropped(DropReason::Overflow), "the (n+1)-th");
        assert_eq!(q.len_packets(), 10);
        // A limit of one packet: one waits (with the transmission counted, none would).
        let mut one = queue(Limit::Packets(1), false);
        assert_eq!(enq(&mut one, arrival(0, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut one, arrival(1, 1000)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(enq(&mut queue(Limit::Packets(1), true), arrival(0, 1000)), Verdict::Dropped(DropReason::Overflow));
    }

    #[test]
    fn byte_limit_without_the_transmission_may_be_filled_exactly() {
        // 2000 B limit, 1000 B packets: counted (ns-2) 1000 + 1000 ≥ 2000 drops the
        // second; not counted, 2000 > 2000 is false, so two fit and a third is dropped.
        let mut ns2 = queue(Limit::Bytes(2000), true);
        assert_eq!(enq(&mut ns2, arrival(0, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut ns2, arrival(1, 1000)), Verdict::Dropped(DropReason::Overflow));
        let mut exact = queue(Limit::Bytes(2000), false);
        assert_eq!(enq(&mut exact, arrival(0, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut exact, arrival(1, 1000)), Verdict::Queued);
        assert_eq!(enq(&mut exact, arrival(2, 1000)), Verdict::Dropped(DropReason::Overflow));
    }

    #[test]
    fn the_default_is_ns2s_reading() {
        assert!(DropTailParams::default().limit_includes_transmission);
    }

    #[test]
    fn capacity_checks_follow_the_reading() {
        let mut p = DropTailParams { limit: Limit::Packets(1), ..DropTailParams::default() };
        assert!(capacity(&p, 1040).is_err(), "ns-2 reading: a limit of 1 drops everything");
        p.limit_includes_transmission = false;
        assert!(capacity(&p, 1040).is_ok());
        p.limit = Limit::Bytes(1040);
        assert!(capacity(&p, 1040).is_ok(), "one packet of 1040 B fits a 1040 B limit");
        p.limit = Limit::Bytes(1039);
        assert!(capacity(&p, 1040).is_err());
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
