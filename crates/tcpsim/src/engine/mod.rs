//! The discrete-event engine: integer clock, deterministic scheduler, random streams and
//! the packet arena.

pub mod packet;
pub mod rng;
pub mod scheduler;
pub mod time;

pub use packet::{Ecn, Packet, PacketArena, PacketId, PacketKind, SackBlocks};
pub use rng::RandomStream;
pub use scheduler::{Event, EventKind, Scheduler};
pub use time::{Dur, SimTime};
