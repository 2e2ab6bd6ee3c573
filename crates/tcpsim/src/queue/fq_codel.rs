//! FQ-CoDel: flows hashed into queues served by deficit round robin, new flows first,
//! each queue managed by CoDel.
//!
//! T. Høiland-Jørgensen, P. McKenney, D. Taht, J. Gettys and E. Dumazet, "The Flow Queue
//! CoDel Packet Scheduler and Active Queue Management Algorithm", RFC 8290, 2018: §4.1
//! (classification, overflow drop from the fattest queue), §4.2 (the scheduler: new and
//! old lists, deficits), §5.2 (the parameters), §6 (limitations of flow queueing); as Linux `net/sched/sch_fq_codel.c` and
//! ns-3 `FqCoDelQueueDisc` run it. Each queue's CoDel is `codel_core.rs`'s state machine.
//!
//! Enqueue: the packet's queue is `hash(flow, source, hash_seed)` scaled to `flows`
//! (`perfect`: a queue of its own for each (flow, source)); it is queued with its time;
//! a queue in neither list joins the tail of the new list with deficit `quantum`. Then
//! while more than `limit` packets (or bytes) wait: drop from the head of the queue with
//! the most bytes (the first such queue by index) up to `drop_batch` packets or until
//! half its bytes are gone, once (RFC 8290 §4.1, Linux `fq_codel_drop`, ns-3).
//! Dequeue: take the first queue of the new list, else of the old list; if its deficit
//! is ≤ 0 it gets `quantum` more and moves to the tail of the old list, try again; else
//! CoDel dequeues from it. A queue CoDel leaves empty moves to the old list's tail if it
//! came from the new list and the old list is not empty (no starving old flows, RFC 8290
//! §4.2), else leaves the lists; try again. A packet sent takes its size off the deficit.
//!
//! Defaults: `limit` 10240 packets, `flows` 1024, `quantum` 1514 B (Linux: the Ethernet
//! MTU with its header; ns-3: the device MTU), `target` 5 ms, `interval` 100 ms, `mtu`
//! 1500 B, `ecn` true (Linux and ns-3), `drop_batch` 64.
//!
//! Choices (docs/models/fq-codel.md): CoDel's "at most `mtu` bytes queued" test reads
//! the flow's own queue (ns-3, each flow a CoDel queue disc; Linux reads the whole
//! qdisc's backlog); the hash is SplitMix64, not Jenkins; no memory limit.

use super::codel::check_capacity;
use super::codel_core::{CodelFifo, CodelParams, CodelState, HeldPacket, INTERVAL, MTU, TARGET};
use super::{Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::PacketId;
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

const RFC: &str = "RFC 8290 §5.2; Linux sch_fq_codel and ns-3.44 FqCoDelQueueDisc default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "fq_codel",
    summary: "FQ-CoDel (RFC 8290): flows hashed into queues served by deficit round robin with new flows first, CoDel on each queue, overflow drops from the fattest queue",
    source: "Høiland-Jørgensen, McKenney, Taht, Gettys & Dumazet, RFC 8290 (2018); Linux sch_fq_codel; ns-3 FqCoDelQueueDisc",
    params: &[
        Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(10240)), "shared buffer: when an arrival makes more than this wait, packets are dropped from the head of the fattest queue", RFC),
        Param::new("flows", T::Integer, "", V::Integer(1024), "number of queues the flows are hashed into", RFC).range(1.0, 65536.0),
        Param::new("quantum", T::Size, "B", V::Size(1514), "bytes a queue may send per round (Linux: the device MTU with the Ethernet header; ns-3: the device MTU)", "RFC 8290 §5.2; Linux psched_mtu").range(1.0, 4294967295.0),
        TARGET,
        INTERVAL,
        MTU,
        Param::new("ecn", T::Bool, "", V::Bool(true), "mark ECN-capable packets (CE) instead of dropping them", RFC),
        Param::new("drop_batch", T::Integer, "packets", V::Integer(64), "on overflow, drop at most this many packets from the fattest queue (or until half its bytes are gone)", "Linux drop_batch_size; ns-3 DropBatchSize").range(1.0, 1e9),
        Param::new("hash_seed", T::Integer, "", V::Integer(0), "perturbs the hash of (flow, sending node), so other flows collide", "RFC 8290 §4.1; ns-3 Perturbation").range(0.0, 4294967295.0),
        Param::new("perfect", T::Bool, "", V::Bool(false), "a queue for each (flow, sending node), no collisions, `flows` unused", "tcpsim (an idealised classifier)"),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(FqCodelParams::from_config(c)),
    // The queues in the new list and in the old list.
    series: &["fq_codel_new_flows", "fq_codel_old_flows"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if matches!(c.limit("limit"), Limit::Packets(0) | Limit::Bytes(0)) {
        return Err(ParamError::new("limit", "a limit that can hold at least one packet"));
    }
    if c.boolean("perfect") && c.is_given("flows") {
        return Err(ParamError::new("flows", "no number of queues with perfect = true (a queue for each flow)"));
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq)]
pub struct FqCodelParams {
    pub limit: Limit,
    /// Queues to hash into; `None`: `perfect`, a queue per (flow, source).
    pub flows: Option<u32>,
    pub quantum: u64,
    pub codel: CodelParams,
    pub drop_batch: u32,
    pub hash_seed: u64,
}

impl FqCodelParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        FqCodelParams {
            limit: c.limit("limit"),
            flows: if c.boolean("perfect") { None } else { Some(c.integer("flows") as u32) },
            quantum: c.size("quantum"),
            codel: CodelParams::from_config(c),
            drop_batch: c.integer("drop_batch") as u32,
            hash_seed: c.integer("hash_seed") as u64,
        }
    }
}

impl QueueConfig for FqCodelParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        check_capacity(self.limit, link)
    }

    fn build(&self, _env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(FqCodel::new(self.clone()))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The queue of a packet of `flow` sent by node `source`, among `flows` queues: the
/// hash's high 32 bits scaled to [0, flows) (Linux `reciprocal_scale`).
pub fn hashed_queue(flow: u32, source: u32, seed: u64, flows: u32) -> u32 {
    let h = mix(((flow as u64) << 32 | source as u64) ^ mix(seed)) >> 32;
    ((h * flows as u64) >> 32) as u32
}

/// Which list a queue is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listed {
    No,
    New,
    Old,
}

#[derive(Debug)]
struct FlowQueue {
    fifo: CodelFifo,
    codel: CodelState,
    /// Bytes it may still send in this round (may go below 0 by the last packet's size).
    deficit: i64,
    listed: Listed,
}

impl FlowQueue {
    fn new() -> Self {
        FlowQueue { fifo: CodelFifo::default(), codel: CodelState::default(), deficit: 0, listed: Listed::No }
    }
}

#[derive(Debug)]
pub struct FqCodel {
    params: FqCodelParams,
    queues: Vec<FlowQueue>,
    /// With `perfect`: the queue of each (flow, source) seen.
    perfect_index: HashMap<(u32, u32), usize>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    packets: usize,
    bytes: u64,
}

impl FqCodel {
    pub fn new(params: FqCodelParams) -> Self {
        let queues = (0..params.flows.unwrap_or(0)).map(|_| FlowQueue::new()).collect();
        FqCodel { params, queues, perfect_index: HashMap::new(), new_flows: VecDeque::new(), old_flows: VecDeque::new(), packets: 0, bytes: 0 }
    }

    fn queue_of(&mut self, a: &Arrival) -> usize {
        match self.params.flows {
            Some(n) => hashed_queue(a.flow, a.source, self.params.hash_seed, n) as usize,
            None => {
                let next = self.queues.len();
                let index = *self.perfect_index.entry((a.flow, a.source)).or_insert(next);
                if index == next {
                    self.queues.push(FlowQueue::new());
                }
                index
            }
        }
    }

    fn over_limit(&self) -> bool {
        match self.params.limit {
            Limit::Packets(n) => self.packets as u64 > n,
            Limit::Bytes(b) => self.bytes > b,
        }
    }

    /// The queue holding the most bytes, the first of them by index (Linux `fq_codel_drop`).
    fn fattest(&self) -> usize {
        let mut best = 0;
        for (i, q) in self.queues.iter().enumerate() {
            if q.fifo.bytes() > self.queues[best].fifo.bytes() {
                best = i;
            }
        }
        best
    }

    /// Drops from the head of the fattest queue, up to `drop_batch` packets or until half
    /// its bytes are gone; returns the ids dropped.
    fn drop_from_fattest(&mut self) -> Vec<PacketId> {
        let fat = self.fattest();
        let q = &mut self.queues[fat];
        let threshold = q.fifo.bytes() / 2;
        let mut dropped_bytes = 0;
        let mut dropped = Vec::new();
        while let Some(p) = q.fifo.pop() {
            dropped_bytes += p.size as u64;
            dropped.push(p.id);
            if dropped.len() as u32 >= self.params.drop_batch || dropped_bytes >= threshold {
                break;
            }
        }
        self.packets -= dropped.len();
        self.bytes -= dropped_bytes;
        dropped
    }
}

impl QueueDiscipline for FqCodel {
    fn kind(&self) -> &'static str {
        "fq_codel"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, a: Arrival) -> Verdict {
        let index = self.queue_of(&a);
        let q = &mut self.queues[index];
        q.fifo.push(HeldPacket { id: a.id, size: a.size, enqueued_at: ctx.now, ect: a.ect() && !a.ce() });
        if q.listed == Listed::No {
            q.listed = Listed::New;
            q.deficit = self.params.quantum as i64;
            self.new_flows.push_back(index);
        }
        self.packets += 1;
        self.bytes += a.size as u64;
        let mut verdict = Verdict::Queued;
        if self.over_limit() {
            for id in self.drop_from_fattest() {
                if id == a.id {
                    verdict = Verdict::Dropped(DropReason::Overflow);
                } else {
                    ctx.drop_held(id, DropReason::Overflow);
                }
            }
        }
        verdict
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        loop {
            let (index, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[index];
            if q.deficit <= 0 {
                q.deficit += self.params.quantum as i64;
                q.listed = Listed::Old;
                if from_new { self.new_flows.pop_front() } else { self.old_flows.pop_front() };
                self.old_flows.push_back(index);
                continue;
            }
            let (packets, bytes) = (q.fifo.len(), q.fifo.bytes());
            let sent = q.codel.dequeue(&self.params.codel, &mut q.fifo, ctx);
            self.packets -= packets - q.fifo.len();
            self.bytes -= bytes - q.fifo.bytes();
            match sent {
                Some(p) => {
                    q.deficit -= p.size as i64;
                    return Some(p.id);
                }
                None => {
                    if from_new {
                        self.new_flows.pop_front();
                        if self.old_flows.is_empty() {
                            q.listed = Listed::No;
                        } else {
                            q.listed = Listed::Old;
                            self.old_flows.push_back(index);
                        }
                    } else {
                        self.old_flows.pop_front();
                        q.listed = Listed::No;
                    }
                }
            }
        }
    }

    fn observes_empty_dequeue(&self) -> bool {
        false
    }

    fn len_packets(&self) -> usize {
        self.packets
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("fq_codel_new_flows", self.new_flows.len() as f64);
        push("fq_codel_old_flows", self.old_flows.len() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_MS;
    use crate::engine::{Ecn, PacketKind};
    use crate::model::Value;
    use crate::queue::QueueAction;

    fn fq(changes: &[(&str, Value)]) -> FqCodel {
        let mut c = SPEC.defaults();
        for (name, value) in changes {
            c.set(name, value.clone());
        }
        (SPEC.check)(&c).expect("valid parameters");
        FqCodel::new(FqCodelParams::from_config(&c))
    }

    fn perfect(changes: &[(&str, Value)]) -> FqCodel {
        let mut all = vec![("perfect", Value::Bool(true))];
        all.extend(changes.iter().cloned());
        fq(&all)
    }

    fn packet(flow: u32, id: PacketId, size: u32) -> Arrival {
        Arrival { id, size, ecn: Ecn::NotEct, flow, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    fn enq(q: &mut FqCodel, a: Arrival) -> (Verdict, Vec<QueueAction>) {
        let mut actions = Vec::new();
        let v = q.enqueue(&mut QueueCtx::new(0, &mut actions), a);
        (v, actions)
    }

    fn deq(q: &mut FqCodel) -> Option<PacketId> {
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()))
    }

    #[test]
    fn the_defaults_are_linux_and_ns3s() {
        let p = FqCodelParams::from_config(&SPEC.defaults());
        assert_eq!((p.limit, p.flows, p.quantum, p.drop_batch, p.hash_seed), (Limit::Packets(10240), Some(1024), 1514, 64, 0));
        assert_eq!(p.codel, CodelParams { target: 5 * PS_PER_MS, interval: 100 * PS_PER_MS, mtu: 1500, ecn: true });
    }

    #[test]
    fn a_new_flow_is_served_before_the_old_ones() {
        let mut q = perfect(&[("quantum", Value::Size(2000))]);
        for id in 0..4 {
            enq(&mut q, packet(0, id, 1000));
        }
        // Flow 0 spends its first quantum on two packets, then moves to the old list.
        assert_eq!((deq(&mut q), deq(&mut q), deq(&mut q)), (Some(0), Some(1), Some(2)));
        assert_eq!((q.new_flows.len(), q.old_flows.len()), (0, 1));
        // Flow 1 arrives: new, it goes first although flow 0 waits with deficit left.
        enq(&mut q, packet(1, 10, 500));
        assert_eq!(deq(&mut q), Some(10));
        // Flow 1 is found empty with deficit left while an old flow waits: it moves to the
        // old list (RFC 8290 §4.2), and flow 0 sends.
        assert_eq!(deq(&mut q), Some(3));
        assert_eq!((q.new_flows.len(), q.old_flows.len(), q.queues[1].listed), (0, 2, Listed::Old));
        // Flow 1 sends again: it is in the old list, so it gets no new-flow priority.
        enq(&mut q, packet(1, 11, 500));
        assert_eq!(q.new_flows.len(), 0);
        assert_eq!(deq(&mut q), Some(11));
    }

    #[test]
    fn an_emptied_new_flow_leaves_the_lists_when_no_old_flow_waits() {
        let mut q = perfect(&[]);
        enq(&mut q, packet(0, 0, 1000));
        assert_eq!(deq(&mut q), Some(0));
        assert_eq!(deq(&mut q), None);
        assert_eq!((q.new_flows.len(), q.old_flows.len(), q.queues[0].listed), (0, 0, Listed::No));
        enq(&mut q, packet(0, 1, 1000));
        assert_eq!(q.new_flows.len(), 1, "it comes back as a new flow");
    }

    #[test]
    fn deficit_round_robin_shares_bytes() {
        // Flow 0 sends 1500 B packets, flow 1 500 B packets; a quantum of 1500 B.
        let mut q = perfect(&[("quantum", Value::Size(1500))]);
        for i in 0..10 {
            enq(&mut q, packet(0, i, 1500));
            for j in 0..3 {
                enq(&mut q, packet(1, 100 + 3 * i + j, 500));
            }
        }
        let order: Vec<PacketId> = (0..12).filter_map(|_| deq(&mut q)).collect();
        // Each round: one 1500 B packet of flow 0, three 500 B packets of flow 1.
        assert_eq!(order, vec![0, 100, 101, 102, 1, 103, 104, 105, 2, 106, 107, 108]);
    }

    #[test]
    fn overflow_drops_from_the_head_of_the_fattest_queue() {
        let mut q = perfect(&[("limit", Value::Limit(Limit::Packets(10)))]);
        for id in 0..3 {
            enq(&mut q, packet(0, id, 1000));
        }
        for id in 10..17 {
            enq(&mut q, packet(1, id, 1000));
        }
        // The 11th packet (flow 0): flow 1 holds 7000 B, the most; drop from its head until
        // half its bytes (3500 B) are gone: 4 packets.
        let (v, actions) = enq(&mut q, packet(0, 3, 1000));
        assert_eq!(v, Verdict::Queued);
        let dropped: Vec<QueueAction> = (10..14).map(|id| QueueAction::Drop(id, DropReason::Overflow)).collect();
        assert_eq!(actions, dropped);
        assert_eq!((q.len_packets(), q.len_bytes()), (7, 7000));
        // drop_batch bounds the batch.
        let mut q = perfect(&[("limit", Value::Limit(Limit::Packets(10))), ("drop_batch", Value::Integer(1))]);
        for id in 0..10 {
            enq(&mut q, packet(1, id, 1000));
        }
        let (_, actions) = enq(&mut q, packet(0, 99, 1000));
        assert_eq!(actions, vec![QueueAction::Drop(0, DropReason::Overflow)]);
    }

    #[test]
    fn the_arrival_is_dropped_when_it_is_the_fattest_queue_head() {
        let mut q = perfect(&[("limit", Value::Limit(Limit::Packets(2)))]);
        enq(&mut q, packet(0, 0, 100));
        enq(&mut q, packet(1, 1, 100));
        let (v, actions) = enq(&mut q, packet(2, 2, 1500));
        assert_eq!((v, actions), (Verdict::Dropped(DropReason::Overflow), vec![]));
        assert_eq!(q.len_packets(), 2);
    }

    #[test]
    fn hashing_collides_flows_and_the_seed_moves_the_collisions() {
        // With 4 queues, 5 flows: at least two share a queue (pigeonhole).
        let queues = |seed| (0..5).map(|f| hashed_queue(f, 0, seed, 4)).collect::<Vec<_>>();
        let a = queues(0);
        assert!(a.iter().all(|&i| i < 4));
        let mut sorted = a.clone();
        sorted.sort();
        sorted.dedup();
        assert!(sorted.len() < 5);
        assert_ne!(a, queues(1), "another seed hashes differently");
        // Two colliding flows share one FIFO: the second's packet waits behind the first's.
        let (f0, f1) = (0..100).flat_map(|x| (x + 1..100).map(move |y| (x, y))).find(|&(x, y)| hashed_queue(x, 0, 0, 8) == hashed_queue(y, 0, 0, 8)).expect("a collision among 100 flows in 8 queues");
        let mut q = fq(&[("flows", Value::Integer(8))]);
        enq(&mut q, packet(f0, 0, 1000));
        enq(&mut q, packet(f0, 1, 1000));
        enq(&mut q, packet(f1, 2, 1000));
        assert_eq!(q.new_flows.len(), 1, "one queue for both flows");
        assert_eq!((deq(&mut q), deq(&mut q), deq(&mut q)), (Some(0), Some(1), Some(2)));
        // perfect = true: the two flows get a queue each and alternate.
        let mut q = perfect(&[("quantum", Value::Size(1000))]);
        enq(&mut q, packet(f0, 0, 1000));
        enq(&mut q, packet(f0, 1, 1000));
        enq(&mut q, packet(f1, 2, 1000));
        assert_eq!((deq(&mut q), deq(&mut q), deq(&mut q)), (Some(0), Some(2), Some(1)));
    }

    #[test]
    fn codel_acts_on_each_queue_and_marks_with_ecn() {
        let mut q = perfect(&[]);
        let mut actions = Vec::new();
        for id in 0..10 {
            let a = Arrival { ecn: Ecn::Ect0, ..packet(0, id, 1000) };
            q.enqueue(&mut QueueCtx::new(0, &mut actions), a);
        }
        q.dequeue(&mut QueueCtx::new(10 * PS_PER_MS, &mut actions));
        assert_eq!(q.dequeue(&mut QueueCtx::new(110 * PS_PER_MS, &mut actions)), Some(1));
        assert_eq!(actions, vec![QueueAction::Mark(1)]);
        // Without ECN the packet is dropped at dequeue and the totals follow.
        let mut q = perfect(&[("ecn", Value::Bool(false))]);
        for id in 0..10 {
            enq(&mut q, packet(0, id, 1000));
        }
        q.dequeue(&mut QueueCtx::new(10 * PS_PER_MS, &mut actions));
        actions.clear();
        assert_eq!(q.dequeue(&mut QueueCtx::new(110 * PS_PER_MS, &mut actions)), Some(2));
        assert_eq!(actions, vec![QueueAction::Drop(1, DropReason::Early)]);
        assert_eq!((q.len_packets(), q.len_bytes()), (7, 7000));
    }

    #[test]
    fn the_checks_name_the_key() {
        let mut c = SPEC.defaults();
        c.set("perfect", Value::Bool(true));
        c.set("flows", Value::Integer(16));
        assert_eq!((SPEC.check)(&c).expect_err("rejected").key, "flows");
    }
}
