//! MFFECN ("Mark-Front Fair ECN") over RED, as reference document 002 defines it: FECN
//! over RED (`fecn_red.rs`) that, on a marking event, marks the oldest unmarked packet
//! of the arriving packet's RTT group instead of the arriving packet.
//!
//! R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
//! 2003, §4.2 (Figure 4-6, Tables 4-5 and 4-6); mark-front after Liu & Jain, "Improving
//! ECN with Mark-Front Strategy", Computer Networks, 2001. Packets are grouped by the
//! RTT the sender wrote into them (`rtt_hint`): group 1 up to group1_max_rtt (80 ms),
//! group 2 up to group2_max_rtt (120 ms), group 3 above (the thesis' 0–80, 81–120 and
//! > 120 ms). Each group is a virtual queue: the serial numbers, oldest first, of its
//! packets in the one FIFO that the link serves (`CeFifo`), so service stays FIFO. On
//! each arrival, with avg the average of `ecn_red.rs` (CE-marked packets left out) and
//! max_p' FECN's max_p · avg_rtt / rtt:
//!   - q ≥ limit: dropped (overflow);
//!   - avg ≥ max_th: dropped (early), as FECN;
//!   - otherwise the arrival is queued, and on a marking event (probability
//!     p_a = p_b/(1 − count · p_b), p_b from max_p') the oldest packet of its group that
//!     is not yet marked is marked (CE) where it waits (`QueueCtx::mark`); count
//!     restarts at 0.
//!
//! Parameters: those of FECN over RED (`fecn_red.rs`: ECN over RED's and avg_rtt), and
//! group1_max_rtt (s, default 80 ms) and group2_max_rtt (s, default 120 ms), the
//! thesis' Table 4-6.
//!
//! Choices the thesis leaves open:
//! - The arrival joins its group before the mark is chosen, so it is the one marked
//!   when every older packet of its group is marked or none waits.
//! - If every packet of the group is marked (the arrival too: it came CE), nothing is
//!   marked; count restarts all the same (the marking event happened).
//! - The marked packet may belong to another flow of the same group.
//! - Only ECN-capable packets join a group's virtual queue (the link marks only those);
//!   a marking event for an arrival that is not ECN-capable drops it (early), as ECN
//!   over RED does, and marks nothing.
//! - A packet without an RTT (hint 0) is in group 1 and is judged with max_p unscaled
//!   (FECN's rule). A group's bound belongs to it: an RTT of exactly 80 ms is group 1.
//! - The RTT is the sender's measurement, queueing delay included (the thesis does not
//!   discuss it): a flow of 60 ms propagation RTT can measure over 80 ms and fall into
//!   group 2.

use super::ecn_red::{ecn_red_params, EcnRedQueue, Judgement, SERIES};
use super::fecn_red::{FecnRedParams, AVG_RTT};
use super::{Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use crate::engine::time::{Dur, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::collections::VecDeque;
use std::sync::Arc;

const GROUP1_MAX_RTT: Param = Param::new(
    "group1_max_rtt",
    T::Time,
    "s",
    V::Time(80 * PS_PER_MS),
    "largest RTT of group 1 (packets carrying no RTT are in group 1 too)",
    "Arora, M.Eng. thesis, Carleton University, 2003, §4.2, Table 4-6",
)
.range(0.0, 1e3);

const GROUP2_MAX_RTT: Param = Param::new(
    "group2_max_rtt",
    T::Time,
    "s",
    V::Time(120 * PS_PER_MS),
    "largest RTT of group 2; larger RTTs are group 3",
    "Arora, M.Eng. thesis, Carleton University, 2003, §4.2, Table 4-6",
)
.range(0.0, 1e3);

/// The number of RTT groups (the thesis' n = 3).
const GROUPS: usize = 3;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "mffecn_red",
    summary: "MFFECN (\"Mark-Front Fair ECN\") over RED (reference document 002): FECN over RED that, on a marking event, marks the oldest unmarked queued packet of the arrival's RTT group (0–80, 81–120, > 120 ms)",
    source: "Arora, M.Eng. thesis, Carleton University, 2003, §4.2, Tables 4-5 and 4-6 (reference document 002); mark-front: Liu & Jain, Computer Networks, 2001",
    params: ecn_red_params!(AVG_RTT, GROUP1_MAX_RTT, GROUP2_MAX_RTT),
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel { spec: &SPEC, configure: |c| Arc::new(MffecnRedParams::from_config(c)), series: SERIES };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = MffecnRedParams::from_config(c);
    p.fecn.ecn_red.red.validate()?;
    if !(p.group2_max_rtt > p.group1_max_rtt) {
        return Err(ParamError::new("group2_max_rtt", format!("group2_max_rtt greater than group1_max_rtt ({} s)", crate::engine::time::to_secs(p.group1_max_rtt))));
    }
    Ok(())
}

/// MFFECN over RED's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct MffecnRedParams {
    pub fecn: FecnRedParams,
    /// Largest RTT of group 1.
    pub group1_max_rtt: Dur,
    /// Largest RTT of group 2.
    pub group2_max_rtt: Dur,
}

impl MffecnRedParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        MffecnRedParams { fecn: FecnRedParams::from_config(c), group1_max_rtt: c.time("group1_max_rtt"), group2_max_rtt: c.time("group2_max_rtt") }
    }

    /// The group (0, 1 or 2) of a packet carrying RTT `rtt_hint`.
    pub fn group(&self, rtt_hint: Dur) -> usize {
        if rtt_hint <= self.group1_max_rtt {
            0
        } else if rtt_hint <= self.group2_max_rtt {
            1
        } else {
            2
        }
    }
}

impl QueueConfig for MffecnRedParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.fecn.ecn_red.red.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(MffecnRed { queue: self.fecn.ecn_red.queue(env), params: self.clone(), unmarked: Default::default() })
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.fecn.ecn_red.red.limit)
    }
}

/// MFFECN over RED.
#[derive(Debug)]
pub struct MffecnRed {
    pub(crate) queue: EcnRedQueue,
    params: MffecnRedParams,
    /// Each group's virtual queue: serial numbers (in `queue.fifo`) of its ECN-capable
    /// packets not yet marked, oldest first. Departed packets are removed at dequeue.
    unmarked: [VecDeque<u64>; GROUPS],
}

impl MffecnRed {
    /// Marks the oldest unmarked packet of `group` where it waits, if there is one.
    fn mark_front(&mut self, ctx: &mut QueueCtx, group: usize) {
        while let Some(serial) = self.unmarked[group].pop_front() {
            if let Some(id) = self.queue.fifo.mark(serial) {
                ctx.mark(id);
                return;
            }
        }
    }
}

impl QueueDiscipline for MffecnRed {
    fn kind(&self) -> &'static str {
        "mffecn_red"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        let max_p = self.params.fecn.max_p_for(arrival.rtt_hint);
        let marking_event = match self.queue.judge(ctx.now, arrival.size, max_p) {
            Judgement::Overflow => return Verdict::Dropped(DropReason::Overflow),
            Judgement::AboveMaxTh => return Verdict::Dropped(DropReason::Early),
            Judgement::MarkingEvent if !arrival.ect() => return Verdict::Dropped(DropReason::Early),
            Judgement::MarkingEvent => true,
            Judgement::Pass => false,
        };
        let group = self.params.group(arrival.rtt_hint);
        let serial = self.queue.queue(&arrival);
        if arrival.ect() && !arrival.ce() {
            self.unmarked[group].push_back(serial);
        }
        if marking_event {
            self.mark_front(ctx, group);
        }
        Verdict::Queued
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<crate::engine::PacketId> {
        let next = self.queue.dequeue(ctx.now);
        if next.is_some() {
            // The packet that left was the oldest of the queue: if it was unmarked, it
            // heads its group's virtual queue.
            let departed = self.queue.fifo.head_serial() - 1;
            for group in &mut self.unmarked {
                if group.front() == Some(&departed) {
                    group.pop_front();
                }
            }
        }
        next
    }

    fn len_packets(&self) -> usize {
        self.queue.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.queue.fifo.bytes()
    }

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        self.queue.sample(push)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ecn, PacketId};
    use crate::queue::ecn_red::test_support::{arrival, config, env};
    use crate::queue::QueueAction;

    const MS: Dur = PS_PER_MS;

    /// Thresholds 5 and 15, a weight so small that the average stays where a test puts
    /// it, limit 100.
    fn mffecn_red() -> MffecnRed {
        let c = config(&SPEC, &[("weight", V::Number(1e-12)), ("limit", V::Limit(Limit::Packets(100)))]);
        let params = MffecnRedParams::from_config(&c);
        MffecnRed { queue: params.fecn.ecn_red.queue(env()), params, unmarked: Default::default() }
    }

    /// Offers `a`; with `marking_event` the average is in the band and count makes p_a
    /// = 1, else below min_th. Returns the verdict and the packets marked in place.
    fn offer(q: &mut MffecnRed, a: Arrival, marking_event: bool) -> (Verdict, Vec<PacketId>) {
        let core = &mut q.queue.core;
        core.vars.idle = false;
        core.vars.old = true;
        core.vars.avg = if marking_event { 14.0 } else { 1.0 };
        core.vars.count = 1_000_000;
        let mut actions = Vec::new();
        let v = q.enqueue(&mut QueueCtx::new(0, &mut actions), a);
        let marks = actions.iter().map(|a| match a {
            QueueAction::Mark(id) => *id,
            other => panic!("only marks expected, got {other:?}"),
        });
        (v, marks.collect())
    }

    /// Queues `n` packets that are not ECN-capable (in no group's virtual queue), so that
    /// more than one packet waits (RED takes no early action otherwise).
    fn fill(q: &mut MffecnRed, n: u32) {
        for i in 0..n {
            q.queue.fifo.push(900 + i, 1000, false);
        }
    }

    #[test]
    fn groups_are_0_to_80_81_to_120_and_above_120_ms() {
        let p = MffecnRedParams::from_config(&SPEC.defaults());
        assert_eq!((p.group(0), p.group(60 * MS), p.group(80 * MS)), (0, 0, 0));
        assert_eq!((p.group(80 * MS + 1), p.group(120 * MS)), (1, 1));
        assert_eq!((p.group(120 * MS + 1), p.group(400 * MS)), (2, 2));
    }

    #[test]
    fn a_marking_event_marks_the_oldest_unmarked_packet_of_the_arrivals_group() {
        let mut q = mffecn_red();
        let (g1, g2) = (60 * MS, 100 * MS);
        // Queued without marking: 1 (g1), 2 (g2), 3 (g1), 4 (g1, not ECN-capable).
        for (id, rtt, ecn) in [(1, g1, Ecn::Ect0), (2, g2, Ecn::Ect0), (3, g1, Ecn::Ect0), (4, g1, Ecn::NotEct)] {
            assert_eq!(offer(&mut q, arrival(id, ecn, rtt), false), (Verdict::Queued, vec![]));
        }
        // A g1 arrival's marking event marks 1, the oldest of g1, and queues the arrival.
        assert_eq!(offer(&mut q, arrival(5, Ecn::Ect0, g1), true), (Verdict::Queued, vec![1]));
        assert_eq!(q.queue.core.vars.count, 0);
        // The next g1 event skips 1 (marked) and marks 3; a g2 event marks 2.
        assert_eq!(offer(&mut q, arrival(6, Ecn::Ect0, g1), true), (Verdict::Queued, vec![3]));
        assert_eq!(offer(&mut q, arrival(7, Ecn::Ect0, g2), true), (Verdict::Queued, vec![2]));
        // g1 now: 1 and 3 marked, 4 not ECN-capable: the oldest unmarked is 5.
        assert_eq!(offer(&mut q, arrival(8, Ecn::Ect0, g1), true), (Verdict::Queued, vec![5]));
        assert_eq!((q.len_packets(), q.queue.fifo.ce_count()), (8, 4));
        // Service stays FIFO, and the CE count follows the departures: 1 (CE), 2 (CE).
        let mut ctx_actions = Vec::new();
        let order: Vec<_> = (0..3).map(|_| q.dequeue(&mut QueueCtx::new(0, &mut ctx_actions)).unwrap()).collect();
        assert_eq!(order, vec![1, 2, 3]);
        assert_eq!(q.queue.fifo.ce_count(), 1);
        // The departed packets are gone from the virtual queues: g1 holds 6 and 8, g2 7.
        let serials = |g: usize| q.unmarked[g].iter().map(|&s| q.queue.fifo.get(s).unwrap().id).collect::<Vec<_>>();
        assert_eq!((serials(0), serials(1)), (vec![6, 8], vec![7]));
    }

    #[test]
    fn the_arrival_itself_is_marked_when_it_is_the_only_unmarked_packet_of_its_group() {
        let mut q = mffecn_red();
        fill(&mut q, 2);
        offer(&mut q, arrival(1, Ecn::Ect0, 60 * MS), false);
        assert_eq!(offer(&mut q, arrival(2, Ecn::Ect0, 200 * MS), true), (Verdict::Queued, vec![2]));
    }

    #[test]
    fn nothing_is_marked_when_every_packet_of_the_group_is_marked() {
        let mut q = mffecn_red();
        fill(&mut q, 2);
        offer(&mut q, arrival(1, Ecn::Ce, 200 * MS), false);
        offer(&mut q, arrival(2, Ecn::Ect0, 60 * MS), false);
        // A g3 arrival that is already CE: its group has no unmarked packet.
        assert_eq!(offer(&mut q, arrival(3, Ecn::Ce, 200 * MS), true), (Verdict::Queued, vec![]));
        assert_eq!(q.queue.core.vars.count, 0, "the marking event happened all the same");
        assert_eq!(q.queue.fifo.ce_count(), 2);
        assert_eq!(q.queue.fifo.iter().filter(|p| p.ce).map(|p| p.id).collect::<Vec<_>>(), vec![1, 3]);
    }

    #[test]
    fn drops_as_fecn_above_max_th_on_overflow_and_for_non_ect_marking_events() {
        let mut q = mffecn_red();
        fill(&mut q, 2);
        offer(&mut q, arrival(1, Ecn::Ect0, 60 * MS), false);
        q.queue.core.vars.avg = 20.0;
        q.queue.core.vars.count = 0;
        let mut actions = Vec::new();
        let v = q.enqueue(&mut QueueCtx::new(0, &mut actions), arrival(2, Ecn::Ect0, 60 * MS));
        assert_eq!((v, actions.len()), (Verdict::Dropped(DropReason::Early), 0));
        assert_eq!(offer(&mut q, arrival(3, Ecn::NotEct, 60 * MS), true), (Verdict::Dropped(DropReason::Early), vec![]));
        fill(&mut q, 97);
        assert_eq!(offer(&mut q, arrival(4, Ecn::Ect0, 60 * MS), false).0, Verdict::Dropped(DropReason::Overflow));
    }

    #[test]
    fn group2_max_rtt_must_exceed_group1_max_rtt() {
        let mut c = SPEC.defaults();
        c.set("group2_max_rtt", V::Time(80 * MS));
        let e = (SPEC.check)(&c).unwrap_err();
        assert!(format!("{e:?}").contains("group2_max_rtt"), "{e:?}");
    }
}
