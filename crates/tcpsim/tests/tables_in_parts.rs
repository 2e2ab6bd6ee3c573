//! A finished run gives its result tables a range of rows at a time
//! (`tcpsim::run_to_end_in`, which `tcpsim-run --csv` writes from part by part, so that a
//! million flows' tables are never held whole beside the simulation): the parts, put
//! together, are the whole tables `tcpsim::run` returns, cell for cell.

use tcpsim::{Column, Table};

/// Two flow tables: Reno + γ flows (which record `gamma` and its RTT range) after plain
/// Reno flows, so the recorded columns appear only from the middle of the flows on; with
/// a measurement window and groups (the optional `group` column).
const SCENARIO: &str = r#"
[simulation]
duration = "3s"
seed = 7
measure_from = "1s"

[dumbbell]
pairs = 7

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "20ms"
queue = { kind = "red", limit = "60p" }

[dumbbell.access]
rate = "100Mbps"
delay = "2ms"

[[flow]]
name = "reno{i}"
count = 4
from = "s{i}"
to = "d{i}"
group = "g{i%2}"
start_spacing = "50ms"

[[flow]]
name = "gamma{i}"
count = 3
from = "s{i+4}"
to = "d{i+4}"
cc = "reno_gamma"
receiver = "delayed"
start_spacing = "50ms"
"#;

/// The rows of `parts` put together, column by column.
fn joined(parts: Vec<Table>) -> Table {
    let mut whole = Table::new();
    for (name, first) in &parts[0].columns {
        let mut column = match first {
            Column::F64(_) => Column::F64(Vec::new()),
            Column::I64(_) => Column::I64(Vec::new()),
            Column::Str(_) => Column::Str(Vec::new()),
        };
        for part in &parts {
            match (&mut column, part.column(name).expect("every part has every column")) {
                (Column::F64(all), Column::F64(v)) => all.extend_from_slice(v),
                (Column::I64(all), Column::I64(v)) => all.extend_from_slice(v),
                (Column::Str(all), Column::Str(v)) => all.extend_from_slice(v),
                (all, v) => panic!("column {name}: {all:?} then {v:?}"),
            }
        }
        whole.push(name, column);
    }
    whole
}

#[test]
fn the_tables_in_parts_are_the_whole_tables() {
    let scenario = tcpsim::load_str(SCENARIO, "parts.toml").unwrap_or_else(|e| panic!("{e}"));
    let whole = tcpsim::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
    let finished = tcpsim::run_to_end_in(&scenario, None, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((finished.flow_count(), finished.link_count()), (7, 2 * 15));
    assert!(whole.flows.column("gamma_count").is_some() && whole.flows.column("group").is_some());

    // Parts of 3 flows: the first has no Reno + γ flow, yet has its columns (NaN).
    let flows = joined(vec![finished.flows(0..3), finished.flows(3..3), finished.flows(3..6), finished.flows(6..7)]);
    assert_eq!(flows.to_csv(), whole.flows.to_csv());
    let queues = joined(vec![finished.queues(0..11), finished.queues(11..30)]);
    assert_eq!(queues.to_csv(), whole.queues.to_csv());
    let links = joined(vec![finished.links(0..1), finished.links(1..30)]);
    assert_eq!(links.to_csv(), whole.links.to_csv());

    let mut summary = finished.summary();
    let mut expected = whole.summary.clone();
    for s in [&mut summary, &mut expected] {
        s.as_object_mut().unwrap().remove("wall_seconds");
    }
    assert_eq!(summary, expected);
}
