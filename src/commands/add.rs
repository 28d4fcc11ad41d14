//! `agx add`: add a server (or with --skill a skill) to the project, lock it and sync
//! (docs/projects.md).

use super::Context;
use crate::cli::AddArgs;
use agx_core::error::CliResult;
use agx_ops::project;

pub fn run(ctx: &Context, args: &AddArgs) -> CliResult {
    let add = if args.skill {
        project::add_skill
    } else {
        project::add
    };
    let report = add(
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
    let added = match (&report.path, &report.version) {
        // A skill folder of the project: no package, no version.
        (Some(path), _) => format!("`{}` = the skill folder {path}", report.key),
        (None, version) => format!(
            "`{}` = {} {} ({} locked)",
            report.key,
            report
                .server
                .as_deref()
                .or(report.skill.as_deref())
                .unwrap_or_default(),
            report.requirement,
            version
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        ),
    };
    ctx.printer.status("Added", &added);
    super::sync::render(&ctx.printer, &report.sync, false)
}
