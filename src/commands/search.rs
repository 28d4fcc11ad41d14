//! `agx search`: rank the registry's catalog (discovery: reads index metadata only).

use std::fmt::Write as _;
use std::io::Write as _;

use super::Context;
use crate::cli::SearchArgs;
use crate::error::{CliError, CliResult};
use crate::index::{self, search};
use crate::ui::{self, Style, paint};

pub fn run(ctx: &Context, args: &SearchArgs) -> CliResult {
    let query = args.query.join(" ");
    let registry = index::open(
        ctx.global.registry.as_deref(),
        ctx.global.offline,
        ctx.paths()?,
    )?;
    let catalog = registry.catalog()?;
    let hits = search::search(&catalog.packages, &query);
    if args.json {
        let doc = serde_json::json!({
            "query": query,
            "registry": registry.source(),
            "results": hits,
        });
        let text = serde_json::to_string_pretty(&doc).expect("search results serialize");
        return print(&format!("{text}\n"));
    }
    if hits.is_empty() {
        ui::status(
            "Searched",
            &format!("no package matches `{query}` in {}", registry.source()),
        );
        return Ok(());
    }
    print(&render(&hits))
}

/// One line per package (name, version, description), then its items, dimmed.
fn render(hits: &[search::Hit<'_>]) -> String {
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
        let _ = writeln!(text, "{}{pad}  {description}", paint(Style::Bold, &head));
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
            let items = paint(Style::Dim, &parts.join("; "));
            let _ = writeln!(text, "{}  {items}", " ".repeat(width));
        }
    }
    text
}

/// Write results to stdout; a closed pipe (`agx search x | head`) is not an error.
fn print(text: &str) -> CliResult {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::new(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}
