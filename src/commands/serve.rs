//! `agx serve`: assemble a server from the store and speak MCP (DESIGN §7).

use std::path::{Path, PathBuf};

use super::Context;
use crate::cli::ServeArgs;
use crate::error::{CliError, CliResult};
use crate::name::{PackageName, QualifiedName};
use crate::runtime::{self, Listen};

pub fn run(ctx: &Context, args: &ServeArgs) -> CliResult {
    let server = QualifiedName::parse(&args.server)?;
    let listen = match &args.http {
        Some(addr) => Listen::Http(runtime::parse_listen_address(addr)?),
        None => Listen::Stdio,
    };
    let paths = ctx.paths()?;
    let store = paths.store_dir();
    let find = |name: &PackageName| installed_package_dir(&store, name);
    let log_file = runtime::log_file(&paths.logs_dir(), &server);
    runtime::serve(&server, &find, listen, Some(log_file)).map_err(CliError::from)
}

/// The folder of the installed version of `name`: `store-v1/<publisher>/<name>/<version>/`.
/// One version is installed at a time; should several folders exist (an upgrade in
/// progress), the newest complete one wins. Staging folders (not a version) are skipped.
fn installed_package_dir(store: &Path, name: &PackageName) -> Result<Option<PathBuf>, String> {
    let (publisher, package) = name.path_segments();
    let dir = store.join(publisher).join(package);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let newest = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let version = semver::Version::parse(e.file_name().to_str()?).ok()?;
            let path = e.path();
            path.join("agx.toml").is_file().then_some((version, path))
        })
        .max_by(|a, b| a.0.cmp(&b.0));
    Ok(newest.map(|(_, path)| path))
}
