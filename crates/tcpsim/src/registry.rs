//! The one registry of models.
//!
//! Every model — congestion control, loss recovery, receiver, queue, traffic agent, error
//! model — declares once, in its own file, a [`ModelSpec`]: its name, a one-line summary,
//! where it comes from, its parameters (name, type, unit, default, valid range, one line of
//! doc, source) and its constructor. [`MODELS`] lists them, one line per model. The
//! scenario reader, its error messages, `tcpsim models`, the parameter tables in
//! `docs/models/` and the Python front end all read this list, so each default is written
//! exactly once.
//!
//! A model configured in a scenario is a [`ModelConfig`]: the spec plus one value per
//! parameter (defaults filled in), with typed getters for the constructor.

use crate::engine::time::{self, Dur};
use crate::engine::RandomStream;
use crate::queue::{Limit, QueueDiscipline};
use crate::tcp::cc::CongestionControl;
use crate::tcp::recovery::LossRecovery;
use std::fmt;

/// The kinds of models, each with its own trait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// How a TCP sender's window moves (`cc = ...` in a flow).
    CongestionControl,
    /// What a TCP sender retransmits and when (`recovery = ...`).
    Recovery,
    /// The TCP receiver: when to ACK, SACK, ECN echo (`receiver = ...`).
    Receiver,
    /// A router queue discipline (`queue = ...` on a link).
    Queue,
    /// A traffic agent: the `type` of a flow (TCP, CBR).
    Agent,
    /// Packet loss on a link (`error_model = ...`).
    ErrorModel,
}

impl Family {
    pub const ALL: [Family; 6] =
        [Family::Agent, Family::CongestionControl, Family::Recovery, Family::Receiver, Family::Queue, Family::ErrorModel];

    /// The scenario key that selects a model of this family.
    pub fn key(self) -> &'static str {
        match self {
            Family::CongestionControl => "cc",
            Family::Recovery => "recovery",
            Family::Receiver => "receiver",
            Family::Queue => "queue",
            Family::Agent => "type",
            Family::ErrorModel => "error_model",
        }
    }

    /// The family's short name in `tcpsim models`, docs markers and Python
    /// (`tcpsim models queue red`, `<!-- registry:queue/red -->`): the scenario key,
    /// except that traffic agents (selected by a flow's `type`) are "agent".
    pub fn id(self) -> &'static str {
        match self {
            Family::Agent => "agent",
            f => f.key(),
        }
    }

    /// Where a scenario selects a model of this family: "flow" (the `type` of a
    /// `[[flow]]`), "tcp_flow" (a key of a TCP `[[flow]]`) or "link" (a key of a link
    /// or link template, with a `<key>_reverse` twin for the reverse direction).
    pub fn scope(self) -> &'static str {
        match self {
            Family::Agent => "flow",
            Family::CongestionControl | Family::Recovery | Family::Receiver => "tcp_flow",
            Family::Queue | Family::ErrorModel => "link",
        }
    }

    /// The model a scenario gets when it names none; `None` when leaving the key out
    /// means no model at all (a link without an error model loses nothing).
    pub fn default_model(self) -> Option<&'static str> {
        match self {
            Family::Agent => Some(crate::tcp::agent::DEFAULT_AGENT),
            Family::CongestionControl => Some(crate::tcp::agent::DEFAULT_CC),
            Family::Recovery => Some(crate::tcp::agent::DEFAULT_RECOVERY),
            Family::Receiver => Some(crate::tcp::agent::DEFAULT_RECEIVER),
            Family::Queue => Some(crate::queue::DEFAULT_QUEUE),
            Family::ErrorModel => None,
        }
    }

    /// A plain-words name for messages and docs.
    pub fn title(self) -> &'static str {
        match self {
            Family::CongestionControl => "congestion control",
            Family::Recovery => "loss recovery",
            Family::Receiver => "TCP receiver",
            Family::Queue => "queue discipline",
            Family::Agent => "traffic agent",
            Family::ErrorModel => "link error model",
        }
    }
}

/// What kind of value a parameter takes, as written in a scenario file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamType {
    /// A real number.
    Number,
    /// A whole number.
    Integer,
    Bool,
    /// A time with a unit ("40ms"); stored in picoseconds.
    Time,
    /// A size with a unit ("1000B"); stored in bytes.
    Size,
    /// A rate with a unit ("10Mbps"); stored in bits per second.
    Rate,
    /// A queue limit in packets or bytes ("50p", "64KB").
    Limit,
    /// One of the listed words.
    Choice(&'static [&'static str]),
    /// A real number, or one of the listed words, which stand for values the model
    /// computes itself (RED's `min_th = "auto"`). A word is stored as `Value::Choice`.
    NumberOr(&'static [&'static str]),
    /// A list of time windows, each [start, end] (error models).
    TimeWindows,
}

impl ParamType {
    /// How the value is written, for docs and messages.
    pub fn describe(self) -> String {
        match self {
            ParamType::Number => "number".into(),
            ParamType::Integer => "integer".into(),
            ParamType::Bool => "true/false".into(),
            ParamType::Time => "time".into(),
            ParamType::Size => "size".into(),
            ParamType::Rate => "rate".into(),
            ParamType::Limit => "limit".into(),
            ParamType::Choice(c) => c.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(" | "),
            ParamType::NumberOr(words) => {
                let words: Vec<String> = words.iter().map(|s| format!("\"{s}\"")).collect();
                match words.split_last() {
                    Some((last, rest)) if !rest.is_empty() => format!("number, {} or {last}", rest.join(", ")),
                    _ => format!("number or {}", words.join("")),
                }
            }
            ParamType::TimeWindows => "list of [start, end] times".into(),
        }
    }
}

/// A parameter value. Times are picoseconds, sizes bytes, rates bits per second.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value: an optional parameter left out (its doc says what that means).
    Unset,
    Number(f64),
    Integer(i64),
    Bool(bool),
    Time(Dur),
    Size(u64),
    Rate(u64),
    Limit(Limit),
    Choice(&'static str),
    TimeWindows(Vec<(Dur, Dur)>),
}

impl Value {
    /// The value as written in a scenario file (TOML), for docs and `tcpsim models`.
    pub fn to_toml(&self) -> String {
        match self {
            Value::Unset => String::new(),
            Value::Number(x) => format_number(*x),
            Value::Integer(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Time(t) => format!("\"{}\"", format_time(*t)),
            Value::Size(b) => format!("\"{b}B\""),
            Value::Rate(r) => format!("\"{}\"", format_rate(*r)),
            Value::Limit(Limit::Packets(n)) => format!("\"{n}p\""),
            Value::Limit(Limit::Bytes(b)) => format!("\"{b}B\""),
            Value::Choice(c) => format!("\"{c}\""),
            Value::TimeWindows(w) => {
                let items: Vec<String> =
                    w.iter().map(|(a, b)| format!("[\"{}\", \"{}\"]", format_time(*a), format_time(*b))).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    /// The value as JSON (for the Python side): times in seconds, sizes in bytes, rates
    /// in bits per second, limits as "50p" / "64000B" strings.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Value::Unset => serde_json::Value::Null,
            Value::Number(x) => json!(x),
            Value::Integer(i) => json!(i),
            Value::Bool(b) => json!(b),
            Value::Time(t) => json!(time::to_secs(*t)),
            Value::Size(b) => json!(b),
            Value::Rate(r) => json!(r),
            Value::Limit(Limit::Packets(n)) => json!(format!("{n}p")),
            Value::Limit(Limit::Bytes(b)) => json!(format!("{b}B")),
            Value::Choice(c) => json!(c),
            Value::TimeWindows(w) => json!(w.iter().map(|(a, b)| [time::to_secs(*a), time::to_secs(*b)]).collect::<Vec<_>>()),
        }
    }
}

fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.1}").trim_end_matches(".0").to_string()
    } else {
        format!("{x}")
    }
}

fn format_time(ps: Dur) -> String {
    for (unit, scale) in [("s", time::PS_PER_S), ("ms", time::PS_PER_MS), ("us", time::PS_PER_US), ("ns", time::PS_PER_NS)] {
        if ps >= scale && ps % scale == 0 || (unit == "ns" && ps % scale == 0) {
            return format!("{}{unit}", ps / scale);
        }
    }
    format!("{}s", time::to_secs(ps))
}

fn format_rate(bps: u64) -> String {
    for (unit, scale) in [("Gbps", 1_000_000_000), ("Mbps", 1_000_000), ("Kbps", 1_000)] {
        if bps >= scale && bps % scale == 0 {
            return format!("{}{unit}", bps / scale);
        }
    }
    format!("{bps}bps")
}

/// One parameter of a model.
#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub ty: ParamType,
    /// Unit of the value for docs ("packets", "s", "B", "bit/s", "" for none).
    pub unit: &'static str,
    /// The default; `Value::Unset` for optional parameters without one.
    pub default: Value,
    /// Valid range, inclusive, in the parameter's unit (seconds for times, bytes for
    /// sizes, bit/s for rates); `None` where any value of the type is valid.
    pub range: Option<(f64, f64)>,
    pub doc: &'static str,
    /// Where the default and the meaning come from.
    pub source: &'static str,
    /// For a required parameter (no default): a valid value as written in a scenario,
    /// for examples and docs.
    pub example: &'static str,
}

impl Param {
    /// A parameter with a range that includes every value of its type.
    pub const fn new(name: &'static str, ty: ParamType, unit: &'static str, default: Value, doc: &'static str, source: &'static str) -> Param {
        Param { name, ty, unit, default, range: None, doc, source, example: "" }
    }

    /// A value to show in examples, for a parameter without a default.
    pub const fn example(mut self, toml: &'static str) -> Param {
        self.example = toml;
        self
    }

    pub const fn range(mut self, min: f64, max: f64) -> Param {
        self.range = Some((min, max));
        self
    }

    /// The value in the parameter's unit for range checks (seconds, bytes, bit/s).
    pub fn magnitude(v: &Value) -> Option<f64> {
        match v {
            Value::Number(x) => Some(*x),
            Value::Integer(i) => Some(*i as f64),
            Value::Time(t) => Some(time::to_secs(*t)),
            Value::Size(b) | Value::Rate(b) => Some(*b as f64),
            Value::Limit(Limit::Packets(n)) | Value::Limit(Limit::Bytes(n)) => Some(*n as f64),
            _ => None,
        }
    }

    /// "from A to B" for messages, in the parameter's unit.
    pub fn describe_range(&self) -> Option<String> {
        let (lo, hi) = self.range?;
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        Some(format!("from {}{unit} to {}{unit}", format_number(lo), format_number(hi)))
    }
}

/// A parameter problem found by a model's own check: the key and what was expected.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamError {
    pub key: &'static str,
    pub expected: String,
}

impl ParamError {
    pub fn new(key: &'static str, expected: impl Into<String>) -> ParamError {
        ParamError { key, expected: expected.into() }
    }
}

/// The link direction a queue feeds, as its model sees it when it is checked and built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueueLink {
    /// Rate, bits per second.
    pub rate_bps: u64,
    /// Propagation delay (RED's automatic weight reads it, as ns-2's `$q link` does).
    pub delay: Dur,
    /// The largest packet any flow of the scenario sends, bytes.
    pub largest_packet: u32,
}

/// What building a queue discipline needs besides its parameters.
pub struct QueueEnv {
    /// Rate of the link direction the queue feeds, bits per second.
    pub rate_bps: u64,
    /// Propagation delay of that link direction.
    pub delay: Dur,
    /// The queue's own random stream.
    pub random: RandomStream,
}

/// How a model is constructed; one variant per family trait.
pub enum Constructor {
    CongestionControl(fn(&ModelConfig) -> Box<dyn CongestionControl>),
    Recovery(fn(&ModelConfig) -> Box<dyn LossRecovery>),
    /// Receivers and agents are built by their owners from the typed parameters
    /// (`TcpReceiver::new`, the flow builder).
    Described,
    ErrorModel(fn(&ModelConfig) -> Box<dyn crate::net::error::ErrorModel>),
    Queue {
        build: fn(&ModelConfig, QueueEnv) -> Box<dyn QueueDiscipline>,
        /// Checks the configured queue against the link direction it feeds: that its limit
        /// can hold the largest packet of the scenario, and whatever else depends on the
        /// link (RED's automatic thresholds); returns what was expected.
        check_link: fn(&ModelConfig, &QueueLink) -> Result<(), String>,
    },
}

/// Everything the registry knows about one model.
pub struct ModelSpec {
    pub family: Family,
    /// Name in scenario files (`cc = "vegas"`).
    pub name: &'static str,
    pub summary: &'static str,
    /// The document, section or code the model follows.
    pub source: &'static str,
    pub params: &'static [Param],
    /// Checks between parameters (for example max_th > min_th), after each is in range.
    pub check: fn(&ModelConfig) -> Result<(), ParamError>,
    pub constructor: Constructor,
}

impl fmt::Debug for ModelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.family.key(), self.name)
    }
}

/// A check that accepts every combination.
pub fn no_check(_: &ModelConfig) -> Result<(), ParamError> {
    Ok(())
}

impl ModelSpec {
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The model with every parameter at its default.
    pub fn defaults(&'static self) -> ModelConfig {
        ModelConfig { spec: self, values: self.params.iter().map(|p| p.default.clone()).collect(), given: 0 }
    }
}

/// Every model, one line each. Adding a model: write its file with a `SPEC`, add it here.
pub static MODELS: &[&ModelSpec] = &[
    &crate::tcp::agent::SPEC,
    &crate::app::cbr::SPEC,
    &crate::tcp::cc::reno::SPEC,
    &crate::tcp::cc::vegas::SPEC,
    &crate::tcp::cc::quick_vegas::SPEC,
    &crate::tcp::cc::fast::SPEC,
    &crate::tcp::recovery::tahoe::SPEC,
    &crate::tcp::recovery::reno::SPEC,
    &crate::tcp::recovery::newreno::SPEC,
    &crate::tcp::recovery::sack1::SPEC,
    &crate::tcp::recovery::fack::SPEC,
    &crate::tcp::recovery::vegas::SPEC,
    &crate::tcp::receiver::every_packet::SPEC,
    &crate::tcp::receiver::delayed::SPEC,
    &crate::queue::droptail::SPEC,
    &crate::queue::red::SPEC,
    &crate::net::error::blackout::SPEC,
    &crate::net::error::uniform::SPEC,
    &crate::queue::drr::SPEC,
];

/// The model `name` of `family`, if registered.
pub fn find(family: Family, name: &str) -> Option<&'static ModelSpec> {
    MODELS.iter().copied().find(|m| m.family == family && m.name == name)
}

/// The names of every model of `family`, in registry order.
pub fn names(family: Family) -> Vec<&'static str> {
    MODELS.iter().filter(|m| m.family == family).map(|m| m.name).collect()
}

/// A model as configured: its spec and one value per parameter, in the spec's order.
#[derive(Clone)]
pub struct ModelConfig {
    pub spec: &'static ModelSpec,
    pub values: Vec<Value>,
    /// Bit i set: parameter i was written in the scenario (not defaulted).
    pub given: u64,
}

impl PartialEq for ModelConfig {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.spec, other.spec) && self.values == other.values
    }
}

impl fmt::Debug for ModelConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {{", self.spec)?;
        for (p, v) in self.spec.params.iter().zip(&self.values) {
            if *v != Value::Unset {
                write!(f, " {} = {},", p.name, v.to_toml())?;
            }
        }
        write!(f, " }}")
    }
}

impl ModelConfig {
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    fn index(&self, name: &str) -> usize {
        self.spec
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("model {:?} has no parameter '{name}'", self.spec))
    }

    pub fn get(&self, name: &str) -> &Value {
        &self.values[self.index(name)]
    }

    /// Sets a parameter (as if written in the scenario).
    pub fn set(&mut self, name: &str, value: Value) {
        let i = self.index(name);
        self.values[i] = value;
        self.given |= 1 << i;
    }

    /// Whether the scenario wrote this parameter.
    pub fn is_given(&self, name: &str) -> bool {
        self.given & (1 << self.index(name)) != 0
    }

    fn wrong(&self, name: &str, v: &Value) -> ! {
        panic!("parameter '{name}' of {:?} read with the wrong type: {v:?}", self.spec)
    }

    pub fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            Value::Number(x) => *x,
            Value::Integer(i) => *i as f64,
            v => self.wrong(name, v),
        }
    }

    pub fn opt_number(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Value::Unset => None,
            _ => Some(self.number(name)),
        }
    }

    pub fn integer(&self, name: &str) -> i64 {
        match self.get(name) {
            Value::Integer(i) => *i,
            v => self.wrong(name, v),
        }
    }

    pub fn opt_integer(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Value::Unset => None,
            _ => Some(self.integer(name)),
        }
    }

    pub fn boolean(&self, name: &str) -> bool {
        match self.get(name) {
            Value::Bool(b) => *b,
            v => self.wrong(name, v),
        }
    }

    pub fn time(&self, name: &str) -> Dur {
        match self.get(name) {
            Value::Time(t) => *t,
            v => self.wrong(name, v),
        }
    }

    pub fn size(&self, name: &str) -> u64 {
        match self.get(name) {
            Value::Size(b) => *b,
            v => self.wrong(name, v),
        }
    }

    pub fn rate(&self, name: &str) -> u64 {
        match self.get(name) {
            Value::Rate(r) => *r,
            v => self.wrong(name, v),
        }
    }

    pub fn limit(&self, name: &str) -> Limit {
        match self.get(name) {
            Value::Limit(l) => *l,
            v => self.wrong(name, v),
        }
    }

    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            Value::Choice(c) => c,
            v => self.wrong(name, v),
        }
    }

    pub fn time_windows(&self, name: &str) -> &[(Dur, Dur)] {
        match self.get(name) {
            Value::TimeWindows(w) => w,
            v => self.wrong(name, v),
        }
    }
}

/// The registry as JSON (for `tcpsim models` and the Python front end): `families` (id,
/// scenario key, title, scope, default model) in [`Family::ALL`] order, then `models` in
/// registry order, each with its parameters.
pub fn to_json() -> serde_json::Value {
    let models: Vec<serde_json::Value> = MODELS
        .iter()
        .map(|m| {
            let params: Vec<serde_json::Value> = m
                .params
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "type": match p.ty { ParamType::Choice(_) => "choice".to_string(), t => t.describe() },
                        "choices": match p.ty { ParamType::Choice(c) | ParamType::NumberOr(c) => c.to_vec(), _ => Vec::new() },
                        "unit": p.unit,
                        "default": p.default.to_json(),
                        "default_toml": p.default.to_toml(),
                        "min": p.range.map(|r| r.0),
                        "max": p.range.map(|r| r.1),
                        "doc": p.doc,
                        "source": p.source,
                        "required": required(m, p),
                        "example_toml": p.example,
                    })
                })
                .collect();
            serde_json::json!({
                "family": m.family.key(),
                "family_title": m.family.title(),
                "name": m.name,
                "summary": m.summary,
                "source": m.source,
                "params": params,
                // A recovery that reads SACK blocks needs a receiver that sends them.
                "needs_sack_receiver": crate::tcp::recovery::SACK_BASED.iter().any(|r| std::ptr::eq(*r, *m)),
            })
        })
        .collect();
    let families: Vec<serde_json::Value> = Family::ALL
        .iter()
        .map(|f| {
            serde_json::json!({
                "id": f.id(),
                "key": f.key(),
                "title": f.title(),
                "scope": f.scope(),
                "default": f.default_model(),
            })
        })
        .collect();
    serde_json::json!({ "families": families, "models": models })
}

/// A parameter the scenario must give: no default, and the model's check rejects the
/// defaults for it.
pub fn required(spec: &'static ModelSpec, p: &Param) -> bool {
    p.default == Value::Unset && (spec.check)(&spec.defaults()).is_err_and(|e| e.key == p.name)
}

/// A Markdown table of a model's parameters (for `docs/models/`).
pub fn markdown_table(spec: &ModelSpec) -> String {
    let mut out = String::from("| parameter | type | unit | default | range | meaning | source |\n|---|---|---|---|---|---|---|\n");
    for p in spec.params {
        let default = match &p.default {
            Value::Unset if !p.example.is_empty() => format!("required, e.g. `{}`", p.example),
            Value::Unset => "(unset)".to_string(),
            v => format!("`{}`", v.to_toml()),
        };
        let range = p.range.map_or(String::new(), |(a, b)| format!("{} – {}", format_number(a), format_number(b)));
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            p.name,
            p.ty.describe(),
            p.unit,
            default,
            range,
            p.doc.replace('|', "\\|"),
            p.source.replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_within_a_family_and_parameters_within_a_model() {
        for (i, a) in MODELS.iter().enumerate() {
            for b in &MODELS[i + 1..] {
                assert!(!(a.family == b.family && a.name == b.name), "{a:?} registered twice");
            }
            for (j, p) in a.params.iter().enumerate() {
                assert!(a.params[j + 1..].iter().all(|q| q.name != p.name), "{a:?}.{} twice", p.name);
                assert!(!p.doc.is_empty() && !p.source.is_empty(), "{a:?}.{} needs a doc and a source", p.name);
            }
            assert!(a.params.len() <= 64, "{a:?}: `given` is a 64-bit mask");
        }
    }

    #[test]
    fn every_default_is_in_its_range_and_passes_the_model_check() {
        for m in MODELS {
            for p in m.params {
                if let (Some((lo, hi)), Some(x)) = (p.range, Param::magnitude(&p.default)) {
                    assert!(x >= lo && x <= hi, "{m:?}.{}: default {x} outside [{lo}, {hi}]", p.name);
                }
            }
            // Defaults pass the model's check, unless it has a required parameter (no default).
            if let Err(e) = (m.check)(&m.defaults()) {
                let required = m.param(e.key).is_some_and(|p| p.default == Value::Unset && !p.example.is_empty());
                assert!(required, "{m:?} defaults fail their check: {e:?} (a required parameter needs an example)");
            }
        }
    }

    #[test]
    fn every_family_default_is_a_registered_model_of_that_family() {
        for f in Family::ALL {
            if let Some(name) = f.default_model() {
                assert!(find(f, name).is_some(), "default {} '{name}' is not registered", f.title());
            }
        }
        let json = to_json();
        assert_eq!(json["families"].as_array().map(Vec::len), Some(Family::ALL.len()));
        assert_eq!(json["families"][1]["default"], "reno");
    }

    #[test]
    fn values_print_as_scenario_text() {
        assert_eq!(Value::Time(200 * time::PS_PER_MS).to_toml(), "\"200ms\"");
        assert_eq!(Value::Time(3 * time::PS_PER_S).to_toml(), "\"3s\"");
        assert_eq!(Value::Rate(448_000).to_toml(), "\"448Kbps\"");
        assert_eq!(Value::Number(0.002).to_toml(), "0.002");
        assert_eq!(Value::Number(2.0).to_toml(), "2");
        assert_eq!(Value::Limit(Limit::Packets(50)).to_toml(), "\"50p\"");
        assert_eq!(Value::Choice("auto").to_toml(), "\"auto\"");
    }

    #[test]
    fn number_or_words_describes_both() {
        assert_eq!(ParamType::NumberOr(&["auto"]).describe(), "number or \"auto\"");
        assert_eq!(ParamType::NumberOr(&["a", "b", "c"]).describe(), "number, \"a\", \"b\" or \"c\"");
    }
}
