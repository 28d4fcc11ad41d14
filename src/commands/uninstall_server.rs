//! `agx uninstall-server`: remove exactly one entry agx wrote from a client config.

use super::Context;
use crate::cli::UninstallServerArgs;
use agx_clients as clients;
use agx_core::error::CliResult;
use agx_ops::install_server::{self, Place};

pub fn run(ctx: &Context, args: &UninstallServerArgs) -> CliResult {
    let place = Place {
        client: clients::find_client(&args.client)?,
        scope: args.scope,
        project: args.project.as_deref(),
        config: args.config.as_deref(),
    };
    let change = install_server::uninstall_server(&ctx.ops()?, place, &args.entry, args.dry_run)?;
    let place_text = format!(
        "{} ({}, {} scope)",
        change.file.display(),
        place.client.id,
        args.scope
    );
    if let Some(diff) = &change.diff {
        ctx.printer.out(diff)?;
        ctx.printer.status(
            "Dry run",
            &format!(
                "would remove `{}` from {place_text}; nothing written",
                change.key
            ),
        );
        return Ok(());
    }
    ctx.printer
        .status("Removed", &format!("`{}` from {place_text}", change.key));
    if let Some(b) = change.backup {
        ctx.printer.status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    Ok(())
}
