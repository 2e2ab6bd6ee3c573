//! A checked walk over a parsed TOML document.
//!
//! Every lookup records the key it asked for, so that `finish()` can reject keys nobody
//! asked for (typos) and every error can name the file, the line, the full key path and
//! what was expected.

pub(super) use crate::words::{closest, quote, quote_list};
use crate::words::quote_key;
use crate::units::UnitError;
use super::ScenarioError;
use std::cell::RefCell;
use std::ops::Range;
use toml_edit::{Item, TableLike, Value};

/// The document being read: its file name, and where each line of its text starts (so
/// that a line number costs a binary search, not a scan from the start: loading stays
/// linear in the file's size).
pub struct Source<'a> {
    pub file: &'a str,
    /// Byte offset of the start of each line after the first (one past each '\n').
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Self {
        let line_starts = text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1).collect();
        Source { file, line_starts }
    }

    /// The 1-based line of a byte span's start.
    pub fn line_of(&self, span: Option<Range<usize>>) -> Option<usize> {
        span.map(|r| self.line_starts.partition_point(|&start| start <= r.start) + 1)
    }

    pub fn error(&self, line: Option<usize>, key: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError { file: self.file.to_string(), line, key: key.to_string(), message: message.into() }
    }
}

/// One table (top level, `[section]`, inline `{...}` or an element of `[[array]]`).
pub struct Section<'a> {
    pub src: &'a Source<'a>,
    table: &'a dyn TableLike,
    /// Full key path of this table, e.g. "dumbbell.bottleneck" or "flow[2]".
    pub path: String,
    /// Line where the table starts.
    pub line: Option<usize>,
    asked: RefCell<Vec<String>>,
    /// Values for the keys the table does not have (a flow's TCP profile); they are
    /// read as if written, but never reported as unknown keys.
    defaults: Option<&'a dyn TableLike>,
}

/// A value read from the file, with where it was.
pub struct Located<T> {
    pub value: T,
    pub line: Option<usize>,
    pub key: String,
}

impl<'a> Section<'a> {
    pub fn new(src: &'a Source<'a>, table: &'a dyn TableLike, path: String, line: Option<usize>) -> Self {
        Section { src, table, path, line, asked: RefCell::new(Vec::new()), defaults: None }
    }

    /// The same table, with `defaults` for the keys it does not have.
    pub fn with_defaults(self, defaults: &'a dyn TableLike) -> Self {
        Section { defaults: Some(defaults), ..self }
    }

    /// The item of `key`: the table's own, else the defaults'.
    fn get(&self, key: &str) -> Option<&'a Item> {
        self.table.get(key).or_else(|| self.defaults.and_then(|d| d.get(key)))
    }

    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.path, key)
        }
    }

    /// The line of `key` (or of the table when the key is absent).
    pub fn line_of_key(&self, key: &str) -> Option<usize> {
        self.key_line(key)
    }

    fn key_line(&self, key: &str) -> Option<usize> {
        let span = self.table.key(key).and_then(|k| k.span()).or_else(|| self.table.get(key).and_then(|i| i.span()));
        self.src.line_of(span).or(self.line)
    }

    pub fn error(&self, key: &str, message: impl Into<String>) -> ScenarioError {
        self.src.error(self.key_line(key), &self.key_path(key), message)
    }

    /// Error about the table as a whole.
    pub fn table_error(&self, message: impl Into<String>) -> ScenarioError {
        self.src.error(self.line, &self.path, message)
    }

    pub fn has(&self, key: &str) -> bool {
        self.asked.borrow_mut().push(key.to_string());
        self.get(key).is_some()
    }

    /// Rejects, before anything else is read, any key not in `allowed`, so that a typo is
    /// reported as itself (with the closest known key) rather than by a later error.
    pub fn allow(&self, allowed: &[&str]) -> Result<(), ScenarioError> {
        for (key, _) in self.table.iter() {
            if !allowed.contains(&key) {
                let hint = match closest(key, allowed) {
                    Some(k) => format!("; did you mean '{k}'? Expected"),
                    None => "; expected".to_string(),
                };
                return Err(self.error(key, format!("unknown key {}{hint} one of {}", quote_key(key), quote_list(allowed))));
            }
        }
        Ok(())
    }

    /// Whether `key` holds a table (`[a.b]` or `b = { ... }`), without accepting it.
    pub fn is_table(&self, key: &str) -> bool {
        matches!(self.get(key), Some(Item::Table(_)) | Some(Item::Value(Value::InlineTable(_))))
    }

    /// A list of [start, end] pairs of strings (time windows), parsed by `parse`.
    pub fn pairs<T>(&self, key: &str, parse: impl Fn(&str) -> Result<T, UnitError>, expected: &str) -> Result<Option<Vec<(T, T)>>, ScenarioError> {
        let shape = || self.error(key, format!("expected a list of [start, end] pairs of {expected}, such as [[\"10s\", \"11s\"]]"));
        let Some(list) = self.value(key, "a list")? else { return Ok(None) };
        let Value::Array(items) = list else { return Err(shape()) };
        let mut out = Vec::new();
        for item in items.iter() {
            let Value::Array(pair) = item else { return Err(shape()) };
            let ends: Vec<&str> = pair.iter().filter_map(|v| v.as_str()).collect();
            if pair.len() != 2 || ends.len() != 2 {
                return Err(shape());
            }
            let a = parse(ends[0]).map_err(|why| self.error(key, why.message(ends[0])))?;
            let b = parse(ends[1]).map_err(|why| self.error(key, why.message(ends[1])))?;
            out.push((a, b));
        }
        Ok(Some(out))
    }

    /// Whether `key` is present, without accepting it (for "applies to X only" checks).
    pub fn present(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn item(&self, key: &str) -> Option<&'a Item> {
        self.asked.borrow_mut().push(key.to_string());
        self.get(key)
    }

    fn value(&self, key: &str, expected: &str) -> Result<Option<&'a Value>, ScenarioError> {
        match self.item(key) {
            None => Ok(None),
            Some(Item::Value(v)) => Ok(Some(v)),
            Some(_) => Err(self.error(key, format!("expected {expected}, got a table"))),
        }
    }

    fn located<T>(&self, key: &str, value: T) -> Located<T> {
        Located { value, line: self.key_line(key), key: self.key_path(key) }
    }

    pub fn required<T>(&self, key: &str, value: Option<T>, expected: &str) -> Result<T, ScenarioError> {
        value.ok_or_else(|| self.table_error(format!("missing key '{key}': expected {expected}")))
    }

    pub fn string(&self, key: &str) -> Result<Option<Located<String>>, ScenarioError> {
        match self.value(key, "a string")? {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(self.located(key, s.value().clone()))),
            Some(other) => Err(self.error(key, format!("expected a string, got {}", describe(other)))),
        }
    }

    /// A string that must carry a unit, parsed by `parse`.
    pub fn quantity<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Result<T, UnitError>,
        expected: &str,
    ) -> Result<Option<T>, ScenarioError> {
        match self.value(key, expected)? {
            None => Ok(None),
            Some(Value::String(s)) => parse(s.value()).map(Some).map_err(|why| self.error(key, why.message(s.value()))),
            Some(other) => Err(self.error(key, format!("expected {expected} (as a quoted string), got {}", describe(other)))),
        }
    }

    pub fn integer(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, ScenarioError> {
        match self.value(key, "an integer")? {
            None => Ok(None),
            Some(Value::Float(f)) if f.value().fract() == 0.0 && f.value().abs() < 9.0e15 => {
                let v = *f.value() as i64;
                if v < min || v > max {
                    Err(self.error(key, format!("expected an integer from {min} to {max}, got {v}")))
                } else {
                    Ok(Some(v))
                }
            }
            Some(Value::Integer(i)) => {
                let v = *i.value();
                if v < min || v > max {
                    Err(self.error(key, format!("expected an integer from {min} to {max}, got {v}")))
                } else {
                    Ok(Some(v))
                }
            }
            Some(other) => Err(self.error(key, format!("expected an integer, got {}", describe(other)))),
        }
    }

    /// A number (integer or float) in [min, max].
    pub fn number(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>, ScenarioError> {
        let v = match self.value(key, "a number")? {
            None => return Ok(None),
            Some(Value::Integer(i)) => *i.value() as f64,
            Some(Value::Float(f)) => *f.value(),
            Some(other) => return Err(self.error(key, format!("expected a number, got {}", describe(other)))),
        };
        if !(v >= min && v <= max) {
            return Err(self.error(key, format!("expected a number from {min} to {max}, got {v}")));
        }
        Ok(Some(v))
    }

    /// A number from `min` to `max`, or one of `words` (RED's `min_th = "auto"`):
    /// `Ok(Some(Err(word)))` for a word.
    pub fn number_or_word(&self, key: &str, min: f64, max: f64, words: &'static [&'static str]) -> Result<Option<Result<f64, &'static str>>, ScenarioError> {
        let expected = || format!("a number from {min} to {max} or one of {}", quote_list(words));
        match self.value(key, &expected())? {
            None => Ok(None),
            Some(Value::Integer(_) | Value::Float(_)) => self.number(key, min, max).map(|n| n.map(Ok)),
            Some(Value::String(s)) => match words.iter().find(|w| **w == s.value().as_str()) {
                Some(w) => Ok(Some(Err(*w))),
                None => Err(self.error(key, format!("expected {}, got {}", expected(), quote(s.value())))),
            },
            Some(other) => Err(self.error(key, format!("expected {}, got {}", expected(), describe(other)))),
        }
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>, ScenarioError> {
        match self.value(key, "true or false")? {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b.value())),
            Some(other) => Err(self.error(key, format!("expected true or false, got {}", describe(other)))),
        }
    }

    /// One of `choices`.
    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<Option<Located<String>>, ScenarioError> {
        let Some(s) = self.string(key)? else { return Ok(None) };
        if !choices.contains(&s.value.as_str()) {
            return Err(self.error(key, format!("expected one of {}, got {}", quote_list(choices), quote(&s.value))));
        }
        Ok(Some(s))
    }

    /// A list of strings.
    pub fn string_list(&self, key: &str) -> Result<Option<Vec<String>>, ScenarioError> {
        match self.value(key, "a list of strings")? {
            None => Ok(None),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.value().clone()),
                    other => Err(self.error(key, format!("expected a list of strings, found {}", describe(other)))),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(self.error(key, format!("expected a list of strings, got {}", describe(other)))),
        }
    }

    /// A sub-table (`[a.b]` or `b = { ... }`).
    pub fn table(&self, key: &str) -> Result<Option<Section<'a>>, ScenarioError> {
        let path = self.key_path(key);
        let line = self.key_line(key);
        match self.item(key) {
            None => Ok(None),
            Some(Item::Table(t)) => Ok(Some(Section::new(self.src, t, path, line))),
            Some(Item::Value(Value::InlineTable(t))) => Ok(Some(Section::new(self.src, t, path, line))),
            Some(_) => Err(self.error(key, "expected a table, such as { rate = \"10Mbps\", ... }")),
        }
    }

    /// An array of tables (`[[flow]]` or `flow = [{...}, {...}]`).
    pub fn tables(&self, key: &str) -> Result<Vec<Section<'a>>, ScenarioError> {
        let line = self.key_line(key);
        let path = self.key_path(key);
        match self.item(key) {
            None => Ok(Vec::new()),
            Some(Item::ArrayOfTables(a)) => Ok(a
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let l = self.src.line_of(t.span()).or(line);
                    Section::new(self.src, t, format!("{path}[{i}]"), l)
                })
                .collect()),
            Some(Item::Value(Value::Array(a))) => a
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::InlineTable(t) => Ok(Section::new(self.src, t, format!("{path}[{i}]"), line)),
                    _ => Err(self.error(key, format!("expected a list of tables ([[{key}]]), found {}", describe(v)))),
                })
                .collect(),
            Some(_) => Err(self.error(key, format!("expected [[{key}]] tables"))),
        }
    }

    /// Rejects any key of this table that was never asked for.
    pub fn finish(&self) -> Result<(), ScenarioError> {
        let asked = self.asked.borrow();
        for (key, _) in self.table.iter() {
            if !asked.iter().any(|a| a == key) {
                let mut known: Vec<&str> = asked.iter().map(|s| s.as_str()).collect();
                known.sort_unstable();
                known.dedup();
                return Err(self.error(key, format!("unknown key {}; expected one of {}", quote_key(key), quote_list(&known))));
            }
        }
        Ok(())
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string {}", quote(s.value())),
        Value::Integer(i) => format!("the integer {}", i.value()),
        Value::Float(f) => format!("the number {}", f.value()),
        Value::Boolean(b) => format!("{}", b.value()),
        Value::Datetime(_) => "a date".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::InlineTable(_) => "a table".to_string(),
    }
}

