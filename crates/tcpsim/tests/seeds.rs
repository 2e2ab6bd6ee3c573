//! Seeds that matter: with DropTail and identical flows, only the retransmission timer's
//! clock phase is random, so runs with different seeds can coincide. ns-2 users break
//! such phase effects with `Agent/TCP overhead_` (a random delay before sending new
//! data, our tcp `overhead`); these tests check that it does, and that it stays
//! deterministic for a given seed.

use tcpsim::{Column, RunResults};

fn run(overhead: &str, seed: u64) -> RunResults {
    let text = format!(
        r#"
[simulation]
duration = "20s"
seed = {seed}

[dumbbell]
pairs = 4

[dumbbell.bottleneck]
rate = "2Mbps"
delay = "20ms"
queue = {{ kind = "droptail", limit = "20p" }}

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[[flow]]
name = "tcp{{i}}"
count = 4
from = "s{{i}}"
to = "d{{i}}"
start = "0s"
overhead = "{overhead}"
"#
    );
    let scenario = tcpsim::load_str(&text, "seeds.toml").unwrap_or_else(|e| panic!("{e}"));
    tcpsim::run(&scenario).unwrap_or_else(|e| panic!("{e}"))
}

fn counts(r: &RunResults, name: &str) -> Vec<i64> {
    match r.flows.column(name) {
        Some(Column::I64(v)) => v.clone(),
        other => panic!("column {name}: {other:?}"),
    }
}

#[test]
fn overhead_makes_runs_depend_on_the_seed_and_stays_deterministic() {
    let a = run("1ms", 1);
    let b = run("1ms", 2);
    let again = run("1ms", 1);
    assert_eq!(counts(&a, "unique_packets"), counts(&again, "unique_packets"), "same seed, same run");
    assert_eq!(counts(&a, "drops"), counts(&again, "drops"));
    assert_ne!(counts(&a, "unique_packets"), counts(&b, "unique_packets"), "another seed, another run");
}

#[test]
fn without_overhead_the_seed_changes_nothing_here() {
    // Only the retransmission timer's clock phase is random, and here it does not change
    // the outcome: every seed gives the same run. This is the case `overhead` is for.
    let a = run("0s", 1);
    let b = run("0s", 2);
    assert_eq!(counts(&a, "unique_packets"), counts(&b, "unique_packets"));
}

#[test]
fn overhead_delays_new_data_by_at_most_its_bound() {
    let r = run("1ms", 3);
    // Every flow still gets through: the delay is small against the 40 ms RTT.
    assert!(counts(&r, "unique_packets").iter().all(|&n| n > 500), "{:?}", counts(&r, "unique_packets"));
}
