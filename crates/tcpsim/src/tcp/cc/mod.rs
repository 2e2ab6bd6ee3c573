//! Congestion control: how the window moves.
//!
//! Loss recovery (in `tcp/recovery/`) decides what to retransmit and when; a congestion
//! control decides how the window grows and how far it falls. The sender calls the hooks
//! of [`CongestionControl`] with a [`CcView`]: a read-only view of the sender (cwnd,
//! ssthresh, snd_una, snd_nxt, in flight, RTT estimates) through which the algorithm may
//! set cwnd and ssthresh, retransmit a packet, or ask for a timer. An algorithm owns only
//! its own state; each lives in its own file with a `SPEC` (its parameters) and a
//! [`CcModel`] (the spec and its constructor), listed in `crate::catalogue`.
//!
//! Adding one: write `tcp/cc/<name>.rs` with a struct implementing the trait, its `SPEC`
//! and `MODEL`, add `pub mod <name>;` here and `&cc::<name>::MODEL` to the catalogue's
//! list. `docs/architecture.md` walks through an example.

pub mod bbr;
pub mod bbr3;
pub mod cubic;
pub mod fast;
pub mod new_vegas;
pub mod quick_vegas;
pub mod reno;
pub mod reno_gamma;
pub mod vegas;
pub mod vegas_a;
pub mod vegas_plus;

pub use reno::Reno;
pub use vegas::Vegas;

use super::ack::AckInfo;
pub use super::state::{RateSample, Window};
use super::state::TcpState;
use crate::engine::SimTime;
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec};

/// A window control as the catalogue lists it: its spec and its constructor.
pub struct CcModel {
    pub spec: &'static ModelSpec,
    pub build: fn(&ModelConfig) -> Box<dyn CongestionControl>,
}

impl FamilyModel for CcModel {
    const FAMILY: Family = Family::CongestionControl;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

impl Chosen<CcModel> {
    /// A window control of this model and configuration (one per flow).
    pub fn build(&self) -> Box<dyn CongestionControl> {
        (self.model.build)(&self.config)
    }
}


/// One ACK as a congestion control sees it.
#[derive(Debug, Clone, Copy)]
pub struct AckEvent<'a> {
    pub info: &'a AckInfo,
    /// Packets newly acknowledged by this ACK (0 for a duplicate).
    pub acked_packets: i64,
    /// The ACK repeats the previous cumulative ACK.
    pub duplicate: bool,
    /// A round-trip-time sample under Karn's rule (one timed packet at a time, as ns-2's
    /// `rtt_active_`), seconds; feeds the RTO estimator.
    pub rtt_s: Option<f64>,
    /// This ACK's own sample: now − send time of the data packet that triggered it
    /// (timestamp echo), seconds; present on every ACK that echoes a send time.
    pub ack_rtt_s: Option<f64>,
}

/// What a congestion control sees of its sender, and may change.
pub struct CcView<'a> {
    pub(crate) s: &'a mut TcpState,
    /// The current time.
    pub now: SimTime,
}

impl<'a> CcView<'a> {
    pub(crate) fn new(s: &'a mut TcpState, now: SimTime) -> Self {
        CcView { s, now }
    }

    /// Congestion window, packets.
    pub fn cwnd(&self) -> f64 {
        self.s.window.cwnd
    }

    pub fn set_cwnd(&mut self, cwnd: f64) {
        self.s.window.cwnd = cwnd;
    }

    /// Slow-start threshold, packets.
    pub fn ssthresh(&self) -> f64 {
        self.s.window.ssthresh
    }

    pub fn set_ssthresh(&mut self, ssthresh: f64) {
        self.s.window.ssthresh = ssthresh;
    }

    pub fn window(&self) -> Window {
        self.s.window
    }

    /// The receiver's advertised window, packets.
    pub fn advertised_window(&self) -> i64 {
        self.s.wnd
    }

    /// First unacknowledged packet.
    pub fn snd_una(&self) -> i64 {
        self.s.last_ack + 1
    }

    /// Next new packet to send (ns-2 `t_seqno_`).
    pub fn snd_nxt(&self) -> i64 {
        self.s.t_seqno
    }

    /// Highest packet sent (ns-2 `maxseq_`).
    pub fn maxseq(&self) -> i64 {
        self.s.maxseq
    }

    /// Packets sent and not yet cumulatively acknowledged.
    pub fn in_flight(&self) -> i64 {
        self.s.maxseq - self.s.last_ack
    }

    /// Smoothed RTT of the RTO estimator, seconds (0 before the first sample).
    pub fn srtt(&self) -> f64 {
        self.s.rtt.srtt()
    }

    /// Smallest and largest RTT sample so far, seconds (∞ / 0 before the first).
    pub fn min_rtt(&self) -> f64 {
        self.s.rtt_range.0
    }

    pub fn max_rtt(&self) -> f64 {
        self.s.rtt_range.1
    }

    /// The latest window action was a retransmission timeout (ns-2 `last_cwnd_action_ ==
    /// CWND_ACTION_TIMEOUT`): during the timeout's own cut, and after it until the next
    /// fast retransmit or ECN response (each sets its action before it cuts).
    pub fn after_timeout(&self) -> bool {
        self.s.last_cwnd_action == super::state::CwndAction::Timeout
    }

    /// Fast retransmit / fast recovery is in progress.
    pub fn in_recovery(&self) -> bool {
        self.s.in_recovery()
    }

    /// When packet `seq` was last sent, if the algorithm (or the loss recovery) asked for
    /// send times ([`CongestionControl::wants_send_times`]) and the packet is outstanding
    /// (during `on_ack`, the packets this ACK acknowledges still count as outstanding).
    pub fn sent_at(&self, seq: i64) -> Option<SimTime> {
        self.s.send_times.as_ref().and_then(|t| t.get(seq))
    }

    /// How many times packet `seq` was put on the wire (1 = never retransmitted), under the
    /// same conditions as [`CcView::sent_at`]; 0 when unknown.
    pub fn transmissions(&self, seq: i64) -> u32 {
        self.s.send_times.as_ref().map_or(0, |t| t.transmissions(seq))
    }

    /// The echo option's RTT sample of this ACK (reference document 003 §3.2), seconds:
    /// now − the send time of the data packet whose sequence number the ACK echoes, if
    /// that packet was sent exactly once (Karn's rule). Duplicate ACKs give samples; an ACK
    /// of the delayed-ACK timer echoes no packet and gives none. Needs send times
    /// ([`CongestionControl::wants_send_times`]; exact records, not ns-2's Vegas ring) and
    /// is meant for `on_any_ack`, where the packets the ACK acknowledges are still
    /// outstanding.
    pub fn echo_rtt(&self, info: &AckInfo) -> Option<f64> {
        let seq = info.echo_seq?;
        if self.transmissions(seq) != 1 {
            return None;
        }
        let sent = self.sent_at(seq)?;
        (sent <= self.now).then(|| crate::engine::time::to_secs(self.now - sent))
    }

    /// A new ACK `ack` (the previous one `old_ack`) releases the send-time ring's slots of
    /// the packets it acknowledges, as ns-2 Agent/TCP/Vegas's loop does (no effect on exact
    /// send records, which the sender forgets itself).
    pub fn release_send_slots(&mut self, old_ack: i64, ack: i64) {
        if let Some(t) = &mut self.s.send_times {
            t.release_ring_slots(old_ack, ack);
        }
    }

    /// When the first packet was put on the wire (ns-2 `firstsent_`).
    pub fn first_sent(&self) -> Option<SimTime> {
        self.s.first_sent
    }

    /// Retransmits packet `seq` now (for example Vegas' fine-grained retransmission).
    pub fn retransmit(&mut self, seq: i64) {
        let now = self.now;
        self.s.output(seq, now);
    }

    /// Asks for [`CongestionControl::on_timer`] at `at` (replaces an earlier request).
    pub fn set_timer(&mut self, at: SimTime) {
        self.s.cc_timer = Some(at.max(self.now));
    }

    pub fn cancel_timer(&mut self) {
        self.s.cc_timer = None;
    }

    /// Paces the sender's segments at `rate_bps` bits per second on the wire (`None`:
    /// no pacing). The window still decides *what* may be sent; pacing decides *when* it
    /// leaves: segments the window releases wait at the sender and leave one per
    /// `size · 8 / rate` (like Linux's fq pacing under TCP). The sender counts a segment
    /// as sent when the window releases it, so RTT samples include the pacing wait.
    pub fn set_pacing_rate(&mut self, rate_bps: Option<u64>) {
        self.s.pacing_rate_bps = rate_bps.filter(|&r| r > 0);
    }

    pub fn pacing_rate(&self) -> Option<u64> {
        self.s.pacing_rate_bps
    }

    /// Bytes of one data segment on the wire (payload and headers): what pacing spaces.
    pub fn segment_wire_bytes(&self) -> u32 {
        self.s.params.packet_size + self.s.params.header_size
    }

    /// The delivery-rate sample of the ACK being handled (draft-cheng-iccrg-delivery-rate-
    /// estimation-01), if the algorithm asked for samples
    /// ([`CongestionControl::wants_rate_samples`]); in the ACK hooks, this ACK's.
    pub fn rate_sample(&self) -> Option<&RateSample> {
        self.s.rate_sample.as_deref()
    }

    /// Packets delivered since the flow began (the rate sampler's C.delivered; 0 without
    /// a sampler).
    pub fn delivered(&self) -> i64 {
        self.s.rate.as_ref().map_or(0, |r| r.delivered())
    }

    /// Packets that left for the wire and are not yet delivered (with a rate sampler;
    /// otherwise the packets in flight). Unlike [`CcView::in_flight`], packets the window
    /// released that still wait for their pacing slot do not count.
    pub fn in_network(&self) -> i64 {
        self.s.rate.as_ref().map_or_else(|| self.in_flight(), |r| r.in_network())
    }

    /// The flow is app-limited from here: rate samples of packets sent now are marked so
    /// (draft-cheng-iccrg-delivery-rate-estimation-01 §3.4), as BBR's ProbeRTT asks. No
    /// effect without a rate sampler.
    pub fn mark_app_limited(&mut self) {
        let in_flight = self.in_flight();
        if let Some(rate) = &mut self.s.rate {
            rate.mark_app_limited(in_flight);
        }
    }

    /// A draw uniform in [0, 1) from the flow's congestion-control random stream.
    pub fn uniform(&mut self) -> f64 {
        let seed = self.s.cc_random_seed;
        self.s.cc_random.get_or_insert_with(|| Box::new(crate::engine::RandomStream::new(seed, "congestion control"))).uniform()
    }
}

/// Which optional per-ACK and per-packet hooks an algorithm implements, so the sender
/// can skip the calls it does not need on its hottest paths. The default is every hook:
/// declaring fewer is only an optimisation, and forgetting to declare one that is
/// implemented would silence it — so declare the exact set, or leave the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CcHooks {
    pub any_ack: bool,
    pub duplicate_ack: bool,
    pub round: bool,
    pub send: bool,
}

impl CcHooks {
    pub const ALL: CcHooks = CcHooks { any_ack: true, duplicate_ack: true, round: true, send: true };
    /// Only `on_ack` and `reduced_window` (and the rare hooks: recovery, timeout, ECN,
    /// timer, which are always called).
    pub const NONE: CcHooks = CcHooks { any_ack: false, duplicate_ack: false, round: false, send: false };
}

/// The congestion-control trait. Hooks other than `on_ack` and `reduced_window` default
/// to doing nothing.
pub trait CongestionControl {
    /// The scenario-file name of the algorithm.
    fn name(&self) -> &'static str;

    /// The optional hooks it implements (`on_any_ack`, `on_duplicate_ack`, `on_round`,
    /// `on_send`); default all of them.
    fn hooks(&self) -> CcHooks {
        CcHooks::ALL
    }

    /// Keep the send time of every outstanding packet for [`CcView::sent_at`].
    fn wants_send_times(&self) -> bool {
        false
    }

    /// Keep them in ns-2 Agent/TCP/Vegas's ring of `window_` slots, quirks included
    /// (`SendTimes::ns2_ring`), for the models that reproduce that agent. Such a model
    /// releases the slots of the packets each new ACK acknowledges itself
    /// ([`CcView::release_send_slots`]), at the point of its ACK processing where ns-2 does.
    fn ns2_vegas_ring(&self) -> bool {
        false
    }

    /// Keep delivery-rate samples ([`CcView::rate_sample`], [`CcView::delivered`],
    /// [`CcView::in_network`]); the sender pays for them only when asked.
    fn wants_rate_samples(&self) -> bool {
        false
    }

    /// The algorithm sets a pacing rate: its flows' time series add `pacing_rate_bps`.
    fn paces(&self) -> bool {
        false
    }

    /// The algorithm sets cwnd itself on every ACK, during loss recovery too (Linux's
    /// `cong_control` hook, which BBR has): a loss recovery that shapes the window on its
    /// own (PRR's proportional reduction and its cwnd = ssthresh at the end) leaves cwnd
    /// to it and only decides what is sent, as Linux's `tcp_cong_control` and
    /// `tcp_end_cwnd_reduction` skip their reduction for such a module.
    fn sets_window_in_recovery(&self) -> bool {
        false
    }

    /// Every ACK, before loss recovery handles it (duplicates and partial ACKs too): the
    /// place for per-ACK RTT measurements.
    fn on_any_ack(&mut self, _view: &mut CcView, _ack: &AckEvent) {}

    /// An ACK of new data arrived outside loss recovery: grow the window (ns-2 `opencwnd`).
    /// Called once per ACK, however many packets it acknowledges, as ns-2 does.
    fn on_ack(&mut self, view: &mut CcView, ack: &AckEvent);

    /// A round trip ended: the cumulative ACK passed the highest packet sent when the
    /// previous round ended.
    fn on_round(&mut self, _view: &mut CcView) {}

    /// A duplicate ACK arrived (before loss recovery counts it).
    fn on_duplicate_ack(&mut self, _view: &mut CcView, _ack: &AckEvent) {}

    /// Fine-grained loss detection: packet `seq` (the first unacknowledged) has been out
    /// longer than the algorithm's own retransmission timeout, so it should be resent now
    /// rather than after the third duplicate ACK or the coarse timer (Brakmo & Peterson
    /// 1995 §3.1; ns-2 `VegasTcpAgent::vegas_expire`). Asked by loss recoveries that use
    /// it (`recovery = "vegas"`: on every duplicate ACK, and on the first one or two new
    /// ACKs after a retransmission, where `seq` may not have been sent yet); Tahoe, Reno
    /// and NewReno do not ask, as in ns-2. The default has no such timer.
    fn packet_timed_out(&self, _view: &CcView, _seq: i64) -> bool {
        false
    }

    /// The window to fall back to after congestion, in packets, given the flight window
    /// W (ns-2 `windowd()`: min(cwnd + fast-recovery inflation, advertised window)).
    /// The sender sets ssthresh to ⌊result⌋ (at least 2), and cwnd to the result (fast
    /// recovery, ECN) or to one packet (Tahoe, timeout).
    fn reduced_window(&mut self, view: &CcView, flight_window: f64) -> f64;

    /// Fast retransmit started a loss recovery (after the window was reduced).
    fn on_recovery_start(&mut self, _view: &mut CcView) {}

    /// Loss recovery ended.
    fn on_recovery_end(&mut self, _view: &mut CcView) {}

    /// The retransmission timer expired (after the window was reduced).
    fn on_timeout(&mut self, _view: &mut CcView) {}

    /// The sender reacted to an ECN echo (after the window was reduced).
    fn on_ecn_echo(&mut self, _view: &mut CcView) {}

    /// Packet `seq` was put on the wire.
    fn on_send(&mut self, _view: &mut CcView, _seq: i64, _retransmission: bool) {}

    /// The timer asked for with [`CcView::set_timer`] fired.
    fn on_timer(&mut self, _view: &mut CcView) {}

    /// The values this window control records for measurement, each pushed as its name
    /// and every value so far in the order recorded (Reno + γ: `gamma`, the γ of each
    /// decrease). The flows table summarizes each over the measurement window in columns
    /// `NAME_count`, `NAME_mean`, `NAME_min` and `NAME_max`, empty for flows whose window
    /// control records no such value. A model pushes its names even before it has a value,
    /// so that its columns do not depend on what happened in the run. Default: none.
    fn recorded(&self, _push: &mut dyn FnMut(&'static str, &[f64])) {}
}
