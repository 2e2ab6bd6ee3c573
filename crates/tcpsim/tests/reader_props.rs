//! Property test of the scenario reader (proptest, in the default suite with a short
//! budget): scenario files built from the format's own tables and keys, with values
//! drawn from well-formed, near-miss and hostile pools, and arbitrary text.
//!
//! Properties: loading never panics; every error names the file; a line, when given,
//! is inside the file; every error but a TOML syntax error names a key; messages are one
//! line; and an error about a written value ("unknown key ...", "..., got ...") points at
//! the line that holds that key.

use proptest::prelude::*;
use std::panic::{self, AssertUnwindSafe};
use tcpsim::{load_str, ScenarioError};

const FILE: &str = "prop.toml";

/// `s` as a TOML basic string, control characters escaped.
fn toml_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => out.extend(['\\', c]),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("1.5".to_string()),
        Just("1.5e-3".to_string()),
        Just("2E+1".to_string()),
        Just("-1".to_string()),
        Just(".5".to_string()),
        Just("1e400".to_string()),
        Just("1e-400".to_string()),
        Just("123456789012345678901234567890123".to_string()),
        (0u64..100_000).prop_map(|n| n.to_string()),
        (0.0f64..1e6).prop_map(|x| format!("{x}")),
    ]
}

fn unit() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "ps", "ns", "us", "µs", "ms", "s", "min", "bps", "Kb", "kbps", "Mbps", "Mb", "MBps", "B/s", "Gbit/s", "B", "KB", "KiB",
        "MiB", "p", "pkts", "", " ms", "  s", "mbps", "MB", "Mbpsbps", "s ", "x", "Mibps", "b", "P",
    ])
}

/// A quantity as written in a file: mostly number + unit, sometimes anything.
fn quantity() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (number(), unit()).prop_map(|(n, u)| toml_str(&format!("{n}{u}"))),
        1 => "[ -~\t\r\nµ\u{0}\u{7f}\u{85}\u{2028}]{0,10}".prop_map(|s| toml_str(&s)),
    ]
}

/// Any TOML value a key might be given.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => quantity(),
        1 => any::<i64>().prop_map(|i| i.to_string()),
        2 => (0i64..200).prop_map(|i| i.to_string()),
        1 => prop::sample::select(vec!["1e9", "0.5", "-0.0", "inf", "nan", "1.0e300"]).prop_map(str::to_string),
        1 => any::<bool>().prop_map(|b| b.to_string()),
        1 => prop::collection::vec(quantity(), 0..3).prop_map(|v| format!("[{}]", v.join(", "))),
        1 => prop::sample::select(vec!["\"all\"", "\"none\"", "[\"r1->r2\"]", "[\"f0\", \"nope\"]"]).prop_map(str::to_string),
        1 => (prop::sample::select(vec!["droptail", "red", "drr", "codel", "reno", "newreno", "sack1", "delayed", "vegas"]), quantity())
            .prop_map(|(k, l)| format!("{{ kind = \"{k}\", limit = {l} }}")),
        1 => prop::sample::select(vec!["\"droptail\"", "\"red\"", "\"newreno\"", "\"sack1\"", "\"delayed\"", "\"vegas\"", "\"cbr\"", "\"tcp\"", "\"Reno\""]).prop_map(str::to_string),
    ]
}

/// A node or flow name, sometimes hostile.
fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "s0", "d0", "r1", "r2", "a\rb", "x y", "", "a->b", "f{i}", "n\u{7}", "é"]).prop_map(toml_str)
}

/// Up to four distinct keys of `pool` (a key twice is a TOML error) with values.
fn keys(pool: &'static [&'static str]) -> impl Strategy<Value = Vec<(&'static str, String)>> {
    prop::sample::subsequence(pool.to_vec(), 0..=pool.len().min(4))
        .prop_flat_map(|ks| {
            let n = ks.len();
            (Just(ks), prop::collection::vec(value(), n))
        })
        .prop_map(|(ks, vs)| ks.into_iter().zip(vs).collect())
}

const FLOW_KEYS: &[&str] = &[
    "name", "count", "start", "start_spacing", "stop", "type", "rate", "packet_size", "jitter", "recovery", "cc", "receiver",
    "initial_window", "max_window", "packets", "min_rto", "ecn", "syn", "windw",
];
const LINK_KEYS: &[&str] = &["rate", "delay", "queue", "queue_reverse", "error_model", "bandwidth"];
const MONITOR_KEYS: &[&str] = &["interval", "flows", "queues", "intervl"];
const SIM_KEYS: &[&str] = &["duration", "seed"];

/// A scenario file assembled from the format's tables with random keys and values.
fn scenario() -> impl Strategy<Value = String> {
    (
        prop_oneof![4 => Just(Vec::new()), 1 => keys(SIM_KEYS)],
        prop::option::of(prop::collection::vec(name(), 0..5)),
        prop::collection::vec((name(), name(), keys(LINK_KEYS)), 0..3),
        prop::option::of((1u32..4, keys(LINK_KEYS))),
        prop::collection::vec((name(), name(), keys(FLOW_KEYS)), 0..4),
        prop::option::of(keys(MONITOR_KEYS)),
        prop::bool::weighted(0.9),
    )
        .prop_map(|(sim, nodes, links, dumbbell, flows, monitor, valid_sim)| {
            // A table's fixed keys, unless the random ones replace them (a key twice is
            // a TOML error), then the random ones.
            let table = |t: &mut String, header: &str, fixed: &[(&str, String)], extra: &[(&str, String)]| {
                t.push_str(&format!("\n{header}\n"));
                for (k, v) in fixed.iter().filter(|(k, _)| !extra.iter().any(|(e, _)| e == k)).chain(extra) {
                    t.push_str(&format!("{k} = {v}\n"));
                }
            };
            let mut t = String::new();
            let duration = if valid_sim { vec![("duration", "\"1s\"".to_string())] } else { vec![] };
            table(&mut t, "[simulation]", &duration, &sim);
            if let Some(nodes) = nodes {
                t.push_str(&format!("\n[network]\nnodes = [{}]\n", nodes.join(", ")));
            }
            let rate_delay = |rate: &str| vec![("rate", format!("\"{rate}\"")), ("delay", "\"1ms\"".to_string())];
            if let Some((pairs, extra)) = dumbbell {
                t.push_str(&format!("\n[dumbbell]\npairs = {pairs}\n"));
                for header in ["[dumbbell.bottleneck]", "[dumbbell.access]"] {
                    table(&mut t, header, &rate_delay("10Mbps"), &extra);
                }
            }
            for (from, to, extra) in links {
                let mut fixed = vec![("from", from), ("to", to)];
                fixed.extend(rate_delay("1Mbps"));
                table(&mut t, "[[link]]", &fixed, &extra);
            }
            for (from, to, extra) in flows {
                table(&mut t, "[[flow]]", &[("from", from), ("to", to)], &extra);
            }
            if let Some(extra) = monitor {
                table(&mut t, "[monitor]", &[], &extra);
            }
            t
        })
}

/// Loads `text` under catch_unwind: the error if it fails, or a panic message.
fn load(text: &str) -> Result<Option<ScenarioError>, String> {
    match panic::catch_unwind(AssertUnwindSafe(|| load_str(text, FILE))) {
        Ok(Ok(_)) => Ok(None),
        Ok(Err(e)) => Ok(Some(e)),
        Err(payload) => Err(payload.downcast_ref::<String>().cloned().or(payload.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()),
    }
}

/// The checks every error must pass; `Err` says which failed.
fn check_error(text: &str, e: &ScenarioError) -> Result<(), String> {
    let lines: Vec<&str> = text.split('\n').collect();
    if e.file != FILE {
        return Err(format!("names file {:?}", e.file));
    }
    if let Some(l) = e.line {
        if l == 0 || l > lines.len() {
            return Err(format!("line {l} outside the file's {} lines", lines.len()));
        }
    }
    let syntax = e.message.starts_with("not valid TOML");
    if e.key.is_empty() && !syntax {
        return Err("no key".into());
    }
    if e.to_string().contains(|c: char| c.is_control()) {
        return Err("a message with control characters".into());
    }
    let about_a_value = e.message.starts_with("unknown key") || e.message.contains(", got ");
    if about_a_value && !syntax {
        let last = e.key.rsplit('.').next().unwrap_or("");
        let last = last.split('[').next().unwrap_or(last);
        let Some(l) = e.line else { return Err("no line for an error about a written value".into()) };
        if !lines[l - 1].contains(last) {
            return Err(format!("line {l} ({:?}) does not hold key {last:?}", lines[l - 1]));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn assembled_scenarios_load_or_fail_with_a_located_error(text in scenario()) {
        match load(&text) {
            Err(panic) => prop_assert!(false, "panicked: {panic}\n{text}"),
            Ok(None) => {}
            Ok(Some(e)) => {
                if let Err(why) = check_error(&text, &e) {
                    prop_assert!(false, "{why}: {e}\n{text}");
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(\\PC|[\\[\\]=\"\\n\\t\\r{}.,#])*") {
        match load(&text) {
            Err(panic) => prop_assert!(false, "panicked: {panic}\n{text:?}"),
            Ok(None) => {}
            Ok(Some(e)) => {
                if let Err(why) = check_error(&text, &e) {
                    prop_assert!(false, "{why}: {e}\n{text:?}");
                }
            }
        }
    }
}

