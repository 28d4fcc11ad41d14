//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use crate::ecosystem::ProvisionOptions;
use crate::error::{CliError, CliResult};
use crate::index::mcp_registry::is_server_name;
use crate::ops::install::{self, Target};

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    if let Some(arg) = args.packages.iter().find(|arg| names_listed_server(arg)) {
        let name = arg.split('@').next().unwrap_or(arg);
        return Err(CliError::new(format!(
            "`{name}` is an MCP Registry server, and installing from an MCP registry is not supported yet"
        ))
        .with_hint(format!(
            "`agx info {name}` shows its packages; install one directly with `agx install \
             npm:<identifier>` or `agx install pypi:<identifier>` (docs/ecosystem.md)"
        )));
    }
    let targets = args
        .packages
        .iter()
        .map(|arg| Target::parse_with_sha256(arg, args.sha256.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let bundles = targets
        .iter()
        .filter(|t| matches!(t, Target::Bundle(_)))
        .count();
    if args.sha256.is_some() && bundles != 1 {
        return Err(CliError::new(format!(
            "--sha256 checks one MCPB bundle, and {bundles} were given"
        ))
        .with_hint(
            "install bundles one at a time, each with its own --sha256 (a `.mcpb` file or URL)",
        ));
    }
    let provision = ProvisionOptions {
        allow_scripts: args.allow_scripts,
        allow_sdist: args.allow_sdist,
    };
    Ok(install::install_with(
        &ctx.ops()?,
        &targets,
        args.force,
        provision,
    )?)
}

/// `io.github.user/weather[@1.0.0]`, not a path on this machine.
fn names_listed_server(arg: &str) -> bool {
    let name = arg.split('@').next().unwrap_or(arg);
    is_server_name(name) && !std::path::Path::new(arg).exists()
}
