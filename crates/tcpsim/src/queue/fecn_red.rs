//! FECN ("Fair ECN") over RED, as reference document 002 defines it: ECN over RED
//! (`ecn_red.rs`) whose maximum marking probability is scaled, packet by packet, by the
//! round-trip time the sender wrote into the packet.
//!
//! R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
//! 2003, §4.1 (Tables 4-1 and 4-2). For an arriving packet carrying the RTT `rtt`:
//!   max_p' = max_p · avg_rtt / rtt,  clipped to at most 1
//! and then ECN over RED's rule with max_p' in p_b = max_p' · (avg − min_th)/(max_th −
//! min_th), p_a = p_b/(1 − count · p_b): short-RTT flows are marked more, long-RTT flows
//! less. At or above max_th the arrival is dropped ("just as standard ECN"); a full
//! buffer drops (overflow); a packet that is not ECN-capable is dropped where an
//! ECN-capable one is marked. count is one count for the queue (arrivals since the last
//! mark), not one per flow.
//!
//! The RTT is the packet's `rtt_hint`, which the TCP sender writes when its `rtt_hint`
//! parameter is "last" (the thesis: "the RTT of the last ACKed packet"), "srtt" or "min".
//!
//! Parameters: those of ECN over RED (`ecn_red.rs`), and avg_rtt (s, default 100 ms,
//! the thesis' Table 4-2; it says the value is network-dependent and must be estimated).
//!
//! Choices the thesis leaves open:
//! - A packet without an RTT (hint 0: a sender that writes none, its packets before the
//!   first RTT sample, ACKs) is judged with max_p unscaled, as if its RTT were avg_rtt.
//! - max_p' is clipped to 1, so p_b stays a probability for RTTs below
//!   avg_rtt · max_p.
//! - The RTT is the sender's measurement, queueing delay included (the thesis does not
//!   discuss it); "min" gives the sender's smallest sample instead.

use super::ecn_red::{ecn_red_params, ecn_red_queue_methods, EcnRedParams, EcnRedQueue, Judgement, SERIES};
use super::{Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::time::{Dur, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::sync::Arc;

pub(crate) const AVG_RTT: Param = Param::new(
    "avg_rtt",
    T::Time,
    "s",
    V::Time(100 * PS_PER_MS),
    "the network's average RTT: a packet carrying RTT r is judged with max_p · avg_rtt / r (at most 1)",
    "Arora, M.Eng. thesis, Carleton University, 2003, §4.1, Table 4-2",
)
.range(1e-9, 1e3);

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "fecn_red",
    summary: "FECN (\"Fair ECN\") over RED (reference document 002): ECN over RED with a per-packet max_p = max_p · avg_rtt / rtt, rtt the RTT the sender wrote into the packet (rtt_hint)",
    source: "Arora, M.Eng. thesis, Carleton University, 2003, §4.1, Tables 4-1 and 4-2 (reference document 002)",
    params: ecn_red_params!(AVG_RTT),
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel { spec: &SPEC, configure: |c| Arc::new(FecnRedParams::from_config(c)), series: SERIES };

pub(crate) fn check(c: &ModelConfig) -> Result<(), ParamError> {
    FecnRedParams::from_config(c).ecn_red.red.validate()
}

/// FECN over RED's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct FecnRedParams {
    pub ecn_red: EcnRedParams,
    /// The average RTT max_p is scaled against.
    pub avg_rtt: Dur,
}

impl FecnRedParams {
    /// Typed parameters of any model whose spec lists `ecn_red_params!(AVG_RTT, ...)`.
    pub fn from_config(c: &ModelConfig) -> Self {
        FecnRedParams { ecn_red: EcnRedParams::from_config(c), avg_rtt: c.time("avg_rtt") }
    }

    /// max_p for a packet carrying RTT `rtt_hint` (0: none).
    pub fn max_p_for(&self, rtt_hint: Dur) -> f64 {
        let max_p = self.ecn_red.red.max_p;
        if rtt_hint == 0 {
            return max_p;
        }
        (max_p * self.avg_rtt as f64 / rtt_hint as f64).min(1.0)
    }
}

impl QueueConfig for FecnRedParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.ecn_red.red.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(FecnRed { queue: self.ecn_red.queue(env), params: self.clone() })
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.ecn_red.red.limit)
    }
}

/// FECN over RED.
#[derive(Debug)]
pub struct FecnRed {
    pub(crate) queue: EcnRedQueue,
    params: FecnRedParams,
}

impl QueueDiscipline for FecnRed {
    fn kind(&self) -> &'static str {
        "fecn_red"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        let max_p = self.params.max_p_for(arrival.rtt_hint);
        match self.queue.judge(ctx.now, arrival.size, max_p) {
            Judgement::Overflow => Verdict::Dropped(DropReason::Overflow),
            Judgement::AboveMaxTh => Verdict::Dropped(DropReason::Early),
            Judgement::MarkingEvent => self.queue.mark_or_drop(&arrival),
            Judgement::Pass => {
                self.queue.queue(&arrival);
                Verdict::Queued
            }
        }
    }

    ecn_red_queue_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ecn;
    use crate::queue::ecn_red::test_support::{arrival, config, env, prime};

    const MS: Dur = PS_PER_MS;

    fn fecn_red() -> FecnRed {
        let c = config(&SPEC, &[("weight", V::Number(0.5)), ("limit", V::Limit(Limit::Packets(100)))]);
        let params = FecnRedParams::from_config(&c);
        FecnRed { queue: params.ecn_red.queue(env()), params }
    }

    #[test]
    fn max_p_is_scaled_by_avg_rtt_over_the_packets_rtt() {
        // Defaults: max_p 0.1, avg_rtt 100 ms.
        let p = FecnRedParams::from_config(&SPEC.defaults());
        assert_eq!(p.avg_rtt, 100 * MS);
        assert!((p.max_p_for(50 * MS) - 0.2).abs() < 1e-12);
        assert!((p.max_p_for(100 * MS) - 0.1).abs() < 1e-12);
        assert!((p.max_p_for(200 * MS) - 0.05).abs() < 1e-12);
        // Round trips of 60 ms and 140 ms: 0.1 / 0.6 = 0.1667 and 0.1 / 1.4 = 0.0714.
        assert!((p.max_p_for(60 * MS) - 1.0 / 6.0).abs() < 1e-12);
        assert!((p.max_p_for(140 * MS) - 0.1 / 1.4).abs() < 1e-12);
        // No RTT: unscaled. A very short RTT: clipped to 1 (5 ms would give 2).
        assert_eq!(p.max_p_for(0), 0.1);
        assert_eq!(p.max_p_for(5 * MS), 1.0);
    }

    /// Marks among `trials` ECT arrivals carrying `rtt`, each finding avg 10 (half way
    /// between 5 and 15: p_b = max_p'/2) and count 10.
    fn marks(rtt: Dur, trials: usize) -> usize {
        let mut q = fecn_red();
        prime(&mut q.queue, 10, 0, 10.0, 10);
        (0..trials)
            .filter(|&i| {
                q.queue.core.vars.count = 10;
                q.queue.core.vars.avg = 10.0;
                let v = q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), arrival(i as u32, Ecn::Ect0, rtt));
                q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()));
                // Keep 10 unmarked waiting: the marked arrival left at the tail is replaced.
                if v == Verdict::Marked {
                    q.queue.fifo.pop_back();
                    q.queue.fifo.push(5000 + i as u32, 1000, false);
                }
                v == Verdict::Marked
            })
            .count()
    }

    #[test]
    fn the_scaled_max_p_sets_the_marking_probability() {
        // count 10: 50 ms → max_p' 0.2, p_b 0.1, count·p_b = 1 → p_a = 1, always marked.
        assert_eq!(marks(50 * MS, 200), 200);
        // No hint → max_p 0.1: p_b 0.05, p_a = 0.05/(1 − 0.5) = 0.1.
        let unscaled = marks(0, 4000) as f64 / 4000.0;
        assert!((unscaled - 0.1).abs() < 0.02, "no hint: {unscaled}");
        // 200 ms → max_p' 0.05: p_b 0.025, p_a = 0.025/0.75 = 0.0333.
        let long = marks(200 * MS, 4000) as f64 / 4000.0;
        assert!((long - 0.025 / 0.75).abs() < 0.012, "200 ms: {long}");
    }

    #[test]
    fn at_max_th_the_arrival_is_dropped_whatever_its_rtt() {
        let mut q = fecn_red();
        prime(&mut q.queue, 15, 0, 15.0, 0);
        let v = q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), arrival(1, Ecn::Ect0, 500 * MS));
        assert_eq!(v, Verdict::Dropped(DropReason::Early));
    }
}
