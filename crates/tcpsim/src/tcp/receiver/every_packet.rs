//! The receiver that ACKs every data packet: ns-2.35 `Agent/TCPSink` (`sack = true`:
//! `Agent/TCPSink/Sack1`).

use super::{check, AckAction, AckPolicy, DataArrival, ReceiverModel, TcpReceiver, ECHO, SACK, SACK_BLOCKS};
use crate::model::{Family, ModelSpec, Relations};

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Receiver,
    name: "every_packet",
    summary: "ACK every data packet, duplicates included (ns-2 TCPSink; with sack = true TCPSink/Sack1)",
    source: "ns-2.35 Agent/TCPSink (tcp-sink.cc); RFC 5681 §4.2",
    params: &[SACK, SACK_BLOCKS, ECHO],
    check,
    relations: Relations::NONE,
};

pub static MODEL: ReceiverModel = ReceiverModel { spec: &SPEC, build: |_| Box::new(EveryPacket) };

/// One ACK per arriving data packet, at once (ns-2 `TcpSink::recv`).
#[derive(Debug, Clone, Copy, Default)]
pub struct EveryPacket;

impl AckPolicy for EveryPacket {
    fn on_data(&mut self, r: &mut TcpReceiver, data: DataArrival) -> AckAction {
        AckAction::SendNow(r.ack(&data, Some(data.seq)))
    }
}
