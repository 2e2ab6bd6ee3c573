//! Packet traces: the record the simulator hands to a trace sink, and two sinks.
//!
//! * [`ns2`]: ns-2 `trace-all` text lines (`+ 0.1 0 2 tcp 1040 ------- 1 0.0 3.0 5 23`),
//!   byte-identical to what ns-2.35's `Trace::format` prints for the same events, so that
//!   ns-2 post-processing scripts (awk, xgraph recipes, nam-less analyses) work unchanged.
//! * [`read`]: ns-2 trace lines read back into columns (the Python reader's fast path).
//! * [`pcap`]: classic pcap files (nanosecond timestamps, Ethernet link type) with
//!   synthesized Ethernet/IPv4/TCP/UDP headers, readable by tshark and Wireshark.
//!
//! The simulator builds one [`TraceEvent`] per packet event at a link direction and passes
//! it by reference to every sink that wants it; a sink never keeps the event (the SACK
//! slice borrows from the packet), so building an event costs no allocation.
//!
//! Naming follows ns-2.35 (trace/trace.cc, common/flags.h) for the event letters and the
//! addressing, and RFC 3168 for the ECN codepoints. See `docs/traces.md`.

pub mod ns2;
pub mod pcap;
pub mod read;

pub use ns2::{Ns2TraceWriter, PacketKey};
pub use pcap::PcapWriter;

use crate::engine::SimTime;

/// What happened to a packet at a link direction (ns-2 trace event letters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceOp {
    /// `+`: the packet entered the link's queue.
    Enqueue,
    /// `-`: the packet left the queue and started transmission on the link.
    Dequeue,
    /// `d`: the queue dropped the packet (overflow or AQM early drop).
    Drop,
    /// `r`: the packet arrived at the far end of the link (after transmission and
    /// propagation).
    Receive,
}

impl TraceOp {
    /// The ns-2 trace letter: `+`, `-`, `d` or `r`.
    pub fn ns2_letter(self) -> u8 {
        match self {
            TraceOp::Enqueue => b'+',
            TraceOp::Dequeue => b'-',
            TraceOp::Drop => b'd',
            TraceOp::Receive => b'r',
        }
    }
}

/// Transport of a traced packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceKind {
    /// A TCP data segment (including the SYN of a flow that opens with one).
    TcpData,
    /// A pure TCP acknowledgement from the receiver (ns-2 TCPSink).
    TcpAck,
    /// A UDP datagram (ns-2 CBR over Agent/UDP).
    Udp,
}

/// The IP ECN field of a traced packet: the engine's own `Ecn` (RFC 3168 §5 codepoints).
pub use crate::engine::Ecn as EcnCodepoint;

/// The packet of a trace event, in the simulator's (ns-2's) terms: packet-counted
/// sequence numbers, node and agent port addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracedPacket<'a> {
    /// Unique packet id in the run (ns-2 "pkt id" column, `hdr_cmn::uid_`).
    pub uid: u64,
    pub kind: TraceKind,
    /// Bytes on the wire: the IP packet including headers, as ns-2's size column (1040 for
    /// a full ns-2 TCP data packet, 40 for an ACK, `packetSize_` for CBR).
    pub size: u32,
    /// TCP/IP header bytes included in `size` (40 for ns-2 TCP; 0 for CBR, whose
    /// `packetSize_` is the whole packet).
    pub header_size: u32,
    /// ns-2 flow id (`fid_`).
    pub flow: u32,
    /// Address of the sending agent: node id and port (ns-2 "src.port").
    pub src_node: u32,
    pub src_port: u32,
    /// Address of the receiving agent: node id and port (ns-2 "dst.port").
    pub dst_node: u32,
    pub dst_port: u32,
    /// Data: packet sequence number (ns-2 counts packets from 0; 0 is the SYN when the
    /// flow opens with a SYN). ACK: cumulative ACK number (highest packet received in
    /// order; -1 before any). UDP: the CBR packet count.
    pub seq: i64,
    /// Payload bytes per full data packet of this flow (ns-2 `packetSize_`, default 1000),
    /// also on the flow's ACKs: lets pcap turn packet numbers into byte sequence numbers.
    pub payload: u32,
    /// On a data packet: this packet is the SYN (seq 0 of a TCP flow that opens with a
    /// SYN). On an ACK: this ACK answers a SYN (ns-2 sends it as an ordinary `ack` with
    /// seq 0; pcap shows it as SYN-ACK). Unused by the ns-2 format.
    pub syn: bool,
    /// Added for pcap: the flow this packet belongs to opens with a SYN (ns-2 `syn_`,
    /// default true). It fixes where data byte 1 sits: with a SYN, packet 1 is the first
    /// data packet; without, packet 0 is. Unused by the ns-2 format.
    pub opens_with_syn: bool,
    pub ecn: EcnCodepoint,
    /// TCP ECN-Echo flag (ns-2 `hdr_flags::ecnecho()`; also on an ECN-setup SYN).
    pub ece: bool,
    /// TCP Congestion Window Reduced flag (ns-2 `hdr_flags::cwr()`).
    pub cwr: bool,
    /// SACK blocks on an ACK: `(first, last)` packet numbers inclusive, most recent first
    /// (ns-2 Sack1 sink). Empty otherwise.
    pub sack: &'a [(i64, i64)],
}

/// Packets of one example flow, for tests and examples of the trace writers: TCP from
/// node 0 port 0 to a sink at node 3 port 0, fid 1, 1000-byte payload and 40-byte
/// header, opening with a SYN, ECN-capable (the TCP flow of `trace_probe.tcl`).
pub mod example {
    use super::{EcnCodepoint, TraceKind, TracedPacket};

    /// A data packet of the example flow.
    pub fn data(seq: i64, uid: u64) -> TracedPacket<'static> {
        TracedPacket {
            uid,
            kind: TraceKind::TcpData,
            size: 1040,
            header_size: 40,
            flow: 1,
            src_node: 0,
            src_port: 0,
            dst_node: 3,
            dst_port: 0,
            seq,
            payload: 1000,
            syn: false,
            opens_with_syn: true,
            ecn: EcnCodepoint::Ect0,
            ece: false,
            cwr: false,
            sack: &[],
        }
    }

    /// An ACK of the example flow, from the sink back to the sender; ns-2's Sack1 sink
    /// counts 8 bytes per SACK block.
    pub fn ack(seq: i64, uid: u64, sack: &[(i64, i64)]) -> TracedPacket<'_> {
        TracedPacket {
            kind: TraceKind::TcpAck,
            size: 40 + 8 * sack.len() as u32,
            src_node: 3,
            dst_node: 0,
            ecn: EcnCodepoint::NotEct,
            sack,
            ..data(seq, uid)
        }
    }
}

/// One packet event at one link direction `from_node → to_node`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceEvent<'a> {
    pub op: TraceOp,
    /// When it happened, in picoseconds since the start of the run.
    pub time: SimTime,
    /// The link direction: the node whose queue the packet is in (or left).
    pub from_node: u32,
    /// The link direction: the node at the far end of the link.
    pub to_node: u32,
    pub packet: TracedPacket<'a>,
}

/// Anything that records trace events. `record` must not allocate per event on the
/// common path (the writers format into buffered output or fixed stack buffers).
pub trait TraceSink {
    /// Records one event. An error is an I/O error of the underlying output (or, for
    /// pcap, an address that does not fit the synthesized headers).
    fn record(&mut self, ev: &TraceEvent) -> std::io::Result<()>;
    /// Flushes everything recorded so far; call once at the end of the run.
    fn finish(&mut self) -> std::io::Result<()>;
}
