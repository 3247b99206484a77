//! The fuzzer's parts, shared by its binary and by the replay of past findings.

pub mod exercise;
pub mod mapping;
pub mod mutate;
pub mod targets;

pub use exercise::exercise;
