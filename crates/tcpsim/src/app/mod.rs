//! Applications. Bulk transfer (ns-2 FTP) is the TCP sender's unlimited or N-packet
//! backlog (`TcpParams::packets`); constant bit rate over UDP lives in `cbr.rs`.

pub mod cbr;

pub use cbr::{CbrParams, CbrSource};
