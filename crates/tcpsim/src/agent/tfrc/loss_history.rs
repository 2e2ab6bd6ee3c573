//! The TFRC receiver's loss history: loss events, loss intervals and the loss event rate
//! `p` it reports (RFC 5348 §5), as ns-2.35's `Agent/TFRCSink` computes them by default
//! (`algo_ 1`, the weighted average of loss intervals; tcp/tfrc-sink.cc).
//!
//! - **Loss events** (§5.2): losses within one RTT of the start of a loss event belong
//!   to it. A lost packet starts a new event when its send time (interpolated between
//!   the packets received around it, [`interpolated_send_time`]) is more than one RTT
//!   after the start of the last event. ns-2 (`PreciseLoss_ 1`, its default) also asks
//!   that the sender's round (the feedback count it stamps on each packet) has moved on
//!   since that event: [`LossEvents::require_new_round`].
//! - **Loss intervals** (§5.3): the packets between the starts of two loss events. As in
//!   ns-2, every sequence number counts (received or lost) and the packet that starts a
//!   loss event is counted in the interval it closes: a closed interval is
//!   `S_i − S_{i−1}`, the open one `I_0` is `S_max − S_0`.
//! - **Average loss interval** (§5.4): the weighted average of the last n = 8 intervals
//!   with weights 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2, computed twice: with the open interval
//!   `I_0` and the 7 most recent closed ones (`I_tot0`), and with the 8 most recent
//!   closed ones (`I_tot1`). The larger is used, so the open interval counts only when it
//!   raises the average (lowers `p`). `p = 1 / I_mean`; `p = 0` before any loss event.
//!   With fewer than 8 intervals each average is over those there are, normalized by its
//!   own weights (ns-2's `weighted_average1`).
//! - **History discounting** (§5.5, optional in the RFC, on in ns-2: `discount_ 1`,
//!   `minDiscountRatio_ 0.5`): when the open interval exceeds twice the average of the
//!   closed ones, the closed intervals' weights are scaled by
//!   `DF = max(0.5, 2·I_mean_closed / I_0)`; when that open interval closes, the factor
//!   stays multiplied into every older interval's weight. As in ns-2 the factor is
//!   updated when the average is computed (when the receiver builds a report), not on
//!   every packet.
//!
//! Left to the sink agent (`super::sink`), with their ns-2 defaults: when a gap in the
//! sequence numbers counts as a loss (ns-2 `numPkts_ 1`: at the first later packet;
//! RFC 5348 §5.1: after three later packets, NDUPACK), and seeding the history at the
//! first loss from the receive rate (§6.3.1; ns-2 `AdjustHistoryAfterSS_ 1`, through
//! [`LossIntervals::start_first_loss_event_seeded`]). ECN marks, which start loss
//! events like losses, are not modelled yet.
//!
//! Parameters ([`LossHistoryRules`]): `history_discounting` (default true, ns-2),
//! `min_discount` (a ratio, default 0.5, ns-2 `minDiscountRatio_`). The weights are the
//! RFC's and ns-2's (`NumSamples_ -1` → 8, `smooth_ 1`).

use std::collections::VecDeque;

/// Weights of the loss intervals, most recent first (RFC 5348 §5.4, n = 8).
pub const LOSS_INTERVAL_WEIGHTS: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

/// How many loss intervals the average looks at (RFC 5348 §5.4: n = 8).
pub const LOSS_INTERVALS_AVERAGED: usize = LOSS_INTERVAL_WEIGHTS.len();

/// The send time of a lost packet, interpolated between the packets received before
/// and after it (RFC 5348 §5.2; ns-2 `estimate_tstamp`): `before` and `after` are
/// (sequence number, send time in seconds) of those packets.
pub fn interpolated_send_time(before: (i64, f64), after: (i64, f64), lost_seq: i64) -> f64 {
    let (before_seq, before_time) = before;
    let (after_seq, after_time) = after;
    debug_assert!(before_seq < lost_seq && lost_seq < after_seq);
    let per_packet = (after_time - before_time) / (after_seq - before_seq) as f64;
    before_time + (lost_seq - before_seq) as f64 * per_packet
}

/// Decides which losses start a new loss event (RFC 5348 §5.2; ns-2 `new_loss`).
#[derive(Debug, Clone, PartialEq)]
pub struct LossEvents {
    /// Also require a sender round (feedback count) newer than the last event's (ns-2
    /// `PreciseLoss_`, default true; the RFC has no such rule: false).
    pub require_new_round: bool,
    /// Send time of the packet that started the last loss event, seconds (0 before any,
    /// as in ns-2).
    last_event_start_s: f64,
    /// The sender's round stamped on that packet (-1 before any).
    last_event_round: i64,
}

impl LossEvents {
    pub fn new(require_new_round: bool) -> Self {
        LossEvents { require_new_round, last_event_start_s: 0.0, last_event_round: -1 }
    }

    /// Whether a loss (or ECN mark) of a packet sent at `send_time_s` in sender round
    /// `round`, seen with round-trip time `rtt_s`, starts a new loss event; if it does,
    /// it becomes the start of the current event.
    pub fn starts_new_event(&mut self, send_time_s: f64, round: i64, rtt_s: f64) -> bool {
        let more_than_an_rtt_later = super::ties::longer(send_time_s - self.last_event_start_s, rtt_s);
        let new_round = !self.require_new_round || round > self.last_event_round;
        if more_than_an_rtt_later && new_round {
            self.last_event_start_s = send_time_s;
            self.last_event_round = round;
            true
        } else {
            false
        }
    }

    /// Makes the current loss event start at a packet sent at `send_time_s` in sender
    /// round `round` (ns-2 `adjust_history` does so at the first loss, with the packet
    /// that revealed it).
    pub fn restart_at(&mut self, send_time_s: f64, round: i64) {
        self.last_event_start_s = send_time_s;
        self.last_event_round = round;
    }
}

impl Default for LossEvents {
    fn default() -> Self {
        LossEvents::new(true)
    }
}

/// Where ns-2's loss history and RFC 5348's may differ; `Default` is ns-2's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossHistoryRules {
    /// Discount old intervals while the open one is long (RFC 5348 §5.5, a MAY; ns-2
    /// `discount_`, default true).
    pub history_discounting: bool,
    /// The smallest discount factor, a ratio in (0, 1] (RFC 5348 §5.5 and ns-2
    /// `minDiscountRatio_`: 0.5).
    pub min_discount: f64,
}

impl Default for LossHistoryRules {
    fn default() -> Self {
        LossHistoryRules { history_discounting: true, min_discount: 0.5 }
    }
}

/// A closed loss interval and the discount its weight carries.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ClosedInterval {
    /// Packets in the interval.
    packets: f64,
    /// Product of the discount factors applied to it since it closed (1 = none).
    discount: f64,
}

/// The loss intervals a receiver keeps and the average it reports (RFC 5348 §5.3-5.5).
#[derive(Debug, Clone, PartialEq)]
pub struct LossIntervals {
    pub rules: LossHistoryRules,
    /// Packets since the start of the last loss event (`I_0`, open).
    open_packets: f64,
    /// Closed intervals, most recent first (`I_1`, `I_2`, …), at most n = 8.
    closed: VecDeque<ClosedInterval>,
    /// The discount factor the open interval currently imposes on the closed ones.
    open_discount: f64,
}

impl LossIntervals {
    pub fn new(rules: LossHistoryRules) -> Self {
        LossIntervals { rules, open_packets: 0.0, closed: VecDeque::with_capacity(LOSS_INTERVALS_AVERAGED + 1), open_discount: 1.0 }
    }

    /// Whether any loss event has been seen.
    pub fn has_loss_event(&self) -> bool {
        !self.closed.is_empty()
    }

    /// Packets in the open interval `I_0`.
    pub fn open_interval(&self) -> f64 {
        self.open_packets
    }

    /// The closed intervals, most recent first.
    pub fn closed_intervals(&self) -> impl Iterator<Item = f64> + '_ {
        self.closed.iter().map(|c| c.packets)
    }

    /// One packet (received, or lost within a loss event already counted) in the open
    /// interval.
    pub fn count_packet(&mut self) {
        self.open_packets += 1.0;
    }

    /// The packet that starts a new loss event: counted in the open interval, which it
    /// closes; a new interval opens after it.
    pub fn start_loss_event(&mut self) {
        self.open_packets += 1.0;
        let packets = self.open_packets;
        self.close_open_interval(packets);
    }

    /// The first loss event when the history is seeded (RFC 5348 §6.3.1; ns-2
    /// `AdjustHistoryAfterSS_ 1`): the interval before it is replaced by `packets`,
    /// `1 / p` for the `p` at which the throughput equation gives the rate received so
    /// far (`super::equation::loss_event_rate_for_rate`, ns-2 `b_to_p`), and a new
    /// interval opens.
    pub fn start_first_loss_event_seeded(&mut self, packets: f64) {
        debug_assert!(!self.has_loss_event(), "the history is seeded at the first loss event only");
        self.close_open_interval(packets);
    }

    fn close_open_interval(&mut self, packets: f64) {
        // The discount the closing interval imposed stays with every older interval.
        for older in self.closed.iter_mut() {
            older.discount *= self.open_discount;
        }
        self.closed.push_front(ClosedInterval { packets, discount: 1.0 });
        self.closed.truncate(LOSS_INTERVALS_AVERAGED);
        self.open_packets = 0.0;
        self.open_discount = 1.0;
    }

    /// The average loss interval `I_mean`, packets (RFC 5348 §5.4-5.5); `None` before
    /// any loss event. Updates the open interval's discount first (ns-2 does so each
    /// time it computes the average, for a report).
    pub fn average_interval(&mut self) -> Option<f64> {
        if !self.has_loss_event() {
            return None;
        }
        let closed_only = self.average_of_closed();
        if self.rules.history_discounting && self.open_packets > 0.0 {
            let ratio = 2.0 * closed_only / self.open_packets;
            if ratio < 1.0 {
                self.open_discount = ratio.max(self.rules.min_discount);
            }
        }
        Some(self.average_with_open().max(closed_only))
    }

    /// The loss event rate `p = 1 / I_mean` (RFC 5348 §5.4); 0 before any loss event.
    pub fn loss_event_rate(&mut self) -> f64 {
        match self.average_interval() {
            Some(mean) if mean > 0.0 => 1.0 / mean,
            _ => 0.0,
        }
    }

    /// `I_tot1 / W_tot`: the n most recent closed intervals, with their own discounts
    /// (the open interval's current discount scales them all alike, so it cancels).
    fn average_of_closed(&self) -> f64 {
        let (mut total, mut weights) = (0.0, 0.0);
        for (interval, weight) in self.closed.iter().zip(LOSS_INTERVAL_WEIGHTS) {
            total += interval.packets * weight * interval.discount;
            weights += weight * interval.discount;
        }
        total / weights
    }

    /// `I_tot0 / W_tot`: the open interval and the n − 1 most recent closed ones, these
    /// discounted by the open interval's factor.
    fn average_with_open(&self) -> f64 {
        let mut total = self.open_packets * LOSS_INTERVAL_WEIGHTS[0];
        let mut weights = LOSS_INTERVAL_WEIGHTS[0];
        for (interval, weight) in self.closed.iter().zip(&LOSS_INTERVAL_WEIGHTS[1..]) {
            let discounted = weight * interval.discount * self.open_discount;
            total += interval.packets * discounted;
            weights += discounted;
        }
        total / weights
    }
}

impl Default for LossIntervals {
    fn default() -> Self {
        LossIntervals::new(LossHistoryRules::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_DISCOUNTING: LossHistoryRules = LossHistoryRules { history_discounting: false, min_discount: 0.5 };

    /// A history fed packet by packet: `lengths` are the closed intervals, oldest first,
    /// then `open` packets after the last loss event.
    fn history(rules: LossHistoryRules, lengths: &[u32], open: u32) -> LossIntervals {
        let mut h = LossIntervals::new(rules);
        for &length in lengths {
            for _ in 1..length {
                h.count_packet();
            }
            h.start_loss_event();
        }
        for _ in 0..open {
            h.count_packet();
        }
        h
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn no_loss_event_means_p_zero() {
        let mut h = history(LossHistoryRules::default(), &[], 500);
        assert_eq!(h.average_interval(), None);
        assert_eq!(h.loss_event_rate(), 0.0);
    }

    #[test]
    fn the_packet_starting_a_loss_event_closes_its_interval() {
        // Losses at sequence numbers 99 and 149 (events), packets 0..=199 seen: ns-2
        // counts I_2 = 100 (0..=99), I_1 = 50 (100..=149), I_0 = 50 (150..=199).
        let h = history(NO_DISCOUNTING, &[100, 50], 50);
        assert_eq!(h.closed_intervals().collect::<Vec<_>>(), vec![50.0, 100.0]);
        assert_eq!(h.open_interval(), 50.0);
    }

    #[test]
    fn weighted_average_of_eight_closed_intervals() {
        // Closed intervals, most recent first: 10, 20, …, 80; I_0 = 0.
        // I_tot1 = 10+20+30+40 + 0.8·50 + 0.6·60 + 0.4·70 + 0.2·80 = 100 + 40+36+28+16 = 220
        // W_tot  = 4 + 0.8+0.6+0.4+0.2 = 6;  I_mean = 220/6 = 36.667
        // I_tot0 = 0 + 10+20+30 + 0.8·40 + 0.6·50 + 0.4·60 + 0.2·70 = 60+32+30+24+14 = 160 → 26.667
        let mut h = history(NO_DISCOUNTING, &[80, 70, 60, 50, 40, 30, 20, 10], 0);
        assert!(close(h.average_interval().unwrap(), 220.0 / 6.0));
        assert!(close(h.loss_event_rate(), 6.0 / 220.0));
    }

    #[test]
    fn only_the_last_eight_closed_intervals_count() {
        // A ninth, older interval of 1,000,000 packets changes nothing.
        let mut h = history(NO_DISCOUNTING, &[1_000_000, 80, 70, 60, 50, 40, 30, 20, 10], 0);
        assert_eq!(h.closed_intervals().count(), 8);
        assert!(close(h.average_interval().unwrap(), 220.0 / 6.0));
    }

    #[test]
    fn the_open_interval_counts_only_when_it_raises_the_average() {
        // Eight closed intervals of 100: I_tot1 / W_tot = 100.
        // I_0 = 50: I_tot0 = 50 + 100·(6 − 1) → (50 + 500)/6 = 91.67 < 100: not used.
        let mut short_open = history(NO_DISCOUNTING, &[100; 8], 50);
        assert!(close(short_open.average_interval().unwrap(), 100.0));
        // I_0 = 400: I_tot0 = (400 + 500)/6 = 150 > 100: used.
        let mut long_open = history(NO_DISCOUNTING, &[100; 8], 400);
        assert!(close(long_open.average_interval().unwrap(), 150.0));
    }

    #[test]
    fn fewer_than_eight_intervals_average_over_those_there_are() {
        // One closed interval of 100, I_0 = 40:
        //   closed only: 100·1 / 1 = 100;  with I_0: (40·1 + 100·1)/2 = 70 → 100.
        let mut h = history(NO_DISCOUNTING, &[100], 40);
        assert!(close(h.average_interval().unwrap(), 100.0));
        // Five closed intervals (oldest 500, then 400, 300, 200, 100), I_0 = 0:
        //   closed only: (100+200+300+400 + 0.8·500)/(4.8) = 1400/4.8 = 291.667
        let mut h = history(NO_DISCOUNTING, &[500, 400, 300, 200, 100], 0);
        assert!(close(h.average_interval().unwrap(), 1400.0 / 4.8));
    }

    #[test]
    fn a_long_open_interval_discounts_the_old_ones() {
        // Eight closed intervals of 100; I_0 = 1000 > 2·100, so
        //   DF = max(0.5, 2·100/1000) = 0.5;
        //   I_tot0 = 1000 + 100·0.5·5 = 1250, W = 1 + 0.5·5 = 3.5 → 357.14
        //   (without discounting: (1000 + 500)/6 = 250).
        let mut discounted = history(LossHistoryRules::default(), &[100; 8], 1000);
        assert!(close(discounted.average_interval().unwrap(), 1250.0 / 3.5));
        let mut plain = history(NO_DISCOUNTING, &[100; 8], 1000);
        assert!(close(plain.average_interval().unwrap(), 250.0));
        // I_0 = 300: DF = 2·100/300 = 0.667 (above the floor):
        //   I_tot0 = 300 + 100·(2/3)·5 = 633.33, W = 1 + (2/3)·5 = 4.333 → 146.15
        let mut mild = history(LossHistoryRules::default(), &[100; 8], 300);
        assert!(close(mild.average_interval().unwrap(), (300.0 + 1000.0 / 3.0) / (1.0 + 10.0 / 3.0)));
        // I_0 = 150 < 2·100: no discount; I_tot0 = (150 + 500)/6 = 108.33.
        let mut none = history(LossHistoryRules::default(), &[100; 8], 150);
        assert!(close(none.average_interval().unwrap(), 650.0 / 6.0));
    }

    #[test]
    fn the_discount_stays_with_the_old_intervals_after_the_long_one_closes() {
        // Eight intervals of 100, then 1000 packets; the report computes DF = 0.5; the
        // long interval closes (1001 with its loss), a new one opens with I_0 = 0.
        let mut h = history(LossHistoryRules::default(), &[100; 8], 1000);
        h.average_interval();
        h.start_loss_event();
        // Closed, most recent first: 1001 (weight 1), then seven of 100 with DF 0.5:
        //   I_tot1 = 1001 + 100·0.5·(1+1+1+0.8+0.6+0.4+0.2) = 1001 + 250 = 1251
        //   W      = 1 + 0.5·5 = 3.5 → 357.43
        assert!(close(h.average_interval().unwrap(), 1251.0 / 3.5));
        // Without a report during the long interval, ns-2 has not updated the factor.
        let mut unreported = history(LossHistoryRules::default(), &[100; 8], 1000);
        unreported.start_loss_event();
        assert!(close(unreported.average_interval().unwrap(), (1001.0 + 500.0) / 6.0));
    }

    #[test]
    fn a_seeded_first_interval_replaces_the_packets_before_the_first_loss() {
        let mut h = history(NO_DISCOUNTING, &[], 37);
        h.start_first_loss_event_seeded(250.0);
        assert_eq!(h.closed_intervals().collect::<Vec<_>>(), vec![250.0]);
        assert_eq!(h.open_interval(), 0.0);
        assert!(close(h.loss_event_rate(), 1.0 / 250.0));
    }

    #[test]
    fn losses_within_an_rtt_are_one_event() {
        // Times and RTT are exact in binary, so "exactly one RTT" is exact.
        let mut events = LossEvents::new(false);
        assert!(events.starts_new_event(1.0, 0, 0.125));
        assert!(!events.starts_new_event(1.0625, 0, 0.125), "half an RTT after the event's start");
        assert!(!events.starts_new_event(1.125, 0, 0.125), "exactly one RTT after: still the same event");
        assert!(events.starts_new_event(1.126, 0, 0.125));
        assert!(!events.starts_new_event(1.25, 0, 0.125), "the new event starts at 1.126 s");
    }

    #[test]
    fn ns2_also_asks_for_a_new_sender_round() {
        let mut events = LossEvents::default();
        assert!(events.require_new_round);
        assert!(events.starts_new_event(1.0, 3, 0.1));
        assert!(!events.starts_new_event(2.0, 3, 0.1), "a second later but in the same round");
        assert!(events.starts_new_event(2.0, 4, 0.1));
    }

    #[test]
    fn a_lost_packet_send_time_is_interpolated() {
        // Packets 10 (sent at 1.0 s) and 14 (1.4 s) arrived; 12 was lost: 1.2 s.
        assert!(close(interpolated_send_time((10, 1.0), (14, 1.4), 12), 1.2));
        assert!(close(interpolated_send_time((10, 1.0), (14, 1.4), 11), 1.1));
    }
}
