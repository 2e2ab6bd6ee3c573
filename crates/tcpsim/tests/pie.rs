//! Scenario tests of PIE (`queue = { kind = "pie" }`, RFC 8033): long-lived Reno flows
//! through a 10 Mb/s, 20 ms bottleneck of 1000-byte packets (one packet waiting is 0.8 ms
//! of delay), once with PIE and once with a drop-tail buffer of 1000 packets (800 ms).
//! PIE should hold the mean queueing delay near its 15 ms target with the link kept
//! busy, where the drop-tail buffer fills; 60 s, measured over 20–60 s.

mod common;

use common::{mean_between, run, series};

/// One packet of 1000 B at 10 Mb/s, seconds.
const PACKET_TIME_S: f64 = 1000.0 * 8.0 / 10e6;

/// `flows` Reno flows over the bottleneck queue `queue` (a TOML value).
fn dumbbell(queue: &str, flows: u32) -> String {
    format!(
        "[simulation]\nduration = \"60s\"\nseed = 1\n\n\
         [dumbbell]\npairs = {flows}\n\n\
         [dumbbell.bottleneck]\nrate = \"10Mbps\"\ndelay = \"20ms\"\nqueue = {queue}\n\
         queue_reverse = {{ kind = \"droptail\", limit = \"100000p\" }}\n\n\
         [dumbbell.access]\nrate = \"100Mbps\"\ndelay = \"5ms\"\nqueue = {{ kind = \"droptail\", limit = \"100000p\" }}\n\n\
         [[flow]]\nname = \"f{{i}}\"\ncount = {flows}\nfrom = \"s{{i}}\"\nto = \"d{{i}}\"\n\
         packet_size = \"960B\"\nheader_size = \"40B\"\nmax_window = 10000\nstart_jitter = \"1s\"\n\n\
         [monitor]\ninterval = \"10ms\"\nqueues = [\"r1->r2\"]\nflows = \"none\"\n"
    )
}

/// Mean queueing delay (waiting packets times the transmission time) and utilization
/// over 20–60 s, and the run.
fn measure(queue: &str, flows: u32) -> (f64, f64, tcpsim::RunResults) {
    let r = run(&dumbbell(queue, flows));
    let delay = mean_between(&series(&r, "r1->r2", "queue_pkts"), 20.0, 60.0) * PACKET_TIME_S;
    let utilization = mean_between(&series(&r, "r1->r2", "utilization"), 20.0, 60.0);
    (delay, utilization, r)
}

/// PIE's own mean delay estimate over 20–60 s.
fn estimate(r: &tcpsim::RunResults) -> f64 {
    mean_between(&series(r, "r1->r2", "pie_qdelay_s"), 20.0, 60.0)
}

#[test]
fn pie_holds_reno_flows_near_15_ms_where_a_big_drop_tail_buffer_fills() {
    let (pie_delay, pie_utilization, r) = measure(r#"{ kind = "pie" }"#, 20);
    let pie_estimate = estimate(&r);
    let (tail_delay, tail_utilization, _) = measure(r#"{ kind = "droptail", limit = "1000p" }"#, 20);
    eprintln!("PIE: delay {pie_delay:.4} s, estimate {pie_estimate:.4} s, utilization {pie_utilization:.4}; drop-tail: delay {tail_delay:.4} s, utilization {tail_utilization:.4}");
    assert!((0.010..=0.022).contains(&pie_delay), "PIE mean queueing delay {pie_delay:.4} s, target 0.015");
    assert!((0.010..=0.022).contains(&pie_estimate), "PIE's own mean delay estimate {pie_estimate:.4} s");
    assert!(pie_utilization >= 0.95, "PIE utilization {pie_utilization:.4}");
    assert!(tail_delay > 10.0 * pie_delay, "drop-tail delay {tail_delay:.4} s vs PIE {pie_delay:.4} s");
}

#[test]
fn the_rate_estimator_also_holds_the_delay_near_the_target() {
    let (delay, utilization, r) = measure(r#"{ kind = "pie", delay_estimator = "rate" }"#, 20);
    eprintln!("PIE (rate): delay {delay:.4} s, estimate {:.4} s, utilization {utilization:.4}", estimate(&r));
    assert!((0.010..=0.022).contains(&delay), "mean queueing delay {delay:.4} s, target 0.015");
    assert!(utilization >= 0.95, "utilization {utilization:.4}");
}

#[test]
fn with_ecn_flows_pie_marks_instead_of_dropping_at_low_p() {
    let queue = r#"{ kind = "pie", ecn = true }"#;
    let r = run(&dumbbell(queue, 20).replace("start_jitter", "ecn = true\nstart_jitter"));
    let marks: f64 = series(&r, "r1->r2", "marks").iter().filter(|&&(t, _)| t > 20.0).map(|&(_, v)| v).sum();
    let early: f64 = series(&r, "r1->r2", "early_drops").iter().filter(|&&(t, _)| t > 20.0).map(|&(_, v)| v).sum();
    let p = mean_between(&series(&r, "r1->r2", "pie_p"), 20.0, 60.0);
    eprintln!("PIE + ECN: marks {marks}, early drops {early}, mean p {p:.4}");
    assert!(marks > 0.0);
    // p stays below the 0.1 marking threshold here, so no ECN-capable packet is dropped early.
    assert!(p < 0.1, "mean p {p}");
    assert!(early < marks / 10.0, "early drops {early} vs marks {marks}");
}
