//! Simulated time: an integer count of picoseconds.
//!
//! `u64` picoseconds cover about 213 days; one byte at 100 Gb/s lasts 80 ps. There is no
//! floating-point clock, so runs replay exactly.

/// A point in simulated time, in picoseconds since the start of the run.
pub type SimTime = u64;
/// A span of simulated time, in picoseconds.
pub type Dur = u64;

pub const PS_PER_NS: u64 = 1_000;
pub const PS_PER_US: u64 = 1_000_000;
pub const PS_PER_MS: u64 = 1_000_000_000;
pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Seconds as a real number (for reports and for models written in seconds).
#[inline]
pub fn to_secs(t: u64) -> f64 {
    to_f64(t) / PS_PER_S as f64
}

/// `t as f64`, the same value: below 2^63 through i64, one instruction on the x86-64
/// baseline, where u64's conversion takes several (it has no unsigned one).
#[inline(always)]
pub fn to_f64(t: u64) -> f64 {
    if t <= i64::MAX as u64 {
        t as i64 as f64
    } else {
        t as f64
    }
}

/// Rounds a non-negative number of seconds to picoseconds.
pub fn from_secs(s: f64) -> u64 {
    debug_assert!(s >= 0.0);
    round_non_negative(s * PS_PER_S as f64)
}

/// `x.round() as u64` without the call into libm that `f64::round` is on the x86-64
/// baseline (no rounding instruction): below 2^63 the fraction `x - trunc(x)` is exact, so
/// comparing it with one half rounds half away from zero bit for bit as `round` does.
#[inline]
pub fn round_non_negative(x: f64) -> u64 {
    if (0.0..9.2e18).contains(&x) {
        // Through i64 (below 2^63 here): one instruction each way, u64's take several.
        let whole = x as i64;
        (whole + (x - whole as f64 >= 0.5) as i64) as u64
    } else {
        x.round() as u64
    }
}

/// Time to serialize `bytes` at `rate_bps` bits per second, rounded to the nearest ps
/// (saturating at the end of the clock).
pub fn transmission_time(bytes: u64, rate_bps: u64) -> Dur {
    // 64-bit arithmetic is exact below 2 MB (bytes · 8e12 < 2^64); the common case.
    if bytes < 2_000_000 && rate_bps > 0 {
        return (bytes * 8 * PS_PER_S + rate_bps / 2) / rate_bps;
    }
    let bits_ps = bytes as u128 * 8 * PS_PER_S as u128;
    let rate = rate_bps.max(1) as u128;
    u64::try_from((bits_ps + rate / 2) / rate).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_of_1040_bytes_at_1_5_mbps() {
        // 1040 B * 8 = 8320 bits; 8320 / 1.5e6 s = 5.546666... ms = 5_546_666_667 ps (rounded).
        assert_eq!(transmission_time(1040, 1_500_000), 5_546_666_667);
    }

    #[test]
    fn rounding_without_libm_is_f64_round() {
        let edges = [
            0.0, 0.49999999999999994, 0.5, 0.5000000000000001, 1.5, 2.5, 1e-300,
            4503599627370495.5, 4503599627370496.0, 9007199254740993.0, 9.1e18, 9.3e18, 1e30,
            f64::INFINITY,
        ];
        let mut state = 0x9e3779b97f4a7c15u64;
        let random = std::iter::from_fn(|| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Some(f64::from_bits(state >> 2)) // non-negative, every exponent
        });
        for x in edges.into_iter().chain(random.take(100_000)) {
            assert_eq!(round_non_negative(x), x.round() as u64, "{x:e}");
        }
    }

    #[test]
    fn to_f64_is_the_u64_conversion() {
        let edges = [0, 1, (1 << 53) + 1, i64::MAX as u64 - 1, i64::MAX as u64, 1 << 63, (1 << 63) + 1025, u64::MAX];
        let mut state = 0x2545f4914f6cdd1du64;
        let random = std::iter::from_fn(|| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Some(state >> (state % 64)) // every magnitude
        });
        for t in edges.into_iter().chain(random.take(100_000)) {
            assert_eq!(to_f64(t).to_bits(), (t as f64).to_bits(), "{t}");
        }
    }

    #[test]
    fn one_byte_at_100_gbps_is_80_ps() {
        assert_eq!(transmission_time(1, 100_000_000_000), 80);
    }
}
