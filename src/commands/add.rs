//! `agx add`: add a server to the project, lock it and sync (docs/projects.md).

use super::Context;
use crate::cli::AddArgs;
use crate::error::CliResult;
use crate::ops::project;

pub fn run(ctx: &Context, args: &AddArgs) -> CliResult {
    let report = project::add(
        &ctx.ops()?,
        args.project.project.as_deref(),
        &args.server,
        args.name.as_deref(),
    )?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&report).expect("serializable"))?;
        return Ok(());
    }
    if report.created_project {
        ctx.printer.status(
            "Created",
            &format!(
                "{} (list your clients in [project].clients)",
                report.sync.project.join("agx.toml").display()
            ),
        );
    }
    ctx.printer.status(
        "Added",
        &format!(
            "`{}` = {} {} ({} locked)",
            report.key, report.server, report.requirement, report.version
        ),
    );
    super::sync::render(&ctx.printer, &report.sync, false)
}
