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

/// The hash of a [`short_key`]: one multiplication by a large odd constant (the
/// table reads the top bits, which it mixes from every byte of the key).
#[derive(Default)]
struct MultiplyHash(u64);

impl Hasher for MultiplyHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The column names of a trace line, in file order (`TRACE_COLUMNS` in Python).
pub const COLUMNS: [&str; 12] = ["op", "time", "from", "to", "type", "size", "flags", "fid", "src", "dst", "seq", "uid"];

/// A text column of few distinct values: `codes[row]` indexes `values`, which are in
/// order of first appearance.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Words {
    pub codes: Vec<i32>,
    pub values: Vec<String>,
    /// The code of each short word (at most 7 bytes: every op, type, flags and the
    /// `node.port` of fewer than a million nodes), under its [`short_key`].
    short: HashMap<u64, i32, BuildHasherDefault<MultiplyHash>>,
    /// The code of each longer word.
    long: HashMap<Box<[u8]>, i32, BuildHasherDefault<Fnv1a>>,
    /// The short key and code of the row before's word, when short.
    last: Option<(u64, i32)>,
}

/// A word of at most 7 bytes as one integer: its bytes, and its length in the top byte
/// (so that no two words share one).
#[inline(always)]
fn short_key(word: &[u8]) -> Option<u64> {
    if word.len() > 7 {
        return None;
    }
    let mut key = (word.len() as u64) << 56;
    for (i, &b) in word.iter().enumerate() {
        key |= u64::from(b) << (8 * i);
    }
    Some(key)
}

impl Words {
    #[inline(always)]
    fn push(&mut self, word: &[u8]) -> Result<(), Unread> {
        let Some(key) = short_key(word) else {
            return self.push_long(word);
        };
        // The row before's word first: consecutive lines are mostly of one packet or flow
        // (its `+` then `-`, or `r` then `+` on the next link).
        let code = match self.last {
            Some((last, code)) if last == key => code,
            _ => match self.short.get(&key) {
                Some(&code) => code,
                None => {
                    let code = self.new_value(word)?;
                    self.short.insert(key, code);
                    code
                }
            },
        };
        self.last = Some((key, code));
        self.codes.push(code);
        Ok(())
    }

    #[cold]
    fn push_long(&mut self, word: &[u8]) -> Result<(), Unread> {
        let code = match self.long.get(word) {
            Some(&code) => code,
            None => {
                let code = self.new_value(word)?;
                self.long.insert(word.into(), code);
                code
            }
        };
        self.last = None;
        self.codes.push(code);
        Ok(())
    }

    /// Adds `word` to the values; returns its code.
    fn new_value(&mut self, word: &[u8]) -> Result<i32, Unread> {
        let text = std::str::from_utf8(word).map_err(|_| Unread::new(self.codes.len(), "a word that is not UTF-8"))?;
        self.values.push(text.to_string());
        Ok(self.values.len() as i32 - 1)
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
    let mut words: [Words; 5] = std::array::from_fn(|_| Words { codes: Vec::with_capacity(rows), ..Words::default() });
    let mut integers: [Vec<i64>; 6] = std::array::from_fn(|_| Vec::with_capacity(rows));
    let mut times: Vec<f64> = Vec::with_capacity(rows);
    // The time of the line before, as text and value: the lines of one event share it.
    let mut last_time: (&[u8], f64) = (b"", 0.0);
    let mut fields = Fields { text, at: 0 };
    let mut row = 0;
    while fields.at < text.len() {
        // Straight through the twelve columns (COLUMNS), each into its own vector.
        let [op, kind, flags, src, dst] = &mut words;
        let [from, to, size, fid, seq, uid] = &mut integers;
        op.push(fields.next(row, false)?)?;
        let t = fields.next(row, false)?;
        if t != last_time.0 {
            last_time = (t, time(t).ok_or_else(|| Unread::new(row, "a time that is not a number"))?);
        }
        times.push(last_time.1);
        from.push(fields.integer(row, false)?);
        to.push(fields.integer(row, false)?);
        kind.push(fields.next(row, false)?)?;
        size.push(fields.integer(row, false)?);
        flags.push(fields.next(row, false)?)?;
        fid.push(fields.integer(row, false)?);
        src.push(fields.next(row, false)?)?;
        dst.push(fields.next(row, false)?)?;
        seq.push(fields.integer(row, false)?);
        uid.push(fields.integer(row, true)?);
        row += 1;
    }
    let [op, kind, flags, src, dst] = words.map(TraceColumn::Words);
    let [from, to, size, fid, seq, uid] = integers.map(TraceColumn::Integers);
    Ok(vec![op, TraceColumn::Times(times), from, to, kind, size, flags, fid, src, dst, seq, uid])
}

/// The columns of a text being read: the next one starts at `at`.
struct Fields<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    /// The next column of line `row` (its `last` column or not), and past its separator:
    /// a space between columns, the newline (or the end of the text) after the last.
    #[inline(always)]
    fn next(&mut self, row: usize, last: bool) -> Result<&'a [u8], Unread> {
        let start = self.at;
        self.at = separator(self.text, start);
        let field = &self.text[start..self.at];
        if field.is_empty() {
            return Err(Unread::new(row, "an empty column (two spaces, or a line that is empty)"));
        }
        match (self.text.get(self.at), last) {
            (Some(b' '), false) | (Some(b'\n'), true) => self.at += 1,
            (None, true) => {}
            (_, true) => return Err(Unread::new(row, "more than 12 columns")),
            (_, false) => return Err(Unread::new(row, "fewer than 12 columns")),
        }
        Ok(field)
    }

    #[inline(always)]
    fn integer(&mut self, row: usize, last: bool) -> Result<i64, Unread> {
        let field = self.next(row, last)?;
        integer(field).ok_or_else(|| Unread::new(row, "a column that is not an integer"))
    }
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
#[inline(always)]
fn integer(field: &[u8]) -> Option<i64> {
    let (negative, digits) = match field {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, field),
    };
    if digits.is_empty() {
        return None;
    }
    if digits.len() > 18 {
        return long_integer(negative, digits);
    }
    // Eighteen digits cannot overflow.
    let mut n: i64 = 0;
    for &d in digits {
        let digit = d.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n * 10 + i64::from(digit);
    }
    Some(if negative { -n } else { n })
}

/// [`integer`] of nineteen digits or more, checked: only some fit.
#[cold]
fn long_integer(negative: bool, digits: &[u8]) -> Option<i64> {
    if digits.len() > 19 {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        // Accumulated negated, so i64::MIN fits.
        n = n.checked_mul(10)?.checked_sub(i64::from(d - b'0'))?;
    }
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
    fn words_long_and_short_keep_their_first_appearance_order() {
        let mut w = Words::default();
        for word in ["+", "a.b", "12345678", "+", "", "a.b", "12345678", "1234567", "a\0", "a"] {
            w.push(word.as_bytes()).unwrap();
        }
        assert_eq!(w.values, ["+", "a.b", "12345678", "", "1234567", "a\0", "a"]);
        assert_eq!(w.codes, [0, 1, 2, 0, 3, 1, 2, 4, 5, 6]);
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
