//! ECN over DRED: DRED that marks ECN-capable packets instead of dropping them, and whose
//! controller leaves the CE-marked packets it holds out of the queue it controls.
//!
//! R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
//! 2003 (reference document 002), §3.1.3 and §3.2, over DRED (Aweya, Ouellette and
//! Montuno, "A control theoretic approach to active queue management", Computer Networks
//! 36 (2001) 203–235; the thesis's §2.2.2). Every Δt (`dred_core.rs`):
//!
//!   e(n) = q(n) − c(n) − T,    c(n) the CE-marked packets in the queue (`CeFifo`)
//!
//! then DRED's filter and integral law, p_d(n) = clip[0,1](p_d(n−1) + α · ê(n) / B). On
//! each arrival, with q the packets waiting (the one on the wire not counted):
//! 1. q ≥ B: dropped (overflow) — the only drop of an ECN-capable packet;
//! 2. q above the marking threshold: with probability p_d an ECN-capable packet is marked
//!    (CE) and queued, a packet that is not ECN-capable dropped (early; "packets from
//!    flows that are not ECN capable will continue to be dropped by the underlying AQM",
//!    §2.2.3);
//! 3. otherwise queued.
//!
//! The marking threshold (`mark_threshold`): "target", q > T, as §3.2 writes it
//! ("Queue_Size > Target_Queue_Size") and §3.1.3 says it ("once the queue size increases
//! [beyond] the target queue size"), the default; or "no_drop", q ≥ L, DRED's no-drop
//! rule (`dred.rs`), since Table 3-1 lists L for ECN over DRED without a use.
//!
//! Choices the thesis leaves open:
//! - A packet that arrives already CE (marked by an earlier hop) counts in c(n) from its
//!   arrival; one the link marks here counts until it leaves.
//! - Every packet is subject to the rule (data or ACK).
//!
//! Parameters: `dred_core.rs` lists them with their units and defaults (B 586 packets,
//! T "auto" = B/2, L "auto" = 0.9 · T, α 0.00005, β 0.002, p_d(0) 0.05, Δt 10
//! transmission times of 576 B), plus `mark_threshold` ("target").

use super::ce_fifo::CeFifo;
use super::dred_core::{
    DredControl, DredParams, ALPHA, BETA, INITIAL_P, INTERVAL, INTERVAL_PACKETS, LIMIT, MEAN_PACKET_SIZE, NO_DROP_THRESHOLD, TARGET,
};
use super::{fifo_queue_methods, Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::{PacketId, RandomStream};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::sync::Arc;

/// The marking thresholds, as written in scenarios.
const THRESHOLDS: &[&str] = &["target", "no_drop"];

const MARK_THRESHOLD: Param = Param::new(
    "mark_threshold",
    T::Choice(THRESHOLDS),
    "",
    V::Choice("target"),
    "where marking starts: \"target\", while more than T packets wait; \"no_drop\", while at least L wait (DRED's no-drop rule)",
    "reference document 002, §3.1.3 and §3.2 (\"target\"); Table 3-1 lists L (\"no_drop\")",
);

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "ecn_dred",
    summary: "ECN over DRED (reference document 002): DRED whose error leaves out the CE-marked packets queued, e = q − c − T; above the target it marks ECN-capable arrivals with p_d (drops the others); ECN-capable packets are dropped only on overflow",
    source: "Arora, M.Eng. thesis, Carleton University, 2003, §3.1.3, §3.2, Table 3-1 (reference document 002); DRED: Aweya, Ouellette & Montuno, Computer Networks 36 (2001) 203–235",
    params: &[LIMIT, TARGET, NO_DROP_THRESHOLD, MARK_THRESHOLD, ALPHA, BETA, INITIAL_P, INTERVAL_PACKETS, MEAN_PACKET_SIZE, INTERVAL],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(EcnDredParams::from_config(c)),
    // p_d, the filtered error ê (packets) after the latest sample, and c, the CE-marked
    // packets held.
    series: &["dred_p", "dred_error_pkts", "queue_ce_pkts"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    DredParams::check(c).map(|_| ())
}

/// Where marking starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MarkThreshold {
    /// While more than T packets wait.
    Target,
    /// While at least L packets wait.
    NoDrop,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EcnDredParams {
    pub dred: DredParams,
    pub mark_threshold: MarkThreshold,
}

impl EcnDredParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        let mark_threshold = match c.choice("mark_threshold") {
            "target" => MarkThreshold::Target,
            "no_drop" => MarkThreshold::NoDrop,
            other => unreachable!("mark_threshold {other:?} is not among the registered words"),
        };
        EcnDredParams { dred: DredParams::from_config(c), mark_threshold }
    }

    /// Whether `waiting` packets are above the marking threshold.
    fn marks_at(&self, waiting: usize) -> bool {
        let q = waiting as f64;
        match self.mark_threshold {
            MarkThreshold::Target => q > self.dred.target,
            MarkThreshold::NoDrop => q >= self.dred.no_drop_threshold,
        }
    }
}

impl QueueConfig for EcnDredParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.dred.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(EcnDred::new(self, env.rate_bps, env.random))
    }

    fn limit(&self) -> Option<Limit> {
        Some(Limit::Packets(self.dred.buffer))
    }
}

#[derive(Debug)]
pub struct EcnDred {
    params: EcnDredParams,
    control: DredControl,
    buffer: usize,
    fifo: CeFifo,
    random: RandomStream,
}

impl EcnDred {
    /// ECN over DRED feeding a link of `rate_bps`, drawing from `random`.
    pub fn new(params: &EcnDredParams, rate_bps: u64, random: RandomStream) -> Self {
        EcnDred {
            params: params.clone(),
            control: DredControl::new(&params.dred, rate_bps),
            buffer: params.dred.buffer as usize,
            fifo: CeFifo::default(),
            random,
        }
    }

    /// The queue the controller sees: waiting packets less the CE-marked ones.
    fn controlled_length(&self) -> f64 {
        (self.fifo.len() - self.fifo.ce_count()) as f64
    }
}

impl QueueDiscipline for EcnDred {
    fn kind(&self) -> &'static str {
        "ecn_dred"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, a: Arrival) -> Verdict {
        self.control.start(ctx);
        let q = self.fifo.len();
        if q >= self.buffer {
            return Verdict::Dropped(DropReason::Overflow);
        }
        if self.params.marks_at(q) {
            if self.control.signals(&mut self.random) {
                if !a.ect() {
                    return Verdict::Dropped(DropReason::Early);
                }
                self.fifo.push(a.id, a.size, true);
                return Verdict::Marked;
            }
        }
        self.fifo.push(a.id, a.size, a.ce());
        Verdict::Queued
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        self.fifo.pop().map(|p| p.id)
    }

    fifo_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("dred_p", self.control.probability());
        push("dred_error_pkts", self.control.filtered_error());
        push("queue_ce_pkts", self.fifo.ce_count() as f64);
    }

    fn on_timer(&mut self, ctx: &mut QueueCtx) {
        let counted = self.controlled_length();
        self.control.on_timer(ctx, counted);
    }

    fn on_flow_start(&mut self, ctx: &mut QueueCtx, _flow: u32) {
        self.control.start(ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ecn, PacketKind};
    use crate::model::Value;
    use crate::queue::QueueAction;

    fn arrival(id: PacketId, ecn: Ecn) -> Arrival {
        Arrival { id, size: 576, ecn, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    /// ECN over DRED with the thesis's values and `changes` on a 45 Mb/s link.
    fn ecn_dred(changes: &[(&str, Value)]) -> EcnDred {
        let mut c = SPEC.defaults();
        for (name, value) in changes {
            c.set(name, value.clone());
        }
        (SPEC.check)(&c).expect("valid parameters");
        EcnDred::new(&EcnDredParams::from_config(&c), 45_000_000, RandomStream::new(1, "ecn_dred"))
    }

    /// Fills the queue to `n` packets, the first `marked` of them CE, without a decision.
    fn fill(q: &mut EcnDred, n: usize, marked: usize) {
        for i in q.fifo.len()..n {
            q.fifo.push(i as PacketId, 576, i < marked);
        }
    }

    fn offer(q: &mut EcnDred, ecn: Ecn) -> Verdict {
        let mut actions = Vec::new();
        let id = 1_000_000 + q.fifo.len() as PacketId;
        q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(id, ecn))
    }

    #[test]
    fn marks_only_above_the_target() {
        let mut q = ecn_dred(&[("initial_p", Value::Number(1.0))]);
        fill(&mut q, 293, 0);
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Queued, "293 waiting is not above T = 293");
        assert_eq!(q.fifo.ce_count(), 0);
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Marked, "294 waiting");
        assert_eq!(q.fifo.ce_count(), 1, "the marked packet counts in c");
    }

    #[test]
    fn with_the_no_drop_threshold_marks_from_l() {
        let mut q = ecn_dred(&[("initial_p", Value::Number(1.0)), ("mark_threshold", Value::Choice("no_drop"))]);
        fill(&mut q, 263, 0);
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Queued, "263 < L = 263.7");
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Marked, "264 ≥ L");
    }

    #[test]
    fn never_drops_an_ecn_capable_packet_below_overflow() {
        // p_d = 1 and every length from empty to full: ECT packets are queued or marked.
        let mut q = ecn_dred(&[("initial_p", Value::Number(1.0))]);
        for waiting in 0..586 {
            assert_eq!(q.fifo.len(), waiting);
            let v = offer(&mut q, Ecn::Ect1);
            assert!(matches!(v, Verdict::Queued | Verdict::Marked), "{waiting} waiting: {v:?}");
        }
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Dropped(DropReason::Overflow), "586 waiting");
    }

    #[test]
    fn drops_packets_that_are_not_ecn_capable_where_it_would_mark() {
        let mut q = ecn_dred(&[("initial_p", Value::Number(1.0))]);
        fill(&mut q, 300, 0);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early));
        let mut q = ecn_dred(&[("initial_p", Value::Number(1.0))]);
        fill(&mut q, 100, 0);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued, "below T");
    }

    #[test]
    fn a_packet_arriving_ce_counts_in_c() {
        let mut q = ecn_dred(&[("initial_p", Value::Number(0.0))]);
        assert_eq!(offer(&mut q, Ecn::Ce), Verdict::Queued);
        assert_eq!(offer(&mut q, Ecn::Ect0), Verdict::Queued);
        assert_eq!(q.fifo.ce_count(), 1);
        assert_eq!(q.dequeue(&mut QueueCtx::new(0, &mut Vec::new())), Some(1_000_000));
        assert_eq!(q.fifo.ce_count(), 0, "it stops counting when it leaves");
    }

    #[test]
    fn the_error_leaves_out_the_ce_marked_packets() {
        // 393 waiting, 100 of them CE: e = 393 − 100 − 293 = 0, so ê and p_d stay.
        let mut q = ecn_dred(&[]);
        fill(&mut q, 393, 100);
        let mut actions = Vec::new();
        q.on_flow_start(&mut QueueCtx::new(0, &mut actions), 0);
        q.on_timer(&mut QueueCtx::new(1_024_000_000, &mut actions));
        assert_eq!((q.control.filtered_error(), q.control.probability()), (0.0, 0.05));
        assert_eq!(actions, vec![QueueAction::Timer(1_024_000_000), QueueAction::Timer(2 * 1_024_000_000)]);
        // 393 waiting, none CE: e = 100, ê = 0.2 (DRED's sample).
        let mut plain = ecn_dred(&[]);
        fill(&mut plain, 393, 0);
        plain.on_flow_start(&mut QueueCtx::new(0, &mut Vec::new()), 0);
        plain.on_timer(&mut QueueCtx::new(1_024_000_000, &mut Vec::new()));
        assert!((plain.control.filtered_error() - 0.2).abs() < 1e-12);
        let mut sampled = Vec::new();
        q.sample(&mut |name, v| sampled.push((name, v)));
        assert_eq!(sampled, vec![("dred_p", 0.05), ("dred_error_pkts", 0.0), ("queue_ce_pkts", 100.0)]);
    }
}
