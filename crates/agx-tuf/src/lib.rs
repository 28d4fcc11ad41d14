//! The Update Framework (specification 1.0.x) for agx registries.
//!
//! - [`metadata`]: the signed files and their roles;
//! - [`keys`]: signature checks and the operator's ed25519 keys;
//! - [`trusted`]: the client workflow's checks, role by role;
//! - [`updater`]: the workflow over a [`updater::Fetcher`], with a local folder of trusted
//!   metadata;
//!
//! Written for agx rather than taken from `tough`: agx fetches with blocking I/O (tough is
//! async only), verifies with `ring`, the one cryptography library agx already links (tough
//! links aws-lc-rs, a second C library to build for every target), and uses PEP 458's
//! succinct hashed bins, which tough does not implement. The checks follow the
//! specification's client workflow; the TUF conformance suite runs against
//! `examples/tuf_client.rs`.

pub mod error;
pub mod hashes;
pub mod keys;
pub mod metadata;
pub mod repository;
pub mod trusted;
pub mod updater;

#[cfg(test)]
mod reference_tests;

pub use error::{Result, TufError};
pub use updater::{FetchError, Fetcher, Updater};
