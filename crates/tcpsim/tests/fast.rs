//! Scenario tests of FAST TCP (cc = "fast", with its default Sack1 recovery and SACK
//! receiver): the queue each flow keeps at the bottleneck (α packets, Jin, Wei & Low
//! 2004), and reference document 001 E2's FAST numbers (queue 100 packets alone, 200 with a
//! CBR flow at half the bottleneck rate). ns-2's FAST module is not in the ns-2.35 build
//! this project compares against (Debian's ns2 has no Agent/TCP/Fast), so these are the
//! cross-checks against the paper's numbers instead of a differential test.

mod common;
use common::*;

const FAST: &str = r#""fast""#;

#[test]
fn one_fast_flow_keeps_alpha_packets_queued() {
    // 50 Mb/s × 100 ms (625 packets in flight): the queue settles at α = 100.
    let r = run(&topology_a("50Mbps", "20s", &tcp_flow("fast", 1, FAST, "")));
    let queue = series(&r, "r1->r2", "queue_pkts");
    let q = mean_between(&queue, 10.0, 20.0);
    assert!((q / 100.0 - 1.0).abs() < 0.05, "mean queue {q} packets; α = 100");
    let cwnd = mean_between(&series(&r, "fast", "cwnd"), 10.0, 20.0);
    assert!((cwnd / 725.0 - 1.0).abs() < 0.03, "cwnd {cwnd}: 625 in flight + 100 queued");
    assert_eq!(flow_number(&r, 0, "drops"), 0.0);
}

#[test]
fn two_fast_flows_keep_two_alpha_packets_queued() {
    let flows = tcp_flow("fast1", 1, FAST, "") + &tcp_flow("fast2", 2, FAST, "");
    let r = run(&topology_a("50Mbps", "30s", &flows));
    let q = mean_between(&series(&r, "r1->r2", "queue_pkts"), 20.0, 30.0);
    assert!((q / 200.0 - 1.0).abs() < 0.05, "mean queue {q} packets; 2α = 200");
}

#[test]
fn fast_queue_doubles_with_a_cbr_flow_at_half_the_rate() {
    // Reference document 001, Sect. 5.1 on Fig. 9 (E2): FAST's queue holds 100 packets alone and 200 while
    // a 25 Mb/s CBR flow shares the 50 Mb/s FIFO (each has half the packets queued).
    let flows = tcp_flow("fast", 1, FAST, "") + &cbr_flow(2, "25Mbps", "15s", "30s");
    let r = run(&topology_a("50Mbps", "40s", &flows));
    let queue = series(&r, "r1->r2", "queue_pkts");
    let alone = mean_between(&queue, 10.0, 15.0);
    let shared = mean_between(&queue, 22.0, 30.0);
    let after = mean_between(&queue, 35.0, 40.0);
    assert!((alone / 100.0 - 1.0).abs() < 0.05, "alone {alone}");
    assert!((shared / 200.0 - 1.0).abs() < 0.05, "with CBR {shared}");
    assert!((after / 100.0 - 1.0).abs() < 0.05, "after CBR {after}");
}

#[test]
fn a_fast_flow_defaults_to_sack_recovery_with_a_sack_receiver() {
    let r = run(&topology_a("10Mbps", "1s", &tcp_flow("fast", 1, FAST, "")));
    match column(&r.flows, "recovery") {
        tcpsim::Column::Str(v) => assert_eq!(v[0], "sack1"),
        other => panic!("{other:?}"),
    }
}
