//! Scenario tests of BBRv1 (`cc = "bbr"`): one flow alone on a 10 Mb/s, 20 ms bottleneck
//! with a deep drop-tail buffer (1000 packets of 1000 bytes, 0.8 s), 5 ms access links:
//! base RTT 60 ms plus serialization (about 61 ms). 40 s, monitored every 10 ms.
//!
//! BBR should fill the link and keep the queue near empty once Startup and Drain are
//! over, cycle its pacing gain with a period of 8 RTprop, and enter ProbeRTT (cwnd 4)
//! about every 10 s. Numbers measured at commit time are in the comments.

mod common;

use common::{mean_between, run, series};

/// One packet of 1000 B at 10 Mb/s, seconds.
const PACKET_TIME_S: f64 = 1000.0 * 8.0 / 10e6;
/// Propagation RTT of the path, seconds.
const BASE_RTT_S: f64 = 0.060;

fn scenario() -> String {
    "[simulation]\nduration = \"40s\"\nseed = 1\n\n\
     [dumbbell]\npairs = 1\n\n\
     [dumbbell.bottleneck]\nrate = \"10Mbps\"\ndelay = \"20ms\"\nqueue = { kind = \"droptail\", limit = \"1000p\" }\n\
     queue_reverse = { kind = \"droptail\", limit = \"100000p\" }\n\n\
     [dumbbell.access]\nrate = \"100Mbps\"\ndelay = \"5ms\"\nqueue = { kind = \"droptail\", limit = \"100000p\" }\n\n\
     [[flow]]\nname = \"bbr\"\nfrom = \"s0\"\nto = \"d0\"\ncc = \"bbr\"\nrecovery = \"sack1\"\n\
     receiver = { kind = \"every_packet\", sack = true }\n\
     packet_size = \"960B\"\nheader_size = \"40B\"\nmax_window = 10000\n\n\
     [monitor]\ninterval = \"10ms\"\nqueues = [\"r1->r2\"]\nflows = [\"bbr\"]\n"
        .to_string()
}

/// Times at which `samples` first cross above `threshold` (after `from` s).
fn rises(samples: &[(f64, f64)], threshold: f64, from: f64) -> Vec<f64> {
    samples.windows(2).filter(|w| w[0].1 <= threshold && w[1].1 > threshold && w[1].0 >= from).map(|w| w[1].0).collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn bbr_fills_the_link_with_the_queue_near_empty_probes_every_8_rtts_and_probes_rtt_every_10_s() {
    let r = run(&scenario());

    // After Startup (about 1 s) and Drain: measured utilization 0.968 over 5–40 s
    // (pacing at 0.99 of the bandwidth, and ProbeRTT), mean queue 2.25 packets = 1.8 ms,
    // 3 % of the base RTT.
    let utilization = mean_between(&series(&r, "r1->r2", "utilization"), 5.0, 40.0);
    let queue_delay = mean_between(&series(&r, "r1->r2", "queue_pkts"), 5.0, 40.0) * PACKET_TIME_S;
    eprintln!("BBR: utilization {utilization:.4}, mean queueing delay {queue_delay:.5} s");
    assert!(utilization >= 0.95, "utilization {utilization:.4}");
    assert!(queue_delay < 0.1 * BASE_RTT_S, "mean queueing delay {queue_delay:.5} s");

    // The 1.25 phase of the gain cycle: the pacing rate rises above 1.1 × its ProbeBW
    // level (9.9 Mb/s = 0.99 × 10 Mb/s of 1000-byte packets) once per cycle. Measured:
    // 0.48–0.49 s between rises, 8 × RTprop (about 61 ms); the gaps that span a ProbeRTT
    // are longer (0.75–1.18 s).
    let pacing = series(&r, "bbr", "pacing_rate_bps");
    let level = mean_between(&pacing, 5.0, 40.0);
    assert!((9.5e6..=10.2e6).contains(&level), "mean pacing rate {level}");
    let probes = rises(&pacing, 1.1 * 9.9e6, 3.0);
    let gaps: Vec<f64> = probes.windows(2).map(|w| w[1] - w[0]).collect();
    let period = median(gaps.clone());
    eprintln!("gain cycle: {} probes, median period {period:.3} s", probes.len());
    assert!(probes.len() >= 60, "{} probes in 37 s", probes.len());
    assert!((7.9 * BASE_RTT_S..=8.5 * BASE_RTT_S).contains(&period), "period {period} s");
    let regular = gaps.iter().filter(|&&g| (g - period).abs() <= 0.02).count();
    assert!(regular as f64 >= 0.9 * gaps.len() as f64, "{regular} of {} gaps near the period: {gaps:?}", gaps.len());

    // ProbeRTT: cwnd falls to 4 packets. Measured at 10.07, 20.43 and 30.80 s: every
    // 10 s of RTprop plus the 200 ms and a round trip of ProbeRTT itself.
    let cwnd = series(&r, "bbr", "cwnd");
    let probe_rtts: Vec<f64> = cwnd.windows(2).filter(|w| w[0].1 > 4.0 && w[1].1 <= 4.0).map(|w| w[1].0).collect();
    eprintln!("ProbeRTT at {probe_rtts:?}");
    assert_eq!(probe_rtts.len(), 3, "{probe_rtts:?}");
    for w in probe_rtts.windows(2) {
        assert!((10.0..=10.6).contains(&(w[1] - w[0])), "ProbeRTT interval {} s", w[1] - w[0]);
    }
    assert!(cwnd.iter().filter(|&&(t, _)| t >= 1.0).all(|&(_, c)| c >= 4.0), "cwnd below 4 after the start (no loss here)");
    assert_eq!(common::flow_number(&r, 0, "retransmits"), 0.0, "the deep buffer never overflows");
}
