//! Quantities with units, as written in scenario files: `"1.5Mbps"`, `"40ms"`, `"1000B"`,
//! `"250p"`. Each parser returns the value in tcpsim's internal unit or a description of
//! what was expected.

use crate::engine::time::{PS_PER_MS, PS_PER_NS, PS_PER_S, PS_PER_US};
use crate::queue::Limit;

/// Splits "1.5Mbps" into (1.5, "Mbps"); the number may have a sign, decimals, exponent.
fn split_number(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || ((c == '-' || c == '+') && i == 0) || c == 'e' && i > 0 && t[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-')))
        .map_or(t.len(), |(i, _)| i);
    let number: f64 = t[..end].parse().ok()?;
    if !number.is_finite() {
        return None;
    }
    Some((number, t[end..].trim()))
}

pub const TIME_EXPECTED: &str = "a time with a unit, such as \"40ms\", \"1.5s\" or \"100us\"";
pub const RATE_EXPECTED: &str = "a rate with a unit, such as \"1.5Mbps\", \"100Mb\" or \"1Gbps\"";
pub const SIZE_EXPECTED: &str = "a size with a unit, such as \"1000B\" or \"64KB\"";
pub const LIMIT_EXPECTED: &str = "a limit in packets or bytes, such as \"250p\" or \"30000B\"";

/// A non-negative time in picoseconds.
pub fn parse_time(text: &str) -> Result<u64, String> {
    let (n, unit) = split_number(text).ok_or_else(|| TIME_EXPECTED.to_string())?;
    let scale = match unit {
        "ps" => 1.0,
        "ns" => PS_PER_NS as f64,
        "us" | "µs" => PS_PER_US as f64,
        "ms" => PS_PER_MS as f64,
        "s" | "sec" => PS_PER_S as f64,
        "min" => 60.0 * PS_PER_S as f64,
        _ => return Err(TIME_EXPECTED.to_string()),
    };
    if n < 0.0 {
        return Err(format!("{TIME_EXPECTED} that is not negative"));
    }
    let ps = n * scale;
    if ps > u64::MAX as f64 / 2.0 {
        return Err(format!("{TIME_EXPECTED} below 100 days"));
    }
    Ok(ps.round() as u64)
}

/// A rate in bits per second (decimal prefixes, as ns-2: 1Mb = 10^6 b/s).
pub fn parse_rate(text: &str) -> Result<u64, String> {
    let (n, unit) = split_number(text).ok_or_else(|| RATE_EXPECTED.to_string())?;
    let lower = unit.to_ascii_lowercase();
    let prefix = lower.trim_end_matches("bps").trim_end_matches("bit/s").trim_end_matches('b');
    if prefix.len() == lower.len() || (unit.ends_with('B') && !unit.ends_with("bps")) {
        return Err(RATE_EXPECTED.to_string());
    }
    let scale = match prefix {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "g" => 1e9,
        "t" => 1e12,
        _ => return Err(RATE_EXPECTED.to_string()),
    };
    let bps = n * scale;
    if bps <= 0.0 {
        return Err(format!("{RATE_EXPECTED} greater than zero"));
    }
    if bps < 1.0 || bps > 1e15 {
        return Err(format!("{RATE_EXPECTED} between 1 bps and 1000 Tbps"));
    }
    Ok(bps.round() as u64)
}

/// A size in bytes (decimal prefixes: 1KB = 1000 B).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let (n, unit) = split_number(text).ok_or_else(|| SIZE_EXPECTED.to_string())?;
    let scale = match unit {
        "B" | "bytes" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        _ => return Err(SIZE_EXPECTED.to_string()),
    };
    let bytes = n * scale;
    if bytes < 0.0 || bytes.fract() != 0.0 || bytes > 1e15 {
        return Err(format!("{SIZE_EXPECTED}, a whole number of bytes"));
    }
    Ok(bytes as u64)
}

/// A queue limit: packets ("250p") or a size.
pub fn parse_limit(text: &str) -> Result<Limit, String> {
    let (n, unit) = split_number(text).ok_or_else(|| LIMIT_EXPECTED.to_string())?;
    match unit {
        "p" | "pkt" | "pkts" | "packets" => {
            if n < 0.0 || n.fract() != 0.0 || n > 1e12 {
                return Err(format!("{LIMIT_EXPECTED}, a whole number of packets"));
            }
            Ok(Limit::Packets(n as u64))
        }
        _ => parse_size(text).map(Limit::Bytes).map_err(|_| LIMIT_EXPECTED.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("40ms"), Ok(40 * PS_PER_MS));
        assert_eq!(parse_time("1.5s"), Ok(1_500 * PS_PER_MS));
        assert_eq!(parse_time("100us"), Ok(100 * PS_PER_US));
        assert_eq!(parse_time(" 2 s "), Ok(2 * PS_PER_S));
        assert_eq!(parse_time("0s"), Ok(0));
        assert!(parse_time("40").is_err());
        assert!(parse_time("-1s").is_err());
        assert!(parse_time("40 apples").is_err());
        assert!(parse_time("1e400s").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("1.5Mbps"), Ok(1_500_000));
        assert_eq!(parse_rate("100Mb"), Ok(100_000_000));
        assert_eq!(parse_rate("1Gb"), Ok(1_000_000_000));
        assert_eq!(parse_rate("448Kb"), Ok(448_000));
        assert_eq!(parse_rate("64kbps"), Ok(64_000));
        assert_eq!(parse_rate("9600bps"), Ok(9600));
        assert!(parse_rate("0Mbps").is_err());
        assert!(parse_rate("-1Mbps").is_err());
        assert!(parse_rate("10MB").is_err());
        assert!(parse_rate("10").is_err());
        assert!(parse_rate("10ms").is_err());
    }

    #[test]
    fn sizes_and_limits() {
        assert_eq!(parse_size("1000B"), Ok(1000));
        assert_eq!(parse_size("64KB"), Ok(64_000));
        assert!(parse_size("1.5B").is_err());
        assert!(parse_size("1000").is_err());
        assert_eq!(parse_limit("250p"), Ok(Limit::Packets(250)));
        assert_eq!(parse_limit("30000B"), Ok(Limit::Bytes(30_000)));
        assert!(parse_limit("2.5p").is_err());
        assert!(parse_limit("250").is_err());
    }
}
