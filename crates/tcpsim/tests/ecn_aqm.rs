//! Scenario tests of reference document 002's RED-family ECN queues (Arora, "TCP/IP
//! Networks with ECN over AQM", M.Eng. thesis, Carleton University, 2003): ECN over RED,
//! MECN, FECN and MFFECN over RED (`queue = { kind = "ecn_red" }`, ...) on a small
//! dumbbell of ECN-capable Reno flows: 100 Mb/s / 2 ms access links, a 20 ms bottleneck
//! with a 100-packet buffer.

mod common;

use common::{f64_col, i64_col, run, series, str_col};
use tcpsim::RunResults;

/// The dumbbell with `pairs` ECN-capable Reno flows, bottleneck `rate` and queue `queue`
/// (a TOML value), measured from 10 s to 40 s. `long_delay`: the second half of the
/// sources reach r1 over 42 ms instead of 2 ms (round trips of 128 ms against 48 ms
/// without queueing). `rtt_hint`: what the senders write into their packets.
fn dumbbell(pairs: usize, rate: &str, queue: &str, long_delay: bool, rtt_hint: &str) -> String {
    let access_delays = if long_delay {
        let delays: Vec<&str> = (0..pairs).map(|i| if i < pairs / 2 { "\"2ms\"" } else { "\"42ms\"" }).collect();
        format!("access_delays = [{}]\n", delays.join(", "))
    } else {
        String::new()
    };
    format!(
        "[simulation]\nduration = \"40s\"\nseed = 1\nmeasure_from = \"10s\"\n\n\
         [dumbbell]\npairs = {pairs}\n{access_delays}\n\
         [dumbbell.bottleneck]\nrate = \"{rate}\"\ndelay = \"20ms\"\nqueue = {queue}\n\n\
         [dumbbell.access]\nrate = \"100Mbps\"\ndelay = \"2ms\"\n\n\
         [[flow]]\nname = \"f{{i}}\"\ncount = {pairs}\nfrom = \"s{{i}}\"\nto = \"d{{i}}\"\n\
         recovery = \"reno\"\necn = true\nrtt_hint = \"{rtt_hint}\"\nmax_window = 1000\nstart_spacing = \"0.1s\"\n\n\
         [monitor]\ninterval = \"100ms\"\nqueues = [\"r1->r2\"]\n"
    )
}

/// A queue of `kind` with a 100-packet buffer, thresholds `min_th` / `max_th`, w_q 0.002
/// and max_p 0.1.
fn queue(kind: &str, min_th: u32, max_th: u32) -> String {
    format!(r#"{{ kind = "{kind}", limit = "100p", min_th = {min_th}, max_th = {max_th}, weight = 0.002, max_p = 0.1 }}"#)
}

/// A counter of the bottleneck queue r1->r2.
fn bottleneck(r: &RunResults, column: &str) -> i64 {
    let i = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").expect("the bottleneck queue");
    i64_col(&r.queues, column)[i]
}

/// Goodput (b/s) of the first and of the second half of the flows.
fn halves(r: &RunResults) -> (f64, f64) {
    let g = f64_col(&r.flows, "goodput_bps");
    let n = g.len() / 2;
    (g[..n].iter().sum(), g[n..].iter().sum())
}

#[test]
fn ecn_over_red_marks_where_red_drops_and_drops_nothing_at_moderate_load() {
    // 20 flows on 10 Mb/s, thresholds 20 / 60: the CE-less average stays in the band.
    let ecn = run(&dumbbell(20, "10Mbps", &queue("ecn_red", 20, 60), false, "none"));
    let red = run(&dumbbell(20, "10Mbps", &queue("red", 20, 60), false, "none"));
    assert_eq!((bottleneck(&ecn, "early_drops"), bottleneck(&ecn, "overflow_drops")), (0, 0));
    assert!(bottleneck(&ecn, "marks") > 1000, "ecn_red marked {}", bottleneck(&ecn, "marks"));
    assert_eq!(i64_col(&ecn.flows, "retransmits").iter().sum::<i64>(), 0);
    // RED without ecn drops the same ECN-capable flows early.
    assert!(bottleneck(&red, "early_drops") > 500, "red dropped {}", bottleneck(&red, "early_drops"));
    assert_eq!(bottleneck(&red, "marks"), 0);
    // The queue counted its CE packets: some were held, and the average stays below max_th.
    let ce = series(&ecn, "r1->r2", "queue_ce_pkts");
    assert!(ce.iter().any(|&(_, c)| c > 0.0) && ce.iter().all(|&(_, c)| c >= 0.0));
    let avg = series(&ecn, "r1->r2", "red_avg_pkts");
    assert!(avg.iter().filter(|&&(t, _)| t > 10.0).all(|&(_, a)| a > 10.0 && a < 60.0));
}

#[test]
fn mecn_marks_at_or_above_max_th_where_ecn_over_red_drops() {
    // 40 flows on 5 Mb/s, thresholds 10 / 30: the average reaches max_th.
    let ecn = run(&dumbbell(40, "5Mbps", &queue("ecn_red", 10, 30), false, "none"));
    let mecn = run(&dumbbell(40, "5Mbps", &queue("mecn_red", 10, 30), false, "none"));
    assert!(bottleneck(&ecn, "early_drops") > 100, "ecn_red dropped {} early", bottleneck(&ecn, "early_drops"));
    assert_eq!((bottleneck(&mecn, "early_drops"), bottleneck(&mecn, "overflow_drops")), (0, 0));
    assert!(bottleneck(&mecn, "marks") > bottleneck(&ecn, "marks"));
    // Marked packets stay queued: a longer queue than ECN over RED's.
    let mean = |r: &RunResults| {
        let i = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").unwrap();
        f64_col(&r.queues, "mean_length_pkts")[i]
    };
    assert!(mean(&mecn) > mean(&ecn), "mean queue {} (mecn) vs {} (ecn)", mean(&mecn), mean(&ecn));
}

#[test]
fn fecn_and_mffecn_give_the_long_rtt_flows_more_than_ecn_over_red() {
    // Half the flows with 48 ms, half with 128 ms round trips (plus queueing). ECN over
    // RED gives the long ones less than half of what the short ones get; scaling max_p
    // by avg_rtt / rtt (100 ms) marks the short ones more.
    let share = |kind: &str| {
        let (short, long) = halves(&run(&dumbbell(20, "10Mbps", &queue(kind, 20, 60), true, "last")));
        long / short
    };
    let (ecn, fecn, mffecn) = (share("ecn_red"), share("fecn_red"), share("mffecn_red"));
    assert!(ecn < 0.6, "ecn_red: long/short goodput {ecn}");
    assert!(fecn > ecn + 0.3, "fecn_red {fecn} vs ecn_red {ecn}");
    assert!(mffecn > ecn + 0.3, "mffecn_red {mffecn} vs ecn_red {ecn}");
}

#[test]
fn fecn_without_rtt_hints_is_ecn_over_red() {
    // Packets carrying no RTT are judged with max_p unscaled: the same run as ecn_red.
    let ecn = run(&dumbbell(20, "10Mbps", &queue("ecn_red", 20, 60), true, "none"));
    let fecn = run(&dumbbell(20, "10Mbps", &queue("fecn_red", 20, 60), true, "none"));
    for column in ["early_drops", "overflow_drops", "marks", "arrivals"] {
        assert_eq!(bottleneck(&ecn, column), bottleneck(&fecn, column), "{column}");
    }
    assert_eq!(f64_col(&ecn.flows, "goodput_bps"), f64_col(&fecn.flows, "goodput_bps"));
    // With hints it differs.
    let hinted = run(&dumbbell(20, "10Mbps", &queue("fecn_red", 20, 60), true, "last"));
    assert_ne!(bottleneck(&hinted, "marks"), bottleneck(&ecn, "marks"));
}
