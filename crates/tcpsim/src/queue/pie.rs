//! PIE: Proportional Integral controller Enhanced, a FIFO whose drop probability follows
//! the queueing delay.
//!
//! R. Pan, P. Natarajan, F. Baker and G. White, "Proportional Integral Controller
//! Enhanced (PIE): A Lightweight Control Scheme to Address the Bufferbloat Problem",
//! RFC 8033, February 2017. Every `t_update` (§4.2):
//!
//!   Δp = α · (qdelay − target) + β · (qdelay − qdelay_old)          α, β in 1/s, delays in s
//!   Δp /= 2048, 512, 128, 32, 8, 2 while p < 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1   (auto-tuning)
//!   Δp  = min(Δp, 0.02) if p ≥ 0.1 and `cap_drop_adjustment`         (§5.5)
//!   p   = p + Δp;  p = 0.98 · p if qdelay = qdelay_old = 0            (decay of an idle queue)
//!   p   = clip[0, 1](p)
//!   burst_allowance = max(0, burst_allowance − t_update)              (§4.4)
//!   burst_allowance = max_burst if p = 0 and qdelay, qdelay_old < target / 2
//!   qdelay_old = qdelay
//!
//! On each arrival, with the bytes and packets waiting (the one on the wire not counted):
//! 1. the limit is exceeded: dropped (overflow);
//! 2. no early drop while burst_allowance > 0, or qdelay_old < target / 2 and p < 0.2, or
//!    at most 2 packets wait (byte limit: at most 2 · `mean_packet_size` bytes) (§4.1);
//! 3. with `derandomize` (§5.1, "accu_prob"): accu_prob += p (reset to 0 when p = 0);
//!    no drop while accu_prob < 0.85, a drop once accu_prob ≥ 8.5, a random draw between;
//! 4. otherwise a random draw with p (byte limit: p · size / `mean_packet_size`); on a hit
//!    an ECN-capable packet is marked instead if `ecn` and p ≤ `mark_ecn_threshold`
//!    (§5.1), else dropped (early). Every drop resets accu_prob to 0.
//!
//! qdelay (§4.3): `delay_estimator = "timestamp"` (the default, as ns-3's PieQueueDisc):
//! the sojourn time of the latest packet to leave, 0 when it leaves the queue empty.
//! `"rate"` (§4.3 and the RFC's appendix): the waiting bytes divided by the departure rate,
//! measured in cycles that start at a departure leaving at least `dq_threshold` bytes and
//! end once `dq_threshold` bytes have left; the rate is averaged 0.5 / 0.5 with the
//! previous cycle's (ns-3); 0 before the first cycle ends. As in ns-3, the average is
//! forgotten when p = 0 and both delays are below target / 2, so a new busy period
//! measures afresh.
//!
//! Choices the RFC leaves open, and where ns-3 (pie-queue-disc.cc, 3.40 and 3.44) and Linux
//! (sch_pie.c) differ — the docs page lists them too:
//! - The update timer runs from t = 0 every `t_update`; it is started at the queue's first
//!   arrival or flow notice (the updates before that see an empty queue and change
//!   nothing), at the first multiple of `t_update` after then.
//! - Burst allowance follows the RFC: it starts full and is refilled whenever the queue is
//!   calm (p = 0, both delays below target / 2); the controller keeps updating p while
//!   the allowance lasts. ns-3 instead starts the allowance at the first packet that
//!   reaches the early-drop test and holds p at 0 while it lasts.
//! - The "at most 2 packets" test counts the waiting packets (RFC pseudocode and ns-3:
//!   `≤ 2`; Linux: fewer than 2 MTUs of bytes).
//! - The no-drop test reads qdelay_old (RFC, ns-3); Linux reads the current delay.
//! - PIE is always active (ns-3's ActiveThreshold off; the RFC's optional activation at a
//!   third of the buffer is not implemented).
//! - `limit` defaults to 1000 packets (Linux's default; ns-3's MaxSize default is 25
//!   packets); a packet limit counts the waiting packets: an arrival finding `limit` is
//!   dropped.
//! - ECN marks while p ≤ `mark_ecn_threshold` (Linux's `prob <= MAX_PROB / 10`; ns-3
//!   marks while p < MarkEcnThreshold).
//!
//! Parameters (units and defaults in `SPEC`): `limit` 1000 packets, `target` 15 ms,
//! `t_update` 15 ms, `alpha` 0.125 /s, `beta` 1.25 /s, `max_burst` 150 ms,
//! `delay_estimator` "timestamp", `dq_threshold` 16384 B, `mean_packet_size` 1000 B,
//! `ecn` false, `mark_ecn_threshold` 0.1, `cap_drop_adjustment` true, `derandomize` false
//! — ns-3.44's PieQueueDisc attribute defaults (read from the ns3 3.44.post0 wheel; the same in 3.40's source) except `limit`.

use super::{fifo_queue_methods, Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, TimedFifo, Verdict};
use crate::engine::time::{self, Dur, SimTime};
use crate::engine::{PacketId, RandomStream};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::sync::Arc;

const RFC: &str = "RFC 8033 (Pan et al., 2017)";
const NS3: &str = "ns-3.44 PieQueueDisc attribute default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "pie",
    summary: "PIE: every t_update the drop probability moves by α·(qdelay − target) + β·(qdelay − qdelay_old), auto-tuned by its size; random drop (or ECN mark) at enqueue, with a burst allowance and no drop while the delay is low",
    source: "RFC 8033 (Pan, Natarajan, Baker & White, \"Proportional Integral Controller Enhanced (PIE)\", 2017) §4–5; defaults of ns-3.44 PieQueueDisc",
    params: &[
        Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(1000)), "buffer limit on the waiting packets (or bytes): an arrival that would exceed it is dropped", "Linux sch_pie default limit (ns-3's MaxSize default is 25 packets)"),
        Param::new("target", T::Time, "s", V::Time(15 * time::PS_PER_MS), "the queueing delay PIE holds (QDELAY_REF)", RFC).range(1e-9, 1e6),
        Param::new("t_update", T::Time, "s", V::Time(15 * time::PS_PER_MS), "interval between updates of the drop probability", RFC).range(1e-9, 1e6),
        Param::new("alpha", T::Number, "1/s", V::Number(0.125), "gain α on the delay error qdelay − target", RFC).range(0.0, 1e6),
        Param::new("beta", T::Number, "1/s", V::Number(1.25), "gain β on the delay change qdelay − qdelay_old", RFC).range(0.0, 1e6),
        Param::new("max_burst", T::Time, "s", V::Time(150 * time::PS_PER_MS), "burst allowance: no early drop until this much calm-to-busy time has passed", RFC).range(0.0, 1e6),
        Param::new(
            "delay_estimator",
            T::Choice(&["timestamp", "rate"]),
            "",
            V::Choice("timestamp"),
            "how qdelay is measured: \"timestamp\", the sojourn of the latest departing packet; \"rate\", waiting bytes over the measured departure rate",
            "RFC 8033 §4.3; ns-3 UseDequeueRateEstimator default false",
        ),
        Param::new("dq_threshold", T::Size, "B", V::Size(16384), "bytes a departure-rate measurement cycle needs (delay_estimator = \"rate\")", "RFC 8033 §4.3 (DQ_THRESHOLD 16 KB)").range(1.0, 1e12),
        Param::new("mean_packet_size", T::Size, "B", V::Size(1000), "with a byte limit: p is scaled by size / mean_packet_size, and at most 2 of them waiting means no drop", NS3).range(1.0, 4294967295.0),
        Param::new("ecn", T::Bool, "", V::Bool(false), "mark ECN-capable packets instead of dropping them while p ≤ mark_ecn_threshold", "RFC 8033 §5.1; ns-3 UseEcn default false"),
        Param::new("mark_ecn_threshold", T::Number, "", V::Number(0.1), "largest p at which ECN-capable packets are marked rather than dropped", "RFC 8033 §5.1 (10 %)").range(0.0, 1.0),
        Param::new("cap_drop_adjustment", T::Bool, "", V::Bool(true), "limit each increase of p to 0.02 once p ≥ 0.1", "RFC 8033 §5.5; ns-3 UseCapDropAdjustment default true"),
        Param::new("derandomize", T::Bool, "", V::Bool(false), "derandomized drops through the accumulated probability accu_prob", "RFC 8033 §5.1 (optional); ns-3 UseDerandomization default false"),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(PieParams::from_config(c)),
    // p and the qdelay of the latest update.
    series: &["pie_p", "pie_qdelay_s"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    match c.limit("limit") {
        Limit::Packets(0) | Limit::Bytes(0) => Err(ParamError::new("limit", "a limit that can hold at least one packet")),
        _ => Ok(()),
    }
}

/// Auto-tuning of α and β (RFC 8033 §4.2): while p is below each bound, Δp is divided by
/// the divisor beside it; from 0.1 on it is used whole.
const AUTO_TUNING: [(f64, f64); 6] = [(1e-6, 2048.0), (1e-5, 512.0), (1e-4, 128.0), (1e-3, 32.0), (1e-2, 8.0), (0.1, 2.0)];
/// Decay of p per update while the queue stays empty (RFC 8033 §4.2).
const IDLE_DECAY: f64 = 0.98;
/// Cap drop adjustment (RFC 8033 §5.5): from p ≥ 0.1 on, p rises by at most 0.02 an update.
const CAP_FROM_P: f64 = 0.1;
const CAP_STEP: f64 = 0.02;
/// No early drop while qdelay_old < target / 2 and p < 0.2 (RFC 8033 §4.1).
const LOW_DELAY_P: f64 = 0.2;
/// No early drop while at most this many packets wait (RFC 8033 §4.1).
const FEW_PACKETS: u64 = 2;
/// Derandomization bounds on accu_prob (RFC 8033 §5.1).
const ACCU_NEVER_BELOW: f64 = 0.85;
const ACCU_ALWAYS_FROM: f64 = 8.5;
/// Weight of the newest cycle in the average departure rate (ns-3; see the header).
const RATE_WEIGHT: f64 = 0.5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayEstimator {
    /// The sojourn time of the latest departing packet.
    Timestamp,
    /// Waiting bytes over the measured departure rate.
    Rate,
}

/// PIE's typed parameters (see `SPEC` for each).
#[derive(Debug, Clone, PartialEq)]
pub struct PieParams {
    pub limit: Limit,
    pub target: Dur,
    pub t_update: Dur,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst: Dur,
    pub estimator: DelayEstimator,
    pub dq_threshold: u64,
    pub mean_packet_size: u64,
    pub ecn: bool,
    pub mark_ecn_threshold: f64,
    pub cap_drop_adjustment: bool,
    pub derandomize: bool,
}

impl PieParams {
    /// Typed parameters; every default is the spec's.
    pub fn from_config(c: &ModelConfig) -> Self {
        PieParams {
            limit: c.limit("limit"),
            target: c.time("target"),
            t_update: c.time("t_update"),
            alpha: c.number("alpha"),
            beta: c.number("beta"),
            max_burst: c.time("max_burst"),
            estimator: match c.choice("delay_estimator") {
                "rate" => DelayEstimator::Rate,
                _ => DelayEstimator::Timestamp,
            },
            dq_threshold: c.size("dq_threshold"),
            mean_packet_size: c.size("mean_packet_size"),
            ecn: c.boolean("ecn"),
            mark_ecn_threshold: c.number("mark_ecn_threshold"),
            cap_drop_adjustment: c.boolean("cap_drop_adjustment"),
            derandomize: c.boolean("derandomize"),
        }
    }
}

impl QueueConfig for PieParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        match self.limit {
            Limit::Bytes(b) if b < link.largest_packet as u64 => Err(format!("a limit of at least the largest packet ({} B)", link.largest_packet)),
            _ => Ok(()),
        }
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(Pie::new(self.clone(), env.random))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

/// The departure-rate measurement of `delay_estimator = "rate"` (RFC 8033 §4.3).
#[derive(Debug, Default)]
struct RateMeter {
    /// Start of the current cycle, if one is under way.
    cycle_start: Option<SimTime>,
    /// Bytes departed in the current cycle.
    cycle_bytes: u64,
    /// Average departure rate, bytes per second; 0 while unknown.
    bytes_per_s: f64,
}

impl RateMeter {
    /// A packet of `size` bytes left at `now`, leaving `waiting` bytes.
    fn on_departure(&mut self, now: SimTime, size: u32, waiting: u64, threshold: u64) {
        if self.cycle_start.is_none() && waiting >= threshold {
            self.cycle_start = Some(now);
            self.cycle_bytes = 0;
        }
        let Some(start) = self.cycle_start else { return };
        self.cycle_bytes += size as u64;
        if self.cycle_bytes < threshold {
            return;
        }
        let elapsed = time::to_secs(now - start);
        if elapsed > 0.0 {
            let rate = self.cycle_bytes as f64 / elapsed;
            self.bytes_per_s = if self.bytes_per_s == 0.0 { rate } else { (1.0 - RATE_WEIGHT) * self.bytes_per_s + RATE_WEIGHT * rate };
        }
        self.cycle_bytes = 0;
        self.cycle_start = if waiting > threshold { Some(now) } else { None };
    }
}

#[derive(Debug)]
pub struct Pie {
    params: PieParams,
    fifo: TimedFifo,
    random: RandomStream,
    /// Drop probability p.
    p: f64,
    /// qdelay at the latest update, seconds.
    qdelay_old: f64,
    /// The timestamp estimator's latest sojourn, seconds.
    latest_sojourn: f64,
    rate: RateMeter,
    /// Time left before random drops may start.
    burst_allowance: Dur,
    accu_prob: f64,
    /// When the next update is due; `None` until the first call into the queue.
    next_update: Option<SimTime>,
}

impl Pie {
    pub fn new(params: PieParams, random: RandomStream) -> Self {
        let burst_allowance = params.max_burst;
        Pie {
            params,
            fifo: TimedFifo::default(),
            random,
            p: 0.0,
            qdelay_old: 0.0,
            latest_sojourn: 0.0,
            rate: RateMeter::default(),
            burst_allowance,
            accu_prob: 0.0,
            next_update: None,
        }
    }

    /// The drop probability p.
    pub fn probability(&self) -> f64 {
        self.p
    }

    /// The current queueing delay estimate, seconds.
    fn current_qdelay(&self) -> f64 {
        match self.params.estimator {
            DelayEstimator::Timestamp => self.latest_sojourn,
            DelayEstimator::Rate if self.rate.bytes_per_s > 0.0 => self.fifo.bytes() as f64 / self.rate.bytes_per_s,
            DelayEstimator::Rate => 0.0,
        }
    }

    /// One update of p (the header's law).
    fn update(&mut self) {
        let qdelay = self.current_qdelay();
        let target = time::to_secs(self.params.target);
        let mut delta = self.params.alpha * (qdelay - target) + self.params.beta * (qdelay - self.qdelay_old);
        if let Some(&(_, divisor)) = AUTO_TUNING.iter().find(|(below, _)| self.p < *below) {
            delta /= divisor;
        }
        if self.params.cap_drop_adjustment && self.p >= CAP_FROM_P && delta > CAP_STEP {
            delta = CAP_STEP;
        }
        let mut p = self.p + delta;
        if qdelay == 0.0 && self.qdelay_old == 0.0 {
            p *= IDLE_DECAY;
        }
        self.p = p.clamp(0.0, 1.0);
        self.burst_allowance = self.burst_allowance.saturating_sub(self.params.t_update);
        let calm = self.p == 0.0 && qdelay < target / 2.0 && self.qdelay_old < target / 2.0;
        if calm {
            self.burst_allowance = self.params.max_burst;
            self.rate.bytes_per_s = 0.0;
        }
        self.qdelay_old = qdelay;
    }

    /// Called on every entry that may be the queue's first: asks for the first update at
    /// the first multiple of `t_update` after now (those before saw an empty queue).
    #[inline(always)]
    fn start(&mut self, ctx: &mut QueueCtx) {
        if self.next_update.is_none() {
            let first = (ctx.now / self.params.t_update + 1) * self.params.t_update;
            self.next_update = Some(first);
            ctx.set_timer(first);
        }
    }

    /// Whether the arrival of `size` bytes is chosen for an early drop (or mark).
    fn drop_early(&mut self, size: u32) -> bool {
        if self.burst_allowance > 0 {
            return false;
        }
        if self.qdelay_old < time::to_secs(self.params.target) / 2.0 && self.p < LOW_DELAY_P {
            return false;
        }
        let mut p = self.p;
        match self.params.limit {
            Limit::Packets(_) if self.fifo.len() as u64 <= FEW_PACKETS => return false,
            Limit::Bytes(_) if self.fifo.bytes() <= FEW_PACKETS * self.params.mean_packet_size => return false,
            Limit::Bytes(_) => p = p * size as f64 / self.params.mean_packet_size as f64,
            Limit::Packets(_) => {}
        }
        if self.params.derandomize {
            if self.p == 0.0 {
                self.accu_prob = 0.0;
            }
            self.accu_prob += self.p;
            if self.accu_prob < ACCU_NEVER_BELOW {
                return false;
            }
            if self.accu_prob >= ACCU_ALWAYS_FROM {
                return true;
            }
        }
        self.random.uniform() < p
    }

    fn full(&self, size: u32) -> bool {
        match self.params.limit {
            Limit::Packets(n) => self.fifo.len() as u64 >= n,
            Limit::Bytes(b) => self.fifo.bytes() + size as u64 > b,
        }
    }
}

impl QueueDiscipline for Pie {
    fn kind(&self) -> &'static str {
        "pie"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, a: Arrival) -> Verdict {
        self.start(ctx);
        if self.full(a.size) {
            self.accu_prob = 0.0;
            return Verdict::Dropped(DropReason::Overflow);
        }
        let mut verdict = Verdict::Queued;
        if self.drop_early(a.size) {
            if self.params.ecn && a.ect() && self.p <= self.params.mark_ecn_threshold {
                verdict = Verdict::Marked;
            } else {
                self.accu_prob = 0.0;
                return Verdict::Dropped(DropReason::Early);
            }
        }
        self.fifo.push(a.id, a.size, ctx.now);
        verdict
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        let q = self.fifo.pop()?;
        match self.params.estimator {
            DelayEstimator::Timestamp => {
                self.latest_sojourn = if self.fifo.is_empty() { 0.0 } else { time::to_secs(ctx.now - q.enqueued_at) };
            }
            DelayEstimator::Rate => self.rate.on_departure(ctx.now, q.size, self.fifo.bytes(), self.params.dq_threshold),
        }
        Some(q.id)
    }

    fifo_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("pie_p", self.p);
        push("pie_qdelay_s", self.qdelay_old);
    }

    fn on_timer(&mut self, ctx: &mut QueueCtx) {
        self.update();
        let next = ctx.now + self.params.t_update;
        self.next_update = Some(next);
        ctx.set_timer(next);
    }

    fn on_flow_start(&mut self, ctx: &mut QueueCtx, _flow: u32) {
        self.start(ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ecn, PacketKind};
    use crate::model::Value;
    use crate::queue::QueueAction;

    const MS: f64 = 1e-3;

    fn arrival(id: PacketId, ecn: Ecn) -> Arrival {
        Arrival { id, size: 1000, ecn, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    /// PIE with its defaults and `changes`.
    fn pie(changes: &[(&str, Value)]) -> Pie {
        let mut c = SPEC.defaults();
        for (name, value) in changes {
            c.set(name, value.clone());
        }
        (SPEC.check)(&c).expect("valid parameters");
        Pie::new(PieParams::from_config(&c), RandomStream::new(1, "pie"))
    }

    /// Fills the queue to `n` packets of 1000 B without a decision.
    fn fill(q: &mut Pie, n: usize) {
        for id in q.fifo.len()..n {
            q.fifo.push(id as PacketId, 1000, 0);
        }
    }

    fn offer(q: &mut Pie, ecn: Ecn) -> Verdict {
        let mut actions = Vec::new();
        let id = 1_000_000 + q.fifo.len() as PacketId;
        q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(id, ecn))
    }

    /// A queue past its burst allowance, in the busy state (qdelay_old above target / 2).
    fn busy(changes: &[(&str, Value)], p: f64) -> Pie {
        let mut q = pie(changes);
        q.burst_allowance = 0;
        q.qdelay_old = 20.0 * MS;
        q.p = p;
        q
    }

    #[test]
    fn the_defaults_are_ns3s() {
        let p = PieParams::from_config(&SPEC.defaults());
        assert_eq!((p.target, p.t_update, p.max_burst), (15 * time::PS_PER_MS, 15 * time::PS_PER_MS, 150 * time::PS_PER_MS));
        assert_eq!((p.alpha, p.beta, p.mark_ecn_threshold), (0.125, 1.25, 0.1));
        assert_eq!((p.estimator, p.dq_threshold, p.mean_packet_size), (DelayEstimator::Timestamp, 16384, 1000));
        assert!(!p.ecn && p.cap_drop_adjustment && !p.derandomize);
        assert_eq!(p.limit, Limit::Packets(1000));
    }

    #[test]
    fn the_update_law_at_p_above_a_tenth_is_undivided() {
        // p = 0.15, qdelay 25 ms, qdelay_old 20 ms: Δp = 0.125 · 0.010 + 1.25 · 0.005
        // = 0.00125 + 0.00625 = 0.0075 (below the 0.02 cap).
        let mut q = busy(&[], 0.15);
        q.latest_sojourn = 25.0 * MS;
        q.update();
        assert!((q.p - 0.1575).abs() < 1e-12, "{}", q.p);
        assert_eq!(q.qdelay_old, 25.0 * MS);
    }

    #[test]
    fn the_auto_tuning_ladder_divides_by_the_size_of_p() {
        // Δp = 0.125 · (0.035 − 0.015) + 1.25 · (0.035 − 0.020) = 0.0025 + 0.01875 = 0.02125.
        let delta = 0.02125;
        for (p, divisor) in [(0.0, 2048.0), (5e-6, 512.0), (5e-5, 128.0), (5e-4, 32.0), (5e-3, 8.0), (0.05, 2.0)] {
            let mut q = busy(&[], p);
            q.latest_sojourn = 35.0 * MS;
            q.update();
            assert!((q.p - (p + delta / divisor)).abs() < 1e-15, "p = {p}: {}", q.p);
        }
        // Each bound belongs to the rung above it: p = 1e-6 is divided by 512, not 2048.
        let mut q = busy(&[], 1e-6);
        q.latest_sojourn = 35.0 * MS;
        q.update();
        assert!((q.p - (1e-6 + delta / 512.0)).abs() < 1e-15);
    }

    #[test]
    fn from_p_a_tenth_each_rise_is_capped_at_0_02_unless_asked_not_to() {
        let mut q = busy(&[], 0.1);
        q.latest_sojourn = 35.0 * MS;
        q.update();
        assert!((q.p - 0.12).abs() < 1e-12, "Δp 0.02125 capped at 0.02: {}", q.p);
        let mut q = busy(&[("cap_drop_adjustment", Value::Bool(false))], 0.1);
        q.latest_sojourn = 35.0 * MS;
        q.update();
        assert!((q.p - 0.12125).abs() < 1e-12, "{}", q.p);
    }

    #[test]
    fn an_empty_queue_decays_p_and_p_stays_within_0_and_1() {
        // qdelay = qdelay_old = 0: Δp = −0.125 · 0.015 = −0.001875, at p = 0.5 undivided;
        // then · 0.98.
        let mut q = busy(&[], 0.5);
        q.qdelay_old = 0.0;
        q.update();
        assert!((q.p - (0.5 - 0.001875) * 0.98).abs() < 1e-12, "{}", q.p);
        let mut q = busy(&[], 0.0);
        q.qdelay_old = 0.0;
        q.update();
        assert_eq!(q.p, 0.0, "never below 0");
        let mut q = busy(&[("cap_drop_adjustment", Value::Bool(false))], 0.999);
        q.latest_sojourn = 2.0;
        q.update();
        assert_eq!(q.p, 1.0, "never above 1");
    }

    #[test]
    fn no_random_drop_while_burst_allowance_remains() {
        let mut q = busy(&[], 1.0);
        q.burst_allowance = time::PS_PER_MS;
        fill(&mut q, 100);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued);
        q.burst_allowance = 0;
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early));
    }

    #[test]
    fn burst_allowance_runs_down_by_t_update_and_refills_when_calm() {
        let mut q = pie(&[]);
        assert_eq!(q.burst_allowance, 150 * time::PS_PER_MS, "starts full");
        q.latest_sojourn = 30.0 * MS;
        for left in (0..10).rev() {
            q.update();
            assert_eq!(q.burst_allowance, left * 15 * time::PS_PER_MS);
        }
        q.update();
        assert_eq!(q.burst_allowance, 0, "stays at 0");
        // Calm again: p back to 0 and two delays below 7.5 ms.
        q.p = 0.0;
        q.latest_sojourn = 0.0;
        q.update();
        assert_eq!(q.burst_allowance, 0, "qdelay_old was 30 ms");
        q.update();
        assert_eq!((q.p, q.burst_allowance), (0.0, 150 * time::PS_PER_MS));
    }

    #[test]
    fn no_drop_at_low_delay_and_low_p() {
        // qdelay_old < target / 2 = 7.5 ms and p < 0.2: no drop; p ≥ 0.2 drops anyway.
        let mut q = busy(&[], 0.19);
        q.qdelay_old = 7.4 * MS;
        fill(&mut q, 100);
        for _ in 0..200 {
            assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued);
            q.fifo.pop_back();
        }
        q.p = 1.0;
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early), "p = 1 ≥ 0.2");
        let mut q = busy(&[], 1.0);
        q.qdelay_old = 7.5 * MS;
        fill(&mut q, 100);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early), "qdelay_old = target / 2");
    }

    #[test]
    fn no_drop_with_at_most_two_packets_waiting() {
        let mut q = busy(&[], 1.0);
        fill(&mut q, 2);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued, "2 waiting");
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early), "3 waiting");
        // Byte limit: at most 2 · mean_packet_size bytes.
        let mut q = busy(&[("limit", Value::Limit(Limit::Bytes(1_000_000)))], 1.0);
        fill(&mut q, 2);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued, "2000 B waiting");
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early), "3000 B waiting");
    }

    #[test]
    fn drops_happen_at_about_p_and_byte_mode_scales_by_size() {
        // p = 0.3 with 100 waiting: Binomial(20 000, 0.3), mean 6000, σ ≈ 65.
        let count = |q: &mut Pie, size: u32| {
            let mut drops = 0;
            for i in 0..20_000u32 {
                let mut actions = Vec::new();
                let a = Arrival { size, ..arrival(2_000_000 + i, Ecn::NotEct) };
                if q.enqueue(&mut QueueCtx::new(0, &mut actions), a) == Verdict::Dropped(DropReason::Early) {
                    drops += 1;
                } else {
                    q.fifo.pop_back();
                }
            }
            drops
        };
        let mut q = busy(&[], 0.3);
        fill(&mut q, 100);
        let drops = count(&mut q, 1000);
        assert!((5740..6260).contains(&drops), "{drops}");
        // Byte limit, 500 B packets: p · 500 / 1000 = 0.15: mean 3000, σ ≈ 50.
        let mut q = busy(&[("limit", Value::Limit(Limit::Bytes(1_000_000)))], 0.3);
        fill(&mut q, 100);
        let drops = count(&mut q, 500);
        assert!((2800..3200).contains(&drops), "{drops}");
    }

    #[test]
    fn ect_packets_are_marked_while_p_is_at_most_the_threshold() {
        // Derandomization with accu_prob past 8.5 makes the next arrival a hit without a
        // draw, so the threshold's boundary can be pinned at the default 0.1.
        let hit = |p: f64, ecn: Ecn, changes: &[(&str, Value)]| {
            let mut q = busy(changes, p);
            fill(&mut q, 100);
            q.accu_prob = 8.45;
            offer(&mut q, ecn)
        };
        let on = [("ecn", Value::Bool(true)), ("derandomize", Value::Bool(true))];
        assert_eq!(hit(0.1, Ecn::Ect0, &on), Verdict::Marked, "p = 0.1 ≤ 0.1");
        assert_eq!(hit(0.1, Ecn::Ce, &on), Verdict::Marked, "CE is ECN-capable");
        assert_eq!(hit(0.1, Ecn::NotEct, &on), Verdict::Dropped(DropReason::Early), "not ECN-capable");
        assert_eq!(hit(0.100001, Ecn::Ect0, &on), Verdict::Dropped(DropReason::Early), "p > 0.1");
        let off = [("derandomize", Value::Bool(true))];
        assert_eq!(hit(0.1, Ecn::Ect0, &off), Verdict::Dropped(DropReason::Early), "ecn off");
    }

    #[test]
    fn derandomization_bounds_the_gap_between_drops() {
        // p = 0.1: accu_prob reaches 0.85 only at the 9th arrival, so the first 8 are
        // never dropped; with p = 1 and accu_prob ≥ 8.5 every arrival is.
        let mut q = busy(&[("derandomize", Value::Bool(true))], 0.1);
        fill(&mut q, 100);
        for n in 1..=8 {
            assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued, "arrival {n}");
            q.fifo.pop_back();
        }
        q.accu_prob = 8.45;
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Early), "accu_prob 8.55 ≥ 8.5: a drop without a draw");
        assert_eq!(q.accu_prob, 0.0, "a drop resets accu_prob");
    }

    #[test]
    fn an_arrival_finding_the_limit_is_an_overflow() {
        let mut q = pie(&[("limit", Value::Limit(Limit::Packets(5)))]);
        fill(&mut q, 4);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Overflow));
        let mut q = pie(&[("limit", Value::Limit(Limit::Bytes(4500)))]);
        fill(&mut q, 3);
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Queued, "4000 B");
        assert_eq!(offer(&mut q, Ecn::NotEct), Verdict::Dropped(DropReason::Overflow), "5000 B > 4500");
    }

    #[test]
    fn the_timestamp_estimator_reads_the_latest_sojourn() {
        let mut q = pie(&[]);
        let mut actions = Vec::new();
        q.fifo.push(1, 1000, 0);
        q.fifo.push(2, 1000, 4 * time::PS_PER_MS);
        q.dequeue(&mut QueueCtx::new(20 * time::PS_PER_MS, &mut actions));
        assert!((q.current_qdelay() - 20.0 * MS).abs() < 1e-15);
        q.dequeue(&mut QueueCtx::new(30 * time::PS_PER_MS, &mut actions));
        assert_eq!(q.current_qdelay(), 0.0, "the queue left empty");
    }

    #[test]
    fn the_rate_estimator_divides_the_backlog_by_the_measured_rate() {
        // 40 packets of 1000 B leave 1 ms apart (1 MB/s). The cycle starts at the first
        // departure leaving ≥ 16384 B and ends once 16384 B have left: 17 packets, the
        // first at t = 1 ms, the 17th at 17 ms: 17 000 B in 16 ms.
        let mut q = pie(&[("delay_estimator", Value::Choice("rate"))]);
        fill(&mut q, 40);
        let mut actions = Vec::new();
        for k in 1..=17u64 {
            q.dequeue(&mut QueueCtx::new(k * time::PS_PER_MS, &mut actions));
        }
        let rate = 17_000.0 / 0.016;
        assert!((q.rate.bytes_per_s - rate).abs() < 1e-6, "{}", q.rate.bytes_per_s);
        // 23 packets waiting: qdelay = 23 000 B / rate.
        assert!((q.current_qdelay() - 23_000.0 / rate).abs() < 1e-12);
        // The next cycle (23 000 > 16 384 waiting) starts at 17 ms.
        assert_eq!(q.rate.cycle_start, Some(17 * time::PS_PER_MS));
        // Before any cycle, the delay is 0.
        let q = pie(&[("delay_estimator", Value::Choice("rate"))]);
        assert_eq!(q.current_qdelay(), 0.0);
    }

    #[test]
    fn the_measured_rate_is_forgotten_when_the_queue_is_calm() {
        let mut q = pie(&[("delay_estimator", Value::Choice("rate"))]);
        q.rate.bytes_per_s = 1e6;
        q.qdelay_old = 10.0 * MS;
        fill(&mut q, 10);
        // 10 000 B at 1 MB/s: 10 ms, not calm; the rate is kept.
        q.update();
        assert_eq!(q.rate.bytes_per_s, 1e6);
        // 1 packet: 1 ms now, 10 ms before: not calm yet (qdelay_old ≥ 7.5 ms).
        while q.fifo.len() > 1 {
            q.fifo.pop();
        }
        q.p = 0.0;
        q.update();
        assert_eq!(q.rate.bytes_per_s, 1e6);
        // 1 ms twice with p = 0: calm, the average is dropped and the allowance refilled.
        q.update();
        assert_eq!((q.p, q.rate.bytes_per_s, q.burst_allowance), (0.0, 0.0, 150 * time::PS_PER_MS));
    }

    #[test]
    fn a_flow_start_also_starts_the_timer() {
        let mut q = pie(&[]);
        let mut actions = Vec::new();
        q.on_flow_start(&mut QueueCtx::new(0, &mut actions), 3);
        assert_eq!(actions, vec![QueueAction::Timer(15 * time::PS_PER_MS)]);
    }

    #[test]
    fn the_update_timer_starts_at_the_first_arrival_and_repeats_every_t_update() {
        let mut q = pie(&[]);
        let mut actions = Vec::new();
        q.enqueue(&mut QueueCtx::new(20 * time::PS_PER_MS, &mut actions), arrival(1, Ecn::NotEct));
        assert_eq!(actions, vec![QueueAction::Timer(30 * time::PS_PER_MS)], "the next multiple of 15 ms");
        actions.clear();
        q.enqueue(&mut QueueCtx::new(21 * time::PS_PER_MS, &mut actions), arrival(2, Ecn::NotEct));
        assert!(actions.is_empty(), "asked once");
        q.on_timer(&mut QueueCtx::new(30 * time::PS_PER_MS, &mut actions));
        assert_eq!(actions, vec![QueueAction::Timer(45 * time::PS_PER_MS)]);
        let mut sampled = Vec::new();
        q.sample(&mut |name, v| sampled.push((name, v)));
        assert_eq!(sampled.iter().map(|s| s.0).collect::<Vec<_>>(), MODEL.series);
    }

    #[test]
    fn the_check_names_the_key() {
        let mut c = SPEC.defaults();
        c.set("limit", Value::Limit(Limit::Packets(0)));
        assert_eq!((SPEC.check)(&c).expect_err("rejected").key, "limit");
    }
}
