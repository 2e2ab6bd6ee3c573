//! TCP, one-way and packet-counted like ns-2's agents: a sender (`sender.rs`, with its
//! parameters in `params.rs`) that combines a loss-recovery variant (`recovery/`) with a
//! congestion control (`cc/`), and a receiver (`receiver/`) that ACKs every packet or
//! delays ACKs, echoes ECN and sends SACK blocks. What travels back is an [`AckInfo`].

pub mod ack;
pub mod cc;
pub mod ecn;
pub mod receiver;
pub mod recovery;
pub mod response;
pub mod rtt;
pub mod sender;
pub mod params;
pub mod profile;
pub mod state;

pub use ack::AckInfo;
pub use params::TcpParams;
pub use receiver::TcpReceiver;
pub use sender::TcpSender;
