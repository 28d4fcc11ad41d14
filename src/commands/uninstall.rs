//! `agx uninstall`.

use std::fmt::Write as _;

use super::Context;
use crate::cli::UninstallArgs;
use agx_core::error::CliResult;
use agx_core::name::PackageName;
use agx_model::skills::copies::CopyOutcome;
use agx_ops as ops;

pub fn run(ctx: &Context, args: &UninstallArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let report = ops::uninstall::uninstall(&ctx.ops()?, &names, args.force, args.purge)?;
    let done = report.store;
    for broken in &done.broken {
        ctx.printer
            .warn(&format!("{broken}, which is gone (removed with --force)"));
    }
    for r in done.removed {
        let mut what = format!("{} v{}", r.name, r.version);
        if r.as_dependency {
            what.push_str(" (no longer needed)");
        }
        if !r.kept_for.is_empty() {
            let projects: Vec<String> =
                r.kept_for.iter().map(|p| p.display().to_string()).collect();
            let _ = write!(what, "; kept: held by project {}", projects.join(", "));
        }
        ctx.printer.status("Removed", &what);
    }
    for data in &report.purged {
        ctx.printer
            .status("Purged", &format!("data folder {}", data.display()));
    }
    for (copy, outcome) in &report.skills.removed {
        let verb = match outcome {
            CopyOutcome::Removed => "Removed",
            _ => "Forgot",
        };
        let how = match outcome {
            CopyOutcome::Removed => "from",
            _ => "already gone from",
        };
        ctx.printer.status(
            verb,
            &format!("skill {} {how} {}", copy.skill, copy.path.display()),
        );
    }
    for copy in &report.skills.kept {
        ctx.printer.warn(&format!(
            "kept {}: edited by hand since agx copied {} (`agx uninstall-skill CLIENT {} --force` removes it)",
            copy.path.display(),
            copy.skill,
            copy.skill
        ));
    }
    Ok(())
}
