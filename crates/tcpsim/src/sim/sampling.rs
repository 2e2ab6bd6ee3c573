//! Time-series sampling: one sample of every monitored flow and queue per interval.

use crate::engine::time::{self};
use crate::engine::EventKind;
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
            series.push(t, entity, "delivered_bytes", f.delivered_since_sample as f64);
            f.delivered_since_sample = 0;
        }
        let interval_s = time::to_secs(series.interval);
        for k in 0..series.queue_entities.len() {
            let (i, entity) = series.queue_entities[k];
            let l = &self.links[i];
            series.push(t, entity, "queue_pkts", l.queue.len_packets() as f64);
            if let Some(avg) = l.queue.average() {
                series.push(t, entity, "red_avg_pkts", avg);
            }
            let now_counts = [l.stats.early_drops, l.stats.overflow_drops, l.stats.marks, l.stats.bytes_sent];
            let before = std::mem::replace(&mut series.queue_previous[k], now_counts);
            series.push(t, entity, "early_drops", (now_counts[0] - before[0]) as f64);
            series.push(t, entity, "overflow_drops", (now_counts[1] - before[1]) as f64);
            series.push(t, entity, "marks", (now_counts[2] - before[2]) as f64);
            let bits = (now_counts[3] - before[3]) as f64 * 8.0;
            let utilization = if now == 0 { 0.0 } else { bits / (l.rate_bps as f64 * interval_s) };
            series.push(t, entity, "utilization", utilization);
        }
        let next = now.saturating_add(series.interval);
        if next <= self.scenario.duration {
            self.sched.schedule(next, EventKind::Sample);
        }
    }
}
