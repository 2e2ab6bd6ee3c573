//! The TCP throughput equation TFRC sends by: RFC 5348 §3.1, equation (1).
//!
//! ```text
//!                                  s
//! X_Bps = ----------------------------------------------------------
//!         R·sqrt(2·b·p/3) + t_RTO·(3·sqrt(3·b·p/8))·p·(1 + 32·p²)
//! ```
//!
//! with `s` the segment size (bytes), `R` the round-trip time (s), `p` the loss event rate
//! (a fraction of packets, 0 < p ≤ 1), `t_RTO` the TCP retransmission timeout (s; the
//! RFC recommends `4·R`) and `b` the packets one TCP ACK acknowledges (the RFC: 1).
//!
//! ns-2.35 (`p_to_b` in tcp/formula.h, which `Agent/TFRC` calls) differs in two ways,
//! both kept as the default here (the model is checked against ns-2):
//!
//! - the timeout term's factor `3·sqrt(3·b·p/8)` is capped at 1, as in the Padhye et al.
//!   formula the RFC derives from ("Modeling TCP Throughput", SIGCOMM 1998); RFC 5348
//!   has no cap. The two agree below p = 8/27 ≈ 0.296 (with b = 1).
//! - the result is capped at 25,000,000 B/s (ns-2 `MAXRATE`), which is also what p = 0
//!   gives; the RFC leaves X undefined at p = 0 (the sender does not use it then).
//!
//! Parameters (`EquationRules`): `cap_timeout_factor` (default true, ns-2; false is RFC
//! 5348), `max_rate_bytes_per_s` (bytes/s, default 25e6 as ns-2; `f64::INFINITY` for the
//! RFC's uncapped equation).

/// ns-2's ceiling on the equation's rate, bytes per second (`MAXRATE` in tcp/formula.h).
pub const NS2_MAX_RATE_BYTES_PER_S: f64 = 25_000_000.0;

/// Where ns-2's equation and RFC 5348's differ; `Default` is ns-2's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquationRules {
    /// Cap the timeout term's factor `3·sqrt(3·b·p/8)` at 1 (ns-2 and Padhye et al.: true;
    /// RFC 5348: false).
    pub cap_timeout_factor: bool,
    /// The highest rate the equation gives, bytes/s; also its value at p = 0 (ns-2:
    /// 25e6; RFC 5348: no ceiling, `f64::INFINITY`).
    pub max_rate_bytes_per_s: f64,
}

impl EquationRules {
    /// ns-2.35's `p_to_b`.
    pub const NS2: EquationRules = EquationRules { cap_timeout_factor: true, max_rate_bytes_per_s: NS2_MAX_RATE_BYTES_PER_S };
    /// RFC 5348 §3.1 as written.
    pub const RFC5348: EquationRules = EquationRules { cap_timeout_factor: false, max_rate_bytes_per_s: f64::INFINITY };
}

impl Default for EquationRules {
    fn default() -> Self {
        EquationRules::NS2
    }
}

/// What the equation is evaluated at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EquationInputs {
    /// Segment size `s`, bytes.
    pub segment_size_bytes: f64,
    /// Round-trip time `R`, seconds.
    pub rtt_s: f64,
    /// Retransmission timeout `t_RTO`, seconds (RFC 5348: `4·R`; ns-2: its TCP-style RTO
    /// estimate).
    pub t_rto_s: f64,
    /// Loss event rate `p`, a fraction in [0, 1].
    pub loss_event_rate: f64,
    /// Packets acknowledged by one TCP ACK, `b` (RFC 5348 and ns-2 `bval_`: 1).
    pub packets_per_ack: f64,
}

impl EquationInputs {
    /// The RFC's recommended inputs: `t_RTO = 4·R`, `b = 1`.
    pub fn rfc5348(segment_size_bytes: f64, rtt_s: f64, loss_event_rate: f64) -> Self {
        EquationInputs { segment_size_bytes, rtt_s, t_rto_s: 4.0 * rtt_s, loss_event_rate, packets_per_ack: 1.0 }
    }
}

/// The rate a conforming TCP would get at these inputs, bytes per second (RFC 5348 §3.1).
pub fn throughput_bytes_per_s(inputs: &EquationInputs, rules: &EquationRules) -> f64 {
    let EquationInputs { segment_size_bytes: s, rtt_s: r, t_rto_s, loss_event_rate: p, packets_per_ack: b } = *inputs;
    let mut timeout_factor = 3.0 * (3.0 * b * p / 8.0).sqrt();
    if rules.cap_timeout_factor {
        timeout_factor = timeout_factor.min(1.0);
    }
    let seconds_per_segment = r * (2.0 * b * p / 3.0).sqrt() + t_rto_s * timeout_factor * p * (1.0 + 32.0 * p * p);
    if seconds_per_segment <= 0.0 {
        // p = 0 (or R = 0): no loss to limit the rate.
        return rules.max_rate_bytes_per_s;
    }
    (s / seconds_per_segment).min(rules.max_rate_bytes_per_s)
}

/// ns-2's tolerance on the inverted equation: a rate within ±5% of the target will do
/// (`b_to_p` in tcp/formula-with-inverse.h).
pub const NS2_INVERSE_TOLERANCE: f64 = 0.05;

/// The loss event rate at which the equation gives `target_rate_bytes_per_s`, the rest of
/// `inputs` as given (their `loss_event_rate` is ignored). RFC 5348 §6.3.1 asks for it to
/// seed the receiver's loss history at the first loss (from the rate received); ns-2's
/// `b_to_p` finds it by bisection, which this follows: p from 0.5 moving by 0.25, 0.125,
/// … (up when the equation's rate is above the target, down when below), stopping when
/// the rate is within ±`relative_tolerance` of the target (ns-2: 0.05) or after 31 steps.
pub fn loss_event_rate_for_rate(target_rate_bytes_per_s: f64, inputs: &EquationInputs, rules: &EquationRules, relative_tolerance: f64) -> f64 {
    let (mut p, mut step) = (0.5, 0.25);
    for _ in 0..=30 {
        let rate = throughput_bytes_per_s(&EquationInputs { loss_event_rate: p, ..*inputs }, rules);
        let within = rate > (1.0 - relative_tolerance) * target_rate_bytes_per_s && rate < (1.0 + relative_tolerance) * target_rate_bytes_per_s;
        if within {
            return p;
        }
        if rate > target_rate_bytes_per_s {
            p += step;
        } else {
            p -= step;
        }
        step /= 2.0;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64) -> bool {
        (actual / expected - 1.0).abs() < 1e-6
    }

    #[test]
    fn matches_the_hand_computed_rate_at_one_percent_loss() {
        // s = 1000 B, R = 100 ms, p = 0.01, t_RTO = 4R = 0.4 s, b = 1:
        //   R·sqrt(2p/3)                 = 0.1 · 0.0816496581 = 0.00816496581
        //   3·sqrt(3p/8)                 = 3 · 0.0612372436   = 0.183711731
        //   t_RTO·p·(1 + 32p²)           = 0.4 · 0.01 · 1.0032 = 0.0040128
        //   denominator = 0.00816496581 + 0.183711731 · 0.0040128 = 0.00890216424
        //   X = 1000 / 0.00890216424 = 112332.2 B/s
        let x = throughput_bytes_per_s(&EquationInputs::rfc5348(1000.0, 0.1, 0.01), &EquationRules::RFC5348);
        assert!(close(x, 1000.0 / 0.008_902_164_24), "{x}");
        // Below p = 8/27 the cap changes nothing.
        assert_eq!(x, throughput_bytes_per_s(&EquationInputs::rfc5348(1000.0, 0.1, 0.01), &EquationRules::NS2));
    }

    #[test]
    fn a_tiny_loss_rate_is_dominated_by_the_square_root_term() {
        // s = 1460 B, R = 50 ms, p = 1e-6, t_RTO = 0.2 s:
        //   R·sqrt(2p/3)               = 0.05 · 8.16496581e-4 = 4.08248290e-5
        //   3·sqrt(3p/8)·t_RTO·p·(1+…) = 1.83711731e-3 · 0.2 · 1e-6 = 3.67423e-10
        //   X = 1460 / 4.08251965e-5 = 35,762,228 B/s
        let inputs = EquationInputs::rfc5348(1460.0, 0.05, 1e-6);
        let x = throughput_bytes_per_s(&inputs, &EquationRules::RFC5348);
        assert!((x - 35_762_228.0).abs() < 1.0, "{x}");
        // ns-2 caps it at 25 MB/s.
        assert_eq!(throughput_bytes_per_s(&inputs, &EquationRules::NS2), 25_000_000.0);
    }

    #[test]
    fn ns2_caps_the_timeout_factor_at_one_above_p_eight_27ths() {
        // s = 1000 B, R = 100 ms, t_RTO = 0.4 s, p = 0.5:
        //   R·sqrt(2p/3)     = 0.1 · 0.577350269 = 0.0577350269
        //   3·sqrt(3p/8)     = 3 · 0.433012702   = 1.29903811 (ns-2: capped to 1)
        //   t_RTO·p·(1+32p²) = 0.4 · 0.5 · 9     = 1.8
        //   RFC:  X = 1000 / (0.0577350269 + 1.29903811 · 1.8) = 1000 / 2.39600362 = 417.362 B/s
        //   ns-2: X = 1000 / (0.0577350269 + 1.8)              = 1000 / 1.85773503 = 538.291 B/s
        let inputs = EquationInputs::rfc5348(1000.0, 0.1, 0.5);
        assert!(close(throughput_bytes_per_s(&inputs, &EquationRules::RFC5348), 1000.0 / 2.396_003_62));
        assert!(close(throughput_bytes_per_s(&inputs, &EquationRules::NS2), 1000.0 / 1.857_735_03));
    }

    #[test]
    fn no_loss_gives_the_ceiling() {
        let inputs = EquationInputs::rfc5348(1000.0, 0.1, 0.0);
        assert_eq!(throughput_bytes_per_s(&inputs, &EquationRules::NS2), NS2_MAX_RATE_BYTES_PER_S);
        assert_eq!(throughput_bytes_per_s(&inputs, &EquationRules::RFC5348), f64::INFINITY);
    }

    #[test]
    fn the_rate_falls_as_loss_rises() {
        let rates: Vec<f64> = [0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0]
            .iter()
            .map(|&p| throughput_bytes_per_s(&EquationInputs::rfc5348(1000.0, 0.1, p), &EquationRules::NS2))
            .collect();
        assert!(rates.windows(2).all(|w| w[0] > w[1]), "{rates:?}");
    }

    #[test]
    fn the_inverse_bisects_like_ns2_to_within_five_percent() {
        // Target X(p = 0.01) = 112,332 B/s (s = 1000 B, R = 0.1 s, t_RTO = 0.4 s). The
        // rates at p = 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625 are all below it
        // (538 … 85,817 B/s), at 0.0078125 above (129,445), at 0.01171875 below
        // (102,300), and at 0.009765625 within 5% (113,895): ns-2 stops there.
        let inputs = EquationInputs::rfc5348(1000.0, 0.1, 0.0);
        let target = throughput_bytes_per_s(&EquationInputs::rfc5348(1000.0, 0.1, 0.01), &EquationRules::NS2);
        assert_eq!(loss_event_rate_for_rate(target, &inputs, &EquationRules::NS2, NS2_INVERSE_TOLERANCE), 0.009_765_625);
        // 40,000 B/s: 0.5 … 0.03125 as above (53,705 is above), then 0.046875 (38,971, within 5%).
        assert_eq!(loss_event_rate_for_rate(40_000.0, &inputs, &EquationRules::NS2, NS2_INVERSE_TOLERANCE), 0.046_875);
        // A tight tolerance runs all 31 steps and lands within 2^-31 of p = 0.01.
        let p = loss_event_rate_for_rate(target, &inputs, &EquationRules::NS2, 1e-12);
        assert!((p - 0.01).abs() < 1e-6, "{p}");
    }
}
