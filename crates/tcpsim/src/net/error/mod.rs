//! Link error models: packets lost on a link, for example during a wireless handoff.
//!
//! ns-2's `$ns lossmodel $em $a $b` puts the `ErrorModel` at the head of the link,
//! before its queue (ns-lib.tcl `lossmodel` → ns-link.tcl `SimpleLink errormodule` →
//! `add-to-head`, drop target the link's drop head): the model sees each packet as it
//! arrives at the link, and a packet it loses never enters the queue. tcpsim does the
//! same. Losses are counted per link direction (`error_drops` in the links table), in the
//! flow's `drops`, and traced as `d` (with no `+`, as in ns-2).
//!
//! Each model lives in its own file with a `SPEC` and a [`LinkErrorModel`], listed in
//! `crate::catalogue`; each link direction
//! draws from its own random stream ("error FROM->TO"), so a run is deterministic for a
//! seed and adding a flow does not move another link's losses.

pub mod blackout;
pub mod uniform;

use crate::engine::{RandomStream, SimTime};
use crate::model::{Chosen, Family, FamilyModel, ModelConfig, ModelSpec};

/// A link error model as the catalogue lists it: its spec and its constructor.
pub struct LinkErrorModel {
    pub spec: &'static ModelSpec,
    pub build: fn(&ModelConfig) -> Box<dyn ErrorModel>,
}

impl FamilyModel for LinkErrorModel {
    const FAMILY: Family = Family::ErrorModel;
    fn spec(&self) -> &'static ModelSpec {
        self.spec
    }
}

impl Chosen<LinkErrorModel> {
    /// An error model of this model and configuration (one per link direction).
    pub fn build(&self) -> Box<dyn ErrorModel> {
        (self.model.build)(&self.config)
    }
}

/// What an error model sees of a packet arriving at its link.
#[derive(Debug, Clone, Copy)]
pub struct Transmission {
    /// When it arrives at the link.
    pub at: SimTime,
    /// Size on the wire, bytes.
    pub size: u32,
}

/// The error-model trait: decide, for each packet a link transmits, whether it is lost.
pub trait ErrorModel {
    /// True if the packet is lost.
    fn loses(&mut self, packet: &Transmission, random: &mut RandomStream) -> bool;
}
