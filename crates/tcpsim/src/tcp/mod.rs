//! TCP, one-way and packet-counted like ns-2's agents: a sender (`sender.rs`) that
//! combines a loss-recovery variant (`recovery/`) with a congestion control (`cc/`), and a
//! receiver (`receiver.rs`) that ACKs every packet or delays ACKs.

pub mod cc;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod sender;

pub use receiver::{ReceiverKind, TcpReceiver};
pub use recovery::RecoveryKind;
pub use sender::{TcpParams, TcpSender};
