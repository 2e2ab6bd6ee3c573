//! ns-2 packet trace lines, as `$ns trace-all` writes them.
//!
//! Source: ns-2.35 `trace/trace.cc` (`Trace::format`, the untagged, no-TCP-header branch),
//! `trace/basetrace.h` (`TIME_FORMAT`, `round`) and `common/flags.h` (`hdr_flags`). The
//! output was checked byte for byte against the Debian `ns` 2.35 binary running
//! `validation/ns2/trace_probe.tcl` and `validation/ns2/trace_times.tcl` (see the tests).
//!
//! One line per event, twelve space-separated columns:
//!
//! ```text
//! op time from to type size flags fid src.port dst.port seq uid
//! +  0.1  0    2  tcp  1040 ------N 1 0.0 3.0 5 23
//! ```
//!
//! * `time`: seconds, first rounded half up to a whole microsecond (ns-2 rounds with
//!   `floor(t·1e6 + 0.5) / 1e6`), then printed like C's `%.15g`: no trailing zeros, no
//!   decimal point for whole seconds, and exponent form below 1e-4 s (`1.2e-05`).
//! * `type`: `tcp` for TCP data (the SYN included), `ack` for TCP ACKs, `cbr` for UDP
//!   (ns-2 names a UDP packet after the application that made it; tcpsim's UDP source is
//!   CBR).
//! * `flags`: seven characters, `-` when clear (see [`flags_field`]).
//! * `seq`: the data packet number, the cumulative ACK number on an ACK (ns-2's sink puts
//!   it in the TCP header's seqno), the CBR packet count on UDP.
//!
//! Deviations: ns-2 rounds its double clock, tcpsim its integer picosecond clock. The
//! two can print different microseconds only when an event sits within double rounding
//! error of a half microsecond.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use super::{TraceEvent, TraceKind, TraceSink, TracedPacket};
use crate::engine::time::PS_PER_US;
use crate::engine::SimTime;

/// Microseconds in one second: ns-2 prints times rounded to this resolution
/// (`PRECISION 1.0E+6` in basetrace.h).
const US_PER_S: u64 = 1_000_000;

/// Lines are handed to the output this many bytes at a time: one `write` system call per
/// 256 KiB (about 4 700 lines), not per 8 KiB (`BufWriter`'s default): B1 with
/// `ns2 = "all"` writes 102 MB in 10 simulated seconds.
const BUFFER_BYTES: usize = 256 * 1024;

/// Writes ns-2 trace lines for the events of the selected link directions.
///
/// `links`: the `(from_node, to_node)` link directions to record, like one ns-2
/// `$ns trace-queue $n1 $n2` per direction; `None` records every link, like
/// `$ns trace-all`. ns-2 records `+`, `-` and `d` at the link's queue and `r` where the
/// link delivers, so every op of a selected link is written.
///
/// The writer buffers by itself: each line is put together in place at the end of its
/// buffer (no copy of it), and the buffer goes to the output [`BUFFER_BYTES`] at a time.
pub struct Ns2TraceWriter<W: Write> {
    out: W,
    links: Option<HashSet<(u32, u32)>>,
    /// Lines not yet handed to `out`, in `pending[..filled]`; the rest is room for the
    /// next line (at least [`LINE_CAPACITY`] bytes).
    pending: Box<[u8]>,
    filled: usize,
    repeats: Repeats,
}

impl Ns2TraceWriter<File> {
    /// Creates (truncates) the trace file at `path`; the writer buffers it.
    pub fn create(path: &Path, links: Option<HashSet<(u32, u32)>>) -> io::Result<Self> {
        Ok(Ns2TraceWriter::new(File::create(path)?, links))
    }
}

impl<W: Write> Ns2TraceWriter<W> {
    /// A writer over any output (it needs no buffering of its own: the writer hands it
    /// [`BUFFER_BYTES`] at a time).
    pub fn new(out: W, links: Option<HashSet<(u32, u32)>>) -> Self {
        Ns2TraceWriter {
            out,
            links,
            pending: vec![0; BUFFER_BYTES + LINE_CAPACITY].into_boxed_slice(),
            filled: 0,
            repeats: Repeats::new(),
        }
    }

    /// Gives back the output (after [`TraceSink::finish`] to have everything written).
    pub fn into_inner(self) -> W {
        self.out
    }

    fn wants(&self, ev: &TraceEvent) -> bool {
        self.wants_link(ev.from_node, ev.to_node)
    }

    fn wants_link(&self, from: u32, to: u32) -> bool {
        match &self.links {
            None => true,
            Some(links) => links.contains(&(from, to)),
        }
    }

    /// Hands the buffered lines to the output.
    fn write_pending(&mut self) -> io::Result<()> {
        let filled = std::mem::take(&mut self.filled);
        self.out.write_all(&self.pending[..filled])
    }

    /// Writes the line ns-2 writes when a link direction goes down or comes up
    /// (`Link instproc down` / `up` in ns-link.tcl, through the rtmodel's trace):
    /// `v TIME link-down FROM TO` or `v TIME link-up FROM TO`. ns-2 writes it once per
    /// `rtmodel` attached to the link (twice for a down and an up); tcpsim once.
    pub fn link_state(&mut self, time: SimTime, from: u32, to: u32, up: bool) -> io::Result<()> {
        if !self.wants_link(from, to) {
            return Ok(());
        }
        // ns-2 prints `[$ns now]` here, a double through Tcl with tcl_precision 17 (ns-2
        // sets it), not in the packet lines' format: "4", "1.0013000000000001".
        let seconds = time as f64 / (PS_PER_US * US_PER_S) as f64;
        let line = format!("v {} {} {from} {to}\n", format_g17(seconds), if up { "link-up" } else { "link-down" });
        // Behind the packet lines before it: rare, so the buffer is simply emptied first.
        self.write_pending()?;
        self.out.write_all(line.as_bytes())
    }
}

/// Names a packet's columns from `type` to `uid` for [`Ns2TraceWriter::record_packet`].
/// The caller vouches that two packets under equal keys print the same columns: tcpsim's
/// tracer keys a packet by its uid, seq, flow, size and the bits of its type and flags,
/// since a flow's addresses do not change in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PacketKey {
    pub uid: u64,
    pub seq: i64,
    pub flow: u32,
    pub size: u32,
    /// Whatever else tells the columns apart (for tcpsim: the kind, the ECN field, the
    /// TCP flags).
    pub bits: u32,
}

impl<W: Write> Ns2TraceWriter<W> {
    /// Records the event `op` at `time` on link direction `from → to` of the packet under
    /// `key`, the packet itself made by `packet` only when its columns are not remembered
    /// under `key` (B1 traced: for about one line in nine). Writes what [`TraceSink::record`]
    /// writes for the same event.
    pub fn record_packet<'a>(
        &mut self,
        op: super::TraceOp,
        time: SimTime,
        (from, to): (u32, u32),
        key: PacketKey,
        packet: impl FnOnce() -> TracedPacket<'a>,
    ) -> io::Result<()> {
        if !self.wants_link(from, to) {
            return Ok(());
        }
        let room = room_at(&mut self.pending, self.filled);
        let mut line = start_line(room, op, time, from, to, &mut self.repeats);
        line.push_column(self.repeats.keyed_tail(key, packet));
        self.filled += line.len;
        self.write_when_full()
    }

    fn write_when_full(&mut self) -> io::Result<()> {
        if self.filled >= BUFFER_BYTES {
            self.write_pending()?;
        }
        Ok(())
    }
}

impl<W: Write> TraceSink for Ns2TraceWriter<W> {
    fn record(&mut self, ev: &TraceEvent) -> io::Result<()> {
        if !self.wants(ev) {
            return Ok(());
        }
        self.filled += put_line(room_at(&mut self.pending, self.filled), ev, &mut self.repeats);
        self.write_when_full()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.out.flush()
    }
}

/// `x` as C's `%.17g` formats it (what Tcl prints with tcl_precision 17): 17 significant
/// digits, trailing zeros dropped, an exponent below 1e-4 or from 1e17.
pub fn format_g17(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let sci = format!("{:.16e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if x < 0.0 { "-" } else { "" };
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if !(-4..17).contains(&exp) {
        let m = trim(format!("{}.{}", &digits[..1], &digits[1..]));
        return format!("{sign}{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    let fixed = if exp < 0 {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    } else {
        let point = exp as usize + 1;
        format!("{}.{}", &digits[..point], &digits[point..])
    };
    format!("{sign}{}", trim(fixed))
}

/// Writes one trace line, newline included, for `ev`, in one `write_all` (what
/// [`Ns2TraceWriter`] writes for it; the writer also reuses the columns repeated from
/// the lines before).
pub fn write_line<W: Write>(out: &mut W, ev: &TraceEvent) -> io::Result<()> {
    let mut room = [0u8; LINE_CAPACITY];
    let len = put_line(&mut room, ev, &mut Repeats::new());
    out.write_all(&room[..len])
}

/// Puts the trace line of `ev`, newline included, at the start of `room`; returns its
/// length.
///
/// The line is put together with the integer formatting of [`Line`], not `write!`: B1
/// traced with `ns2 = "all"` writes 1.9 million lines in 10 simulated seconds, and
/// `std::fmt`'s machinery per column cost several times the untraced run
/// (docs/performance.md, "Traces and the Python layer"). The time and the columns from
/// `type` to `dst.port` are copied from `repeats` when an earlier line had the same
/// (lines of one event share its time; a flow's packets share all but their size and
/// flags, which seldom change; a packet's columns from `type` to `uid` recur on each
/// link it crosses: `+`, `-` and `r` on each).
fn put_line(room: &mut [u8; LINE_CAPACITY], ev: &TraceEvent, repeats: &mut Repeats) -> usize {
    let mut line = start_line(room, ev.op, ev.time, ev.from_node, ev.to_node, repeats);
    line.push_column(repeats.packet_tail(&ev.packet));
    line.len
}

/// Where the next line goes: the [`LINE_CAPACITY`] bytes after the `filled` of `pending`.
fn room_at(pending: &mut [u8], filled: usize) -> &mut [u8; LINE_CAPACITY] {
    (&mut pending[filled..filled + LINE_CAPACITY]).try_into().expect("LINE_CAPACITY bytes")
}

/// `op time from to` of a line, at the start of `room`.
fn start_line<'r>(
    room: &'r mut [u8; LINE_CAPACITY],
    op: super::TraceOp,
    time: SimTime,
    from: u32,
    to: u32,
    repeats: &mut Repeats,
) -> Line<'r> {
    let mut line = Line::over(room);
    line.push([op.ns2_letter(), b' ']);
    line.push_column(repeats.time(time));
    line.push(*b" ");
    line.push_u32(from);
    line.push(*b" ");
    line.push_u32(to);
    line
}

/// Room for the longest trace line (159 bytes: the op, a time of at most 20 + 1 + 6
/// characters, seven u32 columns of at most 10 digits, `seq` with its sign and `uid` of
/// at most 20 characters each, the type, the flags, eleven separators and the newline)
/// plus what a [`Column`] copies past its text (see [`Line::push_column`]).
const LINE_CAPACITY: usize = 256;

/// A column (or run of columns) formatted once: its text is `bytes[..len]`, the rest
/// zeros or an older text. Copied whole (a copy of a length the compiler knows), then cut
/// to `len`.
#[derive(Clone, Copy)]
struct Column<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Column<N> {
    /// The text `write` puts in a line of `N` bytes.
    fn new(write: impl FnOnce(&mut Line<N>)) -> Self {
        let mut bytes = [0u8; N];
        let mut line = Line::over(&mut bytes);
        write(&mut line);
        let len = line.len;
        Column { bytes, len }
    }

    /// Replaces the text with what `write` puts in a line of `N` bytes, in place (the
    /// bytes past the new text keep the old; a column is cut to its `len` once copied).
    fn rewrite(&mut self, write: impl FnOnce(&mut Line<N>)) {
        let mut line = Line::over(&mut self.bytes);
        write(&mut line);
        self.len = line.len;
    }

    fn text(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The longest time column (`18446744.073710` s, the end of the picosecond clock, has 15
/// characters), rounded up.
const TIME_COLUMN_BYTES: usize = 32;

/// The longest run from `type` to `dst.port`, spaces around it included (79 bytes: the
/// type, the flags, five u32 numbers, two dots and six spaces), rounded up.
const PACKET_COLUMNS_BYTES: usize = 96;

/// What identifies the columns from `type` to `dst.port` of a line.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PacketColumnsKey {
    kind: TraceKind,
    size: u32,
    ecn: super::EcnCodepoint,
    ece: bool,
    cwr: bool,
    flow: u32,
    src_node: u32,
    src_port: u32,
    dst_node: u32,
    dst_port: u32,
}

impl PacketColumnsKey {
    fn of(p: &TracedPacket) -> Self {
        PacketColumnsKey {
            kind: p.kind,
            size: p.size,
            ecn: p.ecn,
            ece: p.ece,
            cwr: p.cwr,
            flow: p.flow,
            src_node: p.src_node,
            src_port: p.src_port,
            dst_node: p.dst_node,
            dst_port: p.dst_port,
        }
    }
}

/// The longest run from `type` to the newline (79 bytes to `dst.port` and its space,
/// then `seq uid` and the newline, 42), rounded up: also room for a packet-columns
/// [`Column`] copied whole (96 bytes) at its start.
const PACKET_TAIL_BYTES: usize = 128;

/// What identifies the columns from `type` to the newline of a line: a packet as it
/// crosses a link (its size and flags may change on the way: a CE mark).
#[derive(Clone, Copy, PartialEq, Eq)]
struct PacketTailKey {
    seq: i64,
    uid: u64,
    columns: PacketColumnsKey,
}

/// Remembered packet tails (the columns from `type` to `uid`), one slot per uid modulo
/// the slots: enough for the packets in flight of B1 and its like (about 800 uids are given out while a packet
/// crosses B1's dumbbell: 17 000 packets a second, data and ACKs, over 50 ms of
/// propagation and queueing).
const PACKET_NUMBER_SLOTS: usize = 2048;

/// Remembered packet columns: one slot per flow and direction (modulo the slots), so
/// the data and the ACKs of a few hundred flows each find their own.
const PACKET_COLUMN_SLOTS: usize = 512;

/// The columns that repeat from line to line, each formatted the first time and copied
/// while it stays the same. Only a cache: every entry holds what it was formatted from
/// and is formatted again when that differs, so lines never depend on what came before.
struct Repeats {
    /// The time column of the last line.
    time: (SimTime, Column<TIME_COLUMN_BYTES>),
    /// ` type size flags fid src.port dst.port ` of the last packet seen in each slot.
    packets: Box<[Remembered<PacketColumnsKey, PACKET_COLUMNS_BYTES>]>,
    /// ` type size flags fid src.port dst.port seq uid\n` of the last packet seen in
    /// each slot (uid modulo the slots): a packet's `+`, `-` and `r` on every link it
    /// crosses copy it whole, one look-up a line. Made from `packets` when it misses.
    tails: Box<[Remembered<PacketTailKey, PACKET_TAIL_BYTES>]>,
    /// The same under the caller's [`PacketKey`] ([`Ns2TraceWriter::record_packet`]).
    keyed_tails: Box<[Remembered<PacketKey, PACKET_TAIL_BYTES>]>,
}

/// A slot of [`Repeats`]: a column and what it was formatted from, once filled.
type Remembered<K, const N: usize> = Option<(K, Column<N>)>;

impl Repeats {
    fn new() -> Self {
        Repeats {
            time: (0, Column::new(|l| l.push_time(0))),
            packets: vec![None; PACKET_COLUMN_SLOTS].into_boxed_slice(),
            tails: vec![None; PACKET_NUMBER_SLOTS].into_boxed_slice(),
            keyed_tails: vec![None; PACKET_NUMBER_SLOTS].into_boxed_slice(),
        }
    }

    fn time(&mut self, t: SimTime) -> &Column<TIME_COLUMN_BYTES> {
        if self.time.0 != t {
            self.time.0 = t;
            self.time.1.rewrite(|l| l.push_time(t));
        }
        &self.time.1
    }

    fn packet_columns(&mut self, p: &TracedPacket) -> &Column<PACKET_COLUMNS_BYTES> {
        remembered_columns(&mut self.packets, p)
    }

    /// ` type size flags fid src.port dst.port seq uid\n` of `p`.
    fn packet_tail(&mut self, p: &TracedPacket) -> &Column<PACKET_TAIL_BYTES> {
        let key = PacketTailKey { seq: p.seq, uid: p.uid, columns: PacketColumnsKey::of(p) };
        let slot = p.uid as usize % PACKET_NUMBER_SLOTS;
        if !matches!(&self.tails[slot], Some((k, _)) if *k == key) {
            let columns = *self.packet_columns(p);
            let tail = Column::new(|l| {
                l.push_column(&columns);
                l.push_packet_numbers(p);
            });
            self.tails[slot] = Some((key, tail));
        }
        &self.tails[slot].as_ref().expect("filled above").1
    }

    /// ` type size flags fid src.port dst.port seq uid\n` of the packet under `key`,
    /// made by `packet` when not remembered.
    fn keyed_tail<'a>(&mut self, key: PacketKey, packet: impl FnOnce() -> TracedPacket<'a>) -> &Column<PACKET_TAIL_BYTES> {
        let slot = key.uid as usize % PACKET_NUMBER_SLOTS;
        let Repeats { packets, keyed_tails, .. } = self;
        let entry = keyed_tails[slot].get_or_insert_with(|| (key, Column::new(|_| ())));
        // A slot just filled holds the key but no text yet (no tail is empty).
        if entry.0 != key || entry.1.len == 0 {
            // Formatted in place: a miss (about one line in nine on B1) costs no copy of
            // the slot.
            let p = packet();
            let columns = remembered_columns(packets, &p);
            entry.0 = key;
            entry.1.rewrite(|l| {
                l.push_column(columns);
                l.push_packet_numbers(&p);
            });
        }
        &entry.1
    }
}

/// ` type size flags fid src.port dst.port ` of `p`, from its flow's slot of `packets`
/// (formatted again when the slot holds other columns).
fn remembered_columns<'r>(
    packets: &'r mut [Remembered<PacketColumnsKey, PACKET_COLUMNS_BYTES>],
    p: &TracedPacket,
) -> &'r Column<PACKET_COLUMNS_BYTES> {
    let key = PacketColumnsKey::of(p);
    let slot = (p.flow as usize * 2 + usize::from(p.kind == TraceKind::TcpAck)) % PACKET_COLUMN_SLOTS;
    let entry = &mut packets[slot];
    if !matches!(entry, Some((k, _)) if *k == key) {
        *entry = Some((key, Column::new(|l| l.push_packet_columns(p))));
    }
    &entry.as_ref().expect("filled above").1
}

/// One trace line (or [`Column`]) being put together in a buffer of `CAP` bytes: each
/// column appended with copies of a length the compiler knows (none through `memcpy`),
/// integers written two digits at a time from a table (the same digits `Display`
/// writes).
struct Line<'a, const CAP: usize = LINE_CAPACITY> {
    bytes: &'a mut [u8; CAP],
    len: usize,
}

/// "00" to "99", two bytes each: a decimal number is written two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

impl<'a, const CAP: usize> Line<'a, CAP> {
    fn over(bytes: &'a mut [u8; CAP]) -> Self {
        Line { bytes, len: 0 }
    }

    #[cfg(test)]
    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn push<const N: usize>(&mut self, text: [u8; N]) {
        self.bytes[self.len..self.len + N].copy_from_slice(&text);
        self.len += N;
    }

    /// Copies the whole of `column` (its zeros past the text are overwritten by the next
    /// column) and keeps its text.
    fn push_column<const N: usize>(&mut self, column: &Column<N>) {
        self.bytes[self.len..self.len + N].copy_from_slice(&column.bytes);
        self.len += column.len;
    }

    /// ` type size flags fid src.port dst.port `, spaces around it included.
    fn push_packet_columns(&mut self, p: &TracedPacket) {
        self.push(*b" ");
        self.push(match p.kind {
            TraceKind::TcpData => *b"tcp",
            TraceKind::TcpAck => *b"ack",
            TraceKind::Udp => *b"cbr",
        });
        self.push(*b" ");
        self.push_u32(p.size);
        self.push(*b" ");
        self.push(flags_field(p));
        self.push(*b" ");
        self.push_u32(p.flow);
        self.push(*b" ");
        self.push_u32(p.src_node);
        self.push(*b".");
        self.push_u32(p.src_port);
        self.push(*b" ");
        self.push_u32(p.dst_node);
        self.push(*b".");
        self.push_u32(p.dst_port);
        self.push(*b" ");
    }

    /// `seq uid` and the newline.
    fn push_packet_numbers(&mut self, p: &TracedPacket) {
        self.push_i64(p.seq);
        self.push(*b" ");
        self.push_u64(p.uid);
        self.push(*b"\n");
    }

    /// Numbers below 100 (node numbers of small topologies) as one or two bytes, inline.
    #[inline(always)]
    fn push_u32(&mut self, n: u32) {
        if n < 10 {
            return self.push([b'0' + n as u8]);
        }
        if n < 100 {
            let pair = n as usize * 2;
            return self.push([DIGIT_PAIRS[pair], DIGIT_PAIRS[pair + 1]]);
        }
        self.push_u64(n.into());
    }

    /// Writes the digits of `n` in place, the last two first: their count (from
    /// `ilog10`) says where the number ends.
    fn push_u64(&mut self, mut n: u64) {
        if n < 10 {
            return self.push([b'0' + n as u8]);
        }
        let end = self.len + n.ilog10() as usize + 1;
        let mut at = end;
        while n >= 100 {
            let pair = (n % 100) as usize * 2;
            n /= 100;
            at -= 2;
            self.bytes[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if n >= 10 {
            let pair = n as usize * 2;
            self.bytes[at - 2..at].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            self.bytes[at - 1] = b'0' + n as u8;
        }
        self.len = end;
    }

    fn push_i64(&mut self, n: i64) {
        if n < 0 {
            self.push(*b"-");
        }
        self.push_u64(n.unsigned_abs());
    }

    /// `n` (below 10^6, not 0) as six digits, leading zeros kept and trailing zeros
    /// dropped: the decimals of a time in microseconds.
    fn push_microseconds(&mut self, n: u64) {
        let pair = |p: u64| [DIGIT_PAIRS[p as usize * 2], DIGIT_PAIRS[p as usize * 2 + 1]];
        let ([a, b], [c, d], [e, f]) = (pair(n / 10_000), pair(n / 100 % 100), pair(n % 100));
        self.push([a, b, c, d, e, f]);
        while self.bytes[self.len - 1] == b'0' {
            self.len -= 1;
        }
    }

    /// The time column, as [`write_time`] describes it.
    fn push_time(&mut self, t: SimTime) {
        let us = t / PS_PER_US + u64::from(t % PS_PER_US >= PS_PER_US / 2);
        if us == 0 {
            return self.push(*b"0");
        }
        if us < 10 {
            self.push_u64(us);
            return self.push(*b"e-06");
        }
        if us < 100 {
            let (lead, rest) = (us / 10, us % 10);
            self.push_u64(lead);
            if rest != 0 {
                self.push(*b".");
                self.push_u64(rest);
            }
            return self.push(*b"e-05");
        }
        let (secs, frac) = (us / US_PER_S, us % US_PER_S);
        self.push_u64(secs);
        if frac != 0 {
            self.push(*b".");
            self.push_microseconds(frac);
        }
    }
}

/// The ns-2 packet type name (`packet_info.name`) of a traced packet.
pub fn type_name(kind: TraceKind) -> &'static str {
    match kind {
        TraceKind::TcpData => "tcp",
        TraceKind::TcpAck => "ack",
        TraceKind::Udp => "cbr",
    }
}

/// The seven-character flags column. Position by position (`Trace::format`, names from
/// `hdr_flags`):
///
/// | pos | letter | ns-2 field | meaning | tcpsim source |
/// |---|---|---|---|---|
/// | 0 | `C` | `ecn_` (`ecnecho()`) | TCP ECN-Echo | `ece` |
/// | 1 | `P` | `pri_` | priority (unused in ns-2) | never set |
/// | 2 | `-` | — | always `-` | — |
/// | 3 | `A` | `cong_action_` (`cwr()`) | TCP CWR | `cwr` |
/// | 4 | `E` | `ecn_to_echo_` (`ce()`) | IP CE mark | `ecn == Ce` |
/// | 5 | `F` | `fs_` | TCP fast start | never set |
/// | 6 | `N` | `ecn_capable_` (`ect()`) | IP ECT | `ecn != NotEct` |
///
/// ns-2 marks CE by setting `ce()` and leaves `ect()` set, so a marked packet shows
/// `----E-N`; tcpsim's `Ce` codepoint is ECN-capable too and prints the same.
pub fn flags_field(p: &TracedPacket) -> [u8; 7] {
    let letter = |on: bool, c: u8| if on { c } else { b'-' };
    [
        letter(p.ece, b'C'),
        b'-',
        b'-',
        letter(p.cwr, b'A'),
        letter(p.ecn == super::EcnCodepoint::Ce, b'E'),
        b'-',
        letter(p.ecn.capable(), b'N'),
    ]
}

/// Writes `t` as ns-2 prints its clock: `%.15g` of the time rounded half up to 1 µs.
///
/// `%g` with precision 15 uses fixed notation when the decimal exponent X of the value
/// satisfies -4 <= X < 15 and exponent notation otherwise. A whole number of µs below
/// 2^64 ps has at most 14 significant digits, so `%.15g` never rounds it and prints
/// exactly its decimal digits, trailing zeros removed. Only values below 1e-4 s (1..99 µs)
/// take exponent form, `d[.d]e-0X` with a two-digit exponent.
pub fn write_time<W: Write>(out: &mut W, t: SimTime) -> io::Result<()> {
    out.write_all(Column::<TIME_COLUMN_BYTES>::new(|l| l.push_time(t)).text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::{PS_PER_MS, PS_PER_S};
    use crate::monitor::trace::{EcnCodepoint, TraceOp};

    fn time_str(t: SimTime) -> String {
        let mut s = Vec::new();
        write_time(&mut s, t).unwrap();
        String::from_utf8(s).unwrap()
    }

    fn line(ev: &TraceEvent) -> String {
        let mut s = Vec::new();
        write_line(&mut s, ev).unwrap();
        String::from_utf8(s).unwrap()
    }

    /// Every number of digits and its neighbours, both signs and the extremes.
    fn numbers() -> Vec<i128> {
        let mut n: Vec<i128> = vec![0, 1, 9, u64::MAX as i128, i64::MIN as i128, i64::MAX as i128];
        let mut power: i128 = 10;
        while power <= u64::MAX as i128 {
            for x in [power - 1, power, power + 1, power * 5 + 7] {
                n.extend([x, -x]);
            }
            power *= 10;
        }
        n
    }

    #[test]
    fn line_integers_are_the_digits_display_writes() {
        for n in numbers() {
            let mut room = [0u8; LINE_CAPACITY];
            let mut line = Line::over(&mut room);
            if let Ok(u) = u64::try_from(n) {
                line.push_u64(u);
                assert_eq!(line.bytes(), u.to_string().as_bytes(), "u64 {u}");
            }
            if let Ok(i) = i64::try_from(n) {
                let mut room = [0u8; LINE_CAPACITY];
                let mut line = Line::over(&mut room);
                line.push_i64(i);
                assert_eq!(line.bytes(), i.to_string().as_bytes(), "i64 {i}");
            }
        }
        for n in [1u64, 7, 10, 99, 100, 12_345, 100_000, 120_000, 999_999] {
            let mut room = [0u8; LINE_CAPACITY];
            let mut line = Line::over(&mut room);
            line.push(*b"x");
            line.push_microseconds(n);
            assert_eq!(line.bytes(), format!("x{n:06}").trim_end_matches('0').as_bytes());
        }
    }

    #[test]
    fn the_longest_line_fits() {
        let mut p = tcp_data(i64::MIN, u64::MAX);
        (p.size, p.flow, p.src_node, p.src_port, p.dst_node, p.dst_port) =
            (u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX);
        let ev = TraceEvent { op: TraceOp::Drop, time: SimTime::MAX, from_node: u32::MAX, to_node: u32::MAX, packet: p };
        assert_eq!(line(&ev).len(), 159); // within LINE_CAPACITY; the time has 8 + 1 + 6 characters
    }

    /// The TCP flow of trace_probe.tcl: Reno at node 0 port 0 to a TCPSink at node 3
    /// port 0, fid 1, ECN on, SYN on, 1000-byte payload.
    fn tcp_data(seq: i64, uid: u64) -> TracedPacket<'static> {
        super::super::example::data(seq, uid)
    }

    fn tcp_ack(seq: i64, uid: u64) -> TracedPacket<'static> {
        super::super::example::ack(seq, uid, &[])
    }

    /// The CBR of trace_probe.tcl: node 1 port 0 to a Null agent at node 3 port 1, fid 2,
    /// 500-byte packets.
    fn cbr(seq: i64, uid: u64) -> TracedPacket<'static> {
        TracedPacket {
            uid,
            kind: TraceKind::Udp,
            size: 500,
            header_size: 0,
            flow: 2,
            src_node: 1,
            src_port: 0,
            dst_node: 3,
            dst_port: 1,
            seq,
            payload: 500,
            syn: false,
            opens_with_syn: false,
            ecn: EcnCodepoint::NotEct,
            ece: false,
            cwr: false,
            sack: &[],
        }
    }

    fn ev(op: TraceOp, time: SimTime, from_node: u32, to_node: u32, packet: TracedPacket) -> TraceEvent {
        TraceEvent { op, time, from_node, to_node, packet }
    }

    // ---- Lines copied from real ns-2.35 output -------------------------------------

    /// Excerpt of `ns validation/ns2/trace_probe.tcl` (Debian ns2 2.35; out.tr): SYN with
    /// ECN-Echo (ns-2's ECN-setup SYN), the sink's ACK, data with ECT, a RED drop, a CE
    /// mark, CWR, an ECN-Echo ACK, a CBR drop and a CBR enqueue at 12.3 µs. Times are
    /// given in picoseconds off the microsecond grid where ns-2's clock is (0.3149346667 s
    /// for the 0.314935 line), to exercise the rounding.
    #[test]
    fn lines_match_ns2_trace_probe_output() {
        let mut syn = tcp_data(0, 25);
        syn.size = 40;
        syn.syn = true;
        syn.ece = true;
        syn.ecn = EcnCodepoint::NotEct;
        let mut syn_ack = tcp_ack(0, 32);
        syn_ack.ece = true;
        syn_ack.syn = true;
        let ce = TracedPacket { ecn: EcnCodepoint::Ce, ..tcp_data(113, 807) };
        let cwr = TracedPacket { cwr: true, ..tcp_data(18, 171) };
        let ece_ack = TracedPacket { ece: true, ..tcp_ack(113, 825) };
        let cases = [
            (ev(TraceOp::Enqueue, 100 * PS_PER_MS, 0, 2, syn), "+ 0.1 0 2 tcp 40 C------ 1 0.0 3.0 0 25"),
            (ev(TraceOp::Receive, 142_458_800_000, 3, 2, syn_ack), "r 0.142459 3 2 ack 40 C------ 1 3.0 0.0 0 32"),
            (
                ev(TraceOp::Enqueue, 144_491_000_000, 0, 2, tcp_data(1, 39)),
                "+ 0.144491 0 2 tcp 1040 ------N 1 0.0 3.0 1 39",
            ),
            (
                ev(TraceOp::Enqueue, 174_626_000_000, 3, 2, tcp_ack(1, 48)),
                "+ 0.174626 3 2 ack 40 ------- 1 3.0 0.0 1 48",
            ),
            (
                ev(TraceOp::Drop, 314_934_666_667, 2, 3, tcp_data(18, 107)),
                "d 0.314935 2 3 tcp 1040 ------N 1 0.0 3.0 18 107",
            ),
            (ev(TraceOp::Dequeue, 2_240_279_000_000, 2, 3, ce), "- 2.240279 2 3 tcp 1040 ----E-N 1 0.0 3.0 113 807"),
            (ev(TraceOp::Receive, 2_265_826_000_000, 2, 3, ce), "r 2.265826 2 3 tcp 1040 ----E-N 1 0.0 3.0 113 807"),
            (ev(TraceOp::Enqueue, 441_831_000_000, 0, 2, cwr), "+ 0.441831 0 2 tcp 1040 ---A--N 1 0.0 3.0 18 171"),
            (ev(TraceOp::Enqueue, 2_265_826_000_000, 3, 2, ece_ack), "+ 2.265826 3 2 ack 40 C------ 1 3.0 0.0 113 825"),
            (ev(TraceOp::Drop, 314_412_000_000, 2, 3, cbr(78, 108)), "d 0.314412 2 3 cbr 500 ------- 2 1.0 3.1 78 108"),
            (ev(TraceOp::Enqueue, 12_300_000, 1, 2, cbr(0, 0)), "+ 1.2e-05 1 2 cbr 500 ------- 2 1.0 3.1 0 0"),
            (ev(TraceOp::Receive, 2_412_000_000, 1, 2, cbr(0, 0)), "r 0.002412 1 2 cbr 500 ------- 2 1.0 3.1 0 0"),
        ];
        for (event, expected) in cases {
            assert_eq!(line(&event), format!("{expected}\n"));
        }
    }

    /// Excerpt of `ns validation/ns2/trace_times.tcl` (Debian ns2 2.35; times.tr): one CBR
    /// packet started at each of 0.000005, 0.0000999, 0.00012345, 1.0, 12.25 and
    /// 1234.5678915 s, on a node 0 → node 1 link of 100 Mb/s, 1 ms.
    #[test]
    fn lines_match_ns2_trace_times_output() {
        let probe = |fid: u32, port: u32, uid: u64| TracedPacket {
            size: 100,
            flow: fid,
            src_node: 0,
            src_port: port,
            dst_node: 1,
            dst_port: 0,
            seq: 0,
            uid,
            ..cbr(0, 0)
        };
        let cases = [
            (ev(TraceOp::Enqueue, 5_000_000, 0, 1, probe(10, 0, 0)), "+ 5e-06 0 1 cbr 100 ------- 10 0.0 1.0 0 0"),
            (ev(TraceOp::Dequeue, 99_900_000, 0, 1, probe(11, 1, 1)), "- 0.0001 0 1 cbr 100 ------- 11 0.1 1.0 0 1"),
            (ev(TraceOp::Enqueue, 123_450_000, 0, 1, probe(12, 2, 2)), "+ 0.000123 0 1 cbr 100 ------- 12 0.2 1.0 0 2"),
            (
                ev(TraceOp::Receive, 1_013_000_000, 0, 1, probe(10, 0, 0)),
                "r 0.001013 0 1 cbr 100 ------- 10 0.0 1.0 0 0",
            ),
            (ev(TraceOp::Enqueue, PS_PER_S, 0, 1, probe(13, 3, 3)), "+ 1 0 1 cbr 100 ------- 13 0.3 1.0 0 3"),
            (
                ev(TraceOp::Dequeue, 12_250_000_000_000, 0, 1, probe(14, 4, 4)),
                "- 12.25 0 1 cbr 100 ------- 14 0.4 1.0 0 4",
            ),
            (
                ev(TraceOp::Enqueue, 1_234_567_891_500_000, 0, 1, probe(15, 5, 5)),
                "+ 1234.567892 0 1 cbr 100 ------- 15 0.5 1.0 0 5",
            ),
            (
                ev(TraceOp::Receive, 1_234_568_899_500_000, 0, 1, probe(15, 5, 5)),
                "r 1234.5689 0 1 cbr 100 ------- 15 0.5 1.0 0 5",
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(line(&event), format!("{expected}\n"));
        }
    }

    // ---- Time column --------------------------------------------------------------

    #[test]
    fn link_state_times_print_as_tcl_does_with_precision_17() {
        // Values from ns-2.35 traces: `v 4 link-down ...`, `v 1.0013000000000001 ...`.
        assert_eq!(format_g17(4.0), "4");
        assert_eq!(format_g17(1.0013), "1.0013000000000001");
        assert_eq!(format_g17(0.5), "0.5");
        assert_eq!(format_g17(0.0), "0");
        assert_eq!(format_g17(12.5), "12.5");
        assert_eq!(format_g17(5e-5), "5.0000000000000002e-05");
        assert_eq!(format_g17(0.001), "0.001");
    }

    #[test]
    fn time_rounds_half_microsecond_up() {
        // basetrace.h round(): floor(x·1e6 + 0.5)/1e6.
        assert_eq!(time_str(1_499_999), "1e-06");
        assert_eq!(time_str(1_500_000), "2e-06");
        assert_eq!(time_str(499_999), "0");
        assert_eq!(time_str(500_000), "1e-06");
    }

    #[test]
    fn time_switches_from_exponent_to_fixed_at_1e_minus_4() {
        // %g: exponent form when the decimal exponent is below -4.
        assert_eq!(time_str(0), "0");
        assert_eq!(time_str(10 * PS_PER_US), "1e-05");
        assert_eq!(time_str(99 * PS_PER_US), "9.9e-05");
        assert_eq!(time_str(100 * PS_PER_US), "0.0001");
        assert_eq!(time_str(101 * PS_PER_US), "0.000101");
    }

    #[test]
    fn time_keeps_all_digits_of_long_runs() {
        // 86400.000001 s has 11 significant digits: within %.15g.
        assert_eq!(time_str(86_400 * PS_PER_S + PS_PER_US), "86400.000001");
        assert_eq!(time_str(100_000 * PS_PER_S), "100000");
    }

    // ---- Selection and the sink -----------------------------------------------------

    #[test]
    fn link_selection_keeps_only_the_listed_directions() {
        let links: HashSet<(u32, u32)> = [(2, 3)].into_iter().collect();
        let mut w = Ns2TraceWriter::new(Vec::new(), Some(links));
        w.record(&ev(TraceOp::Enqueue, PS_PER_S, 0, 2, tcp_data(1, 1))).unwrap();
        w.record(&ev(TraceOp::Enqueue, PS_PER_S, 2, 3, tcp_data(1, 1))).unwrap();
        w.record(&ev(TraceOp::Receive, PS_PER_S, 3, 2, tcp_ack(1, 2))).unwrap();
        w.record(&ev(TraceOp::Drop, 2 * PS_PER_S, 2, 3, tcp_data(2, 3))).unwrap();
        w.finish().unwrap();
        let text = String::from_utf8(w.into_inner()).unwrap();
        assert_eq!(
            text,
            "+ 1 2 3 tcp 1040 ------N 1 0.0 3.0 1 1\n\
             d 2 2 3 tcp 1040 ------N 1 0.0 3.0 2 3\n"
        );
    }

    /// The writer copies repeated columns from earlier lines; its lines must be those
    /// formatted from scratch, also when a remembered column is taken over by another
    /// flow, another packet with the same slot, or a change of size or flags.
    #[test]
    fn repeated_columns_give_the_lines_formatted_from_scratch() {
        let far_flow = PACKET_COLUMN_SLOTS as u32 / 2; // shares flow 0's slots
        let far_uid = PACKET_NUMBER_SLOTS as u64; // shares uid 0's slot
        let mut events = Vec::new();
        for (i, t) in [0, 0, 5_000_000, 5_000_000, PS_PER_S, PS_PER_S, PS_PER_S + 1, 2 * PS_PER_S].into_iter().enumerate() {
            let i = i as u64;
            let mut data = tcp_data(i as i64, i % 2 * far_uid);
            data.flow = if i.is_multiple_of(3) { far_flow } else { 0 };
            data.size = if i == 4 { 40 } else { 1040 };
            data.ecn = if i == 5 { EcnCodepoint::Ce } else { EcnCodepoint::Ect0 };
            events.push(ev(TraceOp::Enqueue, t, 0, 2, data));
            events.push(ev(TraceOp::Dequeue, t, 0, 2, data));
            events.push(ev(TraceOp::Receive, t, 2, 3, tcp_ack(i as i64 - 1, far_uid + i % 2)));
            events.push(ev(TraceOp::Enqueue, t, 1, 2, cbr(i as i64, far_uid * 2)));
        }
        let mut w = Ns2TraceWriter::new(Vec::new(), None);
        let mut expected = String::new();
        for e in &events {
            w.record(e).unwrap();
            expected += &line(e);
        }
        w.finish().unwrap();
        assert_eq!(String::from_utf8(w.into_inner()).unwrap(), expected);
        assert!(expected.contains(&format!(" {far_flow} 0.0 3.0 0 0\n")), "{expected}");
    }

    /// `record_packet` writes what `record` writes, whether the packet's columns are
    /// remembered under its key or made again (another packet in the slot, a changed key).
    #[test]
    fn keyed_packets_give_the_lines_of_their_records() {
        let far_uid = PACKET_NUMBER_SLOTS as u64; // shares uid 0's slot
        let key = |p: &TracedPacket| PacketKey { uid: p.uid, seq: p.seq, flow: p.flow, size: p.size, bits: p.ecn as u32 };
        let mut events = Vec::new();
        for (i, t) in [0, 0, 5_000_000, PS_PER_S, PS_PER_S + 1, 2 * PS_PER_S].into_iter().enumerate() {
            let i = i as u64;
            let mut data = tcp_data(i as i64 / 2, i % 2 * far_uid);
            data.size = if i == 3 { 40 } else { 1040 };
            data.ecn = if i == 4 { EcnCodepoint::Ce } else { EcnCodepoint::Ect0 };
            for op in [TraceOp::Enqueue, TraceOp::Dequeue, TraceOp::Receive] {
                events.push(ev(op, t, 0, 2, data));
            }
            events.push(ev(TraceOp::Receive, t, 2, 3, tcp_ack(i as i64 - 1, far_uid + i % 2)));
        }
        let (mut by_record, mut by_key) = (Ns2TraceWriter::new(Vec::new(), None), Ns2TraceWriter::new(Vec::new(), None));
        let mut made = 0;
        for e in &events {
            by_record.record(e).unwrap();
            by_key
                .record_packet(e.op, e.time, (e.from_node, e.to_node), key(&e.packet), || {
                    made += 1;
                    e.packet
                })
                .unwrap();
        }
        by_record.finish().unwrap();
        by_key.finish().unwrap();
        assert_eq!(String::from_utf8(by_key.into_inner()).unwrap(), String::from_utf8(by_record.into_inner()).unwrap());
        assert!(made < events.len(), "remembered columns are reused ({made} of {} made)", events.len());
    }

    #[test]
    fn link_state_lines_follow_the_lines_before_them() {
        let mut w = Ns2TraceWriter::new(Vec::new(), None);
        w.record(&ev(TraceOp::Enqueue, PS_PER_S, 0, 2, tcp_data(1, 1))).unwrap();
        w.link_state(4 * PS_PER_S, 0, 2, false).unwrap();
        w.record(&ev(TraceOp::Enqueue, 5 * PS_PER_S, 0, 2, tcp_data(2, 2))).unwrap();
        w.finish().unwrap();
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "+ 1 0 2 tcp 1040 ------N 1 0.0 3.0 1 1\n\
             v 4 link-down 0 2\n\
             + 5 0 2 tcp 1040 ------N 1 0.0 3.0 2 2\n"
        );
    }

    #[test]
    fn no_selection_records_every_link() {
        let mut w = Ns2TraceWriter::new(Vec::new(), None);
        w.record(&ev(TraceOp::Enqueue, PS_PER_S, 0, 2, tcp_data(1, 1))).unwrap();
        w.record(&ev(TraceOp::Receive, PS_PER_S, 3, 2, tcp_ack(1, 2))).unwrap();
        w.finish().unwrap();
        assert_eq!(String::from_utf8(w.into_inner()).unwrap().lines().count(), 2);
    }

    #[test]
    fn flags_of_every_ecn_state() {
        let data = tcp_data(5, 9);
        let f = |p: TracedPacket| String::from_utf8(flags_field(&p).to_vec()).unwrap();
        assert_eq!(f(TracedPacket { ecn: EcnCodepoint::NotEct, ..data }), "-------");
        assert_eq!(f(TracedPacket { ecn: EcnCodepoint::Ect1, ..data }), "------N");
        assert_eq!(f(TracedPacket { ecn: EcnCodepoint::Ce, cwr: true, ..data }), "---AE-N");
        assert_eq!(f(TracedPacket { ecn: EcnCodepoint::NotEct, ece: true, cwr: true, ..data }), "C--A---");
    }

    #[test]
    fn ack_before_any_data_prints_minus_one() {
        // A sink that has seen nothing acknowledges -1 (flows without a SYN).
        let e = ev(TraceOp::Dequeue, PS_PER_S, 3, 2, tcp_ack(-1, 4));
        assert_eq!(line(&e), "- 1 3 2 ack 40 ------- 1 3.0 0.0 -1 4\n");
    }
}
