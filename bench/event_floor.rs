//! The floor of a packet-level discrete-event loop on this CPU: nanoseconds per event of
//! the least work every tcpsim event does, measured here so that B1's cost per event can be
//! compared with it (bench/curves.py, docs/performance.md "Cost curves (issue 22)").
//!
//! Each event is popped from a binary heap of `pending` events ordered as tcpsim's
//! scheduler orders them (engine/scheduler.rs: a 32-byte event, time and insertion order
//! compared as one u128 key), its handler reads and writes one packet record of the size
//! of tcpsim's `Packet` (engine/packet.rs) chosen by the event, and schedules one new event
//! a pseudo-random delay later, so the heap keeps `pending` events. Nothing else: no queue,
//! no TCP, no routing. Whatever tcpsim does per event above this is model work.
//!
//! Build and run (bench/curves.py does both; standard library only):
//!
//!     rustc -C opt-level=3 -C codegen-units=1 -o /tmp/event_floor bench/event_floor.rs
//!     /tmp/event_floor 256 20000000      # pending events, events to run
//!
//! Prints one line `pending=P ... events=N cpu_seconds=S ns_per_event=X checksum=C` (CPU time
//! of the loop alone, without building the heap).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// CPU time of this process (Linux `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`): on a shared
/// machine wall time also counts the time other jobs held the core.
fn cpu_seconds() -> f64 {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut t = Timespec { seconds: 0, nanoseconds: 0 };
    // SAFETY: `t` is a valid, writable timespec; the call only writes into it.
    let status = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    t.seconds as f64 + t.nanoseconds as f64 * 1e-9
}

/// tcpsim's `EventKind` has variants of up to three u32 fields; the same size here.
#[derive(Clone, Copy)]
#[allow(dead_code)]
enum Kind {
    Arrive { packet: u32 },
    Timer { agent: u32, timer: u32, generation: u32 },
}

#[derive(Clone, Copy)]
struct Event {
    at: u64,
    seq: u64,
    kind: Kind,
}

impl Event {
    #[inline(always)]
    fn key(&self) -> u128 {
        (self.at as u128) << 64 | self.seq as u128
    }
}
impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    // Reversed: the max-heap pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// The fields of tcpsim's `Packet`, in the same sizes.
#[derive(Clone, Copy, Default)]
#[allow(dead_code)]
struct Packet {
    uid: u64,
    flow: u32,
    source: u32,
    seq: i64,
    size: u32,
    kind: u8,
    ecn: u8,
    tcp_flags: u8,
    hop: u16,
    route: u32,
    sent_at: u64,
    enqueued_at: u64,
    echo_seq: i64,
    ts_echo: u64,
    rtt_hint: u64,
    sack: u32,
}

/// xorshift64*: cheap, so that the delays cost nothing next to the heap.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: event_floor PENDING EVENTS";
    let pending: usize = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let events: u64 = args.get(2).and_then(|a| a.parse().ok()).expect(usage);
    // One packet per pending event, as in a network where most events carry a packet.
    let packet_count = pending.max(1);
    let mut packets = vec![Packet::default(); packet_count];
    let mut heap = BinaryHeap::with_capacity(pending + 1);
    let mut random = 0x9e37_79b9_7f4a_7c15u64;
    let mut seq = 0u64;
    // tcpsim's delays are few constants: a packet's transmission time on a link and the
    // link's propagation delay (B1: 8.32 us and 1 ms on the access links, 83.2 us and 10 ms
    // on the bottleneck, in picoseconds). Each packet keeps one of them, as it would its
    // link; random delays would make the heap's comparisons mispredict far more than a
    // network does.
    const DELAYS: [u64; 4] = [8_320_000, 1_000_000_000, 83_200_000, 10_000_000_000];
    let delay = |packet: usize| DELAYS[packet % DELAYS.len()];
    for i in 0..pending {
        let at = next_random(&mut random) % DELAYS[3];
        heap.push(Event { at, seq, kind: Kind::Arrive { packet: i as u32 } });
        seq += 1;
    }
    let mut checksum = 0u64;
    let start = cpu_seconds();
    for _ in 0..events {
        let ev = heap.pop().expect("the heap keeps `pending` events");
        let now = ev.at;
        let packet = match ev.kind {
            Kind::Arrive { packet } => packet,
            Kind::Timer { agent, .. } => agent,
        } as usize;
        let p = &mut packets[packet];
        p.hop = p.hop.wrapping_add(1);
        p.enqueued_at = now;
        p.seq += 1;
        checksum = checksum.wrapping_add(p.seq as u64 ^ p.size as u64);
        let r = next_random(&mut random);
        let target = (r >> 40) as usize % packet_count;
        heap.push(Event { at: now + delay(target), seq, kind: Kind::Arrive { packet: target as u32 } });
        seq += 1;
    }
    let seconds = cpu_seconds() - start;
    println!(
        "pending={} packets={} packet_bytes={} event_bytes={} events={} cpu_seconds={:.6} ns_per_event={:.3} checksum={}",
        pending,
        packet_count,
        std::mem::size_of::<Packet>(),
        std::mem::size_of::<Event>(),
        events,
        seconds,
        seconds * 1e9 / events as f64,
        checksum
    );
}
