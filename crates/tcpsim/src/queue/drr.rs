//! DRR — Deficit Round Robin fair queueing, with ns-2.35 `Queue/DRR` semantics.
//!
//! M. Shreedhar and G. Varghese, "Efficient Fair Queuing Using Deficit Round-Robin",
//! IEEE/ACM ToN 4(3):375–385, 1996, doi:10.1109/90.502236 (SIGCOMM '95, pp. 231–242).
//! The rules below are those of ns-2.35 `queue/drr.cc` (S. Bajaj, Xerox PARC, 1997), read
//! function by function; reference document 004 §I names fair queueing as a queue
//! choice. docs/models/drr.md has a worked example and the ns-2 comparison.
//!
//! Classes. Each arriving packet belongs to a class with its own FIFO. ns-2's `DRR::hash`
//! keys on the IP source address only (`iph->saddr()`, the sending node; `mask_ 0`), so by
//! default a class is a sending node: all flows leaving one node share a class, and a
//! connection's ACKs (sent by the sink's node) are a class apart from its data. With
//! `classify = "flow"` a class is one flow's data (or datagrams), and that flow's ACKs
//! another class, as ns-2 would give flows sent from distinct nodes. ns-2 ignores `fid_`.
//!
//! Active classes (those holding packets) sit in a round-robin ring; ns-2 `curr` is the
//! class being served. On dequeue (`DRR::deque`), repeat:
//!   1. if `curr` has not had its quantum in this visit: deficit ← deficit + quantum;
//!   2. if deficit ≥ size of `curr`'s head packet: deficit ← deficit − size and send it.
//!      If that emptied the class it leaves the ring with deficit 0, and the next class
//!      becomes `curr`; otherwise `curr` keeps the turn for the next dequeue.
//!   3. else the visit ends (the deficit is kept) and the next class becomes `curr`.
//! On enqueue (`DRR::enque`) the packet joins its class; a class that was empty joins the
//! ring just before `curr` (last in the round) with deficit 0. Then, while the waiting
//! bytes — the arrival included, the packet on the wire not — exceed `limit`, the **head**
//! packet of the **longest class in bytes** is dropped (`getMaxflow`: the first class of
//! greatest byte count going round the ring from `curr`). The arrival itself is dropped
//! only when it heads the longest class, i.e. it is alone in it.
//!
//! Parameters (ns-2.35 defaults, tcl/lib/ns-default.tcl):
//! - `limit`: bytes or packets; default 25000 B (ns-2 `blimit_`). ns-2 has no packet
//!   limit (DRR ignores `limit_`); `"Np"` here means at most N packets waiting.
//! - `quantum`: bytes per round; default 250 B (ns-2 `quantum_`).
//! - `classify`: "source" (default, ns-2) or "flow".
//! - `buckets`: unset by default (one queue per class). With N, source nodes are hashed
//!   into N queues with ns-2's hash and colliding nodes share one (ns-2 `buckets_`, 10).
//!
//! Choices and deviations:
//! - ns-2 always hashes into `buckets_` queues (default 10) and lets colliding sources
//!   share one, printing "Collisions between …" for every such packet; its hash also maps
//!   node pairs such as 15/16 and 31/32 to one value whatever `buckets_` is. tcpsim gives
//!   every class its own queue unless `buckets` is set, in which case it reproduces ns-2's
//!   collisions (node indices are ns-2 node ids when the twin creates nodes in the same
//!   order; docs/scenario.md "Node and link order").
//! - Kept from ns-2 although the paper differs: a class emptied by a push-out drop while
//!   it was `curr` keeps its "had its quantum" flag (`turn`) while idle, so when it comes
//!   back it skips the quantum of its next visit.
//! - `mask_` (hash on address & 0xfff0, for hierarchical addresses) is not implemented.
//! - The longest class is found by a scan of the active classes, as ns-2 does, so a
//!   push-out costs O(active classes); enqueue and dequeue are O(1), and O(size/quantum)
//!   amortized visits per packet when the quantum is smaller than the packets.

use super::{Arrival, DropReason, Fifo, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, Verdict};
use crate::engine::{PacketId, PacketKind};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::queue::QueueModel;
use std::sync::Arc;
use std::collections::VecDeque;

const NS2: &str = "ns-2.35 Queue/DRR default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "drr",
    summary: "Deficit Round Robin fair queueing (ns-2.35): a queue per sending node or flow, a quantum of bytes per round, a shared buffer that drops from the head of the longest queue",
    source: "Shreedhar & Varghese, IEEE/ACM ToN 4(3), 1996; ns-2.35 Queue/DRR (drr.cc)",
    params: &[
        Param::new("limit", T::Limit, "bytes or packets", V::Limit(Limit::Bytes(25000)), "shared buffer; while the waiting packets (arrival included, the one on the wire not) exceed it, the head of the longest queue in bytes is dropped (ns-2 blimit_)", NS2),
        Param::new("quantum", T::Size, "B", V::Size(250), "bytes a queue may send per round (ns-2 quantum_)", NS2).range(1.0, 4294967295.0),
        Param::new("classify", T::Choice(&["source", "flow"]), "", V::Choice("source"), "what a queue holds: the packets sent by one node (ns-2 hashes the IP source address) or one flow's data, its ACKs being another queue", "ns-2.35 DRR::hash, mask_ 0"),
        Param::new("buckets", T::Integer, "", V::Unset, "hash sending nodes into this many queues with ns-2's hash, colliding nodes sharing a queue (ns-2 buckets_, default 10); unset: a queue per node", "ns-2.35 DRR::hash").range(1.0, 1e9),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel { spec: &SPEC, configure: |c| Arc::new(DrrParams::from_config(c)), series: &[] };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if matches!(c.limit("limit"), Limit::Packets(0) | Limit::Bytes(0)) {
        return Err(ParamError::new("limit", "a limit that can hold at least one packet"));
    }
    if c.is_given("buckets") && c.choice("classify") != "source" {
        return Err(ParamError::new("buckets", "classify = \"source\": ns-2 hashes source addresses, not flows"));
    }
    Ok(())
}

/// A byte limit below the largest packet drops every such packet (it pushes itself out).
fn capacity(p: &DrrParams, max_packet: u32) -> Result<(), String> {
    match p.limit {
        Limit::Bytes(b) if b < max_packet as u64 => Err(format!("a limit of at least the largest packet ({max_packet} B)")),
        _ => Ok(()),
    }
}

/// What makes a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classify {
    /// The sending node (ns-2: IP source address).
    Source,
    /// The flow; its ACKs are a separate class.
    Flow,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DrrParams {
    /// Shared buffer; default 25000 B (ns-2 `blimit_`).
    pub limit: Limit,
    /// Bytes per round; default 250 B (ns-2 `quantum_`).
    pub quantum: u64,
    /// Default `Source` (ns-2).
    pub classify: Classify,
    /// ns-2 `buckets_` hashing of source nodes; `None` (default): a queue per class.
    pub buckets: Option<u32>,
}

impl DrrParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        DrrParams {
            limit: c.limit("limit"),
            quantum: c.size("quantum"),
            classify: if c.choice("classify") == "flow" { Classify::Flow } else { Classify::Source },
            buckets: c.opt_integer("buckets").map(|b| b as u32),
        }
    }
}

impl QueueConfig for DrrParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        capacity(self, link.largest_packet)
    }

    fn build(&self, _env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(Drr::new(self.clone()))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

impl Default for DrrParams {
    fn default() -> Self {
        DrrParams::from_config(&SPEC.defaults())
    }
}

/// ns-2 `DRR::hash(pkt) % buckets_` for source address `address`:
/// h = ((a + (a >> 8) + ~(a >> 4)) mod (2^24 − 1)) + 1 in C `int` arithmetic (`%`
/// truncates toward zero, so a = 0 gives h = 0).
pub fn ns2_bucket(address: u32, buckets: u32) -> u32 {
    let a = address as i32;
    let h = a.wrapping_add(a >> 8).wrapping_add(!(a >> 4)) % ((2 << 23) - 1) + 1;
    h.rem_euclid(buckets as i32) as u32
}

/// One class's queue (ns-2 `PacketDRR`).
#[derive(Debug, Default)]
struct ClassQueue {
    fifo: Fifo,
    /// Bytes the class may still send in this round (ns-2 `deficitCounter`).
    deficit: u64,
    /// It has had its quantum in the current visit (ns-2 `turn`).
    had_quantum: bool,
}

/// Where a class id stands.
#[derive(Debug, Clone, Copy)]
enum ClassState {
    /// No packets. `kept_quantum`: emptied by a push-out while being served; ns-2 then
    /// leaves its `turn` set, so it skips its next quantum when it returns.
    Idle { kept_quantum: bool },
    /// Holding packets in `queues[slot]`.
    Active { slot: u32 },
}

#[derive(Debug)]
pub struct Drr {
    params: DrrParams,
    /// By class id (a node index or 2·flow + is_ack); grows to the largest id seen.
    classes: Vec<ClassState>,
    /// Queues of the active classes; a slot is reused once its class empties, so memory
    /// follows the number of classes active at once.
    queues: Vec<ClassQueue>,
    free_slots: Vec<u32>,
    /// Active slots in round-robin order; the front is ns-2's `curr`. A class that ends
    /// its visit moves to the back; a class that becomes active joins at the back.
    ring: VecDeque<u32>,
    /// Class id of each slot (for going idle).
    class_of_slot: Vec<u32>,
    packets: usize,
    bytes: u64,
}

impl Drr {
    pub fn new(params: DrrParams) -> Self {
        Drr {
            params,
            classes: Vec::new(),
            queues: Vec::new(),
            free_slots: Vec::new(),
            ring: VecDeque::new(),
            class_of_slot: Vec::new(),
            packets: 0,
            bytes: 0,
        }
    }

    fn class_of(&self, a: &Arrival) -> u32 {
        match self.params.classify {
            Classify::Source => self.params.buckets.map_or(a.source, |n| ns2_bucket(a.source, n)),
            Classify::Flow => 2 * a.flow + (a.kind == PacketKind::Ack) as u32,
        }
    }

    /// The slot of `class`, activating it (last in the round, deficit 0) if it was idle.
    fn slot_for(&mut self, class: u32) -> u32 {
        let i = class as usize;
        if i >= self.classes.len() {
            self.classes.resize(i + 1, ClassState::Idle { kept_quantum: false });
        }
        let kept_quantum = match self.classes[i] {
            ClassState::Active { slot } => return slot,
            ClassState::Idle { kept_quantum } => kept_quantum,
        };
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.queues.push(ClassQueue::default());
            self.class_of_slot.push(0);
            (self.queues.len() - 1) as u32
        });
        let q = &mut self.queues[slot as usize];
        q.deficit = 0;
        q.had_quantum = kept_quantum;
        self.class_of_slot[slot as usize] = class;
        self.classes[i] = ClassState::Active { slot };
        self.ring.push_back(slot);
        slot
    }

    /// Marks an emptied slot's class idle and frees the slot (already out of the ring).
    fn release(&mut self, slot: u32, kept_quantum: bool) {
        let class = self.class_of_slot[slot as usize];
        self.classes[class as usize] = ClassState::Idle { kept_quantum };
        self.free_slots.push(slot);
    }

    fn over_limit(&self) -> bool {
        match self.params.limit {
            Limit::Bytes(b) => self.bytes > b,
            Limit::Packets(n) => self.packets as u64 > n,
        }
    }

    /// Ring position of the class with the most bytes; ties go to the first one from
    /// `curr` on (ns-2 `getMaxflow` replaces its candidate only on a strictly larger count).
    fn longest(&self) -> usize {
        let mut best = 0;
        let mut best_bytes = 0;
        for (pos, &slot) in self.ring.iter().enumerate() {
            let bytes = self.queues[slot as usize].fifo.bytes();
            if bytes > best_bytes {
                best = pos;
                best_bytes = bytes;
            }
        }
        best
    }

    /// Drops the head packet of the class at ring position `pos`; returns its id.
    fn push_out(&mut self, pos: usize) -> PacketId {
        let slot = self.ring[pos];
        let q = &mut self.queues[slot as usize];
        let (id, size) = q.fifo.front().expect("an active class holds packets");
        q.fifo.pop();
        self.packets -= 1;
        self.bytes -= size as u64;
        if q.fifo.is_empty() {
            // ns-2 `idle()` unlinks it without touching `turn` or the deficit.
            let kept_quantum = q.had_quantum;
            self.ring.remove(pos);
            self.release(slot, kept_quantum);
        }
        id
    }
}

impl QueueDiscipline for Drr {
    fn kind(&self) -> &'static str {
        "drr"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        let class = self.class_of(&arrival);
        let slot = self.slot_for(class);
        self.queues[slot as usize].fifo.push(arrival.id, arrival.size);
        self.packets += 1;
        self.bytes += arrival.size as u64;
        let mut verdict = Verdict::Queued;
        while self.over_limit() {
            let pos = self.longest();
            let id = self.push_out(pos);
            if id == arrival.id {
                verdict = Verdict::Dropped(DropReason::Overflow);
            } else {
                ctx.drop_held(id, DropReason::Overflow);
            }
        }
        verdict
    }

    fn observes_empty_dequeue(&self) -> bool {
        false
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        if self.packets == 0 {
            return None;
        }
        loop {
            let slot = *self.ring.front().expect("packets waiting, so a class is active");
            let q = &mut self.queues[slot as usize];
            if !q.had_quantum {
                q.deficit += self.params.quantum;
                q.had_quantum = true;
            }
            let (id, size) = q.fifo.front().expect("an active class holds packets");
            if q.deficit >= size as u64 {
                q.deficit -= size as u64;
                q.fifo.pop();
                self.packets -= 1;
                self.bytes -= size as u64;
                if q.fifo.is_empty() {
                    q.had_quantum = false;
                    self.ring.pop_front();
                    self.release(slot, false);
                }
                return Some(id);
            }
            // Not enough deficit: the visit ends, the deficit carries to the next round.
            q.had_quantum = false;
            self.ring.rotate_left(1);
        }
    }

    fn len_packets(&self) -> usize {
        self.packets
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ecn;
    use crate::queue::QueueAction;

    fn drr(limit: Limit, quantum: u64) -> Drr {
        Drr::new(DrrParams { limit, quantum, classify: Classify::Source, buckets: None })
    }

    /// A data packet sent by node `source`.
    fn from(source: u32, id: u32, size: u32) -> Arrival {
        Arrival { id, size, ecn: Ecn::NotEct, flow: source, kind: PacketKind::Data, source, rtt_hint: 0 }
    }

    /// Offers an arrival; returns the verdict and the ids pushed out.
    fn enq(q: &mut Drr, a: Arrival) -> (Verdict, Vec<PacketId>) {
        let mut actions = Vec::new();
        let v = q.enqueue(&mut QueueCtx::new(0, &mut actions), a);
        let dropped = actions
            .iter()
            .map(|a| match a {
                QueueAction::Drop(id, DropReason::Overflow) => *id,
                other => panic!("unexpected action {other:?}"),
            })
            .collect();
        (v, dropped)
    }

    fn deq(q: &mut Drr) -> Option<PacketId> {
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()))
    }

    fn drain(q: &mut Drr) -> Vec<PacketId> {
        std::iter::from_fn(|| deq(q)).collect()
    }

    /// Deficit of the class of node `source`, if active.
    fn deficit(q: &Drr, source: u32) -> Option<u64> {
        match q.classes.get(source as usize)? {
            ClassState::Active { slot } => Some(q.queues[*slot as usize].deficit),
            ClassState::Idle { .. } => None,
        }
    }

    #[test]
    fn round_robin_with_quanta_and_deficits() {
        // Quantum 500 B. A (node 0): 200, 600, 300 B; B (node 1): 500, 500; C (node 2): 1200.
        //   round 1: A 0+500: sends 200 (300 left), 600 > 300 → next.  B 500: sends 500 (0),
        //            500 > 0 → next.  C 500 < 1200 → next.
        //   round 2: A 300+500 = 800: sends 600 (200), 300 > 200 → next.  B 0+500: sends
        //            500, empty → leaves.  C 500+500 = 1000 < 1200 → next.
        //   round 3: A 200+500 = 700: sends 300, empty → leaves.  C 1500: sends 1200.
        let mut q = drr(Limit::Bytes(100_000), 500);
        for (id, (src, size)) in [(0, 200), (0, 600), (0, 300), (1, 500), (1, 500), (2, 1200)].into_iter().enumerate() {
            assert_eq!(enq(&mut q, from(src, id as u32, size)), (Verdict::Queued, vec![]));
        }
        assert_eq!(deq(&mut q), Some(0)); // A 200
        assert_eq!(deficit(&q, 0), Some(300));
        assert_eq!(deq(&mut q), Some(3)); // B 500
        assert_eq!(deficit(&q, 1), Some(0));
        assert_eq!(deq(&mut q), Some(1)); // A 600, after C's first visit
        assert_eq!((deficit(&q, 0), deficit(&q, 2)), (Some(200), Some(500)));
        assert_eq!(deq(&mut q), Some(4)); // B 500, B leaves
        assert_eq!(deficit(&q, 1), None);
        assert_eq!(drain(&mut q), vec![2, 5]); // A 300, then C 1200 in round 3
        assert_eq!((q.len_packets(), q.len_bytes(), q.ring.len()), (0, 0, 0));
    }

    #[test]
    fn equal_packets_alternate_and_a_big_quantum_sends_a_burst() {
        // Quantum 250 B < 1000 B packets: each class needs four visits per packet, so two
        // backlogged classes alternate packet by packet.
        let mut q = drr(Limit::Bytes(100_000), 250);
        for id in 0..3 {
            enq(&mut q, from(0, id, 1000));
            enq(&mut q, from(1, 10 + id, 1000));
        }
        assert_eq!(drain(&mut q), vec![0, 10, 1, 11, 2, 12]);
        // Quantum 2000 B: two 1000 B packets per visit.
        let mut q = drr(Limit::Bytes(100_000), 2000);
        for id in 0..3 {
            enq(&mut q, from(0, id, 1000));
            enq(&mut q, from(1, 10 + id, 1000));
        }
        assert_eq!(drain(&mut q), vec![0, 1, 10, 11, 2, 12]);
    }

    #[test]
    fn an_emptied_class_leaves_the_ring_and_returns_last_with_no_deficit() {
        let mut q = drr(Limit::Bytes(100_000), 1000);
        enq(&mut q, from(0, 0, 200));
        enq(&mut q, from(1, 1, 1000));
        enq(&mut q, from(1, 2, 1000));
        assert_eq!(deq(&mut q), Some(0)); // A had 1000, sent 200, is empty: gone, 800 forgotten
        assert_eq!((q.ring.len(), deficit(&q, 0)), (1, None));
        enq(&mut q, from(0, 3, 1000)); // A returns behind B
        assert_eq!(deficit(&q, 0), Some(0));
        assert_eq!(drain(&mut q), vec![1, 3, 2]);
        assert!(q.ring.is_empty() && q.free_slots.len() == q.queues.len());
    }

    #[test]
    fn a_full_buffer_drops_the_head_of_the_longest_class() {
        // 3000 B shared. A: 1000, 1000, B: 500, then A's third 1000 makes 3500 > 3000: the
        // longest class is A (3000 B) and its head (id 0) goes, not the arrival.
        let mut q = drr(Limit::Bytes(3000), 250);
        enq(&mut q, from(0, 0, 1000));
        enq(&mut q, from(0, 1, 1000));
        enq(&mut q, from(1, 2, 500));
        assert_eq!(enq(&mut q, from(0, 3, 1000)), (Verdict::Queued, vec![0]));
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 2500));
        // B (500 B) sends within its share however much A sends: A is always the victim.
        assert_eq!(enq(&mut q, from(1, 4, 500)), (Verdict::Queued, vec![]));
        assert_eq!(enq(&mut q, from(0, 5, 1000)), (Verdict::Queued, vec![1]));
        assert_eq!(enq(&mut q, from(0, 6, 1000)), (Verdict::Queued, vec![3]));
        assert_eq!((q.len_packets(), q.len_bytes()), (4, 3000));
        // B's 500 B packets need two visits at quantum 250, A's 1000 B ones four.
        assert_eq!(drain(&mut q), vec![2, 5, 4, 6]);
    }

    #[test]
    fn several_drops_until_the_arrival_fits() {
        // A: four 400 B (1600 B); B's 1500 B arrival makes 3100 > 1800 B: A is longest and
        // loses its head (2700 B left); then B (1500 B) is longer than A (1200 B), and
        // B's head is the arrival itself, which is dropped (1200 B).
        let mut q = drr(Limit::Bytes(1800), 250);
        for id in 0..4 {
            enq(&mut q, from(0, id, 400));
        }
        assert_eq!(enq(&mut q, from(1, 9, 1500)), (Verdict::Dropped(DropReason::Overflow), vec![0]));
        assert_eq!((q.len_packets(), q.len_bytes(), q.ring.len()), (3, 1200, 1));
        assert_eq!(deficit(&q, 1), None);
    }

    #[test]
    fn ties_for_longest_go_to_the_first_class_from_the_one_being_served() {
        // Quantum 1000 B, 1000 B packets: one packet per visit. 4000 B shared.
        let mut q = drr(Limit::Bytes(4000), 1000);
        for (src, id) in [(0, 0), (0, 1), (1, 10), (1, 11)] {
            enq(&mut q, from(src, id, 1000));
        }
        // Ring [A, B], A first: C's arrival (5000 B) finds A and B tied at 2000 B → A.
        assert_eq!(enq(&mut q, from(2, 20, 1000)), (Verdict::Queued, vec![0]));
        assert_eq!(deq(&mut q), Some(1)); // A sends and empties: ring [B, C]
        assert_eq!(deq(&mut q), Some(10)); // B is being served and keeps the turn
        enq(&mut q, from(0, 2, 1000));
        enq(&mut q, from(0, 3, 1000)); // ring [B, C, A]: B 1000, C 1000, A 2000
        // B's arrival: 5000 B, B and A tied at 2000 B; going round from B, B comes first
        // (A, the lower class and the earlier arrival, keeps its packets).
        assert_eq!(enq(&mut q, from(1, 12, 1000)), (Verdict::Queued, vec![11]));
        // B ends its visit (deficit 0), C sends and leaves, A sends, B, then A.
        assert_eq!(drain(&mut q), vec![20, 2, 12, 3]);
    }

    #[test]
    fn a_class_emptied_by_push_out_while_served_skips_its_next_quantum() {
        // ns-2 `idle()` leaves `turn` set on a class a push-out empties. Quantum 500 B,
        // 450 B shared.
        let mut q = drr(Limit::Bytes(450), 500);
        enq(&mut q, from(0, 1, 100));
        enq(&mut q, from(0, 2, 300));
        assert_eq!(deq(&mut q), Some(1)); // A: deficit 400, keeps the turn
        assert_eq!(enq(&mut q, from(1, 10, 150)), (Verdict::Queued, vec![])); // 450 B
        // 600 B: A and B tied at 300 B, A is being served → A's last packet goes and A
        // leaves the ring with the turn still set.
        assert_eq!(enq(&mut q, from(1, 11, 150)), (Verdict::Queued, vec![2]));
        assert!(matches!(q.classes[0], ClassState::Idle { kept_quantum: true }));
        // A returns behind B, then C behind A: ring [B, A, C].
        enq(&mut q, from(0, 3, 100));
        enq(&mut q, from(2, 20, 50));
        assert_eq!(deficit(&q, 0), Some(0));
        // B sends both. A's first visit adds no quantum (0 < 100 B), so C goes before it;
        // without the kept turn the order would be 10, 11, 3, 20.
        assert_eq!(drain(&mut q), vec![10, 11, 20, 3]);
    }

    #[test]
    fn packet_limit_counts_waiting_packets() {
        let mut q = drr(Limit::Packets(3), 250);
        for id in 0..3 {
            assert_eq!(enq(&mut q, from(0, id, 1000)), (Verdict::Queued, vec![]));
        }
        assert_eq!(enq(&mut q, from(1, 10, 40)), (Verdict::Queued, vec![0]));
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 2040));
    }

    #[test]
    fn classes_by_source_node_or_by_flow() {
        let ack = |flow, source, id| Arrival { id, size: 40, ecn: Ecn::NotEct, flow, kind: PacketKind::Ack, source, rtt_hint: 0 };
        let data = |flow, source, id| Arrival { id, size: 1000, ecn: Ecn::NotEct, flow, kind: PacketKind::Data, source, rtt_hint: 0 };
        // Flows 0 and 1 both sent by node 2; flow 0's ACKs by node 3.
        let packets = [data(0, 2, 0), data(1, 2, 1), ack(0, 3, 2)];
        let mut by_source = drr(Limit::Bytes(100_000), 250);
        let mut by_flow = Drr::new(DrrParams { classify: Classify::Flow, ..by_source.params.clone() });
        for p in packets {
            enq(&mut by_source, p);
            enq(&mut by_flow, p);
        }
        assert_eq!(by_source.ring.len(), 2); // node 2, node 3
        assert_eq!(by_flow.ring.len(), 3); // flow 0 data, flow 1 data, flow 0 ACKs
    }

    #[test]
    fn ns2_hash_buckets() {
        // h(a) = a − (a >> 4) + (a >> 8) for small a; then mod buckets_.
        let h = |a| ns2_bucket(a, 1_000_000);
        assert_eq!((h(0), h(1), h(2), h(15), h(16), h(17), h(32), h(256)), (0, 1, 2, 15, 15, 16, 30, 241));
        // With ns-2's 10 buckets, nodes 2 and 12 share a queue; 15 and 16 always do.
        assert_eq!(ns2_bucket(2, 10), ns2_bucket(12, 10));
        let mut q = Drr::new(DrrParams { buckets: Some(10), ..DrrParams::default() });
        enq(&mut q, from(2, 0, 1000));
        enq(&mut q, from(12, 1, 1000));
        assert_eq!(q.ring.len(), 1);
    }

    #[test]
    fn defaults_are_ns2s() {
        let p = DrrParams::default();
        assert_eq!((p.limit, p.quantum, p.classify, p.buckets), (Limit::Bytes(25000), 250, Classify::Source, None));
    }
}
