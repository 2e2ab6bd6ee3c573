//! BBRv3's rules, each at its boundary, driven with hand-made rate samples (as BBRv1's
//! tests): a path of 1000 packets/s and 100 ms, so the BDP is 100 packets.

use super::*;
use crate::tcp::ack::AckInfo;
use crate::tcp::state::{CwndAction, RateSampler, TcpState};
use crate::tcp::TcpParams;

fn ms(t: f64) -> SimTime {
    time::from_secs(t / 1000.0)
}

const RATE: f64 = 1000.0;
const RTT_MS: f64 = 100.0;

struct Rig {
    bbr: Bbr3,
    s: TcpState,
    delivered: i64,
    round_base: i64,
    now_ms: f64,
}

impl Rig {
    fn new() -> Rig {
        Rig::with(&SPEC.defaults())
    }

    fn with(config: &ModelConfig) -> Rig {
        let mut s = TcpState::new(TcpParams { max_window: 100_000, ..TcpParams::default() }, 0.0);
        s.window.cwnd = 10.0;
        Rig { bbr: Bbr3::from_config(config), s, delivered: 0, round_base: 0, now_ms: 0.0 }
    }

    /// One ACK `dt_ms` after the previous, delivering `acked` packets at `rate` with the
    /// path's RTT, `in_flight` packets in the network before it, `lost` retransmissions
    /// since the previous sample; it closes a round trip when `new_round`.
    fn ack(&mut self, dt_ms: f64, acked: i64, rate: f64, in_flight: i64, lost: i64, new_round: bool) {
        self.now_ms += dt_ms;
        let prior_delivered = if new_round { self.delivered } else { self.round_base - 1 };
        self.delivered += acked;
        if new_round {
            self.round_base = self.delivered;
        }
        let rs = RateSample {
            delivered: (rate * RTT_MS / 1000.0) as i64,
            prior_delivered,
            interval_s: RTT_MS / 1000.0,
            delivery_rate: Some(rate),
            rtt_s: Some(RTT_MS / 1000.0),
            is_app_limited: false,
            newly_delivered: acked,
            lost,
            prior_in_flight: in_flight,
            in_flight: (in_flight - acked).max(0),
            total_delivered: self.delivered,
        };
        self.s.rate = Some(Box::new(RateSampler::with_counts(rs.total_delivered, rs.in_flight)));
        self.s.rate_sample = Some(Box::new(rs));
        let info = AckInfo::cumulative(self.delivered);
        let event = AckEvent { info: &info, acked_packets: acked, duplicate: false, rtt_s: None, ack_rtt_s: None };
        self.bbr.on_any_ack(&mut CcView::new(&mut self.s, ms(self.now_ms)), &event);
    }

    /// A round trip: one ACK that closes the previous round.
    fn round(&mut self, rate: f64, in_flight: i64) {
        self.ack(RTT_MS, 10, rate, in_flight, 0, true);
    }

    /// Startup at RATE until it ends, then one ACK with the queue drained: ProbeBW (Down,
    /// and Cruise on the same ACK, as nothing bounds inflight yet).
    fn to_probe_bw(&mut self) {
        while self.bbr.state == State::Startup {
            self.round(RATE, 150);
            assert!(self.now_ms < 3000.0, "Startup never ended");
        }
        assert_eq!(self.bbr.state, State::Drain);
        self.ack(1.0, 1, RATE, 100, 0, false);
        assert_eq!(self.bbr.state, State::ProbeBwCruise);
    }

    /// `BBRInflight(1.0)`: the BDP with the quantization budget, packets.
    fn inflight_1(&self) -> i64 {
        self.bbr.max_inflight(1.0, self.s.params.packet_size + self.s.params.header_size) as i64
    }

    fn start_down(&mut self) {
        let now = ms(self.now_ms);
        self.bbr.start_probe_bw_down(&mut CcView::new(&mut self.s, now));
    }

    fn cwnd(&self) -> f64 {
        self.s.window.cwnd
    }
}

#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth_and_drain_after_the_queue() {
    let mut r = Rig::new();
    r.round(RATE, 150); // round 1: full_bw = 1000
    for round in 2..=3 {
        r.round(RATE * 1.24, 150); // grows by less than 25 %
        assert_eq!(r.bbr.state, State::Startup, "round {round}");
    }
    r.round(RATE * 1.24, 150);
    assert!(r.bbr.filled_pipe);
    assert_eq!(r.bbr.state, State::Drain);
    assert_eq!(r.bbr.pacing_gain, 0.35);
    // Drain lasts while more than BBRInflight(1.0) (BDP 124 + the quantization budget)
    // are in the network after the ACK.
    let limit = r.inflight_1();
    assert!((124..=132).contains(&limit), "{limit}");
    r.ack(1.0, 1, RATE, limit + 2, 0, false);
    assert_eq!(r.bbr.state, State::Drain);
    r.ack(1.0, 1, RATE, limit + 1, 0, false);
    assert!(r.bbr.state.in_probe_bw(), "{:?}", r.bbr.state);
}

#[test]
fn startup_gains_are_2_77_for_pacing_and_2_for_cwnd() {
    let mut r = Rig::new();
    r.round(RATE, 10);
    assert_eq!((r.bbr.pacing_gain, r.bbr.cwnd_gain), (2.77, 2.0));
}

/// Startup in a fast recovery, then one round whose ACKs report `events` losses of
/// `lost` packets each with 100 packets in flight.
fn startup_loss_round(events: i64, lost: i64) -> Rig {
    let mut r = Rig::new();
    r.round(RATE, 100);
    r.round(RATE * 2.0, 100);
    r.s.last_cwnd_action = CwndAction::Dupack;
    for _ in 0..events {
        r.ack(1.0, 1, RATE * 2.0, 100, lost, false);
    }
    r
}

#[test]
fn startup_ends_on_six_loss_events_in_a_round_with_loss_above_two_percent() {
    let r = startup_loss_round(5, 1);
    assert_eq!(r.bbr.state, State::Startup, "5 loss events");
    let r = startup_loss_round(6, 1);
    assert!(r.bbr.filled_pipe, "6 loss events, 6 % of 100");
    // Drain, and ProbeBW on the same ACK (99 in the network is below the BDP).
    assert!(r.bbr.state.in_probe_bw(), "{:?}", r.bbr.state);
    // inflight_hi = max(BDP = 2000/s x 0.1 s, inflight_latest = 200 delivered per round).
    assert_eq!(r.bbr.inflight_hi, 200.0);
}

#[test]
fn six_loss_events_at_two_percent_or_less_do_not_end_startup() {
    // 6 events of one packet each with 300 in flight: 2 % exactly, not above.
    let mut r = Rig::new();
    r.round(RATE, 300);
    r.round(RATE * 2.0, 300);
    r.s.last_cwnd_action = CwndAction::Dupack;
    for _ in 0..6 {
        r.ack(1.0, 1, RATE * 2.0, 300, 1, false);
    }
    assert_eq!(r.bbr.state, State::Startup);
}

#[test]
fn down_goes_to_cruise_once_the_queue_is_gone_and_cruise_to_refill_after_the_probe_wait() {
    let mut r = Rig::new();
    r.to_probe_bw();
    r.start_down();
    r.ack(1.0, 1, RATE, 200, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwDown);
    assert_eq!(r.bbr.pacing_gain, 0.9);
    // Cruise once at most BBRInflight(1.0) are in the network after the ACK.
    let limit = r.inflight_1();
    r.ack(1.0, 1, RATE, limit + 2, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwDown);
    r.ack(1.0, 1, RATE, limit + 1, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwCruise);
    assert_eq!(r.bbr.pacing_gain, 1.0);
    // The wall-clock wait is 2-3 s (drawn); the Reno bound min(BDP, 63) = 63 rounds of
    // 100 ms is later. Refill comes between 2 and 3 s after Down began.
    let down_at = r.now_ms - 2.0;
    while r.bbr.state == State::ProbeBwCruise {
        r.ack(50.0, 1, RATE, 100, 0, false);
    }
    let waited = r.now_ms - down_at;
    assert_eq!(r.bbr.state, State::ProbeBwRefill);
    assert!((2000.0..=3050.0).contains(&waited), "Refill after {waited} ms");
    assert_eq!(r.bbr.pacing_gain, 1.0);
    // Refill lasts one round: the next round start begins Up.
    r.ack(1.0, 1, RATE, 100, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwRefill);
    r.round(RATE, 100);
    assert_eq!(r.bbr.state, State::ProbeBwUp);
    assert_eq!(r.bbr.pacing_gain, 1.25);
}

#[test]
fn the_reno_coexistence_bound_starts_a_probe_after_min_bdp_63_rounds() {
    // A BDP of 20 packets (200/s x 100 ms): the bound is 20 rounds (minus the 0 or 1
    // drawn), long before the 2 s wall clock (20 rounds of 10 ms = 0.2 s).
    let mut r = Rig::new();
    while r.bbr.state == State::Startup {
        r.round(200.0, 40);
    }
    r.ack(1.0, 1, 200.0, 20, 0, false);
    r.start_down();
    let mut rounds = 0;
    while matches!(r.bbr.state, State::ProbeBwDown | State::ProbeBwCruise) {
        r.ack(10.0, 10, 200.0, 20, 0, true);
        rounds += 1;
        assert!(rounds < 30, "no probe after {rounds} rounds");
    }
    assert_eq!(r.bbr.state, State::ProbeBwRefill);
    assert!((19..=20).contains(&rounds), "{rounds} rounds");
}

/// ProbeBW with inflight_hi set (a loss in Startup), in Up, cwnd-limited.
fn in_probe_up() -> Rig {
    let mut r = Rig::new();
    r.to_probe_bw();
    r.bbr.inflight_hi = 100.0;
    r.s.window.cwnd = 100.0;
    r.bbr.start_probe_bw_refill(&CcView::new(&mut r.s, ms(r.now_ms)));
    r.round(RATE, 100);
    assert_eq!(r.bbr.state, State::ProbeBwUp);
    r
}

#[test]
fn in_up_inflight_hi_grows_by_1_2_4_packets_per_round_while_cwnd_limited() {
    let mut r = in_probe_up();
    let mut growth = Vec::new();
    for round in 0..4 {
        let before = r.bbr.inflight_hi;
        // One round: a cwnd of ACKs, one packet each, the network full (cwnd-limited);
        // the first round is the one Up began.
        let cwnd = r.cwnd() as i64;
        for k in 0..cwnd {
            r.s.maxseq = r.s.last_ack + r.cwnd() as i64; // in flight = cwnd
            r.ack(0.1, 1, RATE, 100, 0, round > 0 && k == 0);
        }
        growth.push(r.bbr.inflight_hi - before);
        assert_eq!(r.bbr.state, State::ProbeBwUp);
    }
    assert_eq!(growth, [1.0, 2.0, 4.0, 8.0]);
}

#[test]
fn loss_above_two_percent_in_up_cuts_inflight_hi_to_beta_and_goes_down() {
    let mut r = in_probe_up();
    // 2 lost of 100 in flight: 2 %, not too high.
    r.ack(1.0, 1, RATE, 100, 2, false);
    assert_eq!(r.bbr.state, State::ProbeBwUp);
    // A third: 3 %. inflight_hi = max(tx_in_flight 80, 0.7 x min(BDP 100, cwnd 100)).
    r.ack(1.0, 1, RATE, 80, 1, false);
    assert_eq!(r.bbr.state, State::ProbeBwDown);
    assert_eq!(r.bbr.inflight_hi, 80.0);
    let mut r = in_probe_up();
    r.ack(1.0, 1, RATE, 50, 3, false);
    assert_eq!(r.bbr.inflight_hi, 70.0, "β x target inflight when tx_in_flight is lower");
}

#[test]
fn a_loss_round_outside_probing_cuts_bw_lo_and_inflight_lo_by_beta_not_below_the_latest_round() {
    let mut r = Rig::new();
    r.to_probe_bw();
    r.s.window.cwnd = 200.0;
    // A round with one loss, delivering at 500/s (50 per round): bw_lo = max(500, 0.7 x
    // 1000) = 700; inflight_lo = max(50 delivered per round, 0.7 x cwnd).
    r.round(500.0, 100);
    r.ack(1.0, 1, 500.0, 100, 1, false);
    assert_eq!(r.bbr.bw_lo, f64::INFINITY, "applied at the end of the loss round");
    let cwnd = r.cwnd(); // 206 by now: cwnd grows toward 2 BDP + quanta
    r.round(500.0, 100);
    assert_eq!(r.bbr.bw_lo, 700.0);
    assert_eq!(r.bbr.inflight_lo, 0.7 * cwnd);
    assert_eq!(r.bbr.bw(), 700.0, "pacing and BDP use min(max_bw, bw_lo)");
    // Another loss round: 0.7 x 700 = 490 < the round's 500/s: bw_lo = 500.
    r.ack(1.0, 1, 500.0, 100, 1, false);
    r.round(500.0, 100);
    assert_eq!(r.bbr.bw_lo, 500.0);
    // A round without loss keeps them; Refill resets them.
    r.round(500.0, 100);
    assert_eq!(r.bbr.bw_lo, 500.0);
    r.bbr.start_probe_bw_refill(&CcView::new(&mut r.s, ms(r.now_ms)));
    assert_eq!((r.bbr.bw_lo, r.bbr.inflight_lo), (f64::INFINITY, f64::INFINITY));
}

#[test]
fn losses_in_up_do_not_touch_the_lower_bounds() {
    let mut r = in_probe_up();
    r.ack(1.0, 1, 500.0, 100, 1, false);
    r.round(500.0, 100);
    assert_eq!(r.bbr.bw_lo, f64::INFINITY);
}

#[test]
fn cruise_leaves_headroom_below_inflight_hi() {
    let mut r = Rig::new();
    r.to_probe_bw();
    r.bbr.inflight_hi = 80.0;
    r.s.window.cwnd = 200.0;
    r.start_down();
    // Down: cwnd capped at inflight_hi; Cruise needs in network ≤ 80 − 12 = 68.
    r.ack(1.0, 1, RATE, 71, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwDown);
    assert_eq!(r.cwnd(), 80.0);
    r.ack(1.0, 1, RATE, 69, 0, false);
    assert_eq!(r.bbr.state, State::ProbeBwCruise);
    // 80 − 0.15 x 80 = 68.
    assert_eq!(r.cwnd(), 68.0);
    assert_eq!(r.bbr.cwnd_cap(), 68.0);
    // Headroom is at least one packet, and the cap at least min_cwnd.
    r.bbr.inflight_hi = 5.0;
    assert_eq!(r.bbr.inflight_with_headroom(), 4.0);
    r.bbr.inflight_hi = 4.0;
    assert_eq!(r.bbr.inflight_with_headroom(), 4.0);
}

#[test]
fn down_refill_and_up_cap_cwnd_at_inflight_hi() {
    let mut r = in_probe_up();
    r.bbr.inflight_hi = 90.0;
    r.ack(1.0, 1, RATE, 50, 0, false);
    assert!(r.cwnd() <= 90.0, "cwnd {}", r.cwnd());
}

#[test]
fn probe_rtt_comes_every_5_s_with_cwnd_at_half_the_bdp_for_200_ms_and_a_round() {
    let mut r = Rig::new();
    r.to_probe_bw();
    r.s.window.cwnd = 200.0;
    let start = r.bbr.probe_rtt_min_stamp;
    let mut cwnd_before = r.cwnd();
    // RTT samples stay at 100 ms (never lower): probe_rtt_min_delay expires 5 s after
    // its stamp.
    while r.bbr.state != State::ProbeRtt {
        cwnd_before = r.cwnd();
        r.ack(10.0, 1, RATE, 100, 0, false);
        assert!(r.now_ms < 6000.0);
    }
    let entered = time::to_secs(ms(r.now_ms) - start);
    assert!((5.0..=5.011).contains(&entered), "ProbeRTT after {entered} s");
    // cwnd ≤ max(0.5 x BDP, 4) = 50 packets, not 4.
    assert_eq!(r.cwnd(), 50.0);
    assert_eq!(r.bbr.probe_rtt_cwnd(), 50.0);
    // The 200 ms start when in network ≤ 50, and a round must pass too.
    r.ack(10.0, 1, RATE, 60, 0, false);
    assert_eq!(r.bbr.probe_rtt_done_stamp, None);
    r.ack(10.0, 1, RATE, 50, 0, false);
    let done = r.bbr.probe_rtt_done_stamp.expect("200 ms started");
    assert_eq!(done, ms(r.now_ms) + 200 * time::PS_PER_MS);
    r.ack(150.0, 1, RATE, 50, 0, true); // a round, before the 200 ms
    assert_eq!(r.bbr.state, State::ProbeRtt);
    r.ack(60.0, 1, RATE, 50, 0, false); // 210 ms
    assert_eq!(r.bbr.state, State::ProbeBwCruise, "back to Cruise (through Down)");
    assert_eq!(r.cwnd(), cwnd_before, "cwnd restored");
}

#[test]
fn the_max_bw_filter_spans_two_probe_cycles() {
    let mut r = Rig::new();
    r.to_probe_bw();
    assert_eq!(r.bbr.max_bw(), RATE);
    // Cycle ends: one round into Down (ProbeStopping). Lower samples after two cycle
    // ends replace the 1000/s.
    let mut cycle_ends = 0;
    let mut rounds = 0;
    while r.bbr.max_bw() == RATE {
        let before = r.bbr.cycle_count;
        r.round(600.0, 60);
        if r.bbr.cycle_count > before {
            cycle_ends += 1;
        }
        rounds += 1;
        assert!(rounds < 500);
    }
    assert_eq!(cycle_ends, 2, "{rounds} rounds");
}

/// A round of `acked` packets in Up, one ACK each, `marked` of them with ECE set.
fn up_round_with_marks(ecn: bool, acked: i64, marked: i64) -> Rig {
    let mut c = SPEC.defaults();
    c.set("ecn", crate::model::Value::Bool(ecn));
    let mut r = Rig::with(&c);
    r.to_probe_bw();
    r.bbr.inflight_hi = 100.0;
    r.s.window.cwnd = 100.0;
    r.bbr.start_probe_bw_refill(&CcView::new(&mut r.s, ms(r.now_ms)));
    r.round(RATE, 100);
    for k in 0..acked {
        r.now_ms += 1.0;
        r.delivered += 1;
        let rs = RateSample { delivered: 100, prior_delivered: r.round_base - 1, interval_s: 0.1, delivery_rate: Some(RATE), rtt_s: Some(0.1), newly_delivered: 1, prior_in_flight: 80, in_flight: 79, total_delivered: r.delivered, ..RateSample::default() };
        r.s.rate = Some(Box::new(RateSampler::with_counts(rs.total_delivered, rs.in_flight)));
        r.s.rate_sample = Some(Box::new(rs));
        let info = AckInfo { ece: k < marked, ..AckInfo::cumulative(r.delivered) };
        let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
        r.bbr.on_any_ack(&mut CcView::new(&mut r.s, ms(r.now_ms)), &event);
    }
    r
}

#[test]
fn with_ecn_more_than_half_of_a_round_marked_is_inflight_too_high() {
    // A round's worth of deliveries is 100 (the samples' delivered); the marked ACKs
    // come first. 51 marked ends Up with inflight_hi cut; 50 (half) does not.
    let r = up_round_with_marks(true, 60, 50);
    assert_eq!(r.bbr.state, State::ProbeBwUp);
    let r = up_round_with_marks(true, 60, 51);
    assert_eq!(r.bbr.state, State::ProbeBwDown);
    assert_eq!(r.bbr.inflight_hi, 80.0, "max(tx_in_flight 80, 0.7 x 100)");
    // Without the `ecn` parameter marks are ignored.
    let r = up_round_with_marks(false, 60, 60);
    assert_eq!(r.bbr.state, State::ProbeBwUp);
}
