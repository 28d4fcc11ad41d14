//! `agx uninstall`.

use super::Context;
use crate::cli::UninstallArgs;
use crate::error::CliResult;
use crate::name::PackageName;
use crate::ops;

pub fn run(ctx: &Context, args: &UninstallArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let done = ops::uninstall::uninstall(&ctx.ops()?, &names, args.force)?;
    for broken in &done.broken {
        ctx.printer
            .warn(&format!("{broken}, which is gone (removed with --force)"));
    }
    for r in done.removed {
        let what = format!("{} v{}", r.name, r.version);
        if r.as_dependency {
            ctx.printer
                .status("Removed", &format!("{what} (no longer needed)"));
        } else {
            ctx.printer.status("Removed", &what);
        }
    }
    Ok(())
}
