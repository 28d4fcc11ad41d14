//! Where packages come from: agx indexes, MCP registries, Claude-format marketplaces, npm, PyPI, OCI and MCPB provisioning, version resolution, plugin import. Everything that speaks HTTP to a registry.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod ecosystem;
pub mod index;
pub mod plugins;
pub mod resolve;
