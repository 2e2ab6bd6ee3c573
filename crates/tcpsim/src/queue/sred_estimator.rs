//! SRED's estimate of the number of active flows, from its zombie list.
//!
//! Ott, Lakshman & Wong, "SRED: Stabilized RED", Proc. IEEE INFOCOM '99, pp. 1346–1355,
//! doi:10.1109/INFCOM.1999.752153, Section II ("zombie list", hit frequency) and its
//! Proposition on 1/P(t). Used by connection-count RED (`red_n.rs`, `n_source =
//! "sred"`), which reference document 000 (Chang, M.S. thesis, National Chiao Tung
//! University, 2004, Section 1.2) names as a way to learn n at the router.
//!
//! The zombie list holds the flow identifiers of up to M recent arrivals. For every
//! arriving packet of flow f:
//!   - while the list has fewer than M entries, f is added to it (no comparison);
//!   - once it is full, one entry z is drawn uniformly at random:
//!       Hit(t) = 1 if z = f,
//!       Hit(t) = 0 otherwise, and then with probability p entry z is overwritten by f;
//!     and the hit frequency is updated
//!       P(t) = (1 − α) · P(t − 1) + α · Hit(t),    α = p / M.
//! With each arrival belonging to flow i with probability π_i, a full list holds the
//! flows in the same proportions, so E[Hit] = Σ π_i², and 1/P(t) estimates the number of
//! active flows (exactly N when N flows send equally).
//!
//! Parameters (defaults, the paper's): M = 1000 entries (`zombie_list_size`), p = 0.25
//! (`overwrite_probability`); α = p/M = 1/4000: P(t) forgets with a time constant of
//! M/p = 4000 arrivals, the time in which the list itself is renewed.
//!
//! Choices the paper leaves open (no ns-2 SRED exists to follow):
//! - P(0) = 0, and P is updated only once the list is full. Until the first hit the
//!   estimate is M (the most flows M entries can tell apart); 1/P(t) is capped at M
//!   thereafter too. Starting high errs on the safe side for connection-count RED: an
//!   overestimate of n raises its thresholds, and the thesis notes that underestimates
//!   cause losses.
//! - The flow identifier is the scenario's flow index, for every packet kind (a queue
//!   that carries a flow's ACKs counts them as that flow).
//! - The per-zombie count and timestamp of the paper, used to find misbehaving flows,
//!   are not kept: the estimate does not need them.
//! - The estimator draws from a stream of its own, so the RED drops of a queue using
//!   it are decided by the queue's stream as for any RED queue.

use crate::engine::RandomStream;
use crate::model::{Param, ParamType as T, Value as V};

const PAPER: &str = "Ott, Lakshman & Wong, SRED, INFOCOM 1999, Section II";

/// M: the entries of the zombie list.
pub(crate) const ZOMBIE_LIST_SIZE: Param = Param::new(
    "zombie_list_size",
    T::Integer,
    "flows",
    V::Integer(1000),
    "M, the entries of SRED's zombie list (n_source = \"sred\"); the hit frequency's weight is overwrite_probability / M",
    PAPER,
)
.range(1.0, 1e7);

/// p: the probability that a miss overwrites the entry it was compared with.
pub(crate) const OVERWRITE_PROBABILITY: Param = Param::new(
    "overwrite_probability",
    T::Number,
    "",
    V::Number(0.25),
    "p, the probability that an arrival that missed replaces the zombie it was compared with (n_source = \"sred\")",
    PAPER,
)
.range(1e-9, 1.0);

/// The zombie list and the hit frequency P(t) of the module header.
#[derive(Debug)]
pub struct SredEstimator {
    zombies: Vec<u32>,
    capacity: usize,
    overwrite_probability: f64,
    /// α = p / M.
    weight: f64,
    /// P(t).
    hit_frequency: f64,
    random: RandomStream,
}

impl SredEstimator {
    /// A list of `capacity` (M) entries that a miss overwrites with probability
    /// `overwrite_probability` (p), drawing from `random`.
    pub fn new(capacity: usize, overwrite_probability: f64, random: RandomStream) -> Self {
        assert!(capacity > 0, "a zombie list of at least one entry");
        SredEstimator {
            zombies: Vec::with_capacity(capacity),
            capacity,
            overwrite_probability,
            weight: overwrite_probability / capacity as f64,
            hit_frequency: 0.0,
            random,
        }
    }

    /// A packet of `flow` arrived.
    pub fn on_arrival(&mut self, flow: u32) {
        if self.zombies.len() < self.capacity {
            self.zombies.push(flow);
            return;
        }
        let index = ((self.random.uniform() * self.capacity as f64) as usize).min(self.capacity - 1);
        let hit = self.zombies[index] == flow;
        if !hit && self.random.uniform() < self.overwrite_probability {
            self.zombies[index] = flow;
        }
        let hit = if hit { 1.0 } else { 0.0 };
        self.hit_frequency = (1.0 - self.weight) * self.hit_frequency + self.weight * hit;
    }

    /// P(t).
    pub fn hit_frequency(&self) -> f64 {
        self.hit_frequency
    }

    /// The estimated number of active flows: 1/P(t), at most M (M before the first hit).
    pub fn estimate(&self) -> f64 {
        let most = self.capacity as f64;
        if self.hit_frequency * most > 1.0 { 1.0 / self.hit_frequency } else { most }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimator(seed: u64) -> SredEstimator {
        SredEstimator::new(1000, 0.25, RandomStream::new(seed, "sred test"))
    }

    #[test]
    fn the_list_fills_before_any_comparison_and_the_estimate_starts_at_m() {
        let mut e = SredEstimator::new(4, 0.25, RandomStream::new(1, "sred test"));
        for flow in [7, 7, 7] {
            e.on_arrival(flow);
        }
        assert_eq!((e.zombies.len(), e.hit_frequency()), (3, 0.0));
        assert_eq!(e.estimate(), 4.0, "no hit yet: the estimate is M");
        e.on_arrival(7);
        e.on_arrival(7);
        // The list is full of flow 7: the fifth arrival hits, P = α = 0.25/4.
        assert!((e.hit_frequency() - 0.0625).abs() < 1e-15);
    }

    #[test]
    fn one_flow_always_hits_and_p_follows_the_ewma() {
        // Every comparison hits: P(t) = 1 − (1 − α)^t after the list is full.
        let mut e = estimator(3);
        for _ in 0..1000 + 4000 {
            e.on_arrival(0);
        }
        let expected = 1.0 - (1.0 - 0.25f64 / 1000.0).powi(4000);
        assert!((e.hit_frequency() - expected).abs() < 1e-12, "{} vs {expected}", e.hit_frequency());
    }

    /// Synthetic arrivals: each packet belongs to one of `flows` equally likely flows
    /// (drawn from a stream apart from the estimator's). Returns the mean of the
    /// estimate over `measured` arrivals after `warm_up` arrivals.
    fn mean_estimate(flows: u32, warm_up: usize, measured: usize, seed: u64) -> f64 {
        let mut e = estimator(seed);
        let mut traffic = RandomStream::new(seed, "arrivals");
        let mut next_flow = || ((traffic.uniform() * flows as f64) as u32).min(flows - 1);
        for _ in 0..warm_up {
            e.on_arrival(next_flow());
        }
        let mut sum = 0.0;
        for _ in 0..measured {
            e.on_arrival(next_flow());
            sum += e.estimate();
        }
        sum / measured as f64
    }

    #[test]
    fn the_estimate_tracks_2_5_10_and_50_flows_within_10_percent() {
        // Synthetic arrivals (not a simulation), M = 1000, p = 0.25: after 40 000
        // arrivals (ten time constants M/p) the estimate averaged over 100 000 arrivals
        // lies within 10 % of the number of flows, for three seeds each.
        for flows in [2, 5, 10, 50] {
            for seed in 1..=3 {
                let mean = mean_estimate(flows, 40_000, 100_000, seed);
                let error = (mean - flows as f64).abs() / flows as f64;
                assert!(error < 0.10, "{flows} flows, seed {seed}: mean estimate {mean:.2}");
            }
        }
    }

    #[test]
    fn the_estimate_follows_a_change_in_the_number_of_flows() {
        // 5 flows, then 20: 40 000 arrivals (ten time constants) later the estimate has
        // left 5 behind and lies within 25 % of 20 (a single reading, not a mean).
        let mut e = estimator(9);
        let mut traffic = RandomStream::new(9, "arrivals");
        for (flows, arrivals) in [(5u32, 40_000), (20, 40_000)] {
            for _ in 0..arrivals {
                e.on_arrival(((traffic.uniform() * flows as f64) as u32).min(flows - 1));
            }
        }
        assert!((e.estimate() - 20.0).abs() < 5.0, "estimate {}", e.estimate());
    }
}
