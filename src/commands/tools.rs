//! `agx tools <server> [--tokens|--diff] [--json]` and `agx trust <server> [ITEM…]`: render
//! what `ops::tools` and `ops::pins` found.

use std::fmt::Write as _;

use super::Context;
use crate::cli::{ToolsArgs, TrustArgs};
use agx_core::error::CliResult;
use agx_ops::pins::{self, Change, PinReport};
use agx_ops::tools::{self, ToolsReport};

pub fn run(ctx: &Context, args: &ToolsArgs) -> CliResult {
    if args.diff {
        let report = pins::diff(&ctx.ops()?, &args.server)?;
        if args.json {
            let json = serde_json::to_string_pretty(&report).unwrap_or_default();
            return ctx.printer.outln(&json);
        }
        return ctx.printer.outln(diff_text(&report).trim_end());
    }
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

pub fn trust(ctx: &Context, args: &TrustArgs) -> CliResult {
    let report = pins::trust(&ctx.ops()?, &args.server, &args.items)?;
    if args.json {
        let json = serde_json::to_string_pretty(&report).unwrap_or_default();
        return ctx.printer.outln(&json);
    }
    if report.static_definitions {
        return ctx.printer.outln(&static_note(&report));
    }
    if report.accepted.is_empty() {
        ctx.printer.status(
            "Pinned",
            &format!("{}: what it lists now ({})", report.server, report.file),
        );
    } else {
        ctx.printer.status(
            "Trusted",
            &format!(
                "{} of {}: {}",
                report.accepted.len(),
                report.server,
                report.accepted.join(", ")
            ),
        );
    }
    Ok(())
}

fn static_note(report: &PinReport) -> String {
    format!(
        "{} is an agx package's server: its definitions are the installed version's files, pinned by version (`agx update` shows what a new version changes)",
        report.server
    )
}

fn diff_text(report: &PinReport) -> String {
    if report.static_definitions {
        return static_note(report);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} unchanged, {} differ from the pins in {}",
        report.server,
        report.unchanged,
        report.changes.len(),
        report.file
    );
    if !report.unpinned.is_empty() {
        let _ = writeln!(
            out,
            "not pinned yet: {} (the first serve pins them)",
            report.unpinned.join(", ")
        );
    }
    for item in &report.changes {
        let what = match &item.change {
            Change::Changed { fields } => format!("changed: {}", fields.join(", ")),
            Change::New => "new".to_string(),
            Change::Removed => "removed".to_string(),
        };
        let _ = writeln!(out, "\n{} `{}` ({what})", item.kind, item.name);
        let empty = serde_json::Value::Null;
        let (old, new) = (
            item.pinned.as_ref().unwrap_or(&empty),
            item.listed.as_ref().unwrap_or(&empty),
        );
        let fields: Vec<&str> = match &item.change {
            Change::Changed { .. } if item.pinned.is_none() => {
                let _ = writeln!(
                    out,
                    "  pinned by its hash alone (from agx.lock); listed now:\n  {}",
                    compact(Some(new))
                );
                continue;
            }
            Change::Changed { fields } => fields.clone(),
            _ => Vec::new(),
        };
        if fields.is_empty() {
            let shown = if item.listed.is_some() { new } else { old };
            let _ = writeln!(out, "  {}", compact(Some(shown)));
        }
        for field in fields {
            let _ = writeln!(out, "  - {field}: {}", compact(old.get(field)));
            let _ = writeln!(out, "  + {field}: {}", compact(new.get(field)));
        }
    }
    if !report.changes.is_empty() {
        let _ = writeln!(
            out,
            "\n`agx serve` withholds these until accepted: `agx trust {}` (all) or `agx trust {} ITEM`",
            report.server, report.server
        );
    }
    out
}

/// A member's value on one line as JSON, with the characters a terminal would not show (or
/// would obey) written as `\u{…}`: a changed description often differs only in those.
fn compact(value: Option<&serde_json::Value>) -> String {
    let Some(value) = value else {
        return "(absent)".to_string();
    };
    serde_json::to_string(value)
        .unwrap_or_default()
        .chars()
        .map(|c| match c as u32 {
            0x7F..=0x9F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xE0000..=0xE007F
            | 0xE0100..=0xE01EF => format!("\\u{{{:X}}}", c as u32),
            _ => c.to_string(),
        })
        .collect()
}
