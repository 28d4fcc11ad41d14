//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use crate::ecosystem::{Prefer, ProvisionOptions};
use crate::error::{CliError, CliResult};
use crate::ops::install::{self, Target};

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    let paths = ctx.paths()?;
    let targets = args
        .packages
        .iter()
        .map(|arg| Target::parse_configured(arg, args.sha256.as_deref(), paths))
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
    if args.prefer.is_some() && !targets.iter().any(|t| matches!(t, Target::Entry(_))) {
        return Err(CliError::new(
            "--prefer applies to servers from an MCP registry, and none was given",
        )
        .with_hint(
            "name one as `io.github.user/weather`, or leave out --prefer (docs/ecosystem.md)",
        ));
    }
    let provision = ProvisionOptions {
        allow_scripts: args.allow_scripts,
        allow_sdist: args.allow_sdist,
        // clap accepts only the kinds `Prefer` knows.
        prefer: args.prefer.as_deref().and_then(Prefer::parse),
        warm: args.warm,
    };
    Ok(install::install_with(
        &ctx.ops()?,
        &targets,
        args.force,
        provision,
    )?)
}
