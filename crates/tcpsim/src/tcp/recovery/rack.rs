//! RACK-TLP loss detection (RFC 8985), as `prr` uses it with `rack = true`.
//!
//! Cheng, Cardwell, Dukkipati and Jha, "The RACK-TLP Loss Detection Algorithm for TCP",
//! RFC 8985, 2021; Linux `net/ipv4/tcp_recovery.c` (`tcp_rack_detect_loss`,
//! `tcp_rack_advance`) and `tcp_output.c` (`tcp_schedule_loss_probe`,
//! `tcp_send_loss_probe`). Packet-counted: a segment is a packet.
//!
//! RACK (§6): of the packets delivered (cumulatively ACKed or SACKed) by each ACK, the
//!   one sent last gives RACK.xmit_ts (its send time), RACK.end_seq and RACK.rtt = now −
//!   its send time; a retransmitted packet whose RTT is below the minimum RTT is skipped
//!   (its ACK may be for the original, §6.2 step 2). A packet not SACKed that was sent
//!   before it is lost once now ≥ its send time + RACK.rtt + RACK.reo_wnd; until then the
//!   reordering timer waits for the earliest such time.
//!   RACK.reo_wnd = min_RTT / 4, and 0 once in recovery or once dupack_threshold packets
//!   are SACKed (§6.2 step 4 with no reordering seen: this model never sees reordering,
//!   so RACK.reord stays false and the window is not adapted).
//! TLP (§7): in the open state with data outstanding, the probe timeout PTO = 2·SRTT,
//!   plus WCDelAckT = 200 ms when one packet is outstanding (the receiver may hold its
//!   ACK), and no later than the RTO. When it fires, one probe: a new packet if the
//!   window and the data allow, else the highest packet sent again; then the RTO is
//!   armed. One probe per episode: the next waits for an ACK beyond the probe.
//!
//! Left out: DSACK-based reordering detection and the adaptive RACK.reo_wnd (§6.2),
//! TLP's detection of a probe that repaired a loss without a reduction (§7.4:
//! TLP.end_seq with DSACK), and the timestamp refinements of Linux.

use super::scoreboard::Scoreboard;
use crate::engine::time::{Dur, SimTime, PS_PER_MS};
use crate::tcp::state::SendTimes;

/// WCDelAckT: the longest the receiver may delay an ACK (RFC 8985 §7.2, 200 ms; Linux
/// adds TCP_RTO_MIN when one packet is outstanding).
pub const WORST_CASE_DELAYED_ACK: Dur = 200 * PS_PER_MS;

#[derive(Debug, Clone, Default)]
pub struct Rack {
    /// Send time of the most recently sent packet delivered (RACK.xmit_ts).
    xmit_ts: SimTime,
    /// That packet (RACK.end_seq).
    end_seq: i64,
    /// Its round-trip time (RACK.rtt), ps.
    rtt: Dur,
    /// The highest packet sent when the loss probe went out, while it is unacknowledged.
    pub probe_end: Option<i64>,
}

impl Rack {
    /// Packet `seq`, last sent at `sent_at` (`transmissions` times), was delivered at
    /// `now` (RFC 8985 §6.2 steps 1–3).
    pub fn on_delivered(&mut self, seq: i64, sent_at: SimTime, transmissions: u32, now: SimTime, min_rtt: Dur) {
        let rtt = now.saturating_sub(sent_at);
        if transmissions > 1 && rtt < min_rtt {
            return;
        }
        if sent_at > self.xmit_ts || (sent_at == self.xmit_ts && seq > self.end_seq) {
            self.xmit_ts = sent_at;
            self.end_seq = seq;
            self.rtt = rtt;
        }
    }

    /// RFC 8985 §6.2 step 5: marks lost the packets of `first ..= last` sent before the
    /// most recently delivered one whose time is up; returns when the next one's is
    /// (the reordering timer), if any.
    pub fn detect_losses(&self, sb: &mut Scoreboard, times: &SendTimes, first: i64, last: i64, reo_wnd: Dur, now: SimTime) -> Option<SimTime> {
        let mut next = None;
        for seq in first..=last {
            if sb.is_sacked(seq) || (sb.is_lost(seq) && !sb.is_retransmitted(seq)) {
                continue; // delivered, or already waiting to be retransmitted
            }
            let Some(sent) = times.get(seq) else { continue };
            let sent_before = sent < self.xmit_ts || (sent == self.xmit_ts && seq < self.end_seq);
            if !sent_before {
                continue;
            }
            let deadline = sent + self.rtt + reo_wnd;
            if deadline <= now {
                sb.declare_lost(seq);
            } else {
                next = Some(next.map_or(deadline, |n: SimTime| n.min(deadline)));
            }
        }
        next
    }
}

/// RFC 8985 §7.2: the probe timeout for smoothed RTT `srtt` with `flight` packets
/// outstanding.
pub fn probe_timeout(srtt: Dur, flight: i64) -> Dur {
    let pto = 2 * srtt;
    if flight == 1 {
        pto + WORST_CASE_DELAYED_ACK
    } else {
        pto
    }
}
