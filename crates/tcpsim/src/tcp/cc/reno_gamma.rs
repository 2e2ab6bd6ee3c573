//! Reno + γ and Reno + γ + δ: Reno whose window falls early, by γ, one RTT after the
//! normalized queueing delay crosses an upper threshold, and optionally grows by δ packets
//! per RTT while it stays under a lower one.
//!
//! C. Zhang and V. Tsaoussidis, "Improving TCP Smoothness by Synchronized and
//! Measurement-based Congestion Avoidance", NOSSDAV '03, Monterey, June 2003, §3
//! (reference document 003). The paper gives the mechanism no name; its figures label the
//! two configurations "Reno + γ" and "Reno + γ + δ", hence `cc = "reno_gamma"` with
//! `delta = false | true`.
//!
//! With minRTT and maxRTT the smallest and largest RTT samples, RTT(t) the latest sample
//! and x = (RTT(t) − minRTT) / (maxRTT − minRTT) the normalized queueing delay:
//!
//!   slow start, loss response (fast retransmit, timeout): Reno's, unchanged (§3.1)
//!   congestion avoidance:  cwnd ← cwnd + α/cwnd per ACK of new data, α = 1     (§3.1)
//!   x ≥ th_upper (eq. 10): one RTT later, cwnd ← γ · cwnd, with
//!                          γ = minRTT / (th_upper · maxRTT + (1 − th_upper) · minRTT)
//!                            = 1 / (1 + th_upper · k),  k = max qdelay / minRTT   (eq. 11)
//!                          (k = 1, th_upper = 0.5: γ = 2/3)
//!   x ≤ th_lower (eq. 12), `delta = true`: cwnd ← cwnd + δ/cwnd per ACK of new data
//!                          instead of α/cwnd, δ = 2                              (§3.1)
//!
//! RTT samples come from the echo option (§3.2): each ACK a data packet triggered carries
//! that packet's sequence number (every receiver writes it; the delayed-ACK timer's ACKs
//! carry none), and the sample is now − send time of that packet if it was sent exactly
//! once (Karn). Duplicate ACKs give samples; delayed-ACK timer ACKs give none
//! ([`CcView::echo_rtt`]).
//!
//! Parameters (defaults): `th_upper` 0.5, `th_lower` 0.1 (set experimentally, §3.1),
//! `delta` false, `delta_increase` 2 packets per RTT, and one parameter for each choice
//! the paper leaves open (reference document 003 §2.3, choices (i)–(ix)):
//!
//! - (i) `rtt_signal` = "sample": RTT(t) in eq. 10 and 12 is the latest echo sample (the
//!   paper writes RTT(t)); "srtt" uses the smoothed RTT of the RTO estimator.
//! - (ii) `gamma_delay` = "sample": "after one RTT" is the sample that detected the
//!   condition; "srtt" waits one smoothed RTT.
//! - (iii) While a decrease is pending the condition does not schedule another (always:
//!   otherwise every ACK of the RTT would), and `holdoff` = true also ignores it for one
//!   RTT (the detecting sample) after the decrease, while the packets sent before the cut
//!   still arrive with the old queue's delay.
//! - (iv) `gamma_sets_ssthresh` = true: the decrease also sets ssthresh ← cwnd, so the
//!   flow stays in congestion avoidance.
//! - (v) `delta_persist` = "sample": δ applies on each ACK while the latest sample meets
//!   eq. 12; "rtt" only once every sample of a whole RTT has met it.
//! - (vi) `range_resets_on_timeout` = false: minRTT and maxRTT are lifetime extremes, as
//!   the paper implies; true forgets them at each retransmission timeout.
//! - (vii) `gamma_form` = "threshold": γ by the last form of eq. 11 (fixed threshold);
//!   "instantaneous" uses minRTT / RTT(t), the first form.
//! - (viii) `rules_in_recovery` = false: γ and δ stay off during fast recovery (its ACKs
//!   still give samples); true lets eq. 10 schedule a decrease then too.
//! - (ix) Each flow has its own window control, so minRTT, maxRTT, k and γ are per flow.
//!
//! Further choices: a decrease never takes the window below `min_window` (2 packets, ns-2's
//! smallest ssthresh); a loss response (fast retransmit or timeout) cancels a pending
//! decrease, since the window was already cut for that congestion; the thresholds and δ
//! apply in congestion avoidance only (cwnd ≥ ssthresh), as slow start is unmodified;
//! growth is per ACK as in ns-2's Reno (with delayed ACKs, about α/2 per RTT).

use super::{AckEvent, CcHooks, CcView, CongestionControl};
use crate::engine::time::{self, SimTime};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const PAPER: &str = "Zhang & Tsaoussidis, NOSSDAV 2003, §3.1";
const OPEN: &str = "Zhang & Tsaoussidis 2003 leave it open (reference document 003 §2.3)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "reno_gamma",
    summary: "Reno + gamma (+ delta): Reno that cuts its window by gamma = 1/(1 + th_upper*k) one RTT after the normalized queueing delay reaches th_upper, and (delta = true) adds delta packets per RTT while it stays under th_lower; RTT samples from the echo option",
    source: "Zhang & Tsaoussidis, \"Improving TCP Smoothness by Synchronized and Measurement-based Congestion Avoidance\", NOSSDAV 2003, §3, eq. 10-12",
    params: &[
        Param::new("th_upper", T::Number, "", V::Number(0.5), "normalized queueing delay at or above which the window falls by gamma one RTT later (eq. 10)", PAPER).range(0.0, 1.0),
        Param::new("th_lower", T::Number, "", V::Number(0.1), "normalized queueing delay at or below which delta replaces the additive increase (eq. 12)", PAPER).range(0.0, 1.0),
        Param::new("delta", T::Bool, "", V::Bool(false), "Reno + gamma + delta: grow by delta_increase per RTT while the delay is at or below th_lower", PAPER),
        Param::new("delta_increase", T::Number, "packets", V::Number(2.0), "additive increase per RTT while delta applies", PAPER).range(0.0, 1e6),
        Param::new("rtt_signal", T::Choice(&["sample", "srtt"]), "", V::Choice("sample"), "RTT(t) of eq. 10 and 12: the latest echo sample or the smoothed RTT (choice i)", OPEN),
        Param::new("gamma_delay", T::Choice(&["sample", "srtt"]), "", V::Choice("sample"), "the one RTT a decrease waits: the detecting sample or the smoothed RTT (choice ii)", OPEN),
        Param::new("holdoff", T::Bool, "", V::Bool(true), "ignore eq. 10 for one RTT after a decrease too, not only while one is pending (choice iii)", OPEN),
        Param::new("gamma_sets_ssthresh", T::Bool, "", V::Bool(true), "a decrease also sets ssthresh to the new window (choice iv)", OPEN),
        Param::new("delta_persist", T::Choice(&["sample", "rtt"]), "", V::Choice("sample"), "delta applies while the latest sample meets eq. 12, or once every sample of a whole RTT has (choice v)", OPEN),
        Param::new("range_resets_on_timeout", T::Bool, "", V::Bool(false), "forget minRTT and maxRTT at each retransmission timeout (choice vi; false: lifetime extremes)", OPEN),
        Param::new("gamma_form", T::Choice(&["threshold", "instantaneous"]), "", V::Choice("threshold"), "gamma by eq. 11's fixed-threshold form or its first form, minRTT / RTT(t) (choice vii)", OPEN),
        Param::new("rules_in_recovery", T::Bool, "", V::Bool(false), "let eq. 10 schedule a decrease during fast recovery too (choice viii)", OPEN),
        Param::new("min_window", T::Number, "packets", V::Number(2.0), "smallest window a decrease leaves", "ns-2.35 slowdown: ssthresh at least 2").range(1.0, 1e6),
    ],
    check,
    relations: Relations { reads_echo: true, ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(RenoGamma::new(GammaParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = GammaParams::from_config(c);
    if p.th_lower >= p.th_upper {
        return Err(ParamError::new("th_lower", format!("a threshold below th_upper ({})", p.th_upper)));
    }
    Ok(())
}

/// Where RTT(t) or "one RTT" comes from (choices i and ii).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RttSource {
    Sample,
    Smoothed,
}

/// The parameters, typed (see the file's header).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GammaParams {
    pub th_upper: f64,
    pub th_lower: f64,
    /// δ in packets per RTT, `None` for Reno + γ.
    pub delta: Option<f64>,
    pub rtt_signal: RttSource,
    pub gamma_delay: RttSource,
    pub holdoff: bool,
    pub gamma_sets_ssthresh: bool,
    /// δ needs every sample of a whole RTT under th_lower.
    pub delta_over_rtt: bool,
    pub range_resets_on_timeout: bool,
    /// γ = minRTT / RTT(t) instead of the fixed-threshold form.
    pub gamma_instantaneous: bool,
    pub rules_in_recovery: bool,
    pub min_window: f64,
}

impl GammaParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        let source = |name| if c.choice(name) == "srtt" { RttSource::Smoothed } else { RttSource::Sample };
        GammaParams {
            th_upper: c.number("th_upper"),
            th_lower: c.number("th_lower"),
            delta: c.boolean("delta").then(|| c.number("delta_increase")),
            rtt_signal: source("rtt_signal"),
            gamma_delay: source("gamma_delay"),
            holdoff: c.boolean("holdoff"),
            gamma_sets_ssthresh: c.boolean("gamma_sets_ssthresh"),
            delta_over_rtt: c.choice("delta_persist") == "rtt",
            range_resets_on_timeout: c.boolean("range_resets_on_timeout"),
            gamma_instantaneous: c.choice("gamma_form") == "instantaneous",
            rules_in_recovery: c.boolean("rules_in_recovery"),
            min_window: c.number("min_window"),
        }
    }
}

/// Reno + γ (+ δ): Reno's growth and loss response, plus the delay rules.
#[derive(Debug, Clone)]
pub struct RenoGamma {
    p: GammaParams,
    /// Smallest and largest echo sample, seconds (∞ and 0 before the first).
    min_rtt: f64,
    max_rtt: f64,
    /// The RTT(t) the rules last used, seconds.
    last_rtt: Option<f64>,
    /// A decrease is scheduled for this time (the congestion-control timer).
    gamma_due: Option<SimTime>,
    /// Eq. 10 is ignored until this time (one RTT after the last decrease).
    holdoff_until: SimTime,
    /// δ applies to the next ACKs of new data.
    delta_on: bool,
    /// Since when every sample has met eq. 12 (for `delta_persist = "rtt"`).
    under_lower_since: Option<SimTime>,
    /// The γ of each decrease applied, in order (for measurement: the paper's "γ
    /// applied is around 2/3"); the flows table's `gamma_*` columns summarize them.
    pub gammas: Vec<f64>,
    /// The minRTT and maxRTT (seconds) each of those decreases computed γ from, in the
    /// same order: with them a flow's trigger delay, minRTT + th_upper · (maxRTT − minRTT),
    /// can be compared with the other flows' (`gamma_min_rtt_*`, `gamma_max_rtt_*`).
    pub decrease_min_rtts: Vec<f64>,
    pub decrease_max_rtts: Vec<f64>,
}

impl RenoGamma {
    pub fn new(p: GammaParams) -> Self {
        RenoGamma {
            p,
            min_rtt: f64::INFINITY,
            max_rtt: 0.0,
            last_rtt: None,
            gamma_due: None,
            holdoff_until: 0,
            delta_on: false,
            under_lower_since: None,
            gammas: Vec::new(),
            decrease_min_rtts: Vec::new(),
            decrease_max_rtts: Vec::new(),
        }
    }

    /// The smallest and largest echo samples so far, seconds.
    pub fn rtt_range(&self) -> (f64, f64) {
        (self.min_rtt, self.max_rtt)
    }

    /// The time a decrease is scheduled for, if one is.
    pub fn gamma_due(&self) -> Option<SimTime> {
        self.gamma_due
    }

    /// δ applies to the next ACK of new data.
    pub fn delta_on(&self) -> bool {
        self.delta_on
    }

    /// Normalized queueing delay of `rtt` (eq. 10 and 12's left side); `None` until the
    /// samples span a range.
    pub fn normalized_delay(&self, rtt: f64) -> Option<f64> {
        (self.max_rtt > self.min_rtt).then(|| (rtt - self.min_rtt) / (self.max_rtt - self.min_rtt))
    }

    /// γ of eq. 11 now.
    pub fn gamma(&self) -> f64 {
        if self.p.gamma_instantaneous {
            if let Some(rtt) = self.last_rtt.filter(|&r| r > 0.0) {
                return (self.min_rtt / rtt).min(1.0);
            }
        }
        let th = self.p.th_upper;
        self.min_rtt / (th * self.max_rtt + (1.0 - th) * self.min_rtt)
    }

    /// One echo sample: widen the range, then apply eq. 10 and 12.
    fn on_sample(&mut self, view: &mut CcView, sample: f64) {
        self.min_rtt = self.min_rtt.min(sample);
        self.max_rtt = self.max_rtt.max(sample);
        let rtt = match self.p.rtt_signal {
            RttSource::Sample => sample,
            RttSource::Smoothed if view.srtt() > 0.0 => view.srtt(),
            RttSource::Smoothed => sample,
        };
        self.last_rtt = Some(rtt);
        let in_avoidance = view.cwnd() >= view.ssthresh();
        let rules_apply = in_avoidance && (self.p.rules_in_recovery || !view.in_recovery());
        let x = self.normalized_delay(rtt).filter(|_| rules_apply);
        let now = view.now;
        if x.is_some_and(|x| x >= self.p.th_upper) && self.gamma_due.is_none() && now >= self.holdoff_until {
            let wait = match self.p.gamma_delay {
                RttSource::Smoothed if view.srtt() > 0.0 => view.srtt(),
                _ => sample,
            };
            let due = now + time::from_secs(wait);
            self.gamma_due = Some(due);
            view.set_timer(due);
        }
        let under_lower = x.is_some_and(|x| x <= self.p.th_lower);
        self.under_lower_since = if under_lower { self.under_lower_since.or(Some(now)) } else { None };
        self.delta_on = self.p.delta.is_some()
            && match self.under_lower_since {
                None => false,
                Some(_) if !self.p.delta_over_rtt => true,
                Some(since) => now.saturating_sub(since) >= time::from_secs(rtt),
            };
    }

    fn cancel_gamma(&mut self, view: &mut CcView) {
        if self.gamma_due.take().is_some() {
            view.cancel_timer();
        }
    }
}

impl CongestionControl for RenoGamma {
    fn name(&self) -> &'static str {
        "reno_gamma"
    }

    fn hooks(&self) -> CcHooks {
        CcHooks { any_ack: true, ..CcHooks::NONE }
    }

    fn wants_send_times(&self) -> bool {
        true
    }

    fn on_any_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        if let Some(sample) = view.echo_rtt(ack.info) {
            self.on_sample(view, sample);
        }
    }

    fn on_ack(&mut self, view: &mut CcView, _ack: &AckEvent) {
        let cwnd = view.cwnd();
        if cwnd < view.ssthresh() {
            view.set_cwnd(cwnd + 1.0);
        } else {
            let increase = match self.p.delta {
                Some(delta) if self.delta_on => delta,
                _ => 1.0,
            };
            view.set_cwnd(cwnd + increase / cwnd);
        }
    }

    fn reduced_window(&mut self, _view: &CcView, flight_window: f64) -> f64 {
        flight_window / 2.0
    }

    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.cancel_gamma(view);
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        self.cancel_gamma(view);
        self.delta_on = false;
        self.under_lower_since = None;
        if self.p.range_resets_on_timeout {
            self.min_rtt = f64::INFINITY;
            self.max_rtt = 0.0;
        }
    }

    fn on_timer(&mut self, view: &mut CcView) {
        let Some(due) = self.gamma_due.take() else { return };
        if view.now < due {
            self.gamma_due = Some(due);
            view.set_timer(due);
            return;
        }
        let gamma = self.gamma();
        let cwnd = (gamma * view.cwnd()).max(self.p.min_window);
        view.set_cwnd(cwnd);
        if self.p.gamma_sets_ssthresh {
            view.set_ssthresh(cwnd);
        }
        self.gammas.push(gamma);
        self.decrease_min_rtts.push(self.min_rtt);
        self.decrease_max_rtts.push(self.max_rtt);
        if self.p.holdoff {
            let rtt = self.last_rtt.unwrap_or(0.0);
            self.holdoff_until = view.now + time::from_secs(rtt);
        }
    }

    fn recorded(&self, push: &mut dyn FnMut(&'static str, &[f64])) {
        push("gamma", &self.gammas);
        push("gamma_min_rtt", &self.decrease_min_rtts);
        push("gamma_max_rtt", &self.decrease_max_rtts);
    }
}

#[cfg(test)]
mod tests;
