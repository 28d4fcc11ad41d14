//! `agx lock`: resolve agx.toml into agx.lock (docs/projects.md).

use super::Context;
use crate::cli::LockArgs;
use agx_core::error::CliResult;
use agx_core::name::PackageName;
use agx_ops::project::{self, Upgrade};

pub fn run(ctx: &Context, args: &LockArgs) -> CliResult {
    let upgrade = if args.upgrade {
        Upgrade::All
    } else if args.upgrade_package.is_empty() {
        Upgrade::None
    } else {
        Upgrade::Packages(
            args.upgrade_package
                .iter()
                .map(|p| PackageName::parse(p))
                .collect::<Result<_, _>>()?,
        )
    };
    let ops = agx_ops::Context {
        signer_changes: args.signer.changes(),
        ..ctx.ops()?
    };
    let report = project::lock(&ops, args.project.project.as_deref(), &upgrade)?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&report).expect("serializable"))?;
        return Ok(());
    }
    for change in &report.changes {
        ctx.printer.status("Locked", change);
    }
    let lock = report.project.join("agx.lock");
    if report.written {
        ctx.printer.status("Wrote", &lock.display().to_string());
    } else {
        ctx.printer
            .status("Fresh", &format!("{} is up to date", lock.display()));
    }
    Ok(())
}
