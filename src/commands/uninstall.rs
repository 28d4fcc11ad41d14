//! `agx uninstall`.

use super::Context;
use crate::cli::UninstallArgs;
use crate::error::CliResult;
use crate::name::PackageName;
use crate::store::{LockMode, Store};
use crate::ui;

pub fn run(ctx: &Context, args: &UninstallArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    crate::clients::refuse_uninstall_while_used(ctx.paths()?, &names, args.force)?;
    let store = Store::open(ctx.paths()?);
    let _lock = store.lock(LockMode::Exclusive)?;
    let done = crate::store::remove::uninstall(&store, &names, args.force)?;
    for broken in &done.broken {
        ui::warn(&format!("{broken}, which is gone (removed with --force)"));
    }
    for r in done.removed {
        let what = format!("{} v{}", r.name, r.version);
        if r.as_dependency {
            ui::status("Removed", &format!("{what} (no longer needed)"));
        } else {
            ui::status("Removed", &what);
        }
    }
    Ok(())
}
