//! MCP client configuration: the operations behind `install-server`, `uninstall-server`,
//! `clients` and `doctor`, one module per concern:
//!
//! - `table`: every client, its files and entry shape; `scope`: user, project or local;
//! - `target`: the file and container an entry goes into;
//! - `edit`, `shape`: reading and editing each file format, and the entry in each shape;
//! - `plan`: the text before and after an edit; `write`: writing it without losing a byte;
//! - `apply`: plan and write under locks, and keep `records` (clients-v1.toml) in step;
//! - `in_use`: the uninstall policy; `doctor`: drift between records, files and store.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod apply;
pub mod doctor;

mod error;
pub mod in_use;
pub mod plan;
pub mod records;
pub mod resolve;
mod scope;
mod skill_doctor;

mod target;

pub use target::check_confined_in;
pub mod write;

use std::path::{Path, PathBuf};

pub use agx_edit::{Container, SyntaxError};
pub use agx_model::client_table::shape::{self, ServerEntry};
pub use agx_model::client_table::{self as table, CLIENTS, Client, Format, HostEnv};
pub use apply::{Applied, install_entry, uninstall_entry};
pub use error::ClientError;
pub use in_use::{refuse_uninstall_while_used, uninstall_command};
pub use plan::{
    Change, Outcome, agx_entries, entries_by_owner, plan_install, plan_uninstall, read_doc,
};
pub use records::{Record, Records};
pub use scope::Scope;
pub use target::{Target, absolute_dir};

pub fn find_client(name: &str) -> Result<&'static Client, ClientError> {
    table::find(name).ok_or_else(|| ClientError::UnknownClient(name.into()))
}

/// The agx binary path to put into entries: canonical and absolute (GUI clients do not get
/// the shell's PATH), so the real binary, not a symlink or launcher that may move (npm's and
/// uv's; docs/clients.md). On Windows without the `\\?\` prefix std's canonical form has,
/// which clients and shells do not all accept.
pub fn agx_binary() -> std::io::Result<PathBuf> {
    dunce::canonicalize(std::env::current_exe()?)
}

/// Why an entry naming the agx binary at `binary` may stop working: npx runs packages from
/// its cache (`…/_npx/HASH/node_modules/…`), which `npm cache clean` and later npx runs
/// delete, so the entry would point at nothing.
pub fn transient_binary_notice(binary: &Path) -> Option<String> {
    binary
        .components()
        .any(|c| c.as_os_str() == "_npx")
        .then(|| {
            format!(
                "the entry runs {}, in npx's temporary cache, which npm may delete; install agx \
                 (`npm i -g agx`) and run install-server again with that agx",
                binary.display()
            )
        })
}

#[cfg(test)]
mod golden_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_in_npx_cache_is_transient() {
        let npx = Path::new("/home/ada/.npm/_npx/6a9f/node_modules/@agx-cli/linux-x64/bin/agx");
        let notice = transient_binary_notice(npx).expect("npx's cache is transient");
        assert!(notice.contains("npm i -g agx"), "{notice}");
        assert!(notice.contains(&npx.display().to_string()), "{notice}");
    }

    #[test]
    fn installed_binaries_are_not_transient() {
        for binary in [
            "/usr/lib/node_modules/agx/node_modules/@agx-cli/linux-x64/bin/agx",
            "/home/ada/.local/share/uv/tools/agx-cli/bin/agx",
            "/home/ada/src/_npx-notes/agx",
        ] {
            assert_eq!(transient_binary_notice(Path::new(binary)), None, "{binary}");
        }
    }

    #[cfg(windows)]
    #[test]
    fn a_binary_in_npx_cache_is_transient_on_windows() {
        let npx = Path::new(
            r"C:\Users\Ada\AppData\Local\npm-cache\_npx\6a9f\node_modules\@agx-cli\win32-x64\bin\agx.exe",
        );
        assert!(transient_binary_notice(npx).is_some());
    }
}
