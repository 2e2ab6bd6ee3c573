//! Changes to links during a run (`[[event]]`, `[routing]`): the rules of each change,
//! packet by packet from the run's ns-2 trace, and what they do to flows.
//!
//! The rules follow ns-2.35 (docs/ns2-semantics.md, section 11): a link that goes down
//! drops what it holds (queue, transmission, propagation) with a `d` line and every later
//! arrival untraced; a rate change acts from the next packet; a delay change acts on
//! packets that start after it, so after a decrease a packet may overtake earlier ones.

mod common;

use common::{f64_col, i64_col, link, series, str_col};
use std::path::PathBuf;
use tcpsim::RunResults;

/// One ns-2 trace line: op, time, from node, to node, packet uid.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Line {
    op: char,
    t: f64,
    from: u32,
    to: u32,
    uid: u64,
}

/// Runs `text` with an ns-2 trace of every link; returns the results, the packet lines
/// and the `v` lines.
fn run_traced(text: &str, name: &str) -> (RunResults, Vec<Line>, Vec<String>) {
    let dir: PathBuf = std::env::temp_dir().join(format!("tcpsim-link-events-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!("{text}\n[trace]\nns2 = \"all\"\n");
    let scenario = tcpsim::load_str(&text, "test.toml").unwrap_or_else(|e| panic!("{e}"));
    let results = tcpsim::run_in(&scenario, Some(&dir), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let trace = std::fs::read_to_string(dir.join("traces").join("trace.tr")).expect("trace written");
    let _ = std::fs::remove_dir_all(&dir);
    let mut lines = Vec::new();
    let mut states = Vec::new();
    for l in trace.lines() {
        if l.starts_with("v ") {
            states.push(l.to_string());
            continue;
        }
        let f: Vec<&str> = l.split(' ').collect();
        lines.push(Line {
            op: f[0].chars().next().unwrap(),
            t: f[1].parse().unwrap(),
            from: f[2].parse().unwrap(),
            to: f[3].parse().unwrap(),
            uid: f[11].parse().unwrap(),
        });
    }
    (results, lines, states)
}

/// s – r1 – r2 – d (node ids 0, 1, 2, 3), 100 Mb/s, 0.01 ms access links, r1 – r2 at
/// `rate` / `delay` with a 1000-packet DropTail queue; one CBR flow s → d of 1000-byte
/// packets at `cbr_rate`; the `[[event]]` tables `events`.
fn chain_with_cbr(rate: &str, delay: &str, cbr_rate: &str, duration: &str, events: &str) -> String {
    let big = r#"{ kind = "droptail", limit = "1000p" }"#;
    format!(
        "[simulation]\nduration = \"{duration}\"\n\n[network]\nnodes = [\"s\", \"r1\", \"r2\", \"d\"]\n\n{}{}{}\
         [[flow]]\nname = \"cbr\"\ntype = \"cbr\"\nfrom = \"s\"\nto = \"d\"\nrate = \"{cbr_rate}\"\npacket_size = \"1000B\"\n\n{events}",
        link("s", "r1", "100Mbps", "0.01ms", big),
        link("r1", "r2", rate, delay, big),
        link("r2", "d", "100Mbps", "0.01ms", big),
    )
}

fn event(at: &str, link: &str, action: &str, value: &str) -> String {
    let value = if value.is_empty() { String::new() } else { format!("value = \"{value}\"\n") };
    format!("[[event]]\nat = \"{at}\"\nlink = \"{link}\"\naction = \"{action}\"\n{value}\n")
}

fn link_row(r: &RunResults, name: &str) -> usize {
    str_col(&r.links, "link").iter().position(|l| l == name).unwrap_or_else(|| panic!("no link {name}"))
}

const R1: u32 = 1;
const R2: u32 = 2;

#[test]
fn a_link_going_down_drops_what_it_holds_and_everything_that_reaches_it() {
    // 2 Mb/s of CBR into a 1 Mb/s link with 50 ms of delay: at 1.0013 s a queue has
    // built up, one packet is being sent and several propagate.
    let (down, up) = (1.0013, 2.0013);
    let events = event("1.0013s", "r1->r2", "down", "") + &event("2.0013s", "r1->r2", "up", "");
    let (r, lines, states) = run_traced(&chain_with_cbr("1Mbps", "50ms", "2Mbps", "3s", &events), "down");
    let on_link = |l: &&Line| l.from == R1 && l.to == R2;
    // Held at the moment it went down: offered before, not yet arrived at r2.
    let held: Vec<u64> = lines
        .iter()
        .filter(on_link)
        .filter(|l| l.op == '+' && l.t < down)
        .map(|l| l.uid)
        .filter(|&uid| !lines.iter().any(|l| on_link(&l) && l.op == 'r' && l.uid == uid && l.t <= down))
        .collect();
    let propagating = held.iter().filter(|&&uid| lines.iter().any(|l| on_link(&l) && l.op == '-' && l.uid == uid)).count();
    assert!(propagating >= 3, "the test needs packets on the wire, found {propagating}");
    assert!(held.len() > propagating + 10, "the test needs a queue, held {}", held.len());
    let mut dropped: Vec<u64> = lines.iter().filter(on_link).filter(|l| l.op == 'd').map(|l| l.uid).collect();
    dropped.sort_unstable();
    let mut held_sorted = held.clone();
    held_sorted.sort_unstable();
    assert_eq!(dropped, held_sorted, "every held packet gets one d line");
    assert!(lines.iter().filter(on_link).filter(|l| l.op == 'd').all(|l| l.t == down));
    // While down nothing enters, leaves or arrives on the link: arrivals at r1 are
    // dropped before the queue, untraced (ns-2.35's DynamicLink frees them).
    assert!(!lines.iter().filter(on_link).any(|l| l.t > down && l.t < up));
    let reached_r1 = lines.iter().filter(|l| l.op == 'r' && l.to == R1 && l.t >= down && l.t < up).count();
    assert!(reached_r1 > 200, "CBR keeps arriving: {reached_r1}");
    let row = link_row(&r, "r1->r2");
    assert_eq!(i64_col(&r.links, "down_drops")[row] as usize, held.len() + reached_r1);
    assert_eq!(i64_col(&r.links, "down_drops")[link_row(&r, "r2->r1")], 0, "no ACKs on the reverse direction");
    // Back up: packets flow again.
    assert!(lines.iter().filter(on_link).any(|l| l.op == 'r' && l.t > up));
    // ns-2's link state lines, to->from first as rtmodel-at writes them, the time as Tcl
    // prints ns-2's clock.
    assert_eq!(
        states,
        [
            "v 1.0013000000000001 link-down 2 1",
            "v 1.0013000000000001 link-down 1 2",
            "v 2.0013000000000001 link-up 2 1",
            "v 2.0013000000000001 link-up 1 2"
        ]
    );
}

/// For each packet on r1 → r2 that started transmission before `until` (so that it
/// arrives before the run ends): when it started and when it arrived.
fn sent_and_arrived(lines: &[Line], until: f64) -> Vec<(f64, f64)> {
    let on_link = |l: &&Line| l.from == R1 && l.to == R2;
    lines
        .iter()
        .filter(on_link)
        .filter(|l| l.op == '-' && l.t < until)
        .map(|s| {
            let r = lines.iter().filter(on_link).find(|l| l.op == 'r' && l.uid == s.uid).expect("every packet arrives");
            (s.t, r.t)
        })
        .collect()
}

#[test]
fn a_rate_change_takes_effect_from_the_next_packet() {
    // 1000-byte CBR packets every 16 ms into a 1 Mb/s link: the packet that starts at
    // 0.992 s (plus the access link's 0.1 ms) takes 8 ms, and the change at 0.996 s falls
    // in the middle of it. (Its size on the wire is read from the trace.)
    let at = 0.996;
    let (_, lines, _) = run_traced(&chain_with_cbr("1Mbps", "10ms", "0.5Mbps", "2s", &event("0.996s", "r1->r2", "rate", "2Mbps")), "rate");
    let size_bits = {
        let l = lines.iter().find(|l| l.op == '-' && l.from == R1).unwrap();
        let (s, r) = sent_and_arrived(&lines, 1.9).into_iter().find(|&(s, _)| s == l.t).unwrap();
        ((r - s - 0.010) * 1e6).round() // at 1 Mb/s, microseconds = bits
    };
    let mut mid = 0;
    for (sent, arrived) in sent_and_arrived(&lines, 1.9) {
        let old = size_bits / 1e6;
        let transmission = arrived - sent - 0.010;
        if sent < at {
            assert!((transmission - old).abs() < 1e-9, "sent at {sent}: {transmission} s, expected the old rate's {old}");
            if sent + old > at {
                mid += 1;
            }
        } else {
            let new = size_bits / 2e6;
            assert!((transmission - new).abs() < 1e-9, "sent at {sent}: {transmission} s, expected the new rate's {new}");
        }
    }
    assert_eq!(mid, 1, "one packet was being sent when the rate changed");
}

#[test]
fn a_delay_change_acts_on_packets_sent_after_it_and_a_shorter_one_lets_them_overtake() {
    // 1 Mb/s of CBR (a packet every 8 ms) over 10 Mb/s with 100 ms of delay; at 1.0025 s
    // the delay falls to 10 ms: a dozen packets are on the wire, and the next one sent
    // arrives before them.
    let at = 1.0025;
    let (r, lines, _) = run_traced(&chain_with_cbr("10Mbps", "100ms", "1Mbps", "2s", &event("1.0025s", "r1->r2", "delay", "10ms")), "delay");
    let pairs = sent_and_arrived(&lines, 1.8);
    let transmission = pairs[0].1 - pairs[0].0 - 0.100;
    for &(sent, arrived) in &pairs {
        let delay = if sent < at { 0.100 } else { 0.010 };
        assert!((arrived - sent - transmission - delay).abs() < 1e-9, "sent at {sent}, arrived at {arrived}");
    }
    // Arrivals at r2, in trace order: their send times go back in time once (overtaking).
    let arrivals: Vec<f64> = lines
        .iter()
        .filter(|l| l.op == 'r' && l.from == R1 && l.to == R2)
        .filter_map(|r| pairs.iter().find(|&&(_, a)| a == r.t).map(|&(sent, _)| sent))
        .collect();
    // A packet every 8 ms is sent at the new delay, 90 ms shorter, while the dozen sent
    // before the change are still on the wire: each of the first ten or so arrives among them.
    let overtaking = arrivals.windows(2).filter(|w| w[1] < w[0]).count();
    assert!((10..=12).contains(&overtaking), "{overtaking} arrivals come before packets sent earlier");
    let first_after = pairs.iter().find(|&&(sent, _)| sent >= at).unwrap();
    let last_before = pairs.iter().rev().find(|&&(sent, _)| sent < at).unwrap();
    assert!(first_after.1 < last_before.1, "the first packet sent after the change overtakes the last one before it");
    // Nothing is lost: every packet sent arrives, each once.
    assert_eq!(i64_col(&r.flows, "drops")[0], 0);
    let mut arrived: Vec<u64> = lines.iter().filter(|l| l.op == 'r' && l.from == R1).map(|l| l.uid).collect();
    let count = arrived.len();
    arrived.sort_unstable();
    arrived.dedup();
    assert_eq!(arrived.len(), count, "no packet arrives twice");
}

#[test]
fn a_link_going_down_after_a_delay_decrease_drops_its_wire_in_a_fixed_order() {
    // As above, then at 1.03 s the link goes down: on its wire are the nine packets sent
    // before the decrease (due from 1.036 s to 1.10 s) and the one sent at 1.024 s after
    // it, due at 1.035 s, before all of them. The `d` lines of the wire: first those sent
    // before the decrease, in order of arrival, then those sent after it.
    let events = event("1.0025s", "r1->r2", "delay", "10ms") + &event("1.03s", "r1->r2", "down", "");
    let (_, lines, _) = run_traced(&chain_with_cbr("10Mbps", "100ms", "1Mbps", "1.2s", &events), "delay-down");
    let sent_at = |uid: u64| lines.iter().find(|l| l.op == '-' && l.from == R1 && l.uid == uid).map(|l| l.t).unwrap();
    let dropped: Vec<f64> = lines.iter().filter(|l| l.op == 'd' && l.from == R1 && l.t == 1.03).map(|l| sent_at(l.uid)).collect();
    let before: Vec<f64> = dropped.iter().copied().filter(|&t| t < 1.0025).collect();
    let after: Vec<f64> = dropped.iter().copied().filter(|&t| t >= 1.0025).collect();
    assert!(before.len() >= 8 && !after.is_empty(), "{dropped:?}");
    assert_eq!(dropped, [before.clone(), after.clone()].concat(), "those sent before the decrease first");
    assert!(before.windows(2).all(|w| w[0] < w[1]) && after.windows(2).all(|w| w[0] < w[1]), "{dropped:?}");
}

/// The diamond of examples/link_failover.toml, with `routing` and only the failure of
/// r1 – a between 4 s and 8 s; measured over [measure_from, 20 s].
fn diamond(routing: &str, measure_from: &str) -> RunResults {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/link_failover.toml")).unwrap();
    let text = text
        .replace("mode = \"dynamic\"", &format!("mode = \"{routing}\""))
        .replace("duration = \"20s\"", &format!("duration = \"20s\"\nmeasure_from = \"{measure_from}\""));
    // Only the failure: the rate events start at the first event table after "up".
    let cut = text.find("# A bandwidth change").expect("the example's rate events");
    let monitor = text.find("[monitor]").unwrap();
    let text = format!("{}{}", &text[..cut], &text[monitor..]);
    common::run(&text)
}

#[test]
fn failover_reroutes_with_dynamic_routing_and_stalls_with_static() {
    let dynamic = diamond("dynamic", "0s");
    let stat = diamond("static", "0s");
    for r in [&dynamic, &stat] {
        assert!(i64_col(&r.links, "down_drops")[link_row(r, "r1->a")] > 0, "the failure drops what r1->a held");
    }
    // Dynamic: the flow moves to b at once and keeps its goodput through the outage.
    let via_b = i64_col(&dynamic.links, "packets_sent")[link_row(&dynamic, "r1->b")];
    assert!(via_b > 1000, "dynamic routing sends over b during the outage: {via_b}");
    let delivered = |r: &RunResults, from: f64, to: f64| {
        series(r, "bulk", "delivered_bytes").iter().filter(|&&(t, _)| t >= from && t < to).map(|&(_, v)| v).sum::<f64>()
    };
    // (It loses the window the link held and recovers by a timeout, then grows again.)
    let outage = delivered(&dynamic, 5.0, 8.0) * 8.0 / 3.0;
    assert!(outage > 2e6, "over b the flow goes on: {outage} b/s");
    // Static: every packet is dropped at r1->a; nothing is delivered until it is back.
    assert_eq!(i64_col(&stat.links, "packets_sent")[link_row(&stat, "r1->b")], 0);
    // (The sample at 4.1 s still counts packets past the failed link at 4 s.)
    assert_eq!(delivered(&stat, 4.15, 8.0), 0.0, "the flow stalls while the route is down");
    assert!(delivered(&stat, 10.0, 20.0) > 0.0, "and resumes after the repair");
    let row = link_row(&stat, "r1->a");
    assert!(i64_col(&stat.links, "down_drops")[row] > i64_col(&dynamic.links, "down_drops")[row], "retransmissions die at the down link");
    // After the repair dynamic routing goes back to a (the lower id): nothing over b.
    let later = diamond("dynamic", "9s");
    assert_eq!(i64_col(&later.links, "packets_sent")[link_row(&later, "r1->b")], 0);
    assert!(f64_col(&later.links, "utilization")[link_row(&later, "r1->a")] > 0.5);
}

#[test]
fn dynamic_routing_keeps_the_route_to_an_unreachable_destination() {
    // A chain has no other path: ns-2's Session routing adds only the routes it finds, so
    // packets still go to the down link and are dropped there, as with static routing.
    let events = event("1s", "r1->r2", "down", "") + &event("2s", "r1->r2", "up", "");
    let text = chain_with_cbr("10Mbps", "10ms", "1Mbps", "3s", &events);
    let stat = common::run(&text);
    let dynamic = common::run(&format!("{text}\n[routing]\nmode = \"dynamic\"\n"));
    for r in [&stat, &dynamic] {
        let row = link_row(r, "r1->r2");
        // 1 s of 1 Mb/s CBR in 1000-byte packets (125 a second), plus those on the link.
        let dropped = i64_col(&r.links, "down_drops")[row];
        assert!((125..=130).contains(&dropped), "{dropped}");
        assert_eq!(i64_col(&r.flows, "drops")[0], dropped, "the flow's drops count them");
    }
    assert_eq!(i64_col(&stat.links, "down_drops"), i64_col(&dynamic.links, "down_drops"));
}

#[test]
fn throughput_follows_a_rate_halving_and_doubling() {
    let text = format!(
        "[simulation]\nduration = \"30s\"\n\n{}\
         [[flow]]\nname = \"f\"\nfrom = \"s\"\nto = \"d\"\nmax_window = 1000\n\n{}{}[monitor]\ninterval = \"100ms\"\n",
        common::chain("100Mbps", "1ms", "", "10Mbps", "10ms", r#"{ kind = "droptail", limit = "50p" }"#),
        event("10s", "r1->r2", "rate", "5Mbps"),
        event("20s", "r1->r2", "rate", "10Mbps"),
    );
    let r = common::run(&text);
    let rate = |from: f64, to: f64| {
        series(&r, "f", "delivered_bytes").iter().filter(|&&(t, _)| t > from && t <= to).map(|&(_, v)| v).sum::<f64>() * 8.0 / (to - from)
    };
    let (before, halved, doubled) = (rate(3.0, 10.0), rate(12.0, 20.0), rate(23.0, 30.0));
    // Payload of 1000 of every 1040 bytes on the wire: at most 96 % of the link rate.
    for (got, link) in [(before, 10e6), (halved, 5e6), (doubled, 10e6)] {
        assert!(got > 0.85 * link && got < 0.962 * link, "goodput {got} b/s on a {link} b/s link");
    }
}

#[test]
fn a_scenario_without_events_runs_as_before() {
    // No [[event]]: no link has a head, routes are the plan's.
    let text = chain_with_cbr("1Mbps", "10ms", "0.5Mbps", "1s", "");
    let r = common::run(&text);
    assert!(i64_col(&r.links, "down_drops").iter().all(|&d| d == 0));
}

fn load_error(text: &str) -> String {
    tcpsim::load_str(text, "ev.toml").expect_err("the scenario is refused").to_string()
}

#[test]
fn bad_events_name_file_line_key_and_what_was_expected() {
    let base = chain_with_cbr("1Mbps", "10ms", "0.5Mbps", "2s", "");
    let cases: &[(&str, &str)] = &[
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r9\"\naction = \"down\"\n", "key 'event[0].link': unknown node \"r9\""),
        ("[[event]]\nat = \"1s\"\nlink = \"s->d\"\naction = \"down\"\n", "key 'event[0].link': no link joins \"s\" and \"d\""),
        ("[[event]]\nat = \"1s\"\nlink = \"r1\"\naction = \"down\"\n", "key 'event[0].link': expected a link named \"from->to\""),
        ("[[event]]\nat = \"3s\"\nlink = \"r1->r2\"\naction = \"down\"\n", "key 'event[0].at': expected a time within the run (0 to the duration, 2 s), got 3 s"),
        ("[[event]]\nat = \"-1s\"\nlink = \"r1->r2\"\naction = \"down\"\n", "key 'event[0].at': expected a time"),
        ("[[event]]\nlink = \"r1->r2\"\naction = \"down\"\n", "key 'event[0]': missing key 'at'"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"fail\"\n", "key 'event[0].action': expected one of 'rate', 'delay', 'down', 'up', got \"fail\""),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\n", "key 'event[0]': missing key 'action'"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"rate\"\n", "key 'event[0]': missing key 'value': expected for action \"rate\", a rate"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"rate\"\nvalue = \"0Mbps\"\n", "key 'event[0].value': expected a rate greater than zero"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"rate\"\nvalue = \"10ms\"\n", "key 'event[0].value': expected a rate"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"delay\"\nvalue = \"5Mbps\"\n", "key 'event[0].value': expected a time"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"down\"\nvalue = \"1s\"\n", "key 'event[0].value': action \"down\" takes no value"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"down\"\ndirection = \"back\"\n", "key 'event[0].direction': expected one of 'both', 'forward'"),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"down\"\nwhen = 1\n", "key 'event[0].when': unknown key"),
        ("[routing]\nmode = \"ospf\"\n", "key 'routing.mode': expected one of 'static', 'dynamic', got \"ospf\""),
        ("[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"rate\"\nvalue = \"1e17bps\"\n", "key 'event[0].value': expected a rate between"),
    ];
    for (extra, expected) in cases {
        let text = format!("{base}\n{extra}");
        let message = load_error(&text);
        assert!(message.starts_with("ev.toml, line "), "{message}");
        assert!(message.contains(expected), "for\n{extra}\ngot: {message}\nexpected: {expected}");
    }
    // A rate at which the smallest packet (a TCP flow's 40-byte ACK) takes under 1 ps.
    let tcp = format!(
        "[simulation]\nduration = \"2s\"\n\n{}[[flow]]\nname = \"f\"\nfrom = \"s\"\nto = \"d\"\n\n{}",
        common::chain("10Mbps", "1ms", "", "1Mbps", "1ms", ""),
        event("1s", "r1->r2", "rate", "1000Tbps")
    );
    assert!(load_error(&tcp).contains("key 'event[0].value': expected a rate at which a 40 B packet takes at least 1 ps to send"), "{}", load_error(&tcp));
    // The line is the event's own.
    let text = format!("{base}\n[[event]]\nat = \"1s\"\nlink = \"r1->r2\"\naction = \"fail\"\n");
    let line = text.lines().position(|l| l.starts_with("action = \"fail\"")).unwrap() + 1;
    assert!(load_error(&text).starts_with(&format!("ev.toml, line {line}, key 'event[0].action'")));
}
