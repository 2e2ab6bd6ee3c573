//! Columnar result tables returned by a run.
//!
//! Every table is a list of named, equally long columns. The Python front end turns each
//! into a pandas DataFrame and writes Parquet; the `tcpsim-run` binary writes CSV and a
//! JSON summary. Keeping the tables columnar means no per-row allocation at the end of a
//! large run and a zero-surprise mapping to Arrow.

use std::fmt::Write as _;

/// One column of a [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    F64(Vec<f64>),
    I64(Vec<i64>),
    Str(Vec<String>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::F64(v) => v.len(),
            Column::I64(v) => v.len(),
            Column::Str(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn cell(&self, row: usize) -> String {
        match self {
            Column::F64(v) => format_f64(v[row]),
            Column::I64(v) => v[row].to_string(),
            Column::Str(v) => csv_quote(&v[row]),
        }
    }
}

/// A named set of equally long columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, Column)>,
}

impl Table {
    pub fn new() -> Self {
        Table::default()
    }

    /// Appends a column; all columns of a table must have the same length.
    pub fn push(&mut self, name: &str, column: Column) {
        debug_assert!(self.columns.is_empty() || self.columns[0].1.len() == column.len());
        self.columns.push((name.to_string(), column));
    }

    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |(_, c)| c.len())
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
    }

    /// The table as CSV text with a header line.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| n.as_str()).collect();
        out.push_str(&names.join(","));
        out.push('\n');
        for row in 0..self.rows() {
            for (i, (_, col)) in self.columns.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}", col.cell(row));
            }
            out.push('\n');
        }
        out
    }
}

fn format_f64(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

fn csv_quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Everything a run produces.
#[derive(Debug, Clone, Default)]
pub struct RunResults {
    /// One row per flow: counters, goodput, RTT statistics.
    pub flows: Table,
    /// One row per queue (one per link direction): arrivals, drops by reason, marks, lengths.
    pub queues: Table,
    /// One row per link direction: bytes sent, utilization.
    pub links: Table,
    /// Long format: time_s, entity, metric, value.
    pub timeseries: Table,
    /// Scenario echo (seed, duration, file) and run facts (events, wall time).
    pub summary: serde_json::Value,
}
