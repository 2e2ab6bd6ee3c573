//! Golden snapshots of what today's scenarios produce: the examples, the benchmark B1
//! shortened to 5 s, and the ns-2 differential twins, as per-flow, per-queue and per-link
//! tables plus a digest of the time series.
//!
//! They guard refactors: a model or engine change that moves any number shows up here as
//! a snapshot diff. A snapshot changes only on purpose, with the reason in the commit.
//! Review and accept changes with `cargo insta review` (or rerun with
//! `INSTA_UPDATE=always` and read the diff of `tests/snapshots/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tcpsim::{Column, RunResults};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs a scenario file, optionally replacing its duration (to keep long cases short).
fn run(relative: &str, duration: Option<&str>) -> RunResults {
    let path = repo().join(relative);
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    if let Some(d) = duration {
        let line = text.lines().find(|l| l.trim_start().starts_with("duration")).expect("a duration line").to_string();
        text = text.replacen(&line, &format!("duration = \"{d}\""), 1);
    }
    let scenario = tcpsim::load_str(&text, relative).unwrap_or_else(|e| panic!("{e}"));
    tcpsim::run(&scenario).unwrap_or_else(|e| panic!("{e}"))
}

/// Everything a run reports except wall time: tables as CSV, time series as a digest
/// (rows and the sum of each metric, printed exactly).
fn render(r: &RunResults) -> String {
    let mut out = String::new();
    out.push_str("## flows\n");
    out.push_str(&r.flows.to_csv());
    out.push_str("## queues\n");
    out.push_str(&r.queues.to_csv());
    out.push_str("## links\n");
    out.push_str(&r.links.to_csv());
    out.push_str("## timeseries digest\n");
    let ts = &r.timeseries;
    if let (Some(Column::Str(entity)), Some(Column::Str(metric)), Some(Column::F64(value))) =
        (ts.column("entity"), ts.column("metric"), ts.column("value"))
    {
        let mut sums: BTreeMap<(&str, &str), (usize, f64)> = BTreeMap::new();
        for i in 0..value.len() {
            let e = sums.entry((entity[i].as_str(), metric[i].as_str())).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += value[i];
        }
        for ((e, m), (n, sum)) in sums {
            out.push_str(&format!("{e},{m},{n},{sum:?}\n"));
        }
    }
    out.push_str(&format!("events,{}\n", r.summary["events"]));
    out
}

macro_rules! golden {
    ($name:ident, $file:expr, $duration:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), render(&run($file, $duration)));
        }
    };
}

golden!(example_dumbbell, "examples/dumbbell.toml", None);
golden!(bench_b1_5s, "bench/b1.toml", Some("5s"));
golden!(ns2_case_a, "validation/ns2/case_a.toml", None);
golden!(ns2_case_c, "validation/ns2/case_c.toml", None);
golden!(ns2_case_d1, "validation/ns2/case_d1.toml", None);
golden!(ns2_case_d2, "validation/ns2/case_d2.toml", None);
golden!(ns2_case_e, "validation/ns2/case_e.toml", None);
golden!(ns2_case_f, "validation/ns2/case_f.toml", None);
golden!(ns2_case_ecn, "validation/ns2/case_ecn.toml", None);
golden!(ns2_case_ecn1, "validation/ns2/case_ecn1.toml", None);
golden!(ns2_case_fack, "validation/ns2/case_fack.toml", None);
golden!(ns2_case_fack_opts, "validation/ns2/case_fack_opts.toml", None);
golden!(ns2_case_v1, "validation/ns2/case_v1.toml", None);
golden!(ns2_case_v2, "validation/ns2/case_v2.toml", None);
golden!(ns2_case_v3, "validation/ns2/case_v3.toml", None);
