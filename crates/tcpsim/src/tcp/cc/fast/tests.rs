//! Tests of the FAST rules, expected values worked out by hand from the update in the file
//! header (Jin, Wei & Low 2004; ns-2 FAST module v1.1.3).

use super::*;
use crate::engine::time::PS_PER_MS;
use crate::tcp::ack::AckInfo;
use crate::tcp::cc::Window;
use crate::tcp::sender::{TcpParams, TcpState};

fn ms(t: u64) -> SimTime {
    t * PS_PER_MS
}

fn defaults() -> FastParams {
    FastParams::default()
}

// ---------------------------------------------------------------- the update

#[test]
fn the_registry_defaults_are_the_ns2_module_defaults() {
    let p = defaults();
    assert_eq!((p.alpha, p.beta, p.gamma), (100.0, 100.0, 0.5));
    assert_eq!(p.update_interval, ms(10));
    assert!((p.mi_threshold - 0.00075).abs() < 1e-15);
    assert!(p.every_other_rtt);
}

#[test]
fn equilibrium_keeps_alpha_packets_queued() {
    // w·(1 − base/avg) = α is the fixed point: w = 725, base 0.1 s, avg 0.116 s (queue
    // 725·(1 − 0.1/0.116) = 100): the target is w itself.
    let t = target_window(&defaults(), 725.0, 725.0, 0.1, 0.116);
    assert!((t - 725.0).abs() < 1e-9, "{t}");
}

#[test]
fn an_update_moves_gamma_of_the_way_to_base_over_avg_times_w_plus_alpha() {
    // cwnd = old window = 500, base 0.1, avg 0.101:
    // 0.5·500 + 0.5·(500·0.1/0.101 + 100) = 250 + 0.5·595.0495… = 547.5248
    let t = target_window(&defaults(), 500.0, 500.0, 0.1, 0.101);
    assert!((t - (250.0 + 0.5 * (500.0 * 0.1 / 0.101 + 100.0))).abs() < 1e-9);
    assert!((t - 547.5248).abs() < 1e-4);
    // Too many packets queued: 800 with avg 0.2 (400 queued) → 0.5·800 + 0.5·(400 + 100) = 650.
    assert!((target_window(&defaults(), 800.0, 800.0, 0.1, 0.2) - 650.0).abs() < 1e-9);
    // γ = 1 jumps to the target: 800·0.5 + 100 = 500.
    let p = FastParams { gamma: 1.0, ..defaults() };
    assert!((target_window(&p, 800.0, 800.0, 0.1, 0.2) - 500.0).abs() < 1e-9);
    // The window the acknowledged packet was sent in, not cwnd, sets the target:
    // cwnd 800, old window 600, avg 0.2: 400 + 0.5·(300 + 100) = 600.
    assert!((target_window(&defaults(), 800.0, 600.0, 0.1, 0.2) - 600.0).abs() < 1e-9);
}

#[test]
fn no_update_inside_alpha_beta_and_never_below_two() {
    // β = 200: old·q/avg = 500·0.05/0.15 = 166.7 ∈ [100, 200) → unchanged.
    let p = FastParams { beta: 200.0, ..defaults() };
    assert_eq!(target_window(&p, 500.0, 500.0, 0.1, 0.15), 500.0);
    // … outside it (old 700: 233) it updates: 250 + 0.5·(700/1.5 + 100) = 533.33.
    assert!((target_window(&p, 500.0, 700.0, 0.1, 0.15) - (250.0 + 0.5 * (700.0 / 1.5 + 100.0))).abs() < 1e-9);
    // α = β = 0 and a long queue: 0.5·3 + 0.5·(3·0.01/1) = 1.515 → 2.
    let p = FastParams { alpha: 0.0, beta: 0.0, ..defaults() };
    assert_eq!(target_window(&p, 3.0, 3.0, 0.01, 1.0), 2.0);
    // No estimate yet: unchanged.
    assert_eq!(target_window(&defaults(), 7.0, 7.0, f64::INFINITY, 0.0), 7.0);
}

#[test]
fn avg_rtt_averages_over_256_acks_or_a_third_of_the_window() {
    let mut f = Fast::new(defaults());
    assert_eq!(f.average_rtt(0.2), 0.2, "the first sample");
    f.avg_rtt = 0.1;
    f.avg_window = 300.0; // 300/3 = 100 < 256
    assert!((f.average_rtt(0.356) - (0.1 + 0.256 / 256.0)).abs() < 1e-15);
    f.avg_window = 1536.0; // 1536/3 = 512 > 256
    assert!((f.average_rtt(0.612) - (0.1 + 0.512 / 512.0)).abs() < 1e-15);
}

// ---------------------------------------------------------------- per ACK, on a sender state

/// A sender past its first ACK with base_rtt 100 ms, packets 0 .. `n` − 1 outstanding,
/// each sent `at` and in a window of `sent_in` packets.
fn rig(cwnd: f64, n: i64, at: SimTime, sent_in: f64) -> (TcpState, Fast) {
    let mut s = TcpState::new(TcpParams { max_window: 100_000, ..TcpParams::default() }, 0.0);
    s.window = Window { cwnd, ssthresh: 2.0 };
    s.send_times = Some(Box::default());
    s.first_sent = Some(0);
    for seq in 0..n {
        s.output(seq, at);
    }
    s.t_seqno = n;
    s.last_ack = -1;
    s.curseq = i64::MAX;
    let mut f = Fast::new(defaults());
    f.seen_first_ack = true;
    f.base_rtt = 0.1;
    f.avg_rtt = 0.1;
    f.avg_window = sent_in;
    for seq in 0..n {
        f.on_send(&mut CcView::new(&mut s, at), seq, false);
    }
    (s, f)
}

fn ack(s: &mut TcpState, f: &mut Fast, seq: i64, at: SimTime) {
    let info = AckInfo::cumulative(seq);
    let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
    f.on_any_ack(&mut CcView::new(s, at), &event);
    s.last_ack = seq;
    f.on_ack(&mut CcView::new(s, at), &event);
}

#[test]
fn multiplicative_increase_adds_one_packet_per_ack_while_the_queue_is_small() {
    // Every ACK 100 ms after its packet: avg − base = 0 < 0.75 ms → +1 per ACK, the
    // window doubles over a round.
    let (mut s, mut f) = rig(10.0, 10, ms(0), 10.0);
    for seq in 0..10 {
        ack(&mut s, &mut f, seq, ms(100) + seq as u64);
    }
    assert_eq!(s.window.cwnd, 20.0);
    assert!(f.in_mi);
    // RTT samples 1 ms above base push avg_rtt up by 1/256 of it per ACK: after 200 ACKs
    // avg − base = 1·(1 − (255/256)^200) ms = 0.54 ms, still MI; after 400, 0.79 ms > 0.75:
    // the increase stops.
    let (mut s, mut f) = rig(10.0, 400, ms(0), 400.0);
    for seq in 0..400 {
        ack(&mut s, &mut f, seq, ms(101) + seq as u64);
    }
    assert!(!f.in_mi);
    let mi_acks = s.window.cwnd - 10.0;
    // MI while 1 − (255/256)^k < 0.75, i.e. k < ln 4 / ln(256/255) = 354.2: 354 ACKs.
    assert_eq!(mi_acks, 354.0);
}

#[test]
fn the_timer_applies_a_decrease_at_once_and_paces_an_increase() {
    // 800 packets outstanding, sent in a window of 800; samples of 200 ms (base 100 ms):
    // out of MI. The update on the timer: target 0.5·800 + 0.5·(800·0.1/avg + 100).
    let (mut s, mut f) = rig(800.0, 800, ms(0), 800.0);
    f.avg_rtt = 0.2;
    f.last_update = 0;
    ack(&mut s, &mut f, 0, ms(200));
    assert!(!f.in_mi);
    assert_eq!(f.avg_rtt(), 0.2);
    assert_eq!(s.cc_timer, Some(ms(210)), "the first ACK arms the timer");
    // 0.5·800 + 0.5·(800·0.1/0.2 + 100) = 650, at once.
    f.on_timer(&mut CcView::new(&mut s, ms(210)));
    assert!((s.window.cwnd - 650.0).abs() < 1e-9, "{}", s.window.cwnd);
    assert_eq!(s.cc_timer, Some(ms(220)));

    // From below: cwnd 100 sent in 100 with avg = base + 1 ms: target = 50 + 0.5·(100·
    // 0.1/0.101 + 100) = 149.5; 49 increments paced over the ACKs of 10 ms. With 400 ACKs
    // in the last period and avg 0.101 s: 400·0.01/0.101 = 39.6 ACKs per interval,
    // spacing ⌊39.6/49⌋ = 0: one increment per ACK.
    let (mut s, mut f) = rig(100.0, 100, ms(0), 100.0);
    f.avg_rtt = 0.101;
    f.acks_last_period = 400;
    f.in_mi = false;
    f.acked_since_timer = true;
    f.update_period = true;
    f.old_window = 100.0;
    f.on_timer(&mut CcView::new(&mut s, ms(10)));
    assert_eq!(s.window.cwnd, 101.0, "the update's own step");
    assert_eq!(f.pending_increments(), 48);
    for _ in 0..10 {
        f.pace(&mut CcView::new(&mut s, ms(11)), 0);
    }
    assert_eq!((s.window.cwnd, f.pending_increments()), (111.0, 38));
    // With 40 000 ACKs per period the spacing is ⌊3960/49⌋ = 80 ACKs per increment.
    f.increments = 0;
    f.acks_last_period = 40_000;
    f.pace(&mut CcView::new(&mut s, ms(12)), 49);
    assert_eq!(f.spacing, 80);
}

#[test]
fn updates_wait_for_the_interval_an_update_period_and_acks() {
    let (mut s, mut f) = rig(100.0, 100, ms(0), 100.0);
    f.avg_rtt = 0.2;
    f.in_mi = false;
    f.old_window = 100.0;
    // A frozen period: no update, but the timer keeps running while ACKs come.
    f.update_period = false;
    f.acked_since_timer = true;
    f.on_timer(&mut CcView::new(&mut s, ms(10)));
    assert_eq!(s.window.cwnd, 100.0);
    assert_eq!(s.cc_timer, Some(ms(20)));
    // No ACK since the last firing: idle, the timer stops until the next ACK.
    f.update_period = true;
    s.cc_timer = None;
    f.on_timer(&mut CcView::new(&mut s, ms(20)));
    assert_eq!((s.window.cwnd, s.cc_timer), (100.0, None));
    // Less than an interval after a multiplicative step: wait for the rest of it.
    f.acked_since_timer = true;
    f.last_update = ms(25);
    f.on_timer(&mut CcView::new(&mut s, ms(30)));
    assert_eq!(s.window.cwnd, 100.0);
    assert_eq!(s.cc_timer, Some(ms(35)));
}

#[test]
fn update_periods_alternate_every_rtt() {
    // ns-2 v1.1.3: a new period starts when the ACK comes more than one RTT sample after
    // the start of the last; periods alternate between update and frozen.
    // That is: on the ACK of a packet sent after the period began. Packets sent at 50 ms.
    let (mut s, mut f) = rig(10.0, 10, ms(50), 10.0);
    f.period_start = 0.06;
    let first = f.update_period;
    ack(&mut s, &mut f, 0, ms(150)); // 0.06 + 0.1 < 0.15 is false: same period
    assert_eq!(f.update_period, first);
    f.period_start = 0.04;
    ack(&mut s, &mut f, 1, ms(150)); // 0.04 + 0.1 < 0.15: a new period
    assert_eq!(f.update_period, !first);
    assert_eq!(f.acks_last_period, 1);
    assert_eq!(f.period_start, 0.15);
    // every_other_rtt = false: every period updates.
    let (mut s, mut f) = rig(10.0, 10, ms(50), 10.0);
    f.params.every_other_rtt = false;
    f.update_period = false;
    ack(&mut s, &mut f, 0, ms(150));
    assert!(f.update_period);
}

#[test]
fn the_acknowledged_packet_gives_the_window_it_was_sent_in() {
    let (mut s, mut f) = rig(10.0, 3, ms(0), 7.0);
    f.avg_window = 9.0;
    f.on_send(&mut CcView::new(&mut s, ms(1)), 3, false);
    assert_eq!(f.take_sent_window(1), Some(7.0));
    assert_eq!(f.take_sent_window(3), Some(9.0));
    assert_eq!(f.take_sent_window(3), None, "forgotten once acknowledged");
}

// ---------------------------------------------------------------- loss

#[test]
fn loss_halves_the_window_and_a_timeout_restarts_from_two() {
    let (mut s, mut f) = rig(100.0, 10, ms(0), 10.0);
    assert_eq!(f.reduced_window(&CcView::new(&mut s, ms(1)), 101.0), 50.5);
    f.increments = 5;
    f.on_timeout(&mut CcView::new(&mut s, ms(1)));
    assert_eq!((s.window.cwnd, f.pending_increments()), (2.0, 0));
}
