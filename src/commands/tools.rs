//! `agx tools <server> [--tokens] [--json]`: render what `ops::tools` found.

use std::fmt::Write as _;

use super::Context;
use crate::cli::ToolsArgs;
use agx_core::error::CliResult;
use agx_ops::tools::{self, ToolsReport};

pub fn run(ctx: &Context, args: &ToolsArgs) -> CliResult {
    let report = tools::tools(&ctx.ops()?, &args.server, args.tokens)?;
    if args.json {
        let json = serde_json::to_string_pretty(&report).unwrap_or_default();
        return ctx.printer.outln(&json);
    }
    ctx.printer.outln(text(&report).trim_end())
}

fn text(report: &ToolsReport) -> String {
    let mut out = String::new();
    let shown = report.tools.iter().filter(|t| t.shown).count();
    let filter = match &report.filter {
        Some(file) => format!(", filter in {file}"),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "{}: {shown} of {} tools shown{filter}",
        report.server,
        report.tools.len()
    );
    for m in &report.members {
        let filter = match &m.filter {
            Some(file) => format!(", filter in {file}"),
            None => String::new(),
        };
        let _ = writeln!(out, "  server `{}`: {}{filter}", m.key, m.server);
    }
    let width = report.tools.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for t in report.tools.iter().filter(|t| t.shown) {
        let tokens = t.tokens.map(|n| format!("{n:>6}  ")).unwrap_or_default();
        let renamed = t
            .original
            .as_ref()
            .map(|o| format!(" (from {o})"))
            .unwrap_or_default();
        let line = format!("  {tokens}{:<width$}{renamed}", t.name);
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let hidden: Vec<_> = report.tools.iter().filter(|t| !t.shown).collect();
    if !hidden.is_empty() {
        let _ = writeln!(out, "hidden:");
        for t in hidden {
            let tokens = t.tokens.map(|n| format!("{n:>6}  ")).unwrap_or_default();
            let why = t.hidden_by.as_deref().unwrap_or_default();
            let _ = writeln!(out, "  {tokens}{:<width$} ({why})", t.name);
        }
    }
    if let Some(totals) = &report.tokens {
        let _ = writeln!(
            out,
            "tokens ({}): {} before the filter, {} after",
            totals.tokenizer, totals.before_filter, totals.after_filter
        );
    }
    out
}
