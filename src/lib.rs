//! agx, the command line: `cli` parses arguments, `commands` calls one operation of
//! `agx-ops` (or the runtime, for `agx serve`) and renders its result with `agx-printer`.
//! Everything else lives in the crates under `crates/` (README, Layout).

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod cli;
pub mod commands;
