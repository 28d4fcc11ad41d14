//! `agx info <pkg | pkg/server>`: an installed package is described from its definition
//! files (inspection); a package that is not installed from registry metadata only
//! (discovery). Nothing is downloaded and nothing runs.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::Context;
use super::install::open_registry;
use crate::cli::InfoArgs;
use crate::error::{CliError, CliResult};
use crate::index::IndexEntry;
use crate::manifest::{ExtensionSummary, PromptSummary, ToolSummary};
use crate::name::{PackageName, QualifiedName};
use crate::store::{InstalledPackage, Store};
use crate::ui;

/// Everything shown about a package, from whichever source had it.
struct PackageInfo {
    name: PackageName,
    version: semver::Version,
    description: Option<String>,
    license: Option<String>,
    homepage: Option<String>,
    repository: Option<String>,
    dependencies: BTreeMap<PackageName, semver::VersionReq>,
    extension: ExtensionSummary,
    /// Server instructions, known when the definition files were read.
    instructions: BTreeMap<String, String>,
    installed: Option<InstalledPackage>,
    /// Published versions (empty when the registry was not consulted).
    versions: Vec<(semver::Version, bool)>,
}

pub fn run(ctx: &Context, args: &InfoArgs) -> CliResult {
    let store = Store::open(ctx.paths()?);
    let _lock = store.lock_shared_if_present()?;
    let (package, server) = parse_target(&store, &args.target)?;
    let info = gather(ctx, &store, &package)?;
    let text = match &server {
        None => {
            if args.json {
                package_json(&store, &info).to_string()
            } else {
                package_text(&store, &info)
            }
        }
        Some(server) => {
            let view = server_view(&store, &info, server)?;
            if args.json {
                view.to_string()
            } else {
                server_text(&view)
            }
        }
    };
    println!("{}", text.trim_end());
    Ok(())
}

/// `publisher/name`, `name`, `publisher/name/server`, or `name/server` for an installed
/// package without a publisher.
fn parse_target(store: &Store, target: &str) -> CliResult<(PackageName, Option<String>)> {
    let segments = target.split('/').count();
    if segments == 2
        && let Ok(q) = QualifiedName::parse(target)
        && q.package.publisher().is_none()
        && PackageName::parse(target).is_ok_and(|p| store.installed(&p).ok().flatten().is_none())
        && store.installed(&q.package).ok().flatten().is_some()
    {
        return Ok((q.package, Some(q.item.to_string())));
    }
    if segments == 3 {
        let q = QualifiedName::parse(target)?;
        return Ok((q.package, Some(q.item.to_string())));
    }
    let name = PackageName::parse(target).map_err(|e| {
        CliError::from_error(&e)
            .with_hint("expected a package (`acme/weather`) or a server (`acme/weather/forecast`)")
    })?;
    Ok((name, None))
}

fn gather(ctx: &Context, store: &Store, name: &PackageName) -> CliResult<PackageInfo> {
    let installed = store.installed(name)?;
    let from_registry = installed
        .as_ref()
        .is_none_or(|p| p.receipt.source.is_registry());
    let mut versions: Vec<IndexEntry> = Vec::new();
    if from_registry {
        let fetched = open_registry(ctx).and_then(|r| Ok(r.versions(name)?));
        match (fetched, &installed) {
            (Ok(v), _) => versions = v,
            (Err(e), Some(_)) => ui::verbose(&format!("registry not consulted: {}", e.message)),
            (Err(e), None) => return Err(e),
        }
    }
    let version_list = versions
        .iter()
        .map(|e| (e.vers.clone(), e.yanked))
        .collect();

    if let Some(installed) = installed {
        return Ok(match crate::manifest::load_installed(&installed.dir) {
            Ok(package) => {
                let meta = &package.manifest.package;
                PackageInfo {
                    name: name.clone(),
                    version: installed.version.clone(),
                    description: meta.description.clone(),
                    license: meta.license.clone(),
                    homepage: meta.homepage.clone(),
                    repository: meta.repository.clone(),
                    dependencies: package.manifest.dependencies.clone(),
                    extension: package.summary(),
                    instructions: package
                        .servers
                        .iter()
                        .filter_map(|s| Some((s.name.to_string(), s.instructions.clone()?)))
                        .collect(),
                    installed: Some(installed),
                    versions: version_list,
                }
            }
            Err(e) => {
                ui::warn(&format!(
                    "{e}; showing what was recorded at install time (`agx validate {}` explains)",
                    installed.dir.display()
                ));
                let r = &installed.receipt;
                PackageInfo {
                    name: name.clone(),
                    version: installed.version.clone(),
                    description: r.description.clone(),
                    license: None,
                    homepage: None,
                    repository: None,
                    dependencies: r.dependencies.clone(),
                    extension: r.extension.clone(),
                    instructions: BTreeMap::new(),
                    installed: Some(installed),
                    versions: version_list,
                }
            }
        });
    }

    let newest = versions
        .iter()
        .filter(|e| !e.yanked)
        .max_by(|a, b| a.vers.cmp(&b.vers))
        .or_else(|| versions.iter().max_by(|a, b| a.vers.cmp(&b.vers)))
        .ok_or_else(|| {
            CliError::new(format!("{name} is neither installed nor in the registry")).with_hint(
                format!(
                    "check the spelling (`agx search {}`) or the registry (--registry)",
                    name.name()
                ),
            )
        })?;
    Ok(PackageInfo {
        name: name.clone(),
        version: newest.vers.clone(),
        description: newest.description.clone(),
        license: None,
        homepage: None,
        repository: None,
        dependencies: newest.deps.clone(),
        extension: newest.extension.clone(),
        instructions: BTreeMap::new(),
        installed: None,
        versions: version_list,
    })
}

fn installed_version(store: &Store, name: &PackageName) -> Option<semver::Version> {
    store.installed(name).ok().flatten().map(|p| p.version)
}

fn package_json(store: &Store, info: &PackageInfo) -> Value {
    json!({
        "name": info.name,
        "version": info.version.to_string(),
        "description": info.description,
        "license": info.license,
        "homepage": info.homepage,
        "repository": info.repository,
        "installed": info.installed.as_ref().map(|p| json!({
            "version": p.version.to_string(),
            "explicit": p.receipt.explicit,
            "requested": p.receipt.requested.to_string(),
            "source": p.receipt.source,
            "sha256": p.receipt.sha256,
            "installed_at": p.receipt.installed_at,
            "dir": p.dir,
        })),
        "versions": info.versions.iter().map(|(v, yanked)| json!({
            "version": v.to_string(),
            "yanked": yanked,
        })).collect::<Vec<_>>(),
        "dependencies": info.dependencies.iter().map(|(name, req)| json!({
            "name": name,
            "requirement": req.to_string(),
            "installed": installed_version(store, name).map(|v| v.to_string()),
        })).collect::<Vec<_>>(),
        "servers": info.extension.servers,
        "tools": info.extension.tools,
        "prompts": info.extension.prompts,
    })
}

fn package_text(store: &Store, info: &PackageInfo) -> String {
    let mut out = String::new();
    let state = match &info.installed {
        Some(p) if p.receipt.explicit => format!("installed from {}", p.receipt.source),
        Some(p) => format!("installed as a dependency, from {}", p.receipt.source),
        None => "not installed".to_string(),
    };
    out.push_str(&format!("{} {} ({state})\n", info.name, info.version));
    if let Some(d) = &info.description {
        out.push_str(&format!("{d}\n"));
    }
    for (label, value) in [
        ("license", &info.license),
        ("homepage", &info.homepage),
        ("repository", &info.repository),
    ] {
        if let Some(v) = value {
            out.push_str(&format!("{label}: {v}\n"));
        }
    }
    if let Some(p) = &info.installed {
        out.push_str(&format!("location: {}\n", p.dir.display()));
    }
    if !info.versions.is_empty() {
        let versions: Vec<String> = info
            .versions
            .iter()
            .map(|(v, yanked)| {
                if *yanked {
                    format!("{v} (yanked)")
                } else {
                    v.to_string()
                }
            })
            .collect();
        out.push_str(&format!("versions: {}\n", versions.join(", ")));
    }
    if !info.dependencies.is_empty() {
        out.push_str("dependencies:\n");
        for (name, req) in &info.dependencies {
            let state = installed_version(store, name)
                .map_or("not installed".to_string(), |v| format!("installed {v}"));
            out.push_str(&format!("  {name} {req} ({state})\n"));
        }
    }
    let ext = &info.extension;
    if !ext.servers.is_empty() {
        out.push_str("servers:\n");
        for s in &ext.servers {
            out.push_str(&format!(
                "  {}/{}{}\n",
                info.name,
                s.name,
                dash(&s.description)
            ));
            if !s.tools.is_empty() {
                out.push_str(&format!("    tools: {}\n", s.tools.join(", ")));
            }
            if !s.prompts.is_empty() {
                out.push_str(&format!("    prompts: {}\n", s.prompts.join(", ")));
            }
        }
    }
    if !ext.tools.is_empty() {
        out.push_str("tools:\n");
        for t in &ext.tools {
            out.push_str(&format!(
                "  {}{}{}\n",
                t.name,
                params(t),
                dash(&t.description)
            ));
        }
    }
    if !ext.prompts.is_empty() {
        out.push_str("prompts:\n");
        for p in &ext.prompts {
            out.push_str(&format!(
                "  {}{}{}\n",
                p.name,
                args(p),
                dash(&p.description)
            ));
        }
    }
    if info.installed.is_none() {
        out.push_str(&format!("install it with `agx install {}`\n", info.name));
    }
    out
}

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

/// A server with its tools and prompts resolved to their summaries (references to other
/// packages are looked up among installed packages).
fn server_view(store: &Store, info: &PackageInfo, server: &str) -> CliResult<Value> {
    let Some(s) = info.extension.servers.iter().find(|s| s.name == server) else {
        let known: Vec<String> = info
            .extension
            .servers
            .iter()
            .map(|s| format!("{}/{}", info.name, s.name))
            .collect();
        return Err(CliError::new(format!(
            "{} {} has no server `{server}`",
            info.name, info.version
        ))
        .with_hint(if known.is_empty() {
            "this package declares no servers".to_string()
        } else {
            format!("its servers: {}", known.join(", "))
        }));
    };
    let lookup = |reference: &str| -> (String, Option<ExtensionSummary>, String) {
        match QualifiedName::parse(reference) {
            Ok(q) if reference.contains('/') => {
                let ext = store
                    .installed(&q.package)
                    .ok()
                    .flatten()
                    .map(|p| p.receipt.extension);
                (reference.to_string(), ext, q.item.to_string())
            }
            _ => (
                format!("{}/{reference}", info.name),
                Some(info.extension.clone()),
                reference.to_string(),
            ),
        }
    };
    let tools: Vec<Value> = s
        .tools
        .iter()
        .map(|t| {
            let (qualified, ext, item) = lookup(t);
            let found = ext.and_then(|e| e.tools.into_iter().find(|x| x.name == item));
            json!({
                "name": qualified,
                "description": found.as_ref().and_then(|f| f.description.clone()),
                "parameters": found.map(|f| f.parameters).unwrap_or_default(),
            })
        })
        .collect();
    let prompts: Vec<Value> = s
        .prompts
        .iter()
        .map(|p| {
            let (qualified, ext, item) = lookup(p);
            let found = ext.and_then(|e| e.prompts.into_iter().find(|x| x.name == item));
            json!({
                "name": qualified,
                "description": found.as_ref().and_then(|f| f.description.clone()),
                "arguments": found.map(|f| f.arguments).unwrap_or_default(),
            })
        })
        .collect();
    Ok(json!({
        "name": format!("{}/{}", info.name, s.name),
        "package": info.name,
        "version": info.version.to_string(),
        "installed": info.installed.is_some(),
        "description": s.description,
        "instructions": info.instructions.get(server),
        "tools": tools,
        "prompts": prompts,
    }))
}

fn server_text(view: &Value) -> String {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut out = format!(
        "{} (server of {} {}, {})\n",
        text(&view["name"]),
        text(&view["package"]),
        text(&view["version"]),
        if view["installed"] == true {
            "installed"
        } else {
            "not installed"
        }
    );
    if let Some(d) = view["description"].as_str() {
        out.push_str(&format!("{d}\n"));
    }
    if let Some(i) = view["instructions"].as_str() {
        out.push_str(&format!("instructions: {i}\n"));
    }
    for (label, key, params_key) in [
        ("tools", "tools", "parameters"),
        ("prompts", "prompts", "arguments"),
    ] {
        let Some(items) = view[key].as_array().filter(|a| !a.is_empty()) else {
            continue;
        };
        out.push_str(&format!("{label}:\n"));
        for item in items {
            let names: Vec<String> = item[params_key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            p["name"]
                                .as_str()
                                .or(p.as_str())
                                .unwrap_or_default()
                                .to_string()
                        })
                        .collect()
                })
                .unwrap_or_default();
            let description = item["description"].as_str().map(str::to_string);
            out.push_str(&format!(
                "  {}({}){}\n",
                text(&item["name"]),
                names.join(", "),
                dash(&description)
            ));
        }
    }
    if view["installed"] == true {
        out.push_str(&format!(
            "add it to a client with `agx install-server <client> {}`\n",
            text(&view["name"])
        ));
    }
    out
}
