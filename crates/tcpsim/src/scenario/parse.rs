//! From TOML text to a validated [`Scenario`]: sections, generators, flows, monitors.

use super::model_reader;
use super::reader::{closest, quote, quote_list, Section, Source};
use super::{
    FlowSource, FlowSpec, LinkChange, LinkEvent, LinkModels, LinkQueue, LinkSpec, MonitorSpec, NodeNames, RoutingMode, Scenario, ScenarioError,
    Selection, TraceSpec,
};
use crate::agent::{Selected, SourceModel};
use crate::catalogue::{self, Listed};
use crate::engine::RandomStream;
use crate::model::{Chosen, Family, ModelSpec, Value};
use crate::net::error::LinkErrorModel;
use crate::queue::QueueModel;
use crate::tcp::cc::CcModel;
use crate::tcp::receiver::ReceiverModel;
use crate::tcp::profile;
use crate::tcp::recovery::RecoveryModel;
use crate::units::{self, parse_rate, parse_time, StartTime};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Largest number of generated pairs, routers, and flows in all tables together (keeps
/// bad input from exhausting memory while it is read): a million, the largest network
/// measured (B2's dumbbell with 10^6 flows, `bench/million.py`); the cost estimate and
/// `--max-memory` guard the memory of what is below it.
const MAX_GENERATED: i64 = 1_000_000;

const ROOT_KEYS: &[&str] = &["simulation", "network", "dumbbell", "chain", "link", "flow", "monitor", "trace", "routing", "event"];
const ROUTING_KEYS: &[&str] = &["mode"];
const ROUTING_MODES: &[&str] = &["static", "dynamic"];
const EVENT_KEYS: &[&str] = &["at", "link", "action", "value", "direction"];
const EVENT_ACTIONS: &[&str] = &["rate", "delay", "down", "up"];
const EVENT_DIRECTIONS: &[&str] = &["both", "forward"];
const TRACE_KEYS: &[&str] = &["dir", "ns2", "pcap_links", "pcap_nodes"];
const SIMULATION_KEYS: &[&str] = &["duration", "seed", "measure_from"];
const NETWORK_KEYS: &[&str] = &["nodes"];
const LINK_KEYS: &[&str] = &["from", "to", "rate", "delay", "queue", "queue_reverse", "error_model", "error_model_reverse"];
const LINK_TEMPLATE_KEYS: &[&str] = &["rate", "delay", "queue", "queue_reverse", "error_model", "error_model_reverse"];
const DUMBBELL_KEYS: &[&str] = &["pairs", "subnets", "bottleneck", "access", "access_delays"];
const SUBNET_KEYS: &[&str] = &["hosts", "access_delay", "access_rate"];
const CHAIN_KEYS: &[&str] = &["routers", "rate", "delay", "queue", "queue_reverse", "error_model", "error_model_reverse"];
const MONITOR_KEYS: &[&str] = &["interval", "flows", "queues", "groups"];
/// Keys of a flow that are not parameters of its source (Python reads them through
/// `tcpsim._core.models_json`, never retyped).
pub const FLOW_COMMON_KEYS: &[&str] = &["name", "count", "from", "to", "type", "group", "start", "start_jitter", "start_spacing", "stop", "profile"];

pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
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
        group_ids: HashMap::new(),
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
    b.scenario.measure_from = sim.quantity("measure_from", parse_time, units::TIME_EXPECTED)?.unwrap_or(0);
    if b.scenario.measure_from >= b.scenario.duration {
        return Err(sim.error(
            "measure_from",
            format!(
                "expected a time before the end of the run (duration {} s), got {} s",
                crate::engine::time::to_secs(b.scenario.duration),
                crate::engine::time::to_secs(b.scenario.measure_from)
            ),
        ));
    }
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
    let profiles = profile_tables();
    for (i, flow) in root.tables("flow")?.into_iter().enumerate() {
        let flow = with_profile(flow, &profiles)?;
        b.flows(&flow, i)?;
    }
    if b.scenario.flows.is_empty() {
        return Err(src.error(None, "flow", "no flows: expected at least one [[flow]] table"));
    }
    b.check_group_names()?;
    b.scenario.monitor = match root.table("monitor")? {
        Some(m) => b.monitor(&m)?,
        None => MonitorSpec { interval: None, flows: Selection::All, queues: Selection::All, groups: Selection::All, line: None },
    };
    b.scenario.trace = match root.table("trace")? {
        Some(t) => b.trace(&t)?,
        None => TraceSpec::none(),
    };
    if let Some(r) = root.table("routing")? {
        r.allow(ROUTING_KEYS)?;
        if let Some(mode) = r.choice("mode", ROUTING_MODES)? {
            b.scenario.routing = if mode.value == "dynamic" { RoutingMode::Dynamic } else { RoutingMode::Static };
        }
        r.finish()?;
    }
    for event in root.tables("event")? {
        let e = b.event(&event)?;
        b.scenario.events.push(e);
    }
    // Time order; equal times keep file order (a stable sort), as ns-2 runs `$ns at`
    // commands of one time in the order they were given.
    b.scenario.events.sort_by_key(|e| e.at);
    root.finish()?;
    Ok(b.scenario)
}

/// Every TCP profile's defaults as a table of scenario values (`tcp/profile.rs`).
fn profile_tables() -> Vec<toml_edit::Table> {
    profile::PROFILES
        .iter()
        .map(|p| {
            let mut t = toml_edit::Table::new();
            for &(key, text, _) in p.defaults {
                let value: toml_edit::Value = text.parse().unwrap_or_else(|e| panic!("profile {}: {key} = {text} is not TOML: {e}", p.name));
                t.insert(key, toml_edit::Item::Value(value));
            }
            t
        })
        .collect()
}

/// A flow that names a TCP profile (`profile = "linux"`) reads the profile's value of
/// every key it does not write; the flow's own keys win.
fn with_profile<'a>(flow: Section<'a>, tables: &'a [toml_edit::Table]) -> Result<Section<'a>, ScenarioError> {
    let Some(name) = flow.string("profile")? else { return Ok(flow) };
    let names = profile::names();
    let Some(i) = profile::PROFILES.iter().position(|p| p.name == name.value) else {
        let hint = match closest(&name.value, &names) {
            Some(n) => format!("; did you mean '{n}'? Expected"),
            None => "; expected".to_string(),
        };
        return Err(flow.error("profile", format!("unknown TCP profile {}{hint} one of {}", quote(&name.value), quote_list(&names))));
    };
    let p = profile::PROFILES[i];
    if let Some(kind) = flow.string("type")?.filter(|k| k.value != p.source_type) {
        return Err(flow.error("profile", format!("profile {} applies to type = \"{}\" flows; this flow has type = \"{}\"", quote(p.name), p.source_type, kind.value)));
    }
    Ok(flow.with_defaults(&tables[i]))
}

/// A `[[flow]]` text with the flow's index i written in: `{i}` becomes i, `{i+K}` i + K (a
/// table of 20 flows from `s{i+20}` takes nodes s20 .. s39), `{i/K}` the integer quotient
/// i / K and `{i%K}` the remainder i mod K (with 100 hosts a subnet, `subnet{i/100}` names
/// flow i's subnet and `{i%100}` its host within it). K is a whole number, at least 1
/// for `/` and `%`. Any other text after `{i` is an error: what was expected.
fn expand_index(text: &str, i: usize) -> Result<String, String> {
    const EXPECTED: &str = "expected {i}, {i+K}, {i/K} or {i%K} with K a whole number (K ≥ 1 for / and %)";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{i") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let end = tail.find('}').ok_or_else(|| format!("{EXPECTED}, got an unclosed {}", quote(&rest[at..])))?;
        let expression = &tail[..end];
        let written = &rest[at..at + 2 + end + 1];
        let value = if expression.is_empty() {
            Some(i)
        } else {
            let mut chars = expression.chars();
            let operator = chars.next().expect("not empty");
            let k: Option<usize> = chars.as_str().parse().ok().filter(|_| chars.as_str().bytes().all(|b| b.is_ascii_digit()));
            match (operator, k) {
                ('+', Some(k)) => i.checked_add(k),
                ('/', Some(k)) if k > 0 => Some(i / k),
                ('%', Some(k)) if k > 0 => Some(i % k),
                _ => None,
            }
        };
        let value = value.ok_or_else(|| format!("{EXPECTED}, got {}", quote(written)))?;
        out.push_str(&value.to_string());
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn empty(file: &str) -> Scenario {
    Scenario {
        file: file.to_string(),
        duration: 0,
        seed: 1,
        measure_from: 0,
        nodes: NodeNames::default(),
        links: Vec::new(),
        flows: Vec::new(),
        groups: Vec::new(),
        monitor: MonitorSpec { interval: None, flows: Selection::All, queues: Selection::All, groups: Selection::All, line: None },
        trace: TraceSpec::none(),
        events: Vec::new(),
        routing: RoutingMode::Static,
        routes: None,
    }
}

struct Builder {
    scenario: Scenario,
    node_ids: HashMap<String, usize>,
    link_pairs: HashSet<(usize, usize)>,
    flow_names: HashSet<String>,
    /// Each group name's index in `scenario.groups`.
    group_ids: HashMap<String, u32>,
}

/// Rate, delay and queues shared by `[[link]]`, generator links and their defaults, with
/// where each queue was written (for errors found later).
#[derive(Clone)]
struct LinkTemplate {
    rate_bps: u64,
    delay: u64,
    models: Arc<LinkModels>,
}

impl Builder {
    fn add_node(&mut self, s: &Section, key: &str, name: &str) -> Result<usize, ScenarioError> {
        if name.is_empty() || name.contains("->") || name.contains(|c: char| c.is_whitespace() || is_control(c)) {
            return Err(s.error(key, format!("expected node names without spaces, control characters or '->', got {}", quote(name))));
        }
        let id = self.scenario.nodes.len();
        if self.node_ids.insert(name.to_string(), id).is_some() {
            return Err(s.error(key, format!("node {} is declared twice (generators declare r1, r2, s0.., d0.., r0..)", quote(name))));
        }
        self.scenario.nodes.push(name);
        Ok(id)
    }

    fn node(&self, s: &Section, key: &str, name: &str) -> Result<usize, ScenarioError> {
        self.node_ids.get(name).copied().ok_or_else(|| {
            let mut known: Vec<&str> = self.scenario.nodes.iter().take(8).collect();
            if self.scenario.nodes.len() > 8 {
                known.push("...");
            }
            s.error(key, format!("unknown node {}; declared nodes: {}", quote(name), if known.is_empty() { "none".into() } else { known.join(", ") }))
        })
    }

    /// The index of group `name` (a flow's `group`, expanded), added on first use.
    fn group_id(&mut self, s: &Section, name: &str) -> Result<u32, ScenarioError> {
        if let Some(&id) = self.group_ids.get(name) {
            return Ok(id);
        }
        // A group is an entity of the time series, beside flows and queues: one printable
        // line, and a name of its own.
        if name.is_empty() || name.contains(is_control) {
            return Err(s.error("group", format!("expected a group name without control characters (tabs, line breaks, ...), got {}", quote(name))));
        }
        if name.contains("->") {
            return Err(s.error("group", format!("expected a group name without '->' (queues are named \"from->to\"), got {}", quote(name))));
        }
        let id = self.scenario.groups.len() as u32;
        self.group_ids.insert(name.to_string(), id);
        self.scenario.groups.push(name.to_string());
        Ok(id)
    }

    /// A group's series and a flow's share the time series' entity column, so a group
    /// may not be named like a flow (checked once every flow is read: either may come
    /// first in the file).
    fn check_group_names(&self) -> Result<(), ScenarioError> {
        let sc = &self.scenario;
        for (id, group) in sc.groups.iter().enumerate() {
            if self.flow_names.contains(group) {
                let first = sc.flows.iter().position(|f| f.group == Some(id as u32)).expect("a group comes from a flow");
                let f = &sc.flows[first];
                return Err(ScenarioError {
                    file: sc.file.clone(),
                    line: f.line.map(|l| l as usize),
                    key: format!("{}.group", f.key),
                    message: format!("group {} is also the name of a flow: expected group names that no flow has", quote(group)),
                });
            }
        }
        Ok(())
    }

    fn push_link(&mut self, a: usize, b: usize, t: &LinkTemplate, line: Option<usize>) {
        let line = super::spec_line(line);
        self.link_pairs.insert((a.min(b), a.max(b)));
        self.scenario.links.push(LinkSpec {
            a: a as u32,
            b: b as u32,
            rate_bps: t.rate_bps,
            delay: t.delay,
            line,
            models: Arc::clone(&t.models),
        });
    }

    fn link_template(&self, s: &Section, allowed: &[&str]) -> Result<LinkTemplate, ScenarioError> {
        s.allow(allowed)?;
        let rate_bps = s.required("rate", s.quantity("rate", parse_rate, units::RATE_EXPECTED)?, units::RATE_EXPECTED)?;
        let delay = s.required("delay", s.quantity("delay", parse_time, units::TIME_EXPECTED)?, units::TIME_EXPECTED)?;
        let (queue, queue_at) = match model_reader::model::<QueueModel>(s, "queue")? {
            Some(q) => q,
            None => (Chosen::defaults(QueueModel::default().expect("queues have a default")), (s.path.clone(), s.line)),
        };
        let (queue_reverse, queue_reverse_at) = match model_reader::model::<QueueModel>(s, "queue_reverse")? {
            Some(q) => q,
            None => (queue.clone(), queue_at.clone()),
        };
        // An error model applies to both directions unless the reverse one is given.
        let error = model_reader::model::<LinkErrorModel>(s, "error_model")?.map(|(c, _)| c);
        let error_reverse = match model_reader::model::<LinkErrorModel>(s, "error_model_reverse")? {
            Some((c, _)) => Some(c),
            None => error.clone(),
        };
        let models = LinkModels {
            queue_ab: LinkQueue::new(queue, queue_at),
            queue_ba: LinkQueue::new(queue_reverse, queue_reverse_at),
            error_ab: error,
            error_ba: error_reverse,
        };
        Ok(LinkTemplate { rate_bps, delay, models: Arc::new(models) })
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
        let bottleneck = s.required("bottleneck", s.table("bottleneck")?, "a table with rate and delay (and optionally queue, queue_reverse, error_model)")?;
        let access = s.required("access", s.table("access")?, "a table with rate and delay (and optionally queue, queue_reverse, error_model)")?;
        let bt = self.link_template(&bottleneck, LINK_TEMPLATE_KEYS)?;
        bottleneck.finish()?;
        let at = self.link_template(&access, LINK_TEMPLATE_KEYS)?;
        access.finish()?;
        // Each pair's source-side access link (s{i} - r1); the sink side (r2 - d{i})
        // keeps `access`.
        let source_sides = if s.present("subnets") {
            for key in ["pairs", "access_delays"] {
                if s.present(key) {
                    return Err(s.error(
                        key,
                        format!("expected either subnets or pairs (with access_delays), not both: subnets gives the pairs and their access delays, so remove '{key}'"),
                    ));
                }
            }
            self.subnets(s, &at)?
        } else {
            let pairs = s.required("pairs", s.integer("pairs", 1, MAX_GENERATED)?, "the number of source/sink pairs (or subnets = [{ hosts = N, access_delay = \"10ms\" }, ...])")? as usize;
            match s.string_list("access_delays")? {
                None => vec![at.clone(); pairs],
                Some(list) => {
                    if list.len() != pairs {
                        return Err(s.error("access_delays", format!("expected {pairs} delays (one per pair), got {}", list.len())));
                    }
                    let mut sides = Vec::with_capacity(list.len());
                    for d in &list {
                        let delay = parse_time(d).map_err(|why| s.error("access_delays", format!("{} in every entry", why.message(d))))?;
                        sides.push(LinkTemplate { delay, ..at.clone() });
                    }
                    sides
                }
            }
        };
        s.finish()?;
        let key = if s.present("subnets") { "subnets" } else { "pairs" };
        let r1 = self.add_node(s, key, "r1")?;
        let r2 = self.add_node(s, key, "r2")?;
        self.push_link(r1, r2, &bt, bottleneck.line);
        for (i, source_side) in source_sides.iter().enumerate() {
            let src = self.add_node(s, key, &format!("s{i}"))?;
            let dst = self.add_node(s, key, &format!("d{i}"))?;
            self.push_link(src, r1, source_side, access.line);
            self.push_link(r2, dst, &at, access.line);
        }
        Ok(())
    }

    /// `subnets = [{ hosts = N, access_delay = "...", access_rate = "..." }, ...]`: the
    /// source-side access link of every pair, subnet by subnet (reference document 002
    /// §1.1: subnets of 100 hosts, each with its own access delay). A subnet's delay and
    /// rate default to `access`'s.
    fn subnets(&self, s: &Section, access: &LinkTemplate) -> Result<Vec<LinkTemplate>, ScenarioError> {
        let subnets = s.tables("subnets")?;
        if subnets.is_empty() {
            return Err(s.error("subnets", "expected at least one subnet, such as subnets = [{ hosts = 100, access_delay = \"10ms\" }]"));
        }
        let mut sides = Vec::new();
        for subnet in &subnets {
            subnet.allow(SUBNET_KEYS)?;
            let hosts = subnet.required("hosts", subnet.integer("hosts", 1, MAX_GENERATED)?, "the number of source hosts of the subnet")? as usize;
            if sides.len() + hosts > MAX_GENERATED as usize {
                return Err(subnet.error("hosts", format!("expected at most {MAX_GENERATED} hosts in all subnets together; this subnet brings the total to {}", sides.len() + hosts)));
            }
            let delay = subnet.quantity("access_delay", parse_time, units::TIME_EXPECTED)?.unwrap_or(access.delay);
            let rate_bps = subnet.quantity("access_rate", parse_rate, units::RATE_EXPECTED)?.unwrap_or(access.rate_bps);
            if rate_bps == 0 {
                return Err(subnet.error("access_rate", "expected a rate greater than zero"));
            }
            subnet.finish()?;
            sides.extend(std::iter::repeat_n(LinkTemplate { delay, rate_bps, ..access.clone() }, hosts));
        }
        Ok(sides)
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
        let mut all_keys: Vec<&str> = FLOW_COMMON_KEYS.to_vec();
        for source in SourceModel::all() {
            all_keys.extend(source_keys(source.spec).filter(|k| !all_keys.contains(k)).collect::<Vec<_>>());
        }
        if s.present("delayed_ack_timeout") {
            return Err(s.error(
                "delayed_ack_timeout",
                "the delayed-ACK timeout belongs to the receiver now: write receiver = { kind = \"delayed\", timeout = \"100ms\" }",
            ));
        }
        s.allow(&all_keys)?;
        let count = s.integer("count", 1, MAX_GENERATED)?.unwrap_or(1) as usize;
        // The same bound for all tables together: thousands of [[flow]] tables must not
        // get around it (each flow is expanded here, before the run's cost is checked).
        let total = self.scenario.flows.len() + count;
        if total > MAX_GENERATED as usize {
            let key = if s.present("count") { "count" } else { "from" };
            return Err(s.error(
                key,
                format!("expected at most {MAX_GENERATED} flows in all [[flow]] tables together; this table brings the total to {total}"),
            ));
        }
        let name = s.string("name")?.map(|n| n.value);
        if let Some(n) = &name {
            // A name goes into result tables (CSV, Parquet) and messages: one printable line.
            if n.is_empty() || n.contains(is_control) {
                return Err(s.error("name", format!("expected a flow name without control characters (tabs, line breaks, ...), got {}", quote(n))));
            }
        }
        let from = s.required("from", s.string("from")?, "a node name")?;
        let to = s.required("to", s.string("to")?, "a node name")?;
        let group = s.string("group")?.map(|g| g.value);
        let start_spec = s.quantity("start", units::parse_start, units::START_EXPECTED)?.unwrap_or(StartTime::At(0));
        let start_spec = with_start_jitter(s, start_spec)?;
        // Checks below hold for every draw: they use the latest possible start.
        let latest_start = match start_spec {
            StartTime::At(t) => t,
            StartTime::Uniform { high, .. } => high - 1,
        };
        let spacing = s.quantity("start_spacing", parse_time, units::TIME_EXPECTED)?.unwrap_or(0);
        let stop = s.quantity("stop", parse_time, units::TIME_EXPECTED)?;
        let sources = catalogue::names(Family::Agent);
        let default_source = catalogue::default_model(Family::Agent).expect("sources have a default");
        let kind = s.choice("type", &sources)?.map_or(default_source.to_string(), |c| c.value);
        let source = Arc::new(source(s, &kind)?);
        s.finish()?;
        let secs = crate::engine::time::to_secs;
        let duration = self.scenario.duration;
        if let Some(stop) = stop {
            if stop <= latest_start {
                return Err(s.error(
                    "stop",
                    format!(
                        "expected a stop time after the {}start time ({} s), got {} s",
                        if matches!(start_spec, StartTime::Uniform { .. }) { "latest " } else { "" },
                        secs(latest_start),
                        secs(stop)
                    ),
                ));
            }
        }
        // A flow that cannot send before the end would be a silent row of zeros.
        if latest_start >= duration {
            let (key, what) = if s.present("start_jitter") { ("start_jitter", "start + start_jitter") } else { ("start", "a start time") };
            return Err(s.error(
                key,
                format!("expected {what} before the end of the simulation ([simulation] duration = {} s), got {} s", secs(duration), secs(latest_start)),
            ));
        }
        let table_key: Arc<str> = Arc::from(s.path.as_str());
        for i in 0..count {
            let expand = |key: &str, t: &str| expand_index(t, i).map_err(|expected| s.error(key, expected));
            let flow_name = match &name {
                Some(n) if n.contains("{i") || count == 1 => expand("name", n)?,
                Some(n) => format!("{n}_{i}"),
                None if count == 1 => format!("flow{index}"),
                None => format!("flow{index}_{i}"),
            };
            if !self.flow_names.insert(flow_name.clone()) {
                return Err(s.error("name", format!("flow name {} is used twice", quote(&flow_name))));
            }
            let a = self.node(s, "from", &expand("from", &from.value)?)?;
            let b = self.node(s, "to", &expand("to", &to.value)?)?;
            let group = match &group {
                Some(g) => Some(self.group_id(s, &expand("group", g)?)?),
                None => None,
            };
            if a == b {
                return Err(s.error("to", "expected a destination different from the source"));
            }
            let offset = spacing
                .checked_mul(i as u64)
                .and_then(|offset| offset.checked_add(latest_start))
                .filter(|&t| t < u64::MAX / 2)
                .ok_or_else(|| s.error("start_spacing", "expected start + count·start_spacing below 100 days"))?
                - latest_start;
            // A random start is drawn from the flow's own stream: the same seed gives the
            // same starts, and adding a flow leaves the others' draws alone.
            let drawn = match start_spec {
                StartTime::At(t) => t,
                StartTime::Uniform { low, high } => {
                    let u = RandomStream::new(self.scenario.seed, &format!("start {flow_name}")).uniform();
                    (low + (u * (high - low) as f64) as u64).min(high - 1)
                }
            };
            let flow_start = offset + drawn;
            if offset + latest_start >= duration {
                return Err(s.error(
                    "start_spacing",
                    format!(
                        "flow {} would start at {} s, at or after the end of the simulation ({} s): expected start + (count - 1) * start_spacing before the duration",
                        quote(&flow_name),
                        secs(offset + latest_start),
                        secs(duration)
                    ),
                ));
            }
            if let Some(stop) = stop {
                if offset + latest_start >= stop {
                    return Err(s.error(
                        "start_spacing",
                        format!(
                            "flow {} would start at {} s, not before its stop time {} s: expected every copy to start before `stop`",
                            quote(&flow_name),
                            secs(offset + latest_start),
                            secs(stop)
                        ),
                    ));
                }
            }
            self.scenario.flows.push(FlowSpec {
                name: flow_name,
                from: a as u32,
                to: b as u32,
                start: flow_start,
                stop,
                source: Arc::clone(&source),
                line: super::spec_line(s.line),
                key: Arc::clone(&table_key),
                group,
            });
        }
        Ok(())
    }

    /// `[trace]`: which ns-2 trace lines and pcap files to write.
    fn trace(&self, s: &Section) -> Result<TraceSpec, ScenarioError> {
        s.allow(TRACE_KEYS)?;
        let none = || Selection::Named(Vec::new());
        let dir = s.string("dir")?.map_or("traces".to_string(), |d| d.value);
        if dir.is_empty() || dir.contains(|c: char| c.is_control()) {
            return Err(s.error("dir", "expected a directory path"));
        }
        let ns2_links = if s.present("ns2") { selection(s, "ns2")? } else { none() };
        let pcap_links = if s.present("pcap_links") { selection(s, "pcap_links")? } else { none() };
        let pcap_nodes = if s.present("pcap_nodes") { selection(s, "pcap_nodes")? } else { none() };
        for key in ["ns2", "pcap_links"] {
            let names = if key == "ns2" { &ns2_links } else { &pcap_links };
            if let Selection::Named(names) = names {
                for n in names {
                    if !self.is_link_direction(n) {
                        return Err(s.error(key, format!("unknown link {}; links are named \"from->to\" after a link direction", quote(n))));
                    }
                }
            }
        }
        if let Selection::Named(names) = &pcap_nodes {
            for n in names {
                if !self.node_ids.contains_key(n) {
                    return Err(s.error("pcap_nodes", format!("unknown node {}", quote(n))));
                }
            }
        }
        s.has("ns2");
        s.has("pcap_links");
        s.has("pcap_nodes");
        s.finish()?;
        Ok(TraceSpec { dir, ns2_links, pcap_links, pcap_nodes })
    }

    /// Whether `name` ("a->b") names a direction of a declared link.
    /// One `[[event]]`: when, which link, what changes.
    fn event(&self, s: &Section) -> Result<LinkEvent, ScenarioError> {
        s.allow(EVENT_KEYS)?;
        let at = s.required("at", s.quantity("at", parse_time, units::TIME_EXPECTED)?, units::TIME_EXPECTED)?;
        if at > self.scenario.duration {
            return Err(s.error(
                "at",
                format!(
                    "expected a time within the run (0 to the duration, {} s), got {} s",
                    crate::engine::time::to_secs(self.scenario.duration),
                    crate::engine::time::to_secs(at)
                ),
            ));
        }
        let link = s.required("link", s.string("link")?, "a link direction such as \"r1->r2\"")?;
        let Some((from, to)) = link.value.split_once("->") else {
            return Err(s.error("link", format!("expected a link named \"from->to\" after a link direction, got {}", quote(&link.value))));
        };
        let a = self.node(s, "link", from)? as u32;
        let b = self.node(s, "link", to)? as u32;
        let Some(index) = self.scenario.links.iter().position(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a)) else {
            return Err(s.error("link", format!("no link joins {} and {}: expected a link direction such as \"r1->r2\"", quote(from), quote(to))));
        };
        let forward = if self.scenario.links[index].a == a { 2 * index as u32 } else { 2 * index as u32 + 1 };
        let action = s.required("action", s.choice("action", EVENT_ACTIONS)?, &format!("one of {}", super::reader::quote_list(EVENT_ACTIONS)))?;
        let change = match action.value.as_str() {
            "rate" => {
                let rate = s.required("value", s.quantity("value", parse_rate, units::RATE_EXPECTED)?, &format!("for action \"rate\", {}", units::RATE_EXPECTED))?;
                if rate == 0 {
                    return Err(s.error("value", "expected a rate greater than zero (to stop a link, use action = \"down\")"));
                }
                LinkChange::Rate(rate)
            }
            "delay" => LinkChange::Delay(s.required("value", s.quantity("value", parse_time, units::TIME_EXPECTED)?, &format!("for action \"delay\", {}", units::TIME_EXPECTED))?),
            word => {
                if s.present("value") {
                    return Err(s.error("value", format!("action {} takes no value: expected no 'value' key", quote(word))));
                }
                if word == "down" { LinkChange::Down } else { LinkChange::Up }
            }
        };
        let directions = match s.choice("direction", EVENT_DIRECTIONS)?.map(|d| d.value) {
            Some(d) if d == "forward" => vec![forward],
            // ns-2's `rtmodel-at T down $from $to` changes to->from, then from->to.
            _ => vec![forward ^ 1, forward],
        };
        s.finish()?;
        Ok(LinkEvent { at, directions, change, key: s.path.clone(), line: s.line })
    }

    fn is_link_direction(&self, name: &str) -> bool {
        name.split_once("->").is_some_and(|(a, b)| match (self.node_ids.get(a), self.node_ids.get(b)) {
            (Some(&a), Some(&b)) => self.link_pairs.contains(&(a.min(b), a.max(b))),
            _ => false,
        })
    }

    fn monitor(&self, s: &Section) -> Result<MonitorSpec, ScenarioError> {
        s.allow(MONITOR_KEYS)?;
        let interval = s.quantity("interval", parse_time, units::TIME_EXPECTED)?;
        // How many samples an interval makes is checked with the run's cost
        // (crate::cost), against a limit that --max-samples raises.
        if interval == Some(0) {
            return Err(s.error("interval", "expected an interval of at least 1 ps, got 0 s"));
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
                if !self.is_link_direction(n) {
                    return Err(s.error("queues", format!("unknown queue {}; queues are named \"from->to\" after a link direction", quote(n))));
                }
            }
        }
        let groups = selection(s, "groups")?;
        if let Selection::Named(names) = &groups {
            for n in names {
                if !self.group_ids.contains_key(n) {
                    let known: Vec<&str> = self.scenario.groups.iter().map(|g| g.as_str()).collect();
                    let hint = match crate::words::closest(n, &known) {
                        Some(k) => format!("; did you mean {}?", quote(k)),
                        None if known.is_empty() => "; no flow has a group (give flows group = \"NAME\")".to_string(),
                        None => String::new(),
                    };
                    return Err(s.error("groups", format!("unknown group {}{hint}", quote(n))));
                }
            }
        }
        s.finish()?;
        Ok(MonitorSpec { interval, flows, queues, groups, line: s.line_of_key("interval") })
    }
}

/// Characters a name may not contain: control characters (C0, DEL, C1) and the Unicode
/// line and paragraph separators, which break lines of CSV, traces and messages.
fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
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

/// The keys a flow of `source` may have: its parameters and the keys of the families it
/// selects models of (`cc`, `recovery`, `receiver` for TCP).
fn source_keys(source: &'static ModelSpec) -> impl Iterator<Item = &'static str> {
    source.params.iter().map(|p| p.name).chain(source.relations.selects.iter().map(|f| f.key()))
}

/// A flow's source (`type`) and the models it selects, configured. Which models a source
/// selects, which recovery a window control pairs with, which recovery reads SACK blocks
/// and which model needs ECN are the models' `relations`: nothing here names a model.
fn source(s: &Section, kind: &str) -> Result<FlowSource, ScenarioError> {
    let model = SourceModel::find(kind).expect("checked by choice");
    let spec = model.spec;
    // A key of another source type gets a precise message.
    for other in SourceModel::all().iter().filter(|m| m.spec.name != kind) {
        for key in source_keys(other.spec) {
            if s.present(key) && !source_keys(spec).any(|k| k == key) {
                return Err(s.error(key, format!("'{key}' applies to type = \"{}\" flows; this flow has type = \"{kind}\"", other.spec.name)));
            }
        }
    }
    let config = model_reader::params(s, spec)?;
    let selects = |f: Family| spec.relations.selects.contains(&f);
    let mut selected = Selected::default();
    if selects(Family::CongestionControl) {
        selected.cc = Some(chosen_or_default::<CcModel>(s, || CcModel::default().expect("a default"))?);
    }
    if selects(Family::Recovery) {
        let cc_spec = selected.cc.as_ref().map(|c| c.config.spec);
        selected.recovery = Some(chosen_or_default::<RecoveryModel>(s, || match cc_spec {
            Some(cc) => catalogue::default_recovery(cc),
            None => RecoveryModel::default().expect("a default"),
        })?);
    }
    if selects(Family::Receiver) {
        let mut receiver = chosen_or_default::<ReceiverModel>(s, || ReceiverModel::default().expect("a default"))?;
        if let Some(recovery) = &selected.recovery {
            let reads_sack = recovery.config.spec.relations.reads_sack;
            if reads_sack && !s.present("recovery") && !s.present("receiver") {
                // The window control's own pairing is a SACK recovery (FAST): its default
                // receiver sends SACK blocks.
                receiver.config.set("sack", Value::Bool(true));
            }
            if reads_sack && !receiver.config.boolean("sack") {
                // ns-2 would accept this and never fast-retransmit (no SACK block ever
                // changes the scoreboard): say so instead.
                let key = if s.present("receiver") { "receiver" } else { "recovery" };
                return Err(s.error(
                    key,
                    format!(
                        "recovery = \"{}\" reads SACK blocks: give the flow a SACK receiver, e.g. receiver = {{ kind = \"{}\", sack = true }}",
                        recovery.name(),
                        receiver.name()
                    ),
                ));
            }
        }
        if let Some(cc) = selected.cc.as_ref().filter(|c| c.config.spec.relations.reads_echo) {
            if !receiver.config.boolean("echo") {
                return Err(s.error(
                    "receiver",
                    format!(
                        "cc = \"{}\" reads the echo option: give the flow a receiver that writes it, e.g. receiver = {{ kind = \"{}\", echo = true }}",
                        cc.name(),
                        receiver.name()
                    ),
                ));
            }
        }
        selected.receiver = Some(receiver);
    }
    let ecn = spec.param("ecn").is_some() && config.boolean("ecn");
    let chosen = [
        selected.cc.as_ref().map(|c| c.config.spec),
        selected.recovery.as_ref().map(|c| c.config.spec),
        selected.receiver.as_ref().map(|c| c.config.spec),
    ];
    if let Some((key, message)) = needs_ecn(chosen.into_iter().flatten(), ecn) {
        return Err(s.error(key, message));
    }
    let typed = (model.configure)(&config, selected.clone()).map_err(|e| s.error(e.key, format!("expected {}", e.expected)))?;
    Ok(FlowSource { chosen: Chosen { model, config }, selected, config: typed })
}

/// The first of a flow's models that works only on an ECN-capable flow
/// (`relations.needs_ecn`) when the flow is not one: its key and what was expected.
fn needs_ecn(chosen: impl IntoIterator<Item = &'static ModelSpec>, ecn: bool) -> Option<(&'static str, String)> {
    let m = chosen.into_iter().find(|m| m.relations.needs_ecn).filter(|_| !ecn)?;
    let key = m.family.key();
    Some((key, format!("{key} = \"{}\" works only on an ECN-capable flow: set ecn = true", m.name)))
}

/// The model of family `M` the flow names under the family's key, or `default()`.
fn chosen_or_default<M: Listed>(s: &Section, default: impl FnOnce() -> &'static M) -> Result<Chosen<M>, ScenarioError> {
    Ok(match model_reader::model::<M>(s, M::FAMILY.key())? {
        Some((chosen, _)) => chosen,
        None => Chosen::defaults(default()),
    })
}

/// `start_jitter`: each flow starts at its own start plus a draw from [0, jitter) of its own
/// random stream, which is the draw `start = "uniform(START, START + jitter)"` makes, so
/// the two spellings give the same starts for the same seed. The key exists beside
/// `uniform(...)` so that a scenario (or a variant of one) can jitter flows whose starts
/// are set elsewhere (a case's `flow[k].start`, `start_spacing`) without restating them.
/// A zero jitter draws nothing: the start stays exact.
fn with_start_jitter(s: &Section, start: StartTime) -> Result<StartTime, ScenarioError> {
    let jitter = s.quantity("start_jitter", parse_time, units::TIME_EXPECTED)?.unwrap_or(0);
    match start {
        _ if jitter == 0 => Ok(start),
        StartTime::At(at) => at
            .checked_add(jitter)
            .filter(|&high| high < u64::MAX / 2)
            .map(|high| StartTime::Uniform { low: at, high })
            .ok_or_else(|| s.error("start_jitter", "expected start + start_jitter below 100 days")),
        StartTime::Uniform { .. } => Err(s.error(
            "start_jitter",
            "expected no start_jitter with a uniform start: uniform(LOW, HIGH) already draws the start (widen HIGH instead)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{expand_index, needs_ecn};
    use crate::model::{no_check, Family, ModelSpec, Relations};

    /// A window control that needs ECN (as DCTCP will).
    static ECN_ONLY: ModelSpec = ModelSpec {
        family: Family::CongestionControl,
        name: "ecn_only",
        summary: "test",
        source: "test",
        params: &[],
        check: no_check,
        relations: Relations { needs_ecn: true, ..Relations::NONE },
    };

    #[test]
    fn a_model_that_needs_ecn_needs_an_ecn_flow() {
        let reno = crate::catalogue::find(Family::CongestionControl, "reno").unwrap();
        let newreno = crate::catalogue::find(Family::Recovery, "newreno").unwrap();
        assert_eq!(needs_ecn([reno, newreno], false), None);
        assert_eq!(needs_ecn([&ECN_ONLY, newreno], true), None);
        let (key, message) = needs_ecn([&ECN_ONLY, newreno], false).expect("refused");
        assert_eq!(key, "cc");
        assert!(message.contains("cc = \"ecn_only\" works only on an ECN-capable flow: set ecn = true"), "{message}");
    }

    #[test]
    fn flow_index_expansion_with_offsets() {
        let ok = |text: &str, i: usize| expand_index(text, i).expect("a valid expansion");
        assert_eq!(ok("s{i}", 3), "s3");
        assert_eq!(ok("s{i+20}", 3), "s23");
        assert_eq!(ok("c{i+1}_{i}", 0), "c1_0");
        assert_eq!(ok("plain", 7), "plain");
    }

    #[test]
    fn flow_index_division_and_remainder() {
        let ok = |text: &str, i: usize| expand_index(text, i).expect("a valid expansion");
        // 100 hosts a subnet: flow 250 is host 50 of subnet 2.
        assert_eq!(ok("subnet{i/100}", 250), "subnet2");
        assert_eq!(ok("h{i%100}", 250), "h50");
        assert_eq!(ok("subnet{i/100}", 99), "subnet0");
        assert_eq!(ok("subnet{i/100}", 100), "subnet1");
        assert_eq!(ok("g{i/1}_{i%1}", 7), "g7_0");
        assert_eq!(ok("{i/3}{i%3}{i+1}", 5), "126");
    }

    #[test]
    fn a_malformed_index_expression_is_an_error_that_says_what_was_expected() {
        for bad in ["x{i+}", "x{i-1}", "x{i/0}", "x{i%0}", "x{i/}", "x{i*2}", "x{i/+2}", "x{i/2", "x{id}"] {
            let message = expand_index(bad, 1).expect_err(bad);
            assert!(message.starts_with("expected {i}, {i+K}, {i/K} or {i%K}"), "{bad}: {message}");
        }
        assert!(expand_index("x{i/0}", 1).unwrap_err().ends_with("got \"{i/0}\""), "names the expression");
        assert!(expand_index("x{i/2", 1).unwrap_err().contains("unclosed"));
    }
}
