//! Source subnets, flow groups and their time series, and the ECN once-per-window switch:
//! the scenario machinery of reference document 002 (R. M. Arora, "TCP/IP Networks with
//! ECN over AQM", M.Eng. thesis, Carleton University, 2003: §1.1 subnets of 100 hosts
//! with per-subnet access delays, §1.5 throughput and goodput by subnet, §2.4 the ECN
//! response).

mod common;

use common::{f64_col, i64_col, run, series, str_col};
use tcpsim::RunResults;

/// A dumbbell whose `[dumbbell]` table holds `generator` (pairs or subnets), with
/// `flows` and `monitor` appended.
fn dumbbell(generator: &str, flows: &str) -> String {
    format!(
        r#"[simulation]
duration = "5s"

[dumbbell]
{generator}

[dumbbell.bottleneck]
rate = "5Mbps"
delay = "10ms"
queue = {{ kind = "red", limit = "60p", min_th = 5, max_th = 20, ecn = true }}

[dumbbell.access]
rate = "100Mbps"
delay = "2ms"
{flows}"#
    )
}

fn load(text: &str) -> tcpsim::Scenario {
    tcpsim::load_str(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

const ONE_FLOW: &str = "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n";

#[test]
fn subnets_generate_the_pairs_and_their_access_delays_in_order() {
    let sc = load(&dumbbell(
        "subnets = [{ hosts = 2, access_delay = \"10ms\" }, { hosts = 3, access_delay = \"30ms\", access_rate = \"50Mbps\" }, { hosts = 1 }]",
        ONE_FLOW,
    ));
    let names: Vec<&str> = sc.nodes.iter().collect();
    assert_eq!(names, ["r1", "r2", "s0", "d0", "s1", "d1", "s2", "d2", "s3", "d3", "s4", "d4", "s5", "d5"]);
    let ms = |ps: u64| ps as f64 / 1e9;
    let link = |a: &str, b: &str| {
        let (a, b) = (sc.node_index(a).unwrap(), sc.node_index(b).unwrap());
        sc.links.iter().find(|l| (l.a as usize, l.b as usize) == (a, b)).unwrap_or_else(|| panic!("no link {a}-{b}"))
    };
    // Source side: the subnet's delay and rate (the third subnet takes `access`'s).
    let source_side: Vec<(f64, u64)> = (0..6).map(|i| link(&format!("s{i}"), "r1")).map(|l| (ms(l.delay), l.rate_bps)).collect();
    assert_eq!(
        source_side,
        [(10.0, 100_000_000), (10.0, 100_000_000), (30.0, 50_000_000), (30.0, 50_000_000), (30.0, 50_000_000), (2.0, 100_000_000)]
    );
    // Sink side: `access` as given, for every pair.
    for i in 0..6 {
        let l = link("r2", &format!("d{i}"));
        assert_eq!((ms(l.delay), l.rate_bps), (2.0, 100_000_000), "r2-d{i}");
    }
}

#[test]
fn subnets_are_the_same_network_as_pairs_with_access_delays() {
    let subnets = load(&dumbbell("subnets = [{ hosts = 2, access_delay = \"1ms\" }, { hosts = 1, access_delay = \"7ms\" }]", ONE_FLOW));
    let pairs = load(&dumbbell("pairs = 3\naccess_delays = [\"1ms\", \"1ms\", \"7ms\"]", ONE_FLOW));
    assert_eq!(subnets.nodes, pairs.nodes);
    let shape = |sc: &tcpsim::Scenario| sc.links.iter().map(|l| (l.a, l.b, l.rate_bps, l.delay)).collect::<Vec<_>>();
    assert_eq!(shape(&subnets), shape(&pairs));
    // The array-of-tables spelling reads the same.
    let long_form = dumbbell(
        "",
        "[[dumbbell.subnets]]\nhosts = 2\naccess_delay = \"1ms\"\n\n[[dumbbell.subnets]]\nhosts = 1\naccess_delay = \"7ms\"\n\n[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
    );
    assert_eq!(shape(&load(&long_form)), shape(&pairs));
}

#[test]
fn group_names_expand_with_integer_division_and_remainder() {
    let flows = "[[flow]]\nname = \"f{i/2}_{i%2}\"\ncount = 5\nfrom = \"s{i}\"\nto = \"d{i}\"\ngroup = \"subnet{i/2}\"\n\n\
                 [[flow]]\nname = \"loner\"\nfrom = \"s0\"\nto = \"d1\"\n";
    let sc = load(&dumbbell("subnets = [{ hosts = 2 }, { hosts = 2 }, { hosts = 1 }]", flows));
    let names: Vec<&str> = sc.flows.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["f0_0", "f0_1", "f1_0", "f1_1", "f2_0", "loner"]);
    assert_eq!(sc.groups, ["subnet0", "subnet1", "subnet2"]);
    let groups: Vec<Option<&str>> = (0..sc.flows.len()).map(|i| sc.group_of(i)).collect();
    assert_eq!(groups, [Some("subnet0"), Some("subnet0"), Some("subnet1"), Some("subnet1"), Some("subnet2"), None]);
}

/// Three subnets of two hosts, one ECN-capable NewReno flow each, grouped by subnet;
/// `monitor` is the `[monitor]` table.
fn grouped(monitor: &str) -> String {
    dumbbell(
        "subnets = [{ hosts = 2, access_delay = \"1ms\" }, { hosts = 2, access_delay = \"20ms\" }, { hosts = 2, access_delay = \"40ms\" }]",
        &format!(
            "[[flow]]\nname = \"tcp{{i}}\"\ncount = 6\nfrom = \"s{{i}}\"\nto = \"d{{i}}\"\ngroup = \"subnet{{i/2}}\"\n\
             ecn = true\nmax_window = 1000\nstart_spacing = \"50ms\"\n\n{monitor}"
        ),
    )
}

fn entities(r: &RunResults) -> Vec<String> {
    let mut e = str_col(&r.timeseries, "entity").to_vec();
    e.sort();
    e.dedup();
    e
}

#[test]
fn group_series_are_the_sums_of_their_flows_series() {
    let r = run(&grouped("[monitor]\ninterval = \"100ms\"\nqueues = \"none\"\n"));
    for g in 0..3 {
        let group = format!("subnet{g}");
        let delivered = series(&r, &group, "delivered_bytes");
        assert_eq!(delivered.len(), 51, "a sample every 100 ms of 5 s, from 0");
        let members: Vec<Vec<(f64, f64)>> = (2 * g..2 * g + 2).map(|i| series(&r, &format!("tcp{i}"), "delivered_bytes")).collect();
        for (k, &(t, v)) in delivered.iter().enumerate() {
            let sum: f64 = members.iter().map(|m| m[k].1).sum();
            assert_eq!((t, v), (members[0][k].0, sum), "{group} at {t} s");
        }
        assert!(delivered.iter().map(|s| s.1).sum::<f64>() > 0.0);
        // received_bytes: every data packet on the wire that reached the receivers, so
        // its total is the flows' throughput (the flows table) over the run.
        let received: f64 = series(&r, &group, "received_bytes").iter().map(|s| s.1).sum();
        let names = str_col(&r.flows, "name");
        let throughput: f64 = (2 * g..2 * g + 2)
            .map(|i| names.iter().position(|n| *n == format!("tcp{i}")).unwrap())
            .map(|row| f64_col(&r.flows, "throughput_bps")[row] * (5.0 - f64_col(&r.flows, "start_s")[row]) / 8.0)
            .sum();
        assert!((received - throughput).abs() < 1e-6 * throughput, "{group}: {received} vs {throughput}");
        assert!(received >= delivered.iter().map(|s| s.1).sum::<f64>(), "wire bytes hold at least the payload");
    }
}

#[test]
fn groups_can_be_monitored_without_their_flows_and_chosen_by_name() {
    let both = run(&grouped("[monitor]\ninterval = \"100ms\"\nqueues = \"none\"\n"));
    let groups_only = run(&grouped("[monitor]\ninterval = \"100ms\"\nflows = \"none\"\nqueues = \"none\"\n"));
    assert_eq!(entities(&groups_only), ["subnet0", "subnet1", "subnet2"]);
    for g in ["subnet0", "subnet1", "subnet2"] {
        for m in ["delivered_bytes", "received_bytes"] {
            assert_eq!(series(&groups_only, g, m), series(&both, g, m), "{g} {m} does not depend on the flows being sampled");
        }
    }
    let one = run(&grouped("[monitor]\ninterval = \"100ms\"\nflows = \"none\"\nqueues = \"none\"\ngroups = [\"subnet1\"]\n"));
    assert_eq!(entities(&one), ["subnet1"]);
    let none = run(&grouped("[monitor]\ninterval = \"100ms\"\nqueues = \"none\"\ngroups = \"none\"\n"));
    assert!(entities(&none).iter().all(|e| e.starts_with("tcp")), "{:?}", entities(&none));
    // The cost estimate counts two series a monitored group.
    let estimate = |text: &str| {
        let sc = load(text);
        tcpsim::cost::samples(&sc)
    };
    let times = 51;
    assert_eq!(estimate(&grouped("[monitor]\ninterval = \"100ms\"\nflows = \"none\"\nqueues = \"none\"\n")), times * 3 * 2);
}

#[test]
fn the_flows_table_has_a_group_column_only_when_flows_have_groups() {
    let text = grouped("").replace("count = 6", "count = 5") + "[[flow]]\nname = \"plain\"\nfrom = \"s5\"\nto = \"d5\"\n";
    let r = run(&text);
    assert_eq!(str_col(&r.flows, "group"), ["subnet0", "subnet0", "subnet1", "subnet1", "subnet2", ""]);
    let columns: Vec<&str> = r.flows.columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(&columns[..5], ["name", "type", "from", "to", "group"]);
    let without = run(&dumbbell("pairs = 1", ONE_FLOW));
    assert!(without.flows.column("group").is_none(), "no group column without groups");
}

#[test]
fn without_once_per_window_an_ecn_flow_cuts_its_window_more_often() {
    // Six ECN-capable flows through a marking RED queue: the receiver echoes every mark
    // until CWR reaches it, so responding to each echo cuts several times per window.
    let once = run(&grouped(""));
    let every = run(&grouped("").replace("ecn = true\nmax_window", "ecn = true\necn_once_per_window = false\nmax_window"));
    let total = |r: &RunResults| i64_col(&r.flows, "ecn_reductions").iter().sum::<i64>();
    let (once_cuts, every_cuts) = (total(&once), total(&every));
    assert!(once_cuts > 0, "the queue marks");
    assert!(every_cuts > once_cuts, "every echo: {every_cuts} reductions; once per window: {once_cuts}");
    // The default is the rule.
    let explicit = run(&grouped("").replace("ecn = true\nmax_window", "ecn = true\necn_once_per_window = true\nmax_window"));
    assert_eq!(explicit.flows, once.flows);
}

#[test]
fn a_thousand_flows_in_ten_groups_sample_cheaply() {
    // Document 002's largest case: 10 subnets of 100 hosts, 10 ms samples of the
    // bottleneck queue and the 10 groups, no per-flow series. 1 s here (the estimate
    // scales with the duration): 101 sample times x (10 groups x 2 + the queue's 8).
    let subnets: Vec<String> = (0..10).map(|k| format!("{{ hosts = 100, access_delay = \"{}ms\" }}", 10 + 5 * k)).collect();
    let text = dumbbell(
        &format!("subnets = [{}]", subnets.join(", ")),
        "[[flow]]\nname = \"tcp{i}\"\ncount = 1000\nfrom = \"s{i}\"\nto = \"d{i}\"\ngroup = \"subnet{i/100}\"\n\n\
         [monitor]\ninterval = \"10ms\"\nflows = \"none\"\nqueues = [\"r1->r2\"]\n",
    )
    .replace("duration = \"5s\"", "duration = \"1s\"");
    let sc = load(&text);
    assert_eq!(sc.groups.len(), 10);
    assert_eq!(tcpsim::cost::samples(&sc), 101 * (10 * 2 + 8));
    let r = run(&text);
    let rows_of = |entity: &str| str_col(&r.timeseries, "entity").iter().filter(|e| *e == entity).count();
    let group_rows: usize = (0..10).map(|k| rows_of(&format!("subnet{k}"))).sum();
    assert_eq!(group_rows, 101 * 10 * 2);
    // The queue's sojourn_s has no sample while nothing leaves (at 0 s at least).
    assert!((101 * 7..101 * 8).contains(&rows_of("r1->r2")), "{}", rows_of("r1->r2"));
    assert_eq!(r.timeseries.rows(), group_rows + rows_of("r1->r2"));
}
