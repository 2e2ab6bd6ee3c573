//! The delayed-ACK receiver: ns-2.35 `Agent/TCPSink/DelAck` (`sack = true`:
//! `Agent/TCPSink/Sack1/DelAck`); RFC 1122 §4.2.3.2, RFC 5681 §4.2.
//!
//! An in-order packet that finds no ACK pending starts the delayed-ACK timer; the next
//! packet (or the timer, after `timeout`, default 100 ms) sends the ACK. A packet that
//! arrives out of order or fills a hole is ACKed at once (ns-2 `RFC2581_immediate_ack_`),
//! and so is the SYN (`SYN_immediate_ack_`).

use super::{AckAction, DataArrival, TcpReceiver, SACK, SACK_BLOCKS};
use crate::engine::time::PS_PER_MS;
use crate::registry::{Constructor, Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Value as V};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Receiver,
    name: "delayed",
    summary: "ACK every second in-order packet or after a timeout (ns-2 TCPSink/DelAck)",
    source: "ns-2.35 Agent/TCPSink/DelAck (tcp-sink.cc); RFC 1122 §4.2.3.2; RFC 5681 §4.2",
    params: &[
        SACK,
        SACK_BLOCKS,
        Param::new("timeout", T::Time, "s", V::Time(100 * PS_PER_MS), "delayed-ACK timeout (ns-2 interval_)", "ns-2.35 Agent/TCPSink/DelAck default"),
    ],
    check,
    constructor: Constructor::Described,
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if c.time("timeout") == 0 {
        return Err(ParamError::new("timeout", "a time greater than zero"));
    }
    Ok(())
}

/// ns-2 `DelAckSink::recv` after the packet is recorded.
pub(super) fn on_data(r: &mut TcpReceiver, data: DataArrival) -> AckAction {
    let in_order_edge = data.seq == r.ack_number() && data.seq >= r.max_seen();
    if r.held.is_none() && in_order_edge && data.seq != 0 {
        r.held = Some(data);
        AckAction::StartTimer
    } else {
        AckAction::SendNow(r.ack(&data, Some(data.seq)))
    }
}
