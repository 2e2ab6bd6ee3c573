//! The draft's rules (draft-cheng-iccrg-delivery-rate-estimation-01 §3), one test each,
//! on hand-made timelines in milliseconds.

use super::*;
use crate::engine::SackBlocks;

fn ms(t: f64) -> SimTime {
    time::from_secs(t / 1000.0)
}

fn ack(cumulative: i64) -> AckInfo {
    AckInfo::cumulative(cumulative)
}

fn sack(cumulative: i64, blocks: &[(i64, i64)]) -> AckInfo {
    let mut sack = SackBlocks::EMPTY;
    for &(first, last) in blocks {
        sack.push(first, last);
    }
    AckInfo { sack, ..AckInfo::cumulative(cumulative) }
}

/// Sends packets `first..=last`, one every `gap` ms from `at`.
fn send(r: &mut RateSampler, first: i64, last: i64, at: f64, gap: f64) {
    for (i, seq) in (first..=last).enumerate() {
        r.on_departure(seq, ms(at + gap * i as f64));
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

#[test]
fn a_flight_sent_from_idle_is_measured_from_its_first_send_to_each_ack() {
    // Packets 0..=9 leave 1 ms apart from t = 0; the path's RTT is 100 ms, so packet k is
    // ACKed at 100 + k ms. The ACK of packet 9: C.delivered 10, P.delivered 0, send_elapsed 9 ms,
    // ack_elapsed = 109 − 0 (the delivered time recorded when the flight began) = 109 ms.
    let mut r = RateSampler::new();
    send(&mut r, 0, 9, 0.0, 1.0);
    let first = r.on_ack(&ack(0), -1, 0, ms(100.0));
    assert_eq!(first.delivered, 1);
    let mut last = first;
    for k in 1..=9 {
        last = r.on_ack(&ack(k), k - 1, 0, ms(100.0 + k as f64));
    }
    assert_eq!(last.delivered, 10);
    assert!(close(last.interval_s, 0.109), "{}", last.interval_s);
    assert!(close(last.delivery_rate.unwrap(), 10.0 / 0.109));
    assert_eq!(last.rtt_s.map(|r| (r * 1e3).round()), Some(100.0));
    assert_eq!(last.newly_delivered, 1);
    assert_eq!(last.total_delivered, 10);
}

#[test]
fn the_first_ack_of_a_flight_has_an_interval_of_its_rtt() {
    // From idle, C.delivered_time is set at the first send: the first ACK's ack_elapsed
    // is the whole RTT, so it gives 1 packet / 100 ms.
    let mut r = RateSampler::new();
    r.on_departure(0, ms(0.0));
    let s = r.on_ack(&ack(0), -1, 0, ms(100.0));
    assert!(close(s.interval_s, 0.1));
    assert!(close(s.delivery_rate.unwrap(), 10.0));
}

#[test]
fn in_steady_state_the_rate_is_the_ack_clock() {
    // Packets depart one per 10 ms as ACKs return one per 10 ms (RTT 100 ms): each ACK's
    // sample covers the 10 packets delivered since the packet left, over 100 ms.
    let mut r = RateSampler::new();
    send(&mut r, 0, 9, 0.0, 10.0);
    let mut rates = Vec::new();
    for k in 0..40 {
        let now = 100.0 + 10.0 * k as f64;
        let s = r.on_ack(&ack(k), k - 1, 0, ms(now));
        r.on_departure(k + 10, ms(now));
        rates.push(s.delivery_rate);
    }
    for rate in &rates[10..] {
        assert!(close(rate.unwrap(), 100.0), "{rate:?}");
    }
}

#[test]
fn ack_compression_is_bounded_by_the_send_interval() {
    // §2.2: ACKs that arrive in a burst make ack_elapsed short; the interval is the larger
    // send_elapsed, so the rate is not overestimated. Ten packets sent 10 ms apart (90 ms
    // between the first and the last); their ACKs all arrive within 1 ms at t = 190.
    let mut r = RateSampler::new();
    send(&mut r, 0, 9, 0.0, 10.0);
    r.on_ack(&ack(0), -1, 0, ms(100.0));
    let mut s = RateSample::default();
    for k in 1..=9 {
        s = r.on_ack(&ack(k), k - 1, 0, ms(190.0 + 0.1 * k as f64));
    }
    // The last sample: P = packet 9, P.delivered = 0 (sent before any delivery) but
    // P.delivered_time = 0 and P.first_sent = 0: send_elapsed 90 ms, ack_elapsed 190.9 ms.
    assert!(close(s.interval_s, 0.1909), "{}", s.interval_s);
    // Now one in steady flight: sent after the first ACK, so its first_sent_time is packet
    // 0's send time and its delivered_time is 100 ms.
    let mut r = RateSampler::new();
    r.on_departure(0, ms(0.0));
    r.on_ack(&ack(0), -1, 0, ms(100.0));
    send(&mut r, 1, 10, 100.0, 10.0); // sent 100..190 ms
    let mut s = RateSample::default();
    for k in 1..=10 {
        s = r.on_ack(&ack(k), k - 1, 0, ms(290.0 + 0.1 * k as f64));
    }
    // P = packet 10: send_elapsed = 190 − 0 (C.first_sent was packet 0's) = 190 ms,
    // ack_elapsed = 291 − 100 = 191 ms: interval 191 ms, 10 packets.
    assert!(close(s.interval_s, 0.191), "{}", s.interval_s);
    assert_eq!(s.delivered, 10);
}

#[test]
fn a_sample_shorter_than_the_smallest_rtt_gives_no_rate() {
    // A packet's own RTT never exceeds its ack_elapsed, so the check catches samples of
    // retransmitted packets (whose RTT is not taken): here a spurious retransmission.
    let mut r = RateSampler::new();
    r.on_departure(0, ms(0.0));
    r.on_ack(&ack(0), -1, 0, ms(100.0)); // min RTT 100 ms
    r.on_departure(1, ms(110.0)); // from idle: C.delivered_time ← 110 ms
    r.on_departure(1, ms(200.0)); // resent while the original is still on its way
    let s = r.on_ack(&ack(1), 0, 1, ms(205.0));
    // send_elapsed 200 − 110 = 90 ms, ack_elapsed 205 − 110 = 95 ms < 100 ms.
    assert!(close(s.interval_s, 0.095), "{}", s.interval_s);
    assert_eq!(s.delivery_rate, None);
    assert_eq!(s.rtt_s, None);
    assert_eq!(s.delivered, 1);
}

#[test]
fn sacked_packets_count_once_and_the_cumulative_ack_does_not_count_them_again() {
    let mut r = RateSampler::new();
    send(&mut r, 0, 5, 0.0, 1.0);
    // Packet 1 is lost; 2 and 3 are SACKed.
    let a = r.on_ack(&ack(0), -1, 0, ms(100.0));
    assert_eq!(a.newly_delivered, 1);
    let b = r.on_ack(&sack(0, &[(2, 2)]), 0, 0, ms(102.0));
    assert_eq!(b.newly_delivered, 1);
    let c = r.on_ack(&sack(0, &[(2, 3)]), 0, 0, ms(103.0));
    assert_eq!(c.newly_delivered, 1, "2 was SACKed before");
    assert_eq!(r.in_network(), 3, "1, 4 and 5");
    // The retransmission of 1 arrives: the cumulative ACK jumps to 3, newly delivering 1.
    r.on_departure(1, ms(103.0));
    let d = r.on_ack(&ack(3), 0, 1, ms(203.0));
    assert_eq!(d.newly_delivered, 1);
    assert_eq!(d.lost, 1, "one retransmission since the previous sample");
    assert_eq!(d.rtt_s, None, "a retransmitted packet gives no RTT (Karn)");
    assert_eq!(r.delivered(), 4);
}

#[test]
fn without_sack_a_duplicate_counts_one_and_the_cumulative_advance_takes_it_back() {
    // Linux tcp_add_reno_sack / tcp_remove_reno_sacks: each duplicate ACK delivers one
    // packet; the advance of n then counts max(n − duplicates, 1).
    let mut r = RateSampler::new();
    send(&mut r, 0, 4, 0.0, 1.0);
    r.on_ack(&ack(0), -1, 0, ms(100.0));
    for t in [102.0, 103.0, 104.0] {
        let s = r.on_ack(&ack(0), 0, 0, ms(t));
        assert_eq!(s.newly_delivered, 1);
        assert_eq!(s.delivery_rate, None, "which packet arrived is unknown");
    }
    assert_eq!(r.delivered(), 4);
    assert_eq!(r.in_network(), 1);
    r.on_departure(1, ms(104.0));
    let s = r.on_ack(&ack(4), 0, 1, ms(204.0));
    assert_eq!(s.newly_delivered, 1, "advance of 4, 3 already counted");
    assert_eq!(r.delivered(), 5);
    assert_eq!(r.in_network(), 0);
}

#[test]
fn with_sack_a_duplicate_without_blocks_delivers_nothing() {
    // A SACK receiver's duplicate ACK without blocks answers a copy of a packet it had
    // (a spurious retransmission, as after a timeout's go-back-N): counting it as a
    // delivery, Reno-style, took packets out of the network that were never credited
    // back, and in_network drifted below zero (measured: −24 after one timeout of a
    // BBRv3 flow at 1 % random loss).
    let mut r = RateSampler::new();
    send(&mut r, 0, 4, 0.0, 1.0);
    r.on_ack(&sack(-1, &[(1, 1)]), -1, 0, ms(100.0));
    assert_eq!(r.in_network(), 4);
    let s = r.on_ack(&ack(-1), -1, 0, ms(101.0));
    assert_eq!(s.newly_delivered, 0);
    assert_eq!((r.delivered(), r.in_network()), (1, 4));
}

#[test]
fn packets_sent_while_app_limited_give_app_limited_samples_until_delivered_passes_the_mark() {
    let mut r = RateSampler::new();
    send(&mut r, 0, 1, 0.0, 1.0);
    // Nothing more to send with two packets out: the mark is delivered (0) + 2.
    r.mark_app_limited(2);
    r.on_departure(2, ms(50.0));
    let s = r.on_ack(&ack(0), -1, 0, ms(100.0));
    assert!(!s.is_app_limited, "packet 0 left before the mark");
    let s = r.on_ack(&ack(1), 0, 0, ms(101.0));
    assert!(!s.is_app_limited);
    let s = r.on_ack(&ack(2), 1, 0, ms(150.0));
    assert!(s.is_app_limited, "packet 2 left while app-limited");
    // C.delivered (3) passed the mark (2): new packets are not app-limited.
    r.on_departure(3, ms(150.0));
    let s = r.on_ack(&ack(3), 2, 0, ms(250.0));
    assert!(!s.is_app_limited);
}

#[test]
fn a_timeout_empties_the_network_and_resent_packets_count_again() {
    let mut r = RateSampler::new();
    send(&mut r, 0, 3, 0.0, 1.0);
    assert_eq!(r.in_network(), 4);
    r.on_timeout();
    assert_eq!(r.in_network(), 0);
    r.on_departure(0, ms(1000.0));
    assert_eq!(r.in_network(), 1);
    let s = r.on_ack(&ack(0), -1, 1, ms(1100.0));
    assert_eq!(s.newly_delivered, 1);
    assert_eq!(s.prior_in_flight, 1);
    assert_eq!(s.in_flight, 0);
}
