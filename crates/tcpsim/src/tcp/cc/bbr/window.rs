//! The window keeping BBRv1 and BBRv3 share, as Linux's `tcp_bbr.c` has it in both
//! versions (`bbr_set_cwnd`, `bbr_save_cwnd`, `bbr_set_cwnd_to_recover_or_restore`):
//! packet conservation in the first round of a recovery, cwnd remembered before
//! recovery, a timeout or ProbeRTT and restored after, and cwnd's growth toward the
//! model's target on each delivery.

use crate::tcp::cc::{CcView, RateSample};

/// Before the first RTT sample, cwnd grows freely until this many packets are delivered
/// (Linux `TCP_INIT_CWND`), packets.
pub(crate) const CWND_WITHOUT_RTT: f64 = 10.0;

#[derive(Debug, Default, Clone)]
pub(crate) struct BbrWindow {
    /// First round of a fast recovery: send no more than is delivered.
    pub packet_conservation: bool,
    /// cwnd before recovery, a timeout or ProbeRTT, restored after (Linux `prior_cwnd`).
    pub prior_cwnd: f64,
}

impl BbrWindow {
    /// cwnd after this sample, before the caller's mode bounds (Linux `bbr_set_cwnd`):
    /// lost packets leave it; in packet conservation it covers what is in the network
    /// plus what this ACK delivered; otherwise it grows by what was delivered, up to
    /// `target` once the pipe is full (`filled_pipe`), and never below `min_cwnd`.
    pub fn grown(&self, view: &CcView, rs: &RateSample, target: f64, filled_pipe: bool, min_cwnd: f64) -> f64 {
        let acked = rs.newly_delivered as f64;
        let mut cwnd = view.cwnd().floor();
        if acked > 0.0 {
            if rs.lost > 0 {
                cwnd = (cwnd - rs.lost as f64).max(1.0);
            }
            if self.packet_conservation {
                cwnd = cwnd.max(rs.in_flight as f64 + acked);
            } else {
                if filled_pipe {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || (view.delivered() as f64) < CWND_WITHOUT_RTT {
                    cwnd += acked;
                }
                cwnd = cwnd.max(min_cwnd);
            }
        }
        cwnd
    }

    /// Linux `bbr_save_cwnd`: remember cwnd; already in recovery, a loss state or
    /// ProbeRTT (`keeping`), keep the larger.
    pub fn save(&mut self, cwnd: f64, keeping: bool) {
        self.prior_cwnd = if keeping { self.prior_cwnd.max(cwnd) } else { cwnd };
    }

    /// cwnd back to at least what was saved.
    pub fn restore(&self, view: &mut CcView) {
        view.set_cwnd(view.cwnd().max(self.prior_cwnd));
    }

    /// Packet conservation for the first round of the recovery: cwnd = packets in the
    /// network + those this ACK delivered.
    pub fn start_recovery(&mut self, view: &mut CcView) {
        self.packet_conservation = true;
        let (in_network, delivered) = view.rate_sample().map_or((view.in_network(), 0), |rs| (rs.in_flight, rs.newly_delivered));
        view.set_cwnd((in_network + delivered) as f64);
    }

    /// The recovery ended: cwnd back to at least what was saved.
    pub fn end_recovery(&mut self, view: &mut CcView) {
        self.packet_conservation = false;
        self.restore(view);
    }
}

/// The `CongestionControl` methods BBRv1 and BBRv3 answer alike, expanded inside each
/// one's `impl CongestionControl` block: both are Linux `cong_control` modules (their
/// own cwnd holds in recovery, not PRR's), both pace and read a rate sample on every
/// ACK, and a loss only saves cwnd (`bbr_ssthresh`) for `BbrWindow` to restore. The
/// implementing type needs a `window: BbrWindow` field and a `save_cwnd(&CcView)` method.
macro_rules! bbr_shared_congestion_control {
    () => {
        fn hooks(&self) -> CcHooks {
            CcHooks { any_ack: true, ..CcHooks::NONE }
        }

        fn wants_rate_samples(&self) -> bool {
            true
        }

        fn paces(&self) -> bool {
            true
        }

        fn sets_window_in_recovery(&self) -> bool {
            true
        }

        fn on_ack(&mut self, _view: &mut CcView, _ack: &AckEvent) {}

        fn reduced_window(&mut self, view: &CcView, _flight_window: f64) -> f64 {
            self.save_cwnd(view);
            view.cwnd()
        }

        fn on_recovery_end(&mut self, view: &mut CcView) {
            self.window.end_recovery(view);
        }
    };
}
pub(crate) use bbr_shared_congestion_control;
