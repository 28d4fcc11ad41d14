//! agx: a package manager for AI-agent extensions. All behaviour lives in this library;
//! `main.rs` only parses arguments and renders errors.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

// musl's allocator is slow at the many small allocations of a start, and hands freed memory
// back to the kernel at once, so the same pages fault in again: the static Linux binaries use
// mimalloc instead (built without transparent huge pages, which would make each region it
// touches a resident 2 MB page).
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod archive;
pub mod atomic;
pub mod cli;
pub mod client_table;
pub mod clients;
pub mod commands;
pub mod ecosystem;
pub mod edit;
pub mod error;
pub mod file_lock;
pub mod filter;
pub mod fsutil;
pub mod index;
pub mod installer;
pub mod io_context;
pub mod manifest;
pub mod mcpb_manifest;
pub mod name;
pub mod ops;
pub mod paths;
pub mod permissions;
pub mod plugins;
pub mod printer;
pub mod process_tree;
pub mod profile;
pub mod project;
pub mod regular_file;
pub mod report;
pub mod resolve;
pub mod runtime;
pub mod sandbox;
pub mod server_table;
pub mod settings;
pub mod skills;
pub mod store;
pub mod style;
