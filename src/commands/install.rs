//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use crate::ecosystem::{Prefer, ProvisionOptions};
use crate::error::CliResult;
use crate::ops::install::{self, Target};

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    let targets = args
        .packages
        .iter()
        .map(|arg| Target::parse(arg))
        .collect::<Result<Vec<_>, _>>()?;
    let provision = ProvisionOptions {
        allow_scripts: args.allow_scripts,
        allow_sdist: args.allow_sdist,
        // clap accepts only the kinds `Prefer` knows.
        prefer: args.prefer.as_deref().and_then(Prefer::parse),
    };
    Ok(install::install_with(
        &ctx.ops()?,
        &targets,
        args.force,
        provision,
    )?)
}
