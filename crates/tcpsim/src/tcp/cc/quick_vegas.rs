//! Quick Vegas window control.
//!
//! Y.-C. Chan, C.-L. Lin, C.-Y. Ho, "Quick Vegas: Improving Performance of TCP Vegas for
//! High Bandwidth-Delay Product Networks", IEICE Trans. Commun. E91-B(4):987–997, 2008,
//! doi:10.1093/ietcom/e91-b.4.987, Sect. 3.2 (slow start, Table 1; congestion avoidance,
//! Eqs. 3–4 and the pseudo-code); where the paper is silent, our choices below, after the
//! ns-2.35 Vegas agent the authors built on.
//!
//! Quick Vegas is Vegas with two rules replaced. Everything Vegas *measures* is Vegas'
//! (tcp/cc/vegas.rs, ns-2.35 `Agent/TCP/Vegas`): the fine-grained samples, base_rtt, the
//! once-per-round Δ (Eq. 1, evaluated on the first new ACK at or beyond the round's end),
//! the fine-grained retransmission timer and the loss response. This file holds a `Vegas`
//! for that and decides, once per round, with Δ (rounded unless `round_delta = false`):
//!
//!   slow start (cwnd < ssthresh), every round (Vegas: every other round):
//!     Δ > γ → leave slow start: ssthresh ← 2, cwnd ← max(cwnd·(1 − exit_cut), 2),
//!             incr ← 0, succ ← 0
//!     else  → incr ← 1/2 per ACK: one extra packet for every two ACKs (Sect. 3.2.1),
//!             so the window grows by half each round (Table 1:
//!             2, 3, 4.5, 6.75, 10.13, …)
//!   congestion avoidance (the paper's pseudo-code, five branches; target (α+β)/2):
//!     Δ > β         → cwnd ← max(cwnd − (Δ − (α+β)/2)/2, 2), incr ← 0, succ ← 0   (Eq. 4)
//!     Δ < α         → succ ← succ + 1;                                              (Eq. 3)
//!                     incr ← 1 if (β − Δ)·succ > cwnd (at most double per round)
//!                            else (β − Δ)·succ / cwnd   (+(β − Δ)·succ over the round)
//!     Δ > (α+β)/2   → cwnd ← max(cwnd − 1, 2), incr ← 0, succ ← 0
//!     Δ < (α+β)/2   → incr ← 1/cwnd (+1 over the round), succ ← 0
//!     Δ = (α+β)/2   → incr ← 0, succ ← 0
//! Every new ACK: the slow-start increment stops once cwnd ≥ ssthresh; then cwnd ← cwnd +
//! incr, only while cwnd − (snd_nxt − last_ack) ≤ 2 if `increment_guard` (ns-2 Vegas'
//! "incr cwnd unless we havent been able to keep up with it"). Decreases are applied at
//! once, at the round's evaluation; increases are spread over the round's ACKs (Sect.
//! 3.2.2: incr is added to the window on each ACK, to soften the burst).
//!
//! Choices the paper leaves open, each a parameter whose default is our choice (ns-2
//! Vegas' behaviour where it has one):
//! - `round_delta` (true): Δ rounded as ns-2 Vegas rounds it, `int(x + 0.5)`. The authors
//!   worked in ns-2 (their `incr` is ns-2's `v_incr_`). With α 2, β 4 the target Δ = 3 is
//!   then reachable: Δ = 2 → +1 per round, 3 → hold, 4 → −1, ≥ 5 → Eq. 4, ≤ 1 → Eq. 3.
//! - `exit_cut` (1/8): the window cut on leaving slow start, Vegas' (the paper does not
//!   say it changes it); ssthresh ← 2 as in ns-2 Vegas.
//! - `loss_window` ("vegas"): the window after a fast retransmit is Vegas' (3/4, or 1/2
//!   if a retransmission was lost, 2 if W ≤ 3) and cwnd ← 2 after a timeout, as the
//!   paper changes only Vegas' slow start and congestion avoidance (Sect. 1); "half"
//!   halves instead.
//! - `reset_on_loss` (true): a fast retransmit or timeout resets succ and incr to 0.
//! - `increment_guard` (true): ns-2 Vegas' guard on the per-ACK increment.
//! Fixed, as in ns-2 Vegas: cwnd ≥ 2 after every decrease; succ starts at 0 and is reset
//! on leaving slow start; the slow-start increment (not a congestion-avoidance incr of 1)
//! stops at ssthresh.
//!
//! α, β, γ default to the paper's 2, 4, 1 (its Sect. 5, after Brakmo & Peterson [2]); they
//! are real numbers here (ns-2 Vegas binds integers).
//!
//! With the recovery `recovery = "vegas"` (the default for this window control) a flow is
//! ns-2's Vegas agent with these rules. ns-2's `delay_growth_` there sets the initial
//! window on the ACK after the first, so a packet-level run loses the first round's first
//! increment: 2, 2.5, 3.5, 5, … rather than Table 1's fluid 2, 3, 4.5, 6.75.

use super::vegas::{vegas_core_methods, Vegas, VegasParams};
use super::{AckEvent, CcView, CongestionControl, Window};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const PAPER: &str = "Chan, Lin & Ho 2008, Sect. 5 (Vegas and Quick Vegas: alpha 2, beta 4, gamma 1)";
/// The source of a choice the paper leaves open (Sects. 3.2.1–3.2.2 say nothing of it).
const OPEN: &str = "our choice, ns-2.35 Vegas (tcp-vegas.cc) where it has the rule; Chan, Lin & Ho 2008 leave it open";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "quick_vegas",
    summary: "Quick Vegas: Vegas whose slow start grows by half every round and whose congestion avoidance grows by (beta - delta) x succ per round and removes half the excess at once",
    source: "Chan, Lin & Ho, IEICE Trans. Commun. E91-B(4), 2008, Sect. 3.2; ns-2.35 Vegas (tcp-vegas.cc) where the paper is silent",
    params: &[
        Param::new("alpha", T::Number, "packets", V::Number(2.0), "fewer extra packets in the network than alpha: grow by (beta - delta) x succ packets per round (Eq. 3)", PAPER).range(0.0, 1e6),
        Param::new("beta", T::Number, "packets", V::Number(4.0), "more extra packets than beta: remove half the excess over (alpha + beta)/2 at once (Eq. 4)", PAPER).range(0.0, 1e6),
        Param::new("gamma", T::Number, "packets", V::Number(1.0), "more extra packets than gamma in a slow-start round: leave slow start", PAPER).range(0.0, 1e6),
        Param::new("round_delta", T::Bool, "", V::Bool(true), "round the extra-packet estimate to an integer as ns-2 Vegas does (int(x + 0.5)); false compares the real value", OPEN),
        Param::new("exit_cut", T::Number, "", V::Number(0.125), "fraction of cwnd removed on leaving slow start (Vegas' 1/8); ssthresh becomes 2", OPEN).range(0.0, 1.0),
        Param::new("loss_window", T::Choice(&["vegas", "half"]), "", V::Choice("vegas"), "window after a loss: Vegas' (3/4 of W, 1/2 if a retransmission was lost; cwnd 2 after a timeout) or half of W (and the loss recovery's own window after a timeout)", OPEN),
        Param::new("reset_on_loss", T::Bool, "", V::Bool(true), "a fast retransmit or a timeout resets succ and incr to 0", OPEN),
        Param::new("increment_guard", T::Bool, "", V::Bool(true), "grow cwnd on an ACK only while cwnd - (snd_nxt - last_ack) <= 2 (ns-2 Vegas); false grows on every ACK", OPEN),
    ],
    check,
    relations: Relations { default_recovery: Some("vegas"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(QuickVegas::new(QuickVegasParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = QuickVegasParams::from_config(c);
    if p.alpha > p.beta {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

/// cwnd increment per ACK in a slow-start round: one extra packet per two ACKs (§3.2.1).
const SLOW_START_INCREMENT: f64 = 0.5;
/// ssthresh once Quick Vegas leaves slow start: it only marks slow start (ns-2 Vegas).
const SSTHRESH_AFTER_SLOW_START: f64 = 2.0;
/// The smallest window a decrease leaves, packets (ns-2 Vegas).
const MIN_WINDOW: f64 = 2.0;
/// How far cwnd may run ahead of the packets outstanding for an ACK to grow it, packets
/// (ns-2 Vegas `cwnd_ - (t_seqno_ - last_ack_) <= 2`).
const INCREMENT_GUARD_SLACK: f64 = 2.0;

/// The window after a loss (`loss_window`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossWindow {
    /// Vegas' cut and timeout window.
    Vegas,
    /// Half the flight window.
    Half,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuickVegasParams {
    /// α, β, γ, packets.
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    pub round_delta: bool,
    /// Fraction of cwnd removed on leaving slow start.
    pub exit_cut: f64,
    pub loss_window: LossWindow,
    pub reset_on_loss: bool,
    pub increment_guard: bool,
}

impl QuickVegasParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        QuickVegasParams {
            alpha: c.number("alpha"),
            beta: c.number("beta"),
            gamma: c.number("gamma"),
            round_delta: c.boolean("round_delta"),
            exit_cut: c.number("exit_cut"),
            loss_window: match c.choice("loss_window") {
                "half" => LossWindow::Half,
                _ => LossWindow::Vegas,
            },
            reset_on_loss: c.boolean("reset_on_loss"),
            increment_guard: c.boolean("increment_guard"),
        }
    }

    /// The Δ Quick Vegas steers to: (α + β)/2 extra packets per connection (§3.2.2).
    pub fn target(&self) -> f64 {
        (self.alpha + self.beta) / 2.0
    }
}

impl Default for QuickVegasParams {
    fn default() -> Self {
        QuickVegasParams::from_config(&SPEC.defaults())
    }
}

#[derive(Debug, Clone)]
pub struct QuickVegas {
    params: QuickVegasParams,
    /// Vegas' measurement: samples, base_rtt, the round's Δ, the fine-grained timer and the
    /// loss cut. Its own α, β, γ and per-round decision are not used.
    core: Vegas,
    /// Consecutive rounds with Δ < α (the paper's `succ`).
    succ: u32,
    /// cwnd increment per new ACK, set once per round (the paper's `incr`).
    incr: f64,
    /// `incr` is the slow-start increment (it stops at ssthresh).
    slow_start_incr: bool,
    /// Δ of the last evaluated round, packets (rounded if `round_delta`).
    last_delta: Option<f64>,
}

const _: () = assert!(std::mem::size_of::<QuickVegas>() <= 256);

impl QuickVegas {
    pub fn new(params: QuickVegasParams) -> Self {
        QuickVegas { params, core: Vegas::new(VegasParams::default()), succ: 0, incr: 0.0, slow_start_incr: false, last_delta: None }
    }

    /// Consecutive rounds with Δ < α.
    pub fn succ(&self) -> u32 {
        self.succ
    }

    /// The per-ACK increment set for the current round.
    pub fn incr(&self) -> f64 {
        self.incr
    }

    /// Δ of the last evaluated round.
    pub fn last_delta(&self) -> Option<f64> {
        self.last_delta
    }

    /// Smallest RTT seen, seconds.
    pub fn base_rtt(&self) -> f64 {
        self.core.base_rtt()
    }

    /// The once-per-round rule, given the window and the round's Δ: returns the window
    /// for the next round (decreases at once) and sets `incr` and `succ`.
    pub fn decide(&mut self, window: Window, delta: f64) -> Window {
        let p = self.params;
        let Window { cwnd, ssthresh } = window;
        self.slow_start_incr = false;
        if cwnd < ssthresh {
            if delta > p.gamma {
                self.incr = 0.0;
                self.succ = 0;
                return Window { cwnd: (cwnd - cwnd * p.exit_cut).max(MIN_WINDOW), ssthresh: SSTHRESH_AFTER_SLOW_START };
            }
            self.incr = SLOW_START_INCREMENT;
            self.slow_start_incr = true;
            return window;
        }
        let target = p.target();
        if delta > p.beta {
            // Eq. 4: the effect of a change shows two rounds later, so remove only half
            // of the excess now.
            self.incr = 0.0;
            self.succ = 0;
            Window { cwnd: (cwnd - (delta - target) / 2.0).max(MIN_WINDOW), ssthresh }
        } else if delta < p.alpha {
            // Eq. 3, spread over the round's ACKs, at most doubling the window.
            self.succ += 1;
            let step = (p.beta - delta) * self.succ as f64;
            self.incr = if step > cwnd { 1.0 } else { step / cwnd };
            window
        } else {
            self.succ = 0;
            if delta > target {
                self.incr = 0.0;
                Window { cwnd: (cwnd - 1.0).max(MIN_WINDOW), ssthresh }
            } else if delta < target {
                self.incr = 1.0 / cwnd;
                window
            } else {
                self.incr = 0.0;
                window
            }
        }
    }

    fn evaluate_round(&mut self, view: &mut CcView) {
        let Some(round) = self.core.measure_round(view) else { return };
        let delta = if self.params.round_delta { super::vegas::ns2_round(round.delta) as f64 } else { round.delta };
        self.last_delta = Some(delta);
        let w = self.decide(view.window(), delta);
        view.set_ssthresh(w.ssthresh);
        view.set_cwnd(w.cwnd);
    }

    fn after_loss(&mut self) {
        if self.params.reset_on_loss {
            self.succ = 0;
            self.incr = 0.0;
            self.slow_start_incr = false;
        }
    }
}

impl CongestionControl for QuickVegas {
    fn name(&self) -> &'static str {
        "quick_vegas"
    }

    vegas_core_methods!();

    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let acked = ack.info.ack;
        if self.core.round_ends(acked) {
            self.evaluate_round(view);
        }
        if self.slow_start_incr && view.cwnd() >= view.ssthresh() {
            self.incr = 0.0;
            self.slow_start_incr = false;
        }
        let outstanding = (view.snd_nxt() - (view.snd_una() - 1)) as f64;
        if self.incr > 0.0 && (!self.params.increment_guard || view.cwnd() - outstanding <= INCREMENT_GUARD_SLACK) {
            view.set_cwnd(view.cwnd() + self.incr);
        }
        self.core.sample_ack(view, ack);
    }

    fn reduced_window(&mut self, view: &CcView, flight_window: f64) -> f64 {
        match self.params.loss_window {
            LossWindow::Vegas => self.core.reduced_window(view, flight_window),
            LossWindow::Half => (flight_window / 2.0).max(MIN_WINDOW),
        }
    }

    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.core.on_recovery_start(view);
        self.after_loss();
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        if self.params.loss_window == LossWindow::Vegas {
            self.core.on_timeout(view);
        }
        self.after_loss();
    }
}

#[cfg(test)]
mod tests;
