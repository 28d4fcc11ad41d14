//! `agx serve`: assemble a server from the store and speak MCP (DESIGN §7).
//!
//! The `agx` binary hands the work to `agx-serve` when that binary sits beside it (see
//! [`helper`]): the same library code, linked without the installer, registry client and
//! client-config editors, so a server that runs for days keeps less of agx in memory.

pub mod helper;

use std::path::PathBuf;

use super::Context;
use crate::cli::ServeArgs;
use crate::error::{CliError, CliResult, Hint};
use crate::name::{PackageName, QualifiedName};
use crate::paths::AgxPaths;
use crate::runtime::{self, Listen};
use crate::store::Store;

pub fn run(ctx: &Context, args: &ServeArgs) -> CliResult {
    // Bad arguments are reported before the hand-off (the helper would report them alike).
    let server = QualifiedName::parse(&args.server)?;
    let listen = listen_on(args.http.as_deref())?;
    helper::hand_off(&args.server, args.http.as_deref(), ctx.printer.color());
    serve(ctx.paths()?, &server, listen)
}

fn listen_on(http: Option<&str>) -> CliResult<Listen> {
    Ok(match http {
        Some(addr) => Listen::Http(runtime::parse_listen_address(addr)?),
        None => Listen::Stdio,
    })
}

/// Serve `server` from this process until the client goes away.
pub fn serve(paths: &AgxPaths, server: &QualifiedName, listen: Listen) -> CliResult {
    runtime::limit_malloc_arenas();
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
        runtime::assemble(server, &find)?
    };
    let log_file = runtime::log_file(&paths.logs_dir(), server);
    runtime::run(assembled, listen, Some(log_file)).map_err(CliError::from)
}
