//! TCP Vegas window control, with ns-2.35 `Agent/TCP/Vegas` semantics.
//!
//! Brakmo & Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global Internet",
//! IEEE JSAC 13(8):1465–1480, 1995, doi:10.1109/49.464716, §3.2–3.3; Chan, Lin & Ho,
//! IEICE Trans. Commun. E91-B(4), 2008 (reference document 001), Sect. 3.1, Eqs. (1)–(2);
//! ns-2.35 `tcp/tcp-vegas.cc`
//! (`VegasTcpAgent::recv`, `vegas_expire`, `timeout`) and `tcl/lib/ns-default.tcl`.
//!
//! Once per round, on the first new ACK at or beyond `round_end` (the next packet to send
//! when the previous round was evaluated; ns-2 `v_begseq_`):
//!   rtt      = mean of the round's fine-grained samples, or the time since the previous
//!              evaluation if there were none
//!   base_rtt ← rtt  if rtt < base_rtt, or if at most one packet was sent in the round
//!   actual   = rtt_len / rtt,  rtt_len = snd_nxt − round_end (packets sent in the round)
//!   expected = (snd_nxt − last_ack) / base_rtt
//!   Δ        = int((expected − actual) · base_rtt + 0.5)                         (Eq. 1)
//!              (the real value, unrounded, with `round_delta = false`)
//!   slow start (cwnd < ssthresh), every other round ("hold" rounds in between):
//!              Δ > γ → ssthresh ← 2, cwnd ← max(cwnd − cwnd/8, 2)   (leave slow start)
//!              else  → increment ← 1 per ACK (the window doubles in the round)
//!   congestion avoidance:                                                        (Eq. 2)
//!              Δ > β → cwnd ← max(cwnd − 1, 2), increment ← 0
//!              Δ < α → increment ← 1/cwnd per ACK (one packet in the round)
//!              else  → increment ← 0
//! Every new ACK: a slow-start increment stops once cwnd ≥ ssthresh; cwnd grows by the
//! increment only while cwnd − (snd_nxt − last_ack) ≤ 2 (the sender keeps up with it).
//! Then the ACK's fine-grained sample, if its highest acknowledged packet was sent once:
//!   rtt = now − that packet's send time;  base_rtt ← min(base_rtt, rtt);
//!   sa ← sa + (rtt − sa/8);  sd ← sd + (|rtt − sa_old/8| − sd/4);
//!   fine_timeout = (sa/4 + sd)/2 · (1 + 1/16)            (sa = 8·srtt, sd ≈ 4·mean deviation)
//! The first ACK seeds base_rtt = its delay since the first send, sa = 8·base_rtt,
//! sd = base_rtt, fine_timeout = 1.5·base_rtt (ns-2 `firstrecv_`).
//!
//! Loss response (Brakmo & Peterson §3.1; ns-2 `recv` and `timeout`):
//!   window after a fast retransmit (`reduced_window`), W = ⌊flight window⌋:
//!     W ≤ 3 → 2;  first unacknowledged packet already retransmitted → ⌊W/2⌋;  else W − ⌊W/4⌋
//!   fast retransmit (`on_recovery_start`): fine_timeout ×2 if that packet was already
//!     retransmitted, else ×9/8
//!   timeout: cwnd ← 2 (ns-2 `v_slowstart_`) after the loss recovery's own cut
//!   fine-grained loss detection (`packet_timed_out`): a packet sent fine_timeout or more
//!     ago is lost; a packet never sent counts as sent 1 s before the first send (ns-2
//!     reads its cleared send-time slot, −1 on a clock that starts at the first send).
//!
//! Parameters (defaults, packets; ns-default.tcl): α = 1 (`v_alpha_`), β = 3 (`v_beta_`),
//! γ = 1 (`v_gamma_`). ns-2 binds them as integers; Δ is an integer unless
//! `round_delta = false` (our switch: document 001 does not say whether its Δ is rounded).
//!
//! The measurement half of this file (samples, base_rtt, the round's Δ, the fine-grained
//! timer, the loss response) is shared with Quick Vegas (tcp/cc/quick_vegas.rs), which
//! holds a `Vegas` for it and replaces only the per-round decision and the increments.
//!
//! ns-2's Vegas is one agent whose `recv()` replaces Reno's. Here it is two models: this
//! window control and `recovery = "vegas"` (tcp/recovery/vegas.rs: fast retransmit on
//! the fine-grained timer, cut only if cwnd did not change since the lost packet was
//! sent, inflation and deflation, the checks after a retransmission, the timeout). The
//! pair is ns-2's agent, and `cc = "vegas"` selects that recovery unless the scenario names
//! another. With Tahoe, Reno or NewReno recovery the window rules here still apply, but
//! those recoveries never ask for fine-grained retransmissions, and they set ssthresh to
//! `reduced_window` on a fast retransmit and on a timeout (ns-2's Vegas leaves it on the
//! first and halves the window for it on the second).
//!
//! Choices, all ns-2's where the paper is silent or differs:
//! - Δ is rounded (`int(x + 0.5)`, so negative values truncate toward zero); expected uses
//!   the packets outstanding plus one (`t_seqno_ − last_ack_`), not cwnd; the round's rtt
//!   is the mean of its samples (Linux uses the minimum).
//! - A sample is taken only from the highest packet an ACK acknowledges, only if it was
//!   sent once and not at the instant of the very first send (ns-2 `sendTime != 0`).
//! - ns-2's `v_rtt_` (default 0) is overwritten by the first ACK: not a parameter.
//!   `maxcwnd_` (default 0, no cap) is not modelled.
//! - Send times live in ns-2's ring of `window_` slots (`SendTimes::ns2_ring`), whose
//!   clearing loop skips a cumulative ACK's range that wraps around the ring: later samples
//!   of those slots are lost and their packets count as retransmitted. The slots are
//!   released in `sample_ack`, after the ACK's sample is read and before it sends anything.

use super::{AckEvent, CcView, CongestionControl};
use crate::engine::{time, SimTime};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

const NS2: &str = "ns-2.35 Agent/TCP/Vegas default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "vegas",
    summary: "TCP Vegas: once per round compares expected and actual rates and keeps alpha..beta packets queued; slow start doubles every other round",
    source: "Brakmo & Peterson, IEEE JSAC 13(8), 1995; ns-2.35 Agent/TCP/Vegas (tcp-vegas.cc); Chan, Lin & Ho 2008, Sect. 3.1",
    params: &[
        Param::new("alpha", T::Integer, "packets", V::Integer(1), "fewer extra packets in the network than alpha: grow cwnd by one packet per round (ns-2 v_alpha_)", NS2).range(0.0, 1e6),
        Param::new("beta", T::Integer, "packets", V::Integer(3), "more extra packets than beta: shrink cwnd by one packet per round (ns-2 v_beta_)", NS2).range(0.0, 1e6),
        Param::new("gamma", T::Integer, "packets", V::Integer(1), "more extra packets than gamma in a slow-start round: leave slow start (ns-2 v_gamma_)", NS2).range(0.0, 1e6),
        Param::new("round_delta", T::Bool, "", V::Bool(true), "round the extra-packet estimate to an integer as ns-2 does (int(x + 0.5)); false compares the real value with alpha, beta and gamma", "ns-2.35 VegasTcpAgent::recv"),
    ],
    check,
    relations: Relations { default_recovery: Some("vegas"), ..Relations::NONE },
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Vegas::new(VegasParams::from_config(c))) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    let p = VegasParams::from_config(c);
    if p.alpha > p.beta {
        return Err(ParamError::new("beta", format!("beta at least alpha ({})", p.alpha)));
    }
    Ok(())
}

/// The window after a retransmission timeout, packets (ns-2 `v_slowstart_`, fixed at 2).
const WINDOW_AFTER_TIMEOUT: f64 = 2.0;
/// ssthresh once Vegas leaves slow start: it only marks slow start in Vegas (ns-2).
const SSTHRESH_AFTER_SLOW_START: f64 = 2.0;
/// The smallest window a Vegas decrease leaves, packets (ns-2).
const MIN_WINDOW: f64 = 2.0;
/// fine_timeout before any ACK, seconds (ns-2 `v_timeout_` = 1000 in `reset()`).
const FINE_TIMEOUT_BEFORE_ANY_ACK: f64 = 1000.0;
/// base_rtt before any ACK, seconds (ns-2 `v_baseRTT_` = 1e9).
const BASE_RTT_BEFORE_ANY_ACK: f64 = 1e9;
/// How long before the first send ns-2 takes a packet never sent to have left: its
/// send-time slot holds −1 s (`v_sendtime_` cleared), seconds.
const CLEARED_SEND_TIME_AGO: f64 = 1.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VegasParams {
    /// α, packets (ns-2 `v_alpha_`).
    pub alpha: i64,
    /// β, packets (ns-2 `v_beta_`).
    pub beta: i64,
    /// γ, packets (ns-2 `v_gamma_`).
    pub gamma: i64,
    /// Δ is rounded to an integer (ns-2's `int(x + 0.5)`).
    pub round_delta: bool,
}

impl VegasParams {
    /// Typed parameters; every default is the registry's (`SPEC`).
    pub fn from_config(c: &ModelConfig) -> Self {
        VegasParams { alpha: c.integer("alpha"), beta: c.integer("beta"), gamma: c.integer("gamma"), round_delta: c.boolean("round_delta") }
    }
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams::from_config(&SPEC.defaults())
    }
}

#[derive(Debug, Clone)]
pub struct Vegas {
    params: VegasParams,
    /// Smallest RTT seen, seconds (ns-2 `v_baseRTT_`).
    base_rtt: f64,
    /// The round is evaluated on the first new ACK of this packet or beyond: snd_nxt at
    /// the previous evaluation (ns-2 `v_begseq_`).
    round_end: i64,
    /// When the previous round was evaluated (ns-2 `v_begtime_`).
    round_start: SimTime,
    /// Sum (seconds) and number of the fine-grained samples of this round (ns-2
    /// `v_sumRTT_`, `v_cntRTT_`).
    rtt_sum: f64,
    rtt_count: u32,
    /// Slow start grows in the current round; toggled at each slow-start round, and true
    /// before the first so that the first round holds (ns-2 `v_inc_flag_`).
    slow_start_grows: bool,
    /// cwnd increment per new ACK, set once per round (ns-2 `v_incr_`).
    increment: f64,
    /// Fine-grained timer: 8 × smoothed RTT and about 4 × mean deviation, seconds (ns-2
    /// `v_sa_`, `v_sd_`), and the timeout they give (`v_timeout_`).
    sa: f64,
    sd: f64,
    fine_timeout: f64,
    /// The first ACK arrived (ns-2 `firstrecv_ ≥ 0`).
    seen_first_ack: bool,
    /// Δ of the last evaluated round, packets (rounded if `round_delta`).
    last_delta: Option<f64>,
}

// Per-flow state stays small (STYLE B3), as Linux checks `struct vegas` against
// ICSK_CA_PRIV_SIZE.
const _: () = assert!(std::mem::size_of::<Vegas>() <= 128);

impl Vegas {
    pub fn new(params: VegasParams) -> Self {
        Vegas {
            params,
            base_rtt: BASE_RTT_BEFORE_ANY_ACK,
            round_end: 0,
            round_start: 0,
            rtt_sum: 0.0,
            rtt_count: 0,
            slow_start_grows: true,
            increment: 0.0,
            sa: 0.0,
            sd: 0.0,
            fine_timeout: FINE_TIMEOUT_BEFORE_ANY_ACK,
            seen_first_ack: false,
            last_delta: None,
        }
    }

    /// A Vegas past its first ACK, with `base_rtt` (seconds), whose current round ends at
    /// packet `round_end` and began at `round_start`, no samples yet (for the tests of the
    /// models built on it).
    #[cfg(test)]
    pub(crate) fn mid_connection(base_rtt: f64, round_end: i64, round_start: SimTime) -> Self {
        Vegas { base_rtt, round_end, round_start, seen_first_ack: true, ..Vegas::new(VegasParams::default()) }
    }

    /// Smallest RTT seen, seconds.
    pub fn base_rtt(&self) -> f64 {
        self.base_rtt
    }

    /// The fine-grained retransmission timeout, seconds.
    pub fn fine_timeout(&self) -> f64 {
        self.fine_timeout
    }

    /// Δ (extra packets in the network) of the last evaluated round.
    pub fn last_delta(&self) -> Option<f64> {
        self.last_delta
    }

    /// The ACK of packet `acked` ends the round (ns-2 `seqno >= v_begseq_`).
    pub(crate) fn round_ends(&self, acked: i64) -> bool {
        acked >= self.round_end
    }

    /// Once per round: Δ and what the window does in the next round (Eqs. 1–2).
    fn evaluate_round(&mut self, view: &mut CcView) {
        let Some(round) = self.measure_round(view) else { return };
        let delta = self.rounded(round.delta);
        let VegasParams { alpha, beta, gamma, .. } = self.params;
        if !self.slow_start_round(view, delta, gamma as f64) {
            self.avoidance_round(view, delta, alpha as f64, beta as f64);
        }
    }

    /// Δ as the rules compare it (rounded as ns-2 rounds it unless `round_delta = false`),
    /// kept as the last evaluated round's.
    pub(crate) fn rounded(&mut self, delta: f64) -> f64 {
        let delta = if self.params.round_delta { ns2_round(delta) as f64 } else { delta };
        self.last_delta = Some(delta);
        delta
    }

    /// Vegas' slow-start round, if the window is in slow start (cwnd < ssthresh): grows
    /// every other round while Δ ≤ γ, leaves slow start when Δ > γ. Returns false, and
    /// changes nothing, in congestion avoidance.
    pub(crate) fn slow_start_round(&mut self, view: &mut CcView, delta: f64, gamma: f64) -> bool {
        let cwnd = view.cwnd();
        if cwnd >= view.ssthresh() {
            return false;
        }
        // Slow start changes the window only every other round, so that the hold
        // round measures a window that did not change (Brakmo & Peterson §3.3).
        self.slow_start_grows = !self.slow_start_grows;
        if !self.slow_start_grows {
            self.increment = 0.0;
        } else if delta > gamma {
            view.set_ssthresh(SSTHRESH_AFTER_SLOW_START);
            view.set_cwnd((cwnd - cwnd / 8.0).max(MIN_WINDOW));
            self.increment = 0.0;
        } else {
            self.increment = 1.0;
        }
        true
    }

    /// Vegas' congestion-avoidance round (Eq. 2) with thresholds α and β: one packet less
    /// at once above β, one more over the round below α, else hold.
    pub(crate) fn avoidance_round(&mut self, view: &mut CcView, delta: f64, alpha: f64, beta: f64) {
        if delta > beta {
            self.shrink_by_one(view);
        } else if delta < alpha {
            self.grow_by_one_over_the_round(view);
        } else {
            self.hold();
        }
    }

    /// cwnd ← max(cwnd − 1, 2) at once; no increment in the round.
    pub(crate) fn shrink_by_one(&mut self, view: &mut CcView) {
        view.set_cwnd((view.cwnd() - 1.0).max(MIN_WINDOW));
        self.increment = 0.0;
    }

    /// cwnd grows by 1/cwnd per new ACK: one packet over the round.
    pub(crate) fn grow_by_one_over_the_round(&mut self, view: &CcView) {
        self.increment = 1.0 / view.cwnd();
    }

    /// No change of the window in the round.
    pub(crate) fn hold(&mut self) {
        self.increment = 0.0;
    }

    /// The per-ACK growth: a slow-start increment stops once cwnd ≥ ssthresh; cwnd grows
    /// by the round's increment only while cwnd − (snd_nxt − last_ack) ≤ 2 (ns-2: the
    /// sender keeps up with its window).
    pub(crate) fn grow_on_ack(&mut self, view: &mut CcView) {
        // The increment was set for the round; slow start may reach ssthresh before it ends.
        if self.increment == 1.0 && view.cwnd() >= view.ssthresh() {
            self.increment = 0.0;
        }
        let outstanding = view.snd_nxt() - (view.snd_una() - 1);
        if self.increment > 0.0 && view.cwnd() - outstanding as f64 <= 2.0 {
            view.set_cwnd(view.cwnd() + self.increment);
        }
    }

    /// The measurement half of a round's evaluation: the round's RTT (mean of its
    /// samples), base_rtt, the actual rate and Δ unrounded (Eq. 1); starts the next
    /// round. `None` when the round had no positive RTT (ns-2 then changes nothing).
    pub(crate) fn measure_round(&mut self, view: &CcView) -> Option<RoundMeasurement> {
        let now = view.now;
        let rtt = if self.rtt_count > 0 { self.rtt_sum / self.rtt_count as f64 } else { time::to_secs(now - self.round_start) };
        self.rtt_sum = 0.0;
        self.rtt_count = 0;
        let snd_nxt = view.snd_nxt();
        let rtt_len = snd_nxt - self.round_end;
        let measured = if rtt > 0.0 {
            // With at most one packet in flight there is no queue of our own to mistake
            // for propagation delay, so the round's RTT replaces the base (ns-2).
            if rtt < self.base_rtt || rtt_len <= 1 {
                self.base_rtt = rtt;
            }
            let actual = rtt_len as f64 / rtt;
            let expected = (snd_nxt - (view.snd_una() - 1)) as f64 / self.base_rtt;
            Some(RoundMeasurement { rtt, actual, delta: (expected - actual) * self.base_rtt })
        } else {
            None
        };
        self.round_end = snd_nxt;
        self.round_start = now;
        measured
    }

    /// Takes the fine-grained sample of a new ACK, if it gives one, then releases the send
    /// slots of the packets it acknowledges (ns-2 reads the acknowledged packet's slot, then
    /// clears the range, before the ACK can send anything).
    pub(crate) fn sample_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let acked = ack.info.ack;
        if let Some(rtt) = Self::sample(view, acked) {
            self.take_sample(rtt);
        }
        view.release_send_slots(acked - ack.acked_packets, acked);
    }

    /// The fine-grained sample of an ACK: its highest acknowledged packet, if sent once
    /// and not at the very first send instant (ns-2 skips `sendTime == 0`).
    fn sample(view: &CcView, acked: i64) -> Option<f64> {
        let sent = view.sent_at(acked)?;
        if view.transmissions(acked) != 1 || Some(sent) == view.first_sent() {
            return None;
        }
        Some(time::to_secs(view.now - sent))
    }

    /// Feeds one sample to the round's mean, base_rtt and the fine-grained timer.
    fn take_sample(&mut self, rtt: f64) {
        self.rtt_sum += rtt;
        self.rtt_count += 1;
        if rtt > 0.0 {
            self.base_rtt = self.base_rtt.min(rtt);
            let error = rtt - self.sa / 8.0;
            self.sa += error;
            self.sd += error.abs() - self.sd / 4.0;
            self.fine_timeout = (self.sa / 4.0 + self.sd) / 2.0;
            self.fine_timeout += self.fine_timeout / 16.0;
        }
    }
}

/// What one round measured (Eq. 1), before Δ is rounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RoundMeasurement {
    /// The round's RTT: mean of its fine-grained samples, seconds.
    pub rtt: f64,
    /// Packets sent in the round per second of its RTT (Vegas' Actual).
    pub actual: f64,
    /// (Expected − Actual) · base_rtt, packets, unrounded.
    pub delta: f64,
}

/// The round-over-round RTT trend the Vegas variants that detect a loss-based competitor
/// read (NewVegas' thresholds, Vegas+' counter): did the round's RTT rise although the
/// window did not grow? Vegas spreads a one-packet growth over a round's ACKs, so its
/// own extra packet shows in the mean RTT of that round and of the next one; a rise
/// counts as "at a window that did not grow" only if cwnd grew in neither of the two
/// rounds (W ≤ Wold ≤ W two rounds ago).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RttTrend {
    /// The previous round's RTT (seconds) and cwnd (RTTold, Wold).
    previous: Option<(f64, f64)>,
    /// cwnd at the evaluation before that.
    cwnd_before: Option<f64>,
}

/// One round against the previous one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RoundChange {
    /// The round's RTT minus the previous round's, seconds.
    pub rtt_change: f64,
    /// cwnd did not grow over the last two rounds.
    pub window_held: bool,
}

impl RttTrend {
    /// Records a round's RTT (seconds) and cwnd; its change from the previous round, if
    /// there was one.
    pub(crate) fn observe(&mut self, rtt: f64, cwnd: f64) -> Option<RoundChange> {
        let change = self.previous.map(|(rtt_old, cwnd_old)| RoundChange {
            rtt_change: rtt - rtt_old,
            window_held: cwnd <= cwnd_old && self.cwnd_before.map_or(true, |w| cwnd_old <= w),
        });
        self.cwnd_before = self.previous.map(|(_, w)| w);
        self.previous = Some((rtt, cwnd));
        change
    }

    /// The previous round's RTT, seconds.
    #[cfg(test)]
    pub(crate) fn last_rtt(&self) -> Option<f64> {
        self.previous.map(|(rtt, _)| rtt)
    }

    /// Forgets the rounds seen (after a loss).
    pub(crate) fn reset(&mut self) {
        *self = RttTrend::default();
    }
}

/// ns-2's `int(x + 0.5)`: rounds half up for x ≥ 0, truncates toward zero below.
pub(crate) fn ns2_round(x: f64) -> i64 {
    (x + 0.5).trunc() as i64
}

/// The `CongestionControl` methods of a model built on this Vegas core (a field `core:
/// Vegas`) that are the core's own, written once here for the four variants (NewVegas,
/// Vegas-A, Vegas+, Quick Vegas) instead of forwarded one by one in each. Used inside
/// the variant's `impl CongestionControl`; it always yields the parts every variant
/// shares (ACK hook only, ns-2's send-time ring, the core's RTT bookkeeping and its
/// fine-grained timeout) and, for each name listed, the core's version of that method:
/// `on_ack` (the round's evaluation by the variant's own `evaluate_round`, then Vegas'
/// per-ACK growth), `reduced_window`, `on_recovery_start`, `on_timeout`. A variant that
/// changes one of these writes it out instead.
macro_rules! vegas_core_methods {
    (@method on_ack) => {
        fn on_ack(&mut self, view: &mut $crate::tcp::cc::CcView, ack: &$crate::tcp::cc::AckEvent) {
            if self.core.round_ends(ack.info.ack) {
                self.evaluate_round(view);
            }
            self.core.grow_on_ack(view);
            self.core.sample_ack(view, ack);
        }
    };
    (@method reduced_window) => {
        fn reduced_window(&mut self, view: &$crate::tcp::cc::CcView, flight_window: f64) -> f64 {
            self.core.reduced_window(view, flight_window)
        }
    };
    (@method on_recovery_start) => {
        fn on_recovery_start(&mut self, view: &mut $crate::tcp::cc::CcView) {
            self.core.on_recovery_start(view);
        }
    };
    (@method on_timeout) => {
        fn on_timeout(&mut self, view: &mut $crate::tcp::cc::CcView) {
            self.core.on_timeout(view);
        }
    };
    ($($method:ident),* $(,)?) => {
        fn hooks(&self) -> $crate::tcp::cc::CcHooks {
            $crate::tcp::cc::CcHooks { any_ack: true, duplicate_ack: false, round: false, send: false }
        }

        fn wants_send_times(&self) -> bool {
            true
        }

        fn ns2_vegas_ring(&self) -> bool {
            true
        }

        fn on_any_ack(&mut self, view: &mut $crate::tcp::cc::CcView, ack: &$crate::tcp::cc::AckEvent) {
            self.core.on_any_ack(view, ack);
        }

        fn packet_timed_out(&self, view: &$crate::tcp::cc::CcView, seq: i64) -> bool {
            self.core.packet_timed_out(view, seq)
        }

        $($crate::tcp::cc::vegas::vegas_core_methods!(@method $method);)*
    };
}
pub(crate) use vegas_core_methods;

impl CongestionControl for Vegas {
    fn name(&self) -> &'static str {
        "vegas"
    }

    fn wants_send_times(&self) -> bool {
        true
    }

    /// ns-2 Agent/TCP/Vegas's send-time ring, quirk included (see the module's text).
    fn ns2_vegas_ring(&self) -> bool {
        true
    }

    fn on_any_ack(&mut self, view: &mut CcView, _ack: &AckEvent) {
        if !self.seen_first_ack {
            self.seen_first_ack = true;
            let first_sent = view.first_sent().unwrap_or(view.now);
            let rtt = time::to_secs(view.now - first_sent);
            self.base_rtt = rtt;
            self.sa = 8.0 * rtt;
            self.sd = rtt;
            self.fine_timeout = (self.sa / 4.0 + self.sd) / 2.0;
            self.round_start = first_sent;
        }
    }

    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        let acked = ack.info.ack;
        if self.round_ends(acked) {
            self.evaluate_round(view);
        }
        self.grow_on_ack(view);
        self.sample_ack(view, ack);
    }

    fn packet_timed_out(&self, view: &CcView, seq: i64) -> bool {
        let out_for = match view.sent_at(seq) {
            Some(sent) => time::to_secs(view.now - sent),
            // ns-2 reads a packet never sent from a cleared slot of its send-time ring:
            // sent at −1 s on a clock that starts at the first send.
            None => time::to_secs(view.now - view.first_sent().unwrap_or(view.now)) + CLEARED_SEND_TIME_AGO,
        };
        out_for >= self.fine_timeout
    }

    fn reduced_window(&mut self, view: &CcView, flight_window: f64) -> f64 {
        let w = flight_window as i64;
        let reduced = if w <= 3 {
            2
        } else if view.transmissions(view.snd_una()) > 1 {
            // A retransmission was lost too: "more serious congestion" (Brakmo & Peterson §3.1).
            w >> 1
        } else {
            w - (w >> 2)
        };
        reduced as f64
    }

    fn on_recovery_start(&mut self, view: &mut CcView) {
        if view.transmissions(view.snd_una()) > 1 {
            self.fine_timeout *= 2.0;
        } else {
            self.fine_timeout += self.fine_timeout / 8.0;
        }
    }

    fn on_timeout(&mut self, view: &mut CcView) {
        view.set_cwnd(WINDOW_AFTER_TIMEOUT);
    }
}

#[cfg(test)]
mod tests;
