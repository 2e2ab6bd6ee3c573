//! Scenario tests of CoDel and FQ-CoDel (`queue = "codel"`, `"fq_codel"`): CoDel holds
//! the standing queue of long-lived Reno flows near its 5 ms target where a large
//! drop-tail buffer fills (RFC 8289 §1, §6: "good queue" vs "bad queue"); FQ-CoDel
//! isolates TCP flows from an unresponsive CBR overload and shares the link nearly
//! equally among TCP flows of different RTTs (RFC 8290 §1, §7).

mod common;

use common::{column, f64_col, flow_number, run, series, str_col};

/// Four Reno flows (and, with `cbr`, a CBR source) across a 10 Mb/s, 20 ms bottleneck
/// with queue `queue` (a TOML value); access links 100 Mb/s with one-way delays
/// `delays` (ms). 40 s, measured over 10–40 s.
fn dumbbell(queue: &str, delays: [u32; 4], cbr: Option<&str>) -> String {
    let delays: Vec<String> = delays.iter().map(|d| format!("\"{d}ms\"")).collect();
    let pairs = if cbr.is_some() { 5 } else { 4 };
    let mut access = delays.clone();
    if cbr.is_some() {
        access.push("\"1ms\"".into());
    }
    let cbr_flow = cbr.map(|rate| format!("[[flow]]\nname = \"cbr\"\ntype = \"cbr\"\nfrom = \"s4\"\nto = \"d4\"\nrate = \"{rate}\"\npacket_size = \"1000B\"\n\n")).unwrap_or_default();
    format!(
        "[simulation]\nduration = \"40s\"\nmeasure_from = \"10s\"\nseed = 1\n\n\
         [dumbbell]\npairs = {pairs}\naccess_delays = [{}]\n\n\
         [dumbbell.bottleneck]\nrate = \"10Mbps\"\ndelay = \"20ms\"\nqueue = {queue}\n\n\
         [dumbbell.access]\nrate = \"100Mbps\"\ndelay = \"1ms\"\nqueue = {{ kind = \"droptail\", limit = \"10000p\" }}\n\n\
         [[flow]]\nname = \"tcp{{i}}\"\ncount = 4\nfrom = \"s{{i}}\"\nto = \"d{{i}}\"\nmax_window = 10000\nstart_jitter = \"1s\"\n\n\
         {cbr_flow}\
         [monitor]\ninterval = \"100ms\"\nqueues = [\"r1->r2\"]\nflows = \"none\"\n",
        access.join(", ")
    )
}

/// The bottleneck's row of the queues table: (mean sojourn in s, early drops, overflow drops).
fn bottleneck(r: &tcpsim::RunResults) -> (f64, i64, i64) {
    let row = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").expect("the bottleneck queue");
    let int = |name: &str| match column(&r.queues, name) {
        tcpsim::Column::I64(v) => v[row],
        other => panic!("{name}: {other:?}"),
    };
    (f64_col(&r.queues, "mean_sojourn_s")[row], int("early_drops"), int("overflow_drops"))
}

fn utilization(r: &tcpsim::RunResults) -> f64 {
    let u = series(r, "r1->r2", "utilization");
    let v: Vec<f64> = u.iter().filter(|&&(t, _)| t >= 10.0).map(|&(_, v)| v).collect();
    v.iter().sum::<f64>() / v.len() as f64
}

fn goodputs_mbps(r: &tcpsim::RunResults, rows: std::ops::Range<usize>) -> Vec<f64> {
    rows.map(|i| flow_number(r, i, "goodput_bps") / 1e6).collect()
}

/// RFC 8289 §1: a large FIFO lets Reno build a standing queue of hundreds of ms; CoDel
/// drops until the queue's minimum sojourn is below target, so the mean sojourn is a
/// few ms while the link stays nearly full.
#[test]
fn codel_keeps_the_standing_queue_near_target_where_droptail_fills() {
    let delays = [1, 5, 10, 20];
    let tail = run(&dumbbell(r#"{ kind = "droptail", limit = "1000p" }"#, delays, None));
    let codel = run(&dumbbell(r#""codel""#, delays, None));
    let (tail_sojourn, _, _) = bottleneck(&tail);
    let (codel_sojourn, codel_early, codel_overflow) = bottleneck(&codel);
    eprintln!("droptail sojourn {tail_sojourn:.4} s, codel {codel_sojourn:.4} s ({codel_early} early, {codel_overflow} overflow), utilization {:.3} vs {:.3}", utilization(&tail), utilization(&codel));
    assert!(tail_sojourn > 0.2, "drop-tail mean sojourn {tail_sojourn} s");
    assert!(codel_sojourn < 0.015, "CoDel mean sojourn {codel_sojourn} s, target 0.005");
    assert!(codel_early > 0 && codel_overflow == 0, "CoDel's own drops at dequeue hold the queue");
    assert!(utilization(&codel) > 0.9, "CoDel utilization {}", utilization(&codel));
    let dropping = series(&codel, "r1->r2", "codel_dropping");
    assert!(dropping.iter().any(|&(_, v)| v == 1.0), "the dropping state is sampled");
}

/// RFC 8290 §1: with a queue per flow an unresponsive source overloading the link gets
/// only its fair share; DRR gives the TCP flows of 24 to 104 ms round trips nearly equal
/// shares of the rest.
#[test]
fn fq_codel_isolates_a_cbr_overload_and_shares_equally_across_rtts() {
    let delays = [1, 10, 20, 40];
    let fq = run(&dumbbell(r#"{ kind = "fq_codel", perfect = true }"#, delays, Some("8Mbps")));
    let tcp = goodputs_mbps(&fq, 0..4);
    let cbr = flow_number(&fq, 4, "goodput_bps") / 1e6;
    let (sojourn, _, _) = bottleneck(&fq);
    eprintln!("fq_codel: tcp {tcp:?} Mb/s, cbr {cbr:.3} Mb/s, mean sojourn {sojourn:.4} s");
    // Five flows, a fair share of 2 Mb/s each: the CBR source offering 8 Mb/s gets
    // about its share (a little more: the TCP queues are not always backlogged, and DRR
    // gives their unused turns to the queues that wait).
    assert!(cbr < 2.7, "CBR goodput {cbr} Mb/s");
    let (lo, hi) = tcp.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &g| (lo.min(g), hi.max(g)));
    assert!(lo > 1.5, "every TCP flow gets near its share: {tcp:?}");
    assert!(hi / lo < 1.3, "shares within 30 % whatever the RTT: {tcp:?}");
    // The TCP flows' packets do not wait behind the CBR backlog: their RTT stays within
    // a few target delays of the propagation round trip (2 · (1 + d + 20 + 1) ms).
    for (i, d) in delays.iter().enumerate() {
        let base = 2.0 * (22.0 + *d as f64) / 1000.0;
        let rtt = flow_number(&fq, i, "rtt_mean_s");
        assert!(rtt - base < 0.03, "flow {i}: mean RTT {rtt} s, propagation {base} s");
    }
    // The same load on a drop-tail buffer: the CBR source takes most of the link.
    let tail = run(&dumbbell(r#"{ kind = "droptail", limit = "100p" }"#, delays, Some("8Mbps")));
    let tail_cbr = flow_number(&tail, 4, "goodput_bps") / 1e6;
    eprintln!("droptail: tcp {:?} Mb/s, cbr {tail_cbr:.3} Mb/s", goodputs_mbps(&tail, 0..4));
    assert!(tail_cbr > 5.0, "drop-tail CBR goodput {tail_cbr} Mb/s");
    assert!(flow_number(&tail, 0, "rtt_mean_s") > 0.1, "drop-tail: the TCP packets wait behind the CBR backlog");
}

/// RFC 8289 §5 / Linux: with `ecn = true` and ECN-capable flows CoDel marks where it
/// would drop, and holds the queue as well.
#[test]
fn codel_with_ecn_marks_instead_of_dropping() {
    let text = dumbbell(r#"{ kind = "codel", ecn = true }"#, [1, 5, 10, 20], None).replace("start_jitter = \"1s\"\n", "start_jitter = \"1s\"\necn = true\n");
    let r = run(&text);
    let (sojourn, early, overflow) = bottleneck(&r);
    let row = str_col(&r.queues, "queue").iter().position(|q| q == "r1->r2").expect("the bottleneck queue");
    let marks = match column(&r.queues, "marks") {
        tcpsim::Column::I64(v) => v[row],
        other => panic!("marks: {other:?}"),
    };
    eprintln!("codel ecn: sojourn {sojourn:.4} s, {marks} marks, {early} early, {overflow} overflow drops");
    assert!(marks > 0 && early == 0 && overflow == 0);
    assert!(sojourn < 0.015, "mean sojourn {sojourn} s");
}

/// The default classifier (1024 hashed queues) isolates the CBR source too: five flows
/// (and their ACKs) rarely collide.
#[test]
fn fq_codel_with_hashed_queues_isolates_the_cbr_source() {
    let r = run(&dumbbell(r#""fq_codel""#, [1, 10, 20, 40], Some("8Mbps")));
    let cbr = flow_number(&r, 4, "goodput_bps") / 1e6;
    let tcp = goodputs_mbps(&r, 0..4);
    eprintln!("fq_codel hashed: tcp {tcp:?} Mb/s, cbr {cbr:.3} Mb/s");
    assert!(cbr < 2.7 && tcp.iter().all(|&g| g > 1.5), "tcp {tcp:?}, cbr {cbr}");
}
