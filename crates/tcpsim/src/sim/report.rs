//! Turns the simulation's counters into result tables.

use super::measure::MeasurementStart;
use super::Simulation;
use crate::agent::{FlowCounters, RttSummary};
use crate::engine::time;
use crate::monitor::TimeSeries;
use crate::net::LinkStats;
use crate::results::{Column, RunResults, Table};

fn f64s(t: &mut Table, name: &str, v: Vec<f64>) {
    t.push(name, Column::F64(v));
}
fn i64s(t: &mut Table, name: &str, v: Vec<i64>) {
    t.push(name, Column::I64(v));
}
fn strs(t: &mut Table, name: &str, v: Vec<String>) {
    t.push(name, Column::Str(v));
}

pub(super) fn report(sim: &Simulation, wall_seconds: f64) -> RunResults {
    let sc = sim.scenario;
    let flows = flows_table(sim);
    let (queues, links) = queue_and_link_tables(sim);
    // Bytes delivered by all flows over the measurement window, per second of the window
    // (not a sum of per-flow rates over each flow's own active time, which can exceed
    // the links' capacity when flows take turns).
    let window_s = time::to_secs(sc.duration - sc.measure_from);
    let delivered: i64 = match flows.column("goodput_bytes") {
        Some(Column::I64(v)) => v.iter().sum(),
        _ => 0,
    };
    let timeseries = match &sim.series {
        Some(s) => s.clone().into_table(),
        None => TimeSeries::empty_table(),
    };
    let summary = serde_json::json!({
        "tcpsim_version": env!("CARGO_PKG_VERSION"),
        "scenario_file": sc.file,
        "seed": sc.seed,
        "duration_s": time::to_secs(sc.duration),
        "measure_from_s": time::to_secs(sc.measure_from),
        "aggregate_goodput_bps": delivered as f64 * 8.0 / window_s,
        "nodes": sc.nodes.len(),
        "link_directions": sim.links.len(),
        "flows": sc.flows.len(),
        "monitor_interval_s": sc.monitor.interval.map(time::to_secs),
        "events": sim.sched.events_executed(),
        "wall_seconds": wall_seconds,
    });
    RunResults { flows, queues, links, timeseries, summary }
}

/// One row per flow: counters over the measurement window, goodput and throughput over
/// the part of the window where the flow is active, RTT statistics.
fn flows_table(sim: &Simulation) -> Table {
    let sc = sim.scenario;
    let end = sc.duration;
    let from = sc.measure_from;
    let mut flows = Table::new();
    let n = sc.flows.len();
    let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(n); 9];
    let mut ints: Vec<Vec<i64>> = vec![Vec::with_capacity(n); 10];
    let mut names = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, (spec, f)) in sc.flows.iter().zip(&sim.flows).enumerate() {
        let stop = spec.stop.unwrap_or(end).min(end);
        let active = time::to_secs(stop.saturating_sub(spec.start.max(from))).max(0.0);
        let per_second = |bytes: f64| if active > 0.0 { bytes * 8.0 / active } else { 0.0 };
        names.0.push(spec.name.clone());
        names.2.push(sc.nodes[spec.from].clone());
        names.3.push(sc.nodes[spec.to].clone());
        let mut c = FlowCounters::default();
        f.source.report(&mut c);
        f.sink.report(&mut c);
        let at_start = MeasurementStart::flow(&sim.measurement_start, i);
        let c = window_counters(c, &at_start.counters);
        let (drops, received_bytes) = (f.drops - at_start.drops, f.received_bytes - at_start.received_bytes);
        names.1.push(c.transport.to_string());
        names.4.push(c.recovery.to_string());
        names.5.push(c.cc.to_string());
        let rtt = match c.rtt {
            Some(r) => (r.samples, r.mean, r.min, r.max),
            None => (0, f64::NAN, f64::NAN, f64::NAN),
        };
        let (sent, rtx, timeouts, fast_rtx, ecn, received, unique) =
            (c.packets_sent, c.retransmits, c.timeouts, c.fast_retransmits, c.ecn_reductions, c.packets_received, c.unique_packets);
        let goodput_bytes = unique * f.shape.payload as u64;
        let final_cwnd = c.final_cwnd.unwrap_or(f64::NAN);
        for (col, v) in ints.iter_mut().zip([sent, rtx, timeouts, fast_rtx, ecn, received, unique, goodput_bytes, drops, rtt.0]) {
            col.push(v as i64);
        }
        for (col, v) in cols.iter_mut().zip([
            time::to_secs(spec.start),
            time::to_secs(stop),
            per_second(goodput_bytes as f64),
            per_second(received_bytes as f64),
            rtt.1,
            rtt.2,
            rtt.3,
            final_cwnd,
        ]) {
            col.push(v);
        }
    }
    let mut ints = ints.into_iter();
    let mut cols = cols.into_iter();
    let mut next_i = || ints.next().expect("column");
    let mut next_f = || cols.next().expect("column");
    strs(&mut flows, "name", names.0);
    strs(&mut flows, "type", names.1);
    strs(&mut flows, "from", names.2);
    strs(&mut flows, "to", names.3);
    strs(&mut flows, "recovery", names.4);
    strs(&mut flows, "cc", names.5);
    f64s(&mut flows, "start_s", next_f());
    f64s(&mut flows, "stop_s", next_f());
    i64s(&mut flows, "packets_sent", next_i());
    i64s(&mut flows, "retransmits", next_i());
    i64s(&mut flows, "timeouts", next_i());
    i64s(&mut flows, "fast_retransmits", next_i());
    i64s(&mut flows, "ecn_reductions", next_i());
    i64s(&mut flows, "packets_received", next_i());
    i64s(&mut flows, "unique_packets", next_i());
    i64s(&mut flows, "goodput_bytes", next_i());
    f64s(&mut flows, "goodput_bps", next_f());
    f64s(&mut flows, "throughput_bps", next_f());
    i64s(&mut flows, "drops", next_i());
    i64s(&mut flows, "rtt_samples", next_i());
    f64s(&mut flows, "rtt_mean_s", next_f());
    f64s(&mut flows, "rtt_min_s", next_f());
    f64s(&mut flows, "rtt_max_s", next_f());
    f64s(&mut flows, "final_cwnd", next_f());
    flows
}

/// A flow's counters over the measurement window: `end` less `start` (taken when the window
/// opened); the RTT mean is over the window's samples, its extremes restarted then.
fn window_counters(end: FlowCounters, start: &FlowCounters) -> FlowCounters {
    let rtt = match (end.rtt, start.rtt) {
        (Some(e), Some(s)) if e.samples > s.samples => {
            let samples = e.samples - s.samples;
            let sum = e.mean * e.samples as f64 - s.mean * s.samples as f64;
            Some(RttSummary { samples, mean: sum / samples as f64, ..e })
        }
        (Some(_), Some(_)) => None,
        (e, _) => e,
    };
    FlowCounters {
        packets_sent: end.packets_sent - start.packets_sent,
        retransmits: end.retransmits - start.retransmits,
        timeouts: end.timeouts - start.timeouts,
        fast_retransmits: end.fast_retransmits - start.fast_retransmits,
        ecn_reductions: end.ecn_reductions - start.ecn_reductions,
        packets_received: end.packets_received - start.packets_received,
        unique_packets: end.unique_packets - start.unique_packets,
        rtt,
        ..end
    }
}

/// A link direction's counters over the measurement window (`end` less `start`); the
/// maximum length was restarted when the window opened.
fn window_stats(end: &LinkStats, start: &LinkStats) -> LinkStats {
    LinkStats {
        arrivals: end.arrivals - start.arrivals,
        departures: end.departures - start.departures,
        early_drops: end.early_drops - start.early_drops,
        overflow_drops: end.overflow_drops - start.overflow_drops,
        marks: end.marks - start.marks,
        length_area: end.length_area - start.length_area,
        sojourn_sum: end.sojourn_sum - start.sojourn_sum,
        bytes_sent: end.bytes_sent - start.bytes_sent,
        busy_time: end.busy_time - start.busy_time,
        error_drops: end.error_drops - start.error_drops,
        down_drops: end.down_drops - start.down_drops,
        ..end.clone()
    }
}

/// One row per link direction for its queue, and one for its transmitter, over the
/// measurement window.
fn queue_and_link_tables(sim: &Simulation) -> (Table, Table) {
    let sc = sim.scenario;
    let window = (sc.duration - sc.measure_from) as f64;
    let mut queues = Table::new();
    let mut links = Table::new();
    let names: Vec<String> = sim.links.iter().map(|l| sc.queue_name(l.from, l.to)).collect();
    let stats: Vec<LinkStats> =
        sim.links.iter().enumerate().map(|(i, l)| window_stats(&l.stats, &MeasurementStart::link(&sim.measurement_start, i))).collect();
    let stat = |f: &dyn Fn(&LinkStats) -> i64| stats.iter().map(f).collect::<Vec<i64>>();
    strs(&mut queues, "queue", names.clone());
    strs(&mut queues, "kind", sim.links.iter().map(|l| l.queue.kind().to_string()).collect());
    i64s(&mut queues, "arrivals", stat(&|s| s.arrivals as i64));
    i64s(&mut queues, "departures", stat(&|s| s.departures as i64));
    i64s(&mut queues, "early_drops", stat(&|s| s.early_drops as i64));
    i64s(&mut queues, "overflow_drops", stat(&|s| s.overflow_drops as i64));
    i64s(&mut queues, "marks", stat(&|s| s.marks as i64));
    f64s(&mut queues, "mean_length_pkts", stats.iter().map(|s| s.length_area as f64 / window).collect());
    i64s(&mut queues, "max_length_pkts", stat(&|s| s.max_length as i64));
    f64s(
        &mut queues,
        "mean_sojourn_s",
        stats.iter().map(|s| if s.departures > 0 { s.sojourn_sum as f64 / time::PS_PER_S as f64 / s.departures as f64 } else { f64::NAN }).collect(),
    );

    strs(&mut links, "link", names);
    // The rate and delay the scenario gave the link (`[[event]]`s may change them
    // during the run).
    i64s(&mut links, "rate_bps", (0..sim.links.len()).map(|i| sc.links[i / 2].rate_bps as i64).collect());
    f64s(&mut links, "delay_s", (0..sim.links.len()).map(|i| time::to_secs(sc.links[i / 2].delay)).collect());
    i64s(&mut links, "packets_sent", stat(&|s| s.departures as i64));
    i64s(&mut links, "bytes_sent", stat(&|s| s.bytes_sent as i64));
    i64s(&mut links, "error_drops", stat(&|s| s.error_drops as i64));
    i64s(&mut links, "down_drops", stat(&|s| s.down_drops as i64));
    f64s(&mut links, "utilization", stats.iter().map(|s| s.busy_time as f64 / window).collect());
    (queues, links)
}
