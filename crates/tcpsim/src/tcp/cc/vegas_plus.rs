//! TCP Vegas+ window control: Vegas that turns Reno-like (aggressive) when its RTT keeps
//! rising although it does not grow its window, the sign of a loss-based flow filling
//! the queue, and back to Vegas (moderate) when the RTT falls again.
//!
//! G. Hasegawa, K. Kurata, M. Murata, "Analysis and improvement of fairness between TCP
//! Reno and Vegas for deployment of TCP Vegas to the Internet", Proc. IEEE ICNP 2000, pp.
//! 177–186, as C.-W. Chang, "TCP Performance Analysis and Fairness Improvement in
//! Different Congestion Control Methods", M.S. thesis, National Chiao Tung University,
//! 2004 (reference document 000), Sect. 2.2, describes it. Two modes and a counter:
//!
//!   moderate mode: Vegas; aggressive mode: Reno (cwnd + 1 per ACK in slow start, +1/cwnd
//!   in congestion avoidance, half the window on a fast retransmit)
//!   RTT > previous RTT while the window was not increased → count + 1
//!   RTT < previous RTT                                     → count − 1
//!   loss found by a fast retransmit                        → count halved
//!   loss found by a retransmission timeout                 → count ← 0
//!   count reaches countmax → aggressive;  count becomes 0 → moderate
//!
//! (The thesis says "In the moderate mode … behaves identically to the original TCP
//! Reno", a slip for the aggressive mode.)
//!
//! Everything Vegas measures is Vegas' (tcp/cc/vegas.rs, ns-2.35 `Agent/TCP/Vegas`):
//! samples, base_rtt, the round's RTT and Δ (Eq. 1), slow start with γ, the window rule
//! with α and β (moderate), the fine-grained timer and its loss response.
//!
//! Choices where the texts are silent (ns-2 behaviour where it has one):
//! - RTT is the Vegas round's mean RTT and the counter moves once per round, at the
//!   round's evaluation; "the window was not increased" is read over two rounds (cwnd
//!   did not grow at the previous evaluation nor since), because Vegas spreads a growth
//!   over a round and its own extra packet raises the next round's mean RTT too (as in
//!   tcp/cc/new_vegas.rs). The counter does not go below 0.
//! - `countmax` (default 8) is our choice: neither the thesis nor the sources we could
//!   read give its value.
//! - In the aggressive mode the round is still measured (the counter needs its RTT) but
//!   Vegas' rule is not applied; the window grows as ns-2's Reno grows it (every new ACK,
//!   no Vegas guard) and a fast retransmit cuts it to max(⌊W/2⌋, 2) (ns-2 Reno's
//!   `slowdown`, with Vegas' floor of 2). A timeout sets count ← 0, hence moderate: Vegas'
//!   timeout window (2).
//! - The mode changes as soon as the counter reaches countmax or 0; a fast retransmit
//!   cuts the window in the mode it found, then halves the counter.

use super::vegas::{vegas_core_methods, RttTrend, Vegas, VegasParams};
use super::{AckEvent, CcView, CongestionControl};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const NS2: &str = "ns-2.35 Agent/TCP/Vegas default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "vegas_plus",
    summary: "TCP Vegas+: Vegas (moderate mode) that switches to Reno's window rules (aggressive mode) after countmax rounds whose RTT rose at a window that did not grow, and back when the count returns to 0",
    source: "Hasegawa, Kurata & Murata, ICNP 2000; Chang 2004 (reference document 000), Sect. 2.2; ns-2.35 Vegas (tcp-vegas.cc) for everything Vegas measures",
    params: &[
        Param::new("alpha", T::Integer, "packets", V::Integer(1), "moderate mode: fewer extra packets in the network than alpha grows cwnd by one packet per round (Vegas' v_alpha_)", NS2).range(0.0, 1e6),
        Param::new("beta", T::Integer, "packets", V::Integer(3), "moderate mode: more extra packets than beta shrinks cwnd by one packet per round (Vegas' v_beta_)", NS2).range(0.0, 1e6),
        Param::new("gamma", T::Integer, "packets", V::Integer(1), "more extra packets than gamma in a slow-start round: leave slow start (Vegas' v_gamma_)", NS2).range(0.0, 1e6),
        Param::new("round_delta", T::Bool, "", V::Bool(true), "round the extra-packet estimate to an integer as ns-2 Vegas does (int(x + 0.5)); false compares the real value", "ns-2.35 VegasTcpAgent::recv"),
        Param::new("countmax", T::Integer, "rounds", V::Integer(8), "the count (rounds whose RTT rose at a window that did not grow, less those whose RTT fell) at which the flow turns aggressive (Reno)", "our choice; Hasegawa, Kurata & Murata 2000 and Chang 2004 leave it open").range(1.0, 1e6),
    ],
    check,
    relations: Relations { default_recovery: Some("vegas"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(VegasPlus::new(VegasParams::from_config(c), c.integer("countmax") as u32)) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = VegasParams::from_config(c);
    if p.alpha > p.beta {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

/// The smallest window a Reno cut leaves here, packets (Vegas' floor).
const MIN_WINDOW: f64 = 2.0;

#[derive(Debug, Clone)]
pub struct VegasPlus {
    /// Vegas' measurement, its rules (moderate mode) and its loss response.
    core: Vegas,
    params: VegasParams,
    countmax: u32,
    count: u32,
    aggressive: bool,
    /// The rounds' RTTs and windows.
    trend: RttTrend,
}

impl VegasPlus {
    pub fn new(params: VegasParams, countmax: u32) -> Self {
        VegasPlus { core: Vegas::new(params), params, countmax, count: 0, aggressive: false, trend: RttTrend::default() }
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    /// In the aggressive (Reno) mode.
    pub fn aggressive(&self) -> bool {
        self.aggressive
    }

    /// The once-per-round counter rule, given the round's RTT (seconds) and cwnd.
    pub fn count_round(&mut self, rtt: f64, cwnd: f64) {
        let Some(change) = self.trend.observe(rtt, cwnd) else { return };
        if change.rtt_change > 0.0 && change.window_held {
            self.set_count(self.count + 1);
        } else if change.rtt_change < 0.0 {
            self.set_count(self.count.saturating_sub(1));
        }
    }

    fn set_count(&mut self, count: u32) {
        self.count = count;
        if count >= self.countmax {
            self.aggressive = true;
        } else if count == 0 {
            self.aggressive = false;
        }
    }

    fn evaluate_round(&mut self, view: &mut CcView) {
        let Some(round) = self.core.measure_round(view) else { return };
        self.count_round(round.rtt, view.cwnd());
        let delta = self.core.rounded(round.delta);
        if self.aggressive {
            return;
        }
        let VegasParams { alpha, beta, gamma, .. } = self.params;
        if !self.core.slow_start_round(view, delta, gamma as f64) {
            self.core.avoidance_round(view, delta, alpha as f64, beta as f64);
        }
    }

    /// Reno's growth on a new ACK: one packet in slow start, 1/cwnd in congestion avoidance.
    fn reno_growth(view: &mut CcView) {
        let cwnd = view.cwnd();
        let increment = if cwnd < view.ssthresh() { 1.0 } else { 1.0 / cwnd };
        view.set_cwnd(cwnd + increment);
    }
}

impl CongestionControl for VegasPlus {
    fn name(&self) -> &'static str {
        "vegas_plus"
    }

    vegas_core_methods!();

    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        if self.core.round_ends(ack.info.ack) {
            self.evaluate_round(view);
        }
        if self.aggressive {
            Self::reno_growth(view);
        } else {
            self.core.grow_on_ack(view);
        }
        self.core.sample_ack(view, ack);
    }

    fn reduced_window(&mut self, view: &CcView, flight_window: f64) -> f64 {
        if self.aggressive {
            ((flight_window as i64 / 2) as f64).max(MIN_WINDOW)
        } else {
            self.core.reduced_window(view, flight_window)
        }
    }

    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.core.on_recovery_start(view);
        self.set_count(self.count / 2);
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        self.set_count(0);
        self.core.on_timeout(view);
    }
}

#[cfg(test)]
mod tests;
