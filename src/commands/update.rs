//! `agx update`.

use super::Context;
use crate::cli::UpdateArgs;
use crate::error::CliResult;
use crate::name::PackageName;
use crate::ops;

pub fn run(ctx: &Context, args: &UpdateArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ops::update::update(&ctx.ops()?, &names)?)
}
