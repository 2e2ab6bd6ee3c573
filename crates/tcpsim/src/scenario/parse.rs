//! From TOML text to a validated [`Scenario`]: sections, generators, flows, monitors.

use super::reader::{quote, Section, Source};
use super::units::{self, parse_limit, parse_rate, parse_size, parse_time};
use super::{FlowKind, FlowSpec, LinkSpec, MonitorSpec, Scenario, ScenarioError, Selection};
use crate::app::CbrParams;
use crate::queue::{DropTailParams, Limit, QueueParams, RedParams};
use crate::tcp::cc::CcKind;
use crate::tcp::{ReceiverKind, RecoveryKind, TcpParams};
use std::collections::{HashMap, HashSet};

/// Largest number of generated pairs/routers/flow copies accepted (keeps bad input from
/// exhausting memory).
const MAX_GENERATED: i64 = 100_000;
/// Largest number of time-series samples per entity (duration / interval).
const MAX_SAMPLES: u64 = 10_000_000;

const ROOT_KEYS: &[&str] = &["simulation", "network", "dumbbell", "chain", "link", "flow", "monitor"];
const SIMULATION_KEYS: &[&str] = &["duration", "seed"];
const NETWORK_KEYS: &[&str] = &["nodes"];
const LINK_KEYS: &[&str] = &["from", "to", "rate", "delay", "queue", "queue_reverse"];
const LINK_TEMPLATE_KEYS: &[&str] = &["rate", "delay", "queue", "queue_reverse"];
const DUMBBELL_KEYS: &[&str] = &["pairs", "bottleneck", "access", "access_delays"];
const CHAIN_KEYS: &[&str] = &["routers", "rate", "delay", "queue", "queue_reverse"];
const MONITOR_KEYS: &[&str] = &["interval", "flows", "queues"];
const DROPTAIL_KEYS: &[&str] = &["kind", "limit"];
const RED_KEYS: &[&str] = &[
    "kind", "limit", "min_th", "max_th", "weight", "max_p", "linterm", "gentle", "wait", "mean_packet_size",
    "queue_in_bytes", "bytes", "ecn", "use_mark_p", "mark_p",
];
const FLOW_COMMON_KEYS: &[&str] = &["name", "count", "from", "to", "type", "start", "start_spacing", "stop", "packet_size"];
/// Keys of TCP flows that CBR flows do not have (and the reverse), for a precise error.
const TCP_ONLY_KEYS: &[&str] = &[
    "recovery", "cc", "header_size", "ack_size", "initial_window", "max_window", "initial_ssthresh",
    "dupack_threshold", "limited_transmit", "min_rto", "max_rto", "initial_rto", "clock_granularity",
    "receiver", "delayed_ack_timeout", "packets", "syn",
];
const CBR_ONLY_KEYS: &[&str] = &["rate", "jitter"];

pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let src = Source { file, text };
    let doc = toml_edit::Document::parse(text).map_err(|e| {
        let line = src.line_of(e.span());
        let message = e.message().trim().to_string();
        src.error(line, "", format!("not valid TOML: {message}"))
    })?;
    let root = Section::new(&src, doc.as_table(), String::new(), None);
    root.allow(ROOT_KEYS)?;
    let mut b = Builder {
        scenario: empty(file),
        node_ids: HashMap::new(),
        link_pairs: HashSet::new(),
        flow_names: HashSet::new(),
    };

    let sim = root.table("simulation")?.ok_or_else(|| {
        src.error(None, "simulation", "missing [simulation] table: expected at least duration = \"...\"")
    })?;
    sim.allow(SIMULATION_KEYS)?;
    b.scenario.duration = sim.required("duration", sim.quantity("duration", parse_time, units::TIME_EXPECTED)?, units::TIME_EXPECTED)?;
    if b.scenario.duration == 0 {
        return Err(sim.error("duration", "expected a duration greater than zero"));
    }
    b.scenario.seed = sim.integer("seed", 0, i64::MAX)?.unwrap_or(1) as u64;
    sim.finish()?;

    if let Some(net) = root.table("network")? {
        net.allow(NETWORK_KEYS)?;
        for name in net.string_list("nodes")?.unwrap_or_default() {
            b.add_node(&net, "nodes", &name)?;
        }
        net.finish()?;
    }
    if let Some(d) = root.table("dumbbell")? {
        b.dumbbell(&d)?;
    }
    if let Some(c) = root.table("chain")? {
        b.chain(&c)?;
    }
    for link in root.tables("link")? {
        b.explicit_link(&link)?;
    }
    for (i, flow) in root.tables("flow")?.iter().enumerate() {
        b.flows(flow, i)?;
    }
    if b.scenario.flows.is_empty() {
        return Err(src.error(None, "flow", "no flows: expected at least one [[flow]] table"));
    }
    b.scenario.monitor = match root.table("monitor")? {
        Some(m) => b.monitor(&m)?,
        None => MonitorSpec { interval: None, flows: Selection::All, queues: Selection::All },
    };
    root.finish()?;
    Ok(b.scenario)
}

fn empty(file: &str) -> Scenario {
    Scenario {
        file: file.to_string(),
        duration: 0,
        seed: 1,
        nodes: Vec::new(),
        links: Vec::new(),
        flows: Vec::new(),
        monitor: MonitorSpec { interval: None, flows: Selection::All, queues: Selection::All },
    }
}

struct Builder {
    scenario: Scenario,
    node_ids: HashMap<String, usize>,
    link_pairs: HashSet<(usize, usize)>,
    flow_names: HashSet<String>,
}

/// Rate, delay and queues shared by `[[link]]`, generator links and their defaults, with
/// where each queue was written (for errors found later).
#[derive(Clone)]
struct LinkTemplate {
    rate_bps: u64,
    delay: u64,
    queue: QueueParams,
    queue_reverse: QueueParams,
    queue_at: (String, Option<usize>),
    queue_reverse_at: (String, Option<usize>),
}

impl Builder {
    fn add_node(&mut self, s: &Section, key: &str, name: &str) -> Result<usize, ScenarioError> {
        if name.is_empty() || name.contains("->") || name.contains(|c: char| c.is_whitespace() || c.is_control()) {
            return Err(s.error(key, format!("expected node names without spaces or '->', got {}", quote(name))));
        }
        let id = self.scenario.nodes.len();
        if self.node_ids.insert(name.to_string(), id).is_some() {
            return Err(s.error(key, format!("node {} is declared twice (generators declare r1, r2, s0.., d0.., r0..)", quote(name))));
        }
        self.scenario.nodes.push(name.to_string());
        Ok(id)
    }

    fn node(&self, s: &Section, key: &str, name: &str) -> Result<usize, ScenarioError> {
        self.node_ids.get(name).copied().ok_or_else(|| {
            let mut known: Vec<&str> = self.scenario.nodes.iter().map(|n| n.as_str()).take(8).collect();
            if self.scenario.nodes.len() > 8 {
                known.push("...");
            }
            s.error(key, format!("unknown node {}; declared nodes: {}", quote(name), if known.is_empty() { "none".into() } else { known.join(", ") }))
        })
    }

    fn push_link(&mut self, a: usize, b: usize, t: &LinkTemplate, line: Option<usize>) {
        self.link_pairs.insert((a.min(b), a.max(b)));
        self.scenario.links.push(LinkSpec {
            a,
            b,
            rate_bps: t.rate_bps,
            delay: t.delay,
            queue_ab: t.queue.clone(),
            queue_ba: t.queue_reverse.clone(),
            line,
            queue_ab_at: t.queue_at.clone(),
            queue_ba_at: t.queue_reverse_at.clone(),
        });
    }

    fn link_template(&self, s: &Section, allowed: &[&str]) -> Result<LinkTemplate, ScenarioError> {
        s.allow(allowed)?;
        let rate_bps = s.required("rate", s.quantity("rate", parse_rate, units::RATE_EXPECTED)?, units::RATE_EXPECTED)?;
        let delay = s.required("delay", s.quantity("delay", parse_time, units::TIME_EXPECTED)?, units::TIME_EXPECTED)?;
        let (queue, queue_at) = match s.table("queue")? {
            Some(q) => (queue_params(&q)?, (format!("{}.limit", q.path), q.line)),
            None => (QueueParams::DropTail(DropTailParams::default()), (s.path.clone(), s.line)),
        };
        let (queue_reverse, queue_reverse_at) = match s.table("queue_reverse")? {
            Some(q) => (queue_params(&q)?, (format!("{}.limit", q.path), q.line)),
            None => (queue.clone(), queue_at.clone()),
        };
        Ok(LinkTemplate { rate_bps, delay, queue, queue_reverse, queue_at, queue_reverse_at })
    }

    fn explicit_link(&mut self, s: &Section) -> Result<(), ScenarioError> {
        s.allow(LINK_KEYS)?;
        let from = s.required("from", s.string("from")?, "a node name")?;
        let to = s.required("to", s.string("to")?, "a node name")?;
        let a = self.node(s, "from", &from.value)?;
        let b = self.node(s, "to", &to.value)?;
        if a == b {
            return Err(s.error("to", format!("a link needs two different nodes; both ends are {}", quote(&from.value))));
        }
        if self.link_pairs.contains(&(a.min(b), a.max(b))) {
            return Err(s.error("to", format!("a link between {} and {} already exists", quote(&from.value), quote(&to.value))));
        }
        let t = self.link_template(s, LINK_KEYS)?;
        s.finish()?;
        self.push_link(a, b, &t, s.line);
        Ok(())
    }

    fn dumbbell(&mut self, s: &Section) -> Result<(), ScenarioError> {
        s.allow(DUMBBELL_KEYS)?;
        let pairs = s.required("pairs", s.integer("pairs", 1, MAX_GENERATED)?, "the number of source/sink pairs")? as usize;
        let bottleneck = s.required("bottleneck", s.table("bottleneck")?, "a table with rate, delay and queue")?;
        let access = s.required("access", s.table("access")?, "a table with rate, delay and queue")?;
        let bt = self.link_template(&bottleneck, LINK_TEMPLATE_KEYS)?;
        bottleneck.finish()?;
        let at = self.link_template(&access, LINK_TEMPLATE_KEYS)?;
        access.finish()?;
        let access_delays = match s.string_list("access_delays")? {
            None => None,
            Some(list) => {
                if list.len() != pairs {
                    return Err(s.error("access_delays", format!("expected {pairs} delays (one per pair), got {}", list.len())));
                }
                let parsed: Result<Vec<u64>, String> = list.iter().map(|d| parse_time(d)).collect();
                Some(parsed.map_err(|why| s.error("access_delays", format!("expected {why} in every entry")))?)
            }
        };
        s.finish()?;
        let r1 = self.add_node(s, "pairs", "r1")?;
        let r2 = self.add_node(s, "pairs", "r2")?;
        self.push_link(r1, r2, &bt, bottleneck.line);
        for i in 0..pairs {
            let src = self.add_node(s, "pairs", &format!("s{i}"))?;
            let dst = self.add_node(s, "pairs", &format!("d{i}"))?;
            let source_side = LinkTemplate { delay: access_delays.as_ref().map_or(at.delay, |d| d[i]), ..at.clone() };
            self.push_link(src, r1, &source_side, access.line);
            self.push_link(r2, dst, &at, access.line);
        }
        Ok(())
    }

    fn chain(&mut self, s: &Section) -> Result<(), ScenarioError> {
        s.allow(CHAIN_KEYS)?;
        let routers = s.required("routers", s.integer("routers", 2, MAX_GENERATED)?, "the number of routers (≥ 2)")? as usize;
        let t = self.link_template(s, CHAIN_KEYS)?;
        s.finish()?;
        let mut previous = self.add_node(s, "routers", "r0")?;
        for i in 1..routers {
            let next = self.add_node(s, "routers", &format!("r{i}"))?;
            self.push_link(previous, next, &t, s.line);
            previous = next;
        }
        Ok(())
    }

    fn flows(&mut self, s: &Section, index: usize) -> Result<(), ScenarioError> {
        let all_keys: Vec<&str> = FLOW_COMMON_KEYS.iter().chain(TCP_ONLY_KEYS).chain(CBR_ONLY_KEYS).copied().collect();
        s.allow(&all_keys)?;
        let count = s.integer("count", 1, MAX_GENERATED)?.unwrap_or(1) as usize;
        let name = s.string("name")?.map(|n| n.value);
        let from = s.required("from", s.string("from")?, "a node name")?;
        let to = s.required("to", s.string("to")?, "a node name")?;
        let start = s.quantity("start", parse_time, units::TIME_EXPECTED)?.unwrap_or(0);
        let spacing = s.quantity("start_spacing", parse_time, units::TIME_EXPECTED)?.unwrap_or(0);
        let stop = s.quantity("stop", parse_time, units::TIME_EXPECTED)?;
        let kind = s.choice("type", &["tcp", "cbr"])?.map_or("tcp".to_string(), |c| c.value);
        let kind = if kind == "tcp" { FlowKind::Tcp(tcp_params(s)?) } else { FlowKind::Cbr(cbr_params(s)?) };
        s.finish()?;
        if let Some(stop) = stop {
            if stop <= start {
                return Err(s.error("stop", "expected a stop time after the start time"));
            }
        }
        for i in 0..count {
            let expand = |t: &str| t.replace("{i}", &i.to_string());
            let flow_name = match &name {
                Some(n) if n.contains("{i}") || count == 1 => expand(n),
                Some(n) => format!("{n}_{i}"),
                None if count == 1 => format!("flow{index}"),
                None => format!("flow{index}_{i}"),
            };
            if !self.flow_names.insert(flow_name.clone()) {
                return Err(s.error("name", format!("flow name {} is used twice", quote(&flow_name))));
            }
            let a = self.node(s, "from", &expand(&from.value))?;
            let b = self.node(s, "to", &expand(&to.value))?;
            if a == b {
                return Err(s.error("to", "expected a destination different from the source"));
            }
            let flow_start = spacing
                .checked_mul(i as u64)
                .and_then(|offset| offset.checked_add(start))
                .filter(|&t| t < u64::MAX / 2)
                .ok_or_else(|| s.error("start_spacing", "expected start + count·start_spacing below 100 days"))?;
            if let Some(stop) = stop {
                if flow_start >= stop {
                    return Err(s.error(
                        "start_spacing",
                        format!(
                            "flow {} would start at {:.6} s, not before its stop time {:.6} s: expected every copy to start before `stop`",
                            quote(&flow_name),
                            crate::engine::time::to_secs(flow_start),
                            crate::engine::time::to_secs(stop)
                        ),
                    ));
                }
            }
            self.scenario.flows.push(FlowSpec {
                name: flow_name,
                from: a,
                to: b,
                start: flow_start,
                stop,
                kind: kind.clone(),
                line: s.line,
                key: s.path.clone(),
            });
        }
        Ok(())
    }

    fn monitor(&self, s: &Section) -> Result<MonitorSpec, ScenarioError> {
        s.allow(MONITOR_KEYS)?;
        let interval = s.quantity("interval", parse_time, units::TIME_EXPECTED)?;
        if let Some(interval) = interval {
            let shortest = self.scenario.duration / MAX_SAMPLES;
            if interval == 0 || interval < shortest {
                return Err(s.error(
                    "interval",
                    format!(
                        "expected an interval of at least {:.3e} s (at most {MAX_SAMPLES} samples per run)",
                        crate::engine::time::to_secs(shortest.max(1))
                    ),
                ));
            }
        }
        let flows = selection(s, "flows")?;
        if let Selection::Named(names) = &flows {
            for n in names {
                if !self.flow_names.contains(n) {
                    return Err(s.error("flows", format!("unknown flow {}", quote(n))));
                }
            }
        }
        let queues = selection(s, "queues")?;
        if let Selection::Named(names) = &queues {
            for n in names {
                let known = n.split_once("->").is_some_and(|(a, b)| match (self.node_ids.get(a), self.node_ids.get(b)) {
                    (Some(&a), Some(&b)) => self.link_pairs.contains(&(a.min(b), a.max(b))),
                    _ => false,
                });
                if !known {
                    return Err(s.error("queues", format!("unknown queue {}; queues are named \"from->to\" after a link direction", quote(n))));
                }
            }
        }
        s.finish()?;
        Ok(MonitorSpec { interval, flows, queues })
    }
}

fn selection(s: &Section, key: &str) -> Result<Selection, ScenarioError> {
    if let Ok(Some(v)) = s.string(key) {
        return match v.value.as_str() {
            "all" => Ok(Selection::All),
            "none" => Ok(Selection::Named(Vec::new())),
            other => Err(s.error(key, format!("expected \"all\", \"none\" or a list of names, got {}", quote(other)))),
        };
    }
    Ok(s.string_list(key)
        .map_err(|_| s.error(key, "expected \"all\", \"none\" or a list of names"))?
        .map_or(Selection::All, Selection::Named))
}

fn queue_params(s: &Section) -> Result<QueueParams, ScenarioError> {
    s.allow(RED_KEYS)?;
    let kind = s.required("kind", s.choice("kind", &["droptail", "red"])?, "\"droptail\" or \"red\"")?;
    if kind.value == "droptail" {
        for &key in RED_KEYS {
            if !DROPTAIL_KEYS.contains(&key) && s.present(key) {
                return Err(s.error(key, format!("'{key}' applies to RED queues; this queue has kind = \"droptail\"")));
            }
        }
    }
    let limit = s.quantity("limit", parse_limit, units::LIMIT_EXPECTED)?;
    let params = if kind.value == "droptail" {
        let p = DropTailParams { limit: limit.unwrap_or(DropTailParams::default().limit) };
        if p.limit == Limit::Packets(0) || p.limit == Limit::Bytes(0) {
            return Err(s.error("limit", "expected a limit that can hold at least one packet"));
        }
        QueueParams::DropTail(p)
    } else {
        let d = RedParams::default();
        if s.has("max_p") && s.has("linterm") {
            return Err(s.error("linterm", "give either max_p or linterm (max_p = 1/linterm), not both"));
        }
        let max_p = match s.number("linterm", 1.0, 1e9)? {
            Some(l) => 1.0 / l,
            None => s.number("max_p", 0.0, 1.0)?.unwrap_or(d.max_p),
        };
        let mean_packet_size = s.quantity("mean_packet_size", parse_size, units::SIZE_EXPECTED)?.unwrap_or(d.mean_packet_size as u64);
        if mean_packet_size == 0 || mean_packet_size > u32::MAX as u64 {
            return Err(s.error("mean_packet_size", "expected a size greater than zero"));
        }
        let p = RedParams {
            limit: limit.unwrap_or(d.limit),
            min_th: s.number("min_th", 0.0, 1e12)?.unwrap_or(d.min_th),
            max_th: s.number("max_th", 0.0, 1e12)?.unwrap_or(d.max_th),
            weight: s.number("weight", 0.0, 1.0)?.unwrap_or(d.weight),
            max_p,
            gentle: s.boolean("gentle")?.unwrap_or(d.gentle),
            wait: s.boolean("wait")?.unwrap_or(d.wait),
            mean_packet_size: mean_packet_size as u32,
            queue_in_bytes: s.boolean("queue_in_bytes")?.unwrap_or(d.queue_in_bytes),
            bytes: s.boolean("bytes")?.unwrap_or(d.bytes),
            ecn: s.boolean("ecn")?.unwrap_or(d.ecn),
            use_mark_p: s.boolean("use_mark_p")?.unwrap_or(d.use_mark_p),
            mark_p: s.number("mark_p", 0.0, 1.0)?.unwrap_or(d.mark_p),
        };
        p.validate().map_err(|expected| s.table_error(format!("RED parameters: expected {expected}")))?;
        if p.ecn {
            // RED's marking is implemented, but no transport sets ECT yet: marking would
            // silently turn into dropping.
            return Err(s.error("ecn", "expected false: ECN-capable TCP is not implemented yet, so RED would only drop"));
        }
        if matches!(p.limit, Limit::Packets(0)) || p.limit_bytes() == 0 {
            return Err(s.error("limit", "expected a limit that can hold at least one packet"));
        }
        QueueParams::Red(p)
    };
    s.finish()?;
    Ok(params)
}

fn size_u32(s: &Section, key: &str, default: u32, min: u64) -> Result<u32, ScenarioError> {
    match s.quantity(key, parse_size, units::SIZE_EXPECTED)? {
        None => Ok(default),
        Some(v) if v < min || v > 1_000_000_000 => Err(s.error(key, format!("expected a size from {min} B to 1 GB, got {v} B"))),
        Some(v) => Ok(v as u32),
    }
}

fn tcp_params(s: &Section) -> Result<TcpParams, ScenarioError> {
    let d = TcpParams::default();
    let recovery = match s.choice("recovery", RecoveryKind::NAMES)? {
        Some(r) => RecoveryKind::from_name(&r.value).expect("checked by choice"),
        None => d.recovery,
    };
    let cc = match s.choice("cc", CcKind::NAMES)? {
        Some(c) => CcKind::from_name(&c.value).expect("checked by choice"),
        None => d.cc,
    };
    let receiver = match s.choice("receiver", ReceiverKind::NAMES)? {
        Some(r) => ReceiverKind::from_name(&r.value).expect("checked by choice"),
        None => d.receiver,
    };
    let time_or = |key: &str, default: u64| -> Result<u64, ScenarioError> {
        Ok(s.quantity(key, parse_time, units::TIME_EXPECTED)?.unwrap_or(default))
    };
    let max_window = s.integer("max_window", 1, 1 << 30)?.map_or(d.max_window, |v| v as u32);
    let p = TcpParams {
        recovery,
        cc,
        packet_size: size_u32(s, "packet_size", d.packet_size, 1)?,
        header_size: size_u32(s, "header_size", d.header_size, 0)?,
        ack_size: size_u32(s, "ack_size", d.ack_size, 1)?,
        initial_window: s.number("initial_window", 1.0, 1e9)?.unwrap_or(d.initial_window),
        max_window,
        initial_ssthresh: s.number("initial_ssthresh", 1.0, 1e12)?,
        dupack_threshold: s.integer("dupack_threshold", 1, 1000)?.map_or(d.dupack_threshold, |v| v as u32),
        limited_transmit: s.boolean("limited_transmit")?.unwrap_or(d.limited_transmit),
        min_rto: time_or("min_rto", d.min_rto)?,
        max_rto: time_or("max_rto", d.max_rto)?,
        initial_rto: time_or("initial_rto", d.initial_rto)?,
        clock_granularity: time_or("clock_granularity", d.clock_granularity)?,
        receiver,
        delayed_ack_timeout: time_or("delayed_ack_timeout", d.delayed_ack_timeout)?,
        packets: s.integer("packets", 1, i64::MAX / 2)?.map(|v| v as u64),
        syn: s.boolean("syn")?.unwrap_or(d.syn),
    };
    if p.clock_granularity == 0 {
        return Err(s.error("clock_granularity", "expected a tick greater than zero, such as \"10ms\""));
    }
    if p.max_rto < p.min_rto {
        return Err(s.error("max_rto", "expected max_rto to be at least min_rto"));
    }
    if p.initial_rto == 0 {
        return Err(s.error("initial_rto", "expected a time greater than zero"));
    }
    if p.receiver == ReceiverKind::Delayed && p.delayed_ack_timeout == 0 {
        return Err(s.error("delayed_ack_timeout", "expected a time greater than zero"));
    }
    for key in CBR_ONLY_KEYS {
        if s.present(key) {
            return Err(s.error(key, format!("'{key}' applies to type = \"cbr\" flows; this flow is TCP")));
        }
    }
    Ok(p)
}

fn cbr_params(s: &Section) -> Result<CbrParams, ScenarioError> {
    let d = CbrParams::default();
    for key in TCP_ONLY_KEYS {
        if s.present(key) {
            return Err(s.error(key, format!("'{key}' applies to TCP flows; this flow has type = \"cbr\"")));
        }
    }
    Ok(CbrParams {
        rate_bps: s.quantity("rate", parse_rate, units::RATE_EXPECTED)?.unwrap_or(d.rate_bps),
        packet_size: size_u32(s, "packet_size", d.packet_size, 1)?,
        jitter: s.boolean("jitter")?.unwrap_or(d.jitter),
    })
}
