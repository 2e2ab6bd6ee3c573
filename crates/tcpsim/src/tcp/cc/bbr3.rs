//! BBR version 3: BBRv1's path model plus loss- and ECN-bounded inflight and bandwidth
//! limits, a slower, wall-clock-paced bandwidth probe, and a gentler ProbeRTT.
//!
//! draft-ietf-ccwg-bbr-01 (October 2024; -02 and -03 keep the algorithm), as Linux BBRv3
//! (`net/ipv4/tcp_bbr.c` of the google/bbr tree, "v3") runs it. Section and function
//! names are the draft's pseudocode (`BBRUpdateModelAndState` and the functions it calls).
//!
//! Model, on every ACK with a rate sample (`tcp/state/rate_sample.rs`, shared with BBRv1):
//!   max_bw       = max delivery rate of the last 2 ProbeBW cycles (`BBRUpdateMaxBw`; Linux
//!                  `bw_hi[2]`), packets/s, with BBRv1's windowed-max filter over cycles
//!   min_rtt      = min RTT of the last 10 s; probe_rtt_min_delay the min of the last 5 s
//!   bw_lo, inflight_lo (short-term lower bounds): on a round with loss,
//!                  outside bandwidth probing, bw_lo = max(bw_latest, β·bw_lo) and
//!                  inflight_lo = max(inflight_latest, β·inflight_lo), β = 0.7; reset
//!                  (∞) when a probe starts (Refill) and after ProbeRTT
//!   inflight_hi  (long-term upper bound): when a probe's samples show loss
//!                  rate > 2 % (or, optionally, ECN-marked > 50 % of a round),
//!                  inflight_hi = max(tx_in_flight, β·target inflight); grows in Up by
//!                  1, 2, 4, … packets per round (`BBRProbeInflightHiUpward`)
//!   bw           = min(max_bw, bw_lo), the rate pacing and the BDP use
//!   BDP          = ⌈bw · min_rtt · gain⌉ packets (10 before the first RTT sample)
//! Controls:
//!   pacing rate = pacing_gain · bw · (1 − 1 %), raised only until the pipe is full
//!   cwnd        grows by the packets delivered up to BDP(cwnd_gain) + 3 send quanta
//!               (Linux's quantization budget, BBRv1's), then is capped
//!               (`BBRBoundCwndForModel`): by inflight_hi in Down, Refill and Up; by
//!               inflight_hi − max(1, 0.15·inflight_hi) (headroom) in Cruise and ProbeRTT;
//!               by inflight_lo always; at least 4; ProbeRTT: ≤ max(0.5·BDP, 4)
//! States:
//!   Startup  pacing gain 2.77 (4 ln 2), cwnd gain 2; ends when max_bw did not grow 25 %
//!            in 3 non-app-limited rounds, or on loss: in a recovery, a round with ≥ 6
//!            loss events and loss rate > 2 % (inflight_hi = max(BDP, inflight_latest))
//!   Drain    pacing gain 0.35, until packets in the network ≤ BBRInflight(1.0) (the BDP
//!            and the quantization budget) → ProbeBW Down
//!   ProbeBW  Down (0.90) until in network ≤ BBRInflight(1.0) and ≤ the headroom cap
//!            → Cruise (1.0; on the ACK that ends Drain when nothing bounds inflight);
//!            from Down or Cruise, after bw_probe_wait (2 s + uniform 0-1 s) or after
//!            min(BDP-packets, 63) rounds (Reno coexistence) → Refill (1.0, one round,
//!            lower bounds reset) → Up (1.25) until inflight too high, or one min_rtt
//!            passed with in network ≥ 1.25·BDP → Down. Each probe's end advances the
//!            max_bw filter's cycle.
//!   ProbeRTT when probe_rtt_min_delay is 5 s old: cwnd ≤ 0.5·BDP for 200 ms and a
//!            round trip, then lower bounds reset, cwnd restored, → Down then Cruise
//!            (Startup if the pipe was never full)
//! Loss recovery as in BBRv1 (Linux keeps it): loss does not cut cwnd by itself; the first
//! round of a fast recovery conserves packets; cwnd comes back to its saved value when a
//! recovery or a timeout's loss state ends.
//!
//! Packet counting: Linux counts cwnd and inflight in segments and bandwidth in segments
//! per µs; here packets and packets/s (real), BDP, caps and cwnd whole packets.
//! Where the simulator lacks Linux's per-packet fields (docs/models/bbr3.md, deviations):
//!   tx_in_flight (in flight when the sampled packet left) is the sample's prior_in_flight;
//!   the losses that judge "inflight too high" are the retransmissions counted since the
//!   round began (Linux: losses since the sampled packet left), so
//!   loss rate = lost_in_round / tx_in_flight; a "loss event" is an ACK whose sample
//!   reports losses (Linux's `loss_events_in_round`); a CE mark is a packet delivered by
//!   an ACK with ECE set.
//!
//! Left out (in docs/models/bbr3.md): the ACK-aggregation extra cwnd (`extra_acked`), the
//! idle restart, the ECN lower-bound response (Linux `ecn_alpha`, `bw_lo` cut by ECN), and
//! Linux v3's fast path of skipping the Refill when inflight_hi was not limiting.

#[cfg(test)]
mod tests;

use super::bbr::{bbr_shared_congestion_control, send_quantum, BbrWindow, WindowedMax, CWND_WITHOUT_RTT};
use super::{AckEvent, CcHooks, CcModel, CcView, CongestionControl, RateSample};
use crate::engine::time::{self, SimTime};
use crate::model::{no_check, Family, ModelConfig, ModelSpec, Param, ParamType as T, Relations, Value as V};

const DRAFT: &str = "draft-ietf-ccwg-bbr-01";
const LINUX: &str = "Linux tcp_bbr.c v3 (google/bbr)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "bbr3",
    summary: "BBRv3: BBR's bandwidth and min-RTT model bounded by loss (and optionally ECN): inflight_hi/inflight_lo/bw_lo, ProbeBW Down/Cruise/Refill/Up on a 2-3 s probe clock, ProbeRTT at half the BDP every 5 s",
    source: "draft-ietf-ccwg-bbr-01 (IETF CCWG, 2024); Linux tcp_bbr.c v3 (google/bbr)",
    params: &[
        Param::new("startup_pacing_gain", T::Number, "", V::Number(2.77), "pacing gain in Startup, 4 ln 2 (BBRStartupPacingGain)", DRAFT).range(1.0, 100.0),
        Param::new("startup_cwnd_gain", T::Number, "", V::Number(2.0), "cwnd gain in Startup (BBRStartupCwndGain)", DRAFT).range(1.0, 100.0),
        Param::new("drain_pacing_gain", T::Number, "", V::Number(0.35), "pacing gain in Drain (BBRDrainPacingGain)", DRAFT).range(0.01, 1.0),
        Param::new("cwnd_gain", T::Number, "", V::Number(2.0), "cwnd gain in Drain and ProbeBW (BBRDefaultCwndGain)", DRAFT).range(1.0, 100.0),
        Param::new("probe_up_pacing_gain", T::Number, "", V::Number(1.25), "pacing gain of ProbeBW Up", DRAFT).range(1.0, 10.0),
        Param::new("probe_down_pacing_gain", T::Number, "", V::Number(0.9), "pacing gain of ProbeBW Down", DRAFT).range(0.1, 1.0),
        Param::new("loss_thresh", T::Number, "", V::Number(0.02), "loss rate above which inflight is too high (BBRLossThresh)", DRAFT).range(0.0, 1.0),
        Param::new("beta", T::Number, "", V::Number(0.7), "multiplicative cut of inflight_hi and of the lower bounds on loss (BBRBeta)", DRAFT).range(0.0, 1.0),
        Param::new("headroom", T::Number, "", V::Number(0.15), "fraction of inflight_hi left free in Cruise and ProbeRTT (BBRHeadroom)", DRAFT).range(0.0, 1.0),
        Param::new("full_loss_count", T::Integer, "loss events", V::Integer(6), "loss events in a round (with loss rate > loss_thresh) that end Startup (BBRStartupFullLossCnt; Linux full_loss_cnt)", DRAFT).range(1.0, 1e6),
        Param::new("ecn", T::Bool, "", V::Bool(false), "treat a round with more than ecn_thresh of its deliveries CE-marked as inflight too high (needs an ECN sender and marking queue)", LINUX),
        Param::new("ecn_thresh", T::Number, "", V::Number(0.5), "CE-marked fraction of a round's deliveries that is too high (Linux ecn_thresh)", LINUX).range(0.0, 1.0),
        Param::new("min_rtt_window", T::Time, "s", V::Time(10 * time::PS_PER_S), "length of the min_rtt filter (MinRTTFilterLen)", DRAFT).range(1e-3, 1e6),
        Param::new("probe_rtt_interval", T::Time, "s", V::Time(5 * time::PS_PER_S), "age of probe_rtt_min_delay that starts ProbeRTT (ProbeRTTInterval)", DRAFT).range(1e-3, 1e6),
        Param::new("probe_rtt_time", T::Time, "s", V::Time(200 * time::PS_PER_MS), "time ProbeRTT holds the small cwnd, and at least one round trip (ProbeRTTDuration)", DRAFT).range(0.0, 1e3),
        Param::new("probe_rtt_cwnd_gain", T::Number, "", V::Number(0.5), "cwnd in ProbeRTT is at most this times the BDP (BBRProbeRTTCwndGain)", DRAFT).range(0.0, 10.0),
        Param::new("min_cwnd", T::Integer, "packets", V::Integer(4), "smallest cwnd (BBRMinPipeCwnd)", DRAFT).range(1.0, 1e6),
        Param::new("max_bw_cycles", T::Integer, "probe cycles", V::Integer(2), "length of the max_bw filter in ProbeBW cycles (MaxBwFilterLen)", DRAFT).range(1.0, 1e6),
        Param::new("probe_wait_base", T::Time, "s", V::Time(2 * time::PS_PER_S), "shortest wall-clock time between bandwidth probes (BBRPickProbeWait: 2 s + uniform(0, probe_wait_rand))", DRAFT).range(0.0, 1e3),
        Param::new("probe_wait_rand", T::Time, "s", V::Time(time::PS_PER_S), "random part of the time between bandwidth probes", DRAFT).range(0.0, 1e3),
        Param::new("reno_rounds_max", T::Integer, "round trips", V::Integer(63), "at most this many rounds between probes (BBRIsRenoCoexistenceProbeTime: min(BDP in packets, 63))", DRAFT).range(1.0, 1e6),
        Param::new("full_bw_growth", T::Number, "", V::Number(1.25), "Startup goes on while max_bw grows by this factor per round trip", DRAFT).range(1.0, 100.0),
        Param::new("full_bw_rounds", T::Integer, "round trips", V::Integer(3), "rounds in a row without that growth that end Startup", DRAFT).range(1.0, 1e6),
        Param::new("pacing_margin", T::Number, "", V::Number(0.01), "the pacing rate is this fraction below pacing_gain x bw (BBRPacingMarginPercent)", DRAFT).range(0.0, 0.5),
    ],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Bbr3::from_config(c)) };

/// `BBRRaiseInflightHiSlope` doubles the growth per round up to 2^30 packets.
const MAX_PROBE_UP_ROUNDS: u32 = 30;

/// BBRv3's parameters, as the spec declares them.
#[derive(Debug, Clone, PartialEq)]
pub struct Bbr3Params {
    pub startup_pacing_gain: f64,
    pub startup_cwnd_gain: f64,
    pub drain_pacing_gain: f64,
    pub cwnd_gain: f64,
    pub probe_up_pacing_gain: f64,
    pub probe_down_pacing_gain: f64,
    pub loss_thresh: f64,
    pub beta: f64,
    pub headroom: f64,
    pub full_loss_count: u32,
    pub ecn: bool,
    pub ecn_thresh: f64,
    pub min_rtt_window: SimTime,
    pub probe_rtt_interval: SimTime,
    pub probe_rtt_time: SimTime,
    pub probe_rtt_cwnd_gain: f64,
    pub min_cwnd: f64,
    pub max_bw_cycles: u64,
    pub probe_wait_base: SimTime,
    pub probe_wait_rand: SimTime,
    pub reno_rounds_max: u64,
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    pub pacing_margin: f64,
}

impl Bbr3Params {
    pub fn from_config(c: &ModelConfig) -> Self {
        Bbr3Params {
            startup_pacing_gain: c.number("startup_pacing_gain"),
            startup_cwnd_gain: c.number("startup_cwnd_gain"),
            drain_pacing_gain: c.number("drain_pacing_gain"),
            cwnd_gain: c.number("cwnd_gain"),
            probe_up_pacing_gain: c.number("probe_up_pacing_gain"),
            probe_down_pacing_gain: c.number("probe_down_pacing_gain"),
            loss_thresh: c.number("loss_thresh"),
            beta: c.number("beta"),
            headroom: c.number("headroom"),
            full_loss_count: c.integer("full_loss_count") as u32,
            ecn: c.boolean("ecn"),
            ecn_thresh: c.number("ecn_thresh"),
            min_rtt_window: c.time("min_rtt_window"),
            probe_rtt_interval: c.time("probe_rtt_interval"),
            probe_rtt_time: c.time("probe_rtt_time"),
            probe_rtt_cwnd_gain: c.number("probe_rtt_cwnd_gain"),
            min_cwnd: c.integer("min_cwnd") as f64,
            max_bw_cycles: c.integer("max_bw_cycles") as u64,
            probe_wait_base: c.time("probe_wait_base"),
            probe_wait_rand: c.time("probe_wait_rand"),
            reno_rounds_max: c.integer("reno_rounds_max") as u64,
            full_bw_growth: c.number("full_bw_growth"),
            full_bw_rounds: c.integer("full_bw_rounds") as u32,
            pacing_margin: c.number("pacing_margin"),
        }
    }
}

/// BBRv3's states, ProbeBW split into its four phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Startup,
    Drain,
    ProbeBwDown,
    ProbeBwCruise,
    ProbeBwRefill,
    ProbeBwUp,
    ProbeRtt,
}

impl State {
    fn in_probe_bw(self) -> bool {
        matches!(self, State::ProbeBwDown | State::ProbeBwCruise | State::ProbeBwRefill | State::ProbeBwUp)
    }

    /// `BBRIsProbingBW`: the states whose losses judge inflight_hi, not the lower bounds.
    fn probing_bw(self) -> bool {
        matches!(self, State::Startup | State::ProbeBwRefill | State::ProbeBwUp)
    }
}

/// Where the ACKs stand relative to a bandwidth probe (`BBR.ack_phase`): the
/// max_bw filter's cycle advances when the ACKs of a probe have all come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AckPhase {
    Init,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
    Refilling,
}

/// BBRv3.
#[derive(Debug, Clone)]
pub struct Bbr3 {
    p: Bbr3Params,
    pub(crate) state: State,
    /// max_bw: windowed max of delivery rates over ProbeBW cycles, packets/s.
    max_bw: WindowedMax,
    /// Probe cycles completed (the max_bw filter's clock).
    cycle_count: u64,
    /// Short-term lower bounds (∞: none), packets/s and packets.
    pub(crate) bw_lo: f64,
    pub(crate) inflight_lo: f64,
    /// Long-term upper bound on packets in flight (∞: none).
    pub(crate) inflight_hi: f64,
    /// The latest round's largest delivery rate and delivered count.
    bw_latest: f64,
    inflight_latest: f64,
    /// Round trips by delivery and this ACK started one.
    round_count: u64,
    next_round_delivered: i64,
    round_start: bool,
    /// Loss rounds (`BBR.loss_round_start`), apart from the rounds ProbeBW restarts.
    loss_round_delivered: i64,
    loss_round_start: bool,
    /// Congestion signals of the current loss round.
    loss_in_round: bool,
    lost_in_round: i64,
    loss_events_in_round: u32,
    delivered_in_round: i64,
    ce_delivered_in_round: i64,
    /// min_rtt (10 s) and probe_rtt_min_delay (5 s), seconds, with their stamps.
    pub(crate) min_rtt_s: f64,
    min_rtt_stamp: SimTime,
    probe_rtt_min_delay_s: f64,
    probe_rtt_min_stamp: SimTime,
    probe_rtt_done_stamp: Option<SimTime>,
    probe_rtt_round_done: bool,
    /// probe_rtt_min_delay expired on this ACK: ProbeRTT starts.
    pending_probe_rtt: bool,
    /// Startup's plateau detection, also used in Up (`BBR.full_bw`).
    full_bw: f64,
    full_bw_count: u32,
    pub(crate) filled_pipe: bool,
    /// ProbeBW's clock: when the phase started, how long to wait before the next probe,
    /// rounds since the last one.
    cycle_stamp: SimTime,
    bw_probe_wait: SimTime,
    rounds_since_bw_probe: u64,
    ack_phase: AckPhase,
    /// Up's inflight_hi growth: packets ACKed per packet of growth, the ACKs counted,
    /// the rounds of doubling so far.
    probe_up_cnt: f64,
    bw_probe_up_acks: f64,
    pub(crate) bw_probe_up_rounds: u32,
    /// The samples are from a probe (set when Up starts): a too-high loss rate cuts
    /// inflight_hi.
    bw_probe_samples: bool,
    pub(crate) pacing_gain: f64,
    pub(crate) cwnd_gain: f64,
    pacing_rate_bps: f64,
    has_seen_rtt: bool,
    /// Loss recovery as BBRv1 (Linux keeps it in v3): packet conservation and the cwnd
    /// saved before recovery, a timeout or ProbeRTT.
    window: BbrWindow,
    in_loss: bool,
    loss_high: i64,
    started: bool,
}

impl Bbr3 {
    pub fn new(p: Bbr3Params) -> Self {
        let (pacing_gain, cwnd_gain) = (p.startup_pacing_gain, p.startup_cwnd_gain);
        Bbr3 {
            p,
            state: State::Startup,
            max_bw: WindowedMax::new(0, 0.0),
            cycle_count: 0,
            bw_lo: f64::INFINITY,
            inflight_lo: f64::INFINITY,
            inflight_hi: f64::INFINITY,
            bw_latest: 0.0,
            inflight_latest: 0.0,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            loss_round_delivered: 0,
            loss_round_start: false,
            loss_in_round: false,
            lost_in_round: 0,
            loss_events_in_round: 0,
            delivered_in_round: 0,
            ce_delivered_in_round: 0,
            min_rtt_s: f64::INFINITY,
            min_rtt_stamp: 0,
            probe_rtt_min_delay_s: f64::INFINITY,
            probe_rtt_min_stamp: 0,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            pending_probe_rtt: false,
            full_bw: 0.0,
            full_bw_count: 0,
            filled_pipe: false,
            cycle_stamp: 0,
            bw_probe_wait: 0,
            rounds_since_bw_probe: 0,
            ack_phase: AckPhase::Init,
            probe_up_cnt: f64::INFINITY,
            bw_probe_up_acks: 0.0,
            bw_probe_up_rounds: 0,
            bw_probe_samples: false,
            pacing_gain,
            cwnd_gain,
            pacing_rate_bps: 0.0,
            has_seen_rtt: false,
            window: BbrWindow::default(),
            in_loss: false,
            loss_high: 0,
            started: false,
        }
    }

    pub fn from_config(c: &ModelConfig) -> Self {
        Bbr3::new(Bbr3Params::from_config(c))
    }

    /// max_bw, packets/s.
    pub fn max_bw(&self) -> f64 {
        self.max_bw.get()
    }

    /// `BBRBoundBWForModel`: the bandwidth pacing and the BDP use, packets/s.
    pub fn bw(&self) -> f64 {
        self.max_bw().min(self.bw_lo)
    }

    /// `BBRBDPMultiple`: ⌈bw · min_rtt · gain⌉ packets; 10 before the first RTT sample.
    pub fn bdp(&self, gain: f64) -> f64 {
        if !self.min_rtt_s.is_finite() {
            return CWND_WITHOUT_RTT;
        }
        (self.bw() * self.min_rtt_s * gain).ceil()
    }

    /// `BBRInflight` with the quantization budget: BDP(gain) + 3 send quanta, rounded up
    /// to even, + 2 in Up (Linux `bbr_quantization_budget`, as BBRv1).
    pub fn max_inflight(&self, gain: f64, segment_bytes: u32) -> f64 {
        let target = self.bdp(gain) + 3.0 * send_quantum(self.pacing_rate_bps, segment_bytes);
        let even = 2.0 * (target / 2.0).ceil();
        if self.state == State::ProbeBwUp {
            even + 2.0
        } else {
            even
        }
    }

    /// `BBRInflightWithHeadroom`: inflight_hi less max(1, headroom · inflight_hi).
    pub fn inflight_with_headroom(&self) -> f64 {
        if !self.inflight_hi.is_finite() {
            return f64::INFINITY;
        }
        let headroom = (self.p.headroom * self.inflight_hi).max(1.0);
        (self.inflight_hi - headroom).max(self.p.min_cwnd)
    }

    /// `BBRProbeRTTCwnd`: max(probe_rtt_cwnd_gain · BDP, min_cwnd).
    pub fn probe_rtt_cwnd(&self) -> f64 {
        self.bdp(self.p.probe_rtt_cwnd_gain).max(self.p.min_cwnd)
    }

    /// `BBRTargetInflight`: min(BDP, cwnd).
    fn target_inflight(&self, view: &CcView) -> f64 {
        self.bdp(1.0).min(view.cwnd())
    }

    /// `BBRUpdateModelAndState`, then `BBRUpdateControlParameters`.
    fn on_sample(&mut self, view: &mut CcView, rs: &RateSample, ack: &AckEvent) {
        if !self.started {
            self.started = true;
            self.min_rtt_stamp = view.now;
            self.probe_rtt_min_stamp = view.now;
        }
        if self.in_loss && ack.info.ack >= self.loss_high {
            // The timeout's loss state ends (Linux: TCP_CA_Loss → Open).
            self.in_loss = false;
            self.window.restore(view);
        }
        self.update_latest_delivery_signals(view, rs, ack);
        self.update_congestion_signals(view, rs);
        self.check_full_bw_reached(rs);
        self.check_startup_done(view, rs);
        self.check_drain_done(view);
        self.update_probe_bw_cycle_phase(view, rs);
        self.update_min_rtt(view, rs);
        self.check_probe_rtt(view);
        self.advance_latest_delivery_signals(rs);
        self.update_gains();
        let segment_bytes = view.segment_wire_bytes();
        self.set_pacing_rate(view, rs, segment_bytes);
        self.set_cwnd(view, rs, segment_bytes);
    }

    /// `BBRUpdateRound` and `BBRUpdateLatestDeliverySignals`: the
    /// round trip and the loss round, and the latest round's delivery.
    fn update_latest_delivery_signals(&mut self, view: &CcView, rs: &RateSample, ack: &AckEvent) {
        self.round_start = false;
        self.loss_round_start = false;
        if rs.delivery_rate.is_none() && rs.newly_delivered == 0 && rs.lost == 0 {
            return;
        }
        if rs.delivery_rate.is_some() && rs.prior_delivered >= self.next_round_delivered {
            self.start_round(view);
            self.round_count += 1;
            self.rounds_since_bw_probe += 1;
            self.round_start = true;
            self.window.packet_conservation = false;
        }
        if let Some(rate) = rs.delivery_rate {
            self.bw_latest = self.bw_latest.max(rate);
            self.inflight_latest = self.inflight_latest.max(rs.delivered as f64);
            if rs.prior_delivered >= self.loss_round_delivered {
                self.loss_round_delivered = view.delivered();
                self.loss_round_start = true;
            }
        }
        self.lost_in_round += rs.lost;
        if rs.lost > 0 {
            self.loss_in_round = true;
            self.loss_events_in_round += 1;
        }
        self.delivered_in_round += rs.newly_delivered;
        if ack.info.ece {
            self.ce_delivered_in_round += rs.newly_delivered;
        }
    }

    /// `BBRStartRound`: the round ends when a packet sent from now on is delivered.
    fn start_round(&mut self, view: &CcView) {
        self.next_round_delivered = view.delivered();
    }

    /// `BBRIsInflightTooHigh`: the round's loss rate above loss_thresh, or
    /// (with `ecn`) its CE-marked deliveries above ecn_thresh of a round's deliveries.
    pub(crate) fn inflight_too_high(&self, rs: &RateSample) -> bool {
        let tx_in_flight = rs.prior_in_flight.max(1) as f64;
        if self.lost_in_round > 0 && self.lost_in_round as f64 > self.p.loss_thresh * tx_in_flight {
            return true;
        }
        // Marks against a round's worth of deliveries (the sample's delivered, over about
        // one round trip, as Linux's rs->delivered), so that the first marked ACK of a
        // round is not 100 %.
        let round_of_deliveries = self.delivered_in_round.max(rs.delivered).max(1) as f64;
        self.p.ecn && self.ce_delivered_in_round as f64 > self.p.ecn_thresh * round_of_deliveries
    }

    /// `BBRUpdateMaxBw` and `BBRUpdateCongestionSignals`: max_bw, and at the end of a loss
    /// round the lower bounds.
    fn update_congestion_signals(&mut self, view: &CcView, rs: &RateSample) {
        if let Some(rate) = rs.delivery_rate {
            if !rs.is_app_limited || rate >= self.max_bw() {
                self.max_bw.update(self.p.max_bw_cycles - 1, self.cycle_count, rate);
            }
        }
        if !self.loss_round_start {
            return;
        }
        self.adapt_lower_bounds_from_congestion(view);
        self.reset_round_signals();
    }

    fn reset_round_signals(&mut self) {
        self.loss_in_round = false;
        self.lost_in_round = 0;
        self.loss_events_in_round = 0;
        self.delivered_in_round = 0;
        self.ce_delivered_in_round = 0;
    }

    /// `BBRAdaptLowerBoundsFromCongestion`: a loss round outside probing
    /// cuts bw_lo and inflight_lo by β, not below the latest round's delivery.
    fn adapt_lower_bounds_from_congestion(&mut self, view: &CcView) {
        if self.state.probing_bw() || !self.loss_in_round {
            return;
        }
        if !self.bw_lo.is_finite() {
            self.bw_lo = self.max_bw();
        }
        if !self.inflight_lo.is_finite() {
            self.inflight_lo = view.cwnd();
        }
        self.bw_lo = self.bw_latest.max(self.p.beta * self.bw_lo);
        self.inflight_lo = self.inflight_latest.max(self.p.beta * self.inflight_lo);
    }

    /// `BBRAdvanceLatestDeliverySignals`: a new loss round starts the latest signals over.
    fn advance_latest_delivery_signals(&mut self, rs: &RateSample) {
        if self.loss_round_start {
            self.bw_latest = rs.delivery_rate.unwrap_or(0.0);
            self.inflight_latest = rs.delivered as f64;
        }
    }

    fn reset_lower_bounds(&mut self) {
        self.bw_lo = f64::INFINITY;
        self.inflight_lo = f64::INFINITY;
    }

    /// `BBRCheckFullBWReached`: 3 rounds without 25 % growth of max_bw.
    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.max_bw() >= self.full_bw * self.p.full_bw_growth {
            self.full_bw = self.max_bw();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.filled_pipe = self.full_bw_count >= self.p.full_bw_rounds;
    }

    /// `BBRCheckStartupDone` with `BBRCheckStartupHighLoss`: in a fast
    /// recovery, once the loss round so far has ≥ full_loss_count loss events and
    /// inflight too high, the pipe is full and inflight_hi = max(BDP, inflight_latest).
    fn check_startup_done(&mut self, view: &CcView, rs: &RateSample) {
        if self.state != State::Startup {
            return;
        }
        if !self.filled_pipe
            && self.loss_in_round
            && view.in_recovery()
            && self.loss_events_in_round >= self.p.full_loss_count
            && self.inflight_too_high(rs)
        {
            self.inflight_hi = self.bdp(1.0).max(self.inflight_latest);
            self.filled_pipe = true;
        }
        if self.filled_pipe {
            self.state = State::Drain;
        }
    }

    /// `BBRCheckDrainDone`.
    fn check_drain_done(&mut self, view: &mut CcView) {
        if self.state == State::Drain && view.in_network() as f64 <= self.max_inflight(1.0, view.segment_wire_bytes()) {
            self.start_probe_bw_down(view);
        }
    }

    /// `BBRStartProbeBW_DOWN`: the probe clock restarts with a random wait.
    fn start_probe_bw_down(&mut self, view: &mut CcView) {
        self.reset_round_signals();
        self.bw_latest = 0.0;
        self.inflight_latest = 0.0;
        self.probe_up_cnt = f64::INFINITY;
        // BBRPickProbeWait: 0 or 1 rounds already counted, 2 s + uniform(0, 1 s).
        self.rounds_since_bw_probe = if view.uniform() < 0.5 { 0 } else { 1 };
        let extra = (view.uniform() * self.p.probe_wait_rand as f64) as SimTime;
        self.bw_probe_wait = self.p.probe_wait_base + extra;
        self.cycle_stamp = view.now;
        self.ack_phase = AckPhase::ProbeStopping;
        self.start_round(view);
        self.state = State::ProbeBwDown;
    }

    /// `BBRStartProbeBW_CRUISE`; Linux v3 also lowers a set inflight_lo to inflight_hi.
    fn start_probe_bw_cruise(&mut self) {
        if self.inflight_lo.is_finite() {
            self.inflight_lo = self.inflight_lo.min(self.inflight_hi);
        }
        self.state = State::ProbeBwCruise;
    }

    /// `BBRStartProbeBW_REFILL`: the lower bounds go, and inflight_hi's growth restarts.
    fn start_probe_bw_refill(&mut self, view: &CcView) {
        self.reset_lower_bounds();
        self.bw_probe_up_rounds = 0;
        self.bw_probe_up_acks = 0.0;
        self.ack_phase = AckPhase::Refilling;
        self.start_round(view);
        self.state = State::ProbeBwRefill;
    }

    /// `BBRStartProbeBW_UP`.
    fn start_probe_bw_up(&mut self, view: &CcView, rs: &RateSample) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.start_round(view);
        self.full_bw = rs.delivery_rate.unwrap_or(0.0);
        self.full_bw_count = 0;
        self.cycle_stamp = view.now;
        self.state = State::ProbeBwUp;
        self.raise_inflight_hi_slope(view);
    }

    /// `BBRRaiseInflightHiSlope`: this round inflight_hi may grow 2^rounds packets, one
    /// per cwnd / 2^rounds packets ACKed.
    fn raise_inflight_hi_slope(&mut self, view: &CcView) {
        let growth_this_round = (1u64 << self.bw_probe_up_rounds) as f64;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(MAX_PROBE_UP_ROUNDS);
        self.probe_up_cnt = (view.cwnd() / growth_this_round).floor().max(1.0);
    }

    /// `BBRProbeInflightHiUpward`: while cwnd-limited at inflight_hi, each probe_up_cnt
    /// packets ACKed raise it by one.
    fn probe_inflight_hi_upward(&mut self, view: &CcView, rs: &RateSample) {
        let cwnd_limited = view.in_flight() as f64 >= view.cwnd().floor();
        if !cwnd_limited || view.cwnd() < self.inflight_hi {
            return;
        }
        self.bw_probe_up_acks += rs.newly_delivered as f64;
        if self.bw_probe_up_acks >= self.probe_up_cnt {
            let delta = (self.bw_probe_up_acks / self.probe_up_cnt).floor();
            self.bw_probe_up_acks -= delta * self.probe_up_cnt;
            self.inflight_hi += delta;
        }
        if self.round_start {
            self.raise_inflight_hi_slope(view);
        }
    }

    /// `BBRAdaptUpperBounds`.
    fn adapt_upper_bounds(&mut self, view: &mut CcView, rs: &RateSample) {
        if self.ack_phase == AckPhase::ProbeStarting && self.round_start {
            self.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.ack_phase == AckPhase::ProbeStopping && self.round_start {
            // The probe's ACKs are all in (one round after Down began): its samples no
            // longer judge inflight_hi, and the max_bw filter moves to the next cycle
            // (Linux v3 `bbr_adapt_upper_bounds`; the draft's -01 text leaves the
            // samples flag to `BBRHandleInflightTooHigh` alone).
            self.bw_probe_samples = false;
            self.ack_phase = AckPhase::Init;
            if self.state.in_probe_bw() && !rs.is_app_limited {
                self.cycle_count += 1;
            }
        }
        if self.inflight_too_high(rs) {
            if self.bw_probe_samples {
                self.handle_inflight_too_high(view, rs);
            }
            return;
        }
        if !self.inflight_hi.is_finite() {
            return;
        }
        let tx_in_flight = rs.prior_in_flight as f64;
        if tx_in_flight > self.inflight_hi {
            self.inflight_hi = tx_in_flight;
        }
        if self.state == State::ProbeBwUp {
            self.probe_inflight_hi_upward(view, rs);
        }
    }

    /// `BBRHandleInflightTooHigh`: inflight_hi = max(tx_in_flight, β · target inflight);
    /// an Up probe ends.
    fn handle_inflight_too_high(&mut self, view: &mut CcView, rs: &RateSample) {
        self.bw_probe_samples = false;
        if !rs.is_app_limited {
            self.inflight_hi = (rs.prior_in_flight as f64).max(self.p.beta * self.target_inflight(view));
        }
        if self.state == State::ProbeBwUp {
            self.start_probe_bw_down(view);
        }
    }

    /// `BBRUpdateProbeBWCyclePhase`.
    fn update_probe_bw_cycle_phase(&mut self, view: &mut CcView, rs: &RateSample) {
        if !self.filled_pipe {
            return;
        }
        self.adapt_upper_bounds(view, rs);
        match self.state {
            State::ProbeBwDown => {
                if self.is_time_to_probe_bw(view) {
                    return;
                }
                if self.is_time_to_cruise(view) {
                    self.start_probe_bw_cruise();
                }
            }
            State::ProbeBwCruise => {
                self.is_time_to_probe_bw(view);
            }
            State::ProbeBwRefill => {
                // One round at the estimated bandwidth refills the pipe before Up.
                if self.round_start {
                    self.bw_probe_samples = true;
                    self.start_probe_bw_up(view, rs);
                }
            }
            State::ProbeBwUp => {
                if self.is_time_to_go_down(view, rs) {
                    self.start_probe_bw_down(view);
                }
            }
            _ => {}
        }
    }

    /// `BBRIsTimeToProbeBW`: the wall-clock wait has passed, or as many rounds as a Reno
    /// flow would take to grow by the BDP (at most reno_rounds_max) → Refill.
    fn is_time_to_probe_bw(&mut self, view: &CcView) -> bool {
        let waited = view.now.saturating_sub(self.cycle_stamp) > self.bw_probe_wait;
        let reno_rounds = (self.target_inflight(view) as u64).min(self.p.reno_rounds_max);
        if waited || self.rounds_since_bw_probe >= reno_rounds {
            self.start_probe_bw_refill(view);
            return true;
        }
        false
    }

    /// `BBRIsTimeToCruise`: the queue is gone (in network ≤ `BBRInflight(1.0)`, the BDP
    /// with its quantization budget) and the headroom left.
    fn is_time_to_cruise(&self, view: &CcView) -> bool {
        let in_network = view.in_network() as f64;
        in_network <= self.inflight_with_headroom() && in_network <= self.max_inflight(1.0, view.segment_wire_bytes())
    }

    /// Up ends (Linux v3 `bbr_update_cycle_phase`): a min_rtt has passed with 1.25·BDP
    /// in the network. (A too-high loss rate ends it in `handle_inflight_too_high`.)
    fn is_time_to_go_down(&self, view: &CcView, rs: &RateSample) -> bool {
        let elapsed = time::to_secs(view.now.saturating_sub(self.cycle_stamp)) > self.min_rtt_s;
        elapsed && rs.prior_in_flight as f64 >= self.bdp(self.p.probe_up_pacing_gain)
    }

    /// `BBRUpdateMinRTT`: probe_rtt_min_delay over 5 s, min_rtt over 10 s.
    fn update_min_rtt(&mut self, view: &CcView, rs: &RateSample) {
        let now = view.now;
        let probe_rtt_expired = now > self.probe_rtt_min_stamp.saturating_add(self.p.probe_rtt_interval);
        if let Some(rtt) = rs.rtt_s {
            if rtt < self.probe_rtt_min_delay_s || probe_rtt_expired {
                self.probe_rtt_min_delay_s = rtt;
                self.probe_rtt_min_stamp = now;
            }
        }
        let min_rtt_expired = now > self.min_rtt_stamp.saturating_add(self.p.min_rtt_window);
        if self.probe_rtt_min_delay_s < self.min_rtt_s || min_rtt_expired {
            self.min_rtt_s = self.probe_rtt_min_delay_s;
            self.min_rtt_stamp = self.probe_rtt_min_stamp;
        }
        if probe_rtt_expired && self.state != State::ProbeRtt && self.p.probe_rtt_time > 0 && rs.rtt_s.is_some() {
            self.pending_probe_rtt = true;
        }
    }

    /// `BBRCheckProbeRTT` and `BBRHandleProbeRTT`.
    fn check_probe_rtt(&mut self, view: &mut CcView) {
        if std::mem::take(&mut self.pending_probe_rtt) {
            self.state = State::ProbeRtt;
            self.save_cwnd(view);
            self.probe_rtt_done_stamp = None;
            self.ack_phase = AckPhase::ProbeStopping;
            self.start_round(view);
        }
        if self.state != State::ProbeRtt {
            return;
        }
        // Samples taken with the window this small say nothing about the bandwidth.
        view.mark_app_limited();
        let now = view.now;
        match self.probe_rtt_done_stamp {
            None if view.in_network() as f64 <= self.probe_rtt_cwnd() => {
                self.probe_rtt_done_stamp = Some(now.saturating_add(self.p.probe_rtt_time));
                self.probe_rtt_round_done = false;
                self.start_round(view);
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.probe_rtt_min_stamp = now;
                    self.window.restore(view);
                    self.reset_lower_bounds();
                    if self.filled_pipe {
                        self.start_probe_bw_down(view);
                        self.start_probe_bw_cruise();
                    } else {
                        self.state = State::Startup;
                    }
                }
            }
        }
    }

    /// The gains of each state.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.state {
            State::Startup => (self.p.startup_pacing_gain, self.p.startup_cwnd_gain),
            State::Drain => (self.p.drain_pacing_gain, self.p.cwnd_gain),
            State::ProbeBwDown => (self.p.probe_down_pacing_gain, self.p.cwnd_gain),
            State::ProbeBwCruise | State::ProbeBwRefill => (1.0, self.p.cwnd_gain),
            State::ProbeBwUp => (self.p.probe_up_pacing_gain, self.p.cwnd_gain),
            State::ProbeRtt => (1.0, self.p.probe_rtt_cwnd_gain),
        };
    }

    fn pacing_rate_for(&self, bw: f64, gain: f64, segment_bytes: u32) -> f64 {
        bw * segment_bytes as f64 * 8.0 * gain * (1.0 - self.p.pacing_margin)
    }

    /// `BBRSetPacingRate`: from the first RTT sample, the initial window per
    /// RTT at Startup's gain; then pacing_gain · bw, only upward until the pipe is full.
    fn set_pacing_rate(&mut self, view: &mut CcView, rs: &RateSample, segment_bytes: u32) {
        if !self.has_seen_rtt {
            if let Some(rtt) = rs.rtt_s.filter(|&r| r > 0.0) {
                self.has_seen_rtt = true;
                let rate = self.pacing_rate_for(view.cwnd() / rtt, self.p.startup_pacing_gain, segment_bytes);
                self.apply_pacing_rate(view, rate);
            }
        }
        let rate = self.pacing_rate_for(self.bw(), self.pacing_gain, segment_bytes);
        if self.filled_pipe || rate > self.pacing_rate_bps {
            self.apply_pacing_rate(view, rate);
        }
    }

    fn apply_pacing_rate(&mut self, view: &mut CcView, rate_bps: f64) {
        if rate_bps > 0.0 && rate_bps.is_finite() {
            self.pacing_rate_bps = rate_bps;
            view.set_pacing_rate(Some(rate_bps.round() as u64));
        }
    }

    /// `BBRSetCwnd` with `BBRBoundCwndForProbeRTT` and `BBRBoundCwndForModel`.
    fn set_cwnd(&mut self, view: &mut CcView, rs: &RateSample, segment_bytes: u32) {
        let max_inflight = self.max_inflight(self.cwnd_gain, segment_bytes);
        let mut cwnd = self.window.grown(view, rs, max_inflight, self.filled_pipe, self.p.min_cwnd);
        if self.state == State::ProbeRtt {
            cwnd = cwnd.min(self.probe_rtt_cwnd());
        }
        view.set_cwnd(cwnd.min(self.cwnd_cap()));
    }

    /// `BBRBoundCwndForModel`: inflight_hi while probing or in Down, the headroom cap in
    /// Cruise and ProbeRTT, inflight_lo always, never below min_cwnd.
    pub fn cwnd_cap(&self) -> f64 {
        let cap = match self.state {
            State::ProbeBwDown | State::ProbeBwRefill | State::ProbeBwUp => self.inflight_hi,
            State::ProbeBwCruise | State::ProbeRtt => self.inflight_with_headroom(),
            _ => f64::INFINITY,
        };
        cap.min(self.inflight_lo).max(self.p.min_cwnd)
    }

    /// Linux `bbr_save_cwnd`: remember cwnd before recovery, a timeout or ProbeRTT.
    fn save_cwnd(&mut self, view: &CcView) {
        let keeping = view.in_recovery() || self.in_loss || self.state == State::ProbeRtt;
        self.window.save(view.cwnd(), keeping);
    }
}

impl CongestionControl for Bbr3 {
    fn name(&self) -> &'static str {
        "bbr3"
    }

    bbr_shared_congestion_control!();

    fn on_any_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        if let Some(rs) = view.rate_sample().copied() {
            self.on_sample(view, &rs, ack);
        }
    }

    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.start_round(view);
        self.window.start_recovery(view);
    }

    /// A timeout: Startup's growth count starts over (Linux `bbr_set_state(TCP_CA_Loss)`),
    /// cwnd comes back when the loss state ends.
    fn on_timeout(&mut self, view: &mut CcView) {
        self.in_loss = true;
        self.loss_high = view.maxseq();
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        self.window.packet_conservation = false;
    }
}
