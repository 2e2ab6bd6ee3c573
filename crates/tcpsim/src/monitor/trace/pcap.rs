//! pcap capture files with synthesized Ethernet / IPv4 / TCP / UDP headers.
//!
//! Sources: the pcap file format as written by libpcap (Harris & Richardson, "PCAP
//! Capture File Format", draft-ietf-opsawg-pcap; nanosecond variant with magic
//! 0xA1B23C4D); LINKTYPE_ETHERNET = 1 (tcpdump.org link-layer header types); Ethernet II
//! framing (RFC 894); IPv4 (RFC 791) with its header checksum (RFC 1071); TCP (RFC 9293);
//! UDP (RFC 768); SACK option (RFC 2018 §3); ECN field and TCP flags (RFC 3168 §5, §6.1).
//!
//! A simulated packet has no bytes, only ns-2-style fields, so each record is a packet
//! written from those fields. Only the headers are stored (the captured length is the
//! header bytes) while the original length is the full frame, so files stay small and
//! tshark/Wireshark show the true sizes (and say the payload was not captured).
//!
//! Mapping (also in docs/traces.md):
//! * MAC of node N: `02:00:` + N as four big-endian bytes (locally administered,
//!   unicast). The Ethernet source/destination are the event's link ends
//!   (`from_node`, `to_node`), so a capture shows the hop it was taken on.
//! * IPv4 address of node N (N < 2^24): `10.a.b.c` with a.b.c the three low bytes of N,
//!   so node 3 is 10.0.0.3 and node 258 is 10.0.1.2. Source and destination are the
//!   agents' nodes (`src_node`, `dst_node`).
//! * Port of agent port P: [`PORT_BASE`] + P (ns-2 agent ports are small integers that
//!   start at 0; the offset keeps them out of the well-known range, where tshark would
//!   guess an application protocol).
//! * IPv4: TOS = the ECN codepoint (DSCP 0), total length = `size` (see below), ID = low
//!   16 bits of `uid`, no fragmentation flags, TTL 64 at every hop, correct checksum.
//! * TCP byte sequence numbers, ns-2 one-way TCP (packets numbered from 0, the SYN is
//!   packet 0 when the flow opens with one); both initial sequence numbers are 0 and
//!   numbers wrap modulo 2^32:
//!   - first data packet f = 1 if `opens_with_syn`, else 0; data packet n carries bytes
//!     `(n - f)·payload + 1 ..= (n - f + 1)·payload`, so its sequence number is
//!     `(n - f)·payload + 1`. The SYN has sequence number 0 (it occupies byte 0).
//!   - an ACK of cumulative packet a acknowledges `(a + 1 - f)·payload + 1`: every byte
//!     up to and including packet a (and the SYN, if any). An ACK of -1 (nothing received)
//!     acknowledges 1.
//!   - SACK block (first, last) has left edge = sequence number of `first` and right
//!     edge = sequence number of `last + 1`.
//!   - the receiver sends no data: its sequence number is 0 on the SYN-ACK (an ACK with
//!     `syn`) and 1 otherwise, and data packets acknowledge 1.
//! * TCP flags: the SYN carries SYN (+ ECE/CWR when set; a SYN with ECE, ns-2's ECN offer,
//!   is written as RFC 3168 §6.1.1's ECN-setup SYN: ECE and CWR);
//!   other data segments ACK + PSH (+ ECE/CWR); ACKs ACK (+ SYN when `syn`, + ECE/CWR).
//!   Window 65535. An ACK's SACK blocks go in a SACK option preceded by two NOPs (RFC 2018
//!   §3's recommended alignment); at most [`MAX_SACK_BLOCKS`] fit in the 40 option bytes,
//!   later blocks (older ones: blocks come most recent first) are left out.
//! * UDP: length = total length - 20.
//!
//! Deviations from a real packet, by design:
//! * The TCP and UDP checksums are 0 (not computed: the payload is not stored, so no
//!   reader could verify them; tshark does not check them by default, and 0 means "no
//!   checksum" for UDP over IPv4, RFC 768). The IPv4 header checksum is correct.
//! * IP total length is `size`, except when the synthesized headers are longer: ns-2
//!   counts 8 bytes per SACK block on an ACK (`40 + 8n`) while the option also needs
//!   its kind/length bytes and the two NOPs (`40 + 8n + 4`); then the total length is the
//!   header length and the frame is 4 bytes longer than ns-2's size.
//! * Timestamps are the simulated time truncated to whole nanoseconds.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::{TraceEvent, TraceKind, TraceSink, TracedPacket};
use crate::engine::time::PS_PER_NS;

/// File magic of pcap with nanosecond timestamps (written little-endian: 4d 3c b2 a1).
pub const MAGIC_NANOSECOND: u32 = 0xa1b2_3c4d;
/// pcap format version 2.4, the only one in use.
const VERSION_MAJOR: u16 = 2;
const VERSION_MINOR: u16 = 4;
/// Largest captured length a record may have, in bytes; ours are at most
/// [`MAX_CAPTURED_BYTES`].
pub const SNAPLEN: u32 = 65_535;
/// Link type of the records: Ethernet (LINKTYPE_ETHERNET).
pub const LINKTYPE_ETHERNET: u32 = 1;
/// Agent port P is written as TCP/UDP port PORT_BASE + P.
pub const PORT_BASE: u32 = 10_000;
/// SACK blocks that fit in the 40 bytes of TCP options with two NOPs (2 + 2 + 4·8 = 36).
pub const MAX_SACK_BLOCKS: usize = 4;

const ETHERNET_HEADER_BYTES: usize = 14;
const ETHERTYPE_IPV4: u16 = 0x0800;
const IPV4_HEADER_BYTES: usize = 20;
const IP_PROTO_TCP: u8 = 6;
const IP_PROTO_UDP: u8 = 17;
/// IPv4 TTL of every synthesized packet (a common host default; not decremented per hop).
const IP_TTL: u8 = 64;
const TCP_BASE_HEADER_BYTES: usize = 20;
const TCP_MAX_HEADER_BYTES: usize = 60;
const TCP_WINDOW: u16 = 65_535;
const TCP_OPTION_NOP: u8 = 1;
const TCP_OPTION_SACK: u8 = 5;
const SACK_BLOCK_BYTES: usize = 8;
const UDP_HEADER_BYTES: usize = 8;
/// The longest header stack we write: Ethernet + IPv4 + TCP with full options.
pub const MAX_CAPTURED_BYTES: usize = ETHERNET_HEADER_BYTES + IPV4_HEADER_BYTES + TCP_MAX_HEADER_BYTES;

const TCP_FLAG_CWR: u8 = 0x80;
const TCP_FLAG_ECE: u8 = 0x40;
const TCP_FLAG_ACK: u8 = 0x10;
const TCP_FLAG_PSH: u8 = 0x08;
const TCP_FLAG_SYN: u8 = 0x02;

/// A capture file's write buffer: 64 KiB (about 700 records of a full TCP segment's
/// headers) per `write` system call rather than `BufWriter`'s default 8 KiB; a run may
/// write one file per link direction and per node, so not more.
const BUFFER_BYTES: usize = 64 * 1024;

/// Writes one pcap record per event it is given (any op: the simulator chooses which
/// events go to which file, by default `Dequeue` for a link and `Receive` for a node).
pub struct PcapWriter<W: Write> {
    out: W,
}

impl PcapWriter<BufWriter<File>> {
    /// Creates (truncates) the capture file at `path`, buffered, and writes its header.
    pub fn create(path: &Path) -> io::Result<Self> {
        PcapWriter::new(BufWriter::with_capacity(BUFFER_BYTES, File::create(path)?))
    }
}

impl<W: Write> PcapWriter<W> {
    /// Writes the file header to `out`; records follow with [`TraceSink::record`].
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(&file_header())?;
        Ok(PcapWriter { out })
    }

    /// Gives back the output (after [`TraceSink::finish`] to have everything flushed).
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> TraceSink for PcapWriter<W> {
    fn record(&mut self, ev: &TraceEvent) -> io::Result<()> {
        let mut frame = [0u8; MAX_CAPTURED_BYTES];
        let lengths = encode_frame(ev, &mut frame)?;
        let ns = ev.time / PS_PER_NS;
        let secs =
            u32::try_from(ns / 1_000_000_000).map_err(|_| invalid("time beyond the pcap timestamp range (2^32 s)"))?;
        let mut record_header = [0u8; 16];
        record_header[0..4].copy_from_slice(&secs.to_le_bytes());
        record_header[4..8].copy_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
        record_header[8..12].copy_from_slice(&(lengths.captured as u32).to_le_bytes());
        record_header[12..16].copy_from_slice(&lengths.on_wire.to_le_bytes());
        self.out.write_all(&record_header)?;
        self.out.write_all(&frame[..lengths.captured])
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The 24-byte pcap file header, little-endian.
pub fn file_header() -> [u8; 24] {
    let mut h = [0u8; 24];
    h[0..4].copy_from_slice(&MAGIC_NANOSECOND.to_le_bytes());
    h[4..6].copy_from_slice(&VERSION_MAJOR.to_le_bytes());
    h[6..8].copy_from_slice(&VERSION_MINOR.to_le_bytes());
    // Bytes 8..16: time zone offset and timestamp accuracy, both 0 as the format requires.
    h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
    h
}

/// Lengths of one synthesized frame, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLengths {
    /// Header bytes written to the record (pcap "captured length").
    pub captured: usize,
    /// Length of the whole frame, Ethernet header + IP total length (pcap "original
    /// length").
    pub on_wire: u32,
}

/// Writes the Ethernet, IPv4 and TCP/UDP headers of `ev`'s packet to the front of
/// `frame`. Fails when a node id or port does not fit the address mapping.
pub fn encode_frame(ev: &TraceEvent, frame: &mut [u8; MAX_CAPTURED_BYTES]) -> io::Result<FrameLengths> {
    let p = &ev.packet;
    let transport_start = ETHERNET_HEADER_BYTES + IPV4_HEADER_BYTES;
    let transport_bytes = match p.kind {
        TraceKind::TcpData | TraceKind::TcpAck => write_tcp_header(p, &mut frame[transport_start..])?,
        TraceKind::Udp => UDP_HEADER_BYTES,
    };
    let headers = IPV4_HEADER_BYTES + transport_bytes;
    let total_length = u16::try_from((p.size as usize).max(headers))
        .map_err(|_| invalid("packet size above the IPv4 limit of 65535 bytes"))?;
    if p.kind == TraceKind::Udp {
        write_udp_header(p, total_length - IPV4_HEADER_BYTES as u16, &mut frame[transport_start..])?;
    }
    write_ethernet_header(ev.from_node, ev.to_node, &mut frame[..ETHERNET_HEADER_BYTES]);
    write_ipv4_header(p, total_length, &mut frame[ETHERNET_HEADER_BYTES..transport_start])?;
    Ok(FrameLengths {
        captured: ETHERNET_HEADER_BYTES + headers,
        on_wire: ETHERNET_HEADER_BYTES as u32 + u32::from(total_length),
    })
}

/// MAC address of a node: `02:00:` then the id as four big-endian bytes. The 02 makes
/// it a locally administered unicast address (IEEE 802), never a real vendor's.
pub fn node_mac(node: u32) -> [u8; 6] {
    let id = node.to_be_bytes();
    [0x02, 0x00, id[0], id[1], id[2], id[3]]
}

/// IPv4 address of a node: `10.a.b.c`, a.b.c the three low bytes of the id (< 2^24).
pub fn node_ipv4(node: u32) -> io::Result<[u8; 4]> {
    if node >= 1 << 24 {
        return Err(invalid("node id above 2^24 - 1 has no 10.x.y.z address"));
    }
    let id = node.to_be_bytes();
    Ok([10, id[1], id[2], id[3]])
}

/// TCP/UDP port of an agent port: [`PORT_BASE`] + port.
pub fn wire_port(agent_port: u32) -> io::Result<u16> {
    PORT_BASE
        .checked_add(agent_port)
        .and_then(|p| u16::try_from(p).ok())
        .ok_or_else(|| invalid("agent port above 55535 does not fit PORT_BASE + port"))
}

/// Byte sequence number (modulo 2^32) where data packet `packet_number` of `p`'s flow
/// starts: `(n - f)·payload + 1`, f the flow's first data packet.
pub fn packet_start_byte(p: &TracedPacket, packet_number: i64) -> u32 {
    let first_data_packet = i64::from(p.opens_with_syn);
    // Truncating to 32 bits is the modulo-2^32 wrap of TCP sequence numbers.
    (packet_number - first_data_packet).wrapping_mul(i64::from(p.payload)).wrapping_add(1) as u32
}

fn write_ethernet_header(from_node: u32, to_node: u32, h: &mut [u8]) {
    h[0..6].copy_from_slice(&node_mac(to_node));
    h[6..12].copy_from_slice(&node_mac(from_node));
    h[12..14].copy_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
}

fn write_ipv4_header(p: &TracedPacket, total_length: u16, h: &mut [u8]) -> io::Result<()> {
    const VERSION_4_IHL_5: u8 = 0x45;
    h[0] = VERSION_4_IHL_5;
    h[1] = p.ecn.bits(); // RFC 3168 §5: ECN in the two low bits, DSCP 0 above.
    h[2..4].copy_from_slice(&total_length.to_be_bytes());
    h[4..6].copy_from_slice(&(p.uid as u16).to_be_bytes());
    h[6..8].fill(0); // flags and fragment offset
    h[8] = IP_TTL;
    h[9] = if p.kind == TraceKind::Udp { IP_PROTO_UDP } else { IP_PROTO_TCP };
    h[10..12].fill(0); // checksum computed over the header with this field zero
    h[12..16].copy_from_slice(&node_ipv4(p.src_node)?);
    h[16..20].copy_from_slice(&node_ipv4(p.dst_node)?);
    let checksum = ipv4_header_checksum(&h[..IPV4_HEADER_BYTES]);
    h[10..12].copy_from_slice(&checksum.to_be_bytes());
    Ok(())
}

/// RFC 1071: the ones' complement of the ones' complement sum of the header's 16-bit
/// words. Over a header whose checksum field is zero, this is the value to store; over
/// a complete header it is 0 when the stored checksum is right.
pub fn ipv4_header_checksum(header: &[u8]) -> u16 {
    let mut sum: u32 = header.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Writes the TCP header (with a SACK option on ACKs that carry blocks); returns its
/// length in bytes.
fn write_tcp_header(p: &TracedPacket, h: &mut [u8]) -> io::Result<usize> {
    // ns-2's ECN offer is a SYN with ECE alone; RFC 3168 §6.1.1's ECN-setup SYN, which
    // readers of a capture expect, has ECE and CWR.
    let ecn_setup_syn = p.kind == TraceKind::TcpData && p.syn && p.ece;
    let ecn_flags = if p.ece { TCP_FLAG_ECE } else { 0 } | if p.cwr || ecn_setup_syn { TCP_FLAG_CWR } else { 0 };
    // The receiver's initial sequence number is 0; its SYN-ACK occupies it.
    let receiver_seq = if p.syn { 0 } else { 1 };
    let (seq, ack, flags) = match p.kind {
        TraceKind::TcpData if p.syn => (0, 0, TCP_FLAG_SYN),
        TraceKind::TcpData => (packet_start_byte(p, p.seq), receiver_seq, TCP_FLAG_ACK | TCP_FLAG_PSH),
        _ => {
            let syn = if p.syn { TCP_FLAG_SYN } else { 0 };
            (receiver_seq, packet_start_byte(p, p.seq + 1), TCP_FLAG_ACK | syn)
        }
    };
    let options = if p.kind == TraceKind::TcpAck { write_sack_option(p, &mut h[TCP_BASE_HEADER_BYTES..]) } else { 0 };
    let header_bytes = TCP_BASE_HEADER_BYTES + options;
    h[0..2].copy_from_slice(&wire_port(p.src_port)?.to_be_bytes());
    h[2..4].copy_from_slice(&wire_port(p.dst_port)?.to_be_bytes());
    h[4..8].copy_from_slice(&seq.to_be_bytes());
    h[8..12].copy_from_slice(&ack.to_be_bytes());
    h[12] = ((header_bytes / 4) as u8) << 4; // data offset in 32-bit words
    h[13] = flags | ecn_flags;
    h[14..16].copy_from_slice(&TCP_WINDOW.to_be_bytes());
    h[16..20].fill(0); // checksum (not computed, see the module doc) and urgent pointer
    Ok(header_bytes)
}

/// Writes NOP, NOP, SACK(kind 5, length 2 + 8n, n edge pairs) for the ACK's first
/// blocks; returns the option bytes written (0 without blocks).
fn write_sack_option(p: &TracedPacket, o: &mut [u8]) -> usize {
    let blocks = &p.sack[..p.sack.len().min(MAX_SACK_BLOCKS)];
    if blocks.is_empty() {
        return 0;
    }
    o[0] = TCP_OPTION_NOP;
    o[1] = TCP_OPTION_NOP;
    o[2] = TCP_OPTION_SACK;
    o[3] = (2 + SACK_BLOCK_BYTES * blocks.len()) as u8;
    for (i, &(first, last)) in blocks.iter().enumerate() {
        let at = 4 + i * SACK_BLOCK_BYTES;
        o[at..at + 4].copy_from_slice(&packet_start_byte(p, first).to_be_bytes());
        o[at + 4..at + 8].copy_from_slice(&packet_start_byte(p, last + 1).to_be_bytes());
    }
    4 + SACK_BLOCK_BYTES * blocks.len()
}

fn write_udp_header(p: &TracedPacket, udp_length: u16, h: &mut [u8]) -> io::Result<()> {
    h[0..2].copy_from_slice(&wire_port(p.src_port)?.to_be_bytes());
    h[2..4].copy_from_slice(&wire_port(p.dst_port)?.to_be_bytes());
    h[4..6].copy_from_slice(&udp_length.to_be_bytes());
    h[6..8].fill(0); // RFC 768: checksum 0 = none transmitted
    Ok(())
}

fn invalid(msg: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_S;
    use crate::monitor::trace::{EcnCodepoint, TraceOp};

    fn data(seq: i64) -> TracedPacket<'static> {
        crate::monitor::trace::example::data(seq, 7)
    }

    fn ack(seq: i64, sack: &[(i64, i64)]) -> TracedPacket<'_> {
        crate::monitor::trace::example::ack(seq, 7, sack)
    }

    fn frame_of(p: TracedPacket) -> ([u8; MAX_CAPTURED_BYTES], FrameLengths) {
        let ev = TraceEvent { op: TraceOp::Dequeue, time: PS_PER_S, from_node: 2, to_node: 3, packet: p };
        let mut frame = [0u8; MAX_CAPTURED_BYTES];
        let lengths = encode_frame(&ev, &mut frame).unwrap();
        (frame, lengths)
    }

    fn be32(b: &[u8]) -> u32 {
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }

    const TCP: usize = 34; // Ethernet 14 + IPv4 20

    #[test]
    fn file_header_is_nanosecond_ethernet_pcap() {
        #[rustfmt::skip]
        let expected = [
            0x4d, 0x3c, 0xb2, 0xa1, // magic 0xa1b23c4d, little-endian
            0x02, 0x00, 0x04, 0x00, // version 2.4
            0, 0, 0, 0, 0, 0, 0, 0, // reserved (zone, sigfigs)
            0xff, 0xff, 0x00, 0x00, // snaplen 65535
            0x01, 0x00, 0x00, 0x00, // LINKTYPE_ETHERNET
        ];
        assert_eq!(file_header(), expected);
    }

    /// A 500-byte CBR datagram from node 1 port 0 to node 3 port 1, uid 108, seen on the
    /// 2 → 3 link at 2.500001234567 s. Every byte written out by hand.
    #[test]
    fn one_udp_record_byte_by_byte() {
        let packet = TracedPacket {
            uid: 108,
            kind: TraceKind::Udp,
            size: 500,
            header_size: 0,
            flow: 2,
            src_node: 1,
            src_port: 0,
            dst_node: 3,
            dst_port: 1,
            seq: 78,
            payload: 500,
            syn: false,
            opens_with_syn: false,
            ecn: EcnCodepoint::NotEct,
            ece: false,
            cwr: false,
            sack: &[],
        };
        let ev = TraceEvent { op: TraceOp::Dequeue, time: 2_500_001_234_567, from_node: 2, to_node: 3, packet };
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.record(&ev).unwrap();
        w.finish().unwrap();
        let bytes = w.into_inner();
        // IPv4 checksum by hand: words 4500 01f4 006c 0000 4011 0000 0a00 0001 0a00 0003
        // sum to 0x9b75 (no carry); its complement is 0x648a.
        #[rustfmt::skip]
        let record = [
            0x02, 0x00, 0x00, 0x00,             // ts_sec 2
            0xd2, 0x69, 0xcd, 0x1d,             // ts_nsec 500_001_234 (0x1dcd69d2); the 567 ps truncated
            42, 0, 0, 0,                        // captured: 14 + 20 + 8
            0x02, 0x02, 0, 0,                   // on wire: 14 + 500 = 514
            0x02, 0x00, 0, 0, 0, 3,             // dst MAC: node 3 (link end)
            0x02, 0x00, 0, 0, 0, 2,             // src MAC: node 2
            0x08, 0x00,                         // IPv4
            0x45, 0x00, 0x01, 0xf4,             // v4, IHL 5, TOS 0, total 500
            0x00, 0x6c, 0x00, 0x00,             // ID 108, no fragmentation
            0x40, 0x11, 0x64, 0x8a,             // TTL 64, UDP, checksum
            10, 0, 0, 1, 10, 0, 0, 3,           // 10.0.0.1 -> 10.0.0.3
            0x27, 0x10, 0x27, 0x11,             // ports 10000 -> 10001
            0x01, 0xe0, 0x00, 0x00,             // UDP length 480, checksum none
        ];
        assert_eq!(&bytes[..24], &file_header());
        assert_eq!(&bytes[24..], &record);
    }

    #[test]
    fn ipv4_checksum_verifies_to_zero() {
        let (frame, _) = frame_of(TracedPacket { ecn: EcnCodepoint::Ce, ..data(12) });
        assert_eq!(ipv4_header_checksum(&frame[14..34]), 0);
    }

    #[test]
    fn ecn_codepoint_is_the_low_two_tos_bits() {
        for (ecn, tos) in
            [(EcnCodepoint::NotEct, 0), (EcnCodepoint::Ect1, 1), (EcnCodepoint::Ect0, 2), (EcnCodepoint::Ce, 3)]
        {
            assert_eq!(frame_of(TracedPacket { ecn, ..data(1) }).0[15], tos);
        }
    }

    #[test]
    fn data_sequence_numbers_count_bytes_after_the_syn() {
        // With a SYN: packet 1 starts at byte 1, packet 3 at 2·1000 + 1.
        assert_eq!(be32(&frame_of(data(1)).0[TCP + 4..]), 1);
        assert_eq!(be32(&frame_of(data(3)).0[TCP + 4..]), 2001);
        // Without: packet 0 is the first data packet and starts at byte 1.
        let no_syn = |seq| TracedPacket { opens_with_syn: false, ..data(seq) };
        assert_eq!(be32(&frame_of(no_syn(0)).0[TCP + 4..]), 1);
        assert_eq!(be32(&frame_of(no_syn(3)).0[TCP + 4..]), 3001);
    }

    #[test]
    fn sequence_numbers_wrap_modulo_2_pow_32() {
        // Packet 4_294_969 starts at byte 4_294_968·1000 + 1 = 4_294_968_001 = 2^32 + 705.
        assert_eq!(packet_start_byte(&data(0), 4_294_969), 705);
    }

    #[test]
    fn syn_has_sequence_zero_and_only_syn_and_ecn_setup_flags() {
        let syn = TracedPacket { syn: true, size: 40, ece: true, cwr: true, seq: 0, ..data(0) };
        let (f, len) = frame_of(syn);
        assert_eq!(be32(&f[TCP + 4..]), 0);
        assert_eq!(be32(&f[TCP + 8..]), 0);
        assert_eq!(f[TCP + 13], TCP_FLAG_SYN | TCP_FLAG_ECE | TCP_FLAG_CWR);
        assert_eq!(len, FrameLengths { captured: 54, on_wire: 54 });
        // ns-2's ECN offer sets ECE alone: written as the ECN-setup SYN RFC 3168 describes.
        let ns2_offer = TracedPacket { syn: true, size: 40, ece: true, cwr: false, seq: 0, ..data(0) };
        assert_eq!(frame_of(ns2_offer).0[TCP + 13], TCP_FLAG_SYN | TCP_FLAG_ECE | TCP_FLAG_CWR);
        let plain = TracedPacket { syn: true, size: 40, ece: false, cwr: false, seq: 0, ..data(0) };
        assert_eq!(frame_of(plain).0[TCP + 13], TCP_FLAG_SYN);
    }

    #[test]
    fn data_segment_acks_the_receiver_syn_and_pushes() {
        let (f, len) = frame_of(data(2));
        assert_eq!(be32(&f[TCP + 8..]), 1);
        assert_eq!(f[TCP + 12], 5 << 4);
        assert_eq!(f[TCP + 13], TCP_FLAG_ACK | TCP_FLAG_PSH);
        assert_eq!(len, FrameLengths { captured: 54, on_wire: 14 + 1040 });
    }

    #[test]
    fn ack_number_covers_the_cumulative_packet() {
        // Cumulative ACK of packet 0 (the SYN): next byte 1. Of packet 5: 5·1000 + 1.
        assert_eq!(be32(&frame_of(ack(0, &[])).0[TCP + 8..]), 1);
        assert_eq!(be32(&frame_of(ack(5, &[])).0[TCP + 8..]), 5001);
        // Without a SYN, -1 (nothing yet) acknowledges 1 and packet 0 ends at 1000.
        let no_syn = |seq| TracedPacket { opens_with_syn: false, ..ack(seq, &[]) };
        assert_eq!(be32(&frame_of(no_syn(-1)).0[TCP + 8..]), 1);
        assert_eq!(be32(&frame_of(no_syn(0)).0[TCP + 8..]), 1001);
        // The receiver's own sequence number: 0 on its SYN-ACK, 1 after.
        assert_eq!(be32(&frame_of(TracedPacket { syn: true, ..ack(0, &[]) }).0[TCP + 4..]), 0);
        assert_eq!(frame_of(TracedPacket { syn: true, ..ack(0, &[]) }).0[TCP + 13], TCP_FLAG_SYN | TCP_FLAG_ACK);
        assert_eq!(be32(&frame_of(ack(5, &[])).0[TCP + 4..]), 1);
    }

    #[test]
    fn sack_option_layout_for_two_blocks() {
        // Cumulative 5, then packets 9..=10 and 7 received: blocks most recent first.
        let blocks = [(9, 10), (7, 7)];
        let (f, len) = frame_of(TracedPacket { ece: true, ..ack(5, &blocks) });
        assert_eq!(f[TCP + 12], (40 / 4) << 4, "data offset: 20 + 20 option bytes");
        assert_eq!(f[TCP + 13], TCP_FLAG_ACK | TCP_FLAG_ECE);
        assert_eq!(&f[TCP + 20..TCP + 24], &[1, 1, 5, 18]);
        // Packet n starts at (n - 1)·1000 + 1: block (9, 10) is [8001, 10001), (7, 7) is [6001, 7001).
        assert_eq!(be32(&f[TCP + 24..]), 8001);
        assert_eq!(be32(&f[TCP + 28..]), 10_001);
        assert_eq!(be32(&f[TCP + 32..]), 6001);
        assert_eq!(be32(&f[TCP + 36..]), 7001);
        // ns-2 counts this ACK as 56 bytes; the headers need 60.
        assert_eq!(len, FrameLengths { captured: 14 + 60, on_wire: 14 + 60 });
        assert_eq!(u16::from_be_bytes([f[16], f[17]]), 60);
    }

    #[test]
    fn at_most_four_sack_blocks_are_written() {
        let blocks = [(20, 20), (18, 18), (16, 16), (14, 14), (12, 12)];
        let (f, len) = frame_of(ack(10, &blocks));
        assert_eq!(f[TCP + 12], (56 / 4) << 4);
        assert_eq!(f[TCP + 23], 2 + 4 * 8);
        assert_eq!(len.captured, 14 + 20 + 56);
    }

    #[test]
    fn addresses_follow_node_ids() {
        assert_eq!(node_ipv4(3).unwrap(), [10, 0, 0, 3]);
        assert_eq!(node_ipv4(258).unwrap(), [10, 0, 1, 2]);
        assert!(node_ipv4(1 << 24).is_err());
        assert_eq!(node_mac(258), [2, 0, 0, 0, 1, 2]);
        assert_eq!(wire_port(0).unwrap(), 10_000);
        assert!(wire_port(55_536).is_err());
    }
}
