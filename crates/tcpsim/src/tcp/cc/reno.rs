//! Reno AIMD window growth and decrease, and ns-2's generalized AIMD TCP(α, β).
//!
//! Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988; RFC 5681 §3.1; reference
//! document 000 §1.1. Semantics of ns-2.35 `TcpAgent::opencwnd` (wnd_option 1) and
//! `TcpAgent::slowdown` (precisionReduce_), with α = `increase_num` and β =
//! `decrease_num`:
//!   slow start          (cwnd < ssthresh):  cwnd ← cwnd + 1            per ACK of new data
//!   congestion avoidance (cwnd ≥ ssthresh): cwnd ← cwnd + α/cwnd       per ACK of new data
//!   on congestion, W the flight window:     reduced window = β · W (real), except that
//!     the first decrease of the connection, a decrease in slow start and the ssthresh
//!     of a timeout use W/2 ("For the first decrease, decrease by half even for
//!     non-standard values of decrease_num_", tcp.cc); a timeout sets cwnd to 1.
//!
//! Parameters: `increase_num` α = 1 packet per RTT and `decrease_num` β = 0.5 (ns-2
//! `increase_num_`, `decrease_num_`, ns-default.tcl); with the defaults every branch
//! above is Reno's halving. TCP(α, β) of Yang & Lam ("General AIMD Congestion Control",
//! ICNP 2000) is `increase_num = α, decrease_num = β`: reference document 003 (Zhang &
//! Tsaoussidis, NOSSDAV 2003, §4) compares TCP(0.31, 0.875), which is TCP-friendly by
//! α = 4(1 − β²)/3.
//!
//! Deviations from ns-2: none with the defaults. Growth is per ACK, not per acknowledged
//! packet (no appropriate byte counting), as in ns-2; with delayed ACKs the window grows
//! more slowly.
//! ns-2's ssthresh rule also takes W/2 when `last_cwnd_action_` is a timeout; ns-2 sets
//! the action before it calls `slowdown` (a fast retransmit after a timeout has
//! CWND_ACTION_DUPACK), and so do the loss recoveries here. One difference remains with
//! `decrease_num` ≠ 0.5: ns-2 also clears `first_decrease_` in the cuts that only close
//! the window to one packet without touching ssthresh (a timeout during an ECN response,
//! a timeout with nothing outstanding), which here do not ask the window control; after
//! such a cut the next decrease halves here and is β · W in ns-2.

use super::{AckEvent, CcHooks, CcView, CongestionControl};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::tcp::cc::CcModel;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::CongestionControl,
    name: "reno",
    summary: "Reno AIMD: slow start, then one packet per window per round trip; halve on loss (generalized AIMD TCP(alpha, beta) with increase_num, decrease_num)",
    source: "Jacobson 1988; RFC 5681 §3.1; ns-2.35 TcpAgent::opencwnd (wnd_option 1) and slowdown",
    params: &[
        Param::new("increase_num", T::Number, "packets", V::Number(1.0), "additive increase alpha per RTT in congestion avoidance (alpha/cwnd per ACK; TCP(alpha, beta))", "ns-2.35 Agent/TCP increase_num_ default").range(0.0, 1e6),
        Param::new("decrease_num", T::Number, "", V::Number(0.5), "window multiplier beta on congestion after the first decrease, outside slow start (TCP(alpha, beta))", "ns-2.35 Agent/TCP decrease_num_ default").range(0.0, 1.0),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: CcModel = CcModel { spec: &SPEC, build: |c| Box::new(Reno::from_config(c)) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if c.number("decrease_num") <= 0.0 {
        return Err(ParamError::new("decrease_num", "a multiplier above 0 and at most 1"));
    }
    Ok(())
}

/// Reno, or TCP(α, β) with other `increase_num` and `decrease_num`.
#[derive(Debug, Clone)]
pub struct Reno {
    /// α, packets per RTT (ns-2 `increase_num_`).
    increase: f64,
    /// β (ns-2 `decrease_num_`).
    decrease: f64,
    /// No decrease yet (ns-2 `first_decrease_`).
    first_decrease: bool,
}

/// ns-2's defaults: α = 1, β = 0.5.
impl Default for Reno {
    fn default() -> Self {
        Reno::gaimd(1.0, 0.5)
    }
}

impl Reno {
    /// TCP(α, β): additive increase α packets per RTT, multiplicative decrease β.
    pub fn gaimd(increase: f64, decrease: f64) -> Self {
        Reno { increase, decrease, first_decrease: true }
    }

    pub fn from_config(c: &ModelConfig) -> Self {
        Reno::gaimd(c.number("increase_num"), c.number("decrease_num"))
    }
}

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
            view.set_cwnd(cwnd + self.increase / cwnd);
        }
    }

    fn reduced_window(&mut self, view: &CcView, flight_window: f64) -> f64 {
        // ns-2 slowdown with precisionReduce_: halfwin = windowd() / 2, decreasewin =
        // decrease_num_ · windowd(), neither truncated.
        let halve = self.first_decrease || view.cwnd() < view.ssthresh() || view.after_timeout();
        self.first_decrease = false;
        if halve {
            flight_window / 2.0
        } else {
            self.decrease * flight_window
        }
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
        ack(&mut Reno::default(), &mut s);
        ack(&mut Reno::default(), &mut s);
        assert_eq!(s.window.cwnd, 4.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_over_cwnd_per_ack() {
        // cwnd 10 → 10 + 1/10 = 10.1 → 10.1 + 1/10.1 = 10.19900990...
        let mut s = state(10.0, 10.0);
        ack(&mut Reno::default(), &mut s);
        assert!((s.window.cwnd - 10.1).abs() < 1e-12);
        ack(&mut Reno::default(), &mut s);
        assert!((s.window.cwnd - (10.1 + 1.0 / 10.1)).abs() < 1e-12);
    }

    #[test]
    fn one_window_of_acks_in_avoidance_adds_about_one_packet() {
        let mut s = state(20.0, 5.0);
        for _ in 0..20 {
            ack(&mut Reno::default(), &mut s);
        }
        assert!(s.window.cwnd > 20.95 && s.window.cwnd < 21.0, "{}", s.window.cwnd);
    }

    #[test]
    fn reduced_window_is_half_the_real_flight_window() {
        let mut s = state(15.0, 5.0);
        let view = CcView::new(&mut s, 0);
        let mut reno = Reno::default();
        assert_eq!(reno.reduced_window(&view, 15.0), 7.5);
        assert_eq!(reno.reduced_window(&view, 17.6), 8.8);
    }

    #[test]
    fn gaimd_grows_by_alpha_over_cwnd_per_ack_in_avoidance_and_one_in_slow_start() {
        // TCP(0.31, 0.875): cwnd 10 in avoidance → 10 + 0.31/10 = 10.031.
        let mut gaimd = Reno::gaimd(0.31, 0.875);
        let mut s = state(10.0, 10.0);
        ack(&mut gaimd, &mut s);
        assert!((s.window.cwnd - 10.031).abs() < 1e-12, "{}", s.window.cwnd);
        // Slow start is unchanged: + 1 per ACK.
        let mut s = state(4.0, 10.0);
        ack(&mut gaimd, &mut s);
        assert_eq!(s.window.cwnd, 5.0);
    }

    #[test]
    fn gaimd_halves_first_then_multiplies_by_beta() {
        // ns-2 slowdown: the first decrease is W/2 whatever decrease_num_ is; later ones
        // in avoidance are β · W; one in slow start (cwnd < ssthresh) is W/2 again.
        let mut gaimd = Reno::gaimd(0.31, 0.875);
        let mut s = state(16.0, 8.0);
        assert_eq!(gaimd.reduced_window(&CcView::new(&mut s, 0), 16.0), 8.0, "first decrease");
        assert_eq!(gaimd.reduced_window(&CcView::new(&mut s, 0), 16.0), 14.0, "0.875 · 16");
        let mut slow_start = state(6.0, 8.0);
        assert_eq!(gaimd.reduced_window(&CcView::new(&mut slow_start, 0), 6.0), 3.0);
        // The ssthresh of a timeout: W/2 (cwnd goes to one packet anyway).
        let mut timing_out = state(16.0, 8.0);
        timing_out.last_cwnd_action = crate::tcp::state::CwndAction::Timeout;
        assert_eq!(gaimd.reduced_window(&CcView::new(&mut timing_out, 0), 16.0), 8.0);
    }
}
