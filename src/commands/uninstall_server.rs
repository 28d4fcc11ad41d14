//! `agx uninstall-server`: remove exactly one entry agx wrote from a client config.

use super::Context;
use crate::cli::UninstallServerArgs;
use crate::clients::{self, HostEnv, Outcome, Records};
use crate::error::{CliError, CliResult};

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
    let target = clients::target(
        client,
        args.scope,
        args.project.as_deref(),
        args.config.as_deref(),
        &key_hint,
        &host,
    )?;
    let change = clients::plan_uninstall(&target, &args.entry)?;
    let place = format!(
        "{} ({}, {} scope)",
        target.file.display(),
        client.id,
        clients::scope_name(args.scope)
    );
    if change.outcome == Outcome::NotFound {
        return Err(
            CliError::new(format!("no entry `{}` in {place}", args.entry))
                .with_hint("`agx clients` lists the agx entries of every client"),
        );
    }
    if args.dry_run {
        clients::print_result(&change.diff());
        ctx.printer.status(
            "Dry run",
            &format!(
                "would remove `{}` from {place}; nothing written",
                change.key
            ),
        );
        return Ok(());
    }
    let backup = change.apply()?;
    let records_path = paths.clients_file();
    let mut records = Records::load(&records_path)?;
    let record = target.record(&change.key, "", "");
    records.remove_place(&record);
    records.save(&records_path)?;
    ctx.printer
        .status("Removed", &format!("`{}` from {place}", change.key));
    if let Some(b) = backup {
        ctx.printer.status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    Ok(())
}
