//! TCP NewVegas window control: Vegas whose α and β rise while its RTT rises at a window
//! that did not grow, so that it keeps more packets queued beside a loss-based flow.
//!
//! N. De Vendictis, A. Baiocchi, M. Bonacci, "Analysis and enhancement of TCP Vegas
//! congestion control in a mixed TCP Vegas and TCP Reno network scenario", Performance
//! Evaluation 53(3–4):225–253, 2003 (TCP NewVegas), as C.-W. Chang, "TCP Performance
//! Analysis and Fairness Improvement in Different Congestion Control Methods", M.S.
//! thesis, National Chiao Tung University, 2004 (reference document 000), Sect. 2.2,
//! transcribes its rule:
//!
//!   initial thresholds α0, β0 (1 and 3); once per round, with the round's RTT and cwnd
//!   W, against the previous round's RTTold and Wold:
//!     RTT > RTTold and W ≤ Wold      → α ← α + 1, β ← β + 1
//!     RTT ≤ RTTold and α > α0        → α ← α − 1, β ← β − 1
//!   a timeout or a fast retransmit (three duplicate ACKs) → α ← α0, β ← β0
//!
//! Everything else is Vegas' (tcp/cc/vegas.rs, ns-2.35 `Agent/TCP/Vegas`): the samples,
//! base_rtt, the round's RTT (mean of its fine-grained samples) and Δ (Eq. 1), slow
//! start with γ, the congestion-avoidance rule (Eq. 2) with the current α and β, the
//! fine-grained timer and the loss response. This file holds a `Vegas` for it.
//!
//! Choices where the text is silent (ns-2 Vegas' behaviour where it has one):
//! - "Threshold updates are allowed once every round trip time": at the Vegas round's
//!   evaluation (the first new ACK at or beyond the round's end), before the window rule,
//!   with RTT = the round's mean RTT (ns-2 Vegas' round RTT) and W = cwnd then.
//! - "W ≤ Wold" is read over two rounds (W ≤ Wold ≤ the window before): Vegas spreads a
//!   one-packet growth over a round, and its own extra packet raises the mean RTT of the
//!   next round too. With W ≤ Wold alone a NewVegas flow alone on a path reads its own
//!   growth as a competitor, raises α and β round after round and fills the buffer
//!   (measured: a 5 Mb/s, 50-packet drop-tail bottleneck filled to a loss in 15 s).
//! - The thresholds change only in congestion avoidance, where Vegas reads them; slow
//!   start holds the window every other round, so "RTT rose at a window that did not
//!   grow" would count Vegas' own hold rounds there. The first congestion-avoidance round
//!   (and the first after a loss) only records RTTold and Wold.
//! - No upper bound on α (the text gives none); α never falls below α0.

use super::vegas::{vegas_core_methods, RttTrend, Vegas, VegasParams};
use super::{CcView, CongestionControl};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const PAPER: &str = "De Vendictis, Baiocchi & Bonacci 2003 (TCP NewVegas: initial thresholds 1 and 3); Chang 2004 (reference document 000), Sect. 2.2";
const NS2: &str = "ns-2.35 Agent/TCP/Vegas default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "new_vegas",
    summary: "TCP NewVegas: Vegas whose alpha and beta rise by one per round while the RTT rises at a window that did not grow, fall back toward their initial values when it does not, and reset on a loss",
    source: "De Vendictis, Baiocchi & Bonacci, Performance Evaluation 53, 2003; ns-2.35 Vegas (tcp-vegas.cc) for everything Vegas measures",
    params: &[
        Param::new("alpha", T::Integer, "packets", V::Integer(1), "initial (and smallest) alpha, alpha0: fewer extra packets than alpha grows cwnd by one packet per round", PAPER).range(0.0, 1e6),
        Param::new("beta", T::Integer, "packets", V::Integer(3), "initial beta, beta0: more extra packets than beta shrinks cwnd by one packet per round; moves with alpha", PAPER).range(0.0, 1e6),
        Param::new("gamma", T::Integer, "packets", V::Integer(1), "more extra packets than gamma in a slow-start round: leave slow start (Vegas' v_gamma_)", NS2).range(0.0, 1e6),
        Param::new("round_delta", T::Bool, "", V::Bool(true), "round the extra-packet estimate to an integer as ns-2 Vegas does (int(x + 0.5)); false compares the real value", "ns-2.35 VegasTcpAgent::recv"),
    ],
    check,
    relations: Relations { default_recovery: Some("vegas"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(NewVegas::new(VegasParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = VegasParams::from_config(c);
    if p.alpha > p.beta {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub struct NewVegas {
    /// Vegas' measurement, slow start, window rule and loss response; its α and β are the
    /// initial ones (α0, β0).
    core: Vegas,
    initial: VegasParams,
    /// The current thresholds, packets.
    alpha: f64,
    beta: f64,
    /// The congestion-avoidance rounds' RTTs and windows.
    trend: RttTrend,
}

impl NewVegas {
    pub fn new(params: VegasParams) -> Self {
        NewVegas { core: Vegas::new(params), initial: params, alpha: params.alpha as f64, beta: params.beta as f64, trend: RttTrend::default() }
    }

    /// The current (α, β), packets.
    pub fn thresholds(&self) -> (f64, f64) {
        (self.alpha, self.beta)
    }

    /// The once-per-round threshold rule, given the round's RTT (seconds) and cwnd.
    pub fn update_thresholds(&mut self, rtt: f64, cwnd: f64) {
        let Some(change) = self.trend.observe(rtt, cwnd) else { return };
        if change.rtt_change > 0.0 && change.window_held {
            self.alpha += 1.0;
            self.beta += 1.0;
        } else if change.rtt_change <= 0.0 && self.alpha > self.initial.alpha as f64 {
            self.alpha -= 1.0;
            self.beta -= 1.0;
        }
    }

    /// Back to α0, β0 after a loss; the next round only records RTTold and Wold.
    fn reset_thresholds(&mut self) {
        self.alpha = self.initial.alpha as f64;
        self.beta = self.initial.beta as f64;
        self.trend.reset();
    }

    fn evaluate_round(&mut self, view: &mut CcView) {
        let Some(round) = self.core.measure_round(view) else { return };
        let delta = self.core.rounded(round.delta);
        if self.core.slow_start_round(view, delta, self.initial.gamma as f64) {
            return;
        }
        self.update_thresholds(round.rtt, view.cwnd());
        self.core.avoidance_round(view, delta, self.alpha, self.beta);
    }
}

impl CongestionControl for NewVegas {
    fn name(&self) -> &'static str {
        "new_vegas"
    }

    vegas_core_methods!(on_ack, reduced_window);

    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.core.on_recovery_start(view);
        self.reset_thresholds();
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        self.core.on_timeout(view);
        self.reset_thresholds();
    }
}

#[cfg(test)]
mod tests;
