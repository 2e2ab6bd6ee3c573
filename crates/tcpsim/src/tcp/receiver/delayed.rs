//! The delayed-ACK receiver: ns-2.35 `Agent/TCPSink/DelAck` (`sack = true`:
//! `Agent/TCPSink/Sack1/DelAck`); RFC 1122 §4.2.3.2, RFC 5681 §4.2; with `quickack`,
//! Linux's quick-ACK mode (`net/ipv4/tcp_input.c`).
//!
//! An in-order packet that finds no ACK pending starts the delayed-ACK timer; the next
//! packet (or the timer, after `timeout`, default 100 ms) sends the ACK. A packet that
//! arrives out of order or fills a hole is ACKed at once (ns-2 `RFC2581_immediate_ack_`,
//! Linux: while its out-of-order queue is not empty), and so is the SYN
//! (`SYN_immediate_ack_`).
//!
//! Quick-ACK mode (`quickack` = N > 0, default 0 = ns-2's sink): the receiver holds N
//! credits at the start of the connection, and gets N again whenever a packet arrives
//! that it already had (Linux `tcp_enter_quickack_mode(sk, TCP_MAX_QUICKACKS)` in
//! `tcp_data_queue` and `tcp_send_dupack`: the sender retransmitted, so an ACK was
//! probably lost or delayed too long). While credits remain, every in-order data packet
//! is ACKed at once and uses one credit (`tcp_dec_quickack_mode`). Linux starts the mode
//! on the first data packet (`tcp_event_data_recv`, `tcp_incr_quickack`) with
//! min(receive window / (2·MSS), 16) credits; with its initial receive window of at
//! least 64 KB that is TCP_MAX_QUICKACKS = 16, which the Linux profile uses.
//!
//! Linux's delayed-ACK timeout (`ato`) starts at TCP_ATO_MIN = 40 ms and adapts to the
//! packets' inter-arrival time (halved towards TCP_ATO_MIN/2 plus the gap, capped by the
//! RTO; `tcp_event_data_recv`, `__tcp_send_delayed_ack`); for a bulk transfer whose
//! packets arrive less than 20 ms apart it stays at 40 ms. Here the timeout is a fixed
//! parameter (the Linux profile sets 40 ms). Not modelled: the re-entry into quick-ACK
//! mode after an idle time longer than the RTO (the receiver does not know the RTO),
//! Linux's "pingpong" (interactive) mode, and quick ACKs after CE marks.

use super::{AckAction, AckPolicy, DataArrival, ReceiverModel, TcpReceiver, ECHO, SACK, SACK_BLOCKS};
use crate::engine::time::{Dur, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Receiver,
    name: "delayed",
    summary: "ACK every second in-order packet or after a timeout (ns-2 TCPSink/DelAck); optionally Linux's quick-ACK mode",
    source: "ns-2.35 Agent/TCPSink/DelAck (tcp-sink.cc); RFC 1122 §4.2.3.2; RFC 5681 §4.2; Linux tcp_input.c (quick-ACK mode)",
    params: &[
        SACK,
        SACK_BLOCKS,
        ECHO,
        Param::new("timeout", T::Time, "s", V::Time(100 * PS_PER_MS), "delayed-ACK timeout (ns-2 interval_; Linux's TCP_ATO_MIN is 40 ms)", "ns-2.35 Agent/TCPSink/DelAck default"),
        Param::new("quickack", T::Integer, "packets", V::Integer(0), "quick-ACK credits: the first this many in-order data packets, and as many again after each packet that arrives a second time, are ACKed at once (Linux quick-ACK mode, TCP_MAX_QUICKACKS = 16); 0 = none, as ns-2", "Linux net/ipv4/tcp_input.c tcp_enter_quickack_mode; ns-2.35 has none").range(0.0, 1e9),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: ReceiverModel =
    ReceiverModel { spec: &SPEC, build: |c| Box::new(Delayed::new(c.time("timeout"), c.integer("quickack") as u32)) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if c.time("timeout") == 0 {
        return Err(ParamError::new("timeout", "a time greater than zero"));
    }
    Ok(())
}

/// Holds an in-order ACK for up to `timeout`, except in quick-ACK mode.
#[derive(Debug, Clone, Copy)]
pub struct Delayed {
    /// The delayed-ACK timeout, ps.
    pub timeout: Dur,
    /// Quick-ACK credits given at the start and after a duplicate arrival (0 = none).
    quickack: u32,
    /// Quick-ACK credits left (Linux `icsk_ack.quick`).
    quick_left: u32,
}

impl Delayed {
    pub fn new(timeout: Dur, quickack: u32) -> Self {
        Delayed { timeout, quickack, quick_left: quickack }
    }
}

impl AckPolicy for Delayed {
    /// ns-2 `DelAckSink::recv` after the packet is recorded, with Linux's quick ACKs.
    fn on_data(&mut self, r: &mut TcpReceiver, data: DataArrival) -> AckAction {
        if self.quickack > 0 && r.last_was_duplicate() {
            self.quick_left = self.quickack;
        }
        let in_order_edge = data.seq == r.ack_number() && data.seq >= r.max_seen();
        let delayable = in_order_edge && data.seq != 0;
        if delayable && self.quick_left > 0 {
            self.quick_left -= 1;
            return AckAction::SendNow(r.ack(&data, Some(data.seq)));
        }
        if r.held.is_none() && delayable {
            r.hold(data);
            AckAction::StartTimer(self.timeout)
        } else {
            AckAction::SendNow(r.ack(&data, Some(data.seq)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(seq: i64) -> DataArrival {
        DataArrival { seq, ..DataArrival::default() }
    }

    /// The ACK number sent for packet `seq`, or `None` when the ACK is held.
    fn ack(r: &mut TcpReceiver, seq: i64) -> Option<i64> {
        match r.on_data(data(seq)).1 {
            AckAction::SendNow(a) => Some(a.ack),
            AckAction::StartTimer(_) => None,
        }
    }

    fn linux_like(quickack: u32) -> TcpReceiver {
        TcpReceiver::new(Box::new(Delayed::new(40 * PS_PER_MS, quickack)), 3)
    }

    #[test]
    fn the_first_quickack_data_packets_are_acked_each_then_every_second() {
        // SYN (0) at once and not counted; data 1..=3 use the three credits; from 4 on,
        // every second packet.
        let mut r = linux_like(3);
        let acks: Vec<Option<i64>> = (0..=7).map(|seq| ack(&mut r, seq)).collect();
        assert_eq!(acks, vec![Some(0), Some(1), Some(2), Some(3), None, Some(5), None, Some(7)]);
    }

    #[test]
    fn sixteen_credits_as_linux_tcp_max_quickacks() {
        let mut r = linux_like(16);
        let immediate = (0..=40).take_while(|&seq| ack(&mut r, seq).is_some()).count();
        assert_eq!(immediate, 17, "the SYN and 16 data packets");
    }

    #[test]
    fn a_packet_that_arrives_twice_refills_the_credits() {
        let mut r = linux_like(2);
        for seq in 0..=2 {
            ack(&mut r, seq);
        }
        assert_eq!(ack(&mut r, 3), None, "credits used up: delayed");
        assert_eq!(ack(&mut r, 4), Some(4));
        assert_eq!(ack(&mut r, 2), Some(4), "a duplicate is ACKed at once");
        assert_eq!(ack(&mut r, 5), Some(5), "quick-ACK mode again");
        assert_eq!(ack(&mut r, 6), Some(6));
        assert_eq!(ack(&mut r, 7), None);
    }

    #[test]
    fn an_out_of_order_packet_alone_does_not_refill_the_credits() {
        // Linux ACKs at once while the out-of-order queue holds data, but enters
        // quick-ACK mode only for data it already had.
        let mut r = linux_like(1);
        ack(&mut r, 0);
        ack(&mut r, 1);
        assert_eq!(ack(&mut r, 3), Some(1), "above a hole: at once");
        assert_eq!(ack(&mut r, 2), Some(3), "fills the hole: at once");
        assert_eq!(ack(&mut r, 4), None, "no credit left");
    }

    #[test]
    fn without_quickack_the_receiver_is_ns2s_delack_sink() {
        let mut r = linux_like(0);
        let acks: Vec<Option<i64>> = (0..=4).map(|seq| ack(&mut r, seq)).collect();
        assert_eq!(acks, vec![Some(0), None, Some(2), None, Some(4)]);
    }
}
