//! Blackout: every packet (or a fraction of them) transmitted during given time windows is
//! lost — a link outage such as the 1 s handoff of reference document 003 (§4, the
//! wireless scenario: "the link is down for 1 s during a handoff").
//!
//! Parameters:
//! - `windows`: list of [start, end] times; a packet that arrives at the link at t with
//!   start ≤ t < end is exposed. Required.
//! - `fraction`: probability that an exposed packet is lost; default 1 (all of them).
//!
//! Choice: the window is judged when a packet arrives at the link, where ns-2's
//! `lossmodel` sits (the head of the link, before the queue). Packets already queued or
//! propagating when a window opens get through.

use super::{ErrorModel, Transmission};
use crate::engine::{Dur, RandomStream};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};
use crate::net::error::LinkErrorModel;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::ErrorModel,
    name: "blackout",
    summary: "lose every packet (or a fraction) transmitted during given time windows, e.g. a 1 s handoff",
    source: "reference document 003 (handoff outage); ns-2.35 ErrorModel placement (errmodel.cc)",
    params: &[
        Param::new("windows", T::TimeWindows, "s", V::Unset, "required: outage windows [[start, end], ...]; packets arriving at the link inside one are exposed", "reference document 003")
            .example(r#"[["4s", "5s"]]"#),
        Param::new("fraction", T::Number, "", V::Number(1.0), "probability that an exposed packet is lost", "our option (1 = total outage)").range(0.0, 1.0),
    ],
    check,
    relations: Relations::NONE,
};

pub static MODEL: LinkErrorModel = LinkErrorModel { spec: &SPEC, build: |c| Box::new(Blackout::from_config(c)) };

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if matches!(c.get("windows"), V::Unset) || c.time_windows("windows").is_empty() {
        return Err(ParamError::new("windows", "at least one [start, end] window, such as [[\"10s\", \"11s\"]]"));
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Blackout {
    /// Windows sorted by start.
    windows: Vec<(Dur, Dur)>,
    fraction: f64,
}

impl Blackout {
    pub fn from_config(c: &ModelConfig) -> Self {
        let mut windows = c.time_windows("windows").to_vec();
        windows.sort_unstable();
        Blackout { windows, fraction: c.number("fraction") }
    }
}

impl ErrorModel for Blackout {
    fn loses(&mut self, packet: &Transmission, random: &mut RandomStream) -> bool {
        let exposed = self.windows.iter().any(|&(start, end)| start <= packet.at && packet.at < end);
        // Draw only for exposed packets, and only when the outcome is random.
        exposed && (self.fraction >= 1.0 || (self.fraction > 0.0 && random.uniform() < self.fraction))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::PS_PER_S;

    fn blackout(windows: &[(u64, u64)], fraction: f64) -> Blackout {
        let mut c = SPEC.defaults();
        c.set("windows", V::TimeWindows(windows.iter().map(|&(a, b)| (a * PS_PER_S, b * PS_PER_S)).collect()));
        c.set("fraction", V::Number(fraction));
        Blackout::from_config(&c)
    }

    fn at(s: f64) -> Transmission {
        Transmission { at: (s * PS_PER_S as f64) as u64, size: 1000 }
    }

    #[test]
    fn loses_exactly_the_packets_inside_a_window() {
        let mut b = blackout(&[(10, 11), (20, 21)], 1.0);
        let mut r = RandomStream::new(1, "test");
        let lost: Vec<bool> = [9.999, 10.0, 10.5, 10.999, 11.0, 15.0, 20.5].iter().map(|&t| b.loses(&at(t), &mut r)).collect();
        assert_eq!(lost, [false, true, true, true, false, false, true]);
    }

    #[test]
    fn a_fraction_loses_about_that_share() {
        let mut b = blackout(&[(0, 100)], 0.3);
        let mut r = RandomStream::new(1, "test");
        let lost = (0..10_000).filter(|&i| b.loses(&at(i as f64 / 200.0), &mut r)).count();
        assert!((2_800..3_200).contains(&lost), "{lost}");
    }

    #[test]
    fn an_empty_window_list_is_rejected() {
        assert!(check(&SPEC.defaults()).is_err());
    }
}
