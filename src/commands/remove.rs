//! `agx remove`: drop a server from the project (docs/projects.md).

use super::Context;
use crate::cli::RemoveArgs;
use agx_core::error::CliResult;
use agx_ops::project;

pub fn run(ctx: &Context, args: &RemoveArgs) -> CliResult {
    let report = project::remove(&ctx.ops()?, args.project.project.as_deref(), &args.key)?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&report).expect("serializable"))?;
        return Ok(());
    }
    ctx.printer.status(
        "Removed",
        &format!("`{}` from agx.toml and agx.lock", report.key),
    );
    super::sync::render(&ctx.printer, &report.sync, false)
}
