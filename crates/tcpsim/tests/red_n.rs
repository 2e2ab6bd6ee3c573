//! Scenario tests of connection-count RED (`queue = { kind = "red_n" }`, reference
//! document 000, Chang's thesis, Section 3.4): Vegas and Reno flows through a red_n
//! bottleneck on the dumbbell of the thesis's Section 4.1 (Fig. 4.1: 50 Mb/s / 1 ms
//! access links, a 1.5 Mb/s / 40 ms bottleneck, a 100-packet buffer), RED with w_q 0.002.

mod common;

use common::{mean_between, run, series, str_col};
use tcpsim::RunResults;

/// The thesis's Fig. 4.1 dumbbell with `pairs` pairs, the bottleneck queue `queue` (a
/// TOML value) and the `[[flow]]` tables `flows`.
fn dumbbell(pairs: usize, queue: &str, flows: &str, duration: &str) -> String {
    format!(
        "[simulation]\nduration = \"{duration}\"\nseed = 1\n\n\
         [dumbbell]\npairs = {pairs}\n\n\
         [dumbbell.bottleneck]\nrate = \"1.5Mbps\"\ndelay = \"40ms\"\nqueue = {queue}\n\n\
         [dumbbell.access]\nrate = \"50Mbps\"\ndelay = \"1ms\"\n\n{flows}\n\
         [monitor]\ninterval = \"100ms\"\nqueues = [\"r1->r2\"]\n"
    )
}

/// `count` flows of window control `cc` from s{first}.. to d{first}.., starting at
/// `start` and stopping at `stop` (empty: never).
fn flows(name: &str, cc: &str, first: usize, count: usize, start: &str, stop: &str) -> String {
    let stop = if stop.is_empty() { String::new() } else { format!("stop = \"{stop}\"\n") };
    format!(
        "[[flow]]\nname = \"{name}{{i}}\"\ncount = {count}\nfrom = \"s{{i+{first}}}\"\nto = \"d{{i+{first}}}\"\n\
         cc = \"{cc}\"\nmax_window = 1000\nstart = \"{start}\"\n{stop}\n"
    )
}

const RED_N: &str = r#"{ kind = "red_n", limit = "100p", weight = 0.002 }"#;
const DROPTAIL: &str = r#"{ kind = "droptail", limit = "100p" }"#;

/// Goodput (b/s) of each flow whose name starts with `prefix`.
fn goodputs(r: &RunResults, prefix: &str) -> Vec<f64> {
    let names = str_col(&r.flows, "name");
    (0..names.len()).filter(|&i| names[i].starts_with(prefix)).map(|i| common::flow_number(r, i, "goodput_bps")).collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Thesis Table 4.1, 5V: five Vegas flows keep about 13 packets queued, below
/// min_th = 3 · 5 = 15, so connection-count RED drops nothing and the run is the
/// drop-tail run, flow by flow.
#[test]
fn homogeneous_vegas_meets_no_early_drop_and_matches_drop_tail() {
    let vegas = flows("vegas", "vegas", 0, 5, "0s", "");
    let red = run(&dumbbell(5, RED_N, &vegas, "100s"));
    let droptail = run(&dumbbell(5, DROPTAIL, &vegas, "100s"));
    assert_eq!(goodputs(&red, "vegas"), goodputs(&droptail, "vegas"));
    let drops: f64 = series(&red, "r1->r2", "early_drops").iter().map(|&(_, v)| v).sum();
    assert_eq!(drops, 0.0);
    let min_th = series(&red, "r1->r2", "red_min_th_pkts");
    assert!(min_th.iter().all(|&(_, v)| v == 15.0), "min_th 3 · 5 throughout");
}

/// Thesis Table 4.1, 4V1R: with drop-tail the Reno flow takes most of the link (Vegas
/// 80 kb/s each against Reno's 1131); connection-count RED (15/20) drops Reno's excess
/// early and raises the Vegas flows' mean (the thesis: 207 kb/s, ×2.59).
#[test]
fn with_reno_it_raises_the_vegas_share_over_drop_tail() {
    let mix = flows("vegas", "vegas", 0, 4, "0s", "") + &flows("reno", "reno", 4, 1, "0s", "");
    let red = run(&dumbbell(5, RED_N, &mix, "100s"));
    let droptail = run(&dumbbell(5, DROPTAIL, &mix, "100s"));
    let fairness = |r: &RunResults| mean(&goodputs(r, "vegas")) / mean(&goodputs(r, "reno"));
    let (red_fairness, droptail_fairness) = (fairness(&red), fairness(&droptail));
    assert!(red_fairness > 1.5 * droptail_fairness, "Vegas/Reno: red_n {red_fairness:.3}, drop-tail {droptail_fairness:.3}");
}

/// The thresholds follow n as flows start and stop: 2 flows from 0 s, 2 more at 10 s,
/// one stopping at 20 s (n 2, 4, 3).
#[test]
fn thresholds_follow_flow_starts_and_stops() {
    let f = flows("a", "vegas", 0, 2, "0s", "") + &flows("b", "vegas", 2, 1, "10s", "") + &flows("c", "vegas", 3, 1, "10s", "20s");
    let r = run(&dumbbell(4, RED_N, &f, "30s"));
    let at = |metric: &str, t: f64| series(&r, "r1->r2", metric).iter().find(|&&(time, _)| (time - t).abs() < 1e-9).unwrap().1;
    for (t, n) in [(5.0, 2.0), (15.0, 4.0), (25.0, 3.0)] {
        assert_eq!((at("red_n", t), at("red_min_th_pkts", t), at("red_max_th_pkts", t)), (n, 3.0 * n, 4.0 * n), "at {t} s");
    }
}

/// SRED's estimate on simulated traffic: five Vegas flows sharing the link about equally
/// are estimated at five within 30 % on average over the second half of a 100 s run
/// (about 9000 arrivals there, two time constants M/p = 4000 arrivals).
#[test]
fn sred_estimates_five_vegas_flows() {
    let queue = r#"{ kind = "red_n", limit = "100p", weight = 0.002, n_source = "sred" }"#;
    let r = run(&dumbbell(5, queue, &flows("vegas", "vegas", 0, 5, "0s", ""), "100s"));
    let n = mean_between(&series(&r, "r1->r2", "red_n"), 50.0, 100.0);
    assert!((n / 5.0 - 1.0).abs() < 0.3, "mean estimate {n:.2}");
}
