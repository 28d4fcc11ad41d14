//! `agx search`: rank what the registries offer (discovery: reads index metadata only).

use std::fmt::Write as _;

use super::Context;
use crate::cli::SearchArgs;
use agx_core::error::CliResult;
use agx_core::style::{Style, paint};
use agx_ops as ops;
use agx_ops::search::{Found, Searched};

pub fn run(ctx: &Context, args: &SearchArgs) -> CliResult {
    let searched = ops::search::search(&ctx.ops()?, &args.query.join(" "))?;
    let (query, hits) = (&searched.query, searched.hits());
    if args.json {
        let results: Vec<serde_json::Value> = hits
            .iter()
            .map(|found| hit_json(found, &searched))
            .collect();
        let doc = serde_json::json!({
            "query": query,
            "registry": searched.registries.join(", "),
            "registries": searched.registries,
            "unanswered": searched.unanswered,
            "results": results,
        });
        let text = serde_json::to_string_pretty(&doc).expect("search results serialize");
        return ctx.printer.outln(&text);
    }
    if hits.is_empty() {
        // Like `cargo search`: an empty result is not an error, but say where we looked.
        if ctx.printer.verbosity() >= 0 {
            ctx.printer.err(&format!(
                "No package matches `{query}` in {}.\n",
                searched.registries.join(", ")
            ));
        }
        return Ok(());
    }
    ctx.printer
        .out(render(&hits, &searched, ctx.printer.color()))
}

/// One result of `search --json` (docs/json.md): the hit's fields with its `kind`,
/// `registry` (URL or folder) and `source` (the configured name, or `registry` again).
fn hit_json(found: &Found<'_>, searched: &Searched) -> serde_json::Value {
    let (mut value, registry) = match found {
        Found::Package { hit, registry } => (
            serde_json::to_value(hit).expect("hits serialize"),
            *registry,
        ),
        Found::Server {
            server,
            registry,
            score,
            matched,
        } => {
            let mut value = serde_json::to_value(server).expect("servers serialize");
            value["score"] = (*score).into();
            value["matched"] = serde_json::json!(matched);
            (value, *registry)
        }
        Found::Plugin {
            plugin,
            registry,
            score,
            matched,
        } => {
            let mut value = serde_json::to_value(plugin).expect("plugins serialize");
            value["score"] = (*score).into();
            value["matched"] = serde_json::json!(matched);
            value["install"] = format!("{}@{}", plugin.name, searched.label(registry)).into();
            (value, *registry)
        }
    };
    value["kind"] = found.kind().as_str().into();
    if let Some(signature) = searched.signature(registry) {
        value["signature"] = signature.into();
    }
    value["registry"] = registry.into();
    value["source"] = searched.label(registry).into();
    value
}

/// One line per package (name, version, description), then its items and where it was
/// found, dimmed; a server from an MCP registry says so, with what it offers and its status.
fn render(hits: &[Found<'_>], searched: &Searched, color: bool) -> String {
    let heads: Vec<String> = hits
        .iter()
        .map(|found| match found {
            Found::Package { hit, .. } => format!("{} {}", hit.entry.name, hit.entry.version),
            Found::Server { server, .. } => format!("{} {}", server.name, server.version),
            Found::Plugin {
                plugin, registry, ..
            } => plugin_head(plugin, searched.label(registry)),
        })
        .collect();
    let width = heads.iter().map(String::len).max().unwrap_or(0);
    let mut text = String::new();
    for (found, head) in hits.iter().zip(&heads) {
        let pad = " ".repeat(width - head.len());
        let (description, mut details, registry) = match found {
            Found::Package { hit, registry } => (
                hit.entry.description.as_deref().unwrap_or(""),
                package_items(hit),
                *registry,
            ),
            Found::Server {
                server, registry, ..
            } => (server.description.as_str(), server_items(server), *registry),
            Found::Plugin {
                plugin, registry, ..
            } => (
                plugin.description.as_deref().unwrap_or(""),
                plugin_items(plugin),
                *registry,
            ),
        };
        if !details.is_empty() {
            details.push_str("; ");
        }
        details.push_str(&format!("from {}", searched.label(registry)));
        if searched
            .signature(registry)
            .is_some_and(|s| s.starts_with("verified"))
        {
            details.push_str(" (signed, verified)");
        }
        let _ = writeln!(
            text,
            "{}{pad}  {description}",
            paint(color, Style::Bold, head)
        );
        if !details.is_empty() {
            let items = paint(color, Style::Dim, &details);
            let _ = writeln!(text, "{}  {items}", " ".repeat(width));
        }
        if let Found::Server { server, .. } = found
            && server.status == agx_sources::index::mcp_registry::Status::Deprecated
        {
            let note = match &server.status_message {
                Some(message) => format!("deprecated: {message}"),
                None => "deprecated".to_string(),
            };
            let _ = writeln!(
                text,
                "{}  {}",
                " ".repeat(width),
                paint(color, Style::Warning, &note)
            );
        }
    }
    text
}

/// `weather@acme 1.2.0`: what `agx install` takes, and the version when the plugin has one.
fn plugin_head(plugin: &agx_sources::index::marketplace::PluginSummary, source: &str) -> String {
    match &plugin.version {
        Some(version) => format!("{}@{source} {version}", plugin.name),
        None => format!("{}@{source}", plugin.name),
    }
}

/// `claude-marketplace plugin; servers: …; skills: …; not carried: hooks`.
fn plugin_items(plugin: &agx_sources::index::marketplace::PluginSummary) -> String {
    let mut parts = vec!["claude-marketplace plugin".to_string()];
    parts.extend(plugin.contents());
    parts.join("; ")
}

/// `mcp-registry; packages: npm; remotes: sse`.
fn server_items(server: &agx_sources::index::mcp_registry::ServerSummary) -> String {
    let mut parts = vec!["mcp-registry".to_string()];
    if !server.packages.is_empty() {
        parts.push(format!("packages: {}", server.packages.join(", ")));
    }
    if !server.remotes.is_empty() {
        parts.push(format!("remotes: {}", server.remotes.join(", ")));
    }
    parts.join("; ")
}

/// `servers: …; tools: …; prompts: …; skills: …` of an agx package.
fn package_items(hit: &agx_sources::index::search::Hit<'_>) -> String {
    let ext = &hit.entry.extension;
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
        (
            "skills",
            ext.skills.iter().map(|s| s.name.as_str()).collect(),
        ),
    ];
    groups
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(label, names)| format!("{label}: {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
