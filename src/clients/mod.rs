//! MCP client configuration: the operations behind `install-server`, `uninstall-server`,
//! `clients` and `doctor`, one module per concern:
//!
//! - `table`: every client, its files and entry shape; `scope`: user, project or local;
//! - `target`: the file and container an entry goes into;
//! - `edit`, `shape`: reading and editing each file format, and the entry in each shape;
//! - `plan`: the text before and after an edit; `write`: writing it without losing a byte;
//! - `apply`: plan and write under locks, and keep `records` (clients-v1.toml) in step;
//! - `in_use`: the uninstall policy; `doctor`: drift between records, files and store.

pub mod apply;
pub mod doctor;
pub mod edit;
mod error;
pub mod in_use;
pub mod plan;
pub mod records;
pub mod resolve;
mod scope;
pub mod shape;
pub mod table;
mod target;

pub(crate) use target::check_confined_in;
pub mod write;

use std::path::PathBuf;

pub use apply::{Applied, install_entry, uninstall_entry};
pub use edit::{Container, SyntaxError};
pub use error::ClientError;
pub use in_use::{refuse_uninstall_while_used, uninstall_command};
pub use plan::{Change, Outcome, agx_entries, plan_install, plan_uninstall, read_doc};
pub use records::{Record, Records};
pub use scope::Scope;
pub use shape::ServerEntry;
pub use table::{CLIENTS, Client, Format, HostEnv};
pub use target::{Target, absolute_dir};

pub fn find_client(name: &str) -> Result<&'static Client, ClientError> {
    table::find(name).ok_or_else(|| ClientError::UnknownClient(name.into()))
}

/// The agx binary path to put into entries: canonical and absolute (GUI clients do not get
/// the shell's PATH).
pub fn agx_binary() -> std::io::Result<PathBuf> {
    std::fs::canonicalize(std::env::current_exe()?)
}

#[cfg(test)]
mod golden_tests;
