//! Monitors: time series sampled at a fixed interval, kept in columnar buffers.

pub mod timeseries;
pub mod trace;

pub use timeseries::TimeSeries;
