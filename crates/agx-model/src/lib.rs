//! The package model and its validation: `agx.toml`, tools, prompts, resources, servers, skills, settings declarations, permissions, filters, the client table and MCPB manifests. Reads files; never downloads, installs or runs a server.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod client_table;
pub mod filter;
pub mod manifest;
pub mod mcpb_manifest;
pub mod permissions;
pub mod policy;
pub mod scan;
pub mod settings;
pub mod skills;
