//! Time-series sampling: one sample of every monitored flow, flow group and queue per
//! interval.

use crate::engine::time::{self};
use crate::engine::EventKind;
use crate::monitor::timeseries::QueueCounts;
use super::Simulation;

impl Simulation<'_> {

    pub(super) fn sample(&mut self) {
        let now = self.now();
        let Some(series) = self.series.as_mut() else { return };
        let t = time::to_secs(now);
        // Indexing (not iterating) lets `push` borrow the series inside the loop.
        for k in 0..series.flow_entities.len() {
            let (i, entity) = series.flow_entities[k];
            let f = &mut self.flows[i];
            f.source.sample(&mut |name, value| series.push(t, entity, name, value));
            let before = std::mem::replace(&mut series.flow_delivered_previous[k], f.delivered_bytes);
            series.push(t, entity, "delivered_bytes", (f.delivered_bytes - before) as f64);
        }
        for k in 0..series.groups.len() {
            let g = &series.groups[k];
            let (delivered, received) = g.flows.iter().fold((0, 0), |(d, r), &i| {
                let f = &self.flows[i as usize];
                (d + f.delivered_bytes, r + f.received_bytes)
            });
            let (entity, delivered_before, received_before) = (g.entity, g.delivered_bytes, g.received_bytes);
            series.push(t, entity, "delivered_bytes", (delivered - delivered_before) as f64);
            series.push(t, entity, "received_bytes", (received - received_before) as f64);
            let g = &mut series.groups[k];
            (g.delivered_bytes, g.received_bytes) = (delivered, received);
        }
        let interval_s = time::to_secs(series.interval);
        for k in 0..series.queue_entities.len() {
            let (i, entity) = series.queue_entities[k];
            let l = &self.links[i];
            series.push(t, entity, "queue_pkts", l.queue.len_packets() as f64);
            l.queue.sample(&mut |name, value| series.push(t, entity, name, value));
            let st = &l.stats;
            let losses = st.losses();
            let now_counts = QueueCounts {
                arrivals: st.arrivals,
                departures: st.departures,
                early_drops: losses.early_drops,
                overflow_drops: losses.overflow_drops,
                marks: losses.marks,
                bytes_sent: st.bytes_sent,
                sojourn_sum: st.sojourn_sum.get(),
            };
            let before = std::mem::replace(&mut series.queue_previous[k], now_counts);
            series.push(t, entity, "arrivals", (now_counts.arrivals - before.arrivals) as f64);
            series.push(t, entity, "early_drops", (now_counts.early_drops - before.early_drops) as f64);
            series.push(t, entity, "overflow_drops", (now_counts.overflow_drops - before.overflow_drops) as f64);
            series.push(t, entity, "marks", (now_counts.marks - before.marks) as f64);
            let departures = now_counts.departures - before.departures;
            // No packet left: no delay to report (a missing sample, not a made-up 0).
            if departures > 0 {
                let sojourn = (now_counts.sojourn_sum - before.sojourn_sum) as f64 / time::PS_PER_S as f64 / departures as f64;
                series.push(t, entity, "sojourn_s", sojourn);
            }
            let bits = (now_counts.bytes_sent - before.bytes_sent) as f64 * 8.0;
            let utilization = if now == 0 { 0.0 } else { bits / (l.rate_bps as f64 * interval_s) };
            series.push(t, entity, "utilization", utilization);
        }
        let next = now.saturating_add(series.interval);
        if next <= self.scenario.duration {
            self.sched.schedule(next, EventKind::Sample);
        }
    }
}
