//! The measurement window `[measure_from, duration]` of a scenario's `[simulation]`
//! table: at `measure_from` the simulation records every counter of the report, and the
//! report gives the differences, so warm-up is left out of every per-flow, per-queue and
//! per-link number. Minima and maxima restart then instead (queue length, RTT).

use super::Simulation;
use crate::agent::FlowCounters;
use crate::engine::time::SimTime;
use crate::net::LinkStats;

/// A flow's counters when the window opens.
#[derive(Debug, Clone, Default)]
pub(crate) struct FlowAtStart {
    pub counters: FlowCounters,
    pub drops: u64,
    pub received_bytes: u64,
}

/// Every counter when the window opens.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeasurementStart {
    pub flows: Vec<FlowAtStart>,
    pub links: Vec<LinkStats>,
}

impl MeasurementStart {
    /// A flow's counters at the start of the window (zero without a window).
    pub fn flow(start: &Option<Box<Self>>, i: usize) -> FlowAtStart {
        start.as_ref().map(|s| s.flows[i].clone()).unwrap_or_default()
    }

    /// A link direction's counters at the start of the window (zero without a window).
    pub fn link(start: &Option<Box<Self>>, i: usize) -> LinkStats {
        start.as_ref().map(|s| s.links[i].clone()).unwrap_or_default()
    }
}

impl Simulation<'_> {
    /// The `MeasureStart` event: record the counters, restart the extremes.
    pub(super) fn measurement_starts(&mut self) {
        let now = self.sched.now();
        let end = self.scenario.duration;
        let mut start = MeasurementStart::default();
        for f in &mut self.flows {
            let mut counters = FlowCounters::default();
            f.source.report(&mut counters);
            f.sink.report(&mut counters);
            start.flows.push(FlowAtStart { counters, drops: f.drops, received_bytes: f.received_bytes });
            f.source.measurement_starts();
            f.sink.measurement_starts();
        }
        for l in &mut self.links {
            l.account_length(now);
            let mut stats = l.stats.stats();
            // A transmission under way counted its whole time when it began; the part
            // after `now` belongs to the window.
            stats.busy_time -= busy_after(l.busy_until, now, end);
            start.links.push(stats);
            l.stats.max_length = l.stats.length_now;
        }
        self.measurement_start = Some(Box::new(start));
    }
}

/// The part of a transmission ending at `busy_until` that falls after `now` (and before
/// `end`, where busy time is clipped).
fn busy_after(busy_until: SimTime, now: SimTime, end: SimTime) -> u64 {
    busy_until.min(end).saturating_sub(now)
}

#[cfg(test)]
mod tests {
    use super::busy_after;

    #[test]
    fn a_transmission_under_way_is_split_at_the_window() {
        assert_eq!(busy_after(150, 100, 1000), 50);
        assert_eq!(busy_after(90, 100, 1000), 0, "finished before the window");
        assert_eq!(busy_after(1500, 100, 1000), 900, "clipped at the end like the count");
    }
}
