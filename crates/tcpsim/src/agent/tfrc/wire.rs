//! The TFRC header fields a packet carries beyond what every packet has.
//!
//! A TFRC data packet carries its sequence number, send time and the sender's RTT
//! estimate in the packet itself (`Packet::seq`, `sent_at`, `rtt_hint`); ns-2's
//! `hdr_tfrc` adds the sender's round, its RTO and an "urgent" flag, and a feedback
//! packet (`hdr_tfrc_ack`) carries the loss event rate, the receive rate and the time the
//! report was held at the receiver. Those extra fields ride here, in a table the flow's
//! two agents share, looked up by the packet's sequence number (data) or report number
//! (feedback), so that the packet struct every TCP packet goes through stays as it is.
//!
//! Only the packet's arrival makes a header visible: the sink reads a data header when
//! that data packet arrives, the source a report when that feedback packet arrives. A
//! lost packet's header is dropped unread when a later one is looked up (packets of one
//! flow keep their order on a route, so a later sequence number means the earlier packet
//! is gone).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// What ns-2's `hdr_tfrc` adds to a data packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataHeader {
    /// The sender's feedback rounds so far (ns-2 `round_id`, for `PreciseLoss_`).
    pub round: u64,
    /// Asks the receiver for a report at once (ns-2 `UrgentFlag`: before the first
    /// feedback and after a no-feedback expiry).
    pub urgent: bool,
    /// The sender's RTT estimate R, seconds (0 before any), and its TCP-style RTO, the
    /// equation's t_RTO (ns-2 `tzero`), seconds.
    pub rtt_s: f64,
    pub rto_s: f64,
}

/// What ns-2's `hdr_tfrc_ack` carries besides the echoed timestamp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeedbackHeader {
    /// How long the receiver held the echoed timestamp before sending the report
    /// (ns-2 `timestamp_offset`, RFC 5348 t_delay), seconds.
    pub echo_delay_s: f64,
    /// p, the loss event rate.
    pub loss_event_rate: f64,
    /// X_recv, packets per second (ns-2 `rate_since_last_report`).
    pub receive_rate_packets_per_s: f64,
}

/// The headers in flight of one flow, shared by its source and sink.
#[derive(Debug, Default)]
pub struct Wire {
    data: VecDeque<(i64, DataHeader)>,
    feedback: VecDeque<(i64, FeedbackHeader)>,
}

/// The flow's wire, as both agents hold it.
pub type SharedWire = Rc<RefCell<Wire>>;

impl Wire {
    pub fn shared() -> SharedWire {
        Rc::new(RefCell::new(Wire::default()))
    }

    /// The header of data packet `seq`, sent now.
    pub fn send_data(&mut self, seq: i64, header: DataHeader) {
        self.data.push_back((seq, header));
    }

    /// The header of data packet `seq`, which has arrived (older ones were lost).
    pub fn receive_data(&mut self, seq: i64) -> Option<DataHeader> {
        take(&mut self.data, seq)
    }

    pub fn send_feedback(&mut self, report: i64, header: FeedbackHeader) {
        self.feedback.push_back((report, header));
    }

    pub fn receive_feedback(&mut self, report: i64) -> Option<FeedbackHeader> {
        take(&mut self.feedback, report)
    }
}

fn take<H: Copy>(in_flight: &mut VecDeque<(i64, H)>, key: i64) -> Option<H> {
    while let Some(&(front, header)) = in_flight.front() {
        if front > key {
            return None;
        }
        in_flight.pop_front();
        if front == key {
            return Some(header);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_read_once_and_lost_packets_headers_are_dropped() {
        let mut wire = Wire::default();
        let header = |round| DataHeader { round, urgent: false, rtt_s: 0.1, rto_s: 0.2 };
        for seq in 0..4 {
            wire.send_data(seq, header(seq as u64));
        }
        assert_eq!(wire.receive_data(0).map(|h| h.round), Some(0));
        // Packets 1 and 2 were lost: reading 3 drops their headers.
        assert_eq!(wire.receive_data(3).map(|h| h.round), Some(3));
        assert!(wire.data.is_empty());
        assert_eq!(wire.receive_data(3), None, "read once");
    }
}
