//! CUBIC: a window that grows as a cubic function of the time since the last congestion
//! event, with HyStart++ (or standard) slow start.
//!
//! RFC 9438, "CUBIC for Fast and Long-Distance Networks" (Xu, Ha, Rhee, Goel, Eggert,
//! 2023); S. Ha, I. Rhee, L. Xu, "CUBIC: a new TCP-friendly high-speed TCP variant", ACM
//! SIGOPS Operating Systems Review 42(5), 2008; slow start: RFC 9406, "HyStart++: Modified
//! Slow Start for TCP" (Balasubramanian, Huang, Olson, 2023), in `cubic/hystart.rs`.
//! Windows are in segments (packets), as RFC 9438 writes them and as tcpsim's TCP counts
//! (Linux counts cwnd in segments too; only its pacing and ns-3's window are in bytes).
//!
//! Congestion avoidance, on each ACK of new data acknowledging `acked` packets, with t the
//! time since the epoch started (simulation time, seconds):
//!   epoch start (first ACK in avoidance after a reduction; RFC 9438 §4.2):
//!     cwnd_epoch = cwnd,  W_est = cwnd_epoch
//!     K = ∛((W_max − cwnd_epoch) / C)                         (eq. 2)
//!     or K = 0 with W_max ← cwnd_epoch when W_max ≤ cwnd_epoch (no loss yet, or after a
//!     timeout or a HyStart++ exit: §4.8, §4.10)
//!   W_cubic(t) = C · (t − K)³ + W_max                         (eq. 1)
//!   target = W_cubic(t + RTT) clamped to [cwnd, 1.5 · cwnd]   (§4.2, eq. 3's rules)
//!     RTT here is the smallest RTT sample seen, as Linux's `delay_min` (the RFC writes
//!     the smoothed RTT)
//!   concave (cwnd < W_max) and convex (cwnd ≥ W_max) regions:
//!     cwnd ← cwnd + acked · (target − cwnd) / cwnd            (§4.4, §4.5)
//!   Reno-friendly region (§4.3, `reno_friendly`):
//!     W_est ← W_est + α_cubic · acked / cwnd,  α_cubic = 3(1 − β)/(1 + β)   (eq. 4)
//!     α_cubic becomes 1 once W_est ≥ cwnd_prior (the window before the last reduction)
//!     if W_cubic(t) < W_est: cwnd ← max(cwnd, W_est)
//! Multiplicative decrease (fast retransmit, ECN echo, timeout; §4.6), W the flight window
//! at the loss (ns-2 `windowd()`, which the RFC's "some implementations use cwnd" allows):
//!   ssthresh = ⌊β · W⌋ (at least 2), cwnd = β · W (fast recovery and ECN; the sender sets
//!   them from the reduced window returned here);  cwnd_prior = W
//!   fast convergence (§4.7): W_max = W · (1 + β)/2 if W < W_max, else W_max = W
//!   the epoch ends: the next ACK in congestion avoidance starts a new one
//! Timeout (§4.8): the same ssthresh, cwnd = 1 (the sender), and W_max is forgotten so
//! that the first avoidance stage after it starts with K = 0 from its own cwnd_epoch.
//!
//! Slow start (cwnd < ssthresh), `slow_start`:
//!   "standard": cwnd ← cwnd + acked (RFC 5681 with RFC 3465's byte counting, L
//!   unlimited, as Linux's `tcp_slow_start`), capped at ssthresh; packets of the ACK left
//!   over at ssthresh go to congestion avoidance (Linux).
//!   "hystart++": RFC 9406 in the initial slow start (see `cubic/hystart.rs`), standard
//!   slow start after the first reduction (RFC 9406 §4.3).
//!
//! Parameters (defaults, source): `c` 0.4 segments/s³ (§5), `beta` 0.7 (§4.6),
//! `fast_convergence` true (§4.7), `reno_friendly` true (§4.3), `slow_start` "hystart++"
//! (Linux's default is classic HyStart, which this model does not have; RFC 9406 is the
//! standards-track slow start for CUBIC, §4.10), and HyStart++'s constants (RFC 9406 §4.3).
//!
//! Choices the RFC leaves open, and where Linux (`tcp_cubic.c`) and ns-3 (`TcpCubic`) differ
//! (docs/models/cubic.md lists them all):
//! - growth counts acknowledged packets (Linux, ns-3), not ACKs as ns-2's Reno does;
//! - where target < cwnd the window holds (RFC); Linux still adds 1 per 100 · cwnd ACKs;
//! - the Reno-friendly estimate sets cwnd to W_est (RFC); Linux instead raises the
//!   per-ACK growth toward it, and keeps α = 3(1 − β)/(1 + β) throughout;
//! - no spurious-congestion undo (§4.9): a reduction is never taken back;
//! - no idle restart (Linux shifts the epoch after an idle period): a bulk source is
//!   never idle;
//! - no classic HyStart (ACK trains and delay increase, Linux's and ns-3's default).

mod hystart;

pub use hystart::{HystartParams, HystartPhase, HystartPlusPlus};

use super::{AckEvent, CcHooks, CcView, CongestionControl};
use crate::engine::time::{self, SimTime};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const HYSTART: &str = "RFC 9406 §4.3";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "cubic",
    summary: "CUBIC (RFC 9438): window W(t) = C(t - K)^3 + W_max since the last reduction, Reno-friendly region, beta = 0.7, fast convergence; HyStart++ (RFC 9406) or standard slow start",
    source: "RFC 9438 §4 (eq. 1-4); RFC 9406; Ha, Rhee & Xu, ACM SIGOPS OSR 42(5), 2008; Linux tcp_cubic.c for what the RFC leaves open",
    params: &[
        Param::new("c", T::Number, "segments/s^3", V::Number(0.4), "the cubic's scaling constant C (eq. 1, 2)", "RFC 9438 §5; Linux bic_scale 41 (41 · 10 / 1024 = 0.4)").range(1e-6, 1e6),
        Param::new("beta", T::Number, "", V::Number(0.7), "multiplicative decrease factor beta_cubic: ssthresh = beta · W on congestion (§4.6)", "RFC 9438 §4.6; Linux beta 717/1024").range(0.01, 0.99),
        Param::new("fast_convergence", T::Bool, "", V::Bool(true), "lower W_max to W · (1 + beta)/2 when a reduction comes below the previous W_max (§4.7)", "RFC 9438 §4.7; Linux fast_convergence 1"),
        Param::new("reno_friendly", T::Bool, "", V::Bool(true), "follow the Reno estimate W_est where it is above W_cubic(t) (§4.3)", "RFC 9438 §4.3; Linux tcp_friendliness 1"),
        Param::new("slow_start", T::Choice(&["hystart++", "standard"]), "", V::Choice("hystart++"), "slow start: RFC 9406 HyStart++ in the initial slow start, or standard slow start (RFC 5681, counting acknowledged packets)", "RFC 9438 §4.10; RFC 9406"),
        Param::new("hystart_min_rtt_thresh", T::Time, "s", V::Time(4 * time::PS_PER_MS), "smallest RTT increase that ends slow start (MIN_RTT_THRESH)", HYSTART).range(0.0, 1e6),
        Param::new("hystart_max_rtt_thresh", T::Time, "s", V::Time(16 * time::PS_PER_MS), "largest RTT increase slow start waits for (MAX_RTT_THRESH)", HYSTART).range(0.0, 1e6),
        Param::new("hystart_min_rtt_divisor", T::Number, "", V::Number(8.0), "the RTT increase threshold is the last round's minimum RTT over this, clamped to the two thresholds (MIN_RTT_DIVISOR)", HYSTART).range(1e-6, 1e6),
        Param::new("hystart_n_rtt_sample", T::Integer, "samples", V::Integer(8), "RTT samples a round needs before its minimum counts (N_RTT_SAMPLE)", HYSTART).range(1.0, 1e9),
        Param::new("hystart_css_growth_divisor", T::Number, "", V::Number(4.0), "conservative slow start grows at slow start's rate over this (CSS_GROWTH_DIVISOR)", HYSTART).range(1.0, 1e6),
        Param::new("hystart_css_rounds", T::Integer, "rounds", V::Integer(5), "rounds of conservative slow start before congestion avoidance (CSS_ROUNDS)", HYSTART).range(1.0, 1e9),
        Param::new("hystart_ack_limit", T::Number, "packets", V::Number(8.0), "most packets one ACK may add in HyStart++'s slow start (L; 8 without pacing)", HYSTART).range(1.0, 1e9),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Cubic::new(CubicParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = CubicParams::from_config(c);
    if p.hystart.min_rtt_thresh_s > p.hystart.max_rtt_thresh_s {
        return Err(ParamError::new("hystart_min_rtt_thresh", format!("a time at most hystart_max_rtt_thresh ({} s)", p.hystart.max_rtt_thresh_s)));
    }
    Ok(())
}

/// The slow start CUBIC runs below ssthresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlowStart {
    /// RFC 5681 (acknowledged packets counted, as Linux).
    Standard,
    /// RFC 9406 in the initial slow start.
    HystartPlusPlus,
}

/// The parameters, typed (see the file's header).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicParams {
    /// C, segments/s³.
    pub c: f64,
    /// β_cubic.
    pub beta: f64,
    pub fast_convergence: bool,
    pub reno_friendly: bool,
    pub slow_start: SlowStart,
    pub hystart: HystartParams,
}

impl CubicParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        CubicParams {
            c: c.number("c"),
            beta: c.number("beta"),
            fast_convergence: c.boolean("fast_convergence"),
            reno_friendly: c.boolean("reno_friendly"),
            slow_start: if c.choice("slow_start") == "standard" { SlowStart::Standard } else { SlowStart::HystartPlusPlus },
            hystart: HystartParams {
                min_rtt_thresh_s: time::to_secs(c.time("hystart_min_rtt_thresh")),
                max_rtt_thresh_s: time::to_secs(c.time("hystart_max_rtt_thresh")),
                min_rtt_divisor: c.number("hystart_min_rtt_divisor"),
                n_rtt_sample: c.integer("hystart_n_rtt_sample") as u32,
                css_growth_divisor: c.number("hystart_css_growth_divisor"),
                css_rounds: c.integer("hystart_css_rounds") as u32,
                ack_limit: c.number("hystart_ack_limit"),
            },
        }
    }

    /// α_cubic = 3(1 − β)/(1 + β) (RFC 9438 §4.3, eq. 4): the additive increase per RTT
    /// that gives AIMD(α, β) Reno's average window (0.529... at β = 0.7).
    pub fn alpha_cubic(&self) -> f64 {
        3.0 * (1.0 - self.beta) / (1.0 + self.beta)
    }
}

/// One congestion-avoidance epoch: the cubic curve it follows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// When it started (t = 0).
    pub start: SimTime,
    /// cwnd at its start, segments.
    pub cwnd_epoch: f64,
    /// The plateau the curve passes through at t = K, segments (W_max).
    pub w_max: f64,
    /// K, seconds (eq. 2).
    pub k: f64,
}

/// CUBIC's window control.
#[derive(Debug, Clone)]
pub struct Cubic {
    p: CubicParams,
    /// W_max: the window before the last reduction (after fast convergence), segments;
    /// 0 when undefined (before the first loss, after a timeout).
    w_max: f64,
    /// cwnd_prior: the window just before the last reduction, segments (for α_cubic).
    cwnd_prior: f64,
    /// The current epoch, `None` from a reduction until the next ACK in avoidance.
    epoch: Option<Epoch>,
    /// W_est, the Reno-friendly estimate, segments (§4.3).
    w_est: f64,
    /// HyStart++'s state, while it runs.
    hystart: Option<HystartPlusPlus>,
}

impl Cubic {
    pub fn new(p: CubicParams) -> Self {
        let hystart = (p.slow_start == SlowStart::HystartPlusPlus).then(|| HystartPlusPlus::new(p.hystart));
        Cubic { p, w_max: 0.0, cwnd_prior: 0.0, epoch: None, w_est: 0.0, hystart }
    }

    pub fn params(&self) -> &CubicParams {
        &self.p
    }

    /// W_max, segments (0 while undefined).
    pub fn w_max(&self) -> f64 {
        self.w_max
    }

    /// The current epoch, if one runs.
    pub fn epoch(&self) -> Option<Epoch> {
        self.epoch
    }

    /// W_est, segments.
    pub fn w_est(&self) -> f64 {
        self.w_est
    }

    /// HyStart++'s phase (`None` with standard slow start).
    pub fn hystart_phase(&self) -> Option<HystartPhase> {
        self.hystart.as_ref().map(|h| h.phase())
    }

    /// K = ∛((W_max − cwnd_epoch)/C), seconds (eq. 2).
    pub fn k(&self, w_max: f64, cwnd_epoch: f64) -> f64 {
        ((w_max - cwnd_epoch) / self.p.c).cbrt()
    }

    /// W_cubic(t) = C(t − K)³ + W_max of `epoch`, segments (eq. 1).
    pub fn w_cubic(&self, epoch: &Epoch, t: f64) -> f64 {
        self.p.c * (t - epoch.k).powi(3) + epoch.w_max
    }

    /// Starts an epoch at `now` from window `cwnd` (RFC 9438 §4.2; K = 0 when W_max is
    /// undefined or below the window, §4.8 and §4.10, as Linux's `bictcp_update`).
    fn start_epoch(&mut self, now: SimTime, cwnd: f64) -> Epoch {
        let (w_max, k) = if self.w_max > cwnd { (self.w_max, self.k(self.w_max, cwnd)) } else { (cwnd, 0.0) };
        self.w_est = cwnd;
        let epoch = Epoch { start: now, cwnd_epoch: cwnd, w_max, k };
        self.epoch = Some(epoch);
        epoch
    }

    /// Slow start for `acked` packets; returns the packets left over once cwnd reaches
    /// ssthresh (for congestion avoidance).
    fn slow_start(&mut self, view: &mut CcView, acked: f64) -> f64 {
        let (cwnd, ssthresh) = (view.cwnd(), view.ssthresh());
        let used = acked.min(ssthresh - cwnd).max(0.0);
        let increase = match &self.hystart {
            Some(h) if h.running() => h.increase(used),
            _ => used,
        };
        view.set_cwnd((cwnd + increase).min(ssthresh));
        acked - used
    }

    /// Congestion avoidance for `acked` packets (RFC 9438 §4.2-4.5).
    fn congestion_avoidance(&mut self, view: &mut CcView, acked: f64) {
        let cwnd = view.cwnd();
        let epoch = match self.epoch {
            Some(e) => e,
            None => self.start_epoch(view.now, cwnd),
        };
        let t = time::to_secs(view.now.saturating_sub(epoch.start));
        let rtt = if view.min_rtt().is_finite() { view.min_rtt() } else { 0.0 };
        let target = self.w_cubic(&epoch, t + rtt).clamp(cwnd, 1.5 * cwnd);
        let mut next = cwnd + acked * (target - cwnd) / cwnd;
        if self.p.reno_friendly {
            let alpha = if self.w_est >= self.cwnd_prior { 1.0 } else { self.p.alpha_cubic() };
            self.w_est += alpha * acked / cwnd;
            if self.w_cubic(&epoch, t) < self.w_est {
                next = next.max(self.w_est);
            }
        }
        view.set_cwnd(next);
    }
}

impl CongestionControl for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn hooks(&self) -> CcHooks {
        CcHooks { any_ack: self.hystart.is_some(), ..CcHooks::NONE }
    }

    fn on_any_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let Some(h) = &mut self.hystart else { return };
        if !h.running() || view.cwnd() >= view.ssthresh() {
            return;
        }
        if h.on_ack(ack.info.ack, view.maxseq(), ack.ack_rtt_s) {
            // CSS_ROUNDS rounds of conservative slow start: congestion avoidance from here
            // (RFC 9406 §4.3), with W_max undefined (RFC 9438 §4.10).
            view.set_ssthresh(view.cwnd());
        }
    }

    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let mut acked = ack.acked_packets.max(1) as f64;
        if view.cwnd() < view.ssthresh() {
            acked = self.slow_start(view, acked);
            if acked <= 0.0 {
                return;
            }
        }
        self.congestion_avoidance(view, acked);
    }

    fn reduced_window(&mut self, _view: &CcView, flight_window: f64) -> f64 {
        let w = flight_window;
        self.epoch = None;
        self.cwnd_prior = w;
        self.w_max = if self.p.fast_convergence && w < self.w_max { w * (1.0 + self.p.beta) / 2.0 } else { w };
        if let Some(h) = &mut self.hystart {
            h.stop();
        }
        self.p.beta * w
    }

    fn on_timeout(&mut self, _view: &mut CcView) {
        // RFC 9438 §4.8: the first avoidance stage after a timeout starts with K = 0 and
        // W_max = cwnd_epoch (Linux `bictcp_reset` on entering CA_Loss).
        // cwnd_prior stays the window before the timeout, for α_cubic (§4.3).
        self.w_max = 0.0;
        self.epoch = None;
    }
}

#[cfg(test)]
mod tests;
