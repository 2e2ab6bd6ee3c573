//! FAST TCP window control, with the semantics of the ns-2 FAST module.
//!
//! C. Jin, D. X. Wei, S. H. Low, "FAST TCP: Motivation, Architecture, Algorithms,
//! Performance", IEEE INFOCOM 2004 (the window update); the ns-2 module of the University
//! of Melbourne / CUBIN (T. Cui, L. Andrew), `Agent/TCP/Fast` v1.1.3 (14 Jan 2007,
//! `tcp/tcp-fast.cc`, `tcp-fast.h`; defaults in `ns-default.tcl`), which reference document
//! 001 names as what Chan, Lin & Ho (IEICE E91-B(4), 2008) compared against with α = 100.
//!
//! Estimation, on every new ACK outside loss recovery (ns-2 `fast_est`):
//!   rtt        = now − send time of the acknowledged packet if it was sent once, else
//!                avg_rtt
//!   base_rtt   ← min(base_rtt, rtt)
//!   avg_window = snd_nxt − cumulative ACK (packets outstanding, ns-2 `avg_cwnd_last_RTT_`)
//!   avg_rtt    ← avg_rtt + (rtt − avg_rtt)/k,  k = 256, or avg_window/3 if that is larger
//! The first ACK (any) seeds base_rtt = avg_rtt = its delay since the first send.
//! Each packet sent remembers avg_window at that moment; the ACK of a packet gives that
//! value, old_window (ns-2 `cwnd_array_`): the window the packet was sent in.
//!
//! Window (ns-2 `fast_cc`), on every new ACK outside loss recovery:
//!   every rtt seconds (the ACK's sample) a new "RTT" starts: the ACKs of the last one are
//!   counted (for pacing) and update RTTs alternate with frozen ones (`every_other_rtt`)
//!   multiplicative increase: if avg_rtt − base_rtt < mi_threshold: cwnd ← cwnd + 1 (per
//!     ACK: the window doubles in a round trip)
//!   otherwise the ACK paces a pending increase (below)
//! Periodic update, on the congestion-control timer every `update_interval` while ACKs
//! come, in an update RTT, when the last ACK was not in multiplicative increase, outside
//! recovery, at least `update_interval` after the previous update or multiplicative step:
//!   q = avg_rtt − base_rtt
//!   if old_window·q < α·avg_rtt or old_window·q ≥ β·avg_rtt:
//!     target = (1 − γ)·cwnd + γ·(old_window·base_rtt/avg_rtt + α),  at least 2
//!   (Jin et al.: w ← min{2w, (1 − γ)w + γ(baseRTT/RTT·w + α)}; the doubling cap comes
//!   from the pacing below.) A decrease is applied at once. An increase of ⌊target −
//!   cwnd⌋ packets is paced (ns-2 `fast_pace`, when base_rtt ≥ 4 ms): one packet every
//!   ⌊acks per interval / increments⌋ ACKs (acks per interval = ACKs of the last RTT ·
//!   update_interval / avg_rtt), at once if cwnd ≤ 4 (doubling at most); pending
//!   increments are dropped at the next update.
//! In equilibrium old_window·(1 − base_rtt/avg_rtt) = α: each flow keeps α packets queued.
//!
//! Loss (ns-2 `dupack_action`, `timeout`): a fast retransmit halves the window
//! (`reduced_window` = W/2, as `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`); the
//! loss recovery is SACK-based (`recovery = "sack1"` is this window control's default,
//! with a SACK receiver); after a timeout cwnd ← 2 (ns-2 `slowstart_`). During recovery
//! the window control is not called, and the update clock restarts at every ACK.
//!
//! Differences from the ns-2 module (all written down in docs/models/fast.md):
//! - the periodic update runs on the congestion-control timer, from the state as of the
//!   latest ACK; ns-2 makes it on the first ACK after the interval has passed (the timer
//!   is up to one interval later when a frozen RTT ends between two firings);
//! - the ACK that carries ns-2's update also counts toward the pacing spacing; here the
//!   update sets the spacing and every later ACK counts;
//! - cwnd is real (ns-2 `high_accuracy_cwnd_` 2, its default); the integer modes are not
//!   modelled;
//! - SACK recovery is Sack1's (ns-2 FAST has its own copy of the Sack1 code, with a
//!   retransmission of the oldest unacknowledged packet when it is older than 2·avg_rtt,
//!   and `partial_ack_` on); ns-2 FAST sets the initial window on the ACK after the first
//!   (delay_growth_), here on the first;
//! - no ECN response of its own (ns-2 FAST calls Reno's).

use super::{AckEvent, CcHooks, CcView, CongestionControl};
use crate::engine::{time, SimTime};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;
use std::collections::VecDeque;

const NS2: &str = "ns-2 FAST module v1.1.3 default (ns-default.tcl, Agent/TCP/Fast)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "fast",
    summary: "FAST TCP: keeps alpha packets queued by a periodic window update toward base_rtt/avg_rtt x w + alpha, with multiplicative increase while the queueing delay is small",
    source: "Jin, Wei & Low, IEEE INFOCOM 2004; ns-2 FAST module v1.1.3 (Cui & Andrew, CUBIN, tcp-fast.cc)",
    params: &[
        Param::new("alpha", T::Number, "packets", V::Number(100.0), "packets each flow keeps queued in equilibrium (ns-2 alpha_; Chan, Lin & Ho 2008 and Jin et al. use 100)", NS2).range(0.0, 1e9),
        Param::new("beta", T::Number, "packets", V::Number(100.0), "no update while alpha <= old window x queueing delay / avg_rtt < beta (ns-2 beta_; equal to alpha: always update)", NS2).range(0.0, 1e9),
        Param::new("gamma", T::Number, "", V::Number(0.5), "weight of the new target in each update (ns-2 gamma_)", NS2).range(1e-9, 1.0),
        Param::new("update_interval", T::Time, "s", V::Time(10 * time::PS_PER_MS), "time between window updates (ns-2 cwnd_update_period_)", NS2).range(1e-6, 1e3),
        Param::new("every_other_rtt", T::Bool, "", V::Bool(true), "update only in every other round trip, freezing the window in between (ns-2 v1.1.3 UPDATE_CWND_EVERY_OTHER_RTT)", NS2),
        Param::new("mi_threshold", T::Time, "s", V::Time(750 * time::PS_PER_US), "multiplicative increase (+1 per ACK) while avg_rtt - base_rtt is below this (ns-2 mi_threshold_)", NS2).range(0.0, 1e3),
    ],
    check,
    relations: Relations { default_recovery: Some("sack1"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Fast::new(FastParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = FastParams::from_config(c);
    if p.beta < p.alpha {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

/// The window after a retransmission timeout, packets (ns-2 `slowstart_`).
const WINDOW_AFTER_TIMEOUT: f64 = 2.0;
/// The smallest window an update leaves, packets (ns-2 `fast_calc_cwnd`).
const MIN_WINDOW: f64 = 2.0;
/// avg_rtt is an average over this many ACKs at least (ns-2 `fast_est_update_avgrtt`).
const AVG_RTT_ACKS: f64 = 256.0;
/// ... or over a third of the window when that is more ACKs.
const AVG_RTT_WINDOW_DIVISOR: f64 = 3.0;
/// Increases are paced over ACKs only when base_rtt is at least this, seconds (ns-2).
const PACING_MIN_BASE_RTT: f64 = 0.004;
/// At or below this window an increase is applied at once, packets (ns-2 `fast_pace`).
const PACE_AT_ONCE_WINDOW: f64 = 4.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FastParams {
    /// α, β, packets.
    pub alpha: f64,
    pub beta: f64,
    /// γ ∈ (0, 1].
    pub gamma: f64,
    pub update_interval: SimTime,
    pub every_other_rtt: bool,
    /// Seconds.
    pub mi_threshold: f64,
}

impl FastParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        FastParams {
            alpha: c.number("alpha"),
            beta: c.number("beta"),
            gamma: c.number("gamma"),
            update_interval: c.time("update_interval"),
            every_other_rtt: c.boolean("every_other_rtt"),
            mi_threshold: time::to_secs(c.time("mi_threshold")),
        }
    }
}

impl Default for FastParams {
    fn default() -> Self {
        FastParams::from_config(&SPEC.defaults())
    }
}

/// The FAST update (ns-2 `fast_calc_cwnd`, real-valued mode): the window after one
/// update from `cwnd`, given the window the acknowledged packet was sent in, base_rtt and
/// avg_rtt (seconds). Unchanged while the flow's queue estimate is in [α, β).
pub fn target_window(p: &FastParams, cwnd: f64, old_window: f64, base_rtt: f64, avg_rtt: f64) -> f64 {
    if avg_rtt <= 0.0 || !base_rtt.is_finite() {
        return cwnd;
    }
    let queued = old_window * (avg_rtt - base_rtt);
    if queued < p.alpha * avg_rtt || queued >= p.beta * avg_rtt {
        let target = (1.0 - p.gamma) * cwnd + p.gamma * (old_window * base_rtt / avg_rtt + p.alpha);
        target.max(MIN_WINDOW)
    } else {
        cwnd
    }
}

#[derive(Debug, Clone)]
pub struct Fast {
    params: FastParams,
    /// Smallest RTT sample, seconds (ns-2 `baseRTT_`).
    base_rtt: f64,
    /// Average RTT, seconds (ns-2 `avgRTT_`); 0 before the first ACK.
    avg_rtt: f64,
    /// Packets outstanding at the latest ACK (ns-2 `avg_cwnd_last_RTT_`).
    avg_window: f64,
    /// avg_window when each outstanding packet was sent, from `sent_windows_base` on
    /// (ns-2 `cwnd_array_`).
    sent_windows: VecDeque<f64>,
    sent_windows_base: i64,
    /// The window the latest acknowledged packet was sent in.
    old_window: f64,
    /// The latest ACK was in multiplicative increase.
    in_mi: bool,
    /// When the window was last updated, or grown multiplicatively, or an ACK came in
    /// recovery (ns-2 `cwnd_update_time`).
    last_update: SimTime,
    /// Start of the current "RTT" period, seconds (ns-2 `fast_calc_cwnd_end`).
    period_start: f64,
    /// This period may update the window (ns-2 `on_first_rtt_`).
    update_period: bool,
    /// ACKs in this period and the last (ns-2 `acks_per_rtt`, `acks_last_rtt`).
    acks_this_period: u32,
    acks_last_period: u32,
    /// Pending paced increments, ACKs since the last one, ACKs between two (ns-2
    /// `cwnd_increments`, `bc_ack`, `bc_spacing`).
    increments: u32,
    acks_since_increment: u32,
    spacing: u32,
    seen_first_ack: bool,
    timer_armed: bool,
    acked_since_timer: bool,
}

impl Fast {
    pub fn new(params: FastParams) -> Self {
        Fast {
            params,
            base_rtt: f64::INFINITY,
            avg_rtt: 0.0,
            avg_window: 0.0,
            sent_windows: VecDeque::new(),
            sent_windows_base: 0,
            old_window: 0.0,
            in_mi: true,
            last_update: 0,
            period_start: 0.0,
            update_period: true,
            acks_this_period: 0,
            acks_last_period: 0,
            increments: 0,
            acks_since_increment: 0,
            spacing: 0,
            seen_first_ack: false,
            timer_armed: false,
            acked_since_timer: false,
        }
    }

    pub fn base_rtt(&self) -> f64 {
        self.base_rtt
    }

    pub fn avg_rtt(&self) -> f64 {
        self.avg_rtt
    }

    /// Pending paced increments, packets.
    pub fn pending_increments(&self) -> u32 {
        self.increments
    }

    /// ns-2 `fast_est_update_avgrtt`.
    fn average_rtt(&self, rtt: f64) -> f64 {
        if self.avg_rtt == 0.0 {
            return rtt;
        }
        let k = (self.avg_window / AVG_RTT_WINDOW_DIVISOR).max(AVG_RTT_ACKS);
        ((k - 1.0) * self.avg_rtt + rtt) / k
    }

    /// The window packet `seq` was sent in, and forgets the packets up to `seq`.
    fn take_sent_window(&mut self, seq: i64) -> Option<f64> {
        let w = usize::try_from(seq - self.sent_windows_base).ok().and_then(|i| self.sent_windows.get(i).copied());
        while self.sent_windows_base <= seq && !self.sent_windows.is_empty() {
            self.sent_windows.pop_front();
            self.sent_windows_base += 1;
        }
        self.sent_windows_base = self.sent_windows_base.max(seq + 1);
        w
    }

    /// ns-2 `fast_pace`: `new_increments` ≥ 1 starts pacing that many packets (with the
    /// ones still pending); 0 counts one more ACK toward the next.
    fn pace(&mut self, view: &mut CcView, new_increments: u32) {
        if self.avg_rtt == 0.0 {
            return;
        }
        let acks_per_interval = self.acks_last_period as f64 * time::to_secs(self.params.update_interval) / self.avg_rtt;
        if new_increments >= 1 {
            self.increments += new_increments;
            self.spacing = (acks_per_interval / self.increments as f64) as u32;
            self.acks_since_increment = 1;
        } else {
            self.acks_since_increment += 1;
        }
        if self.increments == 0 {
            return;
        }
        let cwnd = view.cwnd();
        if cwnd <= PACE_AT_ONCE_WINDOW {
            // A small window takes the increase at once, doubling at most per step.
            if cwnd < self.increments as f64 {
                self.increments -= cwnd as u32;
                view.set_cwnd(cwnd + cwnd);
            } else {
                view.set_cwnd(cwnd + self.increments as f64);
                self.increments = 0;
                self.spacing = 0;
            }
            self.acks_since_increment = 0;
        } else if self.acks_since_increment >= self.spacing {
            view.set_cwnd(cwnd + 1.0);
            self.increments -= 1;
            self.acks_since_increment = 0;
        }
    }

    /// One periodic update (ns-2 `fast_cc` when the update time has come).
    fn update(&mut self, view: &mut CcView) {
        self.increments = 0;
        let cwnd = view.cwnd();
        let target = target_window(&self.params, cwnd, self.old_window, self.base_rtt, self.avg_rtt);
        if target >= cwnd && self.base_rtt >= PACING_MIN_BASE_RTT {
            self.pace(view, (target - cwnd) as u32);
        } else {
            view.set_cwnd(target);
        }
        self.last_update = view.now;
    }

    fn arm_timer(&mut self, view: &mut CcView) {
        let next = self.last_update + self.params.update_interval;
        view.set_timer(if next > view.now { next } else { view.now + self.params.update_interval });
        self.timer_armed = true;
    }
}

impl CongestionControl for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn hooks(&self) -> CcHooks {
        CcHooks { any_ack: true, duplicate_ack: false, round: false, send: true }
    }

    fn wants_send_times(&self) -> bool {
        true
    }

    fn on_any_ack(&mut self, view: &mut CcView, _ack: &AckEvent) {
        if !self.seen_first_ack {
            // ns-2 firstrecv_: base and average RTT start at the first ACK's delay since
            // the first send.
            self.seen_first_ack = true;
            let first_sent = view.first_sent().unwrap_or(view.now);
            let rtt = time::to_secs(view.now - first_sent);
            self.base_rtt = rtt;
            self.avg_rtt = rtt;
            self.period_start = time::to_secs(first_sent);
            self.last_update = view.now;
        }
        if view.in_recovery() {
            self.last_update = view.now;
        }
    }

    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let acked = ack.info.ack;
        let now = time::to_secs(view.now);
        let rtt = match view.sent_at(acked) {
            Some(sent) if view.transmissions(acked) == 1 && view.now > sent => time::to_secs(view.now - sent),
            _ => self.avg_rtt,
        };
        if let Some(w) = self.take_sent_window(acked) {
            self.old_window = w;
        }
        self.base_rtt = self.base_rtt.min(rtt);
        self.avg_window = (view.snd_nxt() - acked) as f64;
        self.avg_rtt = self.average_rtt(rtt);

        if self.period_start + rtt < now {
            self.period_start = now;
            self.acks_last_period = self.acks_this_period;
            self.acks_this_period = 0;
            self.update_period = !self.update_period || !self.params.every_other_rtt;
        }
        self.acks_this_period += 1;
        self.in_mi = self.avg_rtt - self.base_rtt < self.params.mi_threshold;
        if self.in_mi {
            view.set_cwnd(view.cwnd() + 1.0);
            self.last_update = view.now;
        } else if self.base_rtt >= PACING_MIN_BASE_RTT {
            self.pace(view, 0);
        }
        self.acked_since_timer = true;
        if !self.timer_armed {
            self.arm_timer(view);
        }
    }

    fn on_send(&mut self, _view: &mut CcView, seq: i64, _retransmission: bool) {
        if seq < self.sent_windows_base {
            return;
        }
        let i = (seq - self.sent_windows_base) as usize;
        if i < self.sent_windows.len() {
            self.sent_windows[i] = self.avg_window;
        } else {
            let fill = self.avg_window;
            self.sent_windows.resize(i + 1, fill);
        }
    }

    fn on_timer(&mut self, view: &mut CcView) {
        self.timer_armed = false;
        if !self.acked_since_timer {
            // Idle: the next ACK rearms the timer.
            return;
        }
        self.acked_since_timer = false;
        let due = view.now >= self.last_update + self.params.update_interval;
        if due && self.update_period && !self.in_mi && !view.in_recovery() {
            self.update(view);
        }
        self.arm_timer(view);
    }

    fn reduced_window(&mut self, _view: &CcView, flight_window: f64) -> f64 {
        // ns-2 slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF).
        flight_window / 2.0
    }

    fn on_recovery_start(&mut self, _view: &mut CcView) {
        self.increments = 0;
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        view.set_cwnd(WINDOW_AFTER_TIMEOUT);
        self.increments = 0;
    }
}

#[cfg(test)]
mod tests;
