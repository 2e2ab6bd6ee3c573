//! Connection-count RED: RED whose thresholds follow the number n of connections
//! through the queue.
//!
//! Chang, "TCP Performance Analysis and Fairness Improvement in Different Congestion
//! Control Methods", M.S. thesis, National Chiao Tung University, 2004 (reference
//! document 000), Section 3.4:
//!   MinThresh = min(B, β · n),   MaxThresh = min(B, (β + 1) · n),
//! B the buffer limit in packets, β the Vegas β (3: n Vegas flows keep at most β · n
//! packets queued, so RED drops only when some flow keeps more). Everything else is RED
//! (`red.rs`, `red_core.rs`, the same parameters and defaults: `red_params.rs`).
//!
//! Where n comes from (`n_source`):
//!   "exact":  the number of active flows whose data crosses this queue: flows between
//!             their start and stop times (the simulation's `on_flow_start` /
//!             `on_flow_stop` notices, sent to each queue on the flow's data route when
//!             the flow starts and stops; a flow whose transfer has ended but whose stop
//!             time has not come still counts; a flow rerouted by dynamic routing is
//!             not announced to its new route's queues, and its old route's queues keep
//!             counting it). The thesis's experiments, Sections 4.1–4.3 ("for each
//!             connection entering").
//!   "scaled": that count times (1 + n_error), the thesis's ±10 % and ±20 % estimation
//!             errors (Section 4.2, Table 4.3).
//!   "sred":   SRED's zombie-list estimate 1/P(t) (`sred_estimator.rs`), the estimator
//!             the thesis names in Section 1.2.
//! The thresholds are set again whenever n changes: at each flow start and stop for
//! "exact" and "scaled", and at each arrival for "sred" (the thesis recomputes n "every
//! time a new packet arrives at the router", Section 3.4), before RED's decision.
//!
//! Choices the thesis leaves open:
//! - No rounding: with an error, n · (1 + e) is used as it is, so the thresholds may be
//!   fractional (n = 2, e = +10 %: 6.6 and 8.8 packets), as they would be in ns-2, whose
//!   `thresh_` and `maxthresh_` are real numbers. The thesis gives thresholds only at
//!   n = 10, where 3 · 10 · (1 ± e) is a whole number for e = ±10 % and ±20 %. The
//!   error is applied at every n during the ramp-up of its Section 4.2 (either reading
//!   of its arrival times), not only at the end.
//! - n is at least 1: a queue no active flow crosses (the reverse path of a dumbbell,
//!   which carries ACKs) gets the thresholds of one connection, β and β + 1, rather
//!   than 0, which would drop its packets early.
//! - Both thresholds clipped to B leave min_th = max_th = B: RED's linear part is empty
//!   and the gentle part (or a forced drop without gentle) begins at B.
//! - Changing the thresholds keeps RED's average, count and `old`, as setting
//!   `thresh_` on a running ns-2 queue does.
//!
//! Parameters: RED's (`red_params.rs`) except min_th, max_th and target_delay; beta 3
//! packets per connection; n_source "exact"; n_error 0; zombie_list_size 1000 and
//! overwrite_probability 0.25 (SRED's, `sred_estimator.rs`).

use super::red::{red_queue_methods, RedQueue};
use super::red_core::RedCore;
use super::red_params::{
    check_shared, Threshold, BYTES, ECN, GENTLE, LIMIT, LINTERM, MARK_P, MAX_P, MEAN_PACKET_SIZE, QUEUE_IN_BYTES, USE_MARK_P, WAIT, WEIGHT,
};
use super::sred_estimator::{SredEstimator, OVERWRITE_PROBABILITY, ZOMBIE_LIST_SIZE};
use super::{
    Arrival, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, RedParams,
    Verdict,
};
use crate::engine::{Dur, RandomStream};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::collections::BTreeSet;
use std::sync::Arc;

const THESIS: &str = "reference document 000 (Chang, M.S. thesis, NCTU, 2004), Section 3.4";

const BETA: Param = Param::new(
    "beta",
    T::Number,
    "packets per connection",
    V::Number(3.0),
    "β: min_th = min(B, β · n), max_th = min(B, (β + 1) · n), B the limit in packets (the Vegas β)",
    THESIS,
)
.range(0.0, 1e6);

/// The sources of n, as written in scenarios.
const SOURCES: &[&str] = &["exact", "scaled", "sred"];

const N_SOURCE: Param = Param::new(
    "n_source",
    T::Choice(SOURCES),
    "",
    V::Choice("exact"),
    "where n comes from: \"exact\", the active flows whose data crosses the queue; \"scaled\", that count times (1 + n_error); \"sred\", SRED's zombie-list estimate",
    "reference document 000, Sections 3.4 and 4.2 (exact and scaled), Section 1.2 (SRED)",
)
;

const N_ERROR: Param = Param::new(
    "n_error",
    T::Number,
    "",
    V::Number(0.0),
    "relative error e of n with n_source = \"scaled\": n = active flows · (1 + e), not rounded (0.2 for +20 %)",
    "reference document 000, Section 4.2, Table 4.3",
)
.range(-0.99, 100.0);

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "red_n",
    summary: "RED whose thresholds follow the number n of connections: min_th = min(B, β·n), max_th = min(B, (β+1)·n); n exact, scaled by an error, or SRED's zombie-list estimate",
    source: "reference document 000 (Chang, M.S. thesis, NCTU, 2004), Section 3.4; RED as ns-2.35 Queue/RED; SRED estimator: Ott, Lakshman & Wong, INFOCOM 1999",
    params: &[
        LIMIT,
        BETA,
        N_SOURCE,
        N_ERROR,
        ZOMBIE_LIST_SIZE,
        OVERWRITE_PROBABILITY,
        WEIGHT,
        MAX_P,
        LINTERM,
        GENTLE,
        WAIT,
        MEAN_PACKET_SIZE,
        QUEUE_IN_BYTES,
        BYTES,
        ECN,
        USE_MARK_P,
        MARK_P,
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(RedNParams::from_config(c)),
    // RED's average, the n in use and the thresholds it gives, packets.
    series: &["red_avg_pkts", "red_n", "red_min_th_pkts", "red_max_th_pkts"],
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = RedNParams::from_config(c);
    check_shared(c, &p.red)?;
    // A parameter of another source is an error unless it keeps its default (which
    // changes nothing; `tcpsim models` examples write every parameter).
    let set_away_from_default = |param: &Param| c.is_given(param.name) && *c.get(param.name) != param.default;
    if set_away_from_default(&N_ERROR) && !matches!(p.source, NSource::Scaled { .. }) {
        return Err(ParamError::new("n_error", "n_source = \"scaled\" with n_error (the error scales the exact count)"));
    }
    for param in [&ZOMBIE_LIST_SIZE, &OVERWRITE_PROBABILITY] {
        if set_away_from_default(param) && p.source != NSource::Sred {
            return Err(ParamError::new(param.name, format!("n_source = \"sred\" with {} (a parameter of SRED's estimator)", param.name)));
        }
    }
    Ok(())
}

/// Where n comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NSource {
    /// The active flows through the queue.
    Exact,
    /// The active flows times (1 + error).
    Scaled { error: f64 },
    /// SRED's estimate.
    Sred,
}

#[derive(Debug, Clone)]
pub struct RedNParams {
    /// RED's parameters; the thresholds in them are replaced as n changes.
    pub red: RedParams,
    /// β, packets per connection.
    pub beta: f64,
    pub source: NSource,
    /// SRED's M and p (used with `NSource::Sred`).
    pub zombie_list_size: usize,
    pub overwrite_probability: f64,
}

impl RedNParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        // The thresholds are set from n before the first packet; these stand for "not
        // yet" and are never used (no automatic threshold, so no target delay).
        let red = RedParams::from_shared_config(c, Threshold::Packets(0.0), Threshold::Packets(0.0), 0);
        let source = match c.get("n_source") {
            V::Choice("exact") => NSource::Exact,
            V::Choice("scaled") => NSource::Scaled { error: c.number("n_error") },
            V::Choice("sred") => NSource::Sred,
            other => unreachable!("n_source {other:?} is not among the registered words"),
        };
        RedNParams {
            red,
            beta: c.number("beta"),
            source,
            zombie_list_size: c.integer("zombie_list_size") as usize,
            overwrite_probability: c.number("overwrite_probability"),
        }
    }

    /// The buffer limit B in packets (in byte mode, limit bytes / mean_packet_size).
    pub fn buffer_packets(&self) -> f64 {
        self.red.limit_packets() as f64
    }

    /// min_th and max_th (packets) for n connections: min(B, β·n), min(B, (β+1)·n),
    /// with n at least 1.
    pub fn thresholds(&self, n: f64) -> (f64, f64) {
        let n = n.max(1.0);
        let buffer = self.buffer_packets();
        ((self.beta * n).min(buffer), ((self.beta + 1.0) * n).min(buffer))
    }

    /// n for `active` flows through the queue, for the exact and scaled sources.
    pub fn n_from_count(&self, active: usize) -> f64 {
        match self.source {
            NSource::Scaled { error } => active as f64 * (1.0 + error),
            NSource::Exact | NSource::Sred => active as f64,
        }
    }
}

impl QueueConfig for RedNParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.red.check_limit(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(RedN::new(self.clone(), env.rate_bps, env.delay, env.random))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.red.limit)
    }
}

/// Connection-count RED: a FIFO, the RED core with thresholds set from n, and ECN
/// marking as in `red.rs`.
#[derive(Debug)]
pub struct RedN {
    params: RedNParams,
    queue: RedQueue,
    /// The active flows through this queue (exact and scaled sources).
    active: BTreeSet<u32>,
    /// SRED's estimator (sred source).
    estimator: Option<SredEstimator>,
    /// The n the thresholds were last set from.
    n: f64,
}

impl RedN {
    /// Connection-count RED feeding a link direction of `rate_bps` and `delay`; RED
    /// draws from `random`, SRED's estimator from a stream seeded by the first draw of
    /// a copy of it (RED's own draws are those of any RED queue).
    pub fn new(params: RedNParams, rate_bps: u64, delay: Dur, random: RandomStream) -> Self {
        let estimator = (params.source == NSource::Sred).then(|| {
            let seed = (random.clone().uniform() * (1u64 << 53) as f64) as u64;
            SredEstimator::new(params.zombie_list_size, params.overwrite_probability, RandomStream::new(seed, "sred zombie list"))
        });
        let queue = RedQueue::new(RedCore::new(params.red.clone(), rate_bps, delay, random));
        let mut q = RedN { params, queue, active: BTreeSet::new(), estimator, n: f64::NAN };
        let n = q.current_n();
        q.set_n(n);
        q
    }

    /// The n its source gives now.
    fn current_n(&self) -> f64 {
        match &self.estimator {
            Some(e) => e.estimate(),
            None => self.params.n_from_count(self.active.len()),
        }
    }

    fn set_n(&mut self, n: f64) {
        if n != self.n {
            self.n = n;
            let (min_th, max_th) = self.params.thresholds(n);
            self.queue.core.set_thresholds(min_th, max_th);
        }
    }

    /// The n in use.
    pub fn n(&self) -> f64 {
        self.n
    }

    /// min_th and max_th (packets) in use.
    pub fn thresholds(&self) -> (f64, f64) {
        let s = self.queue.core.settings();
        (s.min_th, s.max_th)
    }
}

impl QueueDiscipline for RedN {
    fn kind(&self) -> &'static str {
        "red_n"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        if let Some(estimator) = &mut self.estimator {
            estimator.on_arrival(arrival.flow);
            let n = estimator.estimate();
            self.set_n(n);
        }
        self.queue.enqueue(ctx.now, arrival)
    }

    red_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        let (min_th, max_th) = self.thresholds();
        push("red_avg_pkts", self.queue.core.average_packets());
        push("red_n", self.n);
        push("red_min_th_pkts", min_th);
        push("red_max_th_pkts", max_th);
    }

    fn on_flow_start(&mut self, _ctx: &mut QueueCtx, flow: u32) {
        self.active.insert(flow);
        if self.estimator.is_none() {
            let n = self.current_n();
            self.set_n(n);
        }
    }

    fn on_flow_stop(&mut self, _ctx: &mut QueueCtx, flow: u32) {
        self.active.remove(&flow);
        if self.estimator.is_none() {
            let n = self.current_n();
            self.set_n(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ecn, PacketKind};

    fn config(pairs: &[(&'static str, V)]) -> ModelConfig {
        let mut c = SPEC.defaults();
        for (key, value) in pairs {
            c.set(key, value.clone());
        }
        c
    }

    fn queue(pairs: &[(&'static str, V)]) -> RedN {
        RedN::new(RedNParams::from_config(&config(pairs)), 2_000_000, 0, RandomStream::new(1, "red_n test"))
    }

    fn start(q: &mut RedN, flows: std::ops::Range<u32>) {
        for flow in flows {
            q.on_flow_start(&mut QueueCtx::new(0, &mut Vec::new()), flow);
        }
    }

    fn stop(q: &mut RedN, flow: u32) {
        q.on_flow_stop(&mut QueueCtx::new(0, &mut Vec::new()), flow);
    }

    #[test]
    fn thresholds_are_beta_n_and_beta_plus_one_n_clipped_to_the_buffer() {
        // The thesis's Section 4.1: n = 5 → 15/20, n = 10 → 30/40 with B = 100.
        let p = RedNParams::from_config(&config(&[("limit", V::Limit(Limit::Packets(100)))]));
        assert_eq!(p.thresholds(5.0), (15.0, 20.0));
        assert_eq!(p.thresholds(10.0), (30.0, 40.0));
        // Clipping: 3 · 30 = 90 < 100 but 4 · 30 = 120 → 100; from n = 34 on both are B.
        assert_eq!(p.thresholds(30.0), (90.0, 100.0));
        assert_eq!(p.thresholds(33.0), (99.0, 100.0));
        assert_eq!(p.thresholds(34.0), (100.0, 100.0));
        // Section 4.3's R3: n = 2, B = 20 → 6/8; n = 5 → 15/20; n = 6 → 18/20 (max clipped).
        let small = RedNParams::from_config(&config(&[("limit", V::Limit(Limit::Packets(20)))]));
        assert_eq!(small.thresholds(2.0), (6.0, 8.0));
        assert_eq!(small.thresholds(5.0), (15.0, 20.0));
        assert_eq!(small.thresholds(6.0), (18.0, 20.0));
        // No connection counts as one.
        assert_eq!(small.thresholds(0.0), (3.0, 4.0));
    }

    #[test]
    fn a_byte_limit_counts_packets_of_mean_packet_size() {
        let p = RedNParams::from_config(&config(&[("limit", V::Limit(Limit::Bytes(50_000))), ("mean_packet_size", V::Size(1000))]));
        assert_eq!(p.buffer_packets(), 50.0);
        assert_eq!(p.thresholds(20.0), (50.0, 50.0));
    }

    #[test]
    fn exact_n_follows_flow_starts_and_stops() {
        let mut q = queue(&[("limit", V::Limit(Limit::Packets(100)))]);
        assert_eq!((q.n(), q.thresholds()), (0.0, (3.0, 4.0)), "no flow yet: one connection's thresholds");
        start(&mut q, 0..2);
        assert_eq!((q.n(), q.thresholds()), (2.0, (6.0, 8.0)));
        start(&mut q, 2..10);
        assert_eq!((q.n(), q.thresholds()), (10.0, (30.0, 40.0)));
        start(&mut q, 3..4); // a second notice of the same flow changes nothing
        assert_eq!(q.n(), 10.0);
        stop(&mut q, 4);
        assert_eq!((q.n(), q.thresholds()), (9.0, (27.0, 36.0)));
        let s = q.queue.core.settings();
        assert_eq!((s.min_th, s.max_th), (27.0, 36.0), "the RED core uses them");
    }

    #[test]
    fn scaled_n_is_not_rounded() {
        // Table 4.3 at n = 10: +20 % → 36/48, −20 % → 24/32, ±10 % → 33/44, 27/36.
        for (error, min_th, max_th) in [(0.2, 36.0, 48.0), (0.1, 33.0, 44.0), (-0.1, 27.0, 36.0), (-0.2, 24.0, 32.0)] {
            let mut q = queue(&[("limit", V::Limit(Limit::Packets(100))), ("n_source", V::Choice("scaled")), ("n_error", V::Number(error))]);
            start(&mut q, 0..10);
            let (min, max) = q.thresholds();
            assert!((min - min_th).abs() < 1e-9 && (max - max_th).abs() < 1e-9, "error {error}: {min}/{max}");
        }
        // During the ramp-up the error applies unrounded: 2 flows at +10 % → n = 2.2,
        // thresholds 6.6/8.8; 1 flow at −20 % → n = 0.8, raised to 1: 3/4.
        let mut q = queue(&[("n_source", V::Choice("scaled")), ("n_error", V::Number(0.1)), ("limit", V::Limit(Limit::Packets(100)))]);
        start(&mut q, 0..2);
        let (min, max) = q.thresholds();
        assert!((q.n() - 2.2).abs() < 1e-12 && (min - 6.6).abs() < 1e-12 && (max - 8.8).abs() < 1e-12, "{min}/{max}");
        let mut q = queue(&[("n_source", V::Choice("scaled")), ("n_error", V::Number(-0.2))]);
        start(&mut q, 0..1);
        assert_eq!(q.thresholds(), (3.0, 4.0));
    }

    #[test]
    fn sred_sets_the_thresholds_from_its_estimate_at_each_arrival() {
        let mut q = queue(&[("n_source", V::Choice("sred")), ("zombie_list_size", V::Integer(10)), ("limit", V::Limit(Limit::Packets(100)))]);
        assert_eq!(q.n(), 10.0, "no hit yet: n = M");
        assert_eq!(q.thresholds(), (30.0, 40.0));
        start(&mut q, 0..50); // flow notices do not move an estimated n
        assert_eq!(q.n(), 10.0);
        let mut actions = Vec::new();
        for id in 0..2000 {
            let a = Arrival { id, size: 1000, ecn: Ecn::NotEct, flow: 7, kind: PacketKind::Data, source: 0, rtt_hint: 0 };
            q.enqueue(&mut QueueCtx::new(id as u64 * 1_000_000_000, &mut actions), a);
            q.dequeue(&mut QueueCtx::new(id as u64 * 1_000_000_000, &mut actions));
        }
        // One flow: every comparison hits, P = 1 − (1 − 0.025)^1990, n = 1/P ≈ 1.
        assert!((q.n() - 1.0).abs() < 1e-9, "n {}", q.n());
        let (min, max) = q.thresholds();
        assert!((min - 3.0).abs() < 1e-9 && (max - 4.0).abs() < 1e-9, "{min}/{max}");
    }

    #[test]
    fn parameters_of_another_source_are_rejected() {
        let err = check(&config(&[("n_error", V::Number(0.1))])).unwrap_err();
        assert_eq!(err.key, "n_error");
        let err = check(&config(&[("zombie_list_size", V::Integer(500))])).unwrap_err();
        assert_eq!(err.key, "zombie_list_size");
        let err = check(&config(&[("n_source", V::Choice("scaled")), ("overwrite_probability", V::Number(0.5))])).unwrap_err();
        assert_eq!(err.key, "overwrite_probability");
        // Written at their defaults they change nothing and pass (`tcpsim models`
        // examples write every parameter).
        assert!(check(&config(&[("n_error", V::Number(0.0)), ("zombie_list_size", V::Integer(1000))])).is_ok());
        assert!(check(&config(&[("n_source", V::Choice("sred")), ("overwrite_probability", V::Number(0.5))])).is_ok());
        assert!(check(&config(&[("n_source", V::Choice("scaled")), ("n_error", V::Number(-0.2))])).is_ok());
    }
}
