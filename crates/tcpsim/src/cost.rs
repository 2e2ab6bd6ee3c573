//! What a scenario will cost before it runs: memory, time-series samples and (roughly)
//! events, so that input that validates cannot exhaust the machine.
//!
//! [`estimate`] adds up what grows with the input: flows and their windows (the first
//! burst of `initial_window` packets is put in the sender's outbox at once; send records
//! and the SACK scoreboard span up to `max_window`), packets alive in queues and on the
//! wire (at most what the flows' windows and CBR sources can put there, and at most what
//! the queues and links can hold), routes (4 bytes per hop of each distinct route), and
//! the monitor's samples (kept during the run and copied into the result table). The
//! figures are upper estimates from the sizes of the structures, not measurements; their
//! point is the order of magnitude. [`check`] refuses a scenario above [`Limits`], naming
//! what is big, where it is written and how to raise the limit.
//!
//! The default limits (4 GiB, 10⁷ samples) leave room for the Python front end's copy of
//! the results on the 24 GiB machines this project runs on; `tcpsim-run --max-memory`,
//! `--max-samples` and `tcpsim run` with the same options raise them.

use crate::agent::Load;
use crate::engine::time;
use crate::queue::Limit;
use crate::scenario::{LinkQueue, Scenario, ScenarioError};
use std::mem::size_of;

/// What a run may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Bytes of memory the estimate may reach.
    pub max_memory: u64,
    /// Time-series values (one per sample time, entity and metric) the monitor may record.
    pub max_samples: u64,
}

impl Limits {
    pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;
    pub const DEFAULT_MAX_SAMPLES: u64 = 10_000_000;

    /// No limit (for callers that checked already).
    pub fn unlimited() -> Self {
        Limits { max_memory: u64::MAX, max_samples: u64::MAX }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_memory: Self::DEFAULT_MAX_MEMORY, max_samples: Self::DEFAULT_MAX_SAMPLES }
    }
}

/// One contribution to the memory estimate, located in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// What it is, e.g. "flow \"f\": a first burst of 1000000000 packets (initial_window)".
    pub what: String,
    /// Key that makes it big (to name in an error).
    pub key: String,
    pub line: Option<usize>,
    pub bytes: u64,
}

/// The estimated cost of running a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Bytes, all parts together.
    pub memory: u64,
    /// Time-series values the monitor records.
    pub samples: u64,
    /// A rough upper estimate of events: two per packet each link direction could send
    /// at full rate over the run, plus samples.
    pub events: f64,
    /// The parts of `memory`, largest first.
    pub parts: Vec<Part>,
}

/// Bytes kept per time-series value: during the run (time, entity, metric, value in four
/// growing vectors, up to twice their length) and in the result table (entity and metric
/// as strings).
const BYTES_PER_SAMPLE: u64 = 160;
/// Bytes per packet alive: the packet in the arena, its event in the scheduler, its place
/// in a queue.
const BYTES_PER_PACKET: u64 = size_of::<crate::engine::Packet>() as u64 + 48;
/// Bytes per packet of a sender's window: a send record, a scoreboard mark, the
/// receiver's bookkeeping.
const BYTES_PER_WINDOW_PACKET: u64 = 32;
/// Bytes per node and per link direction besides the names (queue, counters, routing).
const BYTES_PER_NODE: u64 = 128;
const BYTES_PER_LINK_DIRECTION: u64 = 1024;

pub use crate::net::routing::Routes;

/// The link direction `d` of `scenario`: (its link, its queue, where the queue is written).
fn direction(scenario: &Scenario, d: u32) -> (&crate::scenario::LinkSpec, &LinkQueue, &(String, Option<usize>)) {
    let l = &scenario.links[d as usize / 2];
    let queue = if d.is_multiple_of(2) { &l.models.queue_ab } else { &l.models.queue_ba };
    (l, queue, &queue.at)
}

/// Packets of `packet_size` bytes a queue holds at most (infinite without a limit).
fn queue_packets(queue: &LinkQueue, packet_size: f64) -> f64 {
    match queue.typed.limit() {
        Some(Limit::Packets(n)) => n as f64,
        Some(Limit::Bytes(b)) => b as f64 / packet_size.max(1.0),
        None => f64::INFINITY,
    }
}

/// Estimates what running `scenario` over `routes` costs.
///
/// Packets alive (and the senders' windows that span them) are bounded per bottleneck:
/// every queue on a TCP flow's data route drops what does not fit, and the senders notice
/// within a round trip, so the flows crossing a queue keep at most their initial windows
/// plus twice (queue + rate × round trip) packets between them, and each at most its
/// `max_window`. Each flow is counted at the queue of its route whose bound, shared by
/// the flows crossing it, is smallest (a dumbbell's flows at their common bottleneck, not
/// each at its own access link, whose bounds would add up). A CBR source does not back off: its packets
/// fill the queues and links of its route, at most what it sends in the run.
pub fn estimate(scenario: &Scenario, routes: &Routes) -> Estimate {
    let mut parts = Vec::new();
    let duration_s = time::to_secs(scenario.duration);

    let names: u64 = scenario.nodes.iter().map(|n| n.len() as u64 + 24).sum();
    let structure = scenario.nodes.len() as u64 * BYTES_PER_NODE + names + scenario.links.len() as u64 * 2 * BYTES_PER_LINK_DIRECTION;
    parts.push(Part {
        what: format!("{} nodes and {} link directions", scenario.nodes.len(), 2 * scenario.links.len()),
        key: "network".into(),
        line: None,
        bytes: structure,
    });

    // Events: two per packet each direction could send at full rate (the smallest
    // packet any flow sends), plus samples. A rough upper estimate for reports.
    let smallest_packet = scenario
        .flows
        .iter()
        .map(|f| f.source.config.shape().smallest_packet().max(1))
        .min()
        .unwrap_or(40) as f64;
    let mut events: f64 = scenario.links.iter().map(|l| 2.0 * 2.0 * l.rate_bps as f64 * duration_s / (8.0 * smallest_packet)).sum();

    let mut flow_fixed = 0u64;
    // First bursts: ns-2 send_much puts min(initial_window, max_window) packets in the
    // outbox at once when a flow starts; all flows may start together.
    let mut bursts = 0f64;
    let mut largest_burst: Option<(f64, &crate::scenario::FlowSpec)> = None;
    // Per bottleneck direction: (sum of windows, sum of bursts, its bound without the bursts).
    let mut bottlenecks: std::collections::HashMap<u32, (f64, f64, f64)> = std::collections::HashMap::new();
    let mut cbr_packets = 0f64;
    // Window-limited flows whose data crosses each link direction: every queue on a
    // flow's route bounds it, and a queue shared by many flows bounds them all at once.
    let mut sharing: std::collections::HashMap<u32, f64> = std::collections::HashMap::new();
    for (f, &(data, _)) in scenario.flows.iter().zip(&routes.flow_routes) {
        if matches!(f.source.config.load(), Load::Window { .. }) {
            for &d in routes.routes.get(data) {
                *sharing.entry(d).or_insert(0.0) += 1.0;
            }
        }
    }
    for (f, &(data, _)) in scenario.flows.iter().zip(&routes.flow_routes) {
        flow_fixed += f.name.len() as u64 + 2 * 64;
        let route = routes.routes.get(data);
        let round_trip: f64 = 2.0 * route.iter().map(|&d| time::to_secs(direction(scenario, d).0.delay)).sum::<f64>();
        match f.source.config.load() {
            Load::Window { packet_size, max_window, initial_window, agent_bytes } => {
                flow_fixed += agent_bytes;
                let size = f64::from(packet_size);
                let window = max_window;
                let burst = initial_window.max(1.0).min(window);
                bursts += burst;
                if largest_burst.is_none_or(|(b, _)| burst > b) {
                    largest_burst = Some((burst, f));
                }
                // The bound of direction d on the flows that cross it: twice its queue and
                // what it carries in a round trip. Each flow is counted at the direction
                // whose bound, shared among the flows crossing it, is the smallest: a
                // dumbbell's thousands of flows at their common bottleneck, not each at
                // its own access link (whose bounds would add up).
                let bound_of = |d: u32| {
                    let (link, queue, _) = direction(scenario, d);
                    2.0 * (queue_packets(queue, size) + link.rate_bps as f64 * round_trip / (8.0 * size) + 1.0)
                };
                let share = |d: u32| bound_of(d) / sharing.get(&d).copied().unwrap_or(1.0);
                let tightest = route.iter().copied().min_by(|&a, &b| share(a).total_cmp(&share(b)));
                let Some(d) = tightest else { continue };
                let bound = bound_of(d);
                let entry = bottlenecks.entry(d).or_insert((0.0, 0.0, 0.0));
                entry.0 += window;
                entry.1 += burst;
                entry.2 = entry.2.max(bound);
            }
            Load::Rate { packet_size, rate_bps, agent_bytes } => {
                flow_fixed += agent_bytes;
                let size = f64::from(packet_size.max(1));
                let active = time::to_secs(f.stop.unwrap_or(scenario.duration).min(scenario.duration).saturating_sub(f.start));
                let sent = rate_bps as f64 * active / (8.0 * size) + 1.0;
                let held: f64 = route
                    .iter()
                    .map(|&d| {
                        let (link, queue, _) = direction(scenario, d);
                        queue_packets(queue, size) + link.rate_bps as f64 * time::to_secs(link.delay) / (8.0 * size) + 1.0
                    })
                    .sum();
                cbr_packets += sent.min(held);
            }
        }
    }
    parts.push(Part { what: format!("{} flows", scenario.flows.len()), key: "flow".into(), line: None, bytes: flow_fixed });

    // Windows: all TCP flows, bottleneck by bottleneck; located at the largest group.
    // A burst beyond the bottleneck is dropped at once, but the senders' records span it.
    let mut windows = 0f64;
    let mut in_network = 0f64;
    let mut largest_group: Option<(f64, u32)> = None;
    for (&d, &(sum, group_bursts, bound)) in &bottlenecks {
        windows += sum.min(group_bursts + bound);
        let alive = sum.min(bound);
        in_network += alive;
        if largest_group.is_none_or(|(x, _)| alive > x) {
            largest_group = Some((alive, d));
        }
    }
    if let Some((burst, f)) = largest_burst {
        let outbox = size_of::<crate::tcp::sender::Outgoing>() as f64;
        parts.push(Part {
            what: format!(
                "the TCP senders' first bursts ({bursts} packets in all; flow {:?}: {burst} packets, its initial_window capped by max_window) \
                 and windows (up to {windows:.0} packets)",
                f.name
            ),
            key: format!("{}.initial_window", f.key),
            line: f.line.map(|l| l as usize),
            bytes: saturate(bursts * outbox + windows * BYTES_PER_WINDOW_PACKET as f64),
        });
    }

    // Packets alive: the windows and what CBR sources keep in their routes.
    let alive = in_network + cbr_packets;
    let (key, line) = match largest_group {
        Some((w, d)) if w >= cbr_packets => {
            let (_, _, at) = direction(scenario, d);
            (at.0.clone(), at.1)
        }
        _ => ("flow".to_string(), None),
    };
    parts.push(Part {
        what: format!("up to {alive:.0} packets queued and on the wire (the TCP windows at their bottleneck queues, and CBR sources)"),
        key,
        line,
        bytes: saturate(alive * BYTES_PER_PACKET as f64),
    });

    let route_hops = routes.hops();
    parts.push(Part {
        what: format!("routes of {route_hops} hops in all"),
        key: "flow".into(),
        line: None,
        bytes: route_hops.saturating_mul(4),
    });

    let samples = samples(scenario);
    parts.push(Part {
        what: format!("{samples} time-series samples"),
        key: "monitor.interval".into(),
        line: scenario.monitor.line,
        bytes: samples.saturating_mul(BYTES_PER_SAMPLE),
    });
    events += samples as f64;

    parts.sort_by_key(|p| std::cmp::Reverse(p.bytes));
    let memory = parts.iter().fold(0u64, |sum, p| sum.saturating_add(p.bytes));
    Estimate { memory, samples, events, parts }
}

/// Time-series values the monitor records: sample times × the series (per sampled flow,
/// flow group and queue, one per metric); at least the sample times, each an event even with
/// nothing selected.
pub fn samples(scenario: &Scenario) -> u64 {
    let Some(interval) = scenario.monitor.interval else { return 0 };
    let times = scenario.duration / interval.max(1) + 1;
    let mut series = 0u64;
    for f in &scenario.flows {
        if scenario.monitor.flows.includes(&f.name) {
            // The source's own variables (TCP: cwnd, ssthresh, srtt_s) and delivered_bytes.
            series += f.source.config.sampled().len() as u64 + 1;
        }
    }
    // Each sampled flow group: delivered_bytes and received_bytes.
    series += 2 * scenario.groups.iter().filter(|g| scenario.monitor.groups.includes(g)).count() as u64;
    for l in &scenario.links {
        for (from, to, queue) in [(l.a, l.b, &l.models.queue_ab), (l.b, l.a, &l.models.queue_ba)] {
            if scenario.monitor.queues.includes(&scenario.queue_name(from as usize, to as usize)) {
                // queue_pkts, arrivals, early_drops, overflow_drops, marks, sojourn_s,
                // utilization, and the discipline's own (RED: red_avg_pkts).
                series += 7 + queue_series(queue).len() as u64;
            }
        }
    }
    times.saturating_mul(series.max(1))
}

/// The series a queue adds to the time series besides the link's.
fn queue_series(queue: &LinkQueue) -> &'static [&'static str] {
    queue.chosen.model.series
}

fn saturate(x: f64) -> u64 {
    if x >= u64::MAX as f64 {
        u64::MAX
    } else {
        x.max(0.0) as u64
    }
}

/// Bytes as "3.2 GiB".
pub fn human_bytes(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = bytes as f64;
    let mut i = 0;
    while x >= 1024.0 && i + 1 < units.len() {
        x /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{bytes} B")
    } else {
        format!("{x:.1} {}", units[i])
    }
}

/// Refuses `scenario` if its estimate exceeds `limits`: the error names the largest part
/// (file, line, key), what it is, and how to raise the limit.
pub fn check(scenario: &Scenario, estimate: &Estimate, limits: &Limits) -> Result<(), ScenarioError> {
    let error = |key: &str, line: Option<usize>, message: String| ScenarioError { file: scenario.file.clone(), line, key: key.to_string(), message };
    if estimate.samples > limits.max_samples {
        let interval = scenario.monitor.interval.unwrap_or(1);
        let times = scenario.duration / interval.max(1) + 1;
        let series = estimate.samples / times.max(1);
        let shortest = time::to_secs(scenario.duration) * series as f64 / limits.max_samples as f64;
        return Err(error(
            "monitor.interval",
            scenario.monitor.line,
            format!(
                "the monitor would record {} samples ({times} sample times x {series} series), more than the limit of {}: \
                 expected an interval of at least {shortest:.3e} s, fewer flows, groups or queues in [monitor], or a higher limit \
                 (--max-samples N for tcpsim-run and tcpsim run)",
                estimate.samples, limits.max_samples
            ),
        ));
    }
    if estimate.memory > limits.max_memory {
        let biggest = &estimate.parts[0];
        let others: Vec<String> =
            estimate.parts[1..].iter().take(2).filter(|p| p.bytes > 0).map(|p| format!("{} (about {})", p.what, human_bytes(p.bytes))).collect();
        let others = if others.is_empty() { String::new() } else { format!("; then {}", others.join(", ")) };
        return Err(error(
            &biggest.key,
            biggest.line,
            format!(
                "the run would need about {} of memory, more than the limit of {}: the most is {} (about {}){others}. \
                 Expected a smaller scenario, or a higher limit (--max-memory SIZE for tcpsim-run and tcpsim run, e.g. --max-memory 16GiB)",
                human_bytes(estimate.memory),
                human_bytes(limits.max_memory),
                biggest.what,
                human_bytes(biggest.bytes)
            ),
        ));
    }
    Ok(())
}
