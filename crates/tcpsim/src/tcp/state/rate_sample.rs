//! Delivery-rate samples: how fast the network delivered this flow's packets, measured
//! per ACK, for the congestion controls that ask (`CongestionControl::wants_rate_samples`).
//!
//! Cheng, Cardwell, Hassas Yeganeh, Jacobson, "Delivery Rate Estimation",
//! draft-cheng-iccrg-delivery-rate-estimation-01 (2021), §3 (the algorithm), as Linux's
//! `net/ipv4/tcp_rate.c` runs it:
//!
//!   when a packet P departs:   if nothing is in the network, C.first_sent_time ←
//!                              C.delivered_time ← now; P records C.delivered,
//!                              C.delivered_time, C.first_sent_time, its send time and
//!                              whether C is app-limited (§3.2)
//!   when an ACK delivers P:    C.delivered + 1, C.delivered_time ← now; the sample takes
//!                              its "prior" values from the most recently sent packet
//!                              delivered (§3.3 UpdateRateSample, IsNewestPacket)
//!   per ACK:                   delivered = C.delivered − P.delivered,
//!                              interval = max(send_elapsed, ack_elapsed) with
//!                              send_elapsed = P.sent − P.first_sent and
//!                              ack_elapsed = C.delivered_time − P.delivered_time;
//!                              delivery_rate = delivered / interval, none when interval
//!                              < min RTT ("Normally we expect interval >= MinRTT", §3.3)
//!   app-limited (§3.4):        when the sender has no new data and the window is not full,
//!                              C.app_limited ← max(C.delivered + in flight, 1); samples of
//!                              packets sent meanwhile are marked app-limited until
//!                              C.delivered passes that mark.
//!
//! Packet counting (the draft and Linux count bytes or MSS-sized segments; this stack
//! counts packets as ns-2 does): `delivered` counts packets; a packet is delivered once,
//! by a SACK block or by the cumulative ACK, whichever comes first. An ACK without SACK
//! blocks that repeats the cumulative ACK counts as one delivered packet, and a later
//! cumulative advance of n packets then counts max(n − such credits, 1), as Linux's
//! `tcp_add_reno_sack` / `tcp_remove_reno_sacks` do for a connection without SACK.
//!
//! A packet's send time is when it leaves the sender for the wire (the TCP agent reports
//! each departure, after any pacing wait), not when the window released it: with pacing
//! the released packets wait at the sender, and Linux's clock (`skb_mstamp`) is also the
//! transmit time. The packets "in the network" are those departed and not yet delivered;
//! a retransmission of one still counted is not counted again, and a retransmission
//! timeout empties the count (Linux marks every outstanding packet lost). Losses are the
//! retransmissions the sender made since the previous sample (the sender's count), so a
//! retransmission triggered by an ACK is counted in the next ACK's sample.

use crate::engine::time::{self, SimTime};
use crate::tcp::ack::AckInfo;
use std::collections::VecDeque;

/// One ACK's delivery-rate sample (Linux `struct rate_sample`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RateSample {
    /// Packets delivered over the sample's interval: C.delivered now − P.delivered of the
    /// most recently sent packet this ACK delivered (0 when the ACK delivered none).
    pub delivered: i64,
    /// C.delivered when that packet departed.
    pub prior_delivered: i64,
    /// max(send_elapsed, ack_elapsed), seconds (0 when the ACK delivered no packet).
    pub interval_s: f64,
    /// delivered / interval, packets per second; none when the ACK delivered no packet
    /// whose send was recorded, or the interval is shorter than the smallest RTT seen
    /// (the draft's invalid sample).
    pub delivery_rate: Option<f64>,
    /// RTT of the most recently sent packet this ACK delivered, seconds (Linux
    /// `rs->rtt_us`); none when there is none or it was retransmitted (Karn).
    pub rtt_s: Option<f64>,
    /// That packet departed while the sender was app-limited.
    pub is_app_limited: bool,
    /// Packets this ACK newly delivered, cumulatively or by SACK (Linux `acked_sacked`).
    pub newly_delivered: i64,
    /// Retransmissions the sender made since the previous sample (Linux `rs->losses`).
    pub lost: i64,
    /// Packets in the network before this ACK (Linux `prior_in_flight`) and after it.
    pub prior_in_flight: i64,
    pub in_flight: i64,
    /// C.delivered after this ACK: packets delivered since the flow began.
    pub total_delivered: i64,
}

/// What the sampler remembers of one packet from its departure (draft §3.2, Linux
/// `tcp_skb_cb.tx`).
#[derive(Debug, Clone, Copy, Default)]
struct PacketRecord {
    departed: bool,
    /// Delivered (by SACK or cumulative ACK): counted already (the draft's
    /// `P.delivered_time = 0`).
    delivered_already: bool,
    transmissions: u32,
    sent_time: SimTime,
    first_sent_time: SimTime,
    delivered_time: SimTime,
    delivered: i64,
    app_limited: bool,
}

/// The connection's delivery-rate state (draft §3.1 "C.") and its packet records.
#[derive(Debug, Clone, Default)]
pub struct RateSampler {
    /// C.delivered: packets delivered since the flow began.
    delivered: i64,
    /// C.delivered_time: when C.delivered last grew.
    delivered_time: SimTime,
    /// C.first_sent_time: send time of the newest packet of the latest sample.
    first_sent_time: SimTime,
    /// C.app_limited: 0, or the value C.delivered must pass for samples to be trusted.
    app_limited: i64,
    /// Records of packets from `base` on.
    records: VecDeque<PacketRecord>,
    base: i64,
    /// Packets departed and not yet delivered (or presumed lost by a timeout).
    in_network: i64,
    /// Duplicate ACKs without SACK counted as one delivered packet each, not yet taken
    /// back by a cumulative advance (Linux `sacked_out` of a Reno connection).
    duplicate_credits: i64,
    /// The receiver has sent SACK blocks: its duplicate ACKs without blocks repeat a
    /// packet it already had (a spurious retransmission), not a new arrival, so they
    /// deliver nothing (Linux counts Reno-style credits only `if (!tcp_is_sack(tp))`).
    peer_sacks: bool,
    /// Smallest RTT of any sample, seconds (the draft's C.min_rtt check).
    min_rtt_s: f64,
    /// The sender's retransmission count at the previous sample.
    retransmits_seen: u64,
}

/// The newest delivered packet's values, while an ACK is processed.
#[derive(Debug, Clone, Copy)]
struct Newest {
    seq: i64,
    sent_time: SimTime,
    prior_delivered: i64,
    prior_time: SimTime,
    send_elapsed: SimTime,
    app_limited: bool,
    retransmitted: bool,
}

impl RateSampler {
    pub fn new() -> Self {
        RateSampler { min_rtt_s: f64::INFINITY, ..RateSampler::default() }
    }

    /// Packet `seq` leaves for the wire at `now` (draft §3.2 "Upon transmitting").
    pub fn on_departure(&mut self, seq: i64, now: SimTime) {
        if seq < self.base {
            return;
        }
        if self.in_network == 0 {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        let index = (seq - self.base) as usize;
        if index >= self.records.len() {
            self.records.resize(index + 1, PacketRecord::default());
        }
        let record = &mut self.records[index];
        if !record.departed || record.delivered_already {
            self.in_network += 1;
        }
        *record = PacketRecord {
            departed: true,
            delivered_already: false,
            transmissions: record.transmissions + 1,
            sent_time: now,
            first_sent_time: self.first_sent_time,
            delivered_time: self.delivered_time,
            delivered: self.delivered,
            app_limited: self.app_limited != 0,
        };
    }

    /// The sender has no new data and its window is not full (`in_flight` packets
    /// outstanding): the flow is app-limited from here (draft §3.4, Linux
    /// `tcp_rate_check_app_limited`).
    pub fn mark_app_limited(&mut self, in_flight: i64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// The retransmission timer expired: every outstanding packet is presumed lost, so
    /// none is in the network, and each counts again when it is resent.
    pub fn on_timeout(&mut self) {
        self.in_network = 0;
        for record in &mut self.records {
            if !record.delivered_already {
                record.departed = false;
            }
        }
    }

    /// A sampler that has delivered `delivered` packets and has `in_network` out (for
    /// the unit tests of the models that read it).
    #[cfg(test)]
    pub(crate) fn with_counts(delivered: i64, in_network: i64) -> Self {
        RateSampler { delivered, in_network, ..RateSampler::new() }
    }

    /// Packets delivered since the flow began (C.delivered).
    pub fn delivered(&self) -> i64 {
        self.delivered
    }

    /// Packets departed and not yet delivered.
    pub fn in_network(&self) -> i64 {
        self.in_network
    }

    /// The ACK `info` arrived at `now`, the cumulative ACK before it being `old_ack`;
    /// `retransmits` is the sender's count of retransmissions so far. Counts what it
    /// delivers and returns its sample (draft §3.3, Linux `tcp_rate_gen`).
    pub fn on_ack(&mut self, info: &AckInfo, old_ack: i64, retransmits: u64, now: SimTime) -> RateSample {
        let prior_in_flight = self.in_network;
        let delivered_before = self.delivered;
        let mut newest: Option<Newest> = None;
        self.peer_sacks |= !info.sack.is_empty();
        for &(first, last) in info.sack.as_slice() {
            for seq in first.max(info.ack + 1)..=last {
                self.deliver(seq, now, &mut newest);
            }
        }
        if info.ack > old_ack {
            let mut cumulative = 0;
            for seq in old_ack + 1..=info.ack {
                if self.deliver(seq, now, &mut newest) {
                    cumulative += 1;
                }
            }
            self.take_back_duplicate_credits(info.ack - old_ack, cumulative);
            self.forget_below(info.ack + 1);
        } else if info.ack == old_ack && info.sack.is_empty() && !self.peer_sacks && self.in_network > 0 {
            // Linux tcp_add_reno_sack: a duplicate ACK without SACK delivered one packet
            // (which one is unknown, so it gives no rate).
            self.duplicate_credits += 1;
            self.in_network -= 1;
            self.delivered += 1;
            self.delivered_time = now;
        }
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        let lost = retransmits.saturating_sub(self.retransmits_seen) as i64;
        self.retransmits_seen = retransmits;
        let mut sample = RateSample {
            newly_delivered: self.delivered - delivered_before,
            lost,
            prior_in_flight,
            in_flight: self.in_network,
            total_delivered: self.delivered,
            ..RateSample::default()
        };
        let Some(p) = newest else { return sample };
        let rtt_s = time::to_secs(now.saturating_sub(p.sent_time));
        if !p.retransmitted {
            self.min_rtt_s = self.min_rtt_s.min(rtt_s);
            sample.rtt_s = Some(rtt_s);
        }
        let ack_elapsed = self.delivered_time.saturating_sub(p.prior_time);
        let interval_s = time::to_secs(p.send_elapsed.max(ack_elapsed));
        sample.delivered = self.delivered - p.prior_delivered;
        sample.prior_delivered = p.prior_delivered;
        sample.interval_s = interval_s;
        sample.is_app_limited = p.app_limited;
        if interval_s > 0.0 && interval_s >= self.min_rtt_s {
            sample.delivery_rate = Some(sample.delivered as f64 / interval_s);
        }
        sample
    }

    /// Packet `seq` is delivered now, if it was not already (draft UpdateRateSample);
    /// returns whether it was newly delivered.
    fn deliver(&mut self, seq: i64, now: SimTime, newest: &mut Option<Newest>) -> bool {
        if seq < self.base {
            return false;
        }
        let Some(record) = self.records.get_mut((seq - self.base) as usize) else { return false };
        if record.delivered_already || !record.departed {
            return false;
        }
        record.delivered_already = true;
        self.in_network -= 1;
        self.delivered += 1;
        self.delivered_time = now;
        // IsNewestPacket: sent later than the newest so far (a later sequence number
        // breaks a tie).
        let is_newest = match newest {
            None => true,
            Some(n) => record.sent_time > n.sent_time || (record.sent_time == n.sent_time && seq > n.seq),
        };
        if is_newest {
            *newest = Some(Newest {
                seq,
                sent_time: record.sent_time,
                prior_delivered: record.delivered,
                prior_time: record.delivered_time,
                send_elapsed: record.sent_time.saturating_sub(record.first_sent_time),
                app_limited: record.app_limited,
                retransmitted: record.transmissions > 1,
            });
            self.first_sent_time = record.sent_time;
        }
        true
    }

    /// A cumulative advance of `advance` packets, of which `counted` were newly delivered
    /// here: without SACK, the packets duplicate ACKs already counted are taken back, and
    /// the advance counts at least one (Linux `tcp_remove_reno_sacks`).
    fn take_back_duplicate_credits(&mut self, advance: i64, counted: i64) {
        if self.duplicate_credits == 0 || counted == 0 {
            return;
        }
        // The credits taken back were counted (and left the network) once already.
        let taken = self.duplicate_credits.min(counted - 1);
        self.delivered -= taken;
        self.in_network = (self.in_network + taken).max(0);
        self.duplicate_credits -= self.duplicate_credits.min(advance - 1);
    }

    fn forget_below(&mut self, seq: i64) {
        while self.base < seq {
            if self.records.pop_front().is_none() {
                self.base = seq;
                break;
            }
            self.base += 1;
        }
    }
}

#[cfg(test)]
mod tests;
