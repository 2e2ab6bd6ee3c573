//! The network: link directions with their queues, and static routing.

pub mod link;
pub mod routing;

pub use link::LinkDirection;
