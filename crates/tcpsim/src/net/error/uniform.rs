//! Uniform random loss: each packet a link transmits is lost with probability `rate`,
//! independently (ns-2.35 `ErrorModel` with `unit_ pkt`, `rate_`, a uniform random
//! variable: errmodel.cc `ErrorModel::corrupt`).
//!
//! Parameters:
//! - `rate`: loss probability per packet; default 0.01.
//!
//! Deviation: ns-2's byte and bit units (`unit_ byte|bit`) are not implemented; the
//! probability is per packet whatever its size.

use super::{ErrorModel, Transmission};
use crate::engine::RandomStream;
use crate::model::{Family, ModelSpec, no_check, Param, ParamType as T, Relations, Value as V};
use crate::net::error::LinkErrorModel;

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::ErrorModel,
    name: "uniform",
    summary: "lose each packet independently with a fixed probability",
    source: "ns-2.35 ErrorModel (errmodel.cc), unit_ pkt",
    params: &[Param::new("rate", T::Number, "", V::Number(0.01), "loss probability per packet (ns-2 rate_)", "our default; ns-2 rate_ defaults to 0").range(0.0, 1.0)],
    check: no_check,
    relations: Relations::NONE,
};

pub static MODEL: LinkErrorModel = LinkErrorModel { spec: &SPEC, build: |c| Box::new(Uniform { rate: c.number("rate") }) };

#[derive(Debug, Clone)]
pub struct Uniform {
    rate: f64,
}

impl ErrorModel for Uniform {
    fn loses(&mut self, _packet: &Transmission, random: &mut RandomStream) -> bool {
        random.uniform() < self.rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loses_about_rate_of_the_packets_and_replays_for_a_seed() {
        let run = |seed| {
            let mut u = Uniform { rate: 0.05 };
            let mut r = RandomStream::new(seed, "error a->b");
            (0..20_000).map(|_| u.loses(&Transmission { at: 0, size: 1000 }, &mut r)).collect::<Vec<_>>()
        };
        let lost = run(1).iter().filter(|&&l| l).count();
        assert!((900..1_100).contains(&lost), "{lost}");
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }
}
