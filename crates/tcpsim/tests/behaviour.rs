//! Scenario-level behaviour tests: each runs a small simulation and checks a property the
//! theory or the literature predicts.

mod common;

use common::{chain, f64_col, i64_col, run, series, str_col};
use tcpsim::RunResults;

fn jain(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let squares: f64 = x.iter().map(|v| v * v).sum();
    sum * sum / (x.len() as f64 * squares)
}

fn single_flow(recovery: &str, bottleneck: &str, delay: &str, buffer: &str, duration: &str) -> String {
    single_flow_with(recovery, bottleneck, delay, buffer, duration, "")
}

fn single_flow_with(recovery: &str, bottleneck: &str, delay: &str, buffer: &str, duration: &str, extra: &str) -> String {
    let access_queue = r#"{ kind = "droptail", limit = "1000p" }"#;
    let network = chain("10Mbps", "1ms", access_queue, bottleneck, delay, &format!(r#"{{ kind = "droptail", limit = "{buffer}" }}"#));
    format!(
        "[simulation]\nduration = \"{duration}\"\n\n{network}\
         [[flow]]\nname = \"f\"\nfrom = \"s\"\nto = \"d\"\nrecovery = \"{recovery}\"\nmax_window = 1000\n{extra}\n\n\
         [monitor]\ninterval = \"10ms\"\n"
    )
}

#[test]
fn reno_sawtooth_peaks_near_bandwidth_delay_product_plus_buffer() {
    let r = run(&single_flow("reno", "1.5Mbps", "40ms", "20p", "100s"));
    // Round trip without queueing: 2·(1 + 40 + 1) ms propagation + 1040 B serialized at
    // 10, 1.5 and 10 Mb/s (0.832 + 5.547 + 0.832 ms) + the ACK's (≈0.3 ms) ≈ 91.5 ms.
    // One packet takes 5.547 ms at the bottleneck → BDP ≈ 16.5 packets. DropTail with
    // limit 20 holds 19 waiting + 1 on the wire → the window peaks near 16.5 + 20 ≈ 36.
    let expected_peak = 91.5 / 5.547 + 20.0;
    let cwnd = series(&r, "f", "cwnd");
    let mut peaks = Vec::new();
    for w in cwnd.windows(2) {
        let ((t, before), (_, after)) = (w[0], w[1]);
        if t > 20.0 && after < 0.7 * before {
            peaks.push(before);
        }
    }
    assert!(peaks.len() >= 5, "a saw-tooth has many cycles in 80 s, found {}", peaks.len());
    let mean = peaks.iter().sum::<f64>() / peaks.len() as f64;
    assert!(
        (mean / expected_peak - 1.0).abs() < 0.15,
        "mean peak cwnd {mean:.1} vs BDP + buffer {expected_peak:.1}; peaks {peaks:?}"
    );
    // Between peaks the window falls to half: troughs near peak / 2.
    let timeouts = i64_col(&r.flows, "timeouts")[0];
    assert!(timeouts <= 2, "steady Reno should recover by fast retransmit, {timeouts} timeouts");
}

#[test]
fn newreno_repairs_a_burst_of_losses_where_reno_times_out() {
    // Slow start up to ssthresh 30 overshoots a 2 Mb/s path with a 15-packet buffer
    // (BDP ≈ 8 packets): several packets of one window are lost at once. (With a much
    // larger overshoot, ns-2's "impatient" NewReno — timer restarted only on the first
    // partial ACK — also times out, one retransmission per RTT being too slow.)
    let extra = "initial_ssthresh = 30";
    let newreno = run(&single_flow_with("newreno", "2Mbps", "20ms", "15p", "4s", extra));
    let reno = run(&single_flow_with("reno", "2Mbps", "20ms", "15p", "4s", extra));
    let nr = (i64_col(&newreno.flows, "timeouts")[0], i64_col(&newreno.flows, "drops")[0], i64_col(&newreno.flows, "fast_retransmits")[0]);
    let re = (i64_col(&reno.flows, "timeouts")[0], i64_col(&reno.flows, "drops")[0]);
    assert!(nr.1 >= 3, "the scenario must lose several packets in one window, lost {}", nr.1);
    assert_eq!(nr.0, 0, "NewReno timed out (timeouts, drops, fast retransmits) = {nr:?}");
    assert!(re.0 >= 1, "Reno was expected to time out: (timeouts, drops) = {re:?}");
    assert!(
        f64_col(&newreno.flows, "goodput_bps")[0] > f64_col(&reno.flows, "goodput_bps")[0],
        "NewReno should deliver more in the episode"
    );
}

/// One 1000-packet transfer over 100 Mb/s access links and a 10 Mb/s / 20 ms bottleneck
/// with a 10-packet DropTail buffer; window 100.
/// `recovery` and `receiver` are TOML values.
fn slow_start_overshoot(recovery: &str, receiver: &str) -> String {
    let network = chain("100Mbps", "1ms", "", "10Mbps", "20ms", r#"{ kind = "droptail", limit = "10p" }"#);
    format!(
        "[simulation]\nduration = \"2s\"\n\n{network}\
         [[flow]]\nname = \"f\"\nfrom = \"s\"\nto = \"d\"\nrecovery = {recovery}\nreceiver = {receiver}\nmax_window = 100\npackets = 1000\n"
    )
}

#[test]
fn sack1_repairs_a_window_of_losses_without_a_timeout_where_reno_times_out() {
    // Slow start overshoots the path (BDP ≈ 55 packets + 10 buffered): one window loses
    // many packets. ns-2.35 (Agent/TCP/Sack1 + Agent/TCPSink/Sack1, same network): 18
    // drops, 2 fast retransmits, no timeout; with Agent/TCPSink/Sack1/DelAck: 6 drops, one
    // fast retransmit; Agent/TCP/Reno times out with either sink. tcpsim gives the same
    // counters.
    let scenario = |recovery: &str, receiver: &str| slow_start_overshoot(&format!("\"{recovery}\""), receiver);
    for (sack_receiver, plain_receiver) in [
        (r#"{ kind = "every_packet", sack = true }"#, r#""every_packet""#),
        (r#"{ kind = "delayed", sack = true }"#, r#""delayed""#),
    ] {
        let sack = run(&scenario("sack1", sack_receiver));
        let reno = run(&scenario("reno", plain_receiver));
        let counters = |r: &RunResults| {
            let c = |name| i64_col(&r.flows, name)[0];
            (c("unique_packets"), c("drops"), c("fast_retransmits"), c("timeouts"))
        };
        let (delivered, drops, fast_retransmits, timeouts) = counters(&sack);
        assert!(drops >= 3 * fast_retransmits && fast_retransmits >= 1, "{sack_receiver}: each recovery must repair three losses or more: {:?}", counters(&sack));
        assert_eq!(timeouts, 0, "{sack_receiver}: Sack1 timed out: {:?}", counters(&sack));
        assert_eq!(delivered, 1000, "{sack_receiver}: Sack1 finishes within 2 s");
        let (reno_delivered, _, _, reno_timeouts) = counters(&reno);
        assert!(reno_timeouts >= 1, "{plain_receiver}: Reno was expected to time out: {:?}", counters(&reno));
        assert!(reno_delivered < 800, "{plain_receiver}: Reno should still be recovering: {:?}", counters(&reno));
    }
}

#[test]
fn fack_repairs_a_window_of_losses_in_one_recovery() {
    // The network of the Sack1 test above: slow start overshoots and one window loses 6
    // to 20 packets. ns-2.35 (Agent/TCP/Fack with Agent/TCPSink/Sack1 or
    // Agent/TCPSink/Sack1/DelAck, same network) gives the same counters as tcpsim:
    //   rampdown_, SACK sink:     16 drops, 1 fast retransmit, no timeout, 1000 delivered
    //   ss-div4_, SACK sink:      16 drops, 1 fast retransmit, no timeout, 1000 delivered
    //   defaults, delayed ACKs:    6 drops, 1 fast retransmit, no timeout, 1000 delivered
    //   defaults, SACK sink:      20 drops, and one retransmission is lost again: FACK
    //                             stops sending until the timer (1 timeout, 782 delivered)
    let scenario = |recovery: &str, receiver: &str| slow_start_overshoot(recovery, receiver);
    let sack = r#"{ kind = "every_packet", sack = true }"#;
    let delayed = r#"{ kind = "delayed", sack = true }"#;
    let counters = |r: &RunResults| {
        let c = |name| i64_col(&r.flows, name)[0];
        (c("unique_packets"), c("drops"), c("fast_retransmits"), c("timeouts"))
    };
    for (recovery, receiver) in [
        (r#"{ kind = "fack", rampdown = true }"#, sack),
        (r#"{ kind = "fack", ss_div4 = true }"#, sack),
        (r#""fack""#, delayed),
    ] {
        let got = counters(&run(&scenario(recovery, receiver)));
        let (delivered, drops, fast_retransmits, timeouts) = got;
        assert!(fast_retransmits == 1 && drops >= 5, "{recovery} {receiver}: one recovery for the whole window: {got:?}");
        assert_eq!((timeouts, delivered), (0, 1000), "{recovery} {receiver}: no timeout, done within 2 s: {got:?}");
    }
    let (delivered, drops, _, timeouts) = counters(&run(&scenario(r#""fack""#, sack)));
    assert!(drops >= 10 && timeouts == 1 && delivered < 1000, "defaults with the SACK sink: a retransmission lost again waits for the timer");
}

const DUMBBELL_RED: &str = r#"
[simulation]
duration = "60s"
seed = SEED

[dumbbell]
pairs = 16
bottleneck = { rate = "15Mbps", delay = "10ms", queue = { kind = "red", limit = "100p", min_th = 10, max_th = 30, weight = 0.002, max_p = 0.1 } }
access = { rate = "100Mbps", delay = "1ms", queue = { kind = "droptail", limit = "1000p" } }

[[flow]]
name = "tcp{i}"
count = 16
from = "s{i}"
to = "d{i}"
recovery = "newreno"
max_window = 1000
start_spacing = "6.25ms"

[monitor]
interval = "1s"
queues = ["r1->r2"]
"#;

#[test]
fn sixteen_newreno_flows_share_a_red_bottleneck_fairly() {
    let r = run(&DUMBBELL_RED.replace("SEED", "1"));
    let goodput = f64_col(&r.flows, "goodput_bps");
    let index = jain(goodput);
    assert!(index >= 0.95, "Jain's index {index:.3}; goodputs {goodput:?}");
    let total: f64 = goodput.iter().sum();
    // 15 Mb/s of 1040-byte packets carries at most 15·1000/1040 = 14.42 Mb/s of payload.
    assert!(total > 0.9 * 14.42e6 && total <= 14.43e6, "aggregate goodput {total}");
    let queue = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").expect("bottleneck queue");
    assert!(i64_col(&r.queues, "early_drops")[queue] > 0, "RED should drop early");
    // The RED average settles between the thresholds.
    let avg = series(&r, "r1->r2", "red_avg_pkts");
    let late: Vec<f64> = avg.iter().filter(|(t, _)| *t > 20.0).map(|&(_, v)| v).collect();
    let mean = late.iter().sum::<f64>() / late.len() as f64;
    assert!(mean > 5.0 && mean < 35.0, "RED average {mean}");
}

#[test]
fn same_scenario_and_seed_give_identical_tables() {
    let a = run(&DUMBBELL_RED.replace("SEED", "7").replace("60s", "10s"));
    let b = run(&DUMBBELL_RED.replace("SEED", "7").replace("60s", "10s"));
    assert_eq!(a.flows, b.flows);
    assert_eq!(a.queues, b.queues);
    assert_eq!(a.links, b.links);
    assert_eq!(a.timeseries, b.timeseries);
    let c = run(&DUMBBELL_RED.replace("SEED", "8").replace("60s", "10s"));
    assert_ne!(a.queues, c.queues, "another seed should change RED's random drops");
}

#[test]
fn cbr_flow_delivers_its_rate_and_delayed_acks_halve_the_acks() {
    let text = r#"
[simulation]
duration = "10s"

[network]
nodes = ["a", "b"]

[[link]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
queue = { kind = "droptail", limit = "100p" }

[[flow]]
name = "cbr"
type = "cbr"
from = "a"
to = "b"
rate = "1Mbps"
packet_size = "500B"

[[flow]]
name = "tcp"
from = "a"
to = "b"
receiver = "delayed"
packets = 1000
"#;
    let r = run(text);
    let throughput = f64_col(&r.flows, "throughput_bps")[0];
    assert!((throughput / 1e6 - 1.0).abs() < 0.01, "CBR throughput {throughput}");
    assert_eq!(i64_col(&r.flows, "unique_packets")[1], 1000, "finite transfer completes");
    // The reverse direction carries the ACKs: about one per two data packets (+ the SYN's).
    let q = str_col(&r.queues, "queue").iter().position(|q| q == "b->a").unwrap();
    let acks = i64_col(&r.queues, "arrivals")[q];
    assert!((500..=560).contains(&acks), "delayed ACKs sent {acks} ACKs for 1000 packets");
}

#[test]
fn delayed_ack_timer_holds_a_lone_packet_for_100_ms() {
    // One data packet after the SYN: the SYN is ACKed at once (ns-2 SYN_immediate_ack_),
    // the lone data packet only when the 100 ms delayed-ACK timer fires. The round trip
    // of a 1040 B packet and a 40 B ACK over 10 Mb/s, 5 ms each way is
    // 10 ms + 0.832 ms + 0.032 ms = 10.864 ms; the delayed one measures 100 ms more.
    let text = r#"
[simulation]
duration = "2s"

[network]
nodes = ["a", "b"]

[[link]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"

[[flow]]
name = "one"
from = "a"
to = "b"
receiver = "delayed"
packets = 1
clock_granularity = "1us"
"#;
    let r = run(text);
    let (min, max) = (f64_col(&r.flows, "rtt_min_s")[0], f64_col(&r.flows, "rtt_max_s")[0]);
    assert_eq!(i64_col(&r.flows, "rtt_samples")[0], 2);
    assert!((min - 0.010_064).abs() < 1e-6, "SYN round trip {min}"); // 40 B both ways
    assert!((max - 0.110_864).abs() < 1e-6, "delayed data ACK round trip {max}");
    assert_eq!(i64_col(&r.flows, "unique_packets")[0], 1);
}

/// Two NewReno flows over 10 Mb/s / 20 ms with a link outage on the bottleneck from 10 s
/// to 11 s (reference document 003's 1 s handoff), in both directions.
const BLACKOUT: &str = r#"
[simulation]
duration = "30s"

[dumbbell]
pairs = 2

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "20ms"
queue = { kind = "droptail", limit = "100p" }
ERROR

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"
queue = { kind = "droptail", limit = "1000p" }

[[flow]]
name = "f{i}"
count = 2
from = "s{i}"
to = "d{i}"
max_window = 200

[monitor]
interval = "100ms"
queues = "none"
"#;

#[test]
fn a_one_second_blackout_loses_every_packet_in_it_and_the_flows_recover() {
    let window = BLACKOUT.replace("ERROR", r#"error_model = { kind = "blackout", windows = [["10s", "11s"]] }"#);
    let r = run(&window);
    let base = run(&BLACKOUT.replace("ERROR", ""));
    let link = str_col(&r.links, "link").iter().position(|l| l == "r1->r2").unwrap();
    let reverse = str_col(&r.links, "link").iter().position(|l| l == "r2->r1").unwrap();
    // TCP is ACK-clocked: the senders lose what reaches the link in the first RTT of the
    // outage (what is already queued gets through) and then only the retransmissions
    // their timers send into it.
    let lost = i64_col(&r.links, "error_drops")[link];
    assert!((10..=400).contains(&lost), "data packets lost in the outage: {lost}");
    assert!(i64_col(&r.links, "error_drops")[reverse] > 0, "ACKs are lost too");
    assert_eq!(i64_col(&base.links, "error_drops")[link], 0);
    // Nothing is delivered during the outage (plus one RTT for packets already on the
    // way), and after it every flow sends again.
    for flow in ["f0", "f1"] {
        let delivered = series(&r, flow, "delivered_bytes");
        let during: f64 = delivered.iter().filter(|(t, _)| *t > 10.2 && *t <= 11.0).map(|&(_, v)| v).sum();
        assert_eq!(during, 0.0, "{flow} delivered data during the outage");
        let after: f64 = delivered.iter().filter(|(t, _)| *t > 20.0).map(|&(_, v)| v).sum();
        assert!(after * 8.0 / 10.0 > 2e6, "{flow} did not recover: {after} B in the last 10 s");
    }
    assert!(i64_col(&r.flows, "timeouts").iter().all(|&t| t >= 1), "an outage longer than the RTO ends in a timeout");
    // The outage costs goodput, but not more than the outage plus recovery.
    let total = |r: &RunResults| f64_col(&r.flows, "goodput_bps").iter().sum::<f64>();
    let loss = 1.0 - total(&r) / total(&base);
    assert!(loss > 0.02 && loss < 0.25, "goodput lost to the outage: {:.1} %", loss * 100.0);
}

#[test]
fn uniform_loss_drops_about_its_rate_and_replays_for_a_seed() {
    let lossy = BLACKOUT.replace("ERROR", r#"error_model = { kind = "uniform", rate = 0.01 }
error_model_reverse = { kind = "uniform", rate = 0.0 }"#);
    let a = run(&lossy);
    let link = str_col(&a.links, "link").iter().position(|l| l == "r1->r2").unwrap();
    let sent = i64_col(&a.links, "packets_sent")[link] as f64;
    let lost = i64_col(&a.links, "error_drops")[link] as f64;
    assert!((lost / sent - 0.01).abs() < 0.003, "loss rate {}", lost / sent);
    let reverse = str_col(&a.links, "link").iter().position(|l| l == "r2->r1").unwrap();
    assert_eq!(i64_col(&a.links, "error_drops")[reverse], 0, "error_model_reverse with rate 0 loses nothing");
    assert_eq!(a.flows, run(&lossy).flows, "same seed, same losses");
    let other = run(&lossy.replace("duration = \"30s\"", "duration = \"30s\"\nseed = 2"));
    assert_ne!(a.flows, other.flows, "another seed draws other losses");
}

/// Four NewReno flows with round-trip propagation delays 24, 32, 46 and 72 ms and a CBR
/// flow (rate CBR_RATE, 1000 B packets, sent by its own node) share a 10 Mb/s bottleneck
/// whose queue is QUEUE. TCP packets are 1040 B on the wire.
const DUMBBELL_RTTS: &str = r#"
[simulation]
duration = "60s"

[dumbbell]
pairs = 5
access_delays = ["1ms", "5ms", "12ms", "25ms", "1ms"]

[dumbbell.bottleneck]
rate = "10Mbps"
delay = "10ms"
queue = QUEUE

[dumbbell.access]
rate = "100Mbps"
delay = "1ms"
queue = { kind = "droptail", limit = "1000p" }

[[flow]]
name = "tcp{i}"
count = 4
from = "s{i}"
to = "d{i}"
recovery = "newreno"
start_spacing = "100ms"
max_window = 1000

[[flow]]
name = "cbr"
type = "cbr"
from = "s4"
to = "d4"
rate = "CBR_RATE"
packet_size = "1000B"
"#;

/// Wire bit rates over the 60 s run: the four TCP flows, then the CBR flow.
fn wire_rates(queue: &str, cbr_rate: &str) -> (Vec<f64>, f64) {
    let r = run(&DUMBBELL_RTTS.replace("QUEUE", queue).replace("CBR_RATE", cbr_rate));
    let delivered = i64_col(&r.flows, "unique_packets");
    let tcp = delivered[..4].iter().map(|&p| p as f64 * 1040.0 * 8.0 / 60.0).collect();
    (tcp, delivered[4] as f64 * 1000.0 * 8.0 / 60.0)
}

#[test]
fn drr_gives_flows_with_different_rtts_equal_goodput() {
    // DropTail favours short round trips (window growth per RTT); DRR serves each sending
    // node's queue in turn, so every flow gets a quarter of the link whatever its RTT.
    // Both buffers hold 100 packets of 1040 B. The CBR flow sends 1 packet per 10 s.
    let (droptail, _) = wire_rates(r#"{ kind = "droptail", limit = "100p" }"#, "800bps");
    let (drr, _) = wire_rates(r#"{ kind = "drr", limit = "104000B" }"#, "800bps");
    assert!(jain(&droptail) < 0.8, "DropTail should be unfair here: {droptail:?}");
    assert!(jain(&drr) >= 0.99, "Jain's index {:.4} with DRR: {drr:?}", jain(&drr));
    let total: f64 = drr.iter().sum();
    assert!(total > 0.95 * 10e6, "the link stays busy: {total}");
}

#[test]
fn drr_holds_an_aggressive_cbr_flow_to_its_fair_share() {
    // A 6 Mb/s CBR flow among four TCP flows: five backlogged queues, a fair share of
    // 2 Mb/s each. Through DropTail the CBR flow takes its 6 Mb/s; through DRR its queue
    // is the longest and loses packets, so it gets its share and the TCP flows theirs.
    let (_, cbr_droptail) = wire_rates(r#"{ kind = "droptail", limit = "100p" }"#, "6Mbps");
    assert!(cbr_droptail > 5.5e6, "CBR through DropTail {cbr_droptail}");
    let (tcp, cbr) = wire_rates(r#"{ kind = "drr", limit = "104000B" }"#, "6Mbps");
    let share = 10e6 / 5.0;
    assert!(cbr <= 1.05 * share, "CBR through DRR {cbr} above its share {share}");
    for (i, rate) in tcp.iter().enumerate() {
        assert!(*rate >= 0.9 * share, "TCP flow {i}: {rate} against a share of {share}: {tcp:?}");
    }
}

const DUMBBELL_ECN: &str = r#"
[simulation]
duration = "30s"
seed = 1

[dumbbell]
pairs = 8
bottleneck = { rate = "10Mbps", delay = "20ms", queue = { kind = "red", limit = "100p", min_th = 10, max_th = 30, weight = 0.002, max_p = 0.1, ecn = true } }
access = { rate = "100Mbps", delay = "2ms", queue = { kind = "droptail", limit = "50p" } }

[[flow]]
name = "tcp{i}"
count = 8
from = "s{i}"
to = "d{i}"
recovery = "newreno"
max_window = 1000
initial_ssthresh = 16
start_spacing = "100ms"
ecn = TCP_ECN
"#;

#[test]
fn ecn_flows_over_red_are_marked_instead_of_dropped() {
    // The same RED(ecn = true) bottleneck with ECN-capable and with plain NewReno flows.
    // initial_ssthresh 16 keeps slow start from overflowing the 100-packet buffer, so
    // every loss of the plain flows is RED's. With ECN, RED marks while p_b < mark_p
    // (avg < max_th): early drops become marks, the flows halve without losing a packet,
    // and retransmissions all but vanish; goodput stays the same (RFC 3168 §5, §6.1.2).
    let ecn = run(&DUMBBELL_ECN.replace("TCP_ECN", "true"));
    let plain = run(&DUMBBELL_ECN.replace("TCP_ECN", "false"));
    let queue = |r: &RunResults, col: &str| {
        let i = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").expect("bottleneck queue");
        i64_col(&r.queues, col)[i]
    };
    let sum = |r: &RunResults, col: &str| i64_col(&r.flows, col).iter().sum::<i64>();
    let goodput = |r: &RunResults| f64_col(&r.flows, "goodput_bps").iter().sum::<f64>();

    assert_eq!(queue(&plain, "marks"), 0, "plain flows are not ECN-capable: nothing to mark");
    let plain_early = queue(&plain, "early_drops");
    assert!(plain_early > 200, "RED should drop the plain flows early, dropped {plain_early}");

    let (marks, early) = (queue(&ecn, "marks"), queue(&ecn, "early_drops"));
    assert!(marks > 200, "RED should mark the ECN flows, marked {marks}");
    assert!(early * 20 < plain_early, "ECN: {early} early drops vs {plain_early} without");
    // At most one response per window, so fewer responses than marks, but many.
    let responses = sum(&ecn, "ecn_reductions");
    assert!(responses > marks / 2 && responses <= marks, "{responses} ECN responses for {marks} marks");
    assert_eq!(sum(&plain, "ecn_reductions"), 0);

    let (rtx_ecn, rtx_plain) = (sum(&ecn, "retransmits"), sum(&plain, "retransmits"));
    assert!(rtx_ecn * 10 < rtx_plain, "retransmissions: {rtx_ecn} with ECN, {rtx_plain} without");
    assert!(sum(&ecn, "timeouts") < sum(&plain, "timeouts"));
    let (g_ecn, g_plain) = (goodput(&ecn), goodput(&plain));
    assert!((g_ecn / g_plain - 1.0).abs() < 0.03, "goodput {g_ecn} with ECN, {g_plain} without");
}
