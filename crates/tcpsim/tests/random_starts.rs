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
