//! The windowed filters of BBR's model, kept apart so that later BBR versions share them.
//!
//! `WindowedMax`: Kathleen Nichols' windowed min/max estimator as Linux's `lib/minmax.c`
//! (`minmax_running_max`) runs it: the best, second-best and third-best samples of the
//! window, each with its time, so that the maximum over the last `window` time units is
//! known in O(1) without keeping every sample. BBR's bottleneck-bandwidth filter runs it
//! over round trips (draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1.5: "a windowed
//! max filter over 10 round trips"), so its time is the round count.

/// One sample of a windowed filter: its time (e.g. a round count) and value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub time: u64,
    pub value: f64,
}

/// The maximum of the samples of the last `window` time units (Linux `struct minmax`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowedMax {
    /// Best, second-best and third-best samples, newest-first among equals.
    s: [Sample; 3],
}

impl WindowedMax {
    /// A filter holding `value` at `time` (Linux `minmax_reset`).
    pub fn new(time: u64, value: f64) -> Self {
        let s = Sample { time, value };
        WindowedMax { s: [s; 3] }
    }

    /// The maximum over the window.
    pub fn get(&self) -> f64 {
        self.s[0].value
    }

    /// Adds `value` measured at `time` and returns the maximum over the window ending at
    /// `time` (Linux `minmax_running_max`).
    pub fn update(&mut self, window: u64, time: u64, value: f64) -> f64 {
        let sample = Sample { time, value };
        if value >= self.s[0].value || time.saturating_sub(self.s[2].time) > window {
            // A new maximum, or nothing left in the window: start over.
            *self = WindowedMax::new(time, value);
            return value;
        }
        if value >= self.s[1].value {
            self.s[2] = sample;
            self.s[1] = sample;
        } else if value >= self.s[2].value {
            self.s[2] = sample;
        }
        self.subwindow_update(window, sample)
    }

    /// Ages the best samples out as the window moves on (Linux `minmax_subwin_update`):
    /// when the best is older than the window, the second becomes best; a second-best
    /// still equal to the best after a quarter window, or a third equal to the second
    /// after half a window, is replaced so that the filter keeps a spread of candidates.
    fn subwindow_update(&mut self, window: u64, sample: Sample) -> f64 {
        let age = sample.time.saturating_sub(self.s[0].time);
        if age > window {
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = sample;
            if sample.time.saturating_sub(self.s[0].time) > window {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
                self.s[2] = sample;
            }
        } else if self.s[1].time == self.s[0].time && age > window / 4 {
            self.s[2] = sample;
            self.s[1] = sample;
        } else if self.s[2].time == self.s[1].time && age > window / 2 {
            self.s[2] = sample;
        }
        self.s[0].value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maximum_holds_for_the_window_then_the_next_best_takes_over() {
        // Window 10 rounds: 100 at round 0, then 60 each round. The 100 is the maximum
        // through round 10 and expires at round 11, when the 60s take over.
        let mut f = WindowedMax::new(0, 0.0);
        f.update(10, 0, 100.0);
        for round in 1..=10 {
            assert_eq!(f.update(10, round, 60.0), 100.0, "round {round}");
        }
        assert_eq!(f.update(10, 11, 60.0), 60.0);
    }

    #[test]
    fn a_larger_sample_replaces_the_maximum_at_once() {
        let mut f = WindowedMax::new(0, 50.0);
        assert_eq!(f.update(10, 1, 40.0), 50.0);
        assert_eq!(f.update(10, 2, 80.0), 80.0);
    }

    #[test]
    fn after_the_best_expires_the_best_of_the_younger_samples_is_kept() {
        // 100 at 0, 90 at 3, 70 at 6: when 100 expires (round 11), 90 is the maximum;
        // when 90 expires (round 14), 70.
        let mut f = WindowedMax::new(0, 100.0);
        f.update(10, 3, 90.0);
        f.update(10, 6, 70.0);
        assert_eq!(f.update(10, 10, 10.0), 100.0);
        assert_eq!(f.update(10, 11, 10.0), 90.0);
        assert_eq!(f.update(10, 13, 10.0), 90.0);
        assert_eq!(f.update(10, 14, 10.0), 70.0);
    }
}
