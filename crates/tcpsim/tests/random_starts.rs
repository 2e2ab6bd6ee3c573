//! Random start times, `start = "uniform(LOW, HIGH)"`: each flow's start is drawn from its
//! own random stream of the run's seed, so seeds matter even over DropTail (where fixed
//! starts make every seed give the same run).

mod common;

use common::{f64_col, i64_col, link, run};

fn two_flows(start: &str, seed: u64) -> String {
    format!(
        "[simulation]\nduration = \"10s\"\nseed = {seed}\n\n[network]\nnodes = [\"a\", \"r\", \"b\"]\n\n{}{}\
         [[flow]]\nname = \"f{{i}}\"\ncount = 4\nfrom = \"a\"\nto = \"b\"\nstart = {start}\nmax_window = 1000\n",
        link("a", "r", "100Mbps", "1ms", r#"{ kind = "droptail", limit = "1000p" }"#),
        link("r", "b", "5Mbps", "20ms", r#"{ kind = "droptail", limit = "20p" }"#),
    )
}

#[test]
fn uniform_starts_are_drawn_in_the_window_and_replay_for_a_seed() {
    let r = run(&two_flows(r#""uniform(0s, 1s)""#, 1));
    let starts = f64_col(&r.flows, "start_s").to_vec();
    assert!(starts.iter().all(|&t| (0.0..1.0).contains(&t)), "{starts:?}");
    let mut distinct = starts.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "each flow draws its own start: {starts:?}");
    let again = run(&two_flows(r#""uniform(0s, 1s)""#, 1));
    assert_eq!(f64_col(&again.flows, "start_s"), &starts[..], "same seed, same starts");
    assert_eq!(i64_col(&again.flows, "goodput_bytes"), i64_col(&r.flows, "goodput_bytes"), "and the same run");
    let other = run(&two_flows(r#""uniform(0s, 1s)""#, 2));
    assert_ne!(f64_col(&other.flows, "start_s"), &starts[..], "another seed, other starts");
}

#[test]
fn seeds_change_a_droptail_run_only_with_random_starts() {
    let goodputs = |start: &str, seed| i64_col(&run(&two_flows(start, seed)).flows, "goodput_bytes").to_vec();
    assert_eq!(goodputs(r#""0s""#, 1), goodputs(r#""0s""#, 2), "fixed starts: DropTail draws no random number");
    assert_ne!(goodputs(r#""uniform(0s, 1s)""#, 1), goodputs(r#""uniform(0s, 1s)""#, 2));
}

#[test]
fn bad_random_starts_are_errors_naming_the_key() {
    for (start, says) in [
        (r#""uniform(1s, 0s)""#, "LOW must be below HIGH"),
        (r#""uniform(0s, 20s)""#, "before the end of the simulation"),
        (r#""uniform(0s 1s)""#, "two times"),
    ] {
        let e = tcpsim::load_str(&two_flows(start, 1), "s.toml").expect_err(start);
        assert_eq!(e.key, "flow[0].start", "{start}: {e}");
        assert!(e.line.is_some(), "{start}: {e}");
        assert!(e.message.contains(says), "{start}: {e}");
    }
}

/// The same four flows with `start_jitter` (and optionally `start_spacing`) beside a fixed
/// start.
fn jittered(start: &str, jitter: &str, spacing: &str, seed: u64) -> String {
    two_flows(&format!("\"{start}\"\nstart_jitter = {jitter}\nstart_spacing = \"{spacing}\""), seed)
}

#[test]
fn start_jitter_draws_each_start_within_start_plus_jitter_and_replays_for_a_seed() {
    let starts = |seed| f64_col(&run(&jittered("2s", r#""100ms""#, "1s", seed)).flows, "start_s").to_vec();
    let first = starts(1);
    for (i, t) in first.iter().enumerate() {
        let own = 2.0 + i as f64; // start + i · start_spacing
        assert!((own..own + 0.1).contains(t), "flow {i} starts at {t} s, outside [{own}, {own} + 0.1): {first:?}");
    }
    assert!(first.iter().enumerate().any(|(i, t)| *t != 2.0 + i as f64), "a draw moved the starts: {first:?}");
    assert_eq!(starts(1), first, "same seed, same starts");
    assert_ne!(starts(2), first, "another seed, other starts");
}

#[test]
fn start_jitter_is_the_draw_of_a_uniform_start_over_the_same_window() {
    let flows = |text: &str| run(text).flows;
    let jitter = flows(&jittered("2s", r#""100ms""#, "0s", 5));
    let uniform = flows(&two_flows(r#""uniform(2s, 2.1s)""#, 5));
    assert_eq!(f64_col(&jitter, "start_s"), f64_col(&uniform, "start_s"), "one stream per flow, one draw");
    assert_eq!(i64_col(&jitter, "goodput_bytes"), i64_col(&uniform, "goodput_bytes"));
}

#[test]
fn zero_start_jitter_is_the_run_without_it() {
    let without = run(&two_flows(r#""0s""#, 3));
    let zero = run(&jittered("0s", r#""0s""#, "0s", 3));
    assert_eq!(f64_col(&zero.flows, "start_s"), f64_col(&without.flows, "start_s"));
    assert_eq!(i64_col(&zero.flows, "goodput_bytes"), i64_col(&without.flows, "goodput_bytes"));
    assert_eq!(i64_col(&zero.queues, "overflow_drops"), i64_col(&without.queues, "overflow_drops"));
}

#[test]
fn seeds_change_a_droptail_run_with_start_jitter() {
    let goodputs = |seed| i64_col(&run(&jittered("0s", r#""50ms""#, "0s", seed)).flows, "goodput_bytes").to_vec();
    assert_ne!(goodputs(1), goodputs(2));
}

#[test]
fn bad_start_jitter_is_an_error_naming_the_key() {
    for (text, says) in [
        (jittered("0s", r#""-1ms""#, "0s", 1), "a time"),
        (jittered("0s", r#""10""#, "0s", 1), "a time"),
        (jittered("0s", "0.1", "0s", 1), "quoted string"),
        (jittered("0s", r#""1Mbps""#, "0s", 1), "a time"),
        (jittered("9.96s", r#""50ms""#, "0s", 1), "before the end of the simulation"),
        (jittered("0s", r#""1s""#, "3.1s", 1), "start_spacing"),
        (two_flows(r#""uniform(0s, 1s)"
start_jitter = "10ms""#, 1), "no start_jitter with a uniform start"),
    ] {
        let e = tcpsim::load_str(&text, "s.toml").expect_err(&text);
        assert!(e.key.starts_with("flow[0]."), "{e}");
        assert!(e.line.is_some(), "{e}");
        assert!(e.message.contains(says), "expected {says:?} in: {e}");
    }
}
