//! TFRC, TCP-Friendly Rate Control (RFC 5348, "TCP Friendly Rate Control (TFRC): Protocol
//! Specification", Floyd, Handley, Padhye, Widmer, September 2008), as ns-2.35's
//! `Agent/TFRC` and `Agent/TFRCSink` run it: a rate-based traffic source of its own
//! beside TCP (`type = "tfrc"`).
//!
//! The rate-control core, one concern per file, independent of the engine:
//!
//! - [`equation`]: the TCP throughput equation X(s, R, p, t_RTO) (§3.1) and its inverse
//!   (the p that gives a rate, §6.3.1);
//! - [`loss_history`]: the receiver's loss events, loss intervals and loss event rate
//!   (§5);
//! - [`rate`]: the sender's allowed rate on feedback and on the no-feedback timer (§4).
//!
//! The agents and what they put on the wire:
//!
//! - [`source`]: the sender (pacing, RTT and t_RTO estimates, the no-feedback timer);
//! - [`sink`]: the receiver (loss detection, X_recv, when to report);
//! - [`wire`]: the header fields of data and feedback packets beyond those every packet
//!   has;
//! - [`params`]: the model's `SPEC` and its typed parameters; [`ties`]: comparing
//!   durations as ns-2's code reads in exact arithmetic.
//!
//! This module is the model's facade: it re-exports `SPEC` and declares `MODEL`, the
//! builder of the two agents (the agents read the parameters, so `SPEC` sits in a
//! child module of its own rather than here, which would be an import loop).
//!
//! The defaults follow ns-2.35's `Agent/TFRC` and `Agent/TFRCSink` (tcp/tfrc.cc,
//! tcp/tfrc-sink.cc, tcl/lib/ns-default.tcl), which the model is checked against
//! (validation/ns2 cases TFRC and TFRC-RENO). Where ns-2 departs from the RFC, the core keeps the RFC's
//! rule as an option ([`rate::RateRules`], [`equation::EquationRules`],
//! [`loss_history::LossHistoryRules`]); the agents use ns-2's rules, and a scenario
//! cannot choose the RFC's yet.
//!
//! Parameters (ns-2 defaults; `tcpsim models tfrc`): see [`SPEC`]. ns-2 settings that
//! are not parameters, fixed at their defaults: `rate_init_option_ 2` (RFC 3390 initial
//! window), `maxHeavyRounds_ 0`, `conservative_ 0`, `voip_ 0`, `ecn_ 0`, `SndrType_ 0`
//! (an infinite source, so `idleFix_` and `oldCode_` never act), the TCP RTO estimator's
//! bit widths (`T_SRTT_BITS 3`, `T_RTTVAR_BITS 2`, `rttvar_exp_ 2`), and at the sink
//! `algo_ 1`, `NumSamples_ -1` (8 intervals), `smooth_ 1`, `ShortIntervals_ 0` and
//! `numPkts_ 1` (the only value that works, says ns-2's tcl/test/test-suite-friendly.tcl).

pub mod equation;
pub mod loss_history;
pub mod params;
pub mod rate;
pub mod sink;
pub mod source;
pub mod ties;
pub mod wire;

pub use params::{TfrcParams, SPEC};

use super::{FlowAgents, FlowShape, Load, SourceConfig, SourceModel};
use crate::engine::{PacketKind, RandomStream};
use std::sync::Arc;

/// The `tfrc` traffic source.
pub static MODEL: SourceModel = SourceModel { spec: &SPEC, configure: |c, _| Ok(Arc::new(TfrcParams::from_config(c))) };

impl SourceConfig for TfrcParams {
    fn shape(&self) -> FlowShape {
        FlowShape {
            data_kind: PacketKind::Datagram,
            data_size: self.packet_size + self.header_size,
            payload: self.packet_size,
            ack_size: self.feedback_size,
            header_size: self.header_size,
            syn: false,
            syn_size: 0,
        }
    }

    fn largest_packet(&self) -> u32 {
        (self.packet_size + self.header_size).max(self.feedback_size)
    }

    fn load(&self) -> Load {
        // The rate adapts to the path: no bound of its own, so the estimate bounds the
        // packets in flight by what the route holds.
        Load::Rate {
            packet_size: self.packet_size + self.header_size,
            rate_bps: u64::MAX,
            agent_bytes: (std::mem::size_of::<source::TfrcSource>() + std::mem::size_of::<sink::TfrcSink>() + 4096) as u64,
        }
    }

    fn build(&self, random: RandomStream) -> FlowAgents {
        let wire = wire::Wire::shared();
        FlowAgents {
            source: Box::new(source::TfrcSource::new(self.clone(), wire.clone(), random)),
            sink: Box::new(sink::TfrcSink::new(self.clone(), wire)),
            shape: self.shape(),
        }
    }

    fn sampled(&self) -> &'static [&'static str] {
        source::SAMPLED
    }
}
