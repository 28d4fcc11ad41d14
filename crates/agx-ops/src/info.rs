//! What `agx info` shows: an installed package is described from its definition files
//! (inspection), a package that is not installed from registry metadata only (discovery).
//! Nothing is downloaded and nothing runs. The result types serialize to the JSON shapes
//! of docs/json.md.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::{Context, OpsError, OpsResult};
use agx_core::name::{PackageName, QualifiedName};
use agx_model::manifest::{
    ExtensionSummary, ParameterSummary, PromptSummary, ResourceSummary, ServerSummary, ToolSummary,
};
use agx_model::settings::{PackageSettings, ResolvedSetting, Setting, SettingsStore};
use agx_sources::index::mcp_registry::{RegistryServer, ServerJson, Status, is_server_name};
use agx_sources::index::{AnyRegistry, IndexEntry, IndexError, SourceKind};
use agx_store::Source;
use agx_store::{InstalledPackage, Store};

/// What `agx info` was asked about.
pub enum Subject {
    Package(Box<PackageInfo>),
    Server(Box<ServerInfo>),
    /// A server listed by an MCP registry (`io.github.user/weather`).
    Listed(Box<ListedServerInfo>),
    /// A plugin of a configured marketplace (`weather@acme`).
    Plugin(Box<PluginInfo>),
}

/// A marketplace's plugin: what it holds, what agx carries of it and what not.
#[derive(Debug, Clone, Serialize)]
pub struct PluginInfo {
    pub kind: &'static str,
    /// The configured source name.
    pub source_name: String,
    /// The marketplace's URL or folder.
    pub registry: String,
    /// What `agx install` takes.
    pub install: String,
    #[serde(flatten)]
    pub plugin: agx_sources::index::marketplace::PluginSummary,
}

/// Describe `PLUGIN@SOURCE` from its marketplace.
fn plugin_info(
    ctx: &Context,
    reference: &agx_sources::index::marketplace::PluginRef,
) -> OpsResult<PluginInfo> {
    let opened =
        agx_sources::index::open_any(Some(&reference.source), None, ctx.offline, ctx.paths)?;
    let AnyRegistry::Marketplace(marketplace) = opened else {
        unreachable!("a plugin reference names a marketplace source")
    };
    Ok(PluginInfo {
        kind: SourceKind::ClaudeMarketplace.as_str(),
        source_name: reference.source.clone(),
        registry: marketplace.source().to_string(),
        install: reference.to_string(),
        plugin: marketplace.plugin(&reference.plugin)?,
    })
}

/// A server.json entry of an MCP registry: what it offers and the settings its inputs
/// become (`agx install <name>` installs it).
#[derive(Debug, Clone, Serialize)]
pub struct ListedServerInfo {
    pub kind: &'static str,
    pub registry: String,
    pub name: String,
    pub version: String,
    pub title: Option<String>,
    pub description: String,
    pub website_url: Option<String>,
    pub repository: Option<String>,
    pub status: Status,
    pub status_message: Option<String>,
    pub packages: Vec<OfferedPackage>,
    pub remotes: Vec<OfferedRemote>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OfferedPackage {
    pub registry_type: String,
    pub identifier: String,
    /// Absent for an image or bundle whose identifier alone names it.
    pub version: Option<String>,
    pub transport: &'static str,
    pub runtime_hint: Option<String>,
    pub settings: Vec<Setting>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OfferedRemote {
    pub transport: &'static str,
    pub url: String,
    pub settings: Vec<Setting>,
}

/// Look `name` up in every MCP registry in reach (the one `--registry` names, else every
/// configured one), first found wins. `Ok(None)` when no MCP registry is in reach.
fn listed_server(ctx: &Context, name: &str) -> OpsResult<Option<ListedServerInfo>> {
    let mut not_found = None;
    for (_, registry) in
        agx_sources::index::open_every(ctx.registry, ctx.registry_root, ctx.offline, ctx.paths)?
    {
        let AnyRegistry::Mcp(registry) = registry else {
            continue;
        };
        match registry.server(name, None) {
            Ok(entry) => return Ok(Some(listed_info(registry.base(), entry))),
            Err(e @ IndexError::ServerNotFound { .. }) => not_found = Some(e),
            Err(e) => return Err(e.into()),
        }
    }
    match not_found {
        Some(e) => Err(e.into()),
        None => Ok(None),
    }
}

fn listed_info(registry: &str, entry: RegistryServer) -> ListedServerInfo {
    let server = entry.server;
    ListedServerInfo {
        kind: SourceKind::McpRegistry.as_str(),
        registry: registry.to_string(),
        packages: server
            .packages
            .iter()
            .map(|p| OfferedPackage {
                registry_type: p.registry_type.clone(),
                identifier: p.identifier.clone(),
                version: p.version.clone(),
                transport: p.transport.as_ref().map_or("stdio", |t| t.kind()),
                runtime_hint: p.runtime_hint.clone(),
                settings: ServerJson::package_settings(p),
            })
            .collect(),
        remotes: server
            .remotes
            .iter()
            .map(|r| OfferedRemote {
                transport: r.kind(),
                url: r.url().unwrap_or_default().to_string(),
                settings: ServerJson::remote_settings(r),
            })
            .collect(),
        name: server.name,
        version: server.version,
        title: server.title,
        description: server.description,
        website_url: server.website_url,
        repository: server.repository.map(|r| r.url),
        status: entry.status,
        status_message: entry.status_message,
    }
}

/// A package, from whichever source had it.
#[derive(Debug, Clone, Serialize)]
pub struct PackageInfo {
    pub name: PackageName,
    pub version: semver::Version,
    pub description: Option<String>,
    pub license: Option<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub installed: Option<Installation>,
    /// Every installed version and who holds it (`user`, or a project's folder); left out
    /// when none is installed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub installed_versions: Vec<InstalledVersion>,
    /// Published versions (empty when the registry was not consulted).
    pub versions: Vec<PublishedVersion>,
    pub dependencies: Vec<Dependency>,
    pub servers: Vec<ServerSummary>,
    pub tools: Vec<ToolSummary>,
    pub prompts: Vec<PromptSummary>,
    /// The package's settings with where each value comes from (installed packages only;
    /// a secret's value never appears).
    pub settings: Vec<ResolvedSetting>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ResourceSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<agx_model::manifest::SkillSummary>,
    /// The filter of each server that has one, by server name (docs/profiles.md).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub filters: BTreeMap<String, FilterView>,
    /// For a package imported from a Claude Code plugin: its components agx does not carry
    /// (`hooks`, `agents`, `commands`, `lsp servers`, `output styles`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_carried: Vec<String>,
    /// What the package's programs may do (docs/sandbox.md), one line each; known when the
    /// definition files were read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<String>,
    /// Servers that declare permissions of their own, with them, one line each.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub server_permissions: BTreeMap<String, Vec<String>>,
    /// Server instructions by server name, known when the definition files were read.
    #[serde(skip)]
    pub instructions: BTreeMap<String, String>,
}

/// How an installed package got here.
#[derive(Debug, Clone, Serialize)]
pub struct Installation {
    pub version: semver::Version,
    pub explicit: bool,
    pub requested: semver::VersionReq,
    pub source: Source,
    pub sha256: String,
    pub installed_at: String,
    pub dir: PathBuf,
    /// Who built it, for a registry package (docs/json.md); absent for other sources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<agx_store::provenance::Provenance>,
}

/// One installed version, side by side with the others.
#[derive(Debug, Clone, Serialize)]
pub struct InstalledVersion {
    pub version: semver::Version,
    /// `user`, or a project's absolute folder; empty for a version `agx gc` would remove.
    pub roots: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PublishedVersion {
    pub version: semver::Version,
    pub yanked: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Dependency {
    pub name: PackageName,
    pub requirement: semver::VersionReq,
    /// The installed version, if any.
    pub installed: Option<semver::Version>,
}

/// A server with its tools and prompts resolved to their summaries.
#[derive(Debug, Clone, Serialize)]
pub struct ServerInfo {
    /// Qualified: `publisher/package/server`.
    pub name: String,
    pub package: PackageName,
    pub version: semver::Version,
    pub installed: bool,
    pub description: Option<String>,
    pub instructions: Option<String>,
    pub tools: Vec<ServerTool>,
    pub prompts: Vec<ServerPrompt>,
    /// The program a wrapped server runs, as written (installed packages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// The address of a remote server, as written (its headers are not shown: they may
    /// carry a secret's placeholder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// What `agx serve` hides, renames and re-describes (docs/profiles.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<FilterView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServerTool {
    /// Qualified name.
    pub name: String,
    /// Absent when the tool's package is not installed.
    pub description: Option<String>,
    pub parameters: Vec<ParameterSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServerPrompt {
    /// Qualified name.
    pub name: String,
    pub description: Option<String>,
    pub arguments: Vec<String>,
}

/// Describe `target`: `publisher/name`, `name`, `publisher/name/server`, or `name/server`
/// for an installed package without a publisher.
pub fn info(ctx: &Context, target: &str) -> OpsResult<Subject> {
    if let Some(reference) = agx_sources::index::marketplace::parse_plugin_ref(target, ctx.paths)? {
        return Ok(Subject::Plugin(Box::new(plugin_info(ctx, &reference)?)));
    }
    // An installed registry server is described from the store, like any package.
    let installed = || {
        PackageName::parse(target).is_ok_and(|p| ctx.store().installed(&p).ok().flatten().is_some())
    };
    if is_server_name(target)
        && !installed()
        && let Some(listed) = listed_server(ctx, target)?
    {
        return Ok(Subject::Listed(Box::new(listed)));
    }
    let store = ctx.store();
    let _lock = store.lock_shared_if_present()?;
    let (package, server) = parse_target(&store, target)?;
    let mut info = gather(ctx, &store, &package)?;
    if info.installed.is_some() {
        for s in &info.servers {
            if let Ok(qualified) = QualifiedName::parse(&format!("{package}/{}", s.name))
                && let Some(filter) = filter_view(ctx, &qualified)?
            {
                info.filters.insert(s.name.clone(), filter);
            }
        }
    }
    Ok(match server {
        None => Subject::Package(Box::new(info)),
        Some(server) => {
            let filter = info.filters.get(&server).cloned();
            let mut view = server_info(&store, info, &server)?;
            view.filter = filter;
            Subject::Server(Box::new(view))
        }
    })
}

/// The filter `agx serve` applies to `server` here: the project's or the user's.
fn filter_view(ctx: &Context, server: &QualifiedName) -> OpsResult<Option<FilterView>> {
    let filter = agx_runtime::server_filter(ctx.paths, server)?;
    Ok(filter.map(|f| FilterView {
        source: f.source_name.clone(),
        spec: f.spec.clone(),
    }))
}

/// A server's filter and where it is written.
#[derive(Debug, Clone, Serialize)]
pub struct FilterView {
    pub source: String,
    #[serde(flatten)]
    pub spec: agx_model::filter::FilterSpec,
}

fn parse_target(store: &Store, target: &str) -> OpsResult<(PackageName, Option<String>)> {
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
        // `npm/@scope/x` is a package whose name has a `/`, as `serve` and `list` read it.
        if let Ok(name) = PackageName::parse(target)
            && (QualifiedName::parse(target).is_err()
                || store.installed(&name).ok().flatten().is_some())
        {
            return Ok((name, None));
        }
        let q = QualifiedName::parse(target)?;
        return Ok((q.package, Some(q.item.to_string())));
    }
    if segments == 4 {
        // `npm/@scope/x/server`: a server of a scoped npm package, as `info` lists it.
        let q = QualifiedName::parse(target).map_err(|source| OpsError::NotATarget { source })?;
        return Ok((q.package, Some(q.item.to_string())));
    }
    let name = PackageName::parse(target).map_err(|source| OpsError::NotATarget { source })?;
    Ok((name, None))
}

fn gather(ctx: &Context, store: &Store, name: &PackageName) -> OpsResult<PackageInfo> {
    let installed = store.installed(name)?;
    if installed.is_none() && name.is_ecosystem() {
        return Err(OpsError::EcosystemNotInstalled { name: name.clone() });
    }
    let from_registry = installed
        .as_ref()
        .is_none_or(|p| p.receipt.source.is_registry());
    let mut versions: Vec<IndexEntry> = Vec::new();
    if from_registry {
        let fetched = ctx
            .open_registry_for(std::iter::once(name))
            .and_then(|r| r.versions(name));
        match (fetched, &installed) {
            (Ok(v), _) => versions = v,
            (Err(e), Some(_)) => tracing::debug!("registry not consulted: {e}"),
            (Err(e), None) => return Err(e.into()),
        }
    }
    let published = versions
        .iter()
        .map(|e| PublishedVersion {
            version: e.vers.clone(),
            yanked: e.yanked,
        })
        .collect();

    if let Some(installed) = installed {
        return Ok(describe_installed(ctx, store, name, installed, published));
    }

    let newest = versions
        .iter()
        .filter(|e| !e.yanked)
        .max_by(|a, b| a.vers.cmp(&b.vers))
        .or_else(|| versions.iter().max_by(|a, b| a.vers.cmp(&b.vers)))
        .ok_or_else(|| OpsError::Unknown { name: name.clone() })?;
    Ok(package_info(
        store,
        name,
        newest.vers.clone(),
        Metadata {
            description: newest.description.clone(),
            ..Metadata::default()
        },
        &newest.deps,
        newest.extension.clone(),
        None,
        published,
    ))
}

/// What the programs of a package may do, as `agx info` and `agx install` show it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionLines {
    /// The package's permissions (with the defaults, and what this machine enforces), or
    /// that it is not confined; one line each.
    pub package: Vec<String>,
    /// Servers that declare permissions of their own, with them, one line each.
    pub servers: BTreeMap<String, Vec<String>>,
}

/// The permission lines of a loaded package (docs/sandbox.md).
pub fn permissions_of(package: &agx_model::manifest::Package) -> PermissionLines {
    let remote_only = !package.servers.is_empty()
        && package.servers.iter().all(|s| s.url.is_some())
        && package.tools.is_empty()
        && package.resources.is_empty();
    if remote_only {
        // Nothing runs on this machine: there is nothing to confine.
        return PermissionLines {
            package: vec![
                "runs no program here: its servers are remote (agx serve bridges them to stdio)"
                    .into(),
            ],
            servers: BTreeMap::new(),
        };
    }
    let mut lines =
        agx_sandbox::Permissions::describe(package.manifest.extension.permissions.as_ref());
    if let Some(resolved) = agx_sandbox::for_package(package, None) {
        lines.push(format!("enforced: {}", agx_sandbox::enforcement(&resolved)));
    }
    let servers = package
        .servers
        .iter()
        .filter_map(|s| {
            let own = s.permissions.as_ref()?;
            Some((
                s.name.to_string(),
                agx_sandbox::Permissions::describe(Some(own)),
            ))
        })
        .collect();
    PermissionLines {
        package: lines,
        servers,
    }
}

/// The permission lines of the installed version of `name`; `None` when it is not
/// installed or its definition files no longer load (`agx info` explains).
pub fn installed_permissions(
    ctx: &Context,
    name: &PackageName,
) -> OpsResult<Option<PermissionLines>> {
    let Some(installed) = ctx.store().installed(name)? else {
        return Ok(None);
    };
    Ok(agx_model::manifest::load_installed(&installed.dir)
        .ok()
        .map(|package| permissions_of(&package)))
}

/// What the installed version of `name` recorded of who built it; `None` when it is not
/// installed or came from a source agx does not check.
pub fn installed_provenance(
    ctx: &Context,
    name: &PackageName,
) -> OpsResult<Option<agx_store::provenance::Provenance>> {
    Ok(ctx
        .store()
        .installed(name)?
        .and_then(|installed| installed.receipt.provenance))
}

/// An installed package from its definition files; from its receipt (with a warning) when
/// they no longer load.
fn describe_installed(
    ctx: &Context,
    store: &Store,
    name: &PackageName,
    installed: InstalledPackage,
    published: Vec<PublishedVersion>,
) -> PackageInfo {
    let version = installed.version.clone();
    match agx_model::manifest::load_installed(&installed.dir) {
        Ok(package) => {
            let meta = &package.manifest.package;
            let mut info = package_info(
                store,
                name,
                version,
                Metadata {
                    description: meta.description.clone(),
                    license: meta.license.clone(),
                    homepage: meta.homepage.clone(),
                    repository: meta.repository.clone(),
                },
                &package.manifest.dependencies,
                package.summary(),
                Some(installed),
                published,
            );
            info.instructions = package
                .servers
                .iter()
                .filter_map(|s| Some((s.name.to_string(), s.instructions.clone()?)))
                .collect();
            info.settings = resolved_settings(ctx, name, &package.manifest.extension.settings);
            let shown = permissions_of(&package);
            info.permissions = shown.package;
            info.server_permissions = shown.servers;
            if let Some(p) = &info.installed
                && matches!(p.source, Source::Plugin { .. })
            {
                info.not_carried =
                    agx_sources::index::marketplace::not_carried(&p.dir).unwrap_or_default();
            }
            info
        }
        Err(e) => {
            ctx.reporter.warn(&format!(
                "{e}; showing what was recorded at install time (`agx validate {}` explains)",
                installed.dir.display()
            ));
            let r = &installed.receipt;
            package_info(
                store,
                name,
                version,
                Metadata {
                    description: r.description.clone(),
                    ..Metadata::default()
                },
                &r.dependencies.clone(),
                r.extension.clone(),
                Some(installed),
                published,
            )
        }
    }
}

/// The settings as they resolve now; declared only (every one unset) with a warning when the
/// stores cannot be read.
fn resolved_settings(
    ctx: &Context,
    name: &PackageName,
    declared: &[agx_model::settings::Setting],
) -> Vec<ResolvedSetting> {
    if declared.is_empty() {
        return Vec::new();
    }
    match SettingsStore::open(ctx.paths).and_then(|s| s.resolve(name, declared)) {
        Ok(resolved) => resolved.settings,
        Err(e) => {
            let hint = agx_core::error::Hint::hint(&e)
                .map(|h| format!(" ({h})"))
                .unwrap_or_default();
            ctx.reporter.warn(&format!(
                "cannot read the values of {name}'s settings: {e}{hint}"
            ));
            PackageSettings::declared(name.clone(), declared).settings
        }
    }
}

#[derive(Default)]
struct Metadata {
    description: Option<String>,
    license: Option<String>,
    homepage: Option<String>,
    repository: Option<String>,
}

/// The installed versions of `name` and their holders; none when the store cannot say (a
/// damaged project root is reported by `list` and `gc`).
fn installed_versions(store: &Store, name: &PackageName) -> Vec<InstalledVersion> {
    let Ok(versions) = store.versions_with_holders(name) else {
        return Vec::new();
    };
    versions
        .into_iter()
        .map(|(version, holders)| InstalledVersion {
            version,
            roots: holders
                .iter()
                .map(|h| match h {
                    agx_store::Holder::User => "user".to_string(),
                    agx_store::Holder::Project(p) => p.display().to_string(),
                })
                .collect(),
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn package_info(
    store: &Store,
    name: &PackageName,
    version: semver::Version,
    meta: Metadata,
    dependencies: &BTreeMap<PackageName, semver::VersionReq>,
    extension: ExtensionSummary,
    installed: Option<InstalledPackage>,
    versions: Vec<PublishedVersion>,
) -> PackageInfo {
    PackageInfo {
        name: name.clone(),
        version,
        description: meta.description,
        license: meta.license,
        homepage: meta.homepage,
        repository: meta.repository,
        installed: installed.map(|p| Installation {
            version: p.version,
            explicit: p.receipt.explicit,
            requested: p.receipt.requested,
            source: p.receipt.source,
            sha256: p.receipt.sha256,
            installed_at: p.receipt.installed_at,
            dir: p.dir,
            provenance: p.receipt.provenance,
        }),
        installed_versions: installed_versions(store, name),
        versions,
        dependencies: dependencies
            .iter()
            .map(|(name, req)| Dependency {
                name: name.clone(),
                requirement: req.clone(),
                installed: store.installed(name).ok().flatten().map(|p| p.version),
            })
            .collect(),
        servers: extension.servers,
        tools: extension.tools,
        prompts: extension.prompts,
        settings: Vec::new(),
        resources: extension.resources,
        skills: extension.skills,
        not_carried: Vec::new(),
        permissions: Vec::new(),
        server_permissions: BTreeMap::new(),
        instructions: BTreeMap::new(),
        filters: BTreeMap::new(),
    }
}

/// A server of `info` with its tools and prompts resolved to their summaries (references to
/// other packages are looked up among installed packages).
fn server_info(store: &Store, info: PackageInfo, server: &str) -> OpsResult<ServerInfo> {
    let Some(s) = info.servers.iter().find(|s| s.name == server) else {
        return Err(OpsError::NoSuchServer {
            known: info
                .servers
                .iter()
                .map(|s| format!("{}/{}", info.name, s.name))
                .collect(),
            package: format!("{} {}", info.name, info.version),
            server: server.to_string(),
        });
    };
    let own = ExtensionSummary {
        servers: Vec::new(),
        tools: info.tools.clone(),
        prompts: info.prompts.clone(),
        resources: info.resources.clone(),
        skills: Vec::new(),
    };
    // (qualified name, the extension that defines it if known, the item's own name)
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
                Some(own.clone()),
                reference.to_string(),
            ),
        }
    };
    let tools = s
        .tools
        .iter()
        .map(|t| {
            let (name, ext, item) = lookup(t);
            let found = ext.and_then(|e| e.tools.into_iter().find(|x| x.name == item));
            ServerTool {
                name,
                description: found.as_ref().and_then(|f| f.description.clone()),
                parameters: found.map(|f| f.parameters).unwrap_or_default(),
            }
        })
        .collect();
    let prompts = s
        .prompts
        .iter()
        .map(|p| {
            let (name, ext, item) = lookup(p);
            let found = ext.and_then(|e| e.prompts.into_iter().find(|x| x.name == item));
            ServerPrompt {
                name,
                description: found.as_ref().and_then(|f| f.description.clone()),
                arguments: found.map(|f| f.arguments).unwrap_or_default(),
            }
        })
        .collect();
    // What the server runs, from its installed definition.
    let definition = info
        .installed
        .as_ref()
        .and_then(|i| agx_model::manifest::load_installed(&i.dir).ok())
        .and_then(|p| p.servers.into_iter().find(|d| d.name.as_str() == server));
    let (command, url) = definition.map_or((None, None), |d| (d.command, d.url));
    Ok(ServerInfo {
        command,
        url,
        name: format!("{}/{}", info.name, s.name),
        package: info.name.clone(),
        version: info.version.clone(),
        installed: info.installed.is_some(),
        description: s.description.clone(),
        instructions: info.instructions.get(server).cloned(),
        tools,
        prompts,
        filter: None,
    })
}
