//! `agx search`: rank the registry's catalog (discovery: reads index metadata only).

use super::Context;
use crate::cli::SearchArgs;
use crate::error::CliResult;
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
        println!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("search results serialize")
        );
        return Ok(());
    }
    if hits.is_empty() {
        ui::status(
            "Searched",
            &format!("no package matches `{query}` in {}", registry.source()),
        );
        return Ok(());
    }
    let width = hits
        .iter()
        .map(|h| h.entry.name.to_string().len() + h.entry.version.to_string().len() + 1)
        .max()
        .unwrap_or(0);
    for hit in &hits {
        let e = hit.entry;
        let head = format!("{} {}", e.name, e.version);
        let description = e.description.as_deref().unwrap_or("");
        println!(
            "{}{}  {description}",
            paint(Style::Bold, &head),
            " ".repeat(width - head.len())
        );
        let ext = &e.extension;
        let mut parts = Vec::new();
        for (label, names) in [
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
        ] {
            if !names.is_empty() {
                parts.push(format!("{label}: {}", names.join(", ")));
            }
        }
        if !parts.is_empty() {
            println!(
                "{}  {}",
                " ".repeat(width),
                paint(Style::Dim, &parts.join("; "))
            );
        }
    }
    Ok(())
}
