//! Least privilege for the programs agx starts for a server (docs/sandbox.md): the
//! permissions a package declares, resolved for a run, and how each OS enforces them.

pub mod permissions;

pub use permissions::{Network, Permissions, Resolved};
