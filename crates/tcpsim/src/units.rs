//! Quantities with units, as written in scenario files: `"1.5Mbps"`, `"40ms"`, `"1000B"`,
//! `"250p"`. One grammar for every kind, case-sensitive, with the table of units below
//! (also printed in `docs/scenario.md#units`):
//!
//! ```text
//! quantity := number [" "] unit                  (nothing before or after)
//! number   := digits ["." [digits]] [exponent]  |  "." digits [exponent]
//! exponent := ("e" | "E") ["+" | "-"] digits
//! ```
//!
//! | kind | units (scale) | prefixes |
//! |---|---|---|
//! | time | `ps`, `ns`, `us` = `µs`, `ms`, `s` = `sec`, `min` | — |
//! | rate | bits per second `bps` = `b/s` = `bit/s` = `b`; bytes per second `Bps` = `B/s` (× 8) | `k` = `K`, `M`, `G`, `T` (10³ⁿ) |
//! | size | bytes `B` (`bytes` without a prefix) | `k` = `K`, `M`, `G`, `T` (10³ⁿ); `Ki`, `Mi`, `Gi`, `Ti` (2¹⁰ⁿ) |
//! | limit | packets `p` = `pkt` = `pkts` = `packets`, no prefix; or a size | |
//!
//! Choices, and why:
//! - `b` is a bit and `B` a byte, always. A rate in bytes needs `Bps` or `B/s`; a bare
//!   `"10MB"` is refused as a rate (it reads as a size, and ns-2 scripts write `"10Mb"`).
//! - `M` is mega and `m` milli: `"10mbps"` is refused, not read as 10 Mbit/s. `K` is
//!   accepted for kilo beside SI's `k` because ns-2 users write `"448Kb"`.
//! - Binary prefixes only for sizes (and byte limits): rates are decimal by convention
//!   (1 Mbit/s = 10⁶ bit/s), as in ns-2.
//! - The number is read exactly (decimal mantissa and exponent in integers), so
//!   `"1.1KB"` is 1100 bytes, not a float that misses it; times round to the nearest
//!   picosecond and rates to the nearest bit/s, sizes and packet counts must come out
//!   whole.

use crate::engine::time::{PS_PER_MS, PS_PER_NS, PS_PER_S, PS_PER_US};
use crate::words::quote;
use std::fmt;

/// A limit in packets or bytes (a queue's buffer: `"50p"`, `"64KB"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

/// The kinds of quantity a scenario has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A time, in picoseconds.
    Time,
    /// A rate, in bits per second.
    Rate,
    /// A size, in bytes.
    Size,
    /// A queue limit: packets or bytes.
    Limit,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Time, Kind::Rate, Kind::Size, Kind::Limit];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Time => "time",
            Kind::Rate => "rate",
            Kind::Size => "size",
            Kind::Limit => "limit",
        }
    }

    /// What a value of this kind looks like: every accepted form, with examples.
    pub fn expected(self) -> &'static str {
        match self {
            Kind::Time => TIME_EXPECTED,
            Kind::Rate => RATE_EXPECTED,
            Kind::Size => SIZE_EXPECTED,
            Kind::Limit => LIMIT_EXPECTED,
        }
    }
}

pub const TIME_EXPECTED: &str = "a time with a unit: a number and one of ps, ns, us (or µs), ms, s (or sec), min, such as \"40ms\", \"1.5s\" or \"1.5e-3s\"";
pub const RATE_EXPECTED: &str = "a rate with a unit: a number and bits per second (bps, b/s, bit/s or b) or bytes per second (Bps or B/s), with an optional prefix k (or K), M, G, T, such as \"1.5Mbps\", \"100Mb\", \"10MBps\" or \"1e9bps\"";
pub const SIZE_EXPECTED: &str = "a size with a unit: a number of bytes B (or bytes), with an optional prefix k (or K), M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers of 1024), such as \"1000B\", \"64KB\" or \"1.5MiB\"";
pub const LIMIT_EXPECTED: &str = "a limit in packets or bytes: a whole number of packets p (or pkt, pkts, packets), or a size, such as \"250p\", \"30000B\" or \"64KiB\"";

/// Base units of each kind, with their scale in the kind's internal unit, and whether
/// they take prefixes.
struct Base {
    symbol: &'static str,
    scale: u128,
    prefixed: bool,
}

const fn base(symbol: &'static str, scale: u128, prefixed: bool) -> Base {
    Base { symbol, scale, prefixed }
}

const TIME_UNITS: &[Base] = &[
    base("ps", 1, false),
    base("ns", PS_PER_NS as u128, false),
    base("us", PS_PER_US as u128, false),
    base("µs", PS_PER_US as u128, false),  // U+00B5 MICRO SIGN
    base("μs", PS_PER_US as u128, false),  // U+03BC GREEK SMALL LETTER MU, which looks the same
    base("ms", PS_PER_MS as u128, false),
    base("s", PS_PER_S as u128, false),
    base("sec", PS_PER_S as u128, false),
    base("min", 60 * PS_PER_S as u128, false),
];

const RATE_UNITS: &[Base] = &[
    base("bps", 1, true),
    base("b/s", 1, true),
    base("bit/s", 1, true),
    base("b", 1, true),
    base("Bps", 8, true),
    base("B/s", 8, true),
];

const SIZE_UNITS: &[Base] = &[base("B", 1, true), base("bytes", 1, false)];

const PACKET_UNITS: &[&str] = &["p", "pkt", "pkts", "packets"];

const DECIMAL_PREFIXES: &[(&str, u128)] =
    &[("", 1), ("k", 1_000), ("K", 1_000), ("M", 1_000_000), ("G", 1_000_000_000), ("T", 1_000_000_000_000)];

const BINARY_PREFIXES: &[(&str, u128)] = &[("Ki", 1 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30), ("Ti", 1 << 40)];

/// The largest time: below 2^63 ps (about 106 days), so that sums of times stay in u64.
const MAX_TIME_PS: u128 = (1 << 63) - 1;
const TIME_RANGE: &str = "below 2^63 ps (about 106 days)";
/// Rates: 1 bit/s … 1000 Tbit/s.
const MAX_RATE_BPS: u128 = 1_000_000_000_000_000;
/// Sizes: up to 10^15 bytes.
const MAX_SIZE_BYTES: u128 = 1_000_000_000_000_000;
/// Packet limits: up to 10^12 packets.
const MAX_PACKETS: u128 = 1_000_000_000_000;

/// Why a quantity was refused: what was expected, and a hint about what was written.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitError {
    pub expected: String,
    pub hint: Option<String>,
}

impl UnitError {
    fn new(expected: impl Into<String>) -> Self {
        UnitError { expected: expected.into(), hint: None }
    }

    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The full message for the value `got`: "expected ..., got "..." (hint)".
    pub fn message(&self, got: &str) -> String {
        let mut m = format!("expected {}, got {}", self.expected, quote(got));
        if let Some(h) = &self.hint {
            m.push_str(&format!(" ({h})"));
        }
        m
    }
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)?;
        if let Some(h) = &self.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// A decimal number read exactly: `mantissa · 10^exp10`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Decimal {
    mantissa: u128,
    exp10: i64,
}

/// Significant digits kept exactly; more is refused (no quantity needs them).
const MAX_DIGITS: usize = 30;

/// Reads the number at the start of `text`; returns it and the rest (the unit), or
/// `None` when `text` does not start with a number of the grammar.
fn split_number(text: &str) -> Option<(Decimal, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut mantissa: u128 = 0;
    let mut digits = 0; // significant digits (leading zeros excluded)
    let mut exp10: i64 = 0;
    let mut any_digit = false;
    let mut add_digit = |d: u8, fraction: bool, mantissa: &mut u128, exp10: &mut i64| -> bool {
        if *mantissa == 0 && d == b'0' {
            if fraction {
                *exp10 -= 1;
            }
            return true;
        }
        digits += 1;
        if digits > MAX_DIGITS {
            return false;
        }
        *mantissa = *mantissa * 10 + (d - b'0') as u128;
        if fraction {
            *exp10 -= 1;
        }
        true
    };
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        if !add_digit(bytes[i], false, &mut mantissa, &mut exp10) {
            return None;
        }
        any_digit = true;
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            if !add_digit(bytes[i], true, &mut mantissa, &mut exp10) {
                return None;
            }
            i += 1;
        }
        any_digit |= i > start;
    }
    if !any_digit {
        return None;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        let negative = j < bytes.len() && bytes[j] == b'-';
        if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
            j += 1;
        }
        let start = j;
        let mut e: i64 = 0;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            e = (e * 10 + (bytes[j] - b'0') as i64).min(1_000_000);
            j += 1;
        }
        if j > start {
            exp10 += if negative { -e } else { e };
            i = j;
        }
        // "1e" without digits: the 'e' is left to the unit, which then fails.
    }
    Some((Decimal { mantissa, exp10 }, &text[i..]))
}

/// How a value that is not a whole number of the internal unit is treated.
#[derive(Clone, Copy, PartialEq)]
enum Whole {
    /// Round to the nearest (times to picoseconds, rates to bit/s).
    Round,
    /// Refuse (bytes, packets).
    Required,
}

/// `d · scale` as a whole number, or `None` if it is not whole (with `Whole::Required`)
/// or does not fit in u128 (`Err(())` = too large).
fn scaled(d: Decimal, scale: u128, whole: Whole) -> Result<Option<u128>, ()> {
    let product = d.mantissa.checked_mul(scale).ok_or(())?;
    if product == 0 {
        return Ok(Some(0));
    }
    if d.exp10 >= 0 {
        let factor = 10u128.checked_pow(u32::try_from(d.exp10).map_err(|_| ())?).ok_or(())?;
        return product.checked_mul(factor).map(Some).ok_or(());
    }
    let Some(divisor) = u32::try_from(-d.exp10).ok().and_then(|k| 10u128.checked_pow(k)) else {
        // Smaller than one internal unit by far: rounds to 0, and is not whole.
        return Ok(if whole == Whole::Round { Some(0) } else { None });
    };
    let (q, r) = (product / divisor, product % divisor);
    match whole {
        Whole::Round => Ok(Some(q + u128::from(r >= divisor - r))),
        Whole::Required => Ok(if r == 0 { Some(q) } else { None }),
    }
}

/// The scale of `unit` among `units` (with prefixes where the base takes them).
fn unit_scale(unit: &str, units: &[Base], binary: bool) -> Option<u128> {
    for b in units {
        let Some(prefix) = unit.strip_suffix(b.symbol) else { continue };
        if prefix.is_empty() {
            return Some(b.scale);
        }
        if !b.prefixed {
            continue;
        }
        let prefixes = DECIMAL_PREFIXES.iter().chain(if binary { BINARY_PREFIXES } else { &[] });
        if let Some((_, p)) = prefixes.into_iter().find(|(p, _)| *p == prefix) {
            return Some(b.scale * p);
        }
    }
    None
}

/// A hint for a unit that is not one of `kind`'s: the same letters in other case, a unit
/// of another kind, a bare byte count as a rate, and so on.
fn unit_hint(kind: Kind, unit: &str, text: &str) -> Option<String> {
    if unit.is_empty() {
        return Some("the unit is missing".into());
    }
    if unit.trim() != unit || unit.starts_with(' ') {
        return Some("write the unit right after the number, with at most one space".into());
    }
    if kind == Kind::Rate && unit_scale(unit, SIZE_UNITS, true).is_some() {
        let number = &text[..text.len() - unit.len()];
        let prefix = unit.trim_end_matches('B');
        return Some(format!(
            "{unit:?} is a size; write \"{number}{prefix}Bps\" for bytes per second or \"{number}{prefix}bps\" for bits per second"
        ));
    }
    if kind != Kind::Rate && unit_scale(unit, RATE_UNITS, false).is_some() {
        return Some(format!("{unit:?} is a rate or a number of bits; sizes are in bytes (B)"));
    }
    for other in Kind::ALL.into_iter().filter(|&k| k != kind) {
        if !(kind == Kind::Limit && other == Kind::Size) && parse_with(other, text, false).is_ok() {
            return Some(format!("{unit:?} is a unit of {}", other.name()));
        }
    }
    // Units are case-sensitive: find one that differs only in case.
    let lower = unit.to_lowercase();
    let candidates = accepted_units(kind);
    if let Some(c) = candidates.iter().find(|c| c.to_lowercase() == lower) {
        let why = if unit.starts_with('m') && c.starts_with('M') { " ('m' is milli, 'M' mega)" } else { "" };
        return Some(format!("units are case-sensitive: did you mean \"{c}\"?{why}"));
    }
    None
}

/// Every unit symbol `kind` accepts, prefixes included (for hints and docs).
pub fn accepted_units(kind: Kind) -> Vec<String> {
    let expand = |units: &[Base], binary: bool| -> Vec<String> {
        let mut out = Vec::new();
        for b in units {
            out.push(b.symbol.to_string());
            if b.prefixed {
                let prefixes = DECIMAL_PREFIXES[1..].iter().chain(if binary { BINARY_PREFIXES } else { &[] });
                out.extend(prefixes.map(|(p, _)| format!("{p}{}", b.symbol)));
            }
        }
        out
    };
    match kind {
        Kind::Time => expand(TIME_UNITS, false),
        Kind::Rate => expand(RATE_UNITS, false),
        Kind::Size => expand(SIZE_UNITS, true),
        Kind::Limit => PACKET_UNITS.iter().map(|s| s.to_string()).chain(expand(SIZE_UNITS, true)).collect(),
    }
}

/// A parsed quantity in its kind's internal unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Quantity {
    /// Picoseconds.
    Time(u64),
    /// Bits per second.
    Rate(u64),
    /// Bytes.
    Size(u64),
    Limit(Limit),
}

/// Parses `text` as a quantity of `kind`; the one entry point of the grammar.
pub fn parse(kind: Kind, text: &str) -> Result<Quantity, UnitError> {
    parse_with(kind, text, true)
}

/// `parse`, with hints about a wrong unit when `hints` (hints themselves try the other
/// kinds without hints).
fn parse_with(kind: Kind, text: &str, hints: bool) -> Result<Quantity, UnitError> {
    let syntax = || UnitError::new(kind.expected());
    if let Some(rest) = text.strip_prefix('-') {
        return Err(match parse_with(kind, rest, hints) {
            Ok(_) if kind == Kind::Rate => UnitError::new("a rate greater than zero"),
            Ok(_) => UnitError::new(format!("{} that is not negative", short(kind))),
            Err(e) => e,
        });
    }
    let Some((number, rest)) = split_number(text) else {
        let hint = if text.trim() != text {
            Some("no spaces before or after the value".to_string())
        } else if text.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            Some(format!("at most {MAX_DIGITS} significant digits"))
        } else {
            None
        };
        return Err(UnitError { hint, ..syntax() });
    };
    let unit = rest.strip_prefix(' ').unwrap_or(rest);
    let with_hint = |e: UnitError| match if hints { unit_hint(kind, unit, text) } else { None } {
        Some(h) => e.hint(h),
        None => e,
    };
    let too_large = |what: &str| UnitError::new(format!("{} {what}", short(kind)));
    match kind {
        Kind::Time => {
            let scale = unit_scale(unit, TIME_UNITS, false).ok_or_else(|| with_hint(syntax()))?;
            let ps = scaled(number, scale, Whole::Round)
                .map_err(|_| too_large(TIME_RANGE))?
                .expect("rounded");
            if ps > MAX_TIME_PS {
                return Err(too_large(TIME_RANGE));
            }
            Ok(Quantity::Time(ps as u64))
        }
        Kind::Rate => {
            let scale = unit_scale(unit, RATE_UNITS, false).ok_or_else(|| with_hint(syntax()))?;
            let range = "between 1 bps and 1000 Tbps";
            let bps = scaled(number, scale, Whole::Round).map_err(|_| too_large(range))?.expect("rounded");
            if number.mantissa == 0 {
                return Err(UnitError::new(format!("{} greater than zero", short(kind))));
            }
            if !(1..=MAX_RATE_BPS).contains(&bps) {
                return Err(too_large(range));
            }
            Ok(Quantity::Rate(bps as u64))
        }
        Kind::Size => {
            let scale = unit_scale(unit, SIZE_UNITS, true).ok_or_else(|| with_hint(syntax()))?;
            let bytes = scaled(number, scale, Whole::Required)
                .map_err(|_| too_large("of at most 10^15 bytes"))?
                .ok_or_else(|| UnitError::new(format!("{}, a whole number of bytes", short(kind))))?;
            if bytes > MAX_SIZE_BYTES {
                return Err(too_large("of at most 10^15 bytes"));
            }
            Ok(Quantity::Size(bytes as u64))
        }
        Kind::Limit => {
            if PACKET_UNITS.contains(&unit) {
                let packets = scaled(number, 1, Whole::Required)
                    .map_err(|_| too_large("of at most 10^12 packets"))?
                    .ok_or_else(|| UnitError::new(format!("{}, a whole number of packets", short(kind))))?;
                if packets > MAX_PACKETS {
                    return Err(too_large("of at most 10^12 packets"));
                }
                return Ok(Quantity::Limit(Limit::Packets(packets as u64)));
            }
            if unit_scale(unit, SIZE_UNITS, true).is_none() {
                return Err(with_hint(syntax()));
            }
            match parse_with(Kind::Size, text, hints) {
                Ok(Quantity::Size(b)) => Ok(Quantity::Limit(Limit::Bytes(b))),
                Ok(_) => unreachable!("a size"),
                Err(e) => Err(e),
            }
        }
    }
}

/// "a time", "a rate", ... for range messages.
fn short(kind: Kind) -> &'static str {
    match kind {
        Kind::Time => "a time",
        Kind::Rate => "a rate",
        Kind::Size => "a size",
        Kind::Limit => "a limit in packets or bytes",
    }
}

/// A non-negative time in picoseconds.
/// A flow's start: a time, or a time drawn uniformly from [low, high) for each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartTime {
    At(u64),
    /// Picoseconds; `low < high`.
    Uniform { low: u64, high: u64 },
}

pub const START_EXPECTED: &str =
    "a time such as \"2s\", or \"uniform(LOW, HIGH)\" with two times LOW < HIGH such as \"uniform(0s, 1s)\" (a start drawn for each run from the seed)";

/// `"2s"` or `"uniform(0s, 1s)"`.
pub fn parse_start(text: &str) -> Result<StartTime, UnitError> {
    let Some(inner) = text.trim().strip_prefix("uniform(") else {
        // A plain time keeps the time grammar's own message.
        return parse_time(text).map(StartTime::At);
    };
    let inner = inner.strip_suffix(')').ok_or_else(|| UnitError::new(START_EXPECTED).hint("missing ')'"))?;
    let bounds: Vec<&str> = inner.split(',').map(str::trim).collect();
    let [low, high] = bounds[..] else {
        return Err(UnitError::new(START_EXPECTED).hint("uniform takes two times"));
    };
    let time = |t: &str| parse_time(t).map_err(|e| UnitError::new(START_EXPECTED).hint(e.message(t)));
    let (low, high) = (time(low)?, time(high)?);
    if low >= high {
        return Err(UnitError::new(START_EXPECTED).hint("LOW must be below HIGH"));
    }
    Ok(StartTime::Uniform { low, high })
}

pub fn parse_time(text: &str) -> Result<u64, UnitError> {
    match parse(Kind::Time, text)? {
        Quantity::Time(ps) => Ok(ps),
        _ => unreachable!("a time"),
    }
}

/// A rate in bits per second (decimal prefixes, as ns-2: 1Mb = 10^6 b/s).
pub fn parse_rate(text: &str) -> Result<u64, UnitError> {
    match parse(Kind::Rate, text)? {
        Quantity::Rate(bps) => Ok(bps),
        _ => unreachable!("a rate"),
    }
}

/// A size in bytes (1KB = 1000 B, 1KiB = 1024 B).
pub fn parse_size(text: &str) -> Result<u64, UnitError> {
    match parse(Kind::Size, text)? {
        Quantity::Size(b) => Ok(b),
        _ => unreachable!("a size"),
    }
}

/// A queue limit: packets ("250p") or a size.
pub fn parse_limit(text: &str) -> Result<Limit, UnitError> {
    match parse(Kind::Limit, text)? {
        Quantity::Limit(l) => Ok(l),
        _ => unreachable!("a limit"),
    }
}

/// The table of units as Markdown, as in `docs/scenario.md` (a test keeps them equal).
pub fn markdown_table() -> String {
    let mut out = String::from("| kind | units | prefixes | bounds | examples |\n|---|---|---|---|---|\n");
    out.push_str("| time | `ps`, `ns`, `us` (or `µs`), `ms`, `s` (or `sec`), `min` | none | ≥ 0 and below 2^63 ps (about 106 days); rounded to the nearest picosecond | `\"40ms\"`, `\"1.5s\"`, `\"100us\"`, `\"1.5e-3s\"` |\n");
    out.push_str("| rate | bits per second: `bps`, `b/s`, `bit/s` or `b`; bytes per second: `Bps` or `B/s` (× 8) | `k` (or `K`), `M`, `G`, `T`: powers of 1000 | 1 bps … 1000 Tbps; rounded to whole bits/s | `\"1.5Mbps\"`, `\"100Mb\"`, `\"448Kb\"`, `\"10MBps\"` (80 Mbit/s), `\"1e9bps\"` |\n");
    out.push_str("| size | bytes: `B` (or `bytes`, without a prefix) | `k` (or `K`), `M`, `G`, `T`: powers of 1000; `Ki`, `Mi`, `Gi`, `Ti`: powers of 1024 | a whole number of bytes, at most 10^15 | `\"1000B\"`, `\"64KB\"` (64 000 B), `\"64KiB\"` (65 536 B), `\"1.5kB\"` |\n");
    out.push_str("| limit | packets: `p` (or `pkt`, `pkts`, `packets`), a whole number, no prefix; or a size | | at most 10^12 packets | `\"250p\"`, `\"30000B\"`, `\"64KiB\"` |\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_times_fixed_or_uniform() {
        assert_eq!(parse_start("2s"), Ok(StartTime::At(2 * PS_PER_S)));
        assert_eq!(parse_start("uniform(0s, 1s)"), Ok(StartTime::Uniform { low: 0, high: PS_PER_S }));
        assert_eq!(parse_start("uniform(100ms,1.5s)"), Ok(StartTime::Uniform { low: 100 * PS_PER_MS, high: 1_500 * PS_PER_MS }));
        for (bad, hint) in [
            ("uniform(1s, 1s)", "LOW must be below HIGH"),
            ("uniform(2s, 1s)", "LOW must be below HIGH"),
            ("uniform(0s, 1s", "missing ')'"),
            ("uniform(0s)", "two times"),
            ("uniform(0s, 1s, 2s)", "two times"),
            ("uniform(0, 1s)", "\"0\""),
            ("uniform(0s, 1Mbps)", "\"1Mbps\""),
        ] {
            let e = parse_start(bad).expect_err(bad);
            assert_eq!(e.expected, START_EXPECTED, "{bad}");
            assert!(e.hint.as_deref().unwrap_or("").contains(hint), "{bad}: {e:?}");
        }
        assert_eq!(parse_start("normal(0s, 1s)").expect_err("unknown").expected, TIME_EXPECTED, "not uniform: read as a time");
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("40ms"), Ok(40 * PS_PER_MS));
        assert_eq!(parse_time("1.5s"), Ok(1_500 * PS_PER_MS));
        assert_eq!(parse_time("100us"), Ok(100 * PS_PER_US));
        assert_eq!(parse_time("100µs"), Ok(100 * PS_PER_US));
        assert_eq!(parse_time("2 s"), Ok(2 * PS_PER_S), "one space between number and unit");
        assert_eq!(parse_time("0s"), Ok(0));
        assert_eq!(parse_time("1min"), Ok(60 * PS_PER_S));
        assert_eq!(parse_time(".5s"), Ok(500 * PS_PER_MS));
        assert_eq!(parse_time("5.s"), Ok(5 * PS_PER_S));
        assert!(parse_time("40").is_err());
        assert!(parse_time("-1s").unwrap_err().expected.contains("not negative"));
        assert!(parse_time("40 apples").is_err());
        assert!(parse_time("1e400s").unwrap_err().expected.contains("106 days"));
        assert!(parse_time("1e300s").unwrap_err().expected.contains("106 days"));
        assert!(parse_time("106.7day").is_err());
    }

    #[test]
    fn exponents_as_the_docs_promise() {
        assert_eq!(parse_time("1.5e-3s"), Ok(1_500 * PS_PER_US));
        assert_eq!(parse_time("1.5E-3s"), Ok(1_500 * PS_PER_US));
        assert_eq!(parse_time("2e+1ms"), Ok(20 * PS_PER_MS));
        assert_eq!(parse_time("1e-12s"), Ok(1));
        // 0.4 ps rounds to 0, 0.5 ps up to 1 ps.
        assert_eq!(parse_time("4e-13s"), Ok(0));
        assert_eq!(parse_time("5e-13s"), Ok(1));
        assert_eq!(parse_time("1e-400s"), Ok(0));
        assert_eq!(parse_rate("1.5e6bps"), Ok(1_500_000));
        assert_eq!(parse_size("1e3B"), Ok(1000));
        assert!(parse_size("1e-3KB").is_ok(), "1 byte");
        assert!(parse_size("1e-4KB").is_err(), "0.1 byte");
    }

    #[test]
    fn rates_in_bits_and_bytes() {
        assert_eq!(parse_rate("1.5Mbps"), Ok(1_500_000));
        assert_eq!(parse_rate("100Mb"), Ok(100_000_000));
        assert_eq!(parse_rate("1Gb"), Ok(1_000_000_000));
        assert_eq!(parse_rate("448Kb"), Ok(448_000));
        assert_eq!(parse_rate("64kbps"), Ok(64_000));
        assert_eq!(parse_rate("10Mbit/s"), Ok(10_000_000));
        assert_eq!(parse_rate("10Mb/s"), Ok(10_000_000));
        assert_eq!(parse_rate("9600bps"), Ok(9600));
        // Bytes per second are 8 bits each.
        assert_eq!(parse_rate("10MBps"), Ok(80_000_000));
        assert_eq!(parse_rate("10KBps"), Ok(80_000));
        assert_eq!(parse_rate("1B/s"), Ok(8));
        assert!(parse_rate("0Mbps").unwrap_err().expected.contains("greater than zero"));
        assert!(parse_rate("-1Mbps").is_err());
        assert!(parse_rate("10").is_err());
        assert!(parse_rate("10ms").unwrap_err().hint.unwrap().contains("time"));
    }

    #[test]
    fn case_matters() {
        let e = parse_rate("10MB").unwrap_err();
        assert!(e.hint.as_deref().unwrap().contains("10MBps"), "{e:?}");
        let e = parse_rate("10mbps").unwrap_err();
        assert!(e.hint.as_deref().unwrap().contains("Mbps"), "{e:?}");
        assert!(parse_rate("10GBPS").is_err());
        assert!(parse_size("10b").unwrap_err().hint.unwrap().contains("bytes"));
        assert!(parse_size("10kib").is_err());
        assert!(parse_time("10MS").is_err());
        assert!(parse_time("10S").is_err());
        assert!(parse_limit("10P").is_err());
    }

    #[test]
    fn junk_is_refused() {
        for bad in [
            "10Mbpsbps", "10Mbps ", " 10Mbps", "10  Mbps", "10Mbpsx", "10 Mbps/s", "1.2.3Mbps", "1e5e5bps", "10MiBps",
            "10Kibps", "0x10bps", "1_000bps", "inf bps", "NaNbps", "Mbps", "", ".bps", "1e bps", "10kkbps", "+10Mbps",
        ] {
            assert!(parse_rate(bad).is_err(), "{bad:?} accepted");
        }
        for bad in ["40msec", "40 ms ", "1s1", "1ks", "1 mins", "40ms;", "4O ms", "1e-3", "12:00"] {
            assert!(parse_time(bad).is_err(), "{bad:?} accepted");
        }
        for bad in ["1000Bytes", "1000kbytes", "1.5B", "64KBB", "64 KiB x"] {
            assert!(parse_size(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn sizes_and_limits() {
        assert_eq!(parse_size("1000B"), Ok(1000));
        assert_eq!(parse_size("64KB"), Ok(64_000));
        assert_eq!(parse_size("64kB"), Ok(64_000));
        assert_eq!(parse_size("64KiB"), Ok(65_536));
        assert_eq!(parse_size("1.5MiB"), Ok(1_572_864));
        assert_eq!(parse_size("1.1KB"), Ok(1100), "read exactly, not through a float");
        assert_eq!(parse_size("100 bytes"), Ok(100));
        assert!(parse_size("1.5B").unwrap_err().expected.contains("whole number of bytes"));
        assert!(parse_size("1000").is_err());
        assert_eq!(parse_limit("250p"), Ok(Limit::Packets(250)));
        assert_eq!(parse_limit("250pkts"), Ok(Limit::Packets(250)));
        assert_eq!(parse_limit("30000B"), Ok(Limit::Bytes(30_000)));
        assert_eq!(parse_limit("64KiB"), Ok(Limit::Bytes(65_536)));
        assert!(parse_limit("2.5p").unwrap_err().expected.contains("whole number of packets"));
        assert!(parse_limit("250").is_err());
        assert!(parse_limit("1kp").is_err());
        assert!(parse_limit("1e13p").is_err());
    }

    #[test]
    fn every_listed_unit_parses_and_every_error_lists_the_forms() {
        for kind in Kind::ALL {
            for unit in accepted_units(kind) {
                let text = format!("2{unit}");
                assert!(parse(kind, &text).is_ok(), "{text:?} as a {}", kind.name());
            }
            let e = parse(kind, "2furlongs").unwrap_err();
            assert_eq!(e.expected, kind.expected());
            assert!(e.expected.contains("such as"));
        }
    }

    #[test]
    fn docs_show_the_table_of_units() {
        let docs = include_str!("../../../docs/scenario.md");
        assert!(docs.contains(&markdown_table()), "docs/scenario.md#units differs from units::markdown_table()");
    }

    #[test]
    fn catalogue_defaults_read_back() {
        use crate::model::Value;
        for m in crate::catalogue::specs() {
            for p in m.params {
                let text = p.default.to_toml();
                let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else { continue };
                let back = match &p.default {
                    Value::Time(t) => parse_time(inner).map(|v| v == *t),
                    Value::Rate(r) => parse_rate(inner).map(|v| v == *r),
                    Value::Size(s) => parse_size(inner).map(|v| v == *s),
                    Value::Limit(l) => parse_limit(inner).map(|v| v == *l),
                    _ => continue,
                };
                assert_eq!(back, Ok(true), "{}.{} = {text}", m.name, p.name);
            }
        }
    }
}
