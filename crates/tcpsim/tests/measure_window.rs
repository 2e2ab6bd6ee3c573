//! The measurement window `[simulation] measure_from`: every counter of the report covers
//! [measure_from, duration], and the aggregate goodput is the bytes all flows delivered
//! in the window divided by the window.

mod common;

use common::{f64_col, i64_col, link, run};
use tcpsim::{Column, RunResults};

fn repo_file(relative: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The example dumbbell (eight Reno/NewReno flows over RED, ECN-free) with its
/// `[simulation]` table replaced.
fn dumbbell(simulation: &str) -> String {
    let text = repo_file("examples/dumbbell.toml");
    let start = text.find("[simulation]").expect("a [simulation] table");
    let end = start + text[start..].find("\n\n").expect("a blank line after it");
    format!("{}{simulation}{}", &text[..start], &text[end..])
}

fn integer_columns(t: &tcpsim::Table) -> Vec<(String, Vec<i64>)> {
    t.columns
        .iter()
        .filter_map(|(name, c)| match c {
            Column::I64(v) => Some((name.clone(), v.clone())),
            _ => None,
        })
        .collect()
}

/// Each integer counter of a run measured from T equals the same counter of the whole run
/// less that of a run that ends at T (the simulation is deterministic, and T falls between
/// events). Columns that are not counters (a link's rate, a maximum) are left out.
#[test]
fn window_counters_are_the_whole_run_less_the_warm_up() {
    let warm_up = "7.123456789s";
    let whole = run(&dumbbell("[simulation]\nduration = \"20s\"\nseed = 3"));
    let windowed = run(&dumbbell(&format!("[simulation]\nduration = \"20s\"\nseed = 3\nmeasure_from = \"{warm_up}\"")));
    let head = run(&dumbbell(&format!("[simulation]\nduration = \"{warm_up}\"\nseed = 3")));
    let not_counters = ["rate_bps", "max_length_pkts"];
    let mut compared = 0;
    for (table, (w, (a, b))) in ["flows", "queues", "links"].iter().zip([
        (&windowed.flows, (&whole.flows, &head.flows)),
        (&windowed.queues, (&whole.queues, &head.queues)),
        (&windowed.links, (&whole.links, &head.links)),
    ]) {
        for ((name, got), ((_, all), (_, before))) in integer_columns(w).into_iter().zip(integer_columns(a).into_iter().zip(integer_columns(b))) {
            if not_counters.contains(&name.as_str()) {
                continue;
            }
            let expected: Vec<i64> = all.iter().zip(&before).map(|(x, y)| x - y).collect();
            assert_eq!(got, expected, "{table}.{name}");
            compared += 1;
        }
    }
    assert!(compared >= 15, "compared {compared} columns");
    // Some counters do change in the warm-up, so the test compares something.
    assert!(i64_col(&head.flows, "goodput_bytes").iter().all(|&b| b > 0));
    let from: f64 = 7.123456789;
    assert_eq!(windowed.summary["measure_from_s"].as_f64(), Some(from));
    // Goodput is over the part of the window a flow is active in.
    let bytes = i64_col(&windowed.flows, "goodput_bytes");
    let rates = f64_col(&windowed.flows, "goodput_bps");
    for (b, r) in bytes.iter().zip(rates) {
        assert!((r - *b as f64 * 8.0 / (20.0 - from)).abs() < 1e-6 * r.max(1.0), "{r} vs {b} bytes");
    }
    // Mean queue length over the window: the integral difference over the window.
    let mean = |r: &RunResults| f64_col(&r.queues, "mean_length_pkts")[0];
    let expected = (mean(&whole) * 20.0 - mean(&head) * from) / (20.0 - from);
    assert!((mean(&windowed) - expected).abs() < 1e-9 * expected.max(1.0), "{} vs {expected}", mean(&windowed));
}

/// Two flows take turns on a 10 Mb/s link: each alone for 10 s. The sum of their rates
/// over their own active times is about 2 × 10 Mb/s; the aggregate goodput is the bytes
/// both delivered over the 20 s, at most the link rate.
#[test]
fn aggregate_goodput_never_exceeds_the_link_rate_when_flows_take_turns() {
    let text = format!(
        "[simulation]\nduration = \"20s\"\n\n[network]\nnodes = [\"a\", \"b\"]\n\n{}\
         [[flow]]\nname = \"first\"\nfrom = \"a\"\nto = \"b\"\nstart = \"0s\"\nstop = \"10s\"\nmax_window = 1000\n\n\
         [[flow]]\nname = \"second\"\nfrom = \"a\"\nto = \"b\"\nstart = \"10s\"\nmax_window = 1000\n",
        link("a", "b", "10Mbps", "10ms", r#"{ kind = "droptail", limit = "100p" }"#)
    );
    let r = run(&text);
    let sum_of_rates: f64 = f64_col(&r.flows, "goodput_bps").iter().sum();
    let aggregate = r.summary["aggregate_goodput_bps"].as_f64().expect("aggregate_goodput_bps");
    assert!(sum_of_rates > 15e6, "each flow alone fills most of the link: {sum_of_rates}");
    assert!(aggregate <= 10e6 && aggregate > 7e6, "aggregate {aggregate}");
    let delivered: i64 = i64_col(&r.flows, "goodput_bytes").iter().sum();
    assert_eq!(aggregate, delivered as f64 * 8.0 / 20.0);

    // Measured from 10 s: the first flow has stopped (a few packets in flight may still
    // arrive), the second has the window to itself.
    let later = run(&text.replace("duration = \"20s\"", "duration = \"20s\"\nmeasure_from = \"10s\""));
    let rates = f64_col(&later.flows, "goodput_bps");
    assert_eq!(rates[0], 0.0, "no active time in the window");
    assert!(rates[1] > 7e6 && rates[1] <= 10e6, "{}", rates[1]);
}

#[test]
fn a_window_that_starts_at_or_after_the_end_is_an_error() {
    for from in ["20s", "25s"] {
        let text = format!("[simulation]\nduration = \"20s\"\nmeasure_from = \"{from}\"\n\n[network]\nnodes = [\"a\", \"b\"]\n\n{}", link("a", "b", "1Mbps", "1ms", "") + "[[flow]]\nfrom = \"a\"\nto = \"b\"\n");
        let e = tcpsim::load_str(&text, "w.toml").expect_err(from);
        assert_eq!(e.key, "simulation.measure_from", "{e}");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("before the end of the run"), "{e}");
    }
    let text = format!("[simulation]\nduration = \"20s\"\nmeasure_from = \"5 s\"\n\n[network]\nnodes = [\"a\", \"b\"]\n\n{}", link("a", "b", "1Mbps", "1ms", "") + "[[flow]]\nfrom = \"a\"\nto = \"b\"\n");
    if let Err(e) = tcpsim::load_str(&text, "w.toml") {
        panic!("{e}");
    }
    let text = text.replace("\"5 s\"", "\"5Mbps\"");
    let e = tcpsim::load_str(&text, "w.toml").expect_err("a rate is not a time");
    assert_eq!(e.key, "simulation.measure_from", "{e}");
}
