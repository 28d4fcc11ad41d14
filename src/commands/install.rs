//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use crate::error::CliResult;
use crate::ops::install::{self, Target};

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    let targets = args
        .packages
        .iter()
        .map(|arg| Target::parse(arg))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(install::install(&ctx.ops()?, &targets, args.force)?)
}
