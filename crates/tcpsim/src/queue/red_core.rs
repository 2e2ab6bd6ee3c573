//! The RED core: average queue, count, drop probability, gentle mode, idle correction —
//! what every RED variant shares. `red.rs` is RED itself (a FIFO, this core, and ECN
//! marking); a variant (DRED, connection-count RED, FECN, ...) is a small file that owns
//! a `RedCore` and decides what to do with its verdicts. The equations, with their
//! sources, are in `red.rs`'s header; the parameters are `RedParams` (registered there).

use super::red_params::{RedParams, RedSettings};
use crate::engine::{time, RandomStream, SimTime};
use crate::engine::time::Dur;

/// RED's variable state (ns-2 `edv_`).
#[derive(Debug, Clone, Default)]
pub(crate) struct RedVars {
    /// Average queue, packets (bytes in byte mode).
    pub(crate) avg: f64,
    /// Arrivals since the last early drop (ns-2 `count`).
    pub(crate) count: u64,
    pub(crate) count_bytes: u64,
    /// avg was above min_th at the previous arrival (ns-2 `old`).
    pub(crate) old: bool,
    pub(crate) idle: bool,
    pub(crate) idle_since: SimTime,
}

/// What the core decided for an arriving packet (before the buffer limit is checked).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RedDecision {
    /// Below min_th, or the random test missed: keep it.
    Pass,
    /// The average alone forces a drop (without `use_mark_p`, avg ≥ max_th, or ≥ 2·max_th
    /// when gentle).
    Forced,
    /// The random early test hit, with this p_b (a marking variant compares it with
    /// `mark_p`).
    Hit { p_b: f64 },
}

#[derive(Debug)]
pub struct RedCore {
    pub(crate) params: RedParams,
    /// min_th, max_th (packets) and w_q on this link: fixed, or computed from it.
    settings: RedSettings,
    /// Thresholds in the queue's unit (packets, or bytes in byte mode).
    pub(crate) min_th: f64,
    pub(crate) max_th: f64,
    /// EWMA weight w_q (`settings.weight`).
    pub(crate) weight: f64,
    /// The buffer limit in the unit of `measure` (`limit`).
    // Computed once: computing it (a checked product in byte mode) and converting it to
    // floating point at every arrival cost benchmark B1 4.8 M instructions, 23 per RED
    // arrival (docs/performance.md, "Winning back").
    limit: f64,
    /// Packets per second the link can send at mean_packet_size (ns-2 `ptc`).
    packets_per_second: f64,
    /// (1 − w_q)^m for the idle periods of m < IDLE_DECAY_STEPS slots, each computed by
    /// `powf` itself at construction, so a lookup gives the very value the call would.
    // Most idle periods are short (in benchmark B1 the ACK direction of the bottleneck
    // is idle between nearly every two ACKs, for a slot or two): the call cost B1 12.7 M
    // instructions, 2.4 % (docs/performance.md).
    idle_decay: [f64; IDLE_DECAY_STEPS],
    pub(crate) vars: RedVars,
    random: RandomStream,
}

/// Idle periods shorter than this many packet slots find their decay in a table.
const IDLE_DECAY_STEPS: usize = 32;

impl RedCore {
    /// The core of a queue feeding a link direction of `rate_bps` and propagation `delay`
    /// (automatic thresholds and weight are computed from them here, once).
    pub fn new(params: RedParams, rate_bps: u64, delay: Dur, random: RandomStream) -> Self {
        let settings = params.settings(rate_bps, delay);
        let scale = if params.queue_in_bytes { params.mean_packet_size as f64 } else { 1.0 };
        RedCore {
            settings,
            min_th: settings.min_th * scale,
            max_th: settings.max_th * scale,
            weight: settings.weight,
            limit: if params.queue_in_bytes { params.limit_bytes() as f64 } else { params.limit_packets() as f64 },
            packets_per_second: params.packets_per_second(rate_bps),
            idle_decay: std::array::from_fn(|m| (1.0 - settings.weight).powf(m as f64)),
            vars: RedVars { idle: true, ..RedVars::default() },
            random,
            params,
        }
    }

    pub fn params(&self) -> &RedParams {
        &self.params
    }

    /// min_th, max_th (packets) and w_q in use.
    pub fn settings(&self) -> RedSettings {
        self.settings
    }

    /// Replaces min_th and max_th (packets), for a variant whose thresholds follow a
    /// variable of the run (connection-count RED, `red_n.rs`); in byte mode they are
    /// scaled by mean_packet_size, as `new` scales fixed ones. The average, count and
    /// `old` carry over, as in ns-2 when a script sets `thresh_` on a running queue.
    pub fn set_thresholds(&mut self, min_th: f64, max_th: f64) {
        let scale = if self.params.queue_in_bytes { self.params.mean_packet_size as f64 } else { 1.0 };
        self.settings.min_th = min_th;
        self.settings.max_th = max_th;
        self.min_th = min_th * scale;
        self.max_th = max_th * scale;
    }

    /// The queue length RED works with: bytes in byte mode, else packets.
    pub fn measure(&self, packets: usize, bytes: u64) -> f64 {
        if self.params.queue_in_bytes {
            bytes as f64
        } else {
            packets as f64
        }
    }

    /// The buffer limit in the same unit as `measure`.
    pub fn limit(&self) -> f64 {
        self.limit
    }

    /// The average in packets (in byte mode, bytes / mean_packet_size).
    pub fn average_packets(&self) -> f64 {
        if self.params.queue_in_bytes {
            self.vars.avg / self.params.mean_packet_size as f64
        } else {
            self.vars.avg
        }
    }

    /// Steps 2–4 of `red.rs`'s header for a packet of `size` bytes arriving at a queue of
    /// length `q` (in the unit of `measure`); step 1, `end_idle_period`, comes first.
    // Inlined: with two callers (RED and connection-count RED) the compiler would call
    // it out of line, +0.5 % instructions in benchmark B1 (docs/performance.md).
    #[inline(always)]
    pub fn on_arrival(&mut self, q: f64, size: u32) -> RedDecision {
        self.on_arrival_with_max_p(q, size, |p| p.max_p)
    }

    /// `on_arrival` with max_p for this packet given by `max_p` in place of the
    /// parameter's (FECN, `fecn_red.rs`, scales it by the packet's RTT). Inlined into
    /// `on_arrival`, and `max_p` read only where p_b needs it, so RED pays nothing for it
    /// (passing max_p as a value cost one instruction per RED arrival).
    #[inline(always)]
    pub fn on_arrival_with_max_p(&mut self, q: f64, size: u32, max_p: impl Fn(&RedParams) -> f64) -> RedDecision {
        self.update_average(q);
        self.vars.count += 1;
        self.vars.count_bytes += size as u64;
        let avg = self.vars.avg;
        if !(avg >= self.min_th && q > 1.0) {
            self.vars.old = false;
            return RedDecision::Pass;
        }
        let forced_by_average = if self.params.gentle { avg >= 2.0 * self.max_th } else { avg >= self.max_th };
        if !self.params.use_mark_p && forced_by_average {
            self.reset_count();
            return RedDecision::Forced;
        }
        if !self.vars.old {
            // avg just crossed min_th (ns-2 sets count to 1 here).
            self.vars.count = 1;
            self.vars.count_bytes = size as u64;
            self.vars.old = true;
            return RedDecision::Pass;
        }
        // Step 4's random test (ns-2 `drop_early`).
        let p_b = self.base_probability_with_max_p(avg, max_p(&self.params));
        let p_a = self.drop_probability(p_b, size);
        if self.random.uniform() > p_a {
            return RedDecision::Pass;
        }
        self.reset_count();
        RedDecision::Hit { p_b }
    }

    /// A drop (or mark) restarts the count.
    pub fn reset_count(&mut self) {
        self.vars.count = 0;
        self.vars.count_bytes = 0;
    }

    /// The link asked for a packet: an empty queue starts an idle period.
    pub fn on_dequeue(&mut self, found_packet: bool, now: SimTime) {
        if found_packet {
            self.vars.idle = false;
        } else {
            self.vars.idle = true;
            self.vars.idle_since = now;
        }
    }

    /// Step 1, the idle correction (ns-2 `REDQueue::estimator` with m + 1): an arrival
    /// that ends an idle period first decays the average as if m small packets had
    /// arrived at an empty queue, m the packets the link could have sent meanwhile.
    // A step of its own, called before the queue is measured: the call to `powf` then
    // has none of the arrival's values to keep alive across it (they were spilled and
    // reloaded around it; in benchmark B1 124 241 of 208 513 RED arrivals end an idle
    // period): −1.2 M instructions in B1 (docs/performance.md, "Winning back").
    #[inline(always)]
    pub fn end_idle_period(&mut self, now: SimTime) {
        if !self.vars.idle {
            return;
        }
        self.vars.idle = false;
        let idle_time = time::to_secs(now.saturating_sub(self.vars.idle_since));
        let slots = self.packets_per_second * idle_time;
        // Short idle periods (most of them) find m = floor(slots) in the table: truncation
        // is floor for non-negative values, and i64's (one instruction plus the saturation
        // check) is much cheaper than u64's or the libm call `floor` is on the x86-64 baseline.
        let decay = if (0.0..IDLE_DECAY_STEPS as f64).contains(&slots) {
            let idle_slots = slots as i64 as usize;
            if idle_slots == 0 {
                return;
            }
            self.idle_decay[idle_slots]
        } else {
            // Truncation is exact below 2^63 (integers from 2^53 on).
            let idle_slots = if (0.0..9.2e18).contains(&slots) { slots as i64 as f64 } else { slots.floor() };
            if !(idle_slots > 0.0) {
                return;
            }
            (1.0 - self.weight).powf(idle_slots)
        };
        self.vars.avg *= decay;
    }

    /// Step 2, the EWMA of the queue length `q`.
    fn update_average(&mut self, q: f64) {
        let w = self.weight;
        self.vars.avg = (1.0 - w) * self.vars.avg + w * q;
    }

    /// p_b of the header (ns-2 `calculate_p_new`).
    pub fn base_probability(&self, avg: f64) -> f64 {
        self.base_probability_with_max_p(avg, self.params.max_p)
    }

    /// p_b with `max_p` given (a variant's per-packet max_p).
    pub fn base_probability_with_max_p(&self, avg: f64, max_p: f64) -> f64 {
        let p_b = if avg >= self.max_th {
            if self.params.gentle {
                // p_b = c·avg + d with c = (1 − max_p)/max_th, d = 2·max_p − 1.
                (1.0 - max_p) / self.max_th * avg + (2.0 * max_p - 1.0)
            } else {
                1.0
            }
        } else {
            max_p * (avg - self.min_th) / (self.max_th - self.min_th)
        };
        p_b.min(1.0)
    }

    /// p_a of the header (ns-2 `modify_p`), for a packet of `size` bytes.
    pub fn drop_probability(&self, p_b: f64, size: u32) -> f64 {
        let p = &self.params;
        let count = if p.bytes {
            (self.vars.count_bytes / p.mean_packet_size as u64) as f64
        } else {
            self.vars.count as f64
        };
        let mut p_a = if p.wait {
            if count * p_b < 1.0 {
                0.0
            } else if count * p_b < 2.0 {
                p_b / (2.0 - count * p_b)
            } else {
                1.0
            }
        } else if count * p_b < 1.0 {
            p_b / (1.0 - count * p_b)
        } else {
            1.0
        };
        if p.bytes && p_a < 1.0 {
            p_a = p_a * size as f64 / p.mean_packet_size as f64;
        }
        p_a.min(1.0)
    }
}
