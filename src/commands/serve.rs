//! `agx serve`: assemble a server from the store and speak MCP (DESIGN §7).

use std::path::PathBuf;

use super::Context;
use crate::cli::ServeArgs;
use crate::error::{CliError, CliResult, Hint};
use crate::name::{PackageName, QualifiedName};
use crate::runtime::{self, Listen};
use crate::store::Store;

pub fn run(ctx: &Context, args: &ServeArgs) -> CliResult {
    let server = QualifiedName::parse(&args.server)?;
    let listen = match &args.http {
        Some(addr) => Listen::Http(runtime::parse_listen_address(addr)?),
        None => Listen::Stdio,
    };
    runtime::limit_malloc_arenas();
    let paths = ctx.paths()?;
    let store = Store::open(paths);
    let assembled = {
        // Readers share the store lock while loading, so an install cannot swap a package
        // half-way; it is released before serving, which may last for days.
        let _lock = store.lock_shared_if_present()?;
        let find = |name: &PackageName| -> Result<Option<PathBuf>, String> {
            store.installed_dir(name).map_err(|e| match Hint::hint(&e) {
                Some(fix) => format!("{e} ({fix})"),
                None => e.to_string(),
            })
        };
        runtime::assemble(&server, &find)?
    };
    let log_file = runtime::log_file(&paths.logs_dir(), &server);
    runtime::run(assembled, listen, Some(log_file)).map_err(CliError::from)
}
