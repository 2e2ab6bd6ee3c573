//! The receiver that ACKs every data packet: ns-2.35 `Agent/TCPSink` (`sack = true`:
//! `Agent/TCPSink/Sack1`). The rule itself is in `TcpReceiver::on_data`.

use super::{check, SACK, SACK_BLOCKS};
use crate::registry::{Constructor, Family, ModelSpec};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Receiver,
    name: "every_packet",
    summary: "ACK every data packet, duplicates included (ns-2 TCPSink; with sack = true TCPSink/Sack1)",
    source: "ns-2.35 Agent/TCPSink (tcp-sink.cc); RFC 5681 §4.2",
    params: &[SACK, SACK_BLOCKS],
    check,
    constructor: Constructor::Described,
};
