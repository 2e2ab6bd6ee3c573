//! Reno AIMD window growth and decrease.
//!
//! Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988; RFC 5681 §3.1; reference
//! document 000 §1.1. Semantics of ns-2.35 `TcpAgent::opencwnd` (wnd_option 1) and
//! `TcpAgent::slowdown`:
//!   slow start          (cwnd < ssthresh):  cwnd ← cwnd + 1            per ACK of new data
//!   congestion avoidance (cwnd ≥ ssthresh): cwnd ← cwnd + 1/cwnd       per ACK of new data
//!   on congestion:                           reduced window = W / 2 (real; ns-2 precisionReduce_)
//!
//! Parameters: none (ns-2 `increase_num_` = 1, `decrease_num_` = 0.5 are the constants).
//!
//! Deviations: none from ns-2. Growth is per ACK, not per acknowledged packet (no
//! appropriate byte counting), as in ns-2; with delayed ACKs the window grows more slowly.

use super::{AckSample, CongestionControl, Window};

#[derive(Debug, Clone, Default)]
pub struct Reno;

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn on_ack(&mut self, w: &mut Window, _sample: &AckSample) {
        if w.cwnd < w.ssthresh {
            w.cwnd += 1.0;
        } else {
            w.cwnd += 1.0 / w.cwnd;
        }
    }

    fn reduced_window(&mut self, _w: &Window, flight_window: f64) -> f64 {
        // ns-2 slowdown with precisionReduce_: halfwin = windowd() / 2, not truncated.
        flight_window / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(reno: &mut Reno, w: &mut Window) {
        reno.on_ack(w, &AckSample { now: 0, acked_packets: 1, rtt_s: None });
    }

    #[test]
    fn slow_start_adds_one_packet_per_ack() {
        let mut w = Window { cwnd: 2.0, ssthresh: 20.0 };
        ack(&mut Reno, &mut w);
        ack(&mut Reno, &mut w);
        assert_eq!(w.cwnd, 4.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_over_cwnd_per_ack() {
        // cwnd 10 → 10 + 1/10 = 10.1 → 10.1 + 1/10.1 = 10.19900990...
        let mut w = Window { cwnd: 10.0, ssthresh: 10.0 };
        ack(&mut Reno, &mut w);
        assert!((w.cwnd - 10.1).abs() < 1e-12);
        ack(&mut Reno, &mut w);
        assert!((w.cwnd - (10.1 + 1.0 / 10.1)).abs() < 1e-12);
    }

    #[test]
    fn one_window_of_acks_in_avoidance_adds_about_one_packet() {
        let mut w = Window { cwnd: 20.0, ssthresh: 5.0 };
        for _ in 0..20 {
            ack(&mut Reno, &mut w);
        }
        assert!(w.cwnd > 20.95 && w.cwnd < 21.0, "{}", w.cwnd);
    }

    #[test]
    fn reduced_window_is_half_the_real_flight_window() {
        let w = Window { cwnd: 15.0, ssthresh: 5.0 };
        assert_eq!(Reno.reduced_window(&w, 15.0), 7.5);
        assert_eq!(Reno.reduced_window(&w, 17.6), 8.8);
    }
}
