//! `agx uninstall-server`: remove exactly one entry agx wrote from a client config.

use super::Context;
use crate::cli::UninstallServerArgs;
use crate::clients::{self, HostEnv, Outcome, Target};
use crate::error::{CliError, CliResult};
use crate::ui;

pub fn run(ctx: &Context, args: &UninstallServerArgs) -> CliResult {
    let client = clients::find_client(&args.client)?;
    let paths = ctx.paths()?;
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    // Continue's project files are named after the key; a qualified server names no key.
    let key_hint = if args.entry.contains('/') {
        crate::clients::shape::default_key(args.entry.rsplit('/').next().unwrap_or_default())
    } else {
        args.entry.clone()
    };
    let target = Target::new(
        client,
        args.scope,
        args.project.as_deref(),
        args.config.as_deref(),
        &key_hint,
        &host,
    )?;
    let place = format!(
        "{} ({}, {} scope)",
        target.file.display(),
        client.id,
        args.scope
    );
    let not_found = || {
        CliError::new(format!("no entry `{}` in {place}", args.entry))
            .with_hint("`agx clients` lists the agx entries of every client")
    };
    if args.dry_run {
        let change = clients::plan_uninstall(&target, &args.entry)?;
        if change.outcome == Outcome::NotFound {
            return Err(not_found());
        }
        ui::print_result(&change.diff());
        ui::status(
            "Dry run",
            &format!(
                "would remove `{}` from {place}; nothing written",
                change.key
            ),
        );
        return Ok(());
    }
    let clients::Applied { change, backup } =
        clients::uninstall_entry(&paths.clients_file(), &target, &args.entry)?;
    if change.outcome == Outcome::NotFound {
        return Err(not_found());
    }
    ui::status("Removed", &format!("`{}` from {place}", change.key));
    if let Some(b) = backup {
        ui::status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    Ok(())
}
