//! The delayed-ACK receiver: ns-2.35 `Agent/TCPSink/DelAck` (`sack = true`:
//! `Agent/TCPSink/Sack1/DelAck`); RFC 1122 §4.2.3.2, RFC 5681 §4.2.
//!
//! An in-order packet that finds no ACK pending starts the delayed-ACK timer; the next
//! packet (or the timer, after `timeout`, default 100 ms) sends the ACK. A packet that
//! arrives out of order or fills a hole is ACKed at once (ns-2 `RFC2581_immediate_ack_`),
//! and so is the SYN (`SYN_immediate_ack_`).

use super::{AckAction, AckPolicy, DataArrival, ReceiverModel, TcpReceiver, ECHO, SACK, SACK_BLOCKS};
use crate::engine::time::{Dur, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Receiver,
    name: "delayed",
    summary: "ACK every second in-order packet or after a timeout (ns-2 TCPSink/DelAck)",
    source: "ns-2.35 Agent/TCPSink/DelAck (tcp-sink.cc); RFC 1122 §4.2.3.2; RFC 5681 §4.2",
    params: &[
        SACK,
        SACK_BLOCKS,
        ECHO,
        Param::new("timeout", T::Time, "s", V::Time(100 * PS_PER_MS), "delayed-ACK timeout (ns-2 interval_)", "ns-2.35 Agent/TCPSink/DelAck default"),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: ReceiverModel = ReceiverModel { spec: &SPEC, build: |c| Box::new(Delayed { timeout: c.time("timeout") }) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if c.time("timeout") == 0 {
        return Err(ParamError::new("timeout", "a time greater than zero"));
    }
    Ok(())
}

/// Holds an in-order ACK for up to `timeout`.
#[derive(Debug, Clone, Copy)]
pub struct Delayed {
    /// The delayed-ACK timeout, ps.
    pub timeout: Dur,
}

impl AckPolicy for Delayed {
    /// ns-2 `DelAckSink::recv` after the packet is recorded.
    fn on_data(&self, r: &mut TcpReceiver, data: DataArrival) -> AckAction {
        let in_order_edge = data.seq == r.ack_number() && data.seq >= r.max_seen();
        if r.held.is_none() && in_order_edge && data.seq != 0 {
            r.hold(data);
            AckAction::StartTimer(self.timeout)
        } else {
            AckAction::SendNow(r.ack(&data, Some(data.seq)))
        }
    }
}
