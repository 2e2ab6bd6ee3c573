//! Reading ns-2 trace lines back into columns, for the Python reader
//! (`tcpsim.reproduce.measures.read_trace`).
//!
//! Only the lines [`super::ns2`] writes for packets are taken: twelve columns separated
//! by single spaces, each line ending in a newline (the last one may not). Anything else
//! (a `v` line, an empty line, a carriage return, a number that does not parse) is
//! refused with [`Unread`], and the caller reads the file with its general CSV reader,
//! which reports the problem itself. What is taken comes back as the general reader
//! gives it (pyarrow's, with the column types of `read_trace`): the numbers as i64, the
//! time as the f64 nearest its decimal text (both readers round correctly), and the
//! words (`op`, `type`, `flags`, `src`, `dst`) as codes into their distinct values in
//! order of first appearance.
//!
//! Why: pyarrow's CSV reader took about 0.5-1 s of CPU for B1's 10-second trace (1.9
//! million lines, 102 MB), several times what writing the lines costs; this reads it in
//! one pass without a tokenizer's generality (docs/performance.md, "Traces on B1, third
//! step").

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: the words are a few bytes long, where std's SipHash costs more than the rest
/// of a row; nothing here is an adversary's input to flood the table with.
#[derive(Default)]
struct Fnv1a(u64);

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The column names of a trace line, in file order (`TRACE_COLUMNS` in Python).
pub const COLUMNS: [&str; 12] = ["op", "time", "from", "to", "type", "size", "flags", "fid", "src", "dst", "seq", "uid"];

/// Which of [`COLUMNS`] are words (read as codes into their distinct values).
const IS_WORD: [bool; 12] = [true, false, false, false, true, false, true, false, true, true, false, false];

/// The time column's index in [`COLUMNS`].
const TIME: usize = 1;

/// A text column of few distinct values: `codes[row]` indexes `values`, which are in
/// order of first appearance.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Words {
    pub codes: Vec<i32>,
    pub values: Vec<String>,
    index: HashMap<Box<[u8]>, i32, BuildHasherDefault<Fnv1a>>,
}

impl Words {
    fn push(&mut self, word: &[u8]) -> Result<(), Unread> {
        // The row before's word first: consecutive lines are mostly of one packet or flow
        // (its `+` then `-`, or `r` then `+` on the next link).
        if let Some(&last) = self.codes.last() {
            if self.values[last as usize].as_bytes() == word {
                self.codes.push(last);
                return Ok(());
            }
        }
        let code = match self.index.get(word) {
            Some(&code) => code,
            None => {
                let text = std::str::from_utf8(word).map_err(|_| Unread::new(self.codes.len(), "a word that is not UTF-8"))?;
                let code = self.values.len() as i32;
                self.values.push(text.to_string());
                self.index.insert(word.into(), code);
                code
            }
        };
        self.codes.push(code);
        Ok(())
    }
}

/// One column of a trace read back.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceColumn {
    Words(Words),
    Integers(Vec<i64>),
    Times(Vec<f64>),
}

/// Why a text was not read: the 0-based line and what was found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub line: usize,
    pub problem: &'static str,
}

impl Unread {
    fn new(line: usize, problem: &'static str) -> Self {
        Unread { line, problem }
    }
}

/// The twelve columns of the packet lines of `text`, in [`COLUMNS`] order, or where it
/// holds something else (see the module documentation). An empty text is refused too
/// (pyarrow reports an empty file).
pub fn read_ns2_trace(text: &[u8]) -> Result<Vec<TraceColumn>, Unread> {
    if text.is_empty() {
        return Err(Unread::new(0, "an empty file"));
    }
    // About 54 bytes a line in B1's trace: room for the columns once, not grown.
    let rows = text.len() / 48 + 1;
    let mut columns: Vec<TraceColumn> = (0..COLUMNS.len())
        .map(|i| match (IS_WORD[i], i == TIME) {
            (true, _) => TraceColumn::Words(Words { codes: Vec::with_capacity(rows), ..Words::default() }),
            (false, true) => TraceColumn::Times(Vec::with_capacity(rows)),
            (false, false) => TraceColumn::Integers(Vec::with_capacity(rows)),
        })
        .collect();
    // The time of the line before, as text and value: the lines of one event share it.
    let mut last_time: (&[u8], f64) = (b"", 0.0);
    let mut at = 0;
    let mut row = 0;
    while at < text.len() {
        for (i, column) in columns.iter_mut().enumerate() {
            let start = at;
            at = separator(text, at);
            let field = &text[start..at];
            if field.is_empty() {
                return Err(Unread::new(row, "an empty column (two spaces, or a line that is empty)"));
            }
            // The separator after the field: a space between columns, the newline (or the
            // end of the text) after the last.
            let last = i == COLUMNS.len() - 1;
            match text.get(at) {
                Some(b' ') if !last => at += 1,
                Some(b'\n') if last => at += 1,
                None if last => {}
                _ if last => return Err(Unread::new(row, "more than 12 columns")),
                _ => return Err(Unread::new(row, "fewer than 12 columns")),
            }
            match column {
                TraceColumn::Words(words) => words.push(field)?,
                TraceColumn::Integers(values) => values.push(integer(field).ok_or(Unread::new(row, "a column that is not an integer"))?),
                TraceColumn::Times(values) => {
                    if field != last_time.0 {
                        last_time = (field, time(field).ok_or(Unread::new(row, "a time that is not a number"))?);
                    }
                    values.push(last_time.1);
                }
            }
        }
        row += 1;
    }
    Ok(columns)
}

/// The index of the first space or newline in `text` from `at` on (`text.len()` if
/// none). Eight bytes at a time (a field is 1 to 20 bytes, mostly under 8): the bytes
/// equal to a separator are found as the zero bytes of the word XOR the separator
/// repeated (the classic has-zero-byte test, exact for the lowest such byte).
fn separator(text: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = text.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let zero_bytes = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        let found = zero_bytes(word ^ (ONES * u64::from(b' '))) | zero_bytes(word ^ (ONES * u64::from(b'\n')));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + text[at..].iter().position(|&b| b == b' ' || b == b'\n').unwrap_or(text.len() - at)
}

/// `-?[0-9]+` within i64, else `None`.
fn integer(field: &[u8]) -> Option<i64> {
    let (negative, digits) = match field {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, field),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_sub(i64::from(d - b'0'))?;
    }
    // Accumulated negated, so i64::MIN fits.
    if negative {
        Some(n)
    } else {
        n.checked_neg()
    }
}

/// A time as the writer prints it (`0.1`, `12`, `1.2e-05`): digits, a point and an
/// exponent only, read to the nearest f64 (as pyarrow's reader does); else `None`.
fn time(field: &[u8]) -> Option<f64> {
    if !field.iter().all(|&b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'-' | b'+')) || !field[0].is_ascii_digit() {
        return None;
    }
    std::str::from_utf8(field).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(column: &TraceColumn) -> Vec<&str> {
        match column {
            TraceColumn::Words(w) => w.codes.iter().map(|&c| w.values[c as usize].as_str()).collect(),
            _ => panic!("not words"),
        }
    }

    #[test]
    fn reads_the_columns_of_packet_lines() {
        let text = b"+ 0.1 0 2 tcp 1040 ------N 1 0.0 3.0 5 23\nr 1.2e-05 2 3 ack 40 ------- 1 3.0 0.0 -1 9223372036854775807\n- 12 0 2 tcp 1040 ------N 1 0.0 3.0 6 24";
        let columns = read_ns2_trace(text).unwrap();
        assert_eq!(words(&columns[0]), ["+", "r", "-"]);
        assert_eq!(columns[1], TraceColumn::Times(vec![0.1, 1.2e-05, 12.0]));
        assert_eq!(columns[10], TraceColumn::Integers(vec![5, -1, 6]));
        assert_eq!(columns[11], TraceColumn::Integers(vec![23, i64::MAX, 24]));
        assert_eq!(words(&columns[8]), ["0.0", "3.0", "0.0"]);
        match &columns[8] {
            TraceColumn::Words(w) => assert_eq!(w.values, ["0.0", "3.0"]), // first appearance
            _ => unreachable!(),
        }
    }

    #[test]
    fn separators_are_found_wherever_they_are() {
        for len in 0..20 {
            for sep in [b' ', b'\n'] {
                for pos in 0..len {
                    let mut text = vec![b'x'; len];
                    text[pos] = sep;
                    for from in 0..=pos {
                        assert_eq!(separator(&text, from), pos);
                    }
                }
                assert_eq!(separator(&vec![b'x'; len], 0), len);
            }
        }
        // Bytes just around a separator's value (0x1f, 0x21, 0x09, 0x0b, 0xa0) are not one.
        assert_eq!(separator(&[0x1f, 0x21, 0x09, 0x0b, 0xa0, 0x8a, 0xff, 0x00, b' '], 0), 8);
    }

    #[test]
    fn integers_are_what_display_writes_and_nothing_else() {
        for n in [0, 1, -1, 42, i64::MIN, i64::MAX] {
            assert_eq!(integer(n.to_string().as_bytes()), Some(n));
        }
        for bad in ["", "-", "+1", "1.0", "9223372036854775808", "-9223372036854775809", "1a", "00000000000000000001"] {
            assert_eq!(integer(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn anything_but_packet_lines_is_left_to_the_general_reader() {
        let line = "+ 0.1 0 2 tcp 1040 ------N 1 0.0 3.0 5 23";
        for (text, problem_line) in [
            (String::new(), 0),
            (format!("{line}\nv 4 link-down 0 2\n"), 1),
            (format!("{line}\n\n{line}\n"), 1),
            (format!("{line}\r\n"), 0),
            (format!("{line} 7\n"), 0),
            (format!("{line}\n{}", line.replace("0.1", "x")), 1),
            (line.replace(" 5 ", " 5  "), 0),
        ] {
            assert_eq!(read_ns2_trace(text.as_bytes()).map(|_| ()).unwrap_err().line, problem_line, "{text:?}");
        }
    }
}
