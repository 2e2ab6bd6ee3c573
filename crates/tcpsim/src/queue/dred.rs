//! DRED: a FIFO whose drop probability an integral controller moves so that the queue
//! stays at a target.
//!
//! J. Aweya, M. Ouellette and D. Y. Montuno, "A control theoretic approach to active
//! queue management", Computer Networks 36 (2001) 203–235, as R. M. Arora, "TCP/IP
//! Networks with ECN over AQM", M.Eng. thesis, Carleton University, 2003 (reference
//! document 002) uses it: §2.2.2 (the control law), Table 2-2 (recommended values),
//! Table 3-1 (the values used). The control law, its parameters and the sampling timer
//! are in `dred_core.rs`: every Δt, p_d(n) = clip[0,1](p_d(n−1) + α · ê(n) / B) with ê
//! the filtered error q − T.
//!
//! On each arrival, with q the packets waiting (the one on the wire not counted):
//! 1. q ≥ B: dropped (overflow);
//! 2. `no_drop_rule` and q < L: queued;
//! 3. otherwise dropped (early) with probability p_d, else queued.
//!
//! Choices the thesis leaves open:
//! - How L is used (its §2.2.2 lists it, "keep link utilization high", and says no
//!   more): the original DRED's rule, no drop while the instantaneous queue is below L,
//!   is the default (`no_drop_rule = true`); false drops with p_d at any length.
//! - Every packet is subject to the rule (data or ACK; the thesis's bottleneck carries
//!   only data).
//! - B counts waiting packets: a buffer of 586 holds 586 besides the one being sent.
//!
//! Parameters: `dred_core.rs` lists them with their units and defaults (B 586 packets,
//! T "auto" = B/2, L "auto" = 0.9 · T, α 0.00005, β 0.002, p_d(0) 0.05, Δt 10
//! transmission times of 576 B), plus `no_drop_rule` (true).

use super::dred_core::{
    DredControl, DredParams, ALPHA, BETA, INITIAL_P, INTERVAL, INTERVAL_PACKETS, LIMIT, MEAN_PACKET_SIZE, NO_DROP_RULE, NO_DROP_THRESHOLD,
    TARGET,
};
use super::{fifo_queue_methods, Arrival, DropReason, Fifo, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::{PacketId, RandomStream};
use crate::model::{Family, ModelConfig, ModelSpec, ParamError, Relations};
use std::sync::Arc;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "dred",
    summary: "Dynamic RED: every Δt an integral controller moves the drop probability p_d by α·ê/B, ê the low-pass-filtered error q − T, so the queue stays at the target T; no early drop below the no-drop threshold L",
    source: "Aweya, Ouellette & Montuno, \"A control theoretic approach to active queue management\", Computer Networks 36 (2001) 203–235; reference document 002 (Arora, M.Eng. thesis, Carleton, 2003) §2.2.2, Tables 2-2 and 3-1",
    params: &[LIMIT, TARGET, NO_DROP_THRESHOLD, NO_DROP_RULE, ALPHA, BETA, INITIAL_P, INTERVAL_PACKETS, MEAN_PACKET_SIZE, INTERVAL],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(DredQueueParams::from_config(c)),
    // p_d and the filtered error ê (packets) after the latest sample.
    series: &["dred_p", "dred_error_pkts"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    DredParams::check(c).map(|_| ())
}

/// DRED's parameters and its no-drop rule.
#[derive(Debug, Clone, PartialEq)]
pub struct DredQueueParams {
    pub dred: DredParams,
    /// No early drop while fewer than L packets wait.
    pub no_drop_rule: bool,
}

impl DredQueueParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        DredQueueParams { dred: DredParams::from_config(c), no_drop_rule: c.boolean("no_drop_rule") }
    }
}

impl QueueConfig for DredQueueParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.dred.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(Dred::new(self, env.rate_bps, env.random))
    }

    fn limit(&self) -> Option<Limit> {
        Some(Limit::Packets(self.dred.buffer))
    }
}

#[derive(Debug)]
pub struct Dred {
    control: DredControl,
    buffer: usize,
    /// L, or 0 without the no-drop rule (no queue is below 0).
    no_drop_below: f64,
    fifo: Fifo,
    random: RandomStream,
}

impl Dred {
    /// DRED feeding a link of `rate_bps`, drawing from `random`.
    pub fn new(params: &DredQueueParams, rate_bps: u64, random: RandomStream) -> Self {
        Dred {
            control: DredControl::new(&params.dred, rate_bps),
            buffer: params.dred.buffer as usize,
            no_drop_below: if params.no_drop_rule { params.dred.no_drop_threshold } else { 0.0 },
            fifo: Fifo::default(),
            random,
        }
    }
}

impl QueueDiscipline for Dred {
    fn kind(&self) -> &'static str {
        "dred"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, a: Arrival) -> Verdict {
        self.control.start(ctx);
        let q = self.fifo.len();
        if q >= self.buffer {
            return Verdict::Dropped(DropReason::Overflow);
        }
        if (q as f64) >= self.no_drop_below {
            if self.control.signals(&mut self.random) {
                return Verdict::Dropped(DropReason::Early);
            }
        }
        self.fifo.push(a.id, a.size);
        Verdict::Queued
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        self.fifo.pop()
    }

    fifo_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("dred_p", self.control.probability());
        push("dred_error_pkts", self.control.filtered_error());
    }

    fn on_timer(&mut self, ctx: &mut QueueCtx) {
        self.control.on_timer(ctx, self.fifo.len() as f64);
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

    fn arrival(id: PacketId) -> Arrival {
        Arrival { id, size: 576, ecn: Ecn::NotEct, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    /// DRED with the thesis's values and `changes` on a 45 Mb/s link.
    fn dred(changes: &[(&str, Value)]) -> Dred {
        let mut c = SPEC.defaults();
        for (name, value) in changes {
            c.set(name, value.clone());
        }
        (SPEC.check)(&c).expect("valid parameters");
        Dred::new(&DredQueueParams::from_config(&c), 45_000_000, RandomStream::new(1, "dred"))
    }

    /// Fills the queue to `n` packets without a decision (as if they had been queued).
    fn fill(q: &mut Dred, n: usize) {
        for id in q.fifo.len()..n {
            q.fifo.push(id as PacketId, 576);
        }
    }

    fn offer(q: &mut Dred) -> Verdict {
        let mut actions = Vec::new();
        let id = 1_000_000 + q.fifo.len() as PacketId;
        q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(id))
    }

    #[test]
    fn the_defaults_are_the_thesis_values() {
        let p = DredQueueParams::from_config(&SPEC.defaults());
        assert_eq!((p.dred.buffer, p.dred.target), (586, 293.0));
        assert!((p.dred.no_drop_threshold - 263.7).abs() < 1e-9);
        assert!(p.no_drop_rule);
        let q = Dred::new(&p, 45_000_000, RandomStream::new(1, "dred"));
        assert_eq!(q.control.interval(), 1_024_000_000, "10 packets of 576 B at 45 Mb/s");
        assert_eq!(q.control.probability(), 0.05);
    }

    #[test]
    fn no_early_drop_below_l_with_the_rule() {
        // p_d = 1: every packet the rule leaves to p_d is dropped.
        let mut q = dred(&[("initial_p", Value::Number(1.0))]);
        fill(&mut q, 263);
        assert_eq!(offer(&mut q), Verdict::Queued, "263 < L = 263.7");
        assert_eq!(q.fifo.len(), 264);
        assert_eq!(offer(&mut q), Verdict::Dropped(DropReason::Early), "264 ≥ L");
    }

    #[test]
    fn without_the_rule_p_d_applies_at_any_length() {
        let mut q = dred(&[("initial_p", Value::Number(1.0)), ("no_drop_rule", Value::Bool(false))]);
        assert_eq!(offer(&mut q), Verdict::Dropped(DropReason::Early), "an empty queue");
        let mut q = dred(&[("initial_p", Value::Number(0.0)), ("no_drop_rule", Value::Bool(false))]);
        fill(&mut q, 500);
        assert_eq!(offer(&mut q), Verdict::Queued, "p_d = 0 drops nothing");
    }

    #[test]
    fn a_fixed_l_is_used_as_given() {
        let mut q = dred(&[("initial_p", Value::Number(1.0)), ("no_drop_threshold", Value::Number(10.0))]);
        fill(&mut q, 9);
        assert_eq!(offer(&mut q), Verdict::Queued);
        assert_eq!(offer(&mut q), Verdict::Dropped(DropReason::Early));
    }

    #[test]
    fn an_arrival_finding_b_packets_is_an_overflow() {
        let mut q = dred(&[("initial_p", Value::Number(0.0))]);
        fill(&mut q, 585);
        assert_eq!(offer(&mut q), Verdict::Queued, "585 waiting: room for one more");
        assert_eq!(offer(&mut q), Verdict::Dropped(DropReason::Overflow), "586 waiting");
        assert_eq!(q.len_packets(), 586);
    }

    #[test]
    fn drops_happen_at_about_p_d() {
        // p_d = 0.05 and a queue held at 300 (≥ L): about 5 % of 20 000 arrivals.
        let mut q = dred(&[]);
        fill(&mut q, 300);
        let mut drops = 0;
        for _ in 0..20_000 {
            if offer(&mut q) == Verdict::Dropped(DropReason::Early) {
                drops += 1;
            } else {
                q.fifo.pop_back();
            }
        }
        // Binomial(20 000, 0.05): mean 1000, σ ≈ 31.
        assert!((880..1120).contains(&drops), "{drops} early drops");
    }

    #[test]
    fn the_timer_samples_the_waiting_packets() {
        let mut q = dred(&[]);
        fill(&mut q, 393);
        let mut actions = Vec::new();
        q.on_flow_start(&mut QueueCtx::new(0, &mut actions), 0);
        assert_eq!(actions, vec![QueueAction::Timer(1_024_000_000)]);
        actions.clear();
        q.on_timer(&mut QueueCtx::new(1_024_000_000, &mut actions));
        // e = 393 − 293 = 100, ê = 0.2.
        let mut sampled = Vec::new();
        q.sample(&mut |name, v| sampled.push((name, v)));
        assert!(sampled[0].0 == "dred_p" && (sampled[0].1 - (0.05 + 0.00005 * 0.2 / 586.0)).abs() < 1e-15);
        assert!((sampled[1].1 - 0.2).abs() < 1e-12 && sampled[1].0 == "dred_error_pkts");
        assert_eq!(actions, vec![QueueAction::Timer(2 * 1_024_000_000)]);
    }

    #[test]
    fn the_checks_name_the_key() {
        let bad = |name: &str, value: Value| {
            let mut c = SPEC.defaults();
            c.set(name, value);
            (SPEC.check)(&c).expect_err("rejected").key
        };
        assert_eq!(bad("limit", Value::Limit(Limit::Bytes(100_000))), "limit");
        assert_eq!(bad("target", Value::Number(600.0)), "target");
        assert_eq!(bad("no_drop_threshold", Value::Number(587.0)), "no_drop_threshold");
        assert_eq!(bad("interval_packets", Value::Number(0.0)), "interval_packets");
        let mut c = SPEC.defaults();
        c.set("interval", Value::Time(1_000_000_000));
        c.set("interval_packets", Value::Number(10.0));
        assert!((SPEC.check)(&c).is_ok(), "interval_packets at its default changes nothing");
        c.set("interval_packets", Value::Number(5.0));
        assert_eq!((SPEC.check)(&c).expect_err("Δt given twice").key, "interval_packets");
    }
}
