//! RED — Random Early Detection, with ns-2.35 `Queue/RED` semantics.
//!
//! The average, count, probabilities, gentle mode and idle handling live in
//! `red_core.rs` (`RedCore`), which RED variants reuse; this file is RED itself: a FIFO,
//! the core and ECN marking; its parameters (`SPEC`, `RedParams`) are in `red_params.rs`.
//!
//! Floyd & Jacobson, "Random Early Detection Gateways for Congestion Avoidance",
//! IEEE/ACM ToN 1(4):397–413, 1993, doi:10.1109/90.251892; gentle mode: Floyd, "Recommendation
//! on using the gentle variant of RED", 2000; automatic parameters: Floyd, Gummadi &
//! Shenker, "Adaptive RED: An Algorithm for Increasing the Robustness of RED's Active
//! Queue Management", August 2001 (www.icir.org/floyd/papers/adaptiveRed.pdf), as
//! ns-2.35 implements them (queue/red.cc, `REDQueue::initialize_params`). Reference
//! document 000 §1.4 (the thesis's RED rules) and its notes on ns-2 defaults.
//!
//! On every arrival (ns-2 `REDQueue::enque`):
//!   1. if the queue was idle, m = ⌊ptc · idle_time⌋ with ptc = rate / (8 · mean_packet_size)
//!      (packets the link could have sent), and avg ← avg · (1 − w)^m         (idle correction)
//!   2. avg ← (1 − w) · avg + w · q, q = waiting packets (bytes in byte mode) before the arrival
//!   3. count ← count + 1
//!   4. if avg ≥ min_th and q > 1:
//!        - without `use_mark_p`, avg ≥ max_th (gentle: ≥ 2·max_th) drops the arrival (forced);
//!        - else if avg just crossed min_th (old = false): count ← 1, old ← true;
//!        - else early drop with probability p_a:
//!            p_b = max_p · (avg − min_th)/(max_th − min_th)                 for avg < max_th
//!            p_b = max_p + (1 − max_p)(avg − max_th)/max_th  (gentle)     for max_th ≤ avg < 2·max_th
//!            p_b = 1                                (not gentle)          for avg ≥ max_th
//!            wait:    p_a = 0 if count·p_b < 1; p_b/(2 − count·p_b) if < 2; else 1
//!            no wait: p_a = p_b/(1 − count·p_b) if count·p_b < 1; else 1   (Floyd93 eq. for p_a)
//!            byte mode (`bytes`): count is bytes/mean_packet_size and p_a ← p_a · size/mean_packet_size
//!          A drop resets count to 0. With `ecn`, an ECN-capable packet is marked instead
//!          of dropped (with `use_mark_p`, only while p_b < mark_p).
//!      otherwise old ← false.
//!   5. if q ≥ limit the arrival is dropped (overflow) and count ← 0.
//! When the link finds the queue empty on dequeue, the idle period starts.
//!
//! Thresholds and weight, fixed or automatic (`RedParams::settings`, once per link
//! direction when the queue is built; ns-2 computes them when `$q link` attaches the
//! queue to its link, and writes them back into thresh_, maxthresh_ and q_weight_).
//! With ptc = rate / (8 · mean_packet_size) packets per second and the link's delay:
//!   min_th = "auto":    max(5, target_delay · ptc / 2)         (ns-2 thresh_ 0)
//!   max_th = "auto":    3 · min_th                              (ns-2 maxthresh_ 0)
//!   weight = "auto":    1 − exp(−1/(10 · rtt · ptc)),           (ns-2 q_weight_ −1)
//!                       rtt = max(0.1 s, 3 · (delay + 1/ptc))
//!   weight = "auto_1s": 1 − exp(−1/ptc)                         (ns-2 q_weight_ 0)
//!   weight = "auto_100ms": 1 − exp(−10/ptc)                     (ns-2 q_weight_ −2)
//! 1 − exp(−1/n) gives the average a time constant of n arrivals at the link rate: ten
//! round trips, one second, 100 ms. Thresholds are in packets in both modes; byte mode
//! multiplies them by mean_packet_size, as for fixed ones. max_p (linterm) is not touched:
//! ns-2 changes it only in adaptive mode (adaptive_ 1, which also sets bottom_ from the
//! rate), not implemented here.
//!
//! Parameters (defaults): limit 50 p; min_th 5, max_th 15 (packets); weight 0.002;
//! target_delay 5 ms; max_p 0.1 (ns-2 linterm 10); gentle true; wait true;
//! mean_packet_size 500 B; queue_in_bytes false; bytes false; ecn false; use_mark_p true;
//! mark_p 0.1.
//!
//! Choices and deviations:
//! - Defaults are ns-2's except: `min_th`/`max_th` 5/15 and `weight` 0.002 are fixed
//!   values (ns-2.35's defaults are the automatic ones, written "auto" here: thresh_ 0,
//!   maxthresh_ 0, q_weight_ −1), and `queue_in_bytes` / `bytes` are false (ns-2.35:
//!   true; ns-2.27, which reference document 000 ran: false).
//! - Automatic values use this queue's own mean_packet_size. ns-2 computes them when the
//!   link is made, so a `mean_pktsize_` set on the queue afterwards changes ns-2's idle
//!   correction and byte scaling but not its thresholds or weight (the twin of an ns-2
//!   script sets it as a `Queue/RED` default before the links, or gives fixed values;
//!   `validation/ns2/red_auto_params.tcl`, case 10mb_20ms_late).
//! - A fixed max_th with min_th = "auto" must lie above the computed min_th (checked
//!   against the link when the scenario loads); ns-2 accepts any pair.
//! - Drops decided by the average (forced or early) are counted as early drops; only a
//!   full buffer counts as overflow. ns-2 calls the average-forced drops "forced".
//! - ns-2's `cautious_`, `adaptive_` / `feng_adaptive_` (max_p adapted over time) and
//!   `drop_front_`/random victim are not implemented.

use super::red_core::{RedCore, RedDecision};
use super::{Arrival, DropReason, Fifo, Limit, QueueConfig, QueueCtx, QueueDiscipline, QueueEnv, QueueLink, QueueModel, Verdict};
use std::sync::Arc;
use crate::engine::time::Dur;
use crate::engine::{PacketId, RandomStream, SimTime};

pub use super::red_params::{QueueWeight, RedParams, RedSettings, Threshold, SPEC};

pub static MODEL: QueueModel = QueueModel {
    spec: &SPEC,
    configure: |c| Arc::new(RedParams::from_config(c)),
    // The average queue, packets (in byte mode, bytes / mean_packet_size).
    series: &["red_avg_pkts"],
};

impl QueueConfig for RedParams {
    fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.check_link(link)
    }

    fn build(&self, env: QueueEnv) -> Box<dyn QueueDiscipline> {
        Box::new(Red::new(self.clone(), env.rate_bps, env.delay, env.random))
    }

    fn limit(&self) -> Option<Limit> {
        Some(self.limit)
    }
}

/// RED: a FIFO, the RED core, and ECN marking of ECN-capable packets.
#[derive(Debug)]
pub struct Red {
    pub(crate) queue: RedQueue,
}

impl Red {
    /// RED feeding a link direction of `rate_bps` and propagation `delay`.
    pub fn new(params: RedParams, rate_bps: u64, delay: Dur, random: RandomStream) -> Self {
        Red { queue: RedQueue::new(RedCore::new(params, rate_bps, delay, random)) }
    }

    /// min_th, max_th (packets) and w_q in use on this link.
    pub fn settings(&self) -> RedSettings {
        self.queue.core.settings()
    }

    /// p_b of the header (ns-2 `calculate_p_new`).
    pub fn base_probability(&self, avg: f64) -> f64 {
        self.queue.core.base_probability(avg)
    }

    /// p_a of the header (ns-2 `modify_p`), for a packet of `size` bytes.
    pub fn drop_probability(&self, p_b: f64, size: u32) -> f64 {
        self.queue.core.drop_probability(p_b, size)
    }
}

impl QueueDiscipline for Red {
    fn kind(&self) -> &'static str {
        "red"
    }

    fn enqueue(&mut self, ctx: &mut QueueCtx, arrival: Arrival) -> Verdict {
        self.queue.enqueue(ctx.now, arrival)
    }

    red_queue_methods!();

    fn sample(&self, push: &mut dyn FnMut(&'static str, f64)) {
        push("red_avg_pkts", self.queue.core.average_packets());
    }
}

/// RED's core and the FIFO it decides for: the queue every RED discipline holds (RED,
/// and the variants whose thresholds move, `red_n.rs`), with RED's enqueue and dequeue.
#[derive(Debug)]
pub(crate) struct RedQueue {
    pub(crate) core: RedCore,
    fifo: Fifo,
}

impl RedQueue {
    pub(crate) fn new(core: RedCore) -> Self {
        RedQueue { core, fifo: Fifo::default() }
    }

    /// RED's verdict on an arrival (steps 1–6 of the header), queueing it unless dropped.
    /// Always inlined, so that RED's hot path stays one function (docs/performance.md).
    #[inline(always)]
    pub(crate) fn enqueue(&mut self, now: SimTime, arrival: Arrival) -> Verdict {
        let (core, fifo) = (&mut self.core, &mut self.fifo);
        core.end_idle_period(now);
        let q = core.measure(fifo.len(), fifo.bytes());
        let verdict = match core.on_arrival(q, arrival.size) {
            RedDecision::Pass => Verdict::Queued,
            RedDecision::Forced => Verdict::Dropped(DropReason::Early),
            RedDecision::Hit { p_b } => {
                // With `ecn`, an ECN-capable packet is marked instead (with `use_mark_p`,
                // only while p_b < mark_p).
                let p = core.params();
                if p.ecn && arrival.ect() && (!p.use_mark_p || p_b < p.mark_p) {
                    Verdict::Marked
                } else {
                    Verdict::Dropped(DropReason::Early)
                }
            }
        };
        if q >= core.limit() {
            core.reset_count();
            return Verdict::Dropped(DropReason::Overflow);
        }
        if !matches!(verdict, Verdict::Dropped(_)) {
            fifo.push(arrival.id, arrival.size);
        }
        verdict
    }

    /// The next packet to send; an empty queue starts RED's idle period.
    #[inline(always)]
    pub(crate) fn dequeue(&mut self, now: SimTime) -> Option<PacketId> {
        let next = self.fifo.pop();
        self.core.on_dequeue(next.is_some(), now);
        next
    }

    pub(crate) fn len_packets(&self) -> usize {
        self.fifo.len()
    }

    pub(crate) fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }
}

/// The `QueueDiscipline` methods of a RED discipline (a field `queue: RedQueue`) that are
/// its queue's own — `dequeue`, `len_packets`, `len_bytes` — written once here instead of
/// forwarded one by one in each; used inside the discipline's `impl QueueDiscipline`.
macro_rules! red_queue_methods {
    () => {
        fn dequeue(&mut self, ctx: &mut $crate::queue::QueueCtx) -> Option<$crate::engine::PacketId> {
            self.queue.dequeue(ctx.now)
        }

        fn len_packets(&self) -> usize {
            self.queue.len_packets()
        }

        fn len_bytes(&self) -> u64 {
            self.queue.len_bytes()
        }
    };
}
pub(crate) use red_queue_methods;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_MS;
    use crate::engine::{Ecn, PacketKind};
    use crate::model::Value as V;

    fn check(c: &crate::model::ModelConfig) -> Result<(), crate::model::ParamError> {
        (SPEC.check)(c)
    }

    fn check_link(c: &crate::model::ModelConfig, link: &QueueLink) -> Result<(), String> {
        (MODEL.configure)(c).check_link(link)
    }

    fn red(params: RedParams) -> Red {
        Red::new(params, 10_000_000, 0, RandomStream::new(1, "test"))
    }

    fn arrival(id: u32) -> Arrival {
        Arrival { id, size: 1000, ecn: Ecn::NotEct, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 }
    }

    trait At {
        fn enq(&mut self, a: Arrival, now: SimTime) -> Verdict;
        fn deq(&mut self, now: SimTime) -> Option<PacketId>;
    }

    impl At for Red {
        fn enq(&mut self, a: Arrival, now: SimTime) -> Verdict {
            self.enqueue(&mut QueueCtx::new(now, &mut Vec::new()), a)
        }
        fn deq(&mut self, now: SimTime) -> Option<PacketId> {
            self.dequeue(&mut QueueCtx::new(now, &mut Vec::new()))
        }
    }

    fn with_count(mut r: Red, count: u64) -> Red {
        r.queue.core.vars.count = count;
        r
    }

    // ---- p_b (ns-2 calculate_p_new), min_th 5, max_th 15, max_p 0.1 ----

    #[test]
    fn p_b_is_linear_between_thresholds() {
        let r = red(RedParams::default());
        // 0.1 · (10 − 5)/(15 − 5) = 0.05
        assert!((r.base_probability(10.0) - 0.05).abs() < 1e-12);
        assert!((r.base_probability(5.0) - 0.0).abs() < 1e-12);
    }

    #[test]
    fn gentle_p_b_rises_from_max_p_to_one_between_max_th_and_twice() {
        let r = red(RedParams::default());
        // c = 0.9/15 = 0.06, d = −0.8: at 15 → 0.1, at 22.5 → 0.55, at 30 → 1.0
        assert!((r.base_probability(15.0) - 0.1).abs() < 1e-12);
        assert!((r.base_probability(22.5) - 0.55).abs() < 1e-12);
        assert!((r.base_probability(30.0) - 1.0).abs() < 1e-12);
        assert_eq!(r.base_probability(40.0), 1.0);
    }

    #[test]
    fn non_gentle_p_b_jumps_to_one_at_max_th() {
        let r = red(RedParams { gentle: false, ..RedParams::default() });
        assert_eq!(r.base_probability(15.0), 1.0);
        assert!((r.base_probability(14.0) - 0.09).abs() < 1e-12);
    }

    // ---- p_a with count (ns-2 modify_p) ----

    #[test]
    fn wait_gives_zero_until_count_times_p_b_reaches_one() {
        // p_b = 0.05: count 19 → 0.95 < 1 → 0; count 20 → 1.0 → 0.05/(2 − 1) = 0.05;
        // count 30 → 1.5 → 0.05/0.5 = 0.1; count 40 → 2.0 → 1.
        let p = RedParams::default();
        assert_eq!(with_count(red(p.clone()), 19).drop_probability(0.05, 1000), 0.0);
        assert!((with_count(red(p.clone()), 20).drop_probability(0.05, 1000) - 0.05).abs() < 1e-12);
        assert!((with_count(red(p.clone()), 30).drop_probability(0.05, 1000) - 0.1).abs() < 1e-12);
        assert_eq!(with_count(red(p), 40).drop_probability(0.05, 1000), 1.0);
    }

    #[test]
    fn no_wait_is_floyd93_p_b_over_one_minus_count_p_b() {
        // p_b = 0.05: count 0 → 0.05; count 10 → 0.05/0.5 = 0.1; count 20 → 1.
        let p = RedParams { wait: false, ..RedParams::default() };
        assert!((with_count(red(p.clone()), 0).drop_probability(0.05, 1000) - 0.05).abs() < 1e-12);
        assert!((with_count(red(p.clone()), 10).drop_probability(0.05, 1000) - 0.1).abs() < 1e-12);
        assert_eq!(with_count(red(p), 20).drop_probability(0.05, 1000), 1.0);
    }

    #[test]
    fn byte_mode_scales_p_a_by_packet_size() {
        // bytes: count = count_bytes / 500 = 10 → no wait: 0.05/0.5 = 0.1, × 1000/500 = 0.2
        let p = RedParams { wait: false, bytes: true, ..RedParams::default() };
        let mut r = red(p);
        r.queue.core.vars.count_bytes = 5000;
        assert!((r.drop_probability(0.05, 1000) - 0.2).abs() < 1e-12);
    }

    // ---- EWMA and idle correction ----

    #[test]
    fn ewma_uses_queue_length_before_the_arrival() {
        let mut r = red(RedParams { weight: QueueWeight::Fixed(0.5), ..RedParams::default() });
        r.queue.core.vars.idle = false;
        r.enq(arrival(0), 0); // q = 0 → avg 0
        assert_eq!(r.queue.core.vars.avg, 0.0);
        r.enq(arrival(1), 0); // q = 1 → 0.5
        r.enq(arrival(2), 0); // q = 2 → 0.25 + 1 = 1.25
        assert!((r.queue.core.vars.avg - 1.25).abs() < 1e-12);
    }

    #[test]
    fn idle_time_decays_the_average_by_packets_the_link_could_send() {
        // 10 Mb/s, mean 500 B → ptc = 2500 pkt/s; 4 ms idle → m = 10.
        // avg 8 → 8·(1 − 0.1)^10 = 2.7894... then one EWMA step with q = 0 → ×0.9.
        let mut r = red(RedParams { weight: QueueWeight::Fixed(0.1), ..RedParams::default() });
        r.queue.core.vars.avg = 8.0;
        r.queue.core.vars.idle = false;
        assert_eq!(r.deq(1 * PS_PER_MS), None); // empty: idle from 1 ms
        r.enq(arrival(0), 5 * PS_PER_MS);
        let expected = 8.0 * 0.9f64.powi(10) * 0.9;
        assert!((r.queue.core.vars.avg - expected).abs() < 1e-12, "{} vs {}", r.queue.core.vars.avg, expected);
    }

    #[test]
    fn the_idle_decay_is_exactly_powf_for_short_and_long_idle_periods() {
        // 2500 slots per second: an idle period of m · 0.4 ms + 0.1 ms is m slots (none for m = 0). Short
        // periods read the table, long ones call powf: both must give powf's own value,
        // bit for bit (results may not change with the table).
        for m in [0u64, 1, 2, 7, 31, 32, 33, 100, 5000] {
            let mut r = red(RedParams { weight: QueueWeight::Fixed(0.002), ..RedParams::default() });
            r.queue.core.vars.avg = 8.0;
            r.queue.core.vars.idle = true;
            r.queue.core.vars.idle_since = 0;
            r.queue.core.end_idle_period(m * 400_000_000 + 100_000_000);
            assert_eq!(r.queue.core.vars.avg.to_bits(), (8.0 * 0.998f64.powf(m as f64)).to_bits(), "m = {m}");
        }
    }

    #[test]
    fn busy_queue_gets_no_idle_correction() {
        let mut r = red(RedParams { weight: QueueWeight::Fixed(0.1), ..RedParams::default() });
        r.queue.core.vars.avg = 8.0;
        r.queue.core.vars.idle = false;
        r.enq(arrival(0), 5 * PS_PER_MS);
        assert!((r.queue.core.vars.avg - 8.0 * 0.9).abs() < 1e-12);
    }

    // ---- count and verdicts ----

    #[test]
    fn crossing_min_th_sets_count_to_one_without_dropping() {
        let mut r = red(RedParams::default());
        r.queue.core.vars.idle = false;
        for i in 0..3 {
            r.enq(arrival(i), 0);
        }
        r.queue.core.vars.avg = 6.0; // above min_th; the next arrival sees q = 3 > 1
        assert_eq!(r.enq(arrival(3), 0), Verdict::Queued);
        assert!(r.queue.core.vars.old);
        assert_eq!(r.queue.core.vars.count, 1);
    }

    #[test]
    fn average_below_min_th_never_drops_and_clears_old() {
        let mut r = red(RedParams::default());
        r.queue.core.vars.old = true;
        for i in 0..40 {
            assert_eq!(r.enq(arrival(i), 0), Verdict::Queued);
        }
        assert!(!r.queue.core.vars.old);
    }

    #[test]
    fn full_buffer_drops_as_overflow_and_resets_count() {
        // Packet mode limit 5: an arrival finding 5 waiting is dropped (ns-2 qlen >= qlim).
        let mut r = red(RedParams { limit: Limit::Packets(5), min_th: Threshold::Packets(100.0), max_th: Threshold::Packets(200.0), ..RedParams::default() });
        for i in 0..5 {
            assert_eq!(r.enq(arrival(i), 0), Verdict::Queued);
        }
        assert_eq!(r.enq(arrival(5), 0), Verdict::Dropped(DropReason::Overflow));
        assert_eq!(r.queue.core.vars.count, 0);
        assert_eq!(r.len_packets(), 5);
    }

    #[test]
    fn without_use_mark_p_average_above_twice_max_th_forces_a_drop() {
        let mut r = red(RedParams { use_mark_p: false, ..RedParams::default() });
        for i in 0..3 {
            r.enq(arrival(i), 0);
        }
        r.queue.core.vars.avg = 40.0;
        r.queue.core.vars.old = true;
        assert_eq!(r.enq(arrival(9), 0), Verdict::Dropped(DropReason::Early));
    }

    #[test]
    fn ecn_marks_ect_packets_instead_of_dropping() {
        let mut r = red(RedParams { ecn: true, wait: false, ..RedParams::default() });
        for i in 0..3 {
            r.enq(arrival(i), 0);
        }
        // avg near max_th keeps p_b < mark_p; a high count makes p_a = 1.
        r.queue.core.vars.avg = 14.0 / (1.0 - r.queue.core.weight);
        r.queue.core.vars.old = true;
        r.queue.core.vars.count = 1000;
        let ect = Arrival { id: 7, size: 1000, ecn: Ecn::Ect0, flow: 0, kind: PacketKind::Data, source: 0, rtt_hint: 0 };
        assert_eq!(r.enq(ect, 0), Verdict::Marked);
        r.queue.core.vars.count = 1000;
        assert_eq!(r.enq(arrival(8), 0), Verdict::Dropped(DropReason::Early));
    }

    // ---- automatic thresholds and weight (ns-2.35 REDQueue::initialize_params) ----
    //
    // Expected values from ns-2.35 itself: `ns validation/ns2/red_auto_params.tcl` prints
    // thresh_, maxthresh_ and q_weight_ as ns-2 writes them back into the bound variables
    // once the run has started, and thresh_queue_ (the threshold in the queue's unit).
    // Each case is a link of the rate and delay named, Queue/RED at ns-2.35's defaults
    // (thresh_ 0, maxthresh_ 0, q_weight_ -1, targetdelay_ 0.005, mean_pktsize_ 500)
    // except for what the case changes.

    /// ns-2 writes doubles with 17 significant digits, which read back exactly. tcpsim does
    /// the same operations in the same order, and with glibc's exp (as ns-2's) the values
    /// are bit-identical; the tolerance (a few ulps) leaves room for another libm's exp.
    #[track_caller]
    fn assert_ns2(got: f64, ns2: f64) {
        assert!((got - ns2).abs() <= 1e-15 * ns2.abs(), "tcpsim {got:e}, ns-2 {ns2:e}");
    }

    /// RED with every word of `auto` ("min_th", "max_th", "weight") set to "auto", the
    /// weight to `weight_word` when given, and the other parameters from `set`.
    fn auto_red(rate_bps: u64, delay: Dur, weight_word: &'static str, set: &[(&str, V)]) -> Red {
        let mut c = SPEC.defaults();
        c.set("min_th", V::Choice("auto"));
        c.set("max_th", V::Choice("auto"));
        c.set("weight", V::Choice(weight_word));
        for (k, v) in set {
            c.set(k, v.clone());
        }
        check(&c).expect("valid");
        Red::new(RedParams::from_config(&c), rate_bps, delay, RandomStream::new(1, "test"))
    }

    #[track_caller]
    fn assert_settings(r: &Red, min_th: f64, max_th: f64, weight: f64) {
        let s = r.settings();
        assert_ns2(s.min_th, min_th);
        assert_ns2(s.max_th, max_th);
        assert_ns2(s.weight, weight);
        assert_ns2(r.queue.core.weight, weight);
    }

    #[test]
    fn ns2_automatic_thresholds_are_five_packets_or_half_the_target_queue() {
        // ptc = rate / (8 · 500): 10 Mb/s → 2500 packets/s, target queue 12.5 → min_th 6.25;
        // 1.5 Mb/s → 375/s, 1.875 → 5; 100 Mb/s → 25000/s → 62.5; max_th = 3 · min_th.
        // rtt = 3 · (delay + 1/ptc): 0.0612 s and 0.03012 s are raised to 0.1 s; 0.128 s not.
        let ms = PS_PER_MS;
        assert_settings(&auto_red(10_000_000, 20 * ms, "auto", &[]), 6.25, 18.75, 0.00039992001066557759);
        assert_settings(&auto_red(1_500_000, 40 * ms, "auto", &[]), 5.0, 15.0, 0.0020811647007007439);
        assert_settings(&auto_red(100_000_000, 10 * ms, "auto", &[]), 62.5, 187.5, 3.9999200010631952e-05);
        // 2 Mb/s / 200 ms: rtt = 3 · (0.2 + 0.002) = 0.606 s.
        assert_settings(&auto_red(2_000_000, 200 * ms, "auto", &[]), 5.0, 15.0, 0.00032997854839944551);
        // 64 kb/s / 1 ms: ptc = 16, so one packet's transmission (62.5 ms) dominates the rtt.
        assert_settings(&auto_red(64_000, ms, "auto", &[]), 5.0, 15.0, 0.032276041246392162);
    }

    #[test]
    fn ns2_automatic_settings_use_mean_packet_size_and_target_delay() {
        // 45 Mb/s, mean_pktsize_ 1000: ptc 5625, min_th 14.0625; rtt 3 · (0.1 + 1/5625).
        let r = auto_red(45_000_000, 100 * PS_PER_MS, "auto", &[("mean_packet_size", V::Size(1000))]);
        assert_settings(&r, 14.0625, 42.1875, 5.9152346852164861e-05);
        // targetdelay_ 0.02 at 10 Mb/s: target queue 50 packets, min_th 25.
        let r = auto_red(10_000_000, 20 * PS_PER_MS, "auto", &[("target_delay", V::Time(20 * PS_PER_MS))]);
        assert_settings(&r, 25.0, 75.0, 0.00039992001066557759);
    }

    #[test]
    fn ns2_automatic_weights_of_q_weight_0_and_minus_2() {
        // 2 Mb/s (ptc 500): q_weight_ 0 → 1 − exp(−1/500); q_weight_ −2 → 1 − exp(−10/500).
        let r = auto_red(2_000_000, 200 * PS_PER_MS, "auto_1s", &[]);
        assert_settings(&r, 5.0, 15.0, 0.001998001332666921);
        let r = auto_red(2_000_000, 200 * PS_PER_MS, "auto_100ms", &[]);
        assert_settings(&r, 5.0, 15.0, 0.019801326693244747);
    }

    #[test]
    fn ns2_automatic_max_th_follows_a_fixed_min_th_and_a_fixed_max_th_is_kept() {
        // thresh_ 10, maxthresh_ 0 → 10 / 30; thresh_ 0, maxthresh_ 40 → 6.25 / 40.
        let r = auto_red(10_000_000, 20 * PS_PER_MS, "auto", &[("min_th", V::Number(10.0))]);
        assert_settings(&r, 10.0, 30.0, 0.00039992001066557759);
        let r = auto_red(10_000_000, 20 * PS_PER_MS, "auto", &[("max_th", V::Number(40.0))]);
        assert_settings(&r, 6.25, 40.0, 0.00039992001066557759);
    }

    #[test]
    fn ns2_byte_mode_multiplies_automatic_thresholds_by_mean_packet_size() {
        // ns-2.35 defaults (queue_in_bytes_ true): thresh_queue_ 3125, maxthresh_queue_ 9375;
        // with queue_in_bytes_ false they stay 6.25 and 18.75.
        let r = auto_red(10_000_000, 20 * PS_PER_MS, "auto", &[("queue_in_bytes", V::Bool(true))]);
        assert_eq!((r.queue.core.min_th, r.queue.core.max_th), (3125.0, 9375.0));
        let r = auto_red(10_000_000, 20 * PS_PER_MS, "auto", &[]);
        assert_eq!((r.queue.core.min_th, r.queue.core.max_th), (6.25, 18.75));
    }

    #[test]
    fn fixed_settings_ignore_the_link() {
        let r = Red::new(RedParams::default(), 64_000, 500 * PS_PER_MS, RandomStream::new(1, "test"));
        assert_eq!(r.settings(), RedSettings { min_th: 5.0, max_th: 15.0, weight: 0.002 });
    }

    #[test]
    fn a_fixed_max_th_must_lie_above_the_automatic_min_th_of_its_link() {
        let mut c = SPEC.defaults();
        c.set("min_th", V::Choice("auto"));
        c.set("max_th", V::Number(20.0));
        assert!(check(&c).is_ok());
        let link = |rate_bps| QueueLink { rate_bps, delay: 0, largest_packet: 1040 };
        assert!(check_link(&c, &link(10_000_000)).is_ok()); // min_th 6.25
        let e = check_link(&c, &link(100_000_000)).unwrap_err(); // min_th 62.5
        assert!(e.contains("62.5 packets"), "{e}");
    }

    #[test]
    fn higher_max_p_gives_at_least_as_many_early_drops() {
        fn early_drops(max_p: f64) -> usize {
            let mut r = red(RedParams { max_p, limit: Limit::Packets(1000), ..RedParams::default() });
            let mut drops = 0;
            let mut id = 0;
            // Hold the queue near 10 packets: 11 arrivals per 10 departures.
            for round in 0..2000 {
                for _ in 0..11 {
                    if let Verdict::Dropped(DropReason::Early) = r.enq(arrival(id), round) {
                        drops += 1;
                    }
                    id += 1;
                }
                while r.len_packets() > 10 {
                    r.deq(round);
                }
            }
            drops
        }
        let low = early_drops(0.02);
        let high = early_drops(0.2);
        assert!(high >= low && high > 0, "max_p 0.2 gave {high}, 0.02 gave {low}");
    }
}
