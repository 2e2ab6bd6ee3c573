//! Scenario tests of Quick Vegas (cc = "quick_vegas" with Vegas' recovery): it reaches a
//! new equilibrium much sooner than Vegas, at start and after the available bandwidth
//! halves and doubles (Chan, Lin & Ho 2008 Sect. 5.1, reference document 001 E2, scaled to a
//! 20 Mb/s bottleneck: 250 packets in flight), and keeps about (α+β)/2 packets queued.
//! The paper's convergence-time numbers are checked by the reproduction with the one
//! definition in python/tcpsim/quick_vegas.py; here only first-crossing times are compared.

mod common;
use common::*;

const VEGAS: &str = r#"{ kind = "vegas", alpha = 2, beta = 4, gamma = 1 }"#;
const QUICK_VEGAS: &str = r#""quick_vegas""#;

/// One flow on 20 Mb/s × 100 ms; a 10 Mb/s CBR flow from 40 s to 80 s; 100 s.
fn e2_scaled(cc: &str) -> Vec<(f64, f64)> {
    let flows = tcp_flow("tcp", 1, cc, "") + &cbr_flow(2, "10Mbps", "40s", "80s");
    let r = run(&topology_a("20Mbps", "100s", &flows));
    assert_eq!(flow_number(&r, 0, "drops"), 0.0);
    series(&r, "tcp", "cwnd")
}

/// First time at or after `from` when `reached(cwnd)` holds.
fn first_time(cwnd: &[(f64, f64)], from: f64, reached: impl Fn(f64) -> bool) -> f64 {
    cwnd.iter().find(|&&(t, w)| t >= from && reached(w)).map(|&(t, _)| t - from).expect("reached")
}

#[test]
fn quick_vegas_reaches_a_new_equilibrium_sooner_than_vegas() {
    let vegas = e2_scaled(VEGAS);
    let quick = e2_scaled(QUICK_VEGAS);
    // Equilibria from the Vegas run: about 250 + 3 alone, 125 + 3 beside the CBR flow.
    let full = mean_between(&vegas, 35.0, 40.0);
    let half = mean_between(&vegas, 75.0, 80.0);
    assert!((full / 253.0 - 1.0).abs() < 0.02 && (half / 128.0 - 1.0).abs() < 0.03, "{full} {half}");
    let mut times = Vec::new();
    for cwnd in [&vegas, &quick] {
        times.push([
            first_time(cwnd, 0.0, |w| w >= full - 4.0),
            first_time(cwnd, 40.0, |w| w <= half + 4.0),
            first_time(cwnd, 80.0, |w| w >= full - 4.0),
        ]);
    }
    let [v, q] = [times[0], times[1]];
    // Vegas: one packet per round; Quick Vegas: (β − Δ)·succ per round and half the
    // excess at once. Paper (50 Mb/s): 59 s vs 13 s, 47.9 vs 3.3, 31.8 vs 2.0.
    for (what, v, q, ratio) in [("start", v[0], q[0], 0.5), ("halved", v[1], q[1], 0.3), ("doubled", v[2], q[2], 0.3)] {
        assert!(q < ratio * v, "{what}: Quick Vegas {q} s, Vegas {v} s");
    }
    // Both settle at the same windows.
    assert!((mean_between(&quick, 90.0, 100.0) / full - 1.0).abs() < 0.03);
    assert!((mean_between(&quick, 70.0, 80.0) / half - 1.0).abs() < 0.05);
}

#[test]
fn quick_vegas_keeps_about_alpha_plus_beta_over_two_packets_queued() {
    // §3.2.2: every connection keeps (α + β)/2 = 3 packets in the pipe; with the Eq. 3
    // increments the window ripples around it, so the mean is checked against [α, β].
    let r = run(&topology_a("20Mbps", "40s", &tcp_flow("tcp", 1, QUICK_VEGAS, "")));
    let q = mean_between(&series(&r, "r1->r2", "queue_pkts"), 20.0, 40.0);
    assert!((2.0..=4.0).contains(&q), "mean queue {q} packets");
}

#[test]
fn quick_vegas_leaves_slow_start_with_a_larger_window_than_vegas() {
    // Fig. 2 / Sect. 4.1: a higher critical window (window on leaving slow start).
    let critical = |cc: &str| {
        let r = run(&topology_a("50Mbps", "3s", &tcp_flow("tcp", 1, cc, "")));
        let ssthresh = series(&r, "tcp", "ssthresh");
        let (exit, _) = *ssthresh.iter().find(|&&(_, v)| v == 2.0).expect("leaves slow start");
        series(&r, "tcp", "cwnd").iter().filter(|&&(t, _)| t < exit).map(|&(_, w)| w).fold(0.0, f64::max)
    };
    let (v, q) = (critical(VEGAS), critical(QUICK_VEGAS));
    assert_eq!(v, 64.0, "Vegas, reference document 001 Fig. 1");
    assert!(q > v, "Quick Vegas {q}, Vegas {v}");
}

#[test]
fn a_quick_vegas_flow_defaults_to_vegas_recovery() {
    let r = run(&topology_a("10Mbps", "1s", &tcp_flow("tcp", 1, QUICK_VEGAS, "")));
    match column(&r.flows, "recovery") {
        tcpsim::Column::Str(v) => assert_eq!(v[0], "vegas"),
        other => panic!("{other:?}"),
    }
}
