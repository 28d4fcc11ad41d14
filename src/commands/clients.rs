//! `agx clients`: render the supported clients, their config files here, and the agx
//! entries in them.

use std::fmt::Write;

use super::Context;
use crate::cli::JsonArgs;
use crate::error::CliResult;
use crate::ops;
use crate::style::{Style, paint};

pub fn run(ctx: &Context, args: &JsonArgs) -> CliResult {
    let infos = ops::clients::clients()?;
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
        }
    }
    ctx.printer.out(out)
}
