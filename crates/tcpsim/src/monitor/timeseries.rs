//! Time series in long format (time, entity, metric, value), sampled every `interval`.
//!
//! Per TCP flow: `cwnd` and `ssthresh` (packets), `srtt_s` (seconds), and for every flow
//! `delivered_bytes` (payload delivered in order since the previous sample). Per queue:
//! `queue_pkts` (waiting packets), for RED `red_avg_pkts` (the average, in packets; in
//! byte mode the byte average divided by `mean_packet_size`), for the ECN-over-RED queues
//! also `queue_ce_pkts` (the CE-marked packets waiting), and since the previous
//! sample `arrivals`, `early_drops`, `overflow_drops`, `marks` (counts), `sojourn_s` (the
//! mean queueing delay of the packets that left the queue, seconds; no sample when none
//! left)
//! and `utilization` (bits that started transmission / (rate × interval)). Per flow group
//! (the flows with one `group`; entity = the group's name), since the previous sample:
//! `delivered_bytes` (the group's flows' in-order payload) and `received_bytes` (wire
//! bytes of every data packet that reached the group's receivers, duplicates and
//! retransmissions included: the "throughput" of reference document 002 §1.5).

use crate::engine::Dur;
use crate::results::{Column, Table};

/// A queue's running counters, kept at each sample to report the interval's share.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct QueueCounts {
    pub arrivals: u64,
    pub departures: u64,
    pub early_drops: u64,
    pub overflow_drops: u64,
    pub marks: u64,
    pub bytes_sent: u64,
    /// Picoseconds.
    pub sojourn_sum: u128,
}

/// A sampled flow group: its flows and their summed counters at the previous sample.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupSeries {
    pub entity: u32,
    /// Indices of the group's flows.
    pub flows: Vec<u32>,
    /// In-order payload bytes the group's flows had delivered.
    pub delivered_bytes: u64,
    /// Data bytes on the wire that had reached the group's receivers.
    pub received_bytes: u64,
}

#[derive(Debug, Clone)]
pub struct TimeSeries {
    pub interval: Dur,
    /// (flow index, entity id) of the sampled flows.
    pub flow_entities: Vec<(usize, u32)>,
    /// In-order payload bytes each sampled flow had delivered at the previous sample.
    pub flow_delivered_previous: Vec<u64>,
    /// The sampled flow groups.
    pub groups: Vec<GroupSeries>,
    /// (link direction index, entity id) of the sampled queues.
    pub queue_entities: Vec<(usize, u32)>,
    /// Counters of each sampled queue at the previous sample.
    pub queue_previous: Vec<QueueCounts>,
    entity_names: Vec<String>,
    metric_names: Vec<&'static str>,
    time_s: Vec<f64>,
    entity: Vec<u32>,
    metric: Vec<u8>,
    value: Vec<f64>,
}

impl TimeSeries {
    pub fn new(interval: Dur) -> Self {
        TimeSeries {
            interval,
            flow_entities: Vec::new(),
            flow_delivered_previous: Vec::new(),
            groups: Vec::new(),
            queue_entities: Vec::new(),
            queue_previous: Vec::new(),
            entity_names: Vec::new(),
            metric_names: Vec::new(),
            time_s: Vec::new(),
            entity: Vec::new(),
            metric: Vec::new(),
            value: Vec::new(),
        }
    }

    pub fn add_entity(&mut self, name: String) -> u32 {
        self.entity_names.push(name);
        (self.entity_names.len() - 1) as u32
    }

    pub fn push(&mut self, time_s: f64, entity: u32, metric: &'static str, value: f64) {
        let m = match self.metric_names.iter().position(|&n| n == metric) {
            Some(i) => i,
            None => {
                self.metric_names.push(metric);
                self.metric_names.len() - 1
            }
        };
        self.time_s.push(time_s);
        self.entity.push(entity);
        self.metric.push(m as u8);
        self.value.push(value);
    }

    pub fn into_table(self) -> Table {
        let mut t = Table::new();
        let entity = self.entity.iter().map(|&e| self.entity_names[e as usize].clone()).collect();
        let metric = self.metric.iter().map(|&m| self.metric_names[m as usize].to_string()).collect();
        t.push("time_s", Column::F64(self.time_s));
        t.push("entity", Column::Str(entity));
        t.push("metric", Column::Str(metric));
        t.push("value", Column::F64(self.value));
        t
    }

    /// An empty table with the long-format columns.
    pub fn empty_table() -> Table {
        TimeSeries::new(1).into_table()
    }
}
