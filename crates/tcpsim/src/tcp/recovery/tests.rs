//! Scripted tests of the loss-recovery variants.
