//! DRED's controller and parameters, shared by DRED (`dred.rs`) and ECN over DRED
//! (`ecn_dred.rs`): the parameters both take (`DredParams`), and the integral control law
//! that turns the sampled queue into the drop (or mark) probability p_d (`DredControl`).
//!
//! J. Aweya, M. Ouellette and D. Y. Montuno, "A control theoretic approach to active
//! queue management", Computer Networks 36 (2001) 203–235 (DRED), as R. M. Arora, "TCP/IP
//! Networks with ECN over AQM", M.Eng. thesis, Carleton University, 2003 (reference
//! document 002) writes it in §2.2.2 and Table 2-2. Every Δt (sample n):
//!
//!   e(n)   = q(n) − T                                   error (ECN over DRED: q − c − T, §3.1.3)
//!   ê(n)   = (1 − β) · ê(n − 1) + β · e(n)              first-order low-pass filter
//!   p_d(n) = clip[0, 1](p_d(n − 1) + α · ê(n) / B)      integral control, clipped
//!
//! q(n) the packets waiting at the sample (not the one on the wire), T the target, B the
//! buffer, α the control gain, β the filter gain; ê(0) = 0 (the thesis gives no initial
//! value; a filter starts empty) and p_d(0) = `initial_p` (Table 3-1).
//!
//! Parameters (defaults: Table 3-1, the thesis's values, which are Table 2-2's
//! recommendations for its link):
//! - `limit` B: packets only (the control law divides by a packet count), default 586
//!   packets. An arrival that finds B packets waiting is dropped (overflow): the buffer
//!   holds B waiting packets besides the one on the wire.
//! - `target` T: packets, default "auto" = B / 2 (293 for 586), not rounded.
//! - `no_drop_threshold` L: packets, default "auto" = 0.9 · T (263.7 for T = 293), not
//!   rounded: the queue is a whole number, so "q < 263.7" is "q < 264", Table 3-1's L.
//! - `no_drop_rule`: bool, default true: no early drop while q < L (see `dred.rs`).
//! - `alpha` α 0.00005, `beta` β 0.002, `initial_p` p_d(0) 0.05: no unit.
//! - Δt: `interval_packets` (default 10) transmission times of a `mean_packet_size`
//!   packet (default 576 B, the thesis's packet) on the link's rate — 10 · 576 · 8 bits at
//!   45 Mb/s = 1.024 ms; or `interval`, a time, which replaces both.
//!
//! The timer: the samples run at Δt, 2Δt, ... from t = 0, each on its own timer event
//! (`QueueCtx::set_timer`). A discipline gets no call before its first packet or flow
//! notice, so the samples before that one are taken then, in one go, each seeing the
//! empty queue it would have seen (`DredControl::start`): the state afterwards is what a
//! timer running from t = 0 would have left.

use super::{Limit, QueueCtx, QueueLink};
use crate::engine::time::{self, Dur, SimTime};
use crate::engine::RandomStream;
use crate::model::{ModelConfig, Param, ParamError, ParamType as T, Value as V};

const THESIS: &str = "reference document 002 (Arora, M.Eng. thesis, Carleton, 2003), Table 3-1";
const AWEYA: &str = "Aweya, Ouellette & Montuno, Computer Networks 36 (2001), as reference document 002 Table 2-2 recommends";

// Each parameter is a constant so that DRED and ECN over DRED list the same ones without
// writing a default twice.
pub(crate) const LIMIT: Param = Param::new(
    "limit",
    T::Limit,
    "packets",
    V::Limit(Limit::Packets(586)),
    "buffer size B in packets: an arrival that finds B packets waiting is dropped (the one on the wire not counted)",
    THESIS,
);
pub(crate) const TARGET: Param = Param::new(
    "target",
    T::NumberOr(&["auto"]),
    "packets",
    V::Choice("auto"),
    "control target T, the queue DRED holds; \"auto\": B / 2, not rounded (293 for B = 586)",
    "reference document 002, Table 2-2 (T = B/2) and Table 3-1 (293 packets)",
)
.range(0.0, 1e12);
pub(crate) const NO_DROP_THRESHOLD: Param = Param::new(
    "no_drop_threshold",
    T::NumberOr(&["auto"]),
    "packets",
    V::Choice("auto"),
    "no-drop threshold L; \"auto\": 0.9 · T, not rounded (263.7 for T = 293: with a whole-packet queue, q < 263.7 is q < 264, Table 3-1's L)",
    "reference document 002, Table 2-2 (L = 0.9T) and Table 3-1 (264 packets)",
)
.range(0.0, 1e12);
pub(crate) const NO_DROP_RULE: Param = Param::new(
    "no_drop_rule",
    T::Bool,
    "",
    V::Bool(true),
    "no early drop (DRED) while the queue is below L; false: drop with p_d at any queue length",
    "Aweya, Ouellette & Montuno 2001 (the thesis lists L without saying how it is used, its §2.2.2)",
);
pub(crate) const ALPHA: Param =
    Param::new("alpha", T::Number, "", V::Number(0.00005), "control gain α: p_d(n) = p_d(n−1) + α · ê(n) / B", AWEYA).range(0.0, 1e6);
pub(crate) const BETA: Param =
    Param::new("beta", T::Number, "", V::Number(0.002), "filter gain β: ê(n) = (1 − β) · ê(n−1) + β · e(n)", AWEYA).range(0.0, 1.0);
pub(crate) const INITIAL_P: Param = Param::new("initial_p", T::Number, "", V::Number(0.05), "p_d(0), the probability before the first sample", THESIS).range(0.0, 1.0);
pub(crate) const INTERVAL_PACKETS: Param = Param::new(
    "interval_packets",
    T::Number,
    "packet transmission times",
    V::Number(10.0),
    "sampling interval Δt in transmission times of a mean_packet_size packet on the link (10 · 576 B at 45 Mb/s = 1.024 ms)",
    "reference document 002, Tables 2-2 and 3-1",
)
.range(0.0, 1e9);
pub(crate) const MEAN_PACKET_SIZE: Param = Param::new(
    "mean_packet_size",
    T::Size,
    "B",
    V::Size(576),
    "the packet whose transmission time interval_packets counts",
    "reference document 002, §2.1 (576-byte packets)",
)
.range(1.0, 4294967295.0);
pub(crate) const INTERVAL: Param = Param::new(
    "interval",
    T::Time,
    "s",
    V::Unset,
    "sampling interval Δt as a time, instead of interval_packets transmission times",
    "reference document 002, Table 2-2 (\"or any suitable value\")",
)
.range(1e-9, 1e6);

/// How long Δt is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SampleInterval {
    /// `packets` transmission times of a `size`-byte packet on the link.
    Packets { packets: f64, size: u64 },
    Fixed(Dur),
}

impl SampleInterval {
    /// Δt on a link of `rate_bps`.
    pub fn on_link(self, rate_bps: u64) -> Dur {
        match self {
            SampleInterval::Packets { packets, size } => time::from_secs(packets * size as f64 * 8.0 / rate_bps.max(1) as f64),
            SampleInterval::Fixed(dt) => dt,
        }
    }
}

/// DRED's typed parameters (see the header for each).
#[derive(Debug, Clone, PartialEq)]
pub struct DredParams {
    /// B, packets.
    pub buffer: u64,
    /// T, packets.
    pub target: f64,
    /// L, packets.
    pub no_drop_threshold: f64,
    pub alpha: f64,
    pub beta: f64,
    pub initial_p: f64,
    pub interval: SampleInterval,
}

impl DredParams {
    /// Typed parameters; every default is the registry's (the specs' `Param`s).
    pub fn from_config(c: &ModelConfig) -> Self {
        let buffer = match c.limit("limit") {
            Limit::Packets(n) => n,
            // Rejected by `check`; a typed form is still made before checking.
            Limit::Bytes(_) => 0,
        };
        let target = match c.get("target") {
            V::Choice(_) => buffer as f64 / 2.0,
            _ => c.number("target"),
        };
        let no_drop_threshold = match c.get("no_drop_threshold") {
            V::Choice(_) => 0.9 * target,
            _ => c.number("no_drop_threshold"),
        };
        let interval = match c.get("interval") {
            V::Unset => SampleInterval::Packets { packets: c.number("interval_packets"), size: c.size("mean_packet_size") },
            _ => SampleInterval::Fixed(c.time("interval")),
        };
        DredParams {
            buffer,
            target,
            no_drop_threshold,
            alpha: c.number("alpha"),
            beta: c.number("beta"),
            initial_p: c.number("initial_p"),
            interval,
        }
    }

    /// The checks of the shared parameters: a packet limit, T and L within the buffer, Δt
    /// given one way.
    pub(crate) fn check(c: &ModelConfig) -> Result<DredParams, ParamError> {
        let p = DredParams::from_config(c);
        match c.limit("limit") {
            Limit::Bytes(_) => return Err(ParamError::new("limit", "a limit in packets, e.g. \"586p\" (DRED's control law counts packets)")),
            Limit::Packets(0) => return Err(ParamError::new("limit", "a limit of at least 1 packet")),
            Limit::Packets(_) => {}
        }
        if p.target > p.buffer as f64 {
            return Err(ParamError::new("target", format!("a target of at most the limit ({} packets)", p.buffer)));
        }
        if p.no_drop_threshold > p.buffer as f64 {
            return Err(ParamError::new("no_drop_threshold", format!("a threshold of at most the limit ({} packets)", p.buffer)));
        }
        match p.interval {
            SampleInterval::Packets { packets, .. } if packets <= 0.0 => {
                return Err(ParamError::new("interval_packets", "a sampling interval of more than 0 packet transmission times"));
            }
            _ => {}
        }
        // With `interval`, the other way of giving Δt is an error unless it keeps its
        // default (which changes nothing; `tcpsim models` examples write every parameter).
        if c.is_given("interval") {
            for other in [&INTERVAL_PACKETS, &MEAN_PACKET_SIZE] {
                if c.is_given(other.name) && *c.get(other.name) != other.default {
                    return Err(ParamError::new(
                        other.name,
                        "either interval or interval_packets and mean_packet_size (Δt given once), not both",
                    ));
                }
            }
        }
        Ok(p)
    }

    /// Checks what only the link shows: a sampling interval of at least a nanosecond.
    pub(crate) fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        let dt = self.interval.on_link(link.rate_bps);
        if dt < time::PS_PER_NS {
            return Err(format!(
                "a sampling interval of at least 1 ns (interval, or interval_packets transmission times of mean_packet_size at the link's rate, gives {dt} ps)"
            ));
        }
        Ok(())
    }
}

/// The controller: p_d and the filtered error, sampled every Δt from t = 0.
#[derive(Debug, Clone)]
pub struct DredControl {
    target: f64,
    /// α / B.
    gain: f64,
    beta: f64,
    interval: Dur,
    /// p_d, the drop (or mark) probability.
    p: f64,
    /// ê, packets.
    filtered_error: f64,
    /// When the next sample is due; `None` until the first call into the queue.
    next_sample: Option<SimTime>,
}

impl DredControl {
    /// A controller for `params` on a link of `rate_bps`.
    pub fn new(params: &DredParams, rate_bps: u64) -> Self {
        DredControl {
            target: params.target,
            gain: params.alpha / params.buffer.max(1) as f64,
            beta: params.beta,
            interval: params.interval.on_link(rate_bps),
            p: params.initial_p,
            filtered_error: 0.0,
            next_sample: None,
        }
    }

    /// p_d.
    pub fn probability(&self) -> f64 {
        self.p
    }

    /// Whether this arrival is signalled (dropped or marked): a draw from `random` below
    /// p_d. No draw while p_d is 0, so an idle controller leaves the stream untouched.
    pub fn signals(&self, random: &mut RandomStream) -> bool {
        self.p > 0.0 && random.uniform() < self.p
    }

    /// ê, packets.
    pub fn filtered_error(&self) -> f64 {
        self.filtered_error
    }

    /// Δt.
    pub fn interval(&self) -> Dur {
        self.interval
    }

    /// One sample of the control law with `queue` packets counted (q, or q − c for ECN
    /// over DRED).
    pub fn update(&mut self, queue: f64) {
        let error = queue - self.target;
        self.filtered_error = (1.0 - self.beta) * self.filtered_error + self.beta * error;
        self.p = (self.p + self.gain * self.filtered_error).clamp(0.0, 1.0);
    }

    /// Called on every entry into the queue that may be its first (an arrival, a flow
    /// notice): the first time, takes the samples due at or before now (the queue was
    /// empty for all of them) and asks for the timer of the next. Afterwards one branch.
    #[inline(always)]
    pub fn start(&mut self, ctx: &mut QueueCtx) {
        if self.next_sample.is_none() {
            self.catch_up(ctx);
        }
    }

    #[cold]
    fn catch_up(&mut self, ctx: &mut QueueCtx) {
        let mut at = self.interval;
        while at <= ctx.now {
            self.update(0.0);
            at += self.interval;
        }
        self.next_sample = Some(at);
        ctx.set_timer(at);
    }

    /// The sample timer fired: one sample with `queue` packets counted, and the timer of
    /// the next.
    pub fn on_timer(&mut self, ctx: &mut QueueCtx, queue: f64) {
        let Some(due) = self.next_sample else { return };
        debug_assert_eq!(due, ctx.now, "DRED asks for one timer at a time");
        self.update(queue);
        let next = due + self.interval;
        self.next_sample = Some(next);
        ctx.set_timer(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::QueueAction;

    fn params() -> DredParams {
        DredParams {
            buffer: 586,
            target: 293.0,
            no_drop_threshold: 263.7,
            alpha: 0.00005,
            beta: 0.002,
            initial_p: 0.05,
            interval: SampleInterval::Packets { packets: 10.0, size: 576 },
        }
    }

    #[test]
    fn the_interval_is_ten_576_byte_packets_at_45_mbps_or_a_given_time() {
        // 10 · 576 · 8 = 46 080 bits / 45e6 b/s = 1.024 ms exactly.
        assert_eq!(params().interval.on_link(45_000_000), 1_024_000_000);
        // At 10 Mb/s: 46 080 / 1e7 = 4.608 ms.
        assert_eq!(params().interval.on_link(10_000_000), 4_608_000_000);
        assert_eq!(SampleInterval::Fixed(5 * time::PS_PER_MS).on_link(45_000_000), 5 * time::PS_PER_MS);
    }

    #[test]
    fn one_sample_filters_the_error_and_integrates_it() {
        let mut c = DredControl::new(&params(), 45_000_000);
        // q = 393: e = 100, ê = 0.002 · 100 = 0.2, p = 0.05 + 5e-5 · 0.2 / 586.
        c.update(393.0);
        assert!((c.filtered_error() - 0.2).abs() < 1e-12);
        assert!((c.probability() - (0.05 + 0.00005 * 0.2 / 586.0)).abs() < 1e-15);
        // q = 293: e = 0, ê = 0.998 · 0.2 = 0.1996; p grows by 5e-5 · 0.1996 / 586.
        let before = c.probability();
        c.update(293.0);
        assert!((c.filtered_error() - 0.1996).abs() < 1e-12);
        assert!((c.probability() - (before + 0.00005 * 0.1996 / 586.0)).abs() < 1e-15);
    }

    #[test]
    fn the_probability_is_clipped_at_0_and_1() {
        // α = 586: p moves by ê per sample; β = 1: ê = e.
        let fast = DredParams { alpha: 586.0, beta: 1.0, ..params() };
        let mut c = DredControl::new(&fast, 45_000_000);
        c.update(293.0 - 0.04);
        assert!((c.probability() - 0.01).abs() < 1e-12, "0.05 − 0.04 stays inside [0, 1]");
        c.update(293.0 - 0.02);
        assert_eq!(c.probability(), 0.0, "0.01 − 0.02 < 0 is clipped to 0");
        c.update(293.0 + 0.5);
        assert_eq!(c.probability(), 0.5);
        c.update(293.0 + 0.5);
        assert_eq!(c.probability(), 1.0, "0.5 + 0.5 = 1 is inside");
        c.update(293.0 + 0.25);
        assert_eq!(c.probability(), 1.0, "1.25 is clipped to 1");
        c.update(293.0 - 0.25);
        assert_eq!(c.probability(), 0.75, "clipping keeps no memory of the excess");
    }

    #[test]
    fn the_first_call_takes_the_samples_missed_since_time_zero_and_starts_the_timer() {
        let dt = 1_024_000_000;
        // First arrival at 3.5 Δt: the samples at Δt, 2Δt and 3Δt saw an empty queue.
        let mut late = DredControl::new(&params(), 45_000_000);
        let mut actions = Vec::new();
        late.start(&mut QueueCtx::new(3 * dt + dt / 2, &mut actions));
        assert_eq!(actions, vec![QueueAction::Timer(4 * dt)]);
        let mut stepwise = DredControl::new(&params(), 45_000_000);
        for _ in 0..3 {
            stepwise.update(0.0);
        }
        assert_eq!((late.probability(), late.filtered_error()), (stepwise.probability(), stepwise.filtered_error()));
        // Later calls take nothing and ask for nothing.
        late.start(&mut QueueCtx::new(3 * dt + dt / 2 + 1, &mut actions));
        assert_eq!(actions.len(), 1);
        // A call at exactly 4Δt takes that sample too, and the timer is for 5Δt.
        let mut on_tick = DredControl::new(&params(), 45_000_000);
        let mut actions = Vec::new();
        on_tick.start(&mut QueueCtx::new(4 * dt, &mut actions));
        assert_eq!(actions, vec![QueueAction::Timer(5 * dt)]);
        stepwise.update(0.0);
        assert_eq!(on_tick.probability(), stepwise.probability());
    }

    #[test]
    fn the_timer_samples_and_asks_for_the_next() {
        let dt = 1_024_000_000;
        let mut c = DredControl::new(&params(), 45_000_000);
        let mut actions = Vec::new();
        c.start(&mut QueueCtx::new(0, &mut actions));
        assert_eq!(actions, vec![QueueAction::Timer(dt)]);
        actions.clear();
        c.on_timer(&mut QueueCtx::new(dt, &mut actions), 393.0);
        assert_eq!(actions, vec![QueueAction::Timer(2 * dt)]);
        assert!((c.filtered_error() - 0.2).abs() < 1e-12);
    }
}
