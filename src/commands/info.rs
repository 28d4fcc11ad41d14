//! `agx info <pkg | pkg/server>`: render what `ops::info` found, as text or JSON.

use std::fmt::Write as _;

use super::Context;
use crate::cli::InfoArgs;
use agx_core::error::CliResult;
use agx_model::manifest::{PromptSummary, ToolSummary};
use agx_model::settings::Setting;
use agx_ops::info::{self, ListedServerInfo, PackageInfo, PluginInfo, ServerInfo, Subject};

pub fn run(ctx: &Context, args: &InfoArgs) -> CliResult {
    let subject = info::info(&ctx.ops()?, &args.target)?;
    let text = match (&subject, args.json) {
        (Subject::Package(p), true) => to_json(p),
        (Subject::Package(p), false) => package_text(p),
        (Subject::Server(s), true) => to_json(s),
        (Subject::Server(s), false) => server_text(s),
        (Subject::Listed(s), true) => to_json(s),
        (Subject::Listed(s), false) => listed_text(s),
        (Subject::Plugin(p), true) => to_json(p),
        (Subject::Plugin(p), false) => plugin_text(p),
    };
    ctx.printer.outln(text.trim_end())
}

/// A marketplace's plugin: where it is, what agx carries of it, and what it does not.
fn plugin_text(info: &PluginInfo) -> String {
    let plugin = &info.plugin;
    let mut out = String::new();
    let version = plugin
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{}{version} (claude-marketplace {}, {}; not installed)",
        info.install, info.source_name, info.registry
    );
    if let Some(description) = &plugin.description {
        let _ = writeln!(out, "{description}");
    }
    let _ = writeln!(out, "plugin source: {}", plugin.source);
    for (label, names) in [("servers", &plugin.servers), ("skills", &plugin.skills)] {
        if !names.is_empty() {
            let _ = writeln!(out, "{label}: {}", names.join(", "));
        }
    }
    if !plugin.not_carried.is_empty() {
        let _ = writeln!(
            out,
            "{NOT_CARRIED_LABEL} {}{NOT_CARRIED_WHY}",
            plugin.not_carried.join(", ")
        );
    }
    out
}

/// A server.json entry: what it is, where it is listed, what it offers and the settings.
fn listed_text(info: &ListedServerInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} (mcp-registry {}; not installed)",
        info.name, info.version, info.registry
    );
    if let Some(title) = &info.title {
        let _ = writeln!(out, "{title}");
    }
    let _ = writeln!(out, "{}", info.description);
    if info.status == agx_sources::index::mcp_registry::Status::Deprecated {
        let _ = writeln!(
            out,
            "deprecated{}",
            info.status_message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        );
    }
    for (label, value) in [
        ("homepage", &info.website_url),
        ("repository", &info.repository),
    ] {
        if let Some(v) = value {
            let _ = writeln!(out, "{label}: {v}");
        }
    }
    if !info.packages.is_empty() {
        let _ = writeln!(out, "packages:");
        for p in &info.packages {
            let hint = p
                .runtime_hint
                .as_deref()
                .map(|h| format!(", runs with {h}"))
                .unwrap_or_default();
            let version = p
                .version
                .as_deref()
                .map(|v| format!(" {v}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {} {}{version} ({}{hint})",
                p.registry_type, p.identifier, p.transport
            );
            write_settings(&mut out, &p.settings);
        }
    }
    if !info.remotes.is_empty() {
        let _ = writeln!(out, "remotes:");
        for r in &info.remotes {
            let _ = writeln!(out, "  {} {}", r.transport, r.url);
            write_settings(&mut out, &r.settings);
        }
    }
    let _ = writeln!(
        out,
        "install it with `agx install {}` (`--prefer` picks a package or remote; see docs/ecosystem.md)",
        info.name
    );
    out
}

/// `    setting KEY (secret, required, number, default 3, one of: a, b): description`.
fn write_settings(out: &mut String, settings: &[Setting]) {
    for s in settings {
        let mut traits = Vec::new();
        if s.secret {
            traits.push("secret".to_string());
        }
        if s.required {
            traits.push("required".to_string());
        }
        traits.push(s.kind.as_str().to_string());
        if let Some(d) = &s.default {
            traits.push(format!("default {d}"));
        }
        if !s.choices.is_empty() {
            traits.push(format!("one of: {}", s.choices.join(", ")));
        }
        let description = s
            .description
            .as_deref()
            .map(|d| format!(": {d}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "    setting {} ({}){description}",
            s.key,
            traits.join(", ")
        );
    }
}

fn to_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("info serializes")
}

fn package_text(info: &PackageInfo) -> String {
    let mut out = String::new();
    let state = match &info.installed {
        Some(p) if p.explicit => format!("installed from {}", p.source),
        Some(p) => format!("installed as a dependency, from {}", p.source),
        None => "not installed".to_string(),
    };
    let _ = writeln!(out, "{} {} ({state})", info.name, info.version);
    if let Some(d) = &info.description {
        let _ = writeln!(out, "{d}");
    }
    if let Some(provenance) = info.installed.as_ref().and_then(|p| p.provenance.as_ref()) {
        let _ = writeln!(out, "provenance: {}", provenance.summary());
    }
    for (label, value) in [
        ("license", &info.license),
        ("homepage", &info.homepage),
        ("repository", &info.repository),
    ] {
        if let Some(v) = value {
            let _ = writeln!(out, "{label}: {v}");
        }
    }
    if let Some(p) = &info.installed {
        let _ = writeln!(out, "location: {}", p.dir.display());
    }
    // Worth a line only when projects hold versions beside the user's.
    let side_by_side = info
        .installed_versions
        .iter()
        .any(|v| v.roots.iter().any(|r| r != "user"));
    if side_by_side {
        let versions: Vec<String> = info
            .installed_versions
            .iter()
            .map(|v| match v.roots.as_slice() {
                [] => format!("{} (held by nothing; `agx gc` removes it)", v.version),
                roots => format!("{} (held by {})", v.version, roots.join(", ")),
            })
            .collect();
        let _ = writeln!(out, "installed versions: {}", versions.join("; "));
    }
    if !info.versions.is_empty() {
        let versions: Vec<String> = info
            .versions
            .iter()
            .map(|v| {
                if v.yanked {
                    format!("{} (yanked)", v.version)
                } else {
                    v.version.to_string()
                }
            })
            .collect();
        let _ = writeln!(out, "versions: {}", versions.join(", "));
    }
    if !info.dependencies.is_empty() {
        out.push_str("dependencies:\n");
        for d in &info.dependencies {
            let state = d
                .installed
                .as_ref()
                .map_or("not installed".to_string(), |v| format!("installed {v}"));
            let _ = writeln!(out, "  {} {} ({state})", d.name, d.requirement);
        }
    }
    if !info.servers.is_empty() {
        out.push_str("servers:\n");
        for s in &info.servers {
            let _ = writeln!(out, "  {}/{}{}", info.name, s.name, dash(&s.description));
            if !s.tools.is_empty() {
                let _ = writeln!(out, "    tools: {}", s.tools.join(", "));
            }
            if !s.prompts.is_empty() {
                let _ = writeln!(out, "    prompts: {}", s.prompts.join(", "));
            }
            if !s.resources.is_empty() {
                let _ = writeln!(out, "    resources: {}", s.resources.join(", "));
            }
            if let Some(filter) = info.filters.get(&s.name) {
                write_filter(&mut out, "    ", filter);
            }
            if let Some(lines) = info.server_permissions.get(&s.name) {
                write_permissions(&mut out, "    ", "permissions:", lines);
            }
        }
    }
    if !info.tools.is_empty() {
        out.push_str("tools:\n");
        for t in &info.tools {
            let _ = writeln!(out, "  {}{}{}", t.name, params(t), dash(&t.description));
        }
    }
    if !info.prompts.is_empty() {
        out.push_str("prompts:\n");
        for p in &info.prompts {
            let _ = writeln!(out, "  {}{}{}", p.name, args(p), dash(&p.description));
        }
    }
    if !info.permissions.is_empty() {
        write_permissions(&mut out, "", "permissions:", &info.permissions);
    }
    if !info.settings.is_empty() {
        out.push_str("settings:\n");
        super::config::settings_lines(&mut out, &info.settings);
    }
    if !info.resources.is_empty() {
        out.push_str("resources:\n");
        for r in &info.resources {
            let _ = writeln!(out, "  {} <{}>{}", r.name, r.uri, dash(&r.description));
        }
    }
    if !info.skills.is_empty() {
        out.push_str("skills:\n");
        for skill in &info.skills {
            let _ = writeln!(out, "  {} — {}", skill.name, skill.description);
        }
    }
    if !info.not_carried.is_empty() {
        let _ = writeln!(
            out,
            "{NOT_CARRIED_LABEL} {}{NOT_CARRIED_WHY}",
            info.not_carried.join(", ")
        );
    }
    if info.installed.is_none() {
        let _ = writeln!(out, "install it with `agx install {}`", info.name);
    }
    out
}

/// The filter `agx serve` applies, one rule a line, under its source.
/// A block of permission lines (docs/sandbox.md) under `heading`, as `agx info` and `agx
/// install` show them.
pub(super) fn write_permissions(out: &mut String, indent: &str, heading: &str, lines: &[String]) {
    let _ = writeln!(out, "{indent}{heading}");
    for line in lines {
        let _ = writeln!(out, "{indent}  {line}");
    }
}

fn write_filter(out: &mut String, indent: &str, filter: &agx_ops::info::FilterView) {
    let _ = writeln!(out, "{indent}filter ({}):", filter.source);
    for line in filter.spec.describe() {
        let _ = writeln!(out, "{indent}  {line}");
    }
}
const NOT_CARRIED_LABEL: &str = "not carried:";
const NOT_CARRIED_WHY: &str =
    " (agx installs a plugin's MCP servers and skills; these run only in Claude Code)";

fn dash(description: &Option<String>) -> String {
    description
        .as_ref()
        .map_or(String::new(), |d| format!(" — {d}"))
}

fn params(tool: &ToolSummary) -> String {
    let list: Vec<String> = tool
        .parameters
        .iter()
        .map(|p| {
            format!(
                "{}{}: {}",
                p.name,
                if p.required { "" } else { "?" },
                p.kind
            )
        })
        .collect();
    format!("({})", list.join(", "))
}

fn args(prompt: &PromptSummary) -> String {
    if prompt.arguments.is_empty() {
        String::new()
    } else {
        format!("({})", prompt.arguments.join(", "))
    }
}

fn server_text(view: &ServerInfo) -> String {
    let mut out = format!(
        "{} (server of {} {}, {})\n",
        view.name,
        view.package,
        view.version,
        if view.installed {
            "installed"
        } else {
            "not installed"
        }
    );
    if let Some(d) = &view.description {
        let _ = writeln!(out, "{d}");
    }
    if let Some(i) = &view.instructions {
        let _ = writeln!(out, "instructions: {i}");
    }
    if let Some(command) = &view.command {
        let _ = writeln!(out, "runs: {}", command.join(" "));
    }
    if let Some(url) = &view.url {
        let _ = writeln!(
            out,
            "remote: {url} (Streamable HTTP, bridged to stdio by agx serve)"
        );
    }
    let tools = view.tools.iter().map(|t| {
        let names: Vec<&str> = t.parameters.iter().map(|p| p.name.as_str()).collect();
        (&t.name, names, &t.description)
    });
    let prompts = view.prompts.iter().map(|p| {
        let names: Vec<&str> = p.arguments.iter().map(String::as_str).collect();
        (&p.name, names, &p.description)
    });
    for (label, items) in [
        ("tools", tools.collect::<Vec<_>>()),
        ("prompts", prompts.collect()),
    ] {
        if items.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{label}:");
        for (name, params, description) in items {
            let _ = writeln!(out, "  {name}({}){}", params.join(", "), dash(description));
        }
    }
    if let Some(filter) = &view.filter {
        write_filter(&mut out, "", filter);
    }
    if view.installed {
        let _ = writeln!(
            out,
            "add it to a client with `agx install-server <client> {}`",
            view.name
        );
    }
    out
}
