//! Scenario files: TOML in, a validated [`Scenario`] out.
//!
//! The format is documented key by key in `docs/scenario.md`. Every error names the file,
//! line, key and what was expected; `tcpsim-run` exits with status 2 on any of them.

mod model_reader;
mod parse;
mod reader;

pub use parse::FLOW_COMMON_KEYS;

use crate::agent::{Selected, SourceConfig, SourceModel};
use crate::engine::{Dur, SimTime};
use crate::model::Chosen;
use crate::net::error::LinkErrorModel;
use crate::net::routing::Routes;
use crate::queue::{QueueConfig, QueueModel};
use std::fmt;
use std::path::Path;

/// A scenario problem, located in its file.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Full key path, e.g. "link[2].rate".
    pub key: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if !self.key.is_empty() {
            write!(f, ", key '{}'", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// The line of a generated link's or flow's table, kept with each of them: 4 bytes, not
/// a `usize`'s 8 (a million flows have two million links; issue 22). A line past
/// `u32::MAX` is kept as `u32::MAX`.
pub type SpecLine = u32;

/// `line` as a [`SpecLine`].
pub fn spec_line(line: Option<usize>) -> Option<SpecLine> {
    line.map(|l| SpecLine::try_from(l).unwrap_or(SpecLine::MAX))
}

/// A duplex point-to-point link between nodes `a` and `b` (indices into `nodes`; node
/// ids are `u32` throughout the simulation).
#[derive(Debug, Clone, PartialEq)]
pub struct LinkSpec {
    pub a: u32,
    pub b: u32,
    /// Bits per second, each direction.
    pub rate_bps: u64,
    pub delay: Dur,
    /// Line of the link's table (for errors found while building).
    pub line: Option<SpecLine>,
    /// Queues and error models of both directions, shared by the links one table
    /// generates (a dumbbell's access links hold one copy, not one per link).
    pub models: std::sync::Arc<LinkModels>,
}

/// The models of a link's two directions.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkModels {
    /// Queue of the a → b direction.
    pub queue_ab: LinkQueue,
    /// Queue of the b → a direction.
    pub queue_ba: LinkQueue,
    /// Error model of the a → b direction, if any.
    pub error_ab: Option<Chosen<LinkErrorModel>>,
    /// Error model of the b → a direction, if any.
    pub error_ba: Option<Chosen<LinkErrorModel>>,
}

/// A link direction's queue: the model and parameters the scenario gave, their typed form
/// (made once, when the scenario is read: the link is checked against it and built from
/// it), and where the queue was written.
#[derive(Debug, Clone)]
pub struct LinkQueue {
    pub chosen: Chosen<QueueModel>,
    pub typed: std::sync::Arc<dyn QueueConfig>,
    /// Key path and line of the queue's table, e.g. "link[2].queue.limit".
    pub at: (String, Option<usize>),
}

impl LinkQueue {
    pub fn new(chosen: Chosen<QueueModel>, at: (String, Option<usize>)) -> Self {
        LinkQueue { typed: chosen.configure(), chosen, at }
    }
}

impl PartialEq for LinkQueue {
    /// The typed form follows from the rest.
    fn eq(&self, other: &Self) -> bool {
        self.chosen == other.chosen && self.at == other.at
    }
}

/// A flow's traffic source: the model and its parameters as the scenario gave them (with
/// the models the flow selects), and their typed form, made once when the scenario loads.
#[derive(Debug, Clone)]
pub struct FlowSource {
    pub chosen: Chosen<SourceModel>,
    pub selected: Selected,
    pub config: std::sync::Arc<dyn SourceConfig>,
}

impl FlowSource {
    /// The source's name (`type` of the flow).
    pub fn name(&self) -> &'static str {
        self.chosen.name()
    }
}

impl PartialEq for FlowSource {
    /// The typed form follows from the rest.
    fn eq(&self, other: &Self) -> bool {
        self.chosen == other.chosen && self.selected == other.selected
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct FlowSpec {
    pub name: String,
    pub from: u32,
    pub to: u32,
    pub start: SimTime,
    /// When the application stops sending; `None` = end of run.
    pub stop: Option<SimTime>,
    /// Shared by the flows of one `[[flow]]` table with `count` (one copy, not one per
    /// flow).
    pub source: std::sync::Arc<FlowSource>,
    /// Where the flow was declared (for errors found while building, e.g. no route).
    pub line: Option<SpecLine>,
    /// Its `[[flow]]` table's key (`flow[2]`), shared by the flows of the table (a String
    /// each cost a million flows 40 MiB).
    pub key: std::sync::Arc<str>,
    /// The flow's group (`group = "..."`): an index into [`Scenario::groups`].
    pub group: Option<u32>,
}

/// Which entities a monitor samples.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    All,
    Named(Vec<String>),
}

impl Selection {
    pub fn includes(&self, name: &str) -> bool {
        match self {
            Selection::All => true,
            Selection::Named(names) => names.iter().any(|n| n == name),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MonitorSpec {
    /// Sampling interval of the time series; `None` = no time series.
    pub interval: Option<Dur>,
    pub flows: Selection,
    pub queues: Selection,
    /// Flow groups whose summed series are sampled (entity = the group's name).
    pub groups: Selection,
    /// Line of the `[monitor]` interval, for errors about its cost.
    pub line: Option<usize>,
}

/// Which packet traces a run writes (`[trace]`); all off by default.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceSpec {
    /// Directory for the trace files, relative to the run's output directory (or the
    /// working directory); default "traces".
    pub dir: String,
    /// ns-2 trace lines (`trace.tr`) for these link directions.
    pub ns2_links: Selection,
    /// One pcap file per selected link direction (`FROM-TO.pcap`, packets as they start
    /// transmission).
    pub pcap_links: Selection,
    /// One pcap file per selected node (`node-NAME.pcap`, packets the node receives).
    pub pcap_nodes: Selection,
}

impl TraceSpec {
    pub fn none() -> Self {
        TraceSpec {
            dir: "traces".into(),
            ns2_links: Selection::Named(Vec::new()),
            pcap_links: Selection::Named(Vec::new()),
            pcap_nodes: Selection::Named(Vec::new()),
        }
    }

    /// Whether any trace is written.
    pub fn any(&self) -> bool {
        let empty = |s: &Selection| matches!(s, Selection::Named(n) if n.is_empty());
        !(empty(&self.ns2_links) && empty(&self.pcap_links) && empty(&self.pcap_nodes))
    }
}

/// How routes react to links going down and up (`[routing] mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RoutingMode {
    /// Routes are computed once, at load (ns-2's `rtproto Static`, its default): a packet
    /// whose route uses a down link is dropped at that link.
    #[default]
    Static,
    /// Every link going down or up recomputes the shortest paths at once, at the same
    /// simulated time (ns-2's `rtproto Session`).
    Dynamic,
}

/// What a `[[event]]` does to its link directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkChange {
    /// A new transmission rate, bits per second (from the next packet to be sent on).
    Rate(u64),
    /// A new propagation delay (for packets that start their transmission from then on).
    Delay(Dur),
    /// The link stops carrying packets; those on it are dropped.
    Down,
    /// The link carries packets again.
    Up,
}

/// A change to a link at a given simulated time (`[[event]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct LinkEvent {
    pub at: SimTime,
    /// The link directions it changes (direction `2i` is link i's a → b, `2i + 1` its
    /// b → a).
    pub directions: Vec<u32>,
    pub change: LinkChange,
    /// Where the event was written, e.g. ("event[2]", line 40).
    pub key: String,
    pub line: Option<usize>,
}

/// The nodes' names, in declaration order (a node's index is its id), held in one
/// string: a dumbbell of a million pairs declares two million nodes, and a `String` each
/// cost 24 bytes plus an allocation of at least 32 (issue 22: about 90 bytes per flow).
#[derive(Clone, Default, PartialEq)]
pub struct NodeNames {
    /// Every name, one after the other.
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
}

impl NodeNames {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Adds a node named `name` (its index is the count before).
    pub fn push(&mut self, name: &str) {
        self.text.push_str(name);
        let end = u32::try_from(self.text.len()).expect("node names of less than 4 GiB together");
        self.ends.push(end);
    }

    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(&self.text[start..end])
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| &self[i])
    }
}

impl std::ops::Index<usize> for NodeNames {
    type Output = str;

    fn index(&self, i: usize) -> &str {
        self.get(i).unwrap_or_else(|| panic!("node {i} of {}", self.len()))
    }
}

impl fmt::Debug for NodeNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A validated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub file: String,
    pub duration: SimTime,
    pub seed: u64,
    /// Start of the measurement window: every counter of the report (flows, queues,
    /// links) covers [measure_from, duration]; time series cover the whole run. 0 by
    /// default.
    pub measure_from: SimTime,
    pub nodes: NodeNames,
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
    /// The names flows give as their `group`, in the order they first appear.
    pub groups: Vec<String>,
    pub monitor: MonitorSpec,
    pub trace: TraceSpec,
    /// Changes to links during the run, in time order (file order among equal times).
    pub events: Vec<LinkEvent>,
    pub routing: RoutingMode,
    /// The routes, once loading has planned them (`crate::load_str`); `None` for a
    /// scenario only parsed, which building plans itself.
    pub routes: Option<std::sync::Arc<Routes>>,
}

impl Scenario {
    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n == name)
    }

    /// The name of a link direction's queue, "from->to".
    pub fn queue_name(&self, from: usize, to: usize) -> String {
        format!("{}->{}", &self.nodes[from], &self.nodes[to])
    }

    /// The name of flow `i`'s group, if it has one.
    pub fn group_of(&self, i: usize) -> Option<&str> {
        self.flows[i].group.map(|g| self.groups[g as usize].as_str())
    }

    /// An error located at flow `i`'s declaration.
    pub fn flow_error(&self, i: usize, message: impl Into<String>) -> ScenarioError {
        let f = &self.flows[i];
        ScenarioError { file: self.file.clone(), line: f.line.map(|l| l as usize), key: f.key.to_string(), message: message.into() }
    }
}

/// Parses scenario text and checks every key; `file_name` is used in error messages.
///
/// This describes the scenario; what only the assembled network shows (a route for every
/// flow, queue limits that hold the largest packet) is checked by [`crate::load_str`],
/// which callers should use.
pub fn parse_str(text: &str, file_name: &str) -> Result<Scenario, ScenarioError> {
    parse::parse(text, file_name)
}

impl Scenario {
    /// An error located at a queue table of link `i` (`reverse`: the b → a direction).
    pub fn queue_error(&self, i: usize, reverse: bool, message: impl Into<String>) -> ScenarioError {
        let l = &self.links[i];
        let (key, line) = if reverse { &l.models.queue_ba.at } else { &l.models.queue_ab.at };
        ScenarioError { file: self.file.clone(), line: *line, key: key.clone(), message: message.into() }
    }

    /// An error located at event `i`'s table.
    pub fn event_error(&self, i: usize, key: &str, message: impl Into<String>) -> ScenarioError {
        let e = &self.events[i];
        ScenarioError { file: self.file.clone(), line: e.line, key: format!("{}.{key}", e.key), message: message.into() }
    }

    /// An error located at link `i`'s table.
    pub fn link_error(&self, i: usize, key: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError { file: self.file.clone(), line: self.links[i].line.map(|l| l as usize), key: key.to_string(), message: message.into() }
    }
}

/// Reads a scenario file's text; the error names the file.
pub fn read_file(path: &Path) -> Result<(String, String), ScenarioError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
        file: file.clone(),
        line: None,
        key: String::new(),
        message: format!("cannot read the scenario file: {e}"),
    })?;
    Ok((text, file))
}

#[cfg(test)]
mod node_names_tests {
    use super::NodeNames;

    #[test]
    fn names_come_back_by_index_and_in_order() {
        let mut nodes = NodeNames::default();
        assert!(nodes.is_empty());
        for name in ["r1", "r2", "s0", "", "d10"] {
            nodes.push(name);
        }
        assert_eq!(nodes.len(), 5);
        assert_eq!((&nodes[0], &nodes[2], &nodes[3], &nodes[4]), ("r1", "s0", "", "d10"));
        assert_eq!(nodes.get(5), None);
        assert_eq!(nodes.iter().collect::<Vec<_>>(), ["r1", "r2", "s0", "", "d10"]);
        assert_eq!(format!("{nodes:?}"), r#"["r1", "r2", "s0", "", "d10"]"#);
    }
}
