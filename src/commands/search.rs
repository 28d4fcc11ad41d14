//! `agx search`: rank the registry's catalog (discovery: reads index metadata only).

use std::fmt::Write as _;

use super::Context;
use crate::cli::SearchArgs;
use crate::error::CliResult;
use crate::index::search;
use crate::ops;
use crate::style::{Style, paint};

pub fn run(ctx: &Context, args: &SearchArgs) -> CliResult {
    let searched = ops::search::search(&ctx.ops()?, &args.query.join(" "))?;
    let (query, hits) = (&searched.query, searched.hits());
    if args.json {
        let doc = serde_json::json!({
            "query": query,
            "registry": searched.registry,
            "results": hits,
        });
        let text = serde_json::to_string_pretty(&doc).expect("search results serialize");
        return ctx.printer.outln(&text);
    }
    if hits.is_empty() {
        // Like `cargo search`: an empty result is not an error, but say where we looked.
        if ctx.printer.verbosity() >= 0 {
            ctx.printer.err(&format!(
                "No package matches `{query}` in {}.\n",
                searched.registry
            ));
        }
        return Ok(());
    }
    ctx.printer.out(render(&hits, ctx.printer.color()))
}

/// One line per package (name, version, description), then its items, dimmed.
fn render(hits: &[search::Hit<'_>], color: bool) -> String {
    let width = hits
        .iter()
        .map(|h| h.entry.name.to_string().len() + h.entry.version.to_string().len() + 1)
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for hit in hits {
        let e = hit.entry;
        let head = format!("{} {}", e.name, e.version);
        let pad = " ".repeat(width - head.len());
        let description = e.description.as_deref().unwrap_or("");
        let _ = writeln!(
            text,
            "{}{pad}  {description}",
            paint(color, Style::Bold, &head)
        );
        let ext = &e.extension;
        let groups = [
            (
                "servers",
                ext.servers
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>(),
            ),
            ("tools", ext.tools.iter().map(|t| t.name.as_str()).collect()),
            (
                "prompts",
                ext.prompts.iter().map(|p| p.name.as_str()).collect(),
            ),
        ];
        let parts: Vec<String> = groups
            .iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(label, names)| format!("{label}: {}", names.join(", ")))
            .collect();
        if !parts.is_empty() {
            let items = paint(color, Style::Dim, &parts.join("; "));
            let _ = writeln!(text, "{}  {items}", " ".repeat(width));
        }
    }
    text
}
