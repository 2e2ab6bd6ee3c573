//! The vocabulary of models: what every model says about itself.
//!
//! Every model — congestion control, loss recovery, receiver, queue, traffic source, error
//! model — declares once, in its own file, a [`ModelSpec`]: its name, a one-line summary,
//! where it comes from, its parameters (name, type, unit, default, valid range, one line of
//! doc, source), a check between parameters, and its [`Relations`] to models of other
//! families (a window control's default loss recovery, a recovery that reads SACK
//! blocks, ...). Each family's trait module pairs the spec with that family's
//! constructor (`tcp::cc::CcModel`, `queue::QueueModel`, ...); the catalogue
//! (`crate::catalogue`), above every model, lists them. Models import this vocabulary and
//! never the catalogue, as Linux's congestion controls call
//! `tcp_register_congestion_control` and only `tcp_cong.c` keeps the list.
//!
//! A model configured in a scenario is a [`ModelConfig`]: the spec plus one value per
//! parameter (defaults filled in), with typed getters for the constructor; [`Chosen`]
//! pairs it with the family model it was chosen from, so building it needs no lookup.

use crate::engine::time::{self, Dur};
use crate::units::Limit;
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

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`: quoted words as a sentence lists them.
fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|s| format!("\"{s}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
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
            // "a", "b" or "c": no `|`, which would split a Markdown table's cell.
            ParamType::Choice(c) => one_of(c),
            ParamType::NumberOr(words) if words.len() > 1 => format!("number, {}", one_of(words)),
            ParamType::NumberOr(words) => format!("number or {}", one_of(words)),
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

pub(crate) fn format_number(x: f64) -> String {
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

/// What a model says of its relations to models of other families: data that the
/// scenario reader, the builder, `tcpsim models --json`, Python's sweep keys and the docs
/// read, so that no pairing is written by name anywhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relations {
    /// A window control: the loss recovery a flow gets when it names none (the pairing
    /// that makes the two one ns-2 agent); `None` = the family default.
    pub default_recovery: Option<&'static str>,
    /// A loss recovery that reads SACK blocks: the flow needs a receiver with
    /// `sack = true` (given by default when the recovery came from the window control's
    /// `default_recovery` and the scenario names neither).
    pub reads_sack: bool,
    /// The model works only on an ECN-capable flow (`ecn = true`).
    pub needs_ecn: bool,
    /// A window control that reads the echo option (reference document 003 §3.2): the
    /// flow needs a receiver with `echo = true` (the default).
    pub reads_echo: bool,
    /// A traffic source: the families a flow of it selects models of (TCP: `cc`,
    /// `recovery`, `receiver`; the receiver is its sink).
    pub selects: &'static [Family],
}

impl Relations {
    /// No relation to other models.
    pub const NONE: Relations = Relations { default_recovery: None, reads_sack: false, needs_ecn: false, reads_echo: false, selects: &[] };

    /// The relations in words, for the docs and `tcpsim models` (empty when none).
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(r) = self.default_recovery {
            out.push(format!("a flow that names no `recovery` gets `{r}`"));
        }
        if self.reads_sack {
            out.push("reads SACK blocks: the flow needs a receiver with `sack = true` (given by default when this recovery is the window control's own)".to_string());
        }
        if self.needs_ecn {
            out.push("works only on an ECN-capable flow (`ecn = true`)".to_string());
        }
        if self.reads_echo {
            out.push("reads the echo option: the flow needs a receiver with `echo = true` (the default)".to_string());
        }
        if !self.selects.is_empty() {
            let keys: Vec<String> = self.selects.iter().map(|f| format!("`{}`", f.key())).collect();
            out.push(format!("a flow of it also selects {}", keys.join(", ")));
        }
        out
    }

    /// Relations as JSON (for `tcpsim models --json` and Python).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "default_recovery": self.default_recovery,
            "reads_sack": self.reads_sack,
            "needs_ecn": self.needs_ecn,
            "reads_echo": self.reads_echo,
            "selects": self.selects.iter().map(|f| f.key()).collect::<Vec<_>>(),
        })
    }
}

/// Everything a model says about itself.
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
    /// Its relations to models of other families.
    pub relations: Relations,
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

/// A family's model: the spec plus the family's constructor (each family's trait module
/// defines one, e.g. `tcp::cc::CcModel`). The catalogue lists them; the scenario reader
/// reads any family through this.
pub trait FamilyModel: Sync + 'static {
    /// The family every model of this type belongs to.
    const FAMILY: Family;
    fn spec(&self) -> &'static ModelSpec;
}

/// A model chosen in a scenario: the family model it came from (with its constructor) and
/// its configuration. Building it is `(chosen.model.build)(&chosen.config, ...)`: the
/// family is part of the type, so no lookup or family check is left for run time.
pub struct Chosen<M: 'static> {
    pub model: &'static M,
    pub config: ModelConfig,
}

impl<M: FamilyModel> Chosen<M> {
    /// `model` with every parameter at its default.
    pub fn defaults(model: &'static M) -> Self {
        Chosen { model, config: model.spec().defaults() }
    }

    pub fn name(&self) -> &'static str {
        self.config.name()
    }
}

impl<M> Clone for Chosen<M> {
    fn clone(&self) -> Self {
        Chosen { model: self.model, config: self.config.clone() }
    }
}

impl<M> PartialEq for Chosen<M> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.model, other.model) && self.config == other.config
    }
}

impl<M> fmt::Debug for Chosen<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.config.fmt(f)
    }
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
    let relations = spec.relations.describe();
    if !relations.is_empty() {
        out.push_str(&format!("\nRelations (`relations` in the spec): {}.\n", relations.join("; ")));
    }
    out
}

