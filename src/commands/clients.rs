//! `agx clients`: render the supported clients, their config files here, and the agx
//! entries in them.

use std::fmt::Write;

use super::Context;
use crate::cli::JsonArgs;
use agx_core::error::CliResult;
use agx_core::style::{Style, paint};
use agx_model::skills::copies::CopyState;
use agx_ops as ops;

pub fn run(ctx: &Context, args: &JsonArgs) -> CliResult {
    let infos = ops::clients::clients(ctx.paths()?)?;
    let mut out = String::new();
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&infos).expect("serializable")
        );
        return ctx.printer.out(out);
    }
    for info in &infos {
        let _ = writeln!(
            out,
            "{} {}",
            paint(ctx.printer.color(), Style::Bold, info.client),
            paint(ctx.printer.color(), Style::Dim, &format!("({})", info.name))
        );
        for f in &info.files {
            let state = match (&f.error, f.exists) {
                (Some(e), _) => format!("unreadable: {e}"),
                (None, true) => "exists".to_string(),
                (None, false) => "not created yet".to_string(),
            };
            let _ = writeln!(out, "  {:<8} {}  [{state}]", f.scope, f.path);
            for e in &f.entries {
                let _ = writeln!(out, "           {} -> {}", e.key, e.server);
            }
            for key in &f.other_entries {
                let _ = writeln!(out, "           {key} (not agx's)");
            }
        }
        for path in &info.other_skills {
            let _ = writeln!(out, "  skill    {}  (not agx's)", path.display());
        }
    }
    let copies = ops::skills::recorded_copies(ctx.paths()?)?;
    if !copies.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            paint(ctx.printer.color(), Style::Bold, "skill copies")
        );
    }
    for c in &copies {
        let state = match (c.state, c.package_installed) {
            (CopyState::HandEdited, _) => "edited by hand",
            (CopyState::Missing, _) => "missing",
            (CopyState::Ok, false) => "package not installed",
            (CopyState::Ok, true) => "ok",
        };
        let _ = writeln!(
            out,
            "  {} {}  {}  [{state}]",
            c.copy.skill,
            c.copy.version,
            c.copy.path.display()
        );
    }
    ctx.printer.out(out)
}
