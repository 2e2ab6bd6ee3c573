//! The TCP sender's parameters: ns-2.35 `Agent/TCP` + `Application/FTP`; every default
//! is ns-2.35's. `SPEC` is the `tcp` traffic source's spec (`agent/tcp.rs` builds the
//! agents); [`TcpParams`] is their typed form, which the sender's state keeps.
//!
//! A TCP flow also chooses a loss recovery (`recovery = ...`), a congestion control
//! (`cc = ...`) and a receiver (`receiver = ...`), each a model of its own
//! (`relations.selects`); the parameters here are those of the sender itself.

use crate::engine::time::{Dur, PS_PER_MS, PS_PER_S};
use crate::model::{Family, ModelConfig, ModelSpec, Param, ParamError, ParamType as T, Relations, Value as V};

const NS2: &str = "ns-2.35 Agent/TCP default";

pub static SPEC: ModelSpec = ModelSpec {
    family: Family::Agent,
    name: "tcp",
    summary: "one-way TCP sender with a bulk (FTP) application, packet-counted like ns-2's Agent/TCP",
    source: "ns-2.35 Agent/TCP (tcp.cc) and Application/FTP; RFC 5681, RFC 6298",
    params: &[
        Param::new("packet_size", T::Size, "B", V::Size(1000), "payload bytes per packet (ns-2 packetSize_)", NS2).range(1.0, 1e9),
        Param::new("header_size", T::Size, "B", V::Size(40), "TCP/IP header bytes added on the wire (ns-2 tcpip_base_hdr_size_)", NS2).range(0.0, 1e9),
        Param::new("ack_size", T::Size, "B", V::Size(40), "ACK size on the wire (ns-2 Agent/TCPSink packetSize_)", "ns-2.35 Agent/TCPSink default").range(1.0, 1e9),
        Param::new("initial_window", T::Number, "packets", V::Number(2.0), "initial congestion window (ns-2 windowInit_)", NS2).range(1.0, 1e9),
        Param::new("max_window", T::Integer, "packets", V::Integer(20), "receiver's advertised window (ns-2 window_)", NS2).range(1.0, 1073741824.0),
        Param::new("initial_ssthresh", T::Number, "packets", V::Unset, "initial slow-start threshold; unset = the advertised window (ns-2 reset())", NS2).range(1.0, 1e12),
        Param::new("dupack_threshold", T::Integer, "ACKs", V::Integer(3), "duplicate ACKs that trigger fast retransmit (ns-2 numdupacks_)", NS2).range(1.0, 1000.0),
        Param::new("limited_transmit", T::Bool, "", V::Bool(true), "send a new packet on each of the first dupack_threshold − 1 duplicate ACKs (RFC 3042; ns-2 singledup_)", NS2),
        Param::new("min_rto", T::Time, "s", V::Time(200 * PS_PER_MS), "minimum retransmission timeout (ns-2 minrto_)", NS2),
        Param::new("max_rto", T::Time, "s", V::Time(60 * PS_PER_S), "maximum retransmission timeout (ns-2 maxrto_)", NS2),
        Param::new("initial_rto", T::Time, "s", V::Time(3 * PS_PER_S), "retransmission timeout before the first RTT sample (ns-2 rtxcur_init_)", NS2),
        Param::new("clock_granularity", T::Time, "s", V::Time(10 * PS_PER_MS), "tick of RTT samples and RTO (ns-2 tcpTick_; with rto_rule = \"linux\" the RTO is rounded up to it, Linux's jiffy)", NS2),
        Param::new("rtt_samples", T::Choice(&["one_per_rtt", "every_ack"]), "", V::Choice("one_per_rtt"), "which ACKs give the RTO estimator a sample: \"one_per_rtt\" times one packet at a time with Karn's rule (ns-2 rtt_active_); \"every_ack\" takes one from the timestamp echo of every ACK of new data (RFC 7323 §4; Linux with timestamps)", NS2),
        Param::new("rto_rule", T::Choice(&["ns2", "linux"]), "", V::Choice("ns2"), "RTO estimator: \"ns2\" (Jacobson/Karels in ticks, RTO = max(srtt + 4·rttvar, min_rto)·backoff) or \"linux\" (tcp_rtt_estimator in µs: RTO = srtt + max(4·deviation over the last window, min_rto), rounded up to clock_granularity)", "ns-2.35 rtt_update; Linux tcp_rtt_estimator, tcp_set_rto"),
        Param::new("packets", T::Integer, "packets", V::Unset, "packets to transfer; unset = unlimited (ns-2 FTP start)", "ns-2.35 Application/FTP").range(1.0, 4.6e18),
        Param::new("syn", T::Bool, "", V::Bool(true), "open with a SYN as packet 0 (a header alone unless full_size_syn) and start data with initial_window once it is ACKed (ns-2 syn_ and delay_growth_)", NS2),
        Param::new("full_size_syn", T::Bool, "", V::Bool(false), "the SYN is a full-size packet (packet_size + header_size) instead of a header alone, as ns-2's Agent/TCP/Vegas sends it (VegasTcpAgent::output never shrinks packet 0)", "ns-2.35 TcpAgent::output / VegasTcpAgent::output"),
        Param::new("ecn", T::Bool, "", V::Bool(false), "ECN-capable TCP: packet 0 offers ECN (ECE, not ECT), data packets carry ECT(0), and an ECN echo halves cwnd and ssthresh at most once per window (ns-2 ecn_; RFC 3168 §6.1)", NS2),
        Param::new("ecn_once_per_window", T::Bool, "", V::Bool(true), "with ecn: respond to an ECN echo at most once per window of data, ignoring echoes for packets sent before the last response (ns-2 ecn(), RFC 3168 §6.1.2); false = every ACK carrying ECE halves cwnd and ssthresh again (the sensitivity reading of reference document 002 §2.4)", NS2),
        Param::new("ect_on_retransmit", T::Bool, "", V::Bool(true), "with ecn: retransmitted data packets carry ECT too, as ns-2.35's output() sets it on every data packet; false = RFC 3168 §6.1.5 (retransmissions are not ECN-capable)", "ns-2.35 TcpAgent::output"),
        Param::new("cwr_on_retransmit", T::Bool, "", V::Bool(true), "CWR goes on the next packet sent after a window reduction even if it is a retransmission (ns-2 SetCWRonRetransmit_); false = only on the next new data packet (RFC 3168 §6.1.2)", NS2),
        Param::new("rtt_hint", T::Choice(&["none", "last", "srtt", "min"]), "", V::Choice("none"), "RTT written into each data packet for FECN/MFFECN routers: none, the last sample, the smoothed RTT, or the smallest sample", "reference document 002 (FECN); our option"),
        Param::new("overhead", T::Time, "s", V::Time(0), "random processing delay before sending, uniform in [0, overhead], drawn from the flow's own random stream: new data waits for it after each ACK or timer (ns-2 overhead_, which breaks phase effects between flows; 0 = none)", NS2).range(0.0, 1e3),
    ],
    check,
    // The receiver is the flow's sink.
    relations: Relations { selects: &[Family::CongestionControl, Family::Recovery, Family::Receiver], ..Relations::NONE },
};

fn check(c: &ModelConfig) -> Result<(), ParamError> {
    if c.time("clock_granularity") == 0 {
        return Err(ParamError::new("clock_granularity", "a tick greater than zero, such as \"10ms\""));
    }
    if c.time("max_rto") < c.time("min_rto") {
        return Err(ParamError::new("max_rto", "max_rto to be at least min_rto"));
    }
    if c.time("initial_rto") == 0 {
        return Err(ParamError::new("initial_rto", "a time greater than zero"));
    }
    Ok(())
}

pub use super::rtt::RtoRule;

/// Which ACKs give the RTO estimator a sample (`rtt_samples`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RttSamples {
    /// One timed packet at a time, Karn's rule (ns-2).
    OnePerRtt,
    /// Every ACK of new data, from its timestamp echo (RFC 7323 §4, Linux).
    EveryAck,
}

/// Which RTT the sender writes into its data packets (`rtt_hint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RttHint {
    None,
    Last,
    Smoothed,
    Min,
}

/// The TCP sender's parameters, typed (from `SPEC`).
#[derive(Debug, Clone, PartialEq)]
pub struct TcpParams {
    pub packet_size: u32,
    pub header_size: u32,
    pub ack_size: u32,
    pub initial_window: f64,
    pub max_window: u32,
    pub initial_ssthresh: Option<f64>,
    pub dupack_threshold: u32,
    pub limited_transmit: bool,
    pub min_rto: Dur,
    pub max_rto: Dur,
    pub initial_rto: Dur,
    pub clock_granularity: Dur,
    pub rtt_samples: RttSamples,
    pub rto_rule: RtoRule,
    pub packets: Option<u64>,
    pub syn: bool,
    pub full_size_syn: bool,
    pub ecn: bool,
    pub ecn_once_per_window: bool,
    pub ect_on_retransmit: bool,
    pub cwr_on_retransmit: bool,
    pub rtt_hint: RttHint,
    /// Largest random delay before sending new data, ps (ns-2 `overhead_`; 0 = none).
    pub overhead: Dur,
}

impl TcpParams {
    /// Bytes of the SYN (packet 0) on the wire: the header alone, at least one byte, or
    /// a full packet with `full_size_syn`.
    pub fn syn_wire_size(&self) -> u32 {
        if self.full_size_syn {
            self.packet_size + self.header_size
        } else {
            self.header_size.max(1)
        }
    }

    /// Typed parameters from the source's configuration (`SPEC`).
    pub fn from_config(agent: &ModelConfig) -> TcpParams {
        TcpParams {
            packet_size: agent.size("packet_size") as u32,
            header_size: agent.size("header_size") as u32,
            ack_size: agent.size("ack_size") as u32,
            initial_window: agent.number("initial_window"),
            max_window: agent.integer("max_window") as u32,
            initial_ssthresh: agent.opt_number("initial_ssthresh"),
            dupack_threshold: agent.integer("dupack_threshold") as u32,
            limited_transmit: agent.boolean("limited_transmit"),
            min_rto: agent.time("min_rto"),
            max_rto: agent.time("max_rto"),
            initial_rto: agent.time("initial_rto"),
            clock_granularity: agent.time("clock_granularity"),
            rtt_samples: if agent.choice("rtt_samples") == "every_ack" { RttSamples::EveryAck } else { RttSamples::OnePerRtt },
            rto_rule: if agent.choice("rto_rule") == "linux" { RtoRule::Linux } else { RtoRule::Ns2 },
            packets: agent.opt_integer("packets").map(|n| n as u64),
            syn: agent.boolean("syn"),
            full_size_syn: agent.boolean("full_size_syn"),
            ecn: agent.boolean("ecn"),
            ecn_once_per_window: agent.boolean("ecn_once_per_window"),
            ect_on_retransmit: agent.boolean("ect_on_retransmit"),
            cwr_on_retransmit: agent.boolean("cwr_on_retransmit"),
            rtt_hint: match agent.choice("rtt_hint") {
                "last" => RttHint::Last,
                "srtt" => RttHint::Smoothed,
                "min" => RttHint::Min,
                _ => RttHint::None,
            },
            overhead: agent.time("overhead"),
        }
    }
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpParams::from_config(&SPEC.defaults())
    }
}
