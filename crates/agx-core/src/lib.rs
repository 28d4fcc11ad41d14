//! Foundations every other agx crate builds on: errors and hints, paths of the agx home, names and requirements, atomic writes, file locks, capped reads of untrusted files, process trees, progress reports. Knows nothing of packages, sources, clients or serving.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod atomic;
pub mod clock;
pub mod error;
pub mod file_lock;
pub mod fsutil;
pub mod io_context;
pub mod name;
pub mod paths;
pub mod process_tree;
pub mod regular_file;
pub mod report;
pub mod server_table;
pub mod style;
pub mod wildcard;
