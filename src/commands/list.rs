//! `agx list`: installed packages from their receipts (no definition file is read), and with
//! `--include-remote` what the registry's catalog offers (no package is downloaded).

use std::fmt::Write as _;
use std::io::Write;

use serde_json::{Value, json};

use super::Context;
use crate::cli::ListArgs;
use agx_core::error::CliResult;
use agx_core::name::PackageName;
use agx_model::manifest::ExtensionSummary;
use agx_ops::{self as ops, list::ListedPackage};
use agx_sources::index::SourceKind;
use agx_sources::index::mcp_registry::{ServerSummary, Status};
use agx_store::Holder;

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Server,
    Tool,
    Prompt,
    Skill,
}

impl ItemKind {
    fn plural(self) -> &'static str {
        match self {
            ItemKind::Server => "servers",
            ItemKind::Tool => "tools",
            ItemKind::Prompt => "prompts",
            ItemKind::Skill => "skills",
        }
    }
}

pub fn run(ctx: &Context, args: &ListArgs) -> CliResult {
    let listing = ops::list::list(&ctx.ops()?, args.include_remote)?;
    let rows = listing.packages;
    // Where installs show: a tool that lists servers (the VS Code extension) watches it.
    let receipts = ctx.paths()?.receipts_dir().display().to_string();

    let kind = if args.servers {
        Some(ItemKind::Server)
    } else if args.tools {
        Some(ItemKind::Tool)
    } else if args.prompts {
        Some(ItemKind::Prompt)
    } else if args.skills {
        Some(ItemKind::Skill)
    } else {
        None
    };
    let mut out = Vec::new();
    let written = match (kind, args.json) {
        (None, true) => write_packages_json(
            &mut out,
            &rows,
            &listing.servers,
            &listing.plugins,
            &receipts,
        ),
        (Some(kind), true) => writeln!(out, "{}", items_json(&rows, kind, &receipts)),
        (None, false) => {
            if rows.is_empty() && listing.servers.is_empty() && listing.plugins.is_empty() {
                ctx.printer.status(
                    "Listed",
                    "no packages installed (`agx install <pkg>` adds one)",
                );
            }
            write_packages(&mut out, &rows, args.include_remote)
                .and_then(|()| write_servers(&mut out, &listing.servers))
                .and_then(|()| write_plugins(&mut out, &listing.plugins))
        }
        (Some(kind), false) => write_items(&mut out, &rows, kind),
    };
    written.expect("writing to memory cannot fail");
    let printed = ctx.printer.out(&out);
    // The process ends next; freeing a 10,000-package catalog row by row took a fifth of
    // `list --include-remote`.
    std::mem::forget(rows);
    printed
}

/// One package in `list --json` (docs/json.md), serialized straight from the rows.
#[derive(serde::Serialize)]
struct PackageJson<'a> {
    name: &'a PackageName,
    version: String,
    installed: bool,
    explicit: bool,
    /// Where it comes from: `agx-index` (MCP-registry servers are listed as `mcp-registry`).
    kind: &'static str,
    /// Who holds this version: `user`, or a project's absolute folder.
    roots: Vec<String>,
    description: &'a Option<String>,
    servers: &'a [agx_model::manifest::ServerSummary],
    tools: &'a [agx_model::manifest::ToolSummary],
    prompts: &'a [agx_model::manifest::PromptSummary],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    skills: &'a [agx_model::manifest::SkillSummary],
    /// Installed from a registry: `verified (tuf: NAME, root vN)` or `unsigned`.
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: &'a Option<String>,
}

fn write_packages_json(
    out: &mut impl Write,
    rows: &[ListedPackage],
    servers: &[ServerSummary],
    plugins: &[ops::list::ListedPlugin],
    receipts: &str,
) -> std::io::Result<()> {
    /// Packages and MCP-registry servers in one list (servers will install as packages of
    /// their own name); `kind` tells them apart.
    #[derive(serde::Serialize)]
    struct List<'a> {
        packages: Vec<Row<'a>>,
        receipts: &'a str,
    }
    #[derive(serde::Serialize)]
    #[serde(untagged)]
    enum Row<'a> {
        Package(PackageJson<'a>),
        Server(ServerJson<'a>),
        Plugin(PluginJson<'a>),
    }
    /// One marketplace plugin: `kind` tells it from a package.
    #[derive(serde::Serialize)]
    struct PluginJson<'a> {
        kind: &'static str,
        installed: bool,
        #[serde(flatten)]
        plugin: &'a ops::list::ListedPlugin,
    }
    /// One MCP-registry server: `kind` tells it from a package.
    #[derive(serde::Serialize)]
    struct ServerJson<'a> {
        kind: &'static str,
        installed: bool,
        #[serde(flatten)]
        server: &'a ServerSummary,
    }
    let list = List {
        packages: rows
            .iter()
            .map(|r| {
                Row::Package(PackageJson {
                    name: &r.name,
                    version: r.version.to_string(),
                    installed: r.installed,
                    explicit: r.explicit,
                    kind: SourceKind::AgxIndex.as_str(),
                    roots: r.held_by.iter().map(root_name).collect(),
                    description: &r.description,
                    servers: &r.extension.servers,
                    tools: &r.extension.tools,
                    prompts: &r.extension.prompts,
                    skills: &r.extension.skills,
                    signature: &r.signature,
                })
            })
            .chain(servers.iter().map(|server| {
                Row::Server(ServerJson {
                    kind: SourceKind::McpRegistry.as_str(),
                    installed: false,
                    server,
                })
            }))
            .chain(plugins.iter().map(|plugin| {
                Row::Plugin(PluginJson {
                    kind: SourceKind::ClaudeMarketplace.as_str(),
                    installed: false,
                    plugin,
                })
            }))
            .collect(),
        receipts,
    };
    serde_json::to_writer(&mut *out, &list)?;
    writeln!(out)
}

fn items_json(rows: &[ListedPackage], kind: ItemKind, receipts: &str) -> Value {
    let mut items = Vec::new();
    for row in rows {
        let each: Vec<Value> = match kind {
            ItemKind::Server => row.extension.servers.iter().map(to_value).collect(),
            ItemKind::Tool => row.extension.tools.iter().map(to_value).collect(),
            ItemKind::Prompt => row.extension.prompts.iter().map(to_value).collect(),
            ItemKind::Skill => row.extension.skills.iter().map(to_value).collect(),
        };
        for mut item in each {
            let Some(obj) = item.as_object_mut() else {
                continue;
            };
            let short = obj.get("name").and_then(Value::as_str).unwrap_or_default();
            let qualified = format!("{}/{short}", row.name);
            let mut entry = serde_json::Map::new();
            entry.insert("name".into(), qualified.into());
            entry.insert("package".into(), row.name.to_string().into());
            entry.insert("version".into(), row.version.to_string().into());
            entry.insert("installed".into(), row.installed.into());
            let roots: Vec<String> = row.held_by.iter().map(root_name).collect();
            entry.insert("roots".into(), roots.into());
            obj.remove("name");
            entry.extend(std::mem::take(obj));
            items.push(Value::Object(entry));
        }
    }
    json!({ kind.plural(): items, "receipts": receipts })
}

/// A root as `list` names it: `user`, or the project's folder.
fn root_name(holder: &Holder) -> String {
    match holder {
        Holder::User => "user".into(),
        Holder::Project(path) => path.display().to_string(),
    }
}

fn to_value<T: serde::Serialize>(item: &T) -> Value {
    serde_json::to_value(item).unwrap_or(Value::Null)
}

fn write_packages(
    out: &mut impl Write,
    rows: &[ListedPackage],
    mark_installed: bool,
) -> std::io::Result<()> {
    let names: Vec<String> = rows.iter().map(|r| r.name.to_string()).collect();
    let versions: Vec<String> = rows.iter().map(|r| r.version.to_string()).collect();
    let name_width = names.iter().map(String::len).max().unwrap_or(0);
    let version_width = versions.iter().map(String::len).max().unwrap_or(0);
    // One line buffer for every row: a catalog listing has ten thousand of them.
    let mut line = String::new();
    for ((row, name), version) in rows.iter().zip(&names).zip(&versions) {
        line.clear();
        let _ = write!(line, "{name:name_width$}  {version:version_width$}");
        if mark_installed {
            line.push_str(if row.installed {
                "  installed    "
            } else {
                "  not installed"
            });
        }
        if row.held_by.iter().any(|h| matches!(h, Holder::Project(_))) {
            let holders: Vec<String> = row.held_by.iter().map(root_name).collect();
            let _ = write!(line, "  [held by {}]", holders.join(", "));
        }
        if let Some(d) = &row.description {
            line.push_str("  ");
            line.push_str(d);
        }
        push_contributions(&mut line, &row.extension);
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// MCP-registry servers after the packages: name, version, `mcp-registry`, description,
/// what they offer, and a deprecation note.
fn write_servers(out: &mut impl Write, servers: &[ServerSummary]) -> std::io::Result<()> {
    let name_width = servers.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let version_width = servers.iter().map(|s| s.version.len()).max().unwrap_or(0);
    for s in servers {
        let mut line = format!(
            "{:name_width$}  {:version_width$}  mcp-registry  {}",
            s.name, s.version, s.description
        );
        let offers: Vec<String> = s
            .packages
            .iter()
            .cloned()
            .chain(s.remotes.iter().map(|r| format!("remote {r}")))
            .collect();
        if !offers.is_empty() {
            let _ = write!(line, " [{}]", offers.join(", "));
        }
        if s.status == Status::Deprecated {
            let _ = write!(
                line,
                " (deprecated{})",
                s.status_message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            );
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Marketplace plugins after the servers: what installs each, its version,
/// `claude-marketplace`, description, and what it holds.
fn write_plugins(out: &mut impl Write, plugins: &[ops::list::ListedPlugin]) -> std::io::Result<()> {
    let name_width = plugins.iter().map(|p| p.install.len()).max().unwrap_or(0);
    let version = |p: &ops::list::ListedPlugin| p.plugin.version.clone().unwrap_or_default();
    let version_width = plugins.iter().map(|p| version(p).len()).max().unwrap_or(0);
    for listed in plugins {
        let plugin = &listed.plugin;
        let mut line = format!(
            "{:name_width$}  {:version_width$}  claude-marketplace  {}",
            listed.install,
            version(listed),
            plugin.description.as_deref().unwrap_or("")
        );
        let groups = plugin.contents();
        if !groups.is_empty() {
            let _ = write!(line, " [{}]", groups.join("; "));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Append ` [servers: a; tools: b, c; prompts: d]`, or nothing when the package
/// contributes nothing.
fn push_contributions(line: &mut String, ext: &ExtensionSummary) {
    let start = line.len();
    let mut group = |label: &str, names: &mut dyn Iterator<Item = &str>| {
        for (i, name) in names.enumerate() {
            if i == 0 {
                line.push_str(if line.len() == start { " [" } else { "; " });
                line.push_str(label);
                line.push_str(": ");
            } else {
                line.push_str(", ");
            }
            line.push_str(name);
        }
    };
    group("servers", &mut ext.servers.iter().map(|s| s.name.as_str()));
    group("tools", &mut ext.tools.iter().map(|t| t.name.as_str()));
    group("prompts", &mut ext.prompts.iter().map(|p| p.name.as_str()));
    group("skills", &mut ext.skills.iter().map(|s| s.name.as_str()));
    if line.len() > start {
        line.push(']');
    }
}

fn write_items(
    out: &mut impl Write,
    rows: &[ListedPackage],
    kind: ItemKind,
) -> std::io::Result<()> {
    let mut lines: Vec<(String, Option<&str>, bool)> = Vec::new();
    for row in rows {
        let items: Vec<(&str, Option<&String>)> = match kind {
            ItemKind::Server => row
                .extension
                .servers
                .iter()
                .map(|i| (i.name.as_str(), i.description.as_ref()))
                .collect(),
            ItemKind::Tool => row
                .extension
                .tools
                .iter()
                .map(|i| (i.name.as_str(), i.description.as_ref()))
                .collect(),
            ItemKind::Prompt => row
                .extension
                .prompts
                .iter()
                .map(|i| (i.name.as_str(), i.description.as_ref()))
                .collect(),
            ItemKind::Skill => row
                .extension
                .skills
                .iter()
                .map(|i| (i.name.as_str(), Some(&i.description)))
                .collect(),
        };
        for (name, description) in items {
            lines.push((
                format!("{}/{name}", row.name),
                description.map(String::as_str),
                row.installed,
            ));
        }
    }
    let width = lines.iter().map(|l| l.0.len()).max().unwrap_or(0);
    for (name, description, installed) in lines {
        let mut line = format!("{name:width$}  {}", description.unwrap_or(""));
        if !installed {
            line.push_str(" (not installed)");
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(json: serde_json::Value) -> ExtensionSummary {
        serde_json::from_value(json).unwrap()
    }

    fn contributions(ext: &ExtensionSummary) -> String {
        let mut line = String::from("acme/x");
        push_contributions(&mut line, ext);
        line
    }

    #[test]
    fn contributions_name_only_the_kinds_a_package_has() {
        assert_eq!(contributions(&ExtensionSummary::default()), "acme/x");
        let tools_only = summary(json!({"tools": [{"name": "a"}, {"name": "b"}]}));
        assert_eq!(contributions(&tools_only), "acme/x [tools: a, b]");
        let all = summary(json!({
            "servers": [{"name": "s"}],
            "tools": [{"name": "t"}],
            "prompts": [{"name": "p"}, {"name": "q"}],
        }));
        assert_eq!(
            contributions(&all),
            "acme/x [servers: s; tools: t; prompts: p, q]"
        );
        let no_tools = summary(json!({"servers": [{"name": "s"}], "prompts": [{"name": "p"}]}));
        assert_eq!(contributions(&no_tools), "acme/x [servers: s; prompts: p]");
    }
}
