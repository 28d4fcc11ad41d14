//! `agx sync`: install the locked versions and write each listed client's project file;
//! `--check` only lists the differences (docs/projects.md).

use super::Context;
use crate::cli::SyncArgs;
use agx_core::error::CliResult;
use agx_ops::project::{self, LockMode, SyncOptions, SyncReport};
use agx_printer::Printer;

pub fn run(ctx: &Context, args: &SyncArgs) -> CliResult {
    let options = SyncOptions {
        mode: if args.locked {
            LockMode::Locked
        } else if args.frozen {
            LockMode::Frozen
        } else {
            LockMode::Update
        },
        check: args.check,
        force: args.force,
        warm: args.warm,
    };
    let ops = agx_ops::Context {
        accept_findings: &args.accept.codes,
        signer_changes: args.signer.changes(),
        ..ctx.ops()?
    };
    let report = project::sync(&ops, args.project.project.as_deref(), options)?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&report).expect("serializable"))?;
    } else {
        render(&ctx.printer, &report, args.check)?;
    }
    if args.check {
        project::check_result(&report)?;
    }
    Ok(())
}

/// What a sync did, one line each; shared by `add` and `remove`.
pub fn render(printer: &Printer, report: &SyncReport, check: bool) -> CliResult {
    for client in &report.skipped_clients {
        printer.warn(&format!(
            "{client} has no project-scope file; skipped (use `agx install-server {client}` for a user entry)"
        ));
    }
    if check {
        for difference in &report.differences {
            printer.outln(difference)?;
        }
        if report.differences.is_empty() {
            printer.status(
                "Checked",
                "the lock, the store, every client file and skill copy are in sync",
            );
        }
        return Ok(());
    }
    if report.lock_written {
        printer.status(
            "Locked",
            &format!("{}", report.project.join("agx.lock").display()),
        );
    }
    // Installed packages were reported as they were installed.
    for e in &report.entries {
        let verb = match e.action {
            "added" => "Added",
            "updated" => "Updated",
            _ => "Removed",
        };
        printer.status(
            verb,
            &format!("`{}` in {} ({})", e.key, e.file.display(), e.client),
        );
    }
    for copy in &report.skills {
        let (verb, what) = match copy.action {
            "added" => ("Added", "skill"),
            "updated" => ("Updated", "skill"),
            "removed" => ("Removed", "skill"),
            _ => ("Kept", "edited skill (no longer managed by agx)"),
        };
        printer.status(
            verb,
            &format!("{what} {} in {}", copy.skill, copy.path.display()),
        );
    }
    if report.entries.is_empty()
        && report.skills.is_empty()
        && report.installed.is_empty()
        && !report.lock_written
    {
        printer.status("Synced", "nothing to change");
    }
    Ok(())
}
