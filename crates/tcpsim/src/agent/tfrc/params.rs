//! TFRC's parameters: the model's `SPEC` (ns-2.35 defaults) and their typed form.
//! (`MODEL`, which builds the agents from them, is in the parent module, `super`: the
//! agents read these parameters, so they cannot live beside the builder without an
//! import loop.)

use super::loss_history::LossHistoryRules;
use super::rate::SenderRules;
use crate::engine::time::{self, PS_PER_MS};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamType as T, Relations, Value as V};

const NS2: &str = "ns-2.35 Agent/TFRC default (ns-default.tcl)";
const NS2_SINK: &str = "ns-2.35 Agent/TFRCSink default (ns-default.tcl)";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Agent,
    name: "tfrc",
    summary: "TCP-Friendly Rate Control: packets paced at the rate the TCP throughput equation allows for the loss event rate and RTT the receiver reports once per RTT (ns-2 Agent/TFRC to Agent/TFRCSink)",
    source: "RFC 5348 (Floyd, Handley, Padhye, Widmer 2008); ns-2.35 tcp/tfrc.cc and tcp/tfrc-sink.cc",
    params: &[
        Param::new("packet_size", T::Size, "B", V::Size(1000), "segment size s: payload bytes per data packet, the s of the equation (ns-2 packetSize_)", NS2).range(1.0, 1e9),
        Param::new("header_size", T::Size, "B", V::Size(32), "bytes each data packet adds on the wire (ns-2 headersize_, added with useHeaders_ true)", NS2).range(0.0, 1e9),
        Param::new("initial_rate", T::Rate, "bit/s", V::Rate(2400), "the rate before the first report (ns-2 InitRate_ 300 B/s)", NS2).range(8.0, 1e15),
        Param::new("rtt_filter", T::Number, "", V::Number(0.95), "weight of the old R in R = w·R + (1 − w)·sample (ns-2 df_)", NS2).range(0.0, 0.999999),
        Param::new("tcp_tick", T::Time, "s", V::Time(100 * PS_PER_MS), "clock granularity of the TCP-style t_RTO estimate the equation uses (ns-2 tcp_tick_)", NS2).range(1e-9, 1e3),
        Param::new("min_rto", T::Time, "s", V::Time(0), "least t_RTO (ns-2 minrto_)", NS2),
        Param::new("slow_start_multiplier", T::Number, "", V::Number(2.0), "slow start multiplies the rate by this once per RTT, up to twice the receive rate (ns-2 ssmult_)", NS2).range(1.0, 1e3),
        Param::new("packets_per_ack", T::Number, "packets", V::Number(1.0), "b, the packets one TCP ACK acknowledges, in the equation (ns-2 bval_)", NS2).range(1.0, 1e3),
        Param::new("sqrt_rtt_pacing", T::Bool, "", V::Bool(true), "pace at X·avg(sqrt(R))/sqrt(R_latest) outside the slow-start ramp (ns-2 ca_)", NS2),
        Param::new("slow_increase", T::Bool, "", V::Bool(true), "in slow start, climb to a new rate over one RTT of packets (ns-2 slow_increase_)", NS2),
        Param::new("overhead", T::Number, "", V::Number(0.0), "scale each interval by a uniform factor in [1 − overhead, 1 + overhead) (ns-2 overhead_)", NS2).range(0.0, 0.999999),
        Param::new("feedback_size", T::Size, "B", V::Size(40), "feedback packet size on the wire (ns-2 Agent/TFRCSink packetSize_)", NS2_SINK).range(1.0, 1e9),
        Param::new("feedback_per_rtt", T::Number, "", V::Number(1.0), "reports per RTT the receiver aims at (ns-2 NumFeedback_)", NS2_SINK).range(0.001, 1e3),
        Param::new("history_discounting", T::Bool, "", V::Bool(true), "discount old loss intervals while the open one is long (RFC 5348 §5.5; ns-2 discount_)", NS2_SINK),
        Param::new("min_discount", T::Number, "", V::Number(0.5), "smallest discount factor (ns-2 minDiscountRatio_)", NS2_SINK).range(0.0, 1.0),
        Param::new("precise_loss", T::Bool, "", V::Bool(true), "a new loss event also needs a newer sender round (ns-2 PreciseLoss_)", NS2_SINK),
        Param::new("seed_history", T::Bool, "", V::Bool(true), "at the first loss, make up the interval before it from the rate received (RFC 5348 §6.3.1; ns-2 AdjustHistoryAfterSS_)", NS2_SINK),
    ],
    check: |_| Ok(()),
    relations: Relations::NONE,
};


/// A TFRC flow's parameters, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct TfrcParams {
    /// s, payload bytes per data packet (ns-2 `packetSize_`).
    pub packet_size: u32,
    /// Bytes a data packet adds on the wire (ns-2 `headersize_`).
    pub header_size: u32,
    /// ns-2 `InitRate_`, bytes/s.
    pub initial_rate_bytes_per_s: f64,
    /// ns-2 `df_`.
    pub rtt_filter: f64,
    pub tcp_tick_s: f64,
    pub min_rto_s: f64,
    pub slow_start_multiplier: f64,
    pub packets_per_ack: f64,
    pub sqrt_rtt_pacing: bool,
    pub slow_increase: bool,
    pub overhead: f64,
    pub feedback_size: u32,
    pub feedback_per_rtt: f64,
    pub history_discounting: bool,
    pub min_discount: f64,
    pub precise_loss: bool,
    pub seed_history: bool,
}

impl TfrcParams {
    pub fn from_config(c: &ModelConfig) -> Self {
        TfrcParams {
            packet_size: c.size("packet_size") as u32,
            header_size: c.size("header_size") as u32,
            initial_rate_bytes_per_s: c.rate("initial_rate") as f64 / 8.0,
            rtt_filter: c.number("rtt_filter"),
            tcp_tick_s: time::to_secs(c.time("tcp_tick")),
            min_rto_s: time::to_secs(c.time("min_rto")),
            slow_start_multiplier: c.number("slow_start_multiplier"),
            packets_per_ack: c.number("packets_per_ack"),
            sqrt_rtt_pacing: c.boolean("sqrt_rtt_pacing"),
            slow_increase: c.boolean("slow_increase"),
            overhead: c.number("overhead"),
            feedback_size: c.size("feedback_size") as u32,
            feedback_per_rtt: c.number("feedback_per_rtt"),
            history_discounting: c.boolean("history_discounting"),
            min_discount: c.number("min_discount"),
            precise_loss: c.boolean("precise_loss"),
            seed_history: c.boolean("seed_history"),
        }
    }

    /// The rate core's rules from the model's parameters (ns-2's rule set).
    pub fn sender_rules(&self) -> SenderRules {
        SenderRules {
            segment_size_bytes: self.packet_size as f64,
            slow_start_multiplier: self.slow_start_multiplier,
            ns2_initial_rate_bytes_per_s: self.initial_rate_bytes_per_s,
            ..SenderRules::default()
        }
    }

    pub fn loss_history_rules(&self) -> LossHistoryRules {
        LossHistoryRules { history_discounting: self.history_discounting, min_discount: self.min_discount }
    }
}

impl Default for TfrcParams {
    fn default() -> Self {
        TfrcParams::from_config(&SPEC.defaults())
    }
}
