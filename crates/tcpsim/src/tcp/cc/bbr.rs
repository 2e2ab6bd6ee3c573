//! BBR version 1: a model of the path (bottleneck bandwidth and round-trip propagation
//! time) instead of loss as the congestion signal.
//!
//! Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based Congestion
//! Control", ACM Queue 14(5), 2016; draft-cardwell-iccrg-bbr-congestion-control-00
//! (2017), as Linux `net/ipv4/tcp_bbr.c` (v1, kernels 4.19–6.x) runs it; ns-3's
//! `tcp-bbr.cc` is a port of it. Section numbers are the draft's.
//!
//! Model (§4.1): on every ACK with a valid delivery-rate sample (`tcp/state/rate_sample.rs`)
//!   BtlBw    = max of the delivery rates of the last 10 round trips (§4.1.1.5; app-limited
//!              samples only when they raise it), packets/s
//!   RTprop   = min of the RTT samples of the last 10 s (§4.1.2.3)
//!   BDP      = ⌈BtlBw · RTprop · gain⌉ packets (10 before the first RTT sample)
//! Controls (§4.2):
//!   pacing rate = pacing_gain · BtlBw · (1 − 1 %) (Linux's `bbr_pacing_margin_percent`),
//!                 raised only until the pipe is full; before the first sample
//!                 startup_gain · cwnd / RTT
//!   cwnd target = BDP(cwnd_gain) + 3 send quanta, rounded up to even, + 2 in ProbeBW's
//!                 first (1.25) phase (Linux `bbr_quantization_budget`); cwnd grows by the
//!                 packets each ACK delivers, up to the target once the pipe is full; at
//!                 least 4 packets; 4 in ProbeRTT
//! States (§4.3):
//!   Startup  pacing and cwnd gain 2/ln 2 ≈ 2.885; the pipe is full after 3 round trips in
//!            a row without 25 % growth of BtlBw (non-app-limited rounds) → Drain
//!   Drain    pacing gain 1/2.885, cwnd gain 2.885, until packets in the network ≤ BDP
//!            → ProbeBW
//!   ProbeBW  cwnd gain 2, pacing gain cycles [1.25, 0.75, 1, 1, 1, 1, 1, 1], one phase
//!            per RTprop, starting at a random phase other than the 0.75 one (drawn from
//!            the flow's random stream); the 1.25 phase also lasts until a loss or packets
//!            in the network ≥ 1.25 · BDP; the 0.75 phase ends early when they are ≤ BDP
//!   ProbeRTT when RTprop was not refreshed for 10 s: cwnd 4 until 200 ms and one round
//!            trip have passed with at most 4 packets in the network; then RTprop's time
//!            is renewed, cwnd restored, and back to ProbeBW (Startup if the pipe was
//!            never full)
//! Loss (Linux `bbr_set_cwnd_to_recover_or_restore`): a loss does not change the model.
//!   `reduced_window` keeps the window (Linux's `bbr_ssthresh` only saves cwnd). Each
//!   ACK's sample takes its losses off cwnd; the first round of a fast recovery sends
//!   no more than is delivered (packet conservation: cwnd ≥ in network + delivered);
//!   when recovery or a timeout's loss state ends, cwnd goes back to at least its value
//!   before.
//!
//! Packet counting: Linux counts cwnd and inflight in MSS-sized segments and bandwidth in
//! segments per µs (scaled integers); here they are packets and packets per second (real
//! numbers), with the BDP, the target and cwnd whole packets as in Linux. The send
//! quantum (Linux's TSO autosizing, `bbr_tso_segs_goal`; ns-3's `m_sendQuantum`) becomes
//! the same rule in packets: 1 below a pacing rate of 1.2 Mb/s, 2 below 24 Mb/s, else the
//! packets of 1 ms at the pacing rate, at most 64 KB.
//!
//! Left out (written in docs/models/bbr.md): the long-term bandwidth sampling for
//! policers (Linux `lt_bw`), the ACK-aggregation extra cwnd (Linux 4.20+
//! `bbr_extra_acked`), the idle-restart rule, and the delayed-ACK exception of the RTprop
//! update (`is_ack_delayed`).

mod filter;
mod window;
#[cfg(test)]
mod tests;

pub use filter::WindowedMax;

use super::{AckEvent, CcHooks, CcModel, CcView, CongestionControl, RateSample};
pub(crate) use window::{bbr_shared_congestion_control, BbrWindow, CWND_WITHOUT_RTT};
use crate::engine::time::{self, SimTime};
use crate::model::{no_check, Family, ModelConfig, ModelSpec, Param, ParamType as T, Relations, Value as V};

const LINUX: &str = "Linux tcp_bbr.c (v1)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "bbr",
    summary: "BBRv1: paces at the measured bottleneck bandwidth and caps the window at twice the bandwidth-delay product (Startup, Drain, ProbeBW gain cycle, ProbeRTT); loss does not cut the model",
    source: "Cardwell et al., ACM Queue 14(5) 2016; draft-cardwell-iccrg-bbr-congestion-control-00; Linux tcp_bbr.c",
    params: &[
        Param::new("startup_gain", T::Number, "", V::Number(2.885), "pacing and cwnd gain in Startup, 2/ln 2 (Drain paces at its inverse)", LINUX).range(1.0, 100.0),
        Param::new("cwnd_gain", T::Number, "", V::Number(2.0), "cwnd gain in ProbeBW: cwnd target = cwnd_gain x BDP + send quanta", LINUX).range(1.0, 100.0),
        Param::new("bw_window_rounds", T::Integer, "round trips", V::Integer(10), "length of the bottleneck-bandwidth max filter", LINUX).range(1.0, 1e6),
        Param::new("min_rtt_window", T::Time, "s", V::Time(10 * time::PS_PER_S), "how long an RTprop sample is kept before ProbeRTT", LINUX).range(1e-3, 1e6),
        Param::new("probe_rtt_time", T::Time, "s", V::Time(200 * time::PS_PER_MS), "time ProbeRTT holds cwnd at min_cwnd (and at least one round trip)", LINUX).range(0.0, 1e3),
        Param::new("min_cwnd", T::Integer, "packets", V::Integer(4), "smallest cwnd, and cwnd in ProbeRTT (bbr_cwnd_min_target)", LINUX).range(1.0, 1e6),
        Param::new("full_bw_growth", T::Number, "", V::Number(1.25), "Startup goes on while BtlBw grows by this factor per round trip", LINUX).range(1.0, 100.0),
        Param::new("full_bw_rounds", T::Integer, "round trips", V::Integer(3), "rounds in a row without that growth that end Startup", LINUX).range(1.0, 1e6),
        Param::new("pacing_margin", T::Number, "", V::Number(0.01), "the pacing rate is this fraction below pacing_gain x BtlBw (bbr_pacing_margin_percent)", LINUX).range(0.0, 0.5),
    ],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Bbr::from_config(c)) };

/// ProbeBW's pacing gains, one phase per RTprop (§4.3.4.3; Linux `bbr_pacing_gain`).
pub const PROBE_BW_GAINS: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// ProbeBW's phase that drains the queue the 1.25 phase built; never the first phase.
const DRAIN_PHASE: usize = 1;

/// BBR's parameters, as the spec declares them.
#[derive(Debug, Clone, PartialEq)]
pub struct BbrParams {
    pub startup_gain: f64,
    pub cwnd_gain: f64,
    pub bw_window_rounds: u64,
    pub min_rtt_window: SimTime,
    pub probe_rtt_time: SimTime,
    pub min_cwnd: f64,
    pub full_bw_growth: f64,
    pub full_bw_rounds: u32,
    pub pacing_margin: f64,
}

impl BbrParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        BbrParams {
            startup_gain: c.number("startup_gain"),
            cwnd_gain: c.number("cwnd_gain"),
            bw_window_rounds: c.integer("bw_window_rounds") as u64,
            min_rtt_window: c.time("min_rtt_window"),
            probe_rtt_time: c.time("probe_rtt_time"),
            min_cwnd: c.integer("min_cwnd") as f64,
            full_bw_growth: c.number("full_bw_growth"),
            full_bw_rounds: c.integer("full_bw_rounds") as u32,
            pacing_margin: c.number("pacing_margin"),
        }
    }
}

/// BBR's state machine (§4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

impl Mode {
    /// A number for time series and records: 0 Startup, 1 Drain, 2 ProbeBW, 3 ProbeRTT.
    pub fn index(self) -> u8 {
        self as u8
    }
}

/// BBRv1.
#[derive(Debug, Clone)]
pub struct Bbr {
    p: BbrParams,
    pub(crate) mode: Mode,
    /// BtlBw: windowed max of delivery rates over round trips, packets/s.
    bw: WindowedMax,
    /// Round trips counted by delivery (Linux `rtt_cnt`).
    round_count: u64,
    /// The round ends when a packet sent after C.delivered reached this is delivered.
    next_round_delivered: i64,
    /// This ACK started a new round trip.
    round_start: bool,
    /// RTprop, seconds (∞ before the first sample), and when it was last set.
    pub(crate) min_rtt_s: f64,
    min_rtt_stamp: SimTime,
    /// ProbeRTT: when it may end (set once in-network packets are at most min_cwnd),
    /// and whether a round trip has passed since.
    probe_rtt_done_stamp: Option<SimTime>,
    probe_rtt_round_done: bool,
    /// Packet conservation in recovery and the cwnd saved before it, a timeout or
    /// ProbeRTT.
    pub(crate) window: BbrWindow,
    /// The timeout's loss state, until the cumulative ACK reaches `loss_high`.
    in_loss: bool,
    loss_high: i64,
    /// Startup's full-pipe detection: the BtlBw that last grew by full_bw_growth, and
    /// the rounds since.
    full_bw: f64,
    full_bw_count: u32,
    pub(crate) full_bw_reached: bool,
    /// ProbeBW's phase and when it started.
    pub(crate) cycle_index: usize,
    cycle_stamp: SimTime,
    pub(crate) pacing_gain: f64,
    pub(crate) cwnd_gain: f64,
    /// The pacing rate set, bits/s on the wire (0 before the first).
    pacing_rate_bps: f64,
    /// The pacing rate was set from an RTT sample (Linux `has_seen_rtt`).
    has_seen_rtt: bool,
    /// The first ACK has set the filters' clocks.
    started: bool,
}

impl Bbr {
    pub fn new(p: BbrParams) -> Self {
        let startup_gain = p.startup_gain;
        Bbr {
            p,
            mode: Mode::Startup,
            bw: WindowedMax::new(0, 0.0),
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            min_rtt_s: f64::INFINITY,
            min_rtt_stamp: 0,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            window: BbrWindow::default(),
            in_loss: false,
            loss_high: 0,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            cycle_index: 0,
            cycle_stamp: 0,
            pacing_gain: startup_gain,
            cwnd_gain: startup_gain,
            pacing_rate_bps: 0.0,
            has_seen_rtt: false,
            started: false,
        }
    }

    pub fn from_config(c: &ModelConfig) -> Self {
        Bbr::new(BbrParams::from_config(c))
    }

    /// BtlBw, packets per second.
    pub fn btl_bw(&self) -> f64 {
        self.bw.get()
    }

    /// ⌈BtlBw · RTprop · gain⌉ packets; 10 before the first RTT sample (Linux `bbr_bdp`).
    pub fn bdp(&self, gain: f64) -> f64 {
        if !self.min_rtt_s.is_finite() {
            return CWND_WITHOUT_RTT;
        }
        (self.btl_bw() * self.min_rtt_s * gain).ceil()
    }

    /// The cwnd target for `gain` (Linux `bbr_bdp` + `bbr_quantization_budget`).
    pub fn cwnd_target(&self, gain: f64, segment_bytes: u32) -> f64 {
        let mut target = self.bdp(gain) + 3.0 * send_quantum(self.pacing_rate_bps, segment_bytes);
        target = 2.0 * (target / 2.0).ceil();
        if self.mode == Mode::ProbeBw && self.cycle_index == 0 {
            target += 2.0;
        }
        target
    }

    /// The pacing rate for `gain` at BtlBw `bw`, bits/s on the wire.
    fn pacing_rate_for(&self, bw: f64, gain: f64, segment_bytes: u32) -> f64 {
        bw * segment_bytes as f64 * 8.0 * gain * (1.0 - self.p.pacing_margin)
    }

    /// Linux `bbr_main`: update the model from the sample, then set pacing and cwnd.
    fn on_sample(&mut self, view: &mut CcView, rs: &RateSample, ack: i64) {
        if !self.started {
            self.started = true;
            self.min_rtt_stamp = view.now;
        }
        if self.in_loss && ack >= self.loss_high {
            // The timeout's loss state ends (Linux: TCP_CA_Loss → Open).
            self.in_loss = false;
            self.window.restore(view);
        }
        self.update_bw(view, rs);
        self.update_cycle_phase(view, rs);
        self.check_full_bw_reached(rs);
        self.check_drain(view);
        self.update_min_rtt(view, rs);
        self.update_gains();
        let segment_bytes = view.segment_wire_bytes();
        self.set_pacing_rate(view, rs, segment_bytes);
        self.set_cwnd(view, rs, segment_bytes);
    }

    /// §4.1.1.5, Linux `bbr_update_bw`: count round trips by delivery and feed the max
    /// filter.
    fn update_bw(&mut self, view: &CcView, rs: &RateSample) {
        self.round_start = false;
        let Some(rate) = rs.delivery_rate else { return };
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = view.delivered();
            self.round_count += 1;
            self.round_start = true;
            self.window.packet_conservation = false;
        }
        if !rs.is_app_limited || rate >= self.btl_bw() {
            self.bw.update(self.p.bw_window_rounds, self.round_count, rate);
        }
    }

    /// §4.3.4.3, Linux `bbr_update_cycle_phase`.
    fn update_cycle_phase(&mut self, view: &CcView, rs: &RateSample) {
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(view, rs) {
            self.advance_cycle_phase(view.now);
        }
    }

    fn is_next_cycle_phase(&self, view: &CcView, rs: &RateSample) -> bool {
        let full_length = time::to_secs(view.now.saturating_sub(self.cycle_stamp)) > self.min_rtt_s;
        let gain = self.pacing_gain;
        if gain == 1.0 {
            return full_length;
        }
        let in_flight = rs.prior_in_flight as f64;
        if gain > 1.0 {
            // Probe until the extra packets are in the network (or a loss says there is
            // no room for them).
            return full_length && (rs.lost > 0 || in_flight >= self.bdp(gain));
        }
        // Drain the queue the probe made, or stop early once it is gone.
        full_length || in_flight <= self.bdp(1.0)
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_index = (self.cycle_index + 1) % PROBE_BW_GAINS.len();
        self.cycle_stamp = now;
    }

    /// §4.3.2.2, Linux `bbr_check_full_bw_reached`.
    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.btl_bw() >= self.full_bw * self.p.full_bw_growth {
            self.full_bw = self.btl_bw();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_reached = self.full_bw_count >= self.p.full_bw_rounds;
    }

    /// §4.3.3, Linux `bbr_check_drain`.
    fn check_drain(&mut self, view: &mut CcView) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
        }
        if self.mode == Mode::Drain && view.in_network() as f64 <= self.bdp(1.0) {
            self.enter_probe_bw(view);
        }
    }

    /// Linux `bbr_reset_probe_bw_mode`: a random phase other than the draining one, so
    /// flows that start together do not probe together.
    fn enter_probe_bw(&mut self, view: &mut CcView) {
        self.mode = Mode::ProbeBw;
        let phases = PROBE_BW_GAINS.len();
        // Linux: cycle_idx = CYCLE_LEN − 1 − random(CYCLE_LEN − 1), then advance: any
        // phase but the one after 0.
        let draw = ((view.uniform() * (phases - 1) as f64) as usize).min(phases - 2);
        self.cycle_index = phases - 1 - draw;
        self.advance_cycle_phase(view.now);
        debug_assert_ne!(self.cycle_index, DRAIN_PHASE);
    }

    /// §4.1.2.3 and §4.3.5, Linux `bbr_update_min_rtt`: the RTprop filter and ProbeRTT.
    fn update_min_rtt(&mut self, view: &mut CcView, rs: &RateSample) {
        let now = view.now;
        let expired = now > self.min_rtt_stamp.saturating_add(self.p.min_rtt_window);
        if let Some(rtt) = rs.rtt_s {
            if rtt < self.min_rtt_s || expired {
                self.min_rtt_s = rtt;
                self.min_rtt_stamp = now;
            }
        }
        if expired && self.mode != Mode::ProbeRtt && self.p.probe_rtt_time > 0 {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(view);
            self.probe_rtt_done_stamp = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        // Samples taken with the window this small say nothing about the bandwidth.
        view.mark_app_limited();
        match self.probe_rtt_done_stamp {
            None if view.in_network() as f64 <= self.p.min_cwnd => {
                self.probe_rtt_done_stamp = Some(now.saturating_add(self.p.probe_rtt_time));
                self.probe_rtt_round_done = false;
                self.next_round_delivered = view.delivered();
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.min_rtt_stamp = now;
                    self.window.restore(view);
                    if self.full_bw_reached {
                        self.enter_probe_bw(view);
                    } else {
                        self.mode = Mode::Startup;
                    }
                }
            }
        }
    }

    /// §4.3, Linux `bbr_update_gains`.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (self.p.startup_gain, self.p.startup_gain),
            Mode::Drain => (1.0 / self.p.startup_gain, self.p.startup_gain),
            Mode::ProbeBw => (PROBE_BW_GAINS[self.cycle_index], self.p.cwnd_gain),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// §4.2.1, Linux `bbr_set_pacing_rate`.
    fn set_pacing_rate(&mut self, view: &mut CcView, rs: &RateSample, segment_bytes: u32) {
        if !self.has_seen_rtt {
            if let Some(rtt) = rs.rtt_s.filter(|&r| r > 0.0) {
                // Linux `bbr_init_pacing_rate_from_rtt`: the initial window per RTT at
                // Startup's gain, until the bandwidth filter has samples.
                self.has_seen_rtt = true;
                let rate = self.pacing_rate_for(view.cwnd() / rtt, self.p.startup_gain, segment_bytes);
                self.apply_pacing_rate(view, rate);
            }
        }
        let rate = self.pacing_rate_for(self.btl_bw(), self.pacing_gain, segment_bytes);
        if self.full_bw_reached || rate > self.pacing_rate_bps {
            self.apply_pacing_rate(view, rate);
        }
    }

    fn apply_pacing_rate(&mut self, view: &mut CcView, rate_bps: f64) {
        if rate_bps > 0.0 {
            self.pacing_rate_bps = rate_bps;
            view.set_pacing_rate(Some(rate_bps.round() as u64));
        }
    }

    /// §4.2.2, Linux `bbr_set_cwnd`.
    fn set_cwnd(&mut self, view: &mut CcView, rs: &RateSample, segment_bytes: u32) {
        let target = self.cwnd_target(self.cwnd_gain, segment_bytes);
        let mut cwnd = self.window.grown(view, rs, target, self.full_bw_reached, self.p.min_cwnd);
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(self.p.min_cwnd);
        }
        view.set_cwnd(cwnd);
    }

    /// Linux `bbr_save_cwnd`: remember cwnd before recovery, a timeout or ProbeRTT (in
    /// one of those already, keep the larger).
    fn save_cwnd(&mut self, view: &CcView) {
        let keeping = view.in_recovery() || self.in_loss || self.mode == Mode::ProbeRtt;
        self.window.save(view.cwnd(), keeping);
    }
}

/// Send quantum, packets, at pacing rate `rate_bps` (Linux's TSO autosizing as ns-3 sets
/// its send quantum, in packets of `segment_bytes` on the wire); BBRv3 budgets the same.
pub(crate) fn send_quantum(rate_bps: f64, segment_bytes: u32) -> f64 {
    if rate_bps < 1.2e6 {
        1.0
    } else if rate_bps < 24e6 {
        2.0
    } else {
        let per_ms = (rate_bps / 8.0 / 1000.0 / segment_bytes as f64).floor();
        per_ms.min((64 * 1024 / segment_bytes) as f64).max(1.0)
    }
}

impl CongestionControl for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    bbr_shared_congestion_control!();

    /// Every ACK (duplicates too) carries a rate sample: BBR's whole update, before the
    /// loss recovery sends what the new cwnd allows.
    fn on_any_ack(&mut self, view: &mut CcView, ack: &AckEvent) {
        if let Some(rs) = view.rate_sample().copied() {
            self.on_sample(view, &rs, ack.info.ack);
        }
    }

    /// Packet conservation for the first round of the recovery: cwnd = packets in the
    /// network + those this ACK delivered, and a new round starts now.
    fn on_recovery_start(&mut self, view: &mut CcView) {
        self.next_round_delivered = view.delivered();
        self.window.start_recovery(view);
    }

    /// Linux `bbr_set_state(TCP_CA_Loss)`: Startup's growth count starts over; cwnd (cut
    /// to 1 by the timeout) comes back to its saved value when the loss state ends.
    fn on_timeout(&mut self, view: &mut CcView) {
        self.in_loss = true;
        self.loss_high = view.maxseq();
        self.full_bw = 0.0;
        self.window.packet_conservation = false;
    }
}
