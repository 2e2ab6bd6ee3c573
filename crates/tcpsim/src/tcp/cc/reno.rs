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

use super::{AckEvent, CcHooks, CcView, CongestionControl};
use crate::model::{Family, ModelSpec, no_check, Relations};
use crate::tcp::cc::CcModel;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "reno",
    summary: "Reno AIMD: slow start, then one packet per window per round trip; halve on loss",
    source: "Jacobson 1988; RFC 5681 §3.1; ns-2.35 TcpAgent::opencwnd (wnd_option 1) and slowdown",
    params: &[],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |_| Box::new(Reno) };

#[derive(Debug, Clone, Default)]
pub struct Reno;

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn hooks(&self) -> CcHooks {
        CcHooks::NONE
    }

    fn on_ack(&mut self, view: &mut CcView, _ack: &AckEvent) {
        let cwnd = view.cwnd();
        if cwnd < view.ssthresh() {
            view.set_cwnd(cwnd + 1.0);
        } else {
            view.set_cwnd(cwnd + 1.0 / cwnd);
        }
    }

    fn reduced_window(&mut self, _view: &CcView, flight_window: f64) -> f64 {
        // ns-2 slowdown with precisionReduce_: halfwin = windowd() / 2, not truncated.
        flight_window / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::ack::AckInfo;
    use crate::tcp::state::TcpState;
    use crate::tcp::TcpParams;

    fn state(cwnd: f64, ssthresh: f64) -> TcpState {
        let mut s = TcpState::new(TcpParams::default(), 0.0);
        s.window.cwnd = cwnd;
        s.window.ssthresh = ssthresh;
        s
    }

    fn ack(reno: &mut Reno, s: &mut TcpState) {
        let info = AckInfo::cumulative(1);
        let event = AckEvent { info: &info, acked_packets: 1, duplicate: false, rtt_s: None, ack_rtt_s: None };
        reno.on_ack(&mut CcView::new(s, 0), &event);
    }

    #[test]
    fn slow_start_adds_one_packet_per_ack() {
        let mut s = state(2.0, 20.0);
        ack(&mut Reno, &mut s);
        ack(&mut Reno, &mut s);
        assert_eq!(s.window.cwnd, 4.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_over_cwnd_per_ack() {
        // cwnd 10 → 10 + 1/10 = 10.1 → 10.1 + 1/10.1 = 10.19900990...
        let mut s = state(10.0, 10.0);
        ack(&mut Reno, &mut s);
        assert!((s.window.cwnd - 10.1).abs() < 1e-12);
        ack(&mut Reno, &mut s);
        assert!((s.window.cwnd - (10.1 + 1.0 / 10.1)).abs() < 1e-12);
    }

    #[test]
    fn one_window_of_acks_in_avoidance_adds_about_one_packet() {
        let mut s = state(20.0, 5.0);
        for _ in 0..20 {
            ack(&mut Reno, &mut s);
        }
        assert!(s.window.cwnd > 20.95 && s.window.cwnd < 21.0, "{}", s.window.cwnd);
    }

    #[test]
    fn reduced_window_is_half_the_real_flight_window() {
        let mut s = state(15.0, 5.0);
        let view = CcView::new(&mut s, 0);
        assert_eq!(Reno.reduced_window(&view, 15.0), 7.5);
        assert_eq!(Reno.reduced_window(&view, 17.6), 8.8);
    }
}
