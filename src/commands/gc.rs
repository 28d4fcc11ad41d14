//! `agx gc`: what was removed (or would be, with `--dry-run`), with sizes.

use indicatif::HumanBytes;
use serde_json::json;

use super::Context;
use crate::cli::GcArgs;
use agx_core::error::CliResult;
use agx_ops as ops;
use agx_store::gc::GcPlan;

pub fn run(ctx: &Context, args: &GcArgs) -> CliResult {
    let done = ops::gc::gc(&ctx.ops()?, args.dry_run)?;
    if args.json {
        return ctx.printer.outln(&to_json(&done, args.dry_run).to_string());
    }
    let (remove, forget) = if args.dry_run {
        ("Would remove", "Would forget")
    } else {
        ("Removed", "Forgot")
    };
    for gone in &done.projects {
        ctx.printer.status(
            forget,
            &format!(
                "project {} (its {} is gone)",
                gone.project.display(),
                gone.missing
            ),
        );
    }
    for kept in &done.unchecked {
        ctx.printer.warn(&format!(
            "kept project {} and its versions: cannot tell whether it is gone ({})",
            kept.project.display(),
            kept.problem
        ));
    }
    for v in &done.versions {
        ctx.printer.status(
            remove,
            &format!("{} v{} ({})", v.name, v.version, HumanBytes(v.bytes)),
        );
    }
    for (path, bytes) in &done.staging {
        ctx.printer.status(
            remove,
            &format!(
                "staging leftover {} ({})",
                path.display(),
                HumanBytes(*bytes)
            ),
        );
    }
    for (path, bytes) in &done.caches {
        ctx.printer.status(
            remove,
            &format!(
                "caches of a removed version {} ({})",
                path.display(),
                HumanBytes(*bytes)
            ),
        );
    }
    let summary = if done.is_empty() {
        "nothing: every installed version is held by the user or a project".to_string()
    } else if args.dry_run {
        format!(
            "{} would be freed (run without --dry-run to remove)",
            HumanBytes(done.bytes())
        )
    } else {
        format!("{} freed", HumanBytes(done.bytes()))
    };
    ctx.printer
        .status(if args.dry_run { "Checked" } else { "Collected" }, &summary);
    Ok(())
}

/// `agx gc --json` (docs/json.md).
fn to_json(done: &GcPlan, dry_run: bool) -> serde_json::Value {
    json!({
        "dry_run": dry_run,
        "projects": done.projects.iter().map(|p| json!({
            "path": p.project,
            "missing": p.missing,
        })).collect::<Vec<_>>(),
        "unchecked": done.unchecked.iter().map(|p| json!({
            "path": p.project,
            "problem": p.problem,
        })).collect::<Vec<_>>(),
        "versions": done.versions.iter().map(|v| json!({
            "name": v.name,
            "version": v.version.to_string(),
            "path": v.dir,
            "bytes": v.bytes,
        })).collect::<Vec<_>>(),
        "staging": done.staging.iter().map(|(path, bytes)| json!({
            "path": path,
            "bytes": bytes,
        })).collect::<Vec<_>>(),
        "caches": done.caches.iter().map(|(path, bytes)| json!({
            "path": path,
            "bytes": bytes,
        })).collect::<Vec<_>>(),
        "bytes": done.bytes(),
    })
}
