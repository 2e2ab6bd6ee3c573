//! Trace writers end to end: files written through the public API and read back by the
//! tools they are for.
//!
//! * `pcap_read_by_tshark`: a capture of a SYN, its SYN-ACK, data, an ACK with two SACK
//!   blocks and ECE, a CE-marked data packet with CWR and a UDP datagram, dissected by
//!   `tshark`; every field the mapping defines is checked, and tshark must report no
//!   malformed packet. Skipped (with a note) when tshark is not installed, except under
//!   CI (`CI` set), where a missing tshark is a failure: `.ci/run` installs it.
//! * `ns2_trace_file_through_the_sink`: an ns-2 trace file written with
//!   `Ns2TraceWriter::create` holds the expected lines.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

use tcpsim::engine::time::{PS_PER_MS, PS_PER_US};
use tcpsim::monitor::trace::{
    EcnCodepoint, Ns2TraceWriter, PcapWriter, TraceEvent, TraceKind, TraceOp, TraceSink, TracedPacket,
};

/// A path in the system temp directory unique to this process and test.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tcpsim-trace-{}-{name}", std::process::id()))
}

use tcpsim::monitor::trace::example::{ack, data};

fn at_ms(ms: u64, from_node: u32, to_node: u32, packet: TracedPacket) -> TraceEvent {
    TraceEvent { op: TraceOp::Dequeue, time: ms * PS_PER_MS, from_node, to_node, packet }
}

fn tshark_available() -> bool {
    let runs = Command::new("tshark").arg("--version").output().is_ok_and(|out| out.status.success());
    if !runs {
        assert!(
            std::env::var_os("CI").is_none(),
            "tshark is not installed, but CI must install it (apt-get install tshark, see .ci/run) \
             to check the pcap writer"
        );
        eprintln!("note: tshark not found on PATH; skipping the pcap check against tshark");
    }
    runs
}

const FIELDS: &[&str] = &[
    "frame.len",
    "frame.cap_len",
    "frame.time_epoch",
    "eth.src",
    "eth.dst",
    "ip.src",
    "ip.dst",
    "ip.len",
    "ip.id",
    "ip.ttl",
    "ip.dsfield.ecn",
    "ip.checksum.status",
    "tcp.srcport",
    "tcp.dstport",
    "tcp.seq_raw",
    "tcp.ack_raw",
    "tcp.hdr_len",
    "tcp.flags.syn",
    "tcp.flags.ack",
    "tcp.flags.push",
    "tcp.flags.ece",
    "tcp.flags.cwr",
    "tcp.options.sack_le",
    "tcp.options.sack_re",
    "udp.srcport",
    "udp.dstport",
    "udp.length",
    "_ws.malformed",
];

#[test]
fn pcap_read_by_tshark() {
    if !tshark_available() {
        return;
    }
    let sack_blocks = [(4, 5), (3, 3)];
    let events = [
        // The SYN with ECN-Echo, as ns-2's ECN-capable sender opens.
        at_ms(100, 0, 2, TracedPacket { syn: true, size: 40, ece: true, ecn: EcnCodepoint::NotEct, ..data(0, 25) }),
        // The sink's answer to the SYN.
        at_ms(120, 3, 2, TracedPacket { syn: true, ece: true, ..ack(0, 32, &[]) }),
        at_ms(144, 0, 2, data(1, 39)),
        at_ms(145, 0, 2, data(2, 40)),
        // Packet 2 lost, 3..=5 arrived: ACK 1 with blocks (4, 5) and (3, 3), echoing CE.
        at_ms(200, 3, 2, TracedPacket { ece: true, ..ack(1, 48, &sack_blocks) }),
        // A retransmission of 2 after the window reduction, marked CE on the way.
        at_ms(210, 2, 3, TracedPacket { cwr: true, ecn: EcnCodepoint::Ce, ..data(2, 60) }),
        // CBR over UDP from node 1 port 0 to node 3 port 1, at 210 ms + 1.5 µs.
        TraceEvent {
            op: TraceOp::Dequeue,
            time: 210 * PS_PER_MS + 1_500 * PS_PER_US / 1_000,
            from_node: 1,
            to_node: 2,
            packet: TracedPacket {
                kind: TraceKind::Udp,
                size: 500,
                header_size: 0,
                flow: 2,
                src_node: 1,
                src_port: 0,
                dst_node: 3,
                dst_port: 1,
                opens_with_syn: false,
                ecn: EcnCodepoint::NotEct,
                ..data(78, 70_000)
            },
        },
    ];
    let path = temp_path("capture.pcap");
    let mut writer = PcapWriter::create(&path).unwrap();
    for ev in &events {
        writer.record(ev).unwrap();
    }
    writer.finish().unwrap();
    drop(writer);

    let mut cmd = Command::new("tshark");
    cmd.args(["-r"]).arg(&path).args([
        "-o",
        "ip.check_checksum:TRUE",
        "-o",
        "tcp.relative_sequence_numbers:FALSE",
        "-T",
        "fields",
        "-E",
        "separator=;",
        "-E",
        "occurrence=a",
        "-E",
        "aggregator=,",
    ]);
    for f in FIELDS {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().expect("tshark runs");
    assert!(out.status.success(), "tshark failed: {}", String::from_utf8_lossy(&out.stderr));
    assert_no_tshark_complaints(&out.stderr);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(';').collect()).collect();
    assert_eq!(rows.len(), events.len(), "one frame per event:\n{stdout}");

    // Expected values, frame by frame (the fields listed; every other TCP/UDP field of
    // FIELDS must be empty). Booleans print as 1/0, ip.checksum.status 1 = good.
    let tcp_flow = |src: &'static str, dst: &'static str| {
        [("ip.src", src), ("ip.dst", dst), ("tcp.srcport", "10000"), ("tcp.dstport", "10000")]
    };
    let common = [("ip.ttl", "64"), ("ip.checksum.status", "1"), ("_ws.malformed", "")];
    #[rustfmt::skip]
    let expected: [Vec<(&str, &str)>; 7] = [
        // SYN: 40 bytes, seq 0, not ECT; ns-2's ECN offer (ECE alone) written as RFC 3168's
        // ECN-setup SYN: SYN + ECE + CWR.
        [&tcp_flow("10.0.0.0", "10.0.0.3")[..], &[
            ("frame.len", "54"), ("frame.cap_len", "54"), ("frame.time_epoch", "0.100000000"),
            ("eth.src", "02:00:00:00:00:00"), ("eth.dst", "02:00:00:00:00:02"),
            ("ip.len", "40"), ("ip.id", "0x0019"), ("ip.dsfield.ecn", "0"),
            ("tcp.seq_raw", "0"), ("tcp.ack_raw", "0"), ("tcp.hdr_len", "20"),
            ("tcp.flags.syn", "1"), ("tcp.flags.ack", "0"), ("tcp.flags.push", "0"),
            ("tcp.flags.ece", "1"), ("tcp.flags.cwr", "1"),
        ]].concat(),
        // SYN-ACK from the sink: seq 0, acknowledges the SYN (1).
        [&tcp_flow("10.0.0.3", "10.0.0.0")[..], &[
            ("frame.len", "54"), ("frame.cap_len", "54"), ("frame.time_epoch", "0.120000000"),
            ("eth.src", "02:00:00:00:00:03"), ("eth.dst", "02:00:00:00:00:02"),
            ("ip.len", "40"), ("ip.id", "0x0020"), ("ip.dsfield.ecn", "0"),
            ("tcp.seq_raw", "0"), ("tcp.ack_raw", "1"), ("tcp.hdr_len", "20"),
            ("tcp.flags.syn", "1"), ("tcp.flags.ack", "1"), ("tcp.flags.push", "0"),
            ("tcp.flags.ece", "1"), ("tcp.flags.cwr", "0"),
        ]].concat(),
        // Data packet 1: bytes 1..=1000, ECT(0) (codepoint 2); 1054 on the wire, 54 stored.
        [&tcp_flow("10.0.0.0", "10.0.0.3")[..], &[
            ("frame.len", "1054"), ("frame.cap_len", "54"), ("frame.time_epoch", "0.144000000"),
            ("ip.len", "1040"), ("ip.id", "0x0027"), ("ip.dsfield.ecn", "2"),
            ("tcp.seq_raw", "1"), ("tcp.ack_raw", "1"), ("tcp.hdr_len", "20"),
            ("tcp.flags.syn", "0"), ("tcp.flags.ack", "1"), ("tcp.flags.push", "1"),
            ("tcp.flags.ece", "0"), ("tcp.flags.cwr", "0"),
        ]].concat(),
        // Data packet 2: bytes 1001..=2000.
        [&tcp_flow("10.0.0.0", "10.0.0.3")[..], &[
            ("frame.len", "1054"), ("frame.cap_len", "54"), ("ip.id", "0x0028"),
            ("tcp.seq_raw", "1001"), ("tcp.ack_raw", "1"),
        ]].concat(),
        // ACK 1 (next byte 1001) with SACK (4, 5) = [3001, 5001) and (3, 3) = [2001, 3001),
        // ECE. 20 option bytes: ns-2's 56-byte size grows to 60.
        [&tcp_flow("10.0.0.3", "10.0.0.0")[..], &[
            ("frame.len", "74"), ("frame.cap_len", "74"), ("frame.time_epoch", "0.200000000"),
            ("ip.len", "60"), ("ip.id", "0x0030"), ("ip.dsfield.ecn", "0"),
            ("tcp.seq_raw", "1"), ("tcp.ack_raw", "1001"), ("tcp.hdr_len", "40"),
            ("tcp.flags.syn", "0"), ("tcp.flags.ack", "1"), ("tcp.flags.push", "0"),
            ("tcp.flags.ece", "1"), ("tcp.flags.cwr", "0"),
            ("tcp.options.sack_le", "3001,2001"), ("tcp.options.sack_re", "5001,3001"),
        ]].concat(),
        // Packet 2 again, CE (codepoint 3) with CWR, captured on the 2 -> 3 link.
        [&tcp_flow("10.0.0.0", "10.0.0.3")[..], &[
            ("frame.len", "1054"), ("frame.cap_len", "54"), ("frame.time_epoch", "0.210000000"),
            ("eth.src", "02:00:00:00:00:02"), ("eth.dst", "02:00:00:00:00:03"),
            ("ip.id", "0x003c"), ("ip.dsfield.ecn", "3"),
            ("tcp.seq_raw", "1001"), ("tcp.flags.push", "1"),
            ("tcp.flags.ece", "0"), ("tcp.flags.cwr", "1"),
        ]].concat(),
        // UDP, 500 bytes: 472 payload + 8 header; IP ID = 70000 mod 65536 = 0x1170.
        vec![
            ("frame.len", "514"), ("frame.cap_len", "42"), ("frame.time_epoch", "0.210001500"),
            ("eth.src", "02:00:00:00:00:01"), ("eth.dst", "02:00:00:00:00:02"),
            ("ip.src", "10.0.0.1"), ("ip.dst", "10.0.0.3"), ("ip.len", "500"), ("ip.id", "0x1170"),
            ("ip.dsfield.ecn", "0"), ("udp.srcport", "10000"), ("udp.dstport", "10001"),
            ("udp.length", "480"), ("tcp.seq_raw", ""), ("tcp.srcport", ""),
        ],
    ];
    for (frame, (row, want)) in rows.iter().zip(&expected).enumerate() {
        for &(field, value) in want.iter().chain(&common) {
            let column = FIELDS.iter().position(|f| *f == field).expect("field listed in FIELDS");
            assert_eq!(row[column], value, "frame {}, field {field}:\n{stdout}", frame + 1);
        }
        let is_udp = frame == 6;
        for (column, field) in FIELDS.iter().enumerate() {
            let other_transport = if is_udp { field.starts_with("tcp.") } else { field.starts_with("udp.") };
            let sack = field.starts_with("tcp.options.sack") && frame != 4;
            if other_transport || sack {
                assert_eq!(row[column], "", "frame {}, field {field} should be absent", frame + 1);
            }
        }
    }

    // The full dissection must not mention a malformed or bogus header anywhere, and the
    // expert summary must hold nothing above "note" (a retransmission note is expected).
    let verbose = Command::new("tshark").arg("-r").arg(&path).arg("-V").output().unwrap();
    assert!(verbose.status.success());
    assert_no_tshark_complaints(&verbose.stderr);
    let text = String::from_utf8_lossy(&verbose.stdout);
    for bad in ["Malformed", "Bogus", "Exception", "[Expert Info (Warning", "[Expert Info (Error"] {
        assert!(!text.contains(bad), "tshark -V reports {bad:?}:\n{text}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// tshark's standard error may only hold its note about running as root.
fn assert_no_tshark_complaints(stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    let complaints: Vec<&str> =
        stderr.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("Running as user")).collect();
    assert!(complaints.is_empty(), "tshark wrote to stderr:\n{stderr}");
}

/// The same lines as the ns-2 excerpt in `ns2.rs`'s tests, written through the file
/// sink with a link selection (only 2 -> 3), read back from disk.
#[test]
fn ns2_trace_file_through_the_sink() {
    let path = temp_path("out.tr");
    let only_bottleneck: HashSet<(u32, u32)> = [(2, 3)].into_iter().collect();
    // Held as the simulator will hold its sinks: a trait object.
    let mut writer: Box<dyn TraceSink> = Box::new(Ns2TraceWriter::create(&path, Some(only_bottleneck)).unwrap());
    let ce = TracedPacket { ecn: EcnCodepoint::Ce, ..data(113, 807) };
    let events = [
        TraceEvent { op: TraceOp::Enqueue, time: 144_491_000_000, from_node: 0, to_node: 2, packet: data(1, 39) },
        TraceEvent { op: TraceOp::Drop, time: 314_934_666_667, from_node: 2, to_node: 3, packet: data(18, 107) },
        TraceEvent { op: TraceOp::Dequeue, time: 2_240_279_000_000, from_node: 2, to_node: 3, packet: ce },
        TraceEvent { op: TraceOp::Receive, time: 2_265_826_000_000, from_node: 2, to_node: 3, packet: ce },
        TraceEvent {
            op: TraceOp::Enqueue,
            time: 2_265_826_000_000,
            from_node: 3,
            to_node: 2,
            packet: ack(113, 825, &[]),
        },
    ];
    for ev in &events {
        writer.record(ev).unwrap();
    }
    writer.finish().unwrap();
    drop(writer);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    // Lines from ns-2.35 running validation/ns2/trace_probe.tcl (out.tr).
    assert_eq!(
        text,
        "d 0.314935 2 3 tcp 1040 ------N 1 0.0 3.0 18 107\n\
         - 2.240279 2 3 tcp 1040 ----E-N 1 0.0 3.0 113 807\n\
         r 2.265826 2 3 tcp 1040 ----E-N 1 0.0 3.0 113 807\n"
    );
}
