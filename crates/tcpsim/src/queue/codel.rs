//! CoDel: a FIFO that drops (or marks) at dequeue when the packets' sojourn time has
//! stayed above a target for an interval.
//!
//! K. Nichols, V. Jacobson, A. McGregor and J. Iyengar, "Controlled Delay Active Queue
//! Management", RFC 8289, 2018. The state machine (RFC 8289 §5: `dodequeue`, `dequeue`,
//! the control law of §4.2 and the re-entry rule) is in `codel_core.rs`, which FQ-CoDel's
//! flow queues share.
//!
//! Enqueue: an arrival that finds `limit` packets (or bytes) waiting is dropped
//! (overflow; the packet on the wire is not counted), else it is queued with its time.
//! Dequeue: `CodelState::dequeue`, whose drops are early drops of held packets.
//!
//! Parameters and defaults, ns-3's `CoDelQueueDisc` (3.44): `limit` 1500 packets
//! (MaxSize "1500p"; Linux 1000), `target` 5 ms, `interval` 100 ms, `mtu` 1500 B
//! (MinBytes), `ecn` false (UseEcn; Linux also off by default).
//!
//! Choices and deviations (docs/models/codel.md): the control law is exact, not Linux's
//! fixed-point Newton step; ns-3's `CeThreshold` and L4S mode are not implemented.

use super::codel_core::{CodelFifo, CodelParams, CodelState, HeldPacket, INTERVAL, MTU, TARGET};
use super::{fifo_queue_methods, Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::PacketId;
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::sync::Arc;

const NS3: &str = "ns-3.44 CoDelQueueDisc default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "codel",
    summary: "CoDel (RFC 8289): drops, or marks ECN-capable packets, at dequeue once the sojourn time has stayed above target for an interval, then at intervals shrinking as interval/√count",
    source: "Nichols, Jacobson, McGregor & Iyengar, RFC 8289 (2018); ns-3 CoDelQueueDisc; Linux sch_codel",
    params: &[
        Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(1500)), "buffer: an arrival finding this many packets (or bytes with it) waiting is dropped, the one on the wire not counted (ns-3 MaxSize)", NS3),
        TARGET,
        INTERVAL,
        MTU,
        Param::new("ecn", T::Bool, "", V::Bool(false), "mark ECN-capable packets (CE) instead of dropping them (ns-3 UseEcn)", NS3),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(CodelQueueParams::from_config(c)),
    // 1 while in the dropping state, else 0; the drop count of the dropping state.
    series: &["codel_dropping", "codel_count"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if matches!(c.limit("limit"), Limit::Packets(0) | Limit::Bytes(0)) {
        return Err(ParamError::new("limit", "a limit that can hold at least one packet"));
    }
    Ok(())
}

/// A byte limit must hold the largest packet.
pub(crate) fn check_capacity(limit: Limit, link: &QueueLink) -> Result<(), String> {
    match limit {
        Limit::Bytes(b) if b < link.largest_packet as u64 => Err(format!("a limit of at least the largest packet ({} B)", link.largest_packet)),
        _ => Ok(()),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CodelQueueParams {
    pub limit: Limit,
    pub codel: CodelParams,
}

impl CodelQueueParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        CodelQueueParams { limit: c.limit("limit"), codel: CodelParams::from_config(c) }
    }
}

impl QueueConfig for CodelQueueParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        check_capacity(self.limit, link)
    }

    fn build(&self, _env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(Codel::new(self.clone()))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

#[derive(Debug)]
pub struct Codel {
    params: CodelQueueParams,
    fifo: CodelFifo,
    state: CodelState,
}

impl Codel {
    pub fn new(params: CodelQueueParams) -> Self {
        Codel { params, fifo: CodelFifo::default(), state: CodelState::default() }
    }
}

impl QueueDiscipline for Codel {
    fn kind(&self) -> &'static str {
        "codel"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, a: Arrival) -> Verdict {
        let full = match self.params.limit {
            Limit::Packets(n) => self.fifo.len() as u64 >= n,
            Limit::Bytes(b) => self.fifo.bytes() + a.size as u64 > b,
        };
        if full {
            return Verdict::Dropped(DropReason::Overflow);
        }
        self.fifo.push(HeldPacket { id: a.id, size: a.size, enqueued_at: ctx.now, ect: a.ect() && !a.ce() });
        Verdict::Queued
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        self.state.dequeue(&self.params.codel, &mut self.fifo, ctx).map(|p| p.id)
    }

    // RFC 8289's dequeue of an empty queue clears `first_above_time` and leaves the
    // dropping state. Skipping it changes nothing: the dequeue that emptied the queue
    // left no bytes behind (≤ `mtu`), which cleared `first_above_time`, so the next
    // packet's dequeue is not ok to drop and leaves the dropping state itself.
    fifo_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("codel_dropping", if self.state.dropping() { 1.0 } else { 0.0 });
        push("codel_count", self.state.count() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_MS;
    use crate::engine::{Ecn, PacketKind};
    use crate::model::Value;
    use crate::queue::QueueAction;

    fn codel(changes: &[(&str, Value)]) -> Codel {
        let mut c = SPEC.defaults();
        for (name, value) in changes {
            c.set(name, value.clone());
        }
        (SPEC.check)(&c).expect("valid parameters");
        Codel::new(CodelQueueParams::from_config(&c))
    }

    fn arrival(id: PacketId, ecn: Ecn) -> Arrival {
        Arrival { id, size: 1000, ecn, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    #[test]
    fn the_defaults_are_ns3s() {
        let p = CodelQueueParams::from_config(&SPEC.defaults());
        assert_eq!(p.limit, Limit::Packets(1500));
        assert_eq!(p.codel, CodelParams { target: 5 * PS_PER_MS, interval: 100 * PS_PER_MS, mtu: 1500, ecn: false });
    }

    #[test]
    fn an_arrival_finding_limit_packets_waiting_overflows() {
        let mut q = codel(&[("limit", Value::Limit(Limit::Packets(3)))]);
        let mut actions = Vec::new();
        for id in 0..3 {
            assert_eq!(q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(id, Ecn::NotEct)), Verdict::Queued);
        }
        assert_eq!(q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(3, Ecn::NotEct)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 3000));
        let mut q = codel(&[("limit", Value::Limit(Limit::Bytes(2500)))]);
        assert_eq!(q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(0, Ecn::NotEct)), Verdict::Queued);
        assert_eq!(q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(1, Ecn::NotEct)), Verdict::Queued);
        assert_eq!(q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(2, Ecn::NotEct)), Verdict::Dropped(DropReason::Overflow));
    }

    #[test]
    fn drops_at_dequeue_and_marks_with_ecn() {
        // (ecn, the packets' codepoint, what happens to the head packet 1 at 110 ms)
        for (ecn, ect, expect) in [(false, Ecn::Ect0, QueueAction::Drop(1, DropReason::Early)), (true, Ecn::Ect0, QueueAction::Mark(1)), (true, Ecn::NotEct, QueueAction::Drop(1, DropReason::Early)), (true, Ecn::Ce, QueueAction::Drop(1, DropReason::Early))] {
            let mut q = codel(&[("ecn", Value::Bool(ecn))]);
            let mut actions = Vec::new();
            for id in 0..10 {
                q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(id, ect));
            }
            // Packet 0 leaves at 10 ms after 10 ms: the interval starts; at 110 ms CoDel acts.
            q.dequeue(&mut QueueCtx::new(10 * PS_PER_MS, &mut actions));
            assert!(actions.is_empty());
            let sent = q.dequeue(&mut QueueCtx::new(110 * PS_PER_MS, &mut actions));
            assert_eq!(actions, vec![expect], "ecn {ecn}, {ect:?}");
            assert_eq!(sent, if matches!(expect, QueueAction::Mark(_)) { Some(1) } else { Some(2) }, "a marked packet leaves");
            let mut sampled = Vec::new();
            q.sample(&mut |name, v| sampled.push((name, v)));
            assert_eq!(sampled, vec![("codel_dropping", 1.0), ("codel_count", 1.0)]);
        }
    }

    #[test]
    fn the_checks_name_the_key() {
        let mut c = SPEC.defaults();
        c.set("limit", Value::Limit(Limit::Packets(0)));
        assert_eq!((SPEC.check)(&c).expect_err("rejected").key, "limit");
    }
}
