//! Turns the simulation's counters into result tables.
//!
//! A finished run ([`Finished`]) gives its tables whole ([`Finished::results`]) or a range
//! of rows at a time ([`Finished::flows`], [`Finished::queues`], [`Finished::links`]), so
//! that a writer can stream a million flows' rows to a file without holding a second
//! copy of them beside the simulation (`tcpsim-run --csv`). Both give the same cells.

use super::measure::MeasurementStart;
use super::Simulation;
use crate::agent::{FlowCounters, RttSummary};
use crate::engine::time;
use crate::monitor::TimeSeries;
use crate::net::LinkStats;
use crate::results::{Column, RunResults, Table};
use std::ops::Range;

fn f64s(t: &mut Table, name: &str, v: Vec<f64>) {
    t.push(name, Column::F64(v));
}
fn i64s(t: &mut Table, name: &str, v: Vec<i64>) {
    t.push(name, Column::I64(v));
}
fn strs(t: &mut Table, name: &str, v: Vec<String>) {
    t.push(name, Column::Str(v));
}

/// A simulation that has run to its end: its result tables, whole or a range of rows at a
/// time.
pub struct Finished<'s> {
    sim: Simulation<'s>,
    wall_seconds: f64,
    trace_files: Vec<std::path::PathBuf>,
    /// The names of the values the flows' models recorded, in the order the flows first
    /// give them: the flows table's recorded columns, the same in every range of rows.
    recorded_names: Vec<&'static str>,
}

impl<'s> Finished<'s> {
    // Out of line: once at the end of a run (see `summary`).
    #[inline(never)]
    pub(super) fn new(sim: Simulation<'s>, wall_seconds: f64, trace_files: Vec<std::path::PathBuf>) -> Self {
        let recorded_names = recorded_names(&sim);
        Finished { sim, wall_seconds, trace_files, recorded_names }
    }

    /// Every table whole (what [`crate::run`] returns).
    pub fn results(&self) -> RunResults {
        RunResults {
            flows: self.flows(0..self.flow_count()),
            queues: self.queues(0..self.link_count()),
            links: self.links(0..self.link_count()),
            timeseries: self.timeseries(),
            summary: self.summary(),
        }
    }

    /// Rows of the flows table (one per flow, in scenario order).
    pub fn flow_count(&self) -> usize {
        self.sim.flows.len()
    }

    /// Rows of the queues and links tables (one per link direction).
    pub fn link_count(&self) -> usize {
        self.sim.links.len()
    }

    /// The flows table's rows `rows`.
    pub fn flows(&self, rows: Range<usize>) -> Table {
        flows_table(&self.sim, rows, &self.recorded_names)
    }

    /// The queues table's rows `rows`.
    pub fn queues(&self, rows: Range<usize>) -> Table {
        queues_table(&self.sim, rows)
    }

    /// The links table's rows `rows`.
    pub fn links(&self, rows: Range<usize>) -> Table {
        links_table(&self.sim, rows)
    }

    /// The time series in long format (empty without a monitor interval).
    pub fn timeseries(&self) -> Table {
        match &self.sim.series {
            Some(s) => s.clone().into_table(),
            None => TimeSeries::empty_table(),
        }
    }

    /// The scenario echo and the run's facts.
    pub fn summary(&self) -> serde_json::Value {
        summary(&self.sim, self.wall_seconds, &self.trace_files)
    }
}

/// The summary: scenario echo (seed, duration, file) and run facts (events, wall time).
// Out of line: once at the end of a run, and inlined it changes the event loop's code
// around it (measured: 0.3 % more instructions in the loop of B1 and B2).
#[inline(never)]
fn summary(sim: &Simulation, wall_seconds: f64, trace_files: &[std::path::PathBuf]) -> serde_json::Value {
    let sc = sim.scenario;
    // Bytes delivered by all flows over the measurement window, per second of the window
    // (not a sum of per-flow rates over each flow's own active time, which can exceed
    // the links' capacity when flows take turns).
    let window_s = time::to_secs(sc.duration - sc.measure_from);
    let delivered: i64 = (0..sim.flows.len()).map(|i| flow_row(sim, i).goodput_bytes as i64).sum();
    serde_json::json!({
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
        "trace_files": trace_files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    })
}

/// A flow's counters over the measurement window, as its row of the flows table gives them.
struct FlowRow {
    counters: FlowCounters,
    drops: u64,
    received_bytes: u64,
    goodput_bytes: u64,
}

fn flow_row(sim: &Simulation, i: usize) -> FlowRow {
    let f = &sim.flows[i];
    let mut c = FlowCounters::default();
    f.source.report(&mut c);
    f.sink.report(&mut c);
    let at_start = MeasurementStart::flow(&sim.measurement_start, i);
    let counters = window_counters(c, &at_start.counters);
    let goodput_bytes = counters.unique_packets * f.shape.payload as u64;
    FlowRow { counters, drops: f.drops - at_start.drops, received_bytes: f.received_bytes - at_start.received_bytes, goodput_bytes }
}

/// The names of the values the flows' models recorded, in the order the flows first give
/// them.
fn recorded_names(sim: &Simulation) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for f in &sim.flows {
        let mut c = FlowCounters::default();
        f.source.report(&mut c);
        f.sink.report(&mut c);
        for (name, _) in &c.recorded {
            if !names.contains(name) {
                names.push(name);
            }
        }
    }
    names
}

/// One row per flow: counters over the measurement window, goodput and throughput over
/// the part of the window where the flow is active, RTT statistics.
fn flows_table(sim: &Simulation, rows: Range<usize>, recorded_names: &[&'static str]) -> Table {
    let sc = sim.scenario;
    let end = sc.duration;
    let from = sc.measure_from;
    let mut flows = Table::new();
    let n = rows.len();
    let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(n); 9];
    let mut ints: Vec<Vec<i64>> = vec![Vec::with_capacity(n); 10];
    let mut names = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut recorded = Vec::with_capacity(n);
    for i in rows.clone() {
        let spec = &sc.flows[i];
        let stop = spec.stop.unwrap_or(end).min(end);
        let active = time::to_secs(stop.saturating_sub(spec.start.max(from))).max(0.0);
        let per_second = |bytes: f64| if active > 0.0 { bytes * 8.0 / active } else { 0.0 };
        names.0.push(spec.name.clone());
        names.2.push(sc.nodes[spec.from as usize].to_string());
        names.3.push(sc.nodes[spec.to as usize].to_string());
        let FlowRow { counters: c, drops, received_bytes, goodput_bytes } = flow_row(sim, i);
        names.1.push(c.transport.to_string());
        names.4.push(c.recovery.to_string());
        names.5.push(c.cc.to_string());
        let rtt = match c.rtt {
            Some(r) => (r.samples, r.mean, r.min, r.max),
            None => (0, f64::NAN, f64::NAN, f64::NAN),
        };
        let (sent, rtx, timeouts, fast_rtx, ecn, received, unique) =
            (c.packets_sent, c.retransmits, c.timeouts, c.fast_retransmits, c.ecn_reductions, c.packets_received, c.unique_packets);
        let final_cwnd = c.final_cwnd.unwrap_or(f64::NAN);
        recorded.push(c.recorded);
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
    // Only when some flow has a group (`group = "..."`), so that the tables of scenarios
    // without groups keep their columns; a flow without one has an empty cell.
    if !sc.groups.is_empty() {
        strs(&mut flows, "group", rows.map(|i| sc.group_of(i).unwrap_or_default().to_string()).collect());
    }
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
    recorded_columns(&mut flows, recorded_names, &recorded);
    flows
}

/// The summary columns of the values the flows' models recorded (`FlowCounters::recorded`,
/// already cut to the measurement window): for each of `names` (those of every flow, in
/// the order the flows first give them), `NAME_count`, `NAME_mean`, `NAME_min` and
/// `NAME_max`. A flow whose models do not record the value gets NaN in all four (so the
/// count is a float column); one that records it but recorded none in the window gets a
/// count of 0 and NaN in the others.
fn recorded_columns(flows: &mut Table, names: &[&'static str], recorded: &[Vec<(&'static str, Vec<f64>)>]) {
    for &name in names {
        let mut summaries: [Vec<f64>; 4] = Default::default();
        for flow in recorded {
            let values = flow.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_slice());
            for (column, value) in summaries.iter_mut().zip(summarize(values)) {
                column.push(value);
            }
        }
        for (column, statistic) in summaries.into_iter().zip(["count", "mean", "min", "max"]) {
            f64s(flows, &format!("{name}_{statistic}"), column);
        }
    }
}

/// Count, mean, minimum and maximum of `values` (all NaN when there are none to
/// summarize; the count 0 when the list is there but empty).
fn summarize(values: Option<&[f64]>) -> [f64; 4] {
    match values {
        None => [f64::NAN; 4],
        Some([]) => [0.0, f64::NAN, f64::NAN, f64::NAN],
        Some(v) => {
            let min = v.iter().copied().fold(f64::INFINITY, f64::min);
            let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            // The rounding of the sum can put the mean of equal values a unit in the last
            // place outside them; the exact mean lies between the extremes.
            let mean = (v.iter().sum::<f64>() / v.len() as f64).clamp(min, max);
            [v.len() as f64, mean, min, max]
        }
    }
}

/// A flow's counters over the measurement window: `end` less `start` (taken when the window
/// opened); the RTT mean is over the window's samples, its extremes restarted then; the
/// recorded values are those recorded after `start`.
fn window_counters(mut end: FlowCounters, start: &FlowCounters) -> FlowCounters {
    for (name, values) in &mut end.recorded {
        let before = start.recorded.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| v.len());
        values.drain(..before.min(values.len()));
    }
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

/// A link direction's counters over the measurement window.
fn link_stats(sim: &Simulation, i: usize) -> LinkStats {
    window_stats(&sim.links[i].stats.stats(), &MeasurementStart::link(&sim.measurement_start, i))
}

/// One row per link direction (of `rows`) for its queue, over the measurement window.
fn queues_table(sim: &Simulation, rows: Range<usize>) -> Table {
    let sc = sim.scenario;
    let window = (sc.duration - sc.measure_from) as f64;
    let mut queues = Table::new();
    let links = &sim.links[rows.clone()];
    let stats: Vec<LinkStats> = rows.clone().map(|i| link_stats(sim, i)).collect();
    let stat = |f: &dyn Fn(&LinkStats) -> i64| stats.iter().map(f).collect::<Vec<i64>>();
    strs(&mut queues, "queue", links.iter().map(|l| sc.queue_name(l.from as usize, l.to as usize)).collect());
    strs(&mut queues, "kind", links.iter().map(|l| l.queue.kind().to_string()).collect());
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
    queues
}

/// One row per link direction (of `rows`) for its transmitter, over the measurement window.
fn links_table(sim: &Simulation, rows: Range<usize>) -> Table {
    let sc = sim.scenario;
    let window = (sc.duration - sc.measure_from) as f64;
    let mut links = Table::new();
    let stats: Vec<LinkStats> = rows.clone().map(|i| link_stats(sim, i)).collect();
    let stat = |f: &dyn Fn(&LinkStats) -> i64| stats.iter().map(f).collect::<Vec<i64>>();
    strs(&mut links, "link", sim.links[rows.clone()].iter().map(|l| sc.queue_name(l.from as usize, l.to as usize)).collect());
    // The rate and delay the scenario gave the link (`[[event]]`s may change them
    // during the run).
    i64s(&mut links, "rate_bps", rows.clone().map(|i| sc.links[i / 2].rate_bps as i64).collect());
    f64s(&mut links, "delay_s", rows.map(|i| time::to_secs(sc.links[i / 2].delay)).collect());
    i64s(&mut links, "packets_sent", stat(&|s| s.departures as i64));
    i64s(&mut links, "bytes_sent", stat(&|s| s.bytes_sent as i64));
    i64s(&mut links, "error_drops", stat(&|s| s.error_drops as i64));
    i64s(&mut links, "down_drops", stat(&|s| s.down_drops as i64));
    f64s(&mut links, "utilization", stats.iter().map(|s| s.busy_time as f64 / window).collect());
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column<'t>(t: &'t Table, name: &str) -> &'t [f64] {
        match t.column(name) {
            Some(Column::F64(v)) => v,
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn recorded_values_count_from_the_measurement_window() {
        let start = FlowCounters { recorded: vec![("gamma", vec![0.5, 0.6])], ..FlowCounters::default() };
        let end = FlowCounters { recorded: vec![("gamma", vec![0.5, 0.6, 0.7, 0.9])], ..FlowCounters::default() };
        assert_eq!(window_counters(end, &start).recorded, vec![("gamma", vec![0.7, 0.9])]);
        // Without a window the start is empty: every value counts.
        let end = FlowCounters { recorded: vec![("gamma", vec![0.5])], ..FlowCounters::default() };
        assert_eq!(window_counters(end, &FlowCounters::default()).recorded, vec![("gamma", vec![0.5])]);
    }

    #[test]
    fn each_recorded_value_gets_count_mean_min_and_max_and_nan_where_a_flow_has_none() {
        let recorded = vec![
            vec![("gamma", vec![0.5, 0.75, 1.0])],
            vec![],                      // a flow whose window control records nothing
            vec![("gamma", vec![])],     // one that records γ but applied none
            vec![("other", vec![3.0])],  // names come in the order flows first give them
        ];
        let mut t = Table::new();
        recorded_columns(&mut t, &["gamma", "other"], &recorded);
        let names: Vec<&str> = t.columns.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["gamma_count", "gamma_mean", "gamma_min", "gamma_max", "other_count", "other_mean", "other_min", "other_max"]);
        assert_eq!(column(&t, "gamma_count")[0], 3.0);
        assert_eq!(column(&t, "gamma_mean")[0], 0.75);
        assert_eq!((column(&t, "gamma_min")[0], column(&t, "gamma_max")[0]), (0.5, 1.0));
        assert!(column(&t, "gamma_count")[1].is_nan() && column(&t, "gamma_mean")[1].is_nan());
        assert_eq!(column(&t, "gamma_count")[2], 0.0);
        assert!(column(&t, "gamma_mean")[2].is_nan() && column(&t, "gamma_max")[2].is_nan());
        assert!(column(&t, "gamma_count")[3].is_nan());
        // The mean of equal values is that value, whatever the rounding of their sum.
        let same = [0.6585783088138537; 3];
        assert_eq!(summarize(Some(&same))[1], same[0]);
        let other = column(&t, "other_count");
        assert!(other[..3].iter().all(|x| x.is_nan()) && other[3] == 1.0, "{other:?}");
    }
}
