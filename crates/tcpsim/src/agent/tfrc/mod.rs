//! TFRC, TCP-Friendly Rate Control (RFC 5348, "TCP Friendly Rate Control (TFRC): Protocol
//! Specification", Floyd, Handley, Padhye, Widmer, September 2008): the rate-control
//! core, one concern per file, independent of the engine. Not yet a traffic source:
//! the agents, their packets and the catalogue entry come later (issue 19).
//!
//! - [`equation`]: the TCP throughput equation X(s, R, p, t_RTO) (§3.1) and its inverse
//!   (the p that gives a rate, §6.3.1);
//! - [`loss_history`]: the receiver's loss events, loss intervals and loss event rate
//!   (§5);
//! - [`rate`]: the sender's allowed rate on feedback and on the no-feedback timer (§4).
//!
//! The defaults follow ns-2.35's `Agent/TFRC` and `Agent/TFRCSink` (tcp/tfrc.cc,
//! tcp/tfrc-sink.cc, tcl/lib/ns-default.tcl), which the model will be checked against;
//! where ns-2 departs from the RFC, the RFC's rule is an option, and each file's header
//! lists the differences.

pub mod equation;
pub mod loss_history;
pub mod rate;
