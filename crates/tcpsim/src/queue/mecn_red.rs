//! MECN ("Marked ECN") over RED, as reference document 002 defines it: ECN over RED
//! (`ecn_red.rs`) that marks instead of dropping when the average is at or above max_th.
//!
//! R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
//! 2003, §1.3, §3.1.2, §3.2 and Appendix B: "MECN over RED would mark all the packets if
//! the queue size exceeds max_th until the router queue overflows". MECN there is
//! *Marked* ECN: no extra codepoints, no congestion levels, the sender's response is
//! ECN's. On each arrival, with avg the average of `ecn_red.rs` (CE-marked packets left
//! out of the queue length, idle correction):
//!   - q ≥ limit: dropped (overflow), the only drop an ECN-capable packet can meet;
//!   - avg < min_th: queued;
//!   - min_th ≤ avg < max_th: marked (CE) and queued with probability
//!     p_a = p_b/(1 − count · p_b), else queued (ECN over RED's rule);
//!   - avg ≥ max_th: marked (CE) and queued (probability 1); count restarts at 0.
//! A packet that is not ECN-capable is dropped (early) wherever ECN-capable ones are
//! marked: the thesis' router marks only ECN-capable packets (§5's design guidelines).
//!
//! Parameters: those of ECN over RED (`ecn_red.rs`), with its defaults and fixed
//! behaviour (RED's defaults; not gentle, no wait, no mark_p cap, packet mode).
//!
//! Choices the thesis leaves open:
//! - The average leaves out the CE-marked packets as ECN over RED's does (the thesis
//!   presents MECN as a variant of ECN over RED and gives no average of its own).
//! - Above max_th the arrival is marked even if it already carries CE (counted as a
//!   mark, as RED's `ecn` does); count restarts as after any mark.

use super::ecn_red::{check, ecn_red_params, ecn_red_queue_methods, EcnRedParams, EcnRedQueue, Judgement, SERIES};
use super::{Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::model::{Family, ModelSpec, Relations};
use std::sync::Arc;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "mecn_red",
    summary: "MECN (\"Marked ECN\") over RED (reference document 002): ECN over RED that marks ECN-capable arrivals instead of dropping them at or above max_th; only a full buffer drops them",
    source: "Arora, M.Eng. thesis, Carleton University, 2003, §3.1.2, §3.2, App. B (reference document 002)",
    params: ecn_red_params!(),
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel { spec: &SPEC, configure: |c| Arc::new(MecnRedParams(EcnRedParams::from_config(c))), series: SERIES };

/// MECN over RED's parameters: ECN over RED's.
#[derive(Debug, Clone, PartialEq)]
pub struct MecnRedParams(pub EcnRedParams);

impl QueueConfig for MecnRedParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.0.red.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(MecnRed { queue: self.0.queue(env) })
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.0.red.limit)
    }
}

/// MECN over RED.
#[derive(Debug)]
pub struct MecnRed {
    pub(crate) queue: EcnRedQueue,
}

impl QueueDiscipline for MecnRed {
    fn kind(&self) -> &'static str {
        "mecn_red"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        let max_p = self.queue.core.params().max_p;
        match self.queue.judge(ctx.now, arrival.size, max_p) {
            Judgement::Overflow => Verdict::Dropped(DropReason::Overflow),
            Judgement::AboveMaxTh | Judgement::MarkingEvent => self.queue.mark_or_drop(&arrival),
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
    use crate::model::Value as V;
    use crate::queue::ecn_red::test_support::{arrival, config, env, prime};

    /// Thresholds 5 and 15, weight 0.5, limit 30.
    fn mecn_red() -> MecnRed {
        let c = config(&SPEC, &[("weight", V::Number(0.5)), ("limit", V::Limit(Limit::Packets(30)))]);
        MecnRed { queue: EcnRedParams::from_config(&c).queue(env()) }
    }

    fn offer(q: &mut MecnRed, a: Arrival) -> Verdict {
        q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), a)
    }

    #[test]
    fn at_and_above_max_th_ect_arrivals_are_marked_and_queued() {
        for avg in [15.0, 25.0] {
            let mut q = mecn_red();
            // 25 waiting, the average left at `avg` by the arrival; count 0: no random luck.
            prime(&mut q.queue, 25, 0, 2.0 * avg - 25.0, 0);
            assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Marked, "avg {avg}");
            assert_eq!((q.len_packets(), q.queue.fifo.ce_count()), (26, 1));
            assert_eq!(q.queue.core.vars.count, 0);
        }
    }

    #[test]
    fn above_max_th_packets_that_are_not_ect_are_dropped_early() {
        let mut q = mecn_red();
        prime(&mut q.queue, 25, 0, 25.0, 0);
        assert_eq!(offer(&mut q, arrival(1, Ecn::NotEct, 0)), Verdict::Dropped(DropReason::Early));
    }

    #[test]
    fn only_a_full_buffer_drops_an_ect_arrival() {
        let mut q = mecn_red();
        prime(&mut q.queue, 30, 0, 30.0, 0);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Dropped(DropReason::Overflow));
        // Between the thresholds it is ECN over RED: count 1000 → marked; below min_th queued.
        let mut q = mecn_red();
        prime(&mut q.queue, 10, 0, 10.0, 1000);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Marked);
        let mut q = mecn_red();
        prime(&mut q.queue, 4, 0, 4.0, 1000);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Queued);
    }

    #[test]
    fn marked_packets_are_left_out_of_the_average_as_in_ecn_over_red() {
        // 20 waiting of which 12 CE: q − c = 8; weight 0.5 from 8 stays 8 (RED: 14).
        let mut q = mecn_red();
        prime(&mut q.queue, 8, 12, 8.0, 0);
        offer(&mut q, arrival(1, Ecn::Ect0, 0));
        assert_eq!(q.queue.core.vars.avg, 8.0);
    }
}
