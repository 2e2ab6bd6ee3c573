//! Columnar result tables returned by a run.
//!
//! Every table is a list of named, equally long columns. The Python front end turns each
//! into a pandas DataFrame and writes Parquet; the `tcpsim-run` binary writes CSV and a
//! JSON summary. Keeping the tables columnar means no per-row allocation at the end of a
//! large run and a zero-surprise mapping to Arrow.

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

    /// Writes one cell as CSV text (unquoted: the CSV writer quotes what needs it),
    /// formatting numbers in `text`, a buffer reused from cell to cell (a large run's
    /// tables have millions of cells).
    fn write_cell<W: std::io::Write>(&self, row: usize, text: &mut String, w: &mut csv::Writer<W>) -> csv::Result<()> {
        use std::fmt::Write;
        text.clear();
        match self {
            Column::F64(v) if v[row].is_finite() => write!(text, "{}", v[row]).expect("formatting into a String"),
            Column::F64(_) => {}
            Column::I64(v) => write!(text, "{}", v[row]).expect("formatting into a String"),
            Column::Str(v) => return w.write_field(&v[row]),
        }
        w.write_field(text.as_bytes())
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

    /// Writes the table as CSV (RFC 4180 quoting by the `csv` crate, `\n` line ends) with
    /// a header line. Non-finite numbers are empty cells.
    pub fn write_csv<W: std::io::Write>(&self, out: W) -> csv::Result<()> {
        self.write_csv_part(out, true)
    }

    /// Writes the table's rows as CSV, after a header line if `header`: a table written in
    /// parts (a range of rows each, the first with the header) gives the same text as the
    /// whole table written at once.
    pub fn write_csv_part<W: std::io::Write>(&self, out: W, header: bool) -> csv::Result<()> {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
        if header {
            w.write_record(self.columns.iter().map(|(n, _)| n.as_str()))?;
        }
        let mut text = String::new();
        for row in 0..self.rows() {
            for (_, column) in &self.columns {
                column.write_cell(row, &mut text, &mut w)?;
            }
            w.write_record(None::<&[u8]>)?;
        }
        w.flush()?;
        Ok(())
    }

    /// The table as CSV text with a header line (see [`Table::write_csv`]).
    pub fn to_csv(&self) -> String {
        let mut out = Vec::new();
        self.write_csv(&mut out).expect("writing to memory");
        String::from_utf8(out).expect("the cells are UTF-8")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_quoting_and_reads_back() {
        let names = ["plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", " spaced ", ""];
        let mut t = Table::new();
        t.push("name", Column::Str(names.iter().map(|s| s.to_string()).collect()));
        t.push("x", Column::F64(vec![1.5, f64::NAN, 0.1, -2.0, 1e300, f64::INFINITY, 0.0]));
        t.push("n", Column::I64(vec![1, 2, 3, 4, 5, 6, 7]));
        let text = t.to_csv();
        assert!(text.starts_with("name,x,n\nplain,1.5,1\n\"a,b\",,2\n"), "{text}");
        let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().collect::<Result<_, _>>().unwrap();
        assert_eq!(rows.len(), names.len());
        for (row, name) in rows.iter().zip(names) {
            assert_eq!(&row[0], name);
        }
        assert_eq!(&rows[1][1], "", "NaN is an empty cell");
    }

    #[test]
    fn a_table_written_in_parts_gives_the_text_of_the_whole() {
        let table = |rows: std::ops::Range<i64>| {
            let mut t = Table::new();
            t.push("name", Column::Str(rows.clone().map(|i| format!("f{i}")).collect()));
            t.push("x", Column::F64(rows.clone().map(|i| i as f64 / 3.0).collect()));
            t.push("n", Column::I64(rows.collect()));
            t
        };
        let mut parts = Vec::new();
        for (i, rows) in [0..2, 2..2, 2..5].into_iter().enumerate() {
            table(rows).write_csv_part(&mut parts, i == 0).unwrap();
        }
        assert_eq!(String::from_utf8(parts).unwrap(), table(0..5).to_csv());
        let mut empty = Vec::new();
        table(0..0).write_csv_part(&mut empty, true).unwrap();
        assert_eq!(String::from_utf8(empty).unwrap(), "name,x,n\n", "an empty table keeps its header");
    }
}
