//! Comparing durations as ns-2's TFRC code reads in exact arithmetic.

/// How far apart two durations must be to differ, seconds. In slow start everything
/// recurs at exactly one RTT (a report arrives one R after the last, a packet reaches
/// the receiver one R after its last report), so ns-2's comparisons of durations meet
/// exact ties, which its double clock and tcpsim's picosecond clock round differently
/// (by ulps). Compared with this margin, a tie resolves as ns-2's code reads in exact
/// arithmetic: `>` is false and `>=` true.
pub const TIE_S: f64 = 1e-9;

/// `a > b` for durations in seconds, ties (within [`TIE_S`]) false.
pub fn longer(a: f64, b: f64) -> bool {
    a > b + TIE_S
}

/// `a >= b` for durations in seconds, ties (within [`TIE_S`]) true.
pub fn at_least(a: f64, b: f64) -> bool {
    a >= b - TIE_S
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_within_a_nanosecond_is_not_longer_but_is_at_least() {
        // 0.3 − 0.1 is 0.19999999999999998 in doubles: a tie, not a shorter duration.
        assert!(at_least(0.3 - 0.1, 0.2) && !longer(0.3 - 0.1, 0.2));
        assert!(longer(0.2 + 2e-9, 0.2) && !at_least(0.2 - 2e-9, 0.2));
    }
}
