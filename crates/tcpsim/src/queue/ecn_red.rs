//! ECN over RED, as reference document 002 defines it: RED whose average leaves out the
//! CE-marked packets the queue holds, and which marks ECN-capable arrivals where RED
//! would drop them early.
//!
//! R. M. Arora, "TCP/IP Networks with ECN over AQM", M.Eng. thesis, Carleton University,
//! 2003, §3.1.1 and §3.2 (RED itself: §2.2.1, after Floyd & Jacobson, "Random Early
//! Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993). On each arrival:
//!   1. if the queue was idle, avg ← avg · (1 − w_q)^m, m the packets of mean_packet_size
//!      the link could have sent meanwhile (idle correction, FJ93; `idle_correction`)
//!   2. avg ← (1 − w_q) · avg + w_q · (q − c), q the waiting packets before the arrival and
//!      c the CE-marked packets among them (the thesis' queue_ce_count, `CeFifo`)
//!   3. if q ≥ limit the arrival is dropped (overflow);
//!      else if avg < min_th it is queued;
//!      else if avg ≥ max_th it is dropped (early: "same as RED", non-gentle);
//!      else with probability p_a an ECN-capable arrival is marked (CE) and queued, a
//!      packet that is not ECN-capable dropped; otherwise it is queued, with
//!        p_b = max_p · (avg − min_th)/(max_th − min_th),  p_a = p_b/(1 − count · p_b)
//!      (p_a = 1 once count · p_b ≥ 1: FJ93's uniform spacing, ns-2's `wait_ 0`).
//! count is the arrivals since the last mark or early drop (FJ93 and ns-2 `count`; the
//! thesis writes "packets forwarded since the last drop" for RED and "since the last
//! marked packet" for FECN): a mark or a drop by the average sets it to 0, each arrival
//! adds one, and the first arrival after the average crosses min_th sets it to 1
//! without a random test (ns-2's `old`). The arithmetic is the shared RED core's
//! (`red_core.rs`), the variants of this file (`mecn_red.rs`, `fecn_red.rs`,
//! `mffecn_red.rs`) hold the same `EcnRedQueue`.
//!
//! Parameters (defaults are RED's, `red_params.rs`, not the thesis' Table 3-1, which an
//! experiment sets: limit 586, min_th 118, max_th 352, max_p 0.1, w_q 0.002):
//! limit 50 p; min_th 5, max_th 15 packets (or "auto", as RED); weight 0.002 (or RED's
//! automatic words); target_delay 5 ms (for min_th "auto"); max_p 0.1; mean_packet_size
//! 500 B (idle correction and automatic settings); idle_correction true.
//!
//! Fixed by the model's definition, not parameters: not gentle (avg ≥ max_th drops, the
//! thesis' "non-gentle" RED), p_a without ns-2's `wait`, ECN marking on (RED's `ecn`),
//! no `use_mark_p` cap on marking (ns-2's default marks only while p_b < mark_p; the
//! thesis marks across [min_th, max_th)), average and thresholds in packets.
//!
//! Choices the thesis leaves open:
//! - The idle correction is not in the thesis; FJ93 and ns-2 have it, so it is on by
//!   default and `idle_correction = false` turns it off.
//! - Packets that arrive already CE count in c from their arrival (a single bottleneck
//!   never sees one); a marked arrival is queued and counts until it leaves.
//! - As in ns-2's RED, no early action is taken while at most one packet counts
//!   (q − c ≤ 1), and a forced drop above max_th resets count.
//! - An overflow resets count (ns-2).
//! - Drops by the average are counted as early drops; a full buffer as overflow.

use super::ce_fifo::CeFifo;
use super::red_core::{RedCore, RedDecision};
use super::red_params::{self, Threshold};
use super::{Arrival, DropReason, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, RedParams, Verdict};
use crate::engine::time::Dur;
use crate::engine::{PacketId, RandomStream, SimTime};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use std::sync::Arc;

pub(crate) const IDLE_CORRECTION: Param = Param::new(
    "idle_correction",
    T::Bool,
    "",
    V::Bool(true),
    "decay the average over an idle period as if the link had sent packets of mean_packet_size (FJ93, ns-2); the thesis does not say",
    "Floyd & Jacobson 1993 §IV; ns-2.35 Queue/RED",
);

/// The parameters every ECN-over-RED queue of reference document 002 has.
macro_rules! ecn_red_params {
    ($($extra:expr),*) => {
        &[
            $crate::queue::red_params::LIMIT,
            $crate::queue::red_params::MIN_TH,
            $crate::queue::red_params::MAX_TH,
            $crate::queue::red_params::WEIGHT,
            $crate::queue::red_params::TARGET_DELAY,
            $crate::queue::red_params::MAX_P,
            $crate::queue::red_params::MEAN_PACKET_SIZE,
            $crate::queue::ecn_red::IDLE_CORRECTION
            $(, $extra)*
        ]
    };
}
pub(crate) use ecn_red_params;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "ecn_red",
    summary: "ECN over RED (reference document 002): non-gentle RED whose average leaves out the CE-marked packets queued; marks ECN-capable arrivals with p_a = p_b/(1 − count·p_b) between min_th and max_th, drops at or above max_th",
    source: "Arora, M.Eng. thesis, Carleton University, 2003, §3.1.1, §3.2 (reference document 002); RED: Floyd & Jacobson, IEEE/ACM ToN 1(4), 1993",
    params: ecn_red_params!(),
    check,
    relations: Relations::NONE,
};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(EcnRedParams::from_config(c)),
    series: SERIES,
};

/// What every ECN-over-RED queue samples: RED's average and the CE-marked packets held.
pub(crate) const SERIES: &[&str] = &["red_avg_pkts", "queue_ce_pkts"];

pub(crate) fn check(c: &ModelConfig) -> Result<(), ParamError> {
    EcnRedParams::from_config(c).red.validate()
}

/// The typed parameters of an ECN-over-RED queue.
#[derive(Debug, Clone, PartialEq)]
pub struct EcnRedParams {
    /// RED's parameters, with the behaviour the model fixes (not gentle, no wait, ECN on,
    /// no mark_p cap, packet mode).
    pub red: RedParams,
    /// Decay the average over idle periods (FJ93, ns-2).
    pub idle_correction: bool,
}

impl EcnRedParams {
    /// Typed parameters of any model whose spec lists `ecn_red_params!()`.
    pub fn from_config(c: &ModelConfig) -> Self {
        let threshold = |name| match c.get(name) {
            V::Choice(_) => Threshold::Auto,
            _ => Threshold::Packets(c.number(name)),
        };
        let red = RedParams {
            limit: c.limit("limit"),
            min_th: threshold("min_th"),
            max_th: threshold("max_th"),
            weight: red_params::weight_from_config(c),
            target_delay: c.time("target_delay"),
            max_p: c.number("max_p"),
            mean_packet_size: c.size("mean_packet_size") as u32,
            gentle: false,
            wait: false,
            ecn: true,
            use_mark_p: false,
            queue_in_bytes: false,
            bytes: false,
            ..RedParams::default()
        };
        EcnRedParams { red, idle_correction: c.boolean("idle_correction") }
    }

    /// The queue these parameters give on a link direction.
    pub(crate) fn queue(&self, env: QueueEnv) -> EcnRedQueue {
        EcnRedQueue {
            core: RedCore::new(self.red.clone(), env.rate_bps, env.delay, env.random),
            fifo: CeFifo::default(),
            idle_correction: self.idle_correction,
        }
    }
}

impl QueueConfig for EcnRedParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.red.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(EcnRed { queue: self.queue(env) })
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.red.limit)
    }
}

/// What the average makes of an arrival, before the variant acts on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Judgement {
    /// The buffer is full.
    Overflow,
    /// Below min_th, or the random test missed.
    Pass,
    /// The average is at or above max_th.
    AboveMaxTh,
    /// The random test between min_th and max_th hit: a marking event.
    MarkingEvent,
}

/// The RED core over a FIFO that counts its CE-marked packets: the queue of every
/// ECN-over-RED discipline.
#[derive(Debug)]
pub(crate) struct EcnRedQueue {
    pub(crate) core: RedCore,
    pub(crate) fifo: CeFifo,
    idle_correction: bool,
}

impl EcnRedQueue {
    /// Steps 1–3 of the header for an arrival of `size` bytes, with `max_p` the maximum
    /// marking probability for this packet (FECN scales it per packet).
    pub(crate) fn judge(&mut self, now: SimTime, size: u32, max_p: f64) -> Judgement {
        if self.idle_correction {
            self.core.end_idle_period(now);
        }
        let waiting = self.fifo.len();
        let counted = (waiting - self.fifo.ce_count()) as f64;
        let decision = self.core.on_arrival_with_max_p(counted, size, |_| max_p);
        if waiting as f64 >= self.core.limit() {
            self.core.reset_count();
            return Judgement::Overflow;
        }
        match decision {
            RedDecision::Pass => Judgement::Pass,
            RedDecision::Forced => Judgement::AboveMaxTh,
            RedDecision::Hit { .. } => Judgement::MarkingEvent,
        }
    }

    /// Marks (CE) and queues an ECN-capable arrival; drops one that is not (early).
    pub(crate) fn mark_or_drop(&mut self, arrival: &Arrival) -> Verdict {
        if arrival.ect() {
            self.fifo.push(arrival.id, arrival.size, true);
            Verdict::Marked
        } else {
            Verdict::Dropped(DropReason::Early)
        }
    }

    /// Queues an arrival unchanged (it counts as CE-marked if it arrived so); returns its
    /// serial number in the FIFO.
    pub(crate) fn queue(&mut self, arrival: &Arrival) -> u64 {
        self.fifo.push(arrival.id, arrival.size, arrival.ce())
    }

    /// The next packet to send; an empty queue starts the idle period.
    pub(crate) fn dequeue(&mut self, now: SimTime) -> Option<PacketId> {
        let next = self.fifo.pop().map(|p| p.id);
        self.core.on_dequeue(next.is_some(), now);
        next
    }

    /// RED's average and the CE-marked packets held (`SERIES`).
    pub(crate) fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("red_avg_pkts", self.core.average_packets());
        push("queue_ce_pkts", self.fifo.ce_count() as f64);
    }
}

/// The `QueueDiscipline` methods of an ECN-over-RED discipline (a field
/// `queue: EcnRedQueue`) that are its queue's own, written once.
macro_rules! ecn_red_queue_methods {
    () => {
        fn dequeue(&mut self, ctx: &mut $crate::queue::QueueCtx) -> Option<$crate::engine::PacketId> {
            self.queue.dequeue(ctx.now)
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
    };
}
pub(crate) use ecn_red_queue_methods;

/// ECN over RED.
#[derive(Debug)]
pub struct EcnRed {
    pub(crate) queue: EcnRedQueue,
}

impl EcnRed {
    /// ECN over RED feeding a link direction of `rate_bps` and propagation `delay`.
    pub fn new(params: &EcnRedParams, rate_bps: u64, delay: Dur, random: RandomStream) -> Self {
        EcnRed { queue: params.queue(QueueEnv { rate_bps, delay, random }) }
    }
}

impl QueueDiscipline for EcnRed {
    fn kind(&self) -> &'static str {
        "ecn_red"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        let max_p = self.queue.core.params().max_p;
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


/// What the tests of the ECN-over-RED files share: configurations, arrivals, and a queue
/// put in a given state.
#[cfg(test)]
pub(crate) mod test_support {
    use super::EcnRedQueue;
    use crate::engine::{Dur, Ecn, PacketKind, RandomStream};
    use crate::model::{ModelConfig, ModelSpec, Value as V};
    use crate::queue::{Arrival, QueueEnv};

    /// `spec`'s defaults with `set` applied, checked.
    pub(crate) fn config(spec: &'static ModelSpec, set: &[(&str, V)]) -> ModelConfig {
        let mut c = spec.defaults();
        for (k, v) in set {
            c.set(k, v.clone());
        }
        (spec.check)(&c).expect("a valid configuration");
        c
    }

    pub(crate) fn env() -> QueueEnv {
        QueueEnv { rate_bps: 10_000_000, delay: 0, random: RandomStream::new(1, "test") }
    }

    /// A 1000-byte data packet with codepoint `ecn` carrying RTT `rtt_hint`.
    pub(crate) fn arrival(id: u32, ecn: Ecn, rtt_hint: Dur) -> Arrival {
        Arrival { id, size: 1000, ecn, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint }
    }

    /// Puts `unmarked` unmarked and then `ce` CE-marked packets in the queue (ids from
    /// 1000), and sets the average to `avg` (the next arrival's EWMA starts from it),
    /// `old` (avg was in the band) and `count`; not idle.
    pub(crate) fn prime(q: &mut EcnRedQueue, unmarked: usize, ce: usize, avg: f64, count: u64) {
        for i in 0..unmarked + ce {
            q.fifo.push(1000 + i as u32, 1000, i >= unmarked);
        }
        q.core.vars.avg = avg;
        q.core.vars.old = true;
        q.core.vars.count = count;
        q.core.vars.idle = false;
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{arrival, config, env, prime};
    use super::*;
    use crate::engine::time::PS_PER_MS;
    use crate::engine::Ecn;
    use crate::model::Value as V;

    /// ECN over RED with thresholds 5 and 15 (RED's defaults), weight 0.5 (so an arrival
    /// that finds the counted length equal to the average leaves it unchanged), limit 100.
    fn ecn_red(set: &[(&str, V)]) -> EcnRed {
        let mut all = vec![("weight", V::Number(0.5)), ("limit", V::Limit(Limit::Packets(100)))];
        all.extend(set.iter().cloned());
        EcnRed { queue: EcnRedParams::from_config(&config(&SPEC, &all)).queue(env()) }
    }

    fn offer(q: &mut impl QueueDiscipline, a: Arrival) -> Verdict {
        q.enqueue(&mut QueueCtx::new(0, &mut Vec::new()), a)
    }

    #[test]
    fn the_model_fixes_non_gentle_floyd93_red_with_ecn() {
        let q = ecn_red(&[]);
        let p = q.queue.core.params();
        assert!(!p.gentle && !p.wait && p.ecn && !p.use_mark_p && !p.queue_in_bytes && !p.bytes);
        // Defaults are RED's own: 5 / 15 / max_p 0.1 / limit 50.
        let red = RedParams::default();
        let ours = EcnRedParams::from_config(&SPEC.defaults()).red;
        assert_eq!((ours.min_th, ours.max_th, ours.max_p, ours.limit, ours.weight), (red.min_th, red.max_th, red.max_p, red.limit, red.weight));
        // FJ93's p_a = p_b/(1 − count·p_b): p_b = 0.05, count 10 → 0.1; count 20 → 1.
        let mut q = ecn_red(&[]);
        q.queue.core.vars.count = 10;
        assert!((q.queue.core.drop_probability(0.05, 1000) - 0.1).abs() < 1e-12);
        q.queue.core.vars.count = 20;
        assert_eq!(q.queue.core.drop_probability(0.05, 1000), 1.0);
    }

    #[test]
    fn ce_marked_packets_are_left_out_of_the_average() {
        // Weight 0.5, average 0: arrivals a (plain), b (CE), c (CE), d (plain) find
        // q − c = 0, 1, 1, 1 → 0, 0.5, 0.75, 0.875 (RED, counting all: 0, 0.5, 1.25, 2.125).
        let mut q = ecn_red(&[]);
        q.queue.core.vars.idle = false;
        let avgs: Vec<f64> = [Ecn::Ect0, Ecn::Ce, Ecn::Ce, Ecn::Ect0]
            .into_iter()
            .enumerate()
            .map(|(i, ecn)| {
                assert_eq!(offer(&mut q, arrival(i as u32, ecn, 0)), Verdict::Queued);
                q.queue.core.vars.avg
            })
            .collect();
        assert_eq!(avgs, vec![0.0, 0.5, 0.75, 0.875]);
        assert_eq!(q.queue.fifo.ce_count(), 2);
        // a (plain) and b (CE) leave: one CE packet of two left.
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()));
        q.dequeue(&mut QueueCtx::new(0, &mut Vec::new()));
        assert_eq!((q.len_packets(), q.queue.fifo.ce_count()), (2, 1));
        // The next arrival finds q − c = 1: 0.5 · 0.875 + 0.5 · 1.
        offer(&mut q, arrival(9, Ecn::Ect0, 0));
        assert_eq!(q.queue.core.vars.avg, 0.9375);
    }

    #[test]
    fn a_queue_above_max_th_of_which_enough_is_marked_marks_instead_of_dropping() {
        // 20 waiting, 10 of them CE: RED's length 20 ≥ max_th would drop; q − c = 10 is
        // in the band, where count 1000 makes p_a = 1.
        let mut q = ecn_red(&[]);
        prime(&mut q.queue, 10, 10, 10.0, 1000);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Marked);
        assert_eq!(q.queue.core.vars.avg, 10.0);
        assert_eq!(q.queue.core.vars.count, 0, "a mark restarts count");
        assert_eq!(q.queue.fifo.ce_count(), 11, "the marked arrival counts as CE");
    }

    #[test]
    fn below_min_th_nothing_is_marked_and_at_min_th_the_band_begins() {
        // avg 4.999 (just below min_th 5), count huge: queued unmarked, `old` cleared.
        let mut q = ecn_red(&[]);
        prime(&mut q.queue, 5, 0, 4.998, 1000);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Queued);
        assert!((q.queue.core.vars.avg - 4.999).abs() < 1e-12 && !q.queue.core.vars.old);
        // avg exactly min_th: in the band; crossing it sets count to 1 without a mark.
        let mut q = ecn_red(&[]);
        prime(&mut q.queue, 5, 0, 5.0, 1000);
        q.queue.core.vars.old = false;
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Queued);
        assert!(q.queue.core.vars.old && q.queue.core.vars.count == 1);
        // At min_th itself p_b = 0: never marked, whatever count.
        let mut q = ecn_red(&[]);
        prime(&mut q.queue, 5, 0, 5.0, 1000);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Queued);
    }

    #[test]
    fn just_below_max_th_marks_ect_and_drops_the_others_at_max_th_both_are_dropped() {
        for (avg, ecn, expected) in [
            (14.99, Ecn::Ect0, Verdict::Marked),
            (14.99, Ecn::NotEct, Verdict::Dropped(DropReason::Early)),
            (15.0, Ecn::Ect0, Verdict::Dropped(DropReason::Early)),
            (15.0, Ecn::NotEct, Verdict::Dropped(DropReason::Early)),
        ] {
            let mut q = ecn_red(&[]);
            // 15 waiting and the average set so that the arrival leaves it at `avg`.
            prime(&mut q.queue, 15, 0, 2.0 * avg - 15.0, 1000);
            assert_eq!(offer(&mut q, arrival(1, ecn, 0)), expected, "avg {avg}, {ecn:?}");
            assert!((q.queue.core.vars.avg - avg).abs() < 1e-9);
        }
    }

    #[test]
    fn a_full_buffer_drops_even_below_min_th_and_resets_count() {
        let mut q = ecn_red(&[("limit", V::Limit(Limit::Packets(3)))]);
        prime(&mut q.queue, 3, 0, 0.0, 7);
        assert_eq!(offer(&mut q, arrival(1, Ecn::Ect0, 0)), Verdict::Dropped(DropReason::Overflow));
        assert_eq!((q.len_packets(), q.queue.core.vars.count), (3, 0));
    }

    #[test]
    fn idle_correction_can_be_turned_off() {
        // 10 Mb/s, 500-byte mean packets: 2500 packets/s; 4 ms idle → m = 10 slots.
        let run = |on: bool| {
            let mut q = ecn_red(&[("idle_correction", V::Bool(on)), ("weight", V::Number(0.1))]);
            q.queue.core.vars.avg = 8.0;
            q.dequeue(&mut QueueCtx::new(PS_PER_MS, &mut Vec::new()));
            q.enqueue(&mut QueueCtx::new(5 * PS_PER_MS, &mut Vec::new()), arrival(0, Ecn::Ect0, 0));
            q.queue.core.vars.avg
        };
        assert!((run(true) - 8.0 * 0.9f64.powi(10) * 0.9).abs() < 1e-12);
        assert!((run(false) - 8.0 * 0.9).abs() < 1e-12);
    }

    #[test]
    fn the_samples_are_the_average_and_the_ce_packets_held() {
        let mut q = ecn_red(&[]);
        prime(&mut q.queue, 2, 3, 1.5, 0);
        let mut got = Vec::new();
        q.sample(&mut |name, value| got.push((name, value)));
        assert_eq!(got, vec![("red_avg_pkts", 1.5), ("queue_ce_pkts", 3.0)]);
        assert_eq!(MODEL.series, &["red_avg_pkts", "queue_ce_pkts"][..]);
    }
}
