//! The network: link directions with their queues and error models, and static routing.

pub mod error;
pub mod link;
pub mod routing;

pub use link::{LinkCounters, LinkDirection, LinkStats};
