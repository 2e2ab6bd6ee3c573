//! Packet traces written by a run (`[trace]`), checked against the simulator's own
//! counters, and the pcap files read back with the real `tshark`.
//!
//! The tshark test skips when tshark is not installed, unless `CI` is set: CI installs it
//! (`.ci/run`), so there a missing tshark is a failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use tcpsim::{Column, RunResults};

/// Two ECN-capable NewReno flows and a CBR flow over a 2 Mb/s DropTail bottleneck small
/// enough to drop; traces of the bottleneck in both formats and of one receiving node.
const SCENARIO: &str = r#"
[simulation]
duration = "5s"

[dumbbell]
pairs = 3

[dumbbell.bottleneck]
rate = "2Mbps"
delay = "10ms"
queue = { kind = "droptail", limit = "15p" }

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[[flow]]
name = "tcp{i}"
count = 2
from = "s{i}"
to = "d{i}"
ecn = true
max_window = 100

[[flow]]
name = "voice"
type = "cbr"
from = "s2"
to = "d2"
rate = "200Kbps"
packet_size = "200B"

[trace]
dir = "tr"
ns2 = "all"
pcap_links = ["r1->r2"]
pcap_nodes = ["d0"]
"#;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcpsim-trace-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_into(dir: &Path) -> RunResults {
    let scenario = tcpsim::load_str(SCENARIO, "traces.toml").unwrap_or_else(|e| panic!("{e}"));
    tcpsim::run_in(&scenario, Some(dir), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

fn i64_at(t: &tcpsim::Table, column: &str, key_column: &str, key: &str) -> i64 {
    let Some(Column::Str(keys)) = t.column(key_column) else { panic!("{key_column}") };
    let row = keys.iter().position(|k| k == key).unwrap_or_else(|| panic!("{key} not in {key_column}"));
    match t.column(column) {
        Some(Column::I64(v)) => v[row],
        other => panic!("{column}: {other:?}"),
    }
}

#[test]
fn ns2_trace_lines_agree_with_the_queue_and_link_counters() {
    let dir = out_dir("ns2");
    let r = run_into(&dir);
    let text = std::fs::read_to_string(dir.join("tr/trace.tr")).expect("trace.tr written");
    // Node numbers are the declaration order: r1 = 0, r2 = 1.
    let mut counts: HashMap<(String, String, String), i64> = HashMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 12, "ns-2 trace lines have 12 columns: {line}");
        *counts.entry((f[0].to_string(), f[2].to_string(), f[3].to_string())).or_default() += 1;
    }
    let at = |op: &str| counts.get(&(op.to_string(), "0".into(), "1".into())).copied().unwrap_or(0);
    let (arrivals, drops, sent) = (
        i64_at(&r.queues, "arrivals", "queue", "r1->r2"),
        i64_at(&r.queues, "overflow_drops", "queue", "r1->r2"),
        i64_at(&r.links, "packets_sent", "link", "r1->r2"),
    );
    assert!(drops > 0, "the scenario should drop at the bottleneck");
    assert_eq!(at("+"), arrivals);
    assert_eq!(at("d"), drops);
    assert_eq!(at("-"), sent);
    // Every packet that left arrives 10 ms + its transmission later, except the last few.
    assert!(sent - at("r") >= 0 && sent - at("r") < 10, "received {} of {sent}", at("r"));
    let summary_files = r.summary["trace_files"].as_array().expect("trace files listed").len();
    assert_eq!(summary_files, 3, "trace.tr, r1-r2.pcap, node-d0.pcap");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tracing_changes_no_result() {
    let dir = out_dir("same");
    let traced = run_into(&dir);
    let plain_text = SCENARIO.split("[trace]").next().unwrap();
    let plain = tcpsim::run(&tcpsim::load_str(plain_text, "plain.toml").unwrap()).unwrap();
    // CSV, since NaN cells (no RTT for CBR) are not equal to themselves.
    assert_eq!(traced.flows.to_csv(), plain.flows.to_csv());
    assert_eq!(traced.queues.to_csv(), plain.queues.to_csv());
    let _ = std::fs::remove_dir_all(&dir);
}

fn tshark() -> Option<&'static str> {
    let found = Command::new("tshark").arg("--version").output().is_ok_and(|o| o.status.success());
    if found {
        return Some("tshark");
    }
    if std::env::var_os("CI").is_some() {
        panic!("tshark is not installed; CI must install it (.ci/run installs the Debian package tshark)");
    }
    eprintln!("note: tshark not found, skipping the pcap check");
    None
}

/// `tshark -r FILE -T fields -e ...` rows, after checking tshark reports nothing malformed.
fn tshark_fields(tshark: &str, file: &Path, fields: &[&str]) -> Vec<Vec<String>> {
    let mut cmd = Command::new(tshark);
    cmd.args(["-n", "-r"]).arg(file).args(["-T", "fields", "-E", "separator=|"]);
    for f in fields.iter().chain(&["_ws.malformed", "_ws.expert.severity"]) {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().expect("tshark runs");
    assert!(out.status.success(), "tshark failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    text.lines()
        .map(|l| {
            let cols: Vec<String> = l.split('|').map(str::to_string).collect();
            assert!(cols[fields.len()].is_empty(), "tshark flags a malformed packet: {l}");
            cols[..fields.len()].to_vec()
        })
        .collect()
}

#[test]
fn tshark_reads_the_pcap_files_with_the_simulators_counts_sequence_numbers_and_ecn_bits() {
    let Some(tshark) = tshark() else { return };
    let dir = out_dir("pcap");
    let r = run_into(&dir);
    let rows = tshark_fields(
        tshark,
        &dir.join("tr/r1-r2.pcap"),
        &["frame.len", "ip.proto", "ip.dsfield.ecn", "tcp.seq_raw", "tcp.flags.syn", "tcp.flags.cwr", "udp.length"],
    );
    let sent = i64_at(&r.links, "packets_sent", "link", "r1->r2");
    assert_eq!(rows.len() as i64, sent, "one frame per packet sent on r1->r2");
    let data: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "6").collect();
    let udp: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "17").collect();
    let voice = |column: &str| {
        let Some(Column::Str(names)) = r.flows.column("name") else { panic!() };
        let Some(Column::I64(v)) = r.flows.column(column) else { panic!() };
        v[names.iter().position(|n| n == "voice").unwrap()]
    };
    // Sent, less what the bottleneck dropped, less at most a full queue still waiting.
    let passed = voice("packets_sent") - voice("drops");
    assert!(udp.len() as i64 <= passed && udp.len() as i64 >= passed - 15, "CBR frames {} of {passed}", udp.len());
    // 200 B IP packets: 14 B Ethernet + 200 B; UDP length = 200 − 20 B IPv4 header.
    assert!(udp.iter().all(|r| r[0] == "214" && r[6] == "180"), "CBR frames: {:?}", udp.first());
    // ECN-capable data packets carry ECT(0) (2), SYNs carry no ECT.
    for row in &data {
        let syn = row[4] == "1" || row[4] == "True";
        let expected = if syn { "0" } else { "2" };
        assert_eq!(row[2], expected, "ECN field of {row:?}");
    }
    // Byte sequence numbers: data packet n (1-based after the SYN) starts at (n − 1)·1000 + 1
    // after the ISN; every data frame's raw sequence number is ISN + 1 + k·1000.
    let seqs: Vec<i64> = data.iter().filter(|r| r[4] != "1" && r[4] != "True").map(|r| r[3].parse().unwrap()).collect();
    assert!(!seqs.is_empty());
    let isn_plus_one = seqs.iter().min().unwrap();
    assert!(seqs.iter().all(|s| (s - isn_plus_one) % 1000 == 0), "sequence numbers step by the 1000 B payload");
    // The node capture holds what d0 received: tcp0's data.
    let node = tshark_fields(tshark, &dir.join("tr/node-d0.pcap"), &["frame.len"]);
    let received = {
        let Some(Column::Str(names)) = r.flows.column("name") else { panic!() };
        let Some(Column::I64(v)) = r.flows.column("packets_received") else { panic!() };
        v[names.iter().position(|n| n == "tcp0").unwrap()]
    };
    assert_eq!(node.len() as i64, received, "frames captured at d0 = data packets tcp0's receiver got");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The handshake reads as TCP's in tshark: an ECN-setup SYN (SYN, ECE, CWR: RFC 3168
/// §6.1.1), answered by a SYN-ACK with ECE, then data and ACKs; on a path without loss
/// tshark's expert analysis finds no segment missing and no ACK of an unseen segment.
#[test]
fn tshark_reads_an_ecn_handshake_and_a_lossless_exchange_as_valid_tcp() {
    const LOSSLESS: &str = r#"
[simulation]
duration = "2s"

[dumbbell]
pairs = 1

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"
queue = { kind = "droptail", limit = "1000p" }

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[[flow]]
from = "s0"
to = "d0"
ecn = true
max_window = 30

[trace]
dir = "tr"
pcap_links = ["r1->r2", "r2->r1"]
"#;
    let Some(tshark) = tshark() else { return };
    let dir = out_dir("handshake");
    let scenario = tcpsim::load_str(LOSSLESS, "handshake.toml").unwrap_or_else(|e| panic!("{e}"));
    let r = tcpsim::run_in(&scenario, Some(&dir), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let Some(Column::I64(drops)) = r.flows.column("drops") else { panic!() };
    assert_eq!(drops[0], 0, "the path loses nothing");
    let flags = |file: &str| tshark_fields(tshark, &dir.join(file), &["tcp.flags.str", "tcp.seq_raw", "tcp.ack_raw"]);
    let forward = flags("tr/r1-r2.pcap");
    let backward = flags("tr/r2-r1.pcap");
    // tshark writes the flags as a 12-character string, e.g. "·······A·R··"; keep the letters.
    let letters = |row: &Vec<String>| row[0].chars().filter(|c| c.is_ascii_alphabetic()).collect::<String>();
    assert_eq!(letters(&forward[0]), "CES", "the ECN-setup SYN: CWR, ECE, SYN ({:?})", forward[0]);
    assert_eq!(letters(&backward[0]), "EAS", "the SYN-ACK with ECE ({:?})", backward[0]);
    assert_eq!((backward[0][1].as_str(), backward[0][2].as_str()), ("0", "1"), "the SYN-ACK takes byte 0 and acknowledges the SYN");
    assert_eq!(letters(&forward[1]), "AP", "then data ({:?})", forward[1]);
    assert_eq!(letters(&backward[1]), "A", "and plain ACKs ({:?})", backward[1]);
    for file in ["tr/r1-r2.pcap", "tr/r2-r1.pcap"] {
        let out = Command::new(tshark).args(["-n", "-q", "-z", "expert,note", "-r"]).arg(dir.join(file)).output().expect("tshark runs");
        let report = String::from_utf8_lossy(&out.stdout);
        for bad in ["Previous segment", "ACKed segment that wasn't captured", "Malformed", "retransmission"] {
            assert!(!report.contains(bad), "{file}: tshark's expert analysis reports {bad:?}:\n{report}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The SYN (packet 0) is a header alone, at least one byte, or with `full_size_syn` a
/// whole packet, as ns-2's Agent/TCP/Vegas sends it.
#[test]
fn the_syn_is_a_header_unless_full_size_syn() {
    const SYN: &str = r#"
[simulation]
duration = "1s"

[dumbbell]
pairs = 3

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "5ms"

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"

[[flow]]
name = "header"
from = "s0"
to = "d0"

[[flow]]
name = "no_header"
from = "s1"
to = "d1"
header_size = "0B"

[[flow]]
name = "full"
from = "s2"
to = "d2"
header_size = "0B"
full_size_syn = true

[trace]
dir = "tr"
ns2 = ["s0->r1", "s1->r1", "s2->r1"]
"#;
    let dir = out_dir("syn");
    let scenario = tcpsim::load_str(SYN, "syn.toml").unwrap_or_else(|e| panic!("{e}"));
    tcpsim::run_in(&scenario, Some(&dir), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(dir.join("tr/trace.tr")).expect("trace.tr written");
    let _ = std::fs::remove_dir_all(&dir);
    // size of each flow's sequence 0 and 1 (the SYN and the first data packet), by flow id
    let mut sizes: HashMap<(String, String), String> = HashMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        if f[0] == "+" && (f[10] == "0" || f[10] == "1") {
            sizes.entry((f[7].to_string(), f[10].to_string())).or_insert_with(|| f[5].to_string());
        }
    }
    let size = |fid: &str, seq: &str| sizes[&(fid.to_string(), seq.to_string())].clone();
    assert_eq!((size("0", "0"), size("0", "1")), ("40".into(), "1040".into()));
    assert_eq!((size("1", "0"), size("1", "1")), ("1".into(), "1000".into()));
    assert_eq!((size("2", "0"), size("2", "1")), ("1000".into(), "1000".into()));
}
