//! RED's parameters: the spec every RED queue is configured from (`SPEC`), their typed
//! form (`RedParams`), and the thresholds and weight they give on a link
//! (`RedParams::settings`, ns-2.35 `REDQueue::initialize_params`). The algorithm is in
//! `red_core.rs` and `red.rs`, whose header gives the rules and the choices; variants of
//! RED reuse these parameters.

use super::{Limit, QueueLink};
use crate::engine::time::{self, Dur, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};

const NS2: &str = "ns-2.35 Queue/RED default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Queue,
    name: "red",
    summary: "Random Early Detection with ns-2.35 semantics: per-arrival EWMA with idle correction, count, gentle, wait, byte mode, ECN marking; thresholds and weight fixed or computed from the link",
    source: "Floyd & Jacobson, IEEE/ACM ToN 1(4), 1993; ns-2.35 Queue/RED (red.cc); automatic thresholds and weight: Floyd, Gummadi & Shenker, Adaptive RED, 2001; reference document 000 §1.4",
    params: &[LIMIT, MIN_TH, MAX_TH, WEIGHT, TARGET_DELAY, MAX_P, LINTERM, GENTLE, WAIT, MEAN_PACKET_SIZE, QUEUE_IN_BYTES, BYTES, ECN, USE_MARK_P, MARK_P],
    check,
    relations: Relations::NONE,
};


// Each parameter is a constant so that RED variants list the ones they share
// (queue/red_n.rs) without writing a default twice.
pub(crate) const LIMIT: Param = Param::new("limit", T::Limit, "packets or bytes", V::Limit(Limit::Packets(50)), "buffer limit; in byte mode a packet limit is limit × mean_packet_size bytes", NS2);
pub(crate) const MIN_TH: Param = Param::new("min_th", T::NumberOr(&["auto"]), "packets", V::Number(5.0), "minimum threshold min_th (ns-2 thresh_); \"auto\": max(5, target_delay · ptc / 2) with ptc = rate / (8 · mean_packet_size) packets/s (ns-2 thresh_ 0)", "Floyd93, a fixed value (ns-2.35's default is \"auto\": thresh_ 0); \"auto\": ns-2.35 red.cc initialize_params, Floyd, Gummadi & Shenker 2001").range(0.0, 1e12);
pub(crate) const MAX_TH: Param = Param::new("max_th", T::NumberOr(&["auto"]), "packets", V::Number(15.0), "maximum threshold max_th (ns-2 maxthresh_); \"auto\": 3 · min_th (ns-2 maxthresh_ 0)", "Floyd93, a fixed value (ns-2.35's default is \"auto\": maxthresh_ 0); \"auto\": ns-2.35 red.cc initialize_params, Floyd, Gummadi & Shenker 2001").range(0.0, 1e12);
pub(crate) const WEIGHT: Param = Param::new("weight", T::NumberOr(&["auto", "auto_1s", "auto_100ms"]), "", V::Number(0.002), "EWMA weight w_q (ns-2 q_weight_); \"auto\": 1 − exp(−1/(10 · rtt · ptc)) with rtt = max(0.1 s, 3 · (delay + 1/ptc)), delay the link's (ns-2 q_weight_ −1); \"auto_1s\": 1 − exp(−1/ptc) (ns-2 0); \"auto_100ms\": 1 − exp(−10/ptc) (ns-2 −2)", "Floyd93, a fixed value (ns-2.35's default is \"auto\": q_weight_ −1); automatic: ns-2.35 red.cc initialize_params, Floyd, Gummadi & Shenker 2001").range(0.0, 1.0);
pub(crate) const TARGET_DELAY: Param = Param::new("target_delay", T::Time, "s", V::Time(5 * PS_PER_MS), "queueing delay that min_th = \"auto\" aims at (ns-2 targetdelay_)", NS2).range(0.0, 1e3);
pub(crate) const MAX_P: Param = Param::new("max_p", T::Number, "", V::Number(0.1), "drop probability at max_th (ns-2 1/linterm_)", NS2).range(0.0, 1.0);
pub(crate) const LINTERM: Param = Param::new("linterm", T::Number, "", V::Unset, "alternative to max_p: max_p = 1/linterm (ns-2 linterm_)", NS2).range(1.0, 1e9);
pub(crate) const GENTLE: Param = Param::new("gentle", T::Bool, "", V::Bool(true), "drop probability rises from max_p to 1 between max_th and 2·max_th (ns-2 gentle_)", NS2);
pub(crate) const WAIT: Param = Param::new("wait", T::Bool, "", V::Bool(true), "spread drops uniformly: p_a = p_b/(2 − count·p_b) (ns-2 wait_)", NS2);
pub(crate) const MEAN_PACKET_SIZE: Param = Param::new("mean_packet_size", T::Size, "B", V::Size(500), "mean packet size for idle correction, byte mode and the automatic thresholds and weight (ns-2 mean_pktsize_)", NS2).range(1.0, 4294967295.0);
pub(crate) const QUEUE_IN_BYTES: Param = Param::new("queue_in_bytes", T::Bool, "", V::Bool(false), "average and thresholds in bytes (ns-2 queue_in_bytes_; ns-2.35 default true, ns-2.27 false)", "ns-2.27 default");
pub(crate) const BYTES: Param = Param::new("bytes", T::Bool, "", V::Bool(false), "byte-mode drop probability: count in bytes, p_a scaled by size (ns-2 bytes_)", "ns-2.27 default");
pub(crate) const ECN: Param = Param::new("ecn", T::Bool, "", V::Bool(false), "mark ECN-capable packets instead of dropping them (ns-2 setbit_)", NS2);
pub(crate) const USE_MARK_P: Param = Param::new("use_mark_p", T::Bool, "", V::Bool(true), "no forced drop by the average; mark only while p_b < mark_p (ns-2 use_mark_p_)", NS2);
pub(crate) const MARK_P: Param = Param::new("mark_p", T::Number, "", V::Number(0.1), "largest p_b at which ECN packets are marked rather than dropped (ns-2 mark_p_)", NS2).range(0.0, 1.0);

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = RedParams::from_config(c);
    p.validate_thresholds()?;
    check_shared(c, &p)
}

/// The checks of the parameters every RED variant shares (all but the thresholds and
/// target_delay): max_p or linterm, ranges between values, a limit that holds a packet.
pub(crate) fn check_shared(c: &ModelConfig, p: &RedParams) -> Result<(), ParamError> {
    if c.is_given("max_p") && c.is_given("linterm") {
        return Err(ParamError::new("linterm", "either max_p or linterm (max_p = 1/linterm), not both"));
    }
    p.validate_shared()?;
    if matches!(p.limit, Limit::Packets(0)) || p.limit_bytes() == 0 {
        return Err(ParamError::new("limit", "a limit that can hold at least one packet"));
    }
    Ok(())
}

/// A RED threshold (ns-2 `thresh_`, `maxthresh_`): a number of packets, or computed from
/// the link as ns-2.35 does when the variable is 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    Packets(f64),
    /// min_th: max(5, target_delay · ptc / 2); max_th: 3 · min_th.
    Auto,
}

/// The EWMA weight w_q (ns-2 `q_weight_`): fixed, or computed from the link. With
/// ptc = rate / (8 · mean_packet_size) packets per second, 1 − exp(−1/n) gives the
/// average a time constant of n arrivals at the link rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueueWeight {
    Fixed(f64),
    /// ns-2 `q_weight_ −1` (the ns-2.35 default): 1 − exp(−1/(10 · rtt · ptc)) with
    /// rtt = max(0.1 s, 3 · (delay + 1/ptc)): a time constant of ten round trips.
    Auto,
    /// ns-2 `q_weight_ 0`: 1 − exp(−1/ptc), a time constant of one second (Floyd,
    /// Gummadi & Shenker 2001).
    Auto1s,
    /// ns-2 `q_weight_ −2`: 1 − exp(−10/ptc), a time constant of 100 ms.
    Auto100ms,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RedParams {
    /// Buffer limit; in byte mode a packet limit is `limit · mean_packet_size` bytes (ns-2).
    pub limit: Limit,
    /// min_th, in packets (ns-2 `thresh_`).
    pub min_th: Threshold,
    /// max_th, in packets (ns-2 `maxthresh_`).
    pub max_th: Threshold,
    /// EWMA weight w_q (ns-2 `q_weight_`).
    pub weight: QueueWeight,
    /// Queueing delay an automatic min_th aims at (ns-2 `targetdelay_`).
    pub target_delay: Dur,
    /// max_p (ns-2 1/`linterm_`).
    pub max_p: f64,
    /// Gentle RED (ns-2 `gentle_`).
    pub gentle: bool,
    /// Spread drops uniformly (ns-2 `wait_`).
    pub wait: bool,
    /// Mean packet size in bytes (ns-2 `mean_pktsize_`).
    pub mean_packet_size: u32,
    /// Queue and thresholds in bytes (ns-2 `queue_in_bytes_`).
    pub queue_in_bytes: bool,
    /// Byte-mode drop probability (ns-2 `bytes_`).
    pub bytes: bool,
    /// Mark ECN-capable packets instead of dropping (ns-2 `setbit_`).
    pub ecn: bool,
    /// ns-2 `use_mark_p_`: no forced drop by the average; mark only while p_b < mark_p.
    pub use_mark_p: bool,
    /// ns-2 `mark_p_`.
    pub mark_p: f64,
}

/// min_th, max_th (packets) and w_q for one link direction: the fixed values, or those
/// ns-2.35 computes (`REDQueue::initialize_params`, then `reset`'s max_th = 3 · min_th).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RedSettings {
    pub min_th: f64,
    pub max_th: f64,
    pub weight: f64,
}

impl RedParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        let threshold = |name| match c.get(name) {
            V::Choice(_) => Threshold::Auto,
            _ => Threshold::Packets(c.number(name)),
        };
        RedParams::from_shared_config(c, threshold("min_th"), threshold("max_th"), c.time("target_delay"))
    }

    /// Typed parameters from a configuration that has the parameters every RED variant
    /// shares, with the thresholds (and the target delay of automatic ones) given: a
    /// variant that sets its thresholds itself (queue/red_n.rs) has no such keys.
    pub(crate) fn from_shared_config(c: &ModelConfig, min_th: Threshold, max_th: Threshold, target_delay: Dur) -> Self {
        let weight = weight_from_config(c);
        RedParams {
            limit: c.limit("limit"),
            min_th,
            max_th,
            weight,
            target_delay,
            max_p: c.opt_number("linterm").map_or_else(|| c.number("max_p"), |l| 1.0 / l),
            gentle: c.boolean("gentle"),
            wait: c.boolean("wait"),
            mean_packet_size: c.size("mean_packet_size") as u32,
            queue_in_bytes: c.boolean("queue_in_bytes"),
            bytes: c.boolean("bytes"),
            ecn: c.boolean("ecn"),
            use_mark_p: c.boolean("use_mark_p"),
            mark_p: c.number("mark_p"),
        }
    }
}

/// The weight of a configuration with RED's `weight` parameter (`WEIGHT`).
pub(crate) fn weight_from_config(c: &ModelConfig) -> QueueWeight {
    match c.get("weight") {
        V::Choice("auto") => QueueWeight::Auto,
        V::Choice("auto_1s") => QueueWeight::Auto1s,
        V::Choice("auto_100ms") => QueueWeight::Auto100ms,
        V::Choice(w) => unreachable!("weight {w:?} is not among the registered words"),
        _ => QueueWeight::Fixed(c.number("weight")),
    }
}

impl Default for RedParams {
    fn default() -> Self {
        RedParams::from_config(&SPEC.defaults())
    }
}

impl RedParams {
    /// The checks that need the link: the limit holds the largest packet, and a fixed
    /// max_th lies above an automatic min_th; returns what was expected.
    pub fn check_link(&self, link: &QueueLink) -> Result<(), String> {
        self.check_limit(link)?;
        let s = self.settings(link.rate_bps, link.delay);
        if !(s.max_th > s.min_th) {
            return Err(format!("max_th greater than min_th = \"auto\", which is {} packets on this link", s.min_th));
        }
        Ok(())
    }

    /// The limit holds the largest packet of the scenario (byte mode) or at least one
    /// packet (packet mode); returns what was expected.
    pub(crate) fn check_limit(&self, link: &QueueLink) -> Result<(), String> {
        let max_packet = link.largest_packet;
        if self.queue_in_bytes {
            let bytes = self.limit_bytes();
            if bytes < max_packet as u64 {
                return Err(format!("a limit of at least one packet ({max_packet} B); in byte mode the limit is {bytes} B"));
            }
        } else if self.limit_packets() == 0 {
            return Err(format!(
                "a limit of at least 1 packet; a byte limit counts packets of mean_packet_size ({} B) in packet mode",
                self.mean_packet_size
            ));
        }
        Ok(())
    }

    /// The limit in bytes as ns-2 computes it in byte mode.
    pub fn limit_bytes(&self) -> u64 {
        match self.limit {
            Limit::Packets(n) => n.saturating_mul(self.mean_packet_size as u64),
            Limit::Bytes(b) => b,
        }
    }

    /// The limit in packets for packet mode.
    pub fn limit_packets(&self) -> u64 {
        match self.limit {
            Limit::Packets(n) => n,
            Limit::Bytes(b) => b / self.mean_packet_size as u64,
        }
    }

    /// ns-2's `ptc`: packets of `mean_packet_size` bytes a link of `rate_bps` sends per
    /// second (the idle correction and the automatic settings use it).
    pub fn packets_per_second(&self, rate_bps: u64) -> f64 {
        rate_bps as f64 / (8.0 * self.mean_packet_size as f64)
    }

    /// min_th, max_th and w_q on a link direction of `rate_bps` and propagation `delay`
    /// (ns-2.35 `REDQueue::initialize_params`, run when `$q link` attaches the queue):
    ///   min_th = max(5, target_delay · ptc / 2)                              ("auto")
    ///   max_th = 3 · min_th                                                   ("auto")
    ///   w_q    = 1 − exp(−1/(10 · rtt · ptc)), rtt = max(0.1 s, 3 · (delay + 1/ptc)) ("auto")
    ///          1 − exp(−1/ptc) ("auto_1s"), 1 − exp(−10/ptc) ("auto_100ms")
    /// In packets whatever the mode: byte mode multiplies the thresholds by
    /// mean_packet_size afterwards, as ns-2's `reset` does.
    pub fn settings(&self, rate_bps: u64, delay: Dur) -> RedSettings {
        let ptc = self.packets_per_second(rate_bps);
        let min_th = match self.min_th {
            Threshold::Packets(n) => n,
            // ns-2: 5 packets, or half the target queue (target_delay · ptc) if larger.
            Threshold::Auto => (time::to_secs(self.target_delay) * ptc / 2.0).max(5.0),
        };
        let max_th = match self.max_th {
            Threshold::Packets(n) => n,
            Threshold::Auto => 3.0 * min_th,
        };
        let weight = match self.weight {
            QueueWeight::Fixed(w) => w,
            QueueWeight::Auto => {
                // ns-2: the default RTT is three times the link's delay plus one packet's
                // transmission time, at least 100 ms.
                let rtt = (3.0 * (time::to_secs(delay) + 1.0 / ptc)).max(0.1);
                1.0 - (-1.0 / (10.0 * rtt * ptc)).exp()
            }
            QueueWeight::Auto1s => 1.0 - (-1.0 / ptc).exp(),
            QueueWeight::Auto100ms => 1.0 - (-10.0 / ptc).exp(),
        };
        RedSettings { min_th, max_th, weight }
    }

    /// Checks the documented constraints that do not depend on the link (`check_link`
    /// checks an automatic min_th against a fixed max_th).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.validate_thresholds()?;
        self.validate_shared()
    }

    fn validate_thresholds(&self) -> Result<(), ParamError> {
        match (self.min_th, self.max_th) {
            (Threshold::Packets(min), _) if !(min >= 0.0) => Err(ParamError::new("min_th", "min_th ≥ 0")),
            (Threshold::Packets(min), Threshold::Packets(max)) if !(max > min) => {
                Err(ParamError::new("max_th", format!("max_th greater than min_th ({min})")))
            }
            (Threshold::Packets(min), Threshold::Auto) if !(min > 0.0) => {
                Err(ParamError::new("min_th", "min_th > 0 with max_th = \"auto\" (3 · min_th)"))
            }
            _ => Ok(()),
        }
    }

    /// The constraints on everything but the thresholds.
    fn validate_shared(&self) -> Result<(), ParamError> {
        if let QueueWeight::Fixed(w) = self.weight {
            if !(w > 0.0 && w <= 1.0) {
                return Err(ParamError::new("weight", "weight in (0, 1] (ns-2's q_weight_ 0 is weight = \"auto_1s\")"));
            }
        }
        if !(self.max_p > 0.0 && self.max_p <= 1.0) {
            return Err(ParamError::new("max_p", "max_p in (0, 1]"));
        }
        if !(self.mark_p > 0.0 && self.mark_p <= 1.0) {
            return Err(ParamError::new("mark_p", "mark_p in (0, 1]"));
        }
        if self.mean_packet_size == 0 {
            return Err(ParamError::new("mean_packet_size", "mean_packet_size > 0"));
        }
        Ok(())
    }
}
