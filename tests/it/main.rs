//! Integration tests: one binary, one module per area. Each test runs the real `agx` binary
//! with HOME and AGX_HOME in a temporary folder.
//!
//! Output whose whole shape matters (errors with their hints, listings, diffs) is compared
//! with insta snapshots in `snapshots/`, after the filters of `support::snapshot` replace
//! temp folders, ports and process ids. After a deliberate change of output, rewrite them
//! with `INSTA_UPDATE=always cargo test --test it`, read the `.snap` diffs and commit them;
//! CI (`CI=true`) never writes snapshots, so a missing or stale one fails.
// As in the library: paths are larger on Windows, which puts a few errors past the lint.
#![cfg_attr(windows, allow(clippy::result_large_err))]

mod support;

mod archive;
mod auth;
mod bridge;
mod call;
mod channel;
mod cli;
mod client_safety;
mod clients;
mod code_cache;
mod data_folder;
mod discover;
mod ecosystem;
mod ecosystem_provenance;
mod ecosystem_skills;
mod eras;
mod filter;
mod generated;
mod hostile_marketplace;
mod layers;
mod marketplace;
mod mcp_registry;
mod mcp_registry_install;
mod mcpb;
mod multi_version;
mod network_hardening;

mod oci;
mod oci_source;
mod pack;
mod pinning;
mod plugin_dialects;
mod plugin_leniency;
mod plugins;
mod poison_scan;
mod policy;
mod profile;
mod project;
mod project_lock;
mod project_safety;
mod project_skills;
mod project_sources;
mod provenance;
mod registry;
mod resources;
mod runtime_hardening;
mod sandbox;
#[cfg(target_os = "linux")]
mod sandbox_escapes;
mod sbom;
mod serve;
mod server_args;
mod settings;
mod skills;
mod store;
mod store_hardening;
mod tuf;
mod validate;
mod validate_hardening;
mod well_known;
