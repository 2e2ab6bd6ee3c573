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

use super::{Arrival, DropReason, Fifo, Limit, QueueDiscipline, Verdict};
use crate::engine::{PacketId, SimTime};

#[derive(Debug, Clone, PartialEq)]
pub struct DropTailParams {
    /// Buffer limit; default 50 packets (ns-2 `Queue set limit_ 50`).
    pub limit: Limit,
}

impl Default for DropTailParams {
    fn default() -> Self {
        DropTailParams { limit: Limit::Packets(50) }
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

    fn enqueue(&mut self, arrival: Arrival, _now: SimTime) -> Verdict {
        if self.would_overflow(arrival.size) {
            return Verdict::Dropped(DropReason::Overflow);
        }
        self.fifo.push(arrival.id, arrival.size);
        Verdict::Queued
    }

    fn dequeue(&mut self, _now: SimTime) -> Option<PacketId> {
        self.fifo.pop()
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

    fn arrival(id: u32, size: u32) -> Arrival {
        Arrival { id, size, ect: false }
    }

    #[test]
    fn packet_limit_n_holds_n_minus_one_waiting() {
        // ns-2: drop when length + 1 >= limit; limit 5 → 4 wait (the 5th is on the wire).
        let mut q = DropTail::new(DropTailParams { limit: Limit::Packets(5) });
        for i in 0..4 {
            assert_eq!(q.enqueue(arrival(i, 1000), 0), Verdict::Queued);
        }
        assert_eq!(q.enqueue(arrival(4, 1000), 0), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(q.len_packets(), 4);
        assert_eq!(q.dequeue(0), Some(0));
        assert_eq!(q.enqueue(arrival(5, 1000), 0), Verdict::Queued);
    }

    #[test]
    fn byte_limit_counts_the_arrival() {
        // 2500 B limit: 1000 + 1000 = 2000 waiting; a third 1000 B would make 3000 ≥ 2500.
        let mut q = DropTail::new(DropTailParams { limit: Limit::Bytes(2500) });
        assert_eq!(q.enqueue(arrival(0, 1000), 0), Verdict::Queued);
        assert_eq!(q.enqueue(arrival(1, 1000), 0), Verdict::Queued);
        assert_eq!(q.enqueue(arrival(2, 1000), 0), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(q.enqueue(arrival(3, 400), 0), Verdict::Queued);
        assert_eq!(q.len_bytes(), 2400);
    }

    #[test]
    fn fifo_order() {
        let mut q = DropTail::new(DropTailParams::default());
        for i in 0..3 {
            q.enqueue(arrival(i, 100), 0);
        }
        assert_eq!((q.dequeue(0), q.dequeue(0), q.dequeue(0), q.dequeue(0)), (Some(0), Some(1), Some(2), None));
    }
}
