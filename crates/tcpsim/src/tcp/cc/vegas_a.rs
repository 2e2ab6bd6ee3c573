//! TCP Vegas-A window control: Vegas whose α and β follow the actual throughput, so that
//! a flow whose throughput still rises inside [α, β] keeps growing.
//!
//! K. N. Srijith, L. Jacob, A. L. Ananda, "TCP Vegas-A: Improving the performance of TCP
//! Vegas", Computer Communications 28(4):429–440, 2005, doi:10.1016/j.comcom.2004.08.016,
//! its congestion-avoidance algorithm (slow start and recovery are Vegas'). With Th(t)
//! the round's actual throughput and Th(t − rtt) the previous round's, once per round in
//! congestion avoidance, α and β starting at 1 and 3:
//!
//!   α ≤ Δ ≤ β:  Th(t) > Th(t − rtt)            → cwnd + 1, α + 1, β + 1
//!               else                           → no change
//!   Δ < α:      α > 1 and Th(t) > Th(t − rtt)  → cwnd + 1
//!               α > 1 and Th(t) < Th(t − rtt)  → cwnd − 1, α − 1, β − 1
//!               α = 1                          → cwnd + 1
//!               (α > 1, Th(t) = Th(t − rtt))   → no change
//!   Δ > β:                                     → cwnd − 1, α − 1, β − 1 (α stays ≥ 1)
//!
//! C.-W. Chang's thesis (reference document 000, "TCP Performance Analysis and Fairness
//! Improvement in Different Congestion Control Methods", NCTU 2004, Sect. 2.2) transcribes
//! this with sign errors: its α ≤ Δ ≤ β, rising-throughput branch reads "cwnd − 1, α − 1,
//! β − 1", against its own comment ("we increase α and β to help congestion window
//! grow"), and its Δ < α, α > 1, rising-throughput branch decreases cwnd. We follow the
//! original paper above.
//!
//! Everything Vegas measures is Vegas' (tcp/cc/vegas.rs, ns-2.35 `Agent/TCP/Vegas`):
//! samples, base_rtt, the round's RTT and Δ (Eq. 1), Actual = packets sent in the round /
//! the round's RTT (Th), slow start with γ, the fine-grained timer and the loss response.
//!
//! Choices where the paper is silent (ns-2 Vegas' behaviour where it has one):
//! - cwnd + 1 is spread over the round (1/cwnd per new ACK, under Vegas' guard), cwnd − 1
//!   is applied at once (floor 2), as ns-2 Vegas applies its own ±1.
//! - The floor of α is the initial α (`alpha`, 1 by default: the paper's "α = 1"); β
//!   moves with α, so β − α stays as configured. α never falls below the floor.
//! - Th(t − rtt) is the previous evaluated round's, slow-start rounds included; the first
//!   round has none, so it counts as neither higher nor lower.
//! - α and β are kept across losses (the paper resets nothing on loss).

use super::vegas::{vegas_core_methods, Vegas, VegasParams};
use super::{CcView, CongestionControl};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const PAPER: &str = "Srijith, Jacob & Ananda 2005 (Vegas-A starts with alpha 1, beta 3)";
const NS2: &str = "ns-2.35 Agent/TCP/Vegas default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "vegas_a",
    summary: "TCP Vegas-A: Vegas whose alpha and beta rise by one (with cwnd) while the actual throughput rises between them, and fall (with cwnd) above beta or when the throughput falls below alpha",
    source: "Srijith, Jacob & Ananda, Computer Communications 28(4), 2005; ns-2.35 Vegas (tcp-vegas.cc) for everything Vegas measures",
    params: &[
        Param::new("alpha", T::Integer, "packets", V::Integer(1), "initial and smallest alpha", PAPER).range(1.0, 1e6),
        Param::new("beta", T::Integer, "packets", V::Integer(3), "initial beta; moves with alpha", PAPER).range(1.0, 1e6),
        Param::new("gamma", T::Integer, "packets", V::Integer(1), "more extra packets than gamma in a slow-start round: leave slow start (Vegas' v_gamma_)", NS2).range(0.0, 1e6),
        Param::new("round_delta", T::Bool, "", V::Bool(true), "round the extra-packet estimate to an integer as ns-2 Vegas does (int(x + 0.5)); false compares the real value", "ns-2.35 VegasTcpAgent::recv"),
    ],
    check,
    relations: Relations { default_recovery: Some("vegas"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(VegasA::new(VegasParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = VegasParams::from_config(c);
    if p.alpha > p.beta {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

/// What a round does to the window (cwnd + 1 spread over the round, − 1 at once, or
/// nothing); α and β move in `decide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Grow,
    Shrink,
    Hold,
}

#[derive(Debug, Clone)]
pub struct VegasA {
    /// Vegas' measurement, slow start and loss response.
    core: Vegas,
    initial: VegasParams,
    /// The current thresholds, packets.
    alpha: f64,
    beta: f64,
    /// The previous round's actual throughput, packets per second (Th(t − rtt)).
    previous_throughput: Option<f64>,
}

impl VegasA {
    pub fn new(params: VegasParams) -> Self {
        VegasA { core: Vegas::new(params), initial: params, alpha: params.alpha as f64, beta: params.beta as f64, previous_throughput: None }
    }

    /// The current (α, β), packets.
    pub fn thresholds(&self) -> (f64, f64) {
        (self.alpha, self.beta)
    }

    /// The congestion-avoidance rule, given Δ and the throughputs of this round and the
    /// previous one: moves α and β, says what the window does.
    pub fn decide(&mut self, delta: f64, throughput: f64, previous: Option<f64>) -> Step {
        let rising = previous.is_some_and(|p| throughput > p);
        let falling = previous.is_some_and(|p| throughput < p);
        let above_floor = self.alpha > self.initial.alpha as f64;
        if delta > self.beta {
            if above_floor {
                self.shift_thresholds(-1.0);
            }
            Step::Shrink
        } else if delta >= self.alpha {
            if rising {
                // Throughput still rises with Δ inside [α, β]: the path has room.
                self.shift_thresholds(1.0);
                Step::Grow
            } else {
                Step::Hold
            }
        } else if !above_floor || rising {
            Step::Grow
        } else if falling {
            self.shift_thresholds(-1.0);
            Step::Shrink
        } else {
            Step::Hold
        }
    }

    fn shift_thresholds(&mut self, by: f64) {
        self.alpha += by;
        self.beta += by;
    }

    fn evaluate_round(&mut self, view: &mut CcView) {
        let Some(round) = self.core.measure_round(view) else { return };
        let delta = self.core.rounded(round.delta);
        let previous = self.previous_throughput.replace(round.actual);
        if self.core.slow_start_round(view, delta, self.initial.gamma as f64) {
            return;
        }
        match self.decide(delta, round.actual, previous) {
            Step::Grow => self.core.grow_by_one_over_the_round(view),
            Step::Shrink => self.core.shrink_by_one(view),
            Step::Hold => self.core.hold(),
        }
    }
}

impl CongestionControl for VegasA {
    fn name(&self) -> &'static str {
        "vegas_a"
    }

    vegas_core_methods!(on_ack, reduced_window, on_recovery_start, on_timeout);
}

#[cfg(test)]
mod tests;
