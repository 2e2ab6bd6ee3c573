//! Helpers shared by scenario tests: run a scenario text, read the time series and the
//! flows table, and reference document 001's Topology A.

#![allow(dead_code)]

use tcpsim::{Column, RunResults};

pub fn run(text: &str) -> RunResults {
    let scenario = tcpsim::load_str(text, "test.toml").unwrap_or_else(|e| panic!("{e}"));
    tcpsim::run(&scenario).unwrap_or_else(|e| panic!("{e}"))
}

pub fn column<'a>(t: &'a tcpsim::Table, name: &str) -> &'a Column {
    t.column(name).unwrap_or_else(|| panic!("no column {name}"))
}

/// (time, value) samples of one entity's metric.
pub fn series(r: &RunResults, entity: &str, metric: &str) -> Vec<(f64, f64)> {
    let t = &r.timeseries;
    let (Column::F64(times), Column::Str(entities), Column::Str(metrics), Column::F64(values)) =
        (column(t, "time_s"), column(t, "entity"), column(t, "metric"), column(t, "value"))
    else {
        panic!("unexpected time-series column types")
    };
    (0..times.len()).filter(|&i| entities[i] == entity && metrics[i] == metric).map(|i| (times[i], values[i])).collect()
}

/// A float column of a table.
pub fn f64_col<'a>(t: &'a tcpsim::Table, name: &str) -> &'a [f64] {
    match column(t, name) {
        Column::F64(v) => v,
        other => panic!("column {name}: {other:?}"),
    }
}

/// An integer column of a table.
pub fn i64_col<'a>(t: &'a tcpsim::Table, name: &str) -> &'a [i64] {
    match column(t, name) {
        Column::I64(v) => v,
        other => panic!("column {name}: {other:?}"),
    }
}

/// A text column of a table.
pub fn str_col<'a>(t: &'a tcpsim::Table, name: &str) -> &'a [String] {
    match column(t, name) {
        Column::Str(v) => v,
        other => panic!("column {name}: {other:?}"),
    }
}

/// A number of the flows table, by flow row.
pub fn flow_number(r: &RunResults, row: usize, name: &str) -> f64 {
    match column(&r.flows, name) {
        Column::F64(v) => v[row],
        Column::I64(v) => v[row] as f64,
        other => panic!("column {name}: {other:?}"),
    }
}

/// Mean of the samples with `from <= t < to`.
pub fn mean_between(samples: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let v: Vec<f64> = samples.iter().filter(|&&(t, _)| t >= from && t < to).map(|&(_, v)| v).collect();
    assert!(!v.is_empty(), "no samples in [{from}, {to})");
    v.iter().sum::<f64>() / v.len() as f64
}

/// A `[[link]]` table; `queue` is a TOML value, or empty for the default queue.
pub fn link(from: &str, to: &str, rate: &str, delay: &str, queue: &str) -> String {
    let queue = if queue.is_empty() { String::new() } else { format!("queue = {queue}\n") };
    format!("[[link]]\nfrom = \"{from}\"\nto = \"{to}\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\n{queue}\n")
}

/// The four-node chain s – r1 – r2 – d: its `[network]` table and three `[[link]]`
/// tables. Both access links get `access_rate`, `access_delay` and `access_queue`; the
/// r1 – r2 bottleneck its own rate, delay and queue (queues as in [`link`]).
pub fn chain(access_rate: &str, access_delay: &str, access_queue: &str, rate: &str, delay: &str, queue: &str) -> String {
    format!(
        "[network]\nnodes = [\"s\", \"r1\", \"r2\", \"d\"]\n\n{}{}{}",
        link("s", "r1", access_rate, access_delay, access_queue),
        link("r1", "r2", rate, delay, queue),
        link("r2", "d", access_rate, access_delay, access_queue)
    )
}

/// Reference document 001 Topology A (Fig. 6): sources s1, s2 on 1 Gb/s / 1 ms access
/// links to r1, a C_b / 48 ms bottleneck r1 -> r2 (100 ms round-trip propagation), and
/// destinations d1, d2; buffers large enough for no loss (10000 packets). `flows` is the
/// scenario's [[flow]] tables.
pub fn topology_a(bottleneck: &str, duration: &str, flows: &str) -> String {
    let mut links = String::new();
    for (a, b, rate, delay) in [
        ("s1", "r1", "1Gbps", "1ms"),
        ("s2", "r1", "1Gbps", "1ms"),
        ("r1", "r2", bottleneck, "48ms"),
        ("r2", "d1", "1Gbps", "1ms"),
        ("r2", "d2", "1Gbps", "1ms"),
    ] {
        links.push_str(&format!(
            "[[link]]\nfrom = \"{a}\"\nto = \"{b}\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\nqueue = {{ kind = \"droptail\", limit = \"10000p\" }}\n\n"
        ));
    }
    format!(
        "[simulation]\nduration = \"{duration}\"\n\n[network]\nnodes = [\"s1\", \"s2\", \"r1\", \"r2\", \"d1\", \"d2\"]\n\n{links}{flows}\n[monitor]\ninterval = \"10ms\"\n"
    )
}

/// A bulk TCP flow from s<i> to d<i> with 1000-byte packets (ns-2: no header on top for
/// Vegas, whose `output` adds none), no window limit and no SYN (reference document 001
/// Fig. 1 settings), with congestion control `cc` (TOML) and extra keys.
pub fn tcp_flow(name: &str, i: u32, cc: &str, extra: &str) -> String {
    format!(
        "[[flow]]\nname = \"{name}\"\nfrom = \"s{i}\"\nto = \"d{i}\"\ncc = {cc}\npacket_size = \"1000B\"\nheader_size = \"0B\"\nsyn = false\nmax_window = 20000\n{extra}\n\n"
    )
}

/// A CBR flow from s<i> to d<i> at `rate` with 1000-byte packets between `start` and `stop`.
pub fn cbr_flow(i: u32, rate: &str, start: &str, stop: &str) -> String {
    format!("[[flow]]\nname = \"cbr\"\ntype = \"cbr\"\nfrom = \"s{i}\"\nto = \"d{i}\"\nrate = \"{rate}\"\npacket_size = \"1000B\"\nstart = \"{start}\"\nstop = \"{stop}\"\n\n")
}
