//! Claude-format marketplaces as a source kind (`claude-marketplace`, docs/plugins.md): a
//! folder holding `.claude-plugin/marketplace.json`, or a URL serving that file. Discovery
//! reads the catalog and, for a plugin kept in the marketplace's own folder, the plugin's
//! files, to show its MCP servers and skills and the components agx does not carry.

use std::path::{Component, Path, PathBuf};

use agx_core::io_context::at;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cache::{CachedRemote, IndexCache};
use super::dialect::Dialect;
use super::http::{Http, Limits};
use super::marketplace_files::{self, MAX_PLUGIN_FILE_BYTES};
use super::{HttpSettings, IndexError, Source};
use agx_core::paths::AgxPaths;

/// Where a Claude-format marketplace keeps its catalog (and where a web marketplace's is
/// looked for when its URL names no `.json` file).
pub const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";
/// Every place a marketplace folder may keep its catalog, in the order they are looked for:
/// Claude Code's, Codex's and Cursor's. All three hold the same shape (`name`, `plugins[]`
/// of `name` and `source`); Codex's sources are `{"source": "local", "path": …}`.
pub const MARKETPLACE_FILES: [&str; 3] = [
    MARKETPLACE_FILE,
    ".agents/plugins/marketplace.json",
    ".cursor-plugin/marketplace.json",
];

/// The catalog file of the marketplace folder `dir`, when it has one (a link counts: reading
/// it says why it is refused).
pub fn catalog_file_of(dir: &Path) -> Option<&'static str> {
    MARKETPLACE_FILES
        .into_iter()
        .find(|file| marketplace_files::exists(&dir.join(file)))
}
/// The cache entry of a web marketplace's catalog.
const CACHED_FILE: &str = "claude-marketplace.json";

/// `.claude-plugin/marketplace.json`: the parts agx reads.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceJson {
    pub name: String,
    #[serde(default)]
    pub metadata: Metadata,
    pub plugins: Vec<PluginEntry>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub description: Option<String>,
    /// Prepended to plugin sources given as bare names.
    #[serde(default)]
    pub plugin_root: Option<String>,
}

/// One plugin of the catalog: where it is, and whatever parts of its manifest the catalog
/// repeats.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginEntry {
    pub name: String,
    pub source: PluginLocation,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    /// Codex's `policy` (`{"installation": "NOT_AVAILABLE", "authentication": …}`), read
    /// leniently: only `installation` means anything to agx.
    #[serde(default)]
    pub policy: Option<serde_json::Value>,
    #[serde(flatten)]
    pub components: Components,
}

impl PluginEntry {
    /// Whether the catalog withholds the plugin from installs (Codex's `policy.installation
    /// = "NOT_AVAILABLE"`, which Codex refuses to install too).
    pub fn withheld(&self) -> bool {
        self.policy
            .as_ref()
            .and_then(|p| p.get("installation"))
            .and_then(|i| i.as_str())
            == Some("NOT_AVAILABLE")
    }
}

/// Where a plugin's files are.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum PluginLocation {
    /// A folder inside the marketplace (`./plugins/weather`).
    Path(String),
    Remote(RemoteLocation),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum RemoteLocation {
    Github {
        repo: String,
        #[serde(default, rename = "ref")]
        git_ref: Option<String>,
        #[serde(default)]
        sha: Option<String>,
    },
    Url {
        url: String,
        #[serde(default, rename = "ref")]
        git_ref: Option<String>,
        #[serde(default)]
        sha: Option<String>,
    },
    /// Codex's spelling of a folder inside the marketplace.
    Local {
        path: String,
    },
    GitSubdir {
        url: String,
        path: String,
        #[serde(default, rename = "ref")]
        git_ref: Option<String>,
        #[serde(default)]
        sha: Option<String>,
    },
    Npm {
        package: String,
        /// A version or range (`1.2.0`, `^1`); the `latest` dist-tag when absent.
        #[serde(default)]
        version: Option<String>,
        /// The npm registry's URL; npm's configured one when absent.
        #[serde(default)]
        registry: Option<String>,
    },
    Archive {
        url: String,
        sha256: String,
    },
}

impl PluginLocation {
    /// The folder inside the marketplace, for a plugin kept there (either spelling).
    pub fn inside_marketplace(&self) -> Option<&str> {
        match self {
            PluginLocation::Path(path) | PluginLocation::Remote(RemoteLocation::Local { path }) => {
                Some(path)
            }
            PluginLocation::Remote(_) => None,
        }
    }

    /// `./plugins/weather`, `github:owner/repo@sha`, `npm:@scope/x@1.2.0`, …
    pub fn describe(&self) -> String {
        let pinned =
            |base: String, git_ref: &Option<String>, sha: &Option<String>| match (sha, git_ref) {
                (Some(sha), _) => format!("{base}@{sha}"),
                (None, Some(git_ref)) => format!("{base}#{git_ref}"),
                (None, None) => base,
            };
        match self {
            PluginLocation::Path(path) => path.clone(),
            PluginLocation::Remote(remote) => match remote {
                RemoteLocation::Local { path } => path.clone(),
                RemoteLocation::Github { repo, git_ref, sha } => {
                    pinned(format!("github:{repo}"), git_ref, sha)
                }
                RemoteLocation::Url { url, git_ref, sha } => {
                    pinned(format!("git:{url}"), git_ref, sha)
                }
                RemoteLocation::GitSubdir {
                    url,
                    path,
                    git_ref,
                    sha,
                } => pinned(format!("git:{url}//{path}"), git_ref, sha),
                RemoteLocation::Npm {
                    package, version, ..
                } => match version {
                    Some(version) => format!("npm:{package}@{version}"),
                    None => format!("npm:{package}"),
                },
                RemoteLocation::Archive { url, .. } => format!("archive:{url}"),
            },
        }
    }
}

/// The component fields a plugin manifest (or its catalog entry) may hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Components {
    #[serde(default)]
    pub mcp_servers: Option<Value>,
    #[serde(default)]
    pub skills: Option<Value>,
    #[serde(default)]
    pub hooks: Option<Value>,
    #[serde(default)]
    pub agents: Option<Value>,
    #[serde(default)]
    pub commands: Option<Value>,
    #[serde(default)]
    pub lsp_servers: Option<Value>,
    #[serde(default)]
    pub output_styles: Option<Value>,
    /// A Gemini CLI extension's `excludeTools`: tools Gemini hides from the model.
    #[serde(default)]
    pub exclude_tools: Option<Value>,
    /// The format of the plugin these came from: where its files are by default.
    #[serde(skip)]
    pub dialect: Dialect,
}

/// What discovery shows of one plugin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginSummary {
    pub name: String,
    /// The marketplace's name (from its catalog), as `agx install PLUGIN@SOURCE` does not
    /// use it: the configured source name does.
    pub marketplace: String,
    pub version: Option<String>,
    pub description: Option<String>,
    /// Where its files are, as [`PluginLocation::describe`] says (`plugin_source` in JSON,
    /// where `source` names the configured source).
    #[serde(rename = "plugin_source")]
    pub source: String,
    /// Its MCP servers (known for plugins inside a folder marketplace, or listed inline).
    pub servers: Vec<String>,
    pub skills: Vec<String>,
    /// Components agx cannot carry to other clients: `hooks`, `agents`, `commands`,
    /// `lsp servers`, `output styles`.
    pub not_carried: Vec<String>,
}

impl PluginSummary {
    /// `servers: a, b`, `skills: c`, `not carried: hooks`: the groups it has, for listings.
    pub fn contents(&self) -> Vec<String> {
        [
            ("servers", &self.servers),
            ("skills", &self.skills),
            ("not carried", &self.not_carried),
        ]
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(label, names)| format!("{label}: {}", names.join(", ")))
        .collect()
    }
}

/// A Claude-format marketplace, at a folder or a URL.
#[derive(Debug)]
pub struct Marketplace {
    source: Source,
    display: String,
    offline: bool,
    remote: Option<CachedRemote>,
    /// The largest catalog read, from a folder as over HTTP (`AGX_HTTP_MAX_INDEX_SIZE`).
    max_catalog: u64,
    /// Where a folder marketplace keeps its catalog (one of [`MARKETPLACE_FILES`]).
    catalog_file: &'static str,
}

impl Marketplace {
    pub fn new(source: Source, offline: bool, paths: &AgxPaths) -> Result<Self, IndexError> {
        let limits = Limits::from_env()?;
        let max_catalog = limits.max_index_size;
        let mut catalog_file = MARKETPLACE_FILE;
        let remote = match &source {
            Source::Http(url) => Some(CachedRemote::new(
                Http::new(HttpSettings::from_env()?, limits),
                IndexCache::new(&paths.cache_dir, url),
            )),
            Source::Folder(dir) => {
                // Not followed: a catalog that is a link is there, and reading it says why
                // it is refused.
                catalog_file = catalog_file_of(dir)
                    .ok_or_else(|| IndexError::NotAMarketplace { path: dir.clone() })?;
                None
            }
            Source::Oci(location) => {
                return Err(IndexError::InvalidUrl {
                    url: location.display(),
                    reason: "a marketplace is a folder or an https:// URL, not an OCI registry"
                        .into(),
                });
            }
        };
        Ok(Marketplace {
            display: source.display(),
            source,
            offline,
            remote,
            max_catalog,
            catalog_file,
        })
    }

    /// The URL or folder, for messages.
    pub fn source(&self) -> &str {
        &self.display
    }

    /// The marketplace's folder, when it is one.
    pub fn folder(&self) -> Option<&Path> {
        match &self.source {
            Source::Folder(dir) => Some(dir),
            Source::Http(_) | Source::Oci(_) => None,
        }
    }

    /// The catalog, parsed.
    pub fn catalog(&self) -> Result<MarketplaceJson, IndexError> {
        match (&self.source, &self.remote) {
            (Source::Folder(dir), _) => {
                let path = dir.join(self.catalog_file);
                // Bounded and link-free: a catalog linked to /dev/zero or a FIFO is refused.
                let body = marketplace_files::read(dir, self.catalog_file, self.max_catalog)?
                    .ok_or_else(|| IndexError::NotAMarketplace { path: dir.clone() })?;
                parse_catalog(&body, &path.display().to_string())
            }
            (Source::Http(url), Some(remote)) => {
                let url = catalog_url(url);
                remote
                    .get(&url, CACHED_FILE, self.offline, parse_catalog)?
                    .ok_or(IndexError::NotFound { url })
            }
            (Source::Http(_), None) | (Source::Oci(_), _) => {
                unreachable!("a web marketplace has a client, and none is an OCI registry")
            }
        }
    }

    /// Every plugin, described.
    pub fn plugins(&self) -> Result<Vec<PluginSummary>, IndexError> {
        let catalog = self.catalog()?;
        catalog
            .plugins
            .iter()
            .map(|entry| self.summarize(&catalog, entry))
            .collect()
    }

    /// One plugin by name; the error lists the names there are.
    pub fn plugin(&self, name: &str) -> Result<PluginSummary, IndexError> {
        let catalog = self.catalog()?;
        match catalog.plugins.iter().find(|p| p.name == name) {
            Some(entry) => self.summarize(&catalog, entry),
            None => Err(IndexError::PluginNotFound {
                plugin: name.to_string(),
                marketplace: self.display.clone(),
                known: catalog.plugins.iter().map(|p| p.name.clone()).collect(),
            }),
        }
    }

    /// The folder of a plugin kept inside this (folder) marketplace; `None` for a plugin
    /// elsewhere or a web marketplace.
    pub fn plugin_folder(
        &self,
        catalog: &MarketplaceJson,
        entry: &PluginEntry,
    ) -> Result<Option<PathBuf>, IndexError> {
        let (Source::Folder(root), Some(relative)) =
            (&self.source, entry.source.inside_marketplace())
        else {
            return Ok(None);
        };
        let relative = match &catalog.metadata.plugin_root {
            Some(base) if !relative.starts_with("./") && !relative.starts_with("../") => {
                format!("{}/{relative}", base.trim_end_matches('/'))
            }
            _ => relative.to_string(),
        };
        if !marketplace_files::is_plain(&relative) {
            return Err(IndexError::Parse {
                location: root.join(self.catalog_file).display().to_string(),
                message: format!(
                    "plugin `{}`: source `{relative}` leaves the marketplace folder",
                    entry.name
                ),
            });
        }
        // A link inside the marketplace (`plugins/x -> ~/.ssh`) is not followed out of it.
        Ok(Some(marketplace_files::contained(root, &relative)?))
    }

    fn summarize(
        &self,
        catalog: &MarketplaceJson,
        entry: &PluginEntry,
    ) -> Result<PluginSummary, IndexError> {
        let mut summary = PluginSummary {
            name: entry.name.clone(),
            marketplace: catalog.name.clone(),
            version: entry.version.clone(),
            description: entry.description.clone(),
            source: entry.source.describe(),
            servers: Vec::new(),
            skills: Vec::new(),
            not_carried: Vec::new(),
        };
        let folder = self.plugin_folder(catalog, entry)?;
        let found = match &folder {
            Some(dir) => read_plugin_folder(dir, &entry.components)?,
            None => Found::from_inline(&entry.components),
        };
        if let Some(dir) = &folder
            && let Some(manifest) = read_manifest(dir)?
        {
            summary.version = summary.version.or(manifest.version);
            summary.description = summary.description.or(manifest.description);
        }
        summary.servers = found.servers;
        summary.skills = found.skills;
        summary.not_carried = found.not_carried;
        Ok(summary)
    }
}

/// `PLUGIN@SOURCE`: a plugin of the configured marketplace source `SOURCE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginRef {
    pub plugin: String,
    /// The configured source's name, or (from a lock or a receipt) the marketplace's URL or
    /// folder.
    pub source: String,
    /// The publisher of the package the plugin becomes: the configured source's name in
    /// kebab-case, or the one a lock or receipt recorded. Never the name the catalog gives
    /// itself, which would let a catalog publish as anyone (`acme`).
    pub publisher: String,
}

/// The publisher of the packages a marketplace configured as `source` imports: the source's
/// name in kebab-case (`acme_tools` → `acme-tools`). A name that cannot be one (an ecosystem's
/// publisher such as `npm`) is refused.
pub fn publisher_of_source(source: &str) -> Result<String, IndexError> {
    let publisher = crate::plugins::names::kebab(source);
    let refused = |reason: String| IndexError::PluginPublisher {
        marketplace: source.to_string(),
        reason,
    };
    if agx_core::name::ECOSYSTEM_PUBLISHERS.contains(&publisher.as_str()) {
        return Err(refused(format!(
            "`{publisher}` is the publisher of packages agx provisions from {publisher}"
        )));
    }
    match agx_core::name::PackageName::parse(&format!("{publisher}/x")) {
        Ok(name) if name.publisher() == Some(publisher.as_str()) => Ok(publisher),
        Ok(_) => Err(refused(format!("`{publisher}` is not a publisher's name"))),
        Err(e) => Err(refused(e.to_string())),
    }
}

impl std::fmt::Display for PluginRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.plugin, self.source)
    }
}

/// Read `target` as `PLUGIN@SOURCE` when `SOURCE` is a configured source of kind
/// `claude-marketplace` and `PLUGIN` has no `/` (a package spec `publisher/name@REQ` always
/// has one). `None` for anything else, left to the package-spec parser. A `name@X` where `X`
/// both names a marketplace and reads as a version requirement is refused as ambiguous.
pub fn parse_plugin_ref(target: &str, paths: &AgxPaths) -> Result<Option<PluginRef>, IndexError> {
    let Some((plugin, source)) = target.split_once('@') else {
        return Ok(None);
    };
    if plugin.is_empty() || plugin.contains('/') || source.is_empty() {
        return Ok(None);
    }
    let Some(selected) = super::source::configured(paths)?
        .into_iter()
        .find(|s| s.name.as_deref() == Some(source))
    else {
        return Ok(None);
    };
    if super::known_kind(&selected, paths)? != Some(super::SourceKind::ClaudeMarketplace) {
        return Ok(None);
    }
    if semver::VersionReq::parse(source).is_ok() {
        return Err(IndexError::AmbiguousPluginRef {
            target: target.to_string(),
            marketplace: source.to_string(),
        });
    }
    Ok(Some(PluginRef {
        plugin: plugin.to_string(),
        source: source.to_string(),
        publisher: publisher_of_source(source)?,
    }))
}

/// `<url>` itself when it names a `.json` file, else `<url>/.claude-plugin/marketplace.json`.
pub fn catalog_url(url: &str) -> String {
    if url.to_ascii_lowercase().ends_with(".json") {
        url.to_string()
    } else {
        format!("{url}/{MARKETPLACE_FILE}")
    }
}

pub fn parse_catalog(body: &[u8], location: &str) -> Result<MarketplaceJson, IndexError> {
    serde_json::from_slice(body).map_err(|e| IndexError::Parse {
        location: location.to_string(),
        message: e.to_string(),
    })
}

/// A plugin folder's manifest (`.claude-plugin/plugin.json` or another dialect's): the parts
/// agx reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginManifest {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(flatten)]
    pub components: Components,
}

/// Where a Claude Code plugin keeps its manifest.
pub const MANIFEST_FILE: &str = ".claude-plugin/plugin.json";

/// The plugin's raw manifest in its dialect ([`Dialect::of`]), read as every plugin file is
/// (inside `dir`, no link, a regular file within [`MAX_PLUGIN_FILE_BYTES`]); `None` when it
/// has none.
pub fn read_manifest_json(dir: &Path) -> Result<Option<Value>, IndexError> {
    read_dialect_manifest(dir, Dialect::of(dir))
}

/// The raw manifest of the plugin in `dir`, read as `dialect`'s (see [`read_manifest_json`]).
pub fn read_dialect_manifest(dir: &Path, dialect: Dialect) -> Result<Option<Value>, IndexError> {
    let file = dialect.manifest_file();
    let Some(body) = marketplace_files::read(dir, file, MAX_PLUGIN_FILE_BYTES)? else {
        return Ok(None);
    };
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| IndexError::Parse {
            location: dir.join(file).display().to_string(),
            message: e.to_string(),
        })
}

/// The plugin's manifest, its components marked with its dialect (a plugin without one is
/// Claude's, whose manifest is optional: the default).
pub fn read_manifest(dir: &Path) -> Result<Option<PluginManifest>, IndexError> {
    let dialect = Dialect::of(dir);
    read_dialect_manifest(dir, dialect)?
        .map(|doc| PluginManifest::parse(dir, dialect, doc))
        .transpose()
}

/// The plugin's manifest, or an empty one of its dialect when it has none.
pub fn read_manifest_or_default(dir: &Path) -> Result<PluginManifest, IndexError> {
    let dialect = Dialect::of(dir);
    Ok(read_manifest(dir)?.unwrap_or_else(|| PluginManifest::empty(dialect)))
}

impl PluginManifest {
    /// `doc`, the manifest of the plugin in `dir` in `dialect`, with its components marked
    /// with the dialect (Agent Plugins' manifest cannot move them: none are read from it).
    pub fn parse(dir: &Path, dialect: Dialect, doc: Value) -> Result<PluginManifest, IndexError> {
        let mut manifest: PluginManifest =
            serde_json::from_value(doc).map_err(|e| IndexError::Parse {
                location: dir.join(dialect.manifest_file()).display().to_string(),
                message: e.to_string(),
            })?;
        if !dialect.manifest_moves_components() {
            manifest.components = Components::default();
        }
        manifest.components.dialect = dialect;
        Ok(manifest)
    }

    /// The manifest of a plugin of `dialect` that has none.
    pub fn empty(dialect: Dialect) -> PluginManifest {
        let mut manifest = PluginManifest::default();
        manifest.components.dialect = dialect;
        manifest
    }
}

/// What a plugin holds, by component.
#[derive(Debug, Default)]
struct Found {
    servers: Vec<String>,
    skills: Vec<String>,
    not_carried: Vec<String>,
}

/// The components agx does not carry: each one's label, manifest field and default place in
/// a plugin folder.
type ComponentField = fn(&Components) -> &Option<Value>;
const NOT_CARRIED: [(&str, ComponentField, &str); 5] = [
    ("hooks", |c| &c.hooks, "hooks/hooks.json"),
    ("agents", |c| &c.agents, "agents"),
    ("commands", |c| &c.commands, "commands"),
    ("lsp servers", |c| &c.lsp_servers, ".lsp.json"),
    ("output styles", |c| &c.output_styles, "output-styles"),
];

impl Found {
    /// From a catalog entry's inline fields only (a plugin not in this folder).
    fn from_inline(components: &Components) -> Found {
        let mut found = Found::default();
        if let Some(Value::Object(servers)) = &components.mcp_servers {
            found.servers.extend(servers.keys().cloned());
        }
        for (label, field, _) in NOT_CARRIED {
            if field(components).is_some() {
                found.not_carried.push(label.to_string());
            }
        }
        found
    }
}

/// A plugin folder's servers (`.mcp.json` or the manifest's `mcpServers`), skills
/// (`skills/<name>/SKILL.md`) and the components agx does not carry; `inline` is the
/// catalog entry's own fields.
fn read_plugin_folder(dir: &Path, inline: &Components) -> Result<Found, IndexError> {
    if !dir.is_dir() {
        return Err(IndexError::MissingFolder {
            path: dir.to_path_buf(),
        });
    }
    let manifest = read_manifest_or_default(dir)?;
    let mut found = Found::from_inline(inline);
    let mut servers = found.servers.clone();
    servers.extend(
        plugin_servers(dir, &manifest.components)?
            .into_iter()
            .map(|(name, _)| name),
    );
    servers.sort();
    servers.dedup();
    found.servers = servers;
    // Named as the import will name them.
    found.skills = plugin_skills(dir, &manifest.components)?
        .into_iter()
        .map(|(name, _)| crate::plugins::names::skill_name(&name))
        .collect();
    for label in uncarried_components(dir, &manifest.components) {
        if !found.not_carried.contains(&label) {
            found.not_carried.push(label);
        }
    }
    Ok(found)
}

/// The components agx does not carry that the plugin in `dir` has, by its manifest's fields
/// or their default places (`hooks`, `lsp servers`, …).
pub fn uncarried_components(dir: &Path, manifest: &Components) -> Vec<String> {
    let mut found: Vec<String> = NOT_CARRIED
        .iter()
        .filter(|(_, field, place)| {
            field(manifest).is_some() || marketplace_files::exists(&dir.join(place))
        })
        .map(|(label, _, _)| label.to_string())
        .collect();
    for (label, place) in manifest.dialect.other_components() {
        if marketplace_files::exists(&dir.join(place)) && !found.iter().any(|f| f == label) {
            found.push(label.to_string());
        }
    }
    // Gemini hides these tools from the model; agx hides no tool on a package's behalf.
    let excludes = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    let per_server = manifest
        .mcp_servers
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|servers| {
            servers.values().any(|s| {
                s.get("excludeTools").is_some_and(excludes)
                    || s.get("includeTools").is_some_and(excludes)
            })
        });
    if manifest.dialect == Dialect::Gemini
        && (manifest.exclude_tools.as_ref().is_some_and(excludes) || per_server)
    {
        found.push("tool filters (excludeTools, includeTools)".to_string());
    }
    found
}

/// Where the plugin's MCP servers are written, for messages: `.mcp.json`, the file the
/// manifest names, or the manifest itself.
pub fn servers_place(manifest: &Components) -> String {
    let dialect = manifest.dialect;
    match &manifest.mcp_servers {
        Some(Value::Object(_) | Value::Array(_)) => dialect.manifest_file().to_string(),
        Some(Value::String(relative)) => relative.trim_start_matches("./").to_string(),
        _ => dialect
            .servers_file()
            .unwrap_or(dialect.manifest_file())
            .to_string(),
    }
}

/// The folders the plugin's skills are in (`skills`, and what the manifest's `skills` names),
/// as `/`-separated paths relative to the plugin.
pub fn skill_roots(manifest: &Components) -> Vec<String> {
    let mut roots = vec!["skills".to_string()];
    match &manifest.skills {
        Some(Value::String(relative)) => roots.push(relative.clone()),
        Some(Value::Array(items)) => {
            roots.extend(items.iter().filter_map(Value::as_str).map(str::to_string))
        }
        _ => {}
    }
    for root in &mut roots {
        *root = root
            .trim_start_matches("./")
            .trim_end_matches('/')
            .to_string();
    }
    roots.dedup();
    roots
}

/// The components of the plugin in `dir` that agx does not carry (`hooks`, `agents`, …), for
/// `agx info` of an imported plugin.
pub fn not_carried(dir: &Path) -> Result<Vec<String>, IndexError> {
    let inline = Components {
        dialect: Dialect::of(dir),
        ..Components::default()
    };
    Ok(read_plugin_folder(dir, &inline)?.not_carried)
}

/// The plugin's MCP servers by name: the manifest's inline `mcpServers` object, or the
/// file it names, else `.mcp.json`.
pub fn plugin_servers(
    dir: &Path,
    manifest: &Components,
) -> Result<serde_json::Map<String, Value>, IndexError> {
    match &manifest.mcp_servers {
        Some(Value::Object(servers)) => Ok(servers.clone()),
        Some(Value::String(relative)) => servers_file(dir, manifest.dialect, relative),
        // Cursor's list of files and inline maps, merged in order (a later name wins).
        Some(Value::Array(parts)) => {
            let mut servers = serde_json::Map::new();
            for part in parts {
                match part {
                    Value::Object(inline) => servers.extend(inline.clone()),
                    Value::String(relative) => {
                        servers.extend(servers_file(dir, manifest.dialect, relative)?)
                    }
                    _ => {}
                }
            }
            Ok(servers)
        }
        _ => match manifest.dialect.servers_file() {
            Some(file) => servers_file(dir, manifest.dialect, file),
            None => Ok(Default::default()),
        },
    }
}

/// The servers of the MCP file `relative` of the plugin; none when it has no such file.
fn servers_file(
    dir: &Path,
    dialect: Dialect,
    relative: &str,
) -> Result<serde_json::Map<String, Value>, IndexError> {
    inside(dir, dialect, relative)?;
    let file = dir.join(relative);
    let Some(body) = marketplace_files::read(dir, relative, MAX_PLUGIN_FILE_BYTES)? else {
        return Ok(Default::default());
    };
    let doc: Value = serde_json::from_slice(&body).map_err(|e| IndexError::Parse {
        location: file.display().to_string(),
        message: e.to_string(),
    })?;
    // `.mcp.json` holds `{"mcpServers": {...}}` (Agent Plugins' also a `$schema`), or (as
    // Claude Code and Codex also read) the map itself.
    let servers = doc.get("mcpServers").cloned().unwrap_or(doc);
    match servers {
        Value::Object(servers) => Ok(servers),
        _ => Err(IndexError::Parse {
            location: file.display().to_string(),
            message: "`mcpServers` is not an object".into(),
        }),
    }
}

/// The plugin's skills by name with their folders: `skills/<name>/SKILL.md`, plus the folders
/// the manifest's `skills` field names (each a skill, or a folder of skills).
pub fn plugin_skills(
    dir: &Path,
    manifest: &Components,
) -> Result<Vec<(String, PathBuf)>, IndexError> {
    let mut skills = Vec::new();
    for relative in skill_roots(manifest) {
        let relative = relative.as_str();
        inside(dir, manifest.dialect, relative)?;
        // No link is followed: a skill folder reached through one is left out, not read (an
        // import lists it as not carried, naming the link).
        let Ok(root) = marketplace_files::contained(dir, relative) else {
            continue;
        };
        match marketplace_files::is_skill(&root) {
            Ok(true) => {
                if let Some(name) = root.file_name() {
                    skills.push((name.to_string_lossy().into_owned(), root.clone()));
                }
                continue;
            }
            Ok(false) => {}
            Err(_) => continue,
        }
        let entries = match std::fs::read_dir(&root) {
            Ok(entries) => entries,
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.kind() == std::io::ErrorKind::NotADirectory =>
            {
                continue;
            }
            Err(e) => return Err(IndexError::from(at("read", &root)(e))),
        };
        for entry in entries {
            let entry = entry.map_err(|e| IndexError::from(at("read", &root)(e)))?;
            if marketplace_files::is_skill(&entry.path()).unwrap_or(false) {
                skills.push((
                    entry.file_name().to_string_lossy().into_owned(),
                    entry.path(),
                ));
            }
        }
    }
    skills.sort();
    skills.dedup_by(|a, b| a.0 == b.0);
    Ok(skills)
}

/// `relative` under `dir`, refused when it leaves it.
fn inside(dir: &Path, dialect: Dialect, relative: &str) -> Result<PathBuf, IndexError> {
    let contained = Path::new(relative)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if contained {
        Ok(dir.join(relative))
    } else {
        Err(IndexError::Parse {
            location: dir.join(dialect.manifest_file()).display().to_string(),
            message: format!("the path `{relative}` leaves the plugin folder"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn marketplace(dir: &Path) -> Marketplace {
        let paths = AgxPaths::under(dir.join("home"), true);
        Marketplace::new(Source::Folder(dir.join("market")), false, &paths).unwrap()
    }

    #[test]
    fn a_folder_plugin_shows_its_servers_skills_and_what_is_not_carried() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("market");
        write(
            &root.join(MARKETPLACE_FILE),
            r#"{"name": "acme-tools", "owner": {"name": "Acme"}, "plugins": [
                {"name": "weather", "source": "./plugins/weather", "description": "Forecasts"},
                {"name": "remote", "source": {"source": "github", "repo": "acme/remote", "sha": "abc"},
                 "mcpServers": {"r": {"command": "r"}}, "agents": ["./agents/a.md"]}
            ]}"#,
        );
        let plugin = root.join("plugins/weather");
        write(
            &plugin.join(".claude-plugin/plugin.json"),
            r#"{"name": "weather", "version": "1.2.0"}"#,
        );
        write(
            &plugin.join(".mcp.json"),
            r#"{"mcpServers": {"forecast": {"command": "python3"}}}"#,
        );
        write(
            &plugin.join("skills/umbrella/SKILL.md"),
            "---\nname: umbrella\n---\n",
        );
        write(&plugin.join("hooks/hooks.json"), "{}");
        write(&plugin.join("commands/now.md"), "now");

        let plugins = marketplace(dir.path()).plugins().unwrap();
        assert_eq!(
            plugins[0],
            PluginSummary {
                name: "weather".into(),
                marketplace: "acme-tools".into(),
                version: Some("1.2.0".into()),
                description: Some("Forecasts".into()),
                source: "./plugins/weather".into(),
                servers: vec!["forecast".into()],
                skills: vec!["umbrella".into()],
                not_carried: vec!["hooks".into(), "commands".into()],
            }
        );
        assert_eq!(plugins[1].source, "github:acme/remote@abc");
        assert_eq!(plugins[1].servers, ["r"]);
        assert_eq!(plugins[1].not_carried, ["agents"]);
    }

    #[test]
    fn a_source_leaving_the_marketplace_is_refused_and_a_missing_plugin_named() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &dir.path().join("market").join(MARKETPLACE_FILE),
            r#"{"name": "m", "plugins": [{"name": "evil", "source": "../outside"}]}"#,
        );
        let market = marketplace(dir.path());
        let err = market.plugins().unwrap_err().to_string();
        assert!(err.contains("leaves the marketplace folder"), "{err}");
        let err = market.plugin("nope").unwrap_err();
        assert!(
            matches!(&err, IndexError::PluginNotFound { known, .. } if known == &["evil"]),
            "{err:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_plugin_folder_or_catalog_that_is_a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("market");
        write(
            &root.join(MARKETPLACE_FILE),
            r#"{"name": "m", "plugins": [{"name": "x", "source": "./plugins/x"}]}"#,
        );
        let secret = dir.path().join("dot-ssh");
        write(
            &secret.join(".mcp.json"),
            r#"{"mcpServers": {"leak": {"command": "x"}}}"#,
        );
        std::fs::create_dir_all(root.join("plugins")).unwrap();
        std::os::unix::fs::symlink(&secret, root.join("plugins/x")).unwrap();
        let market = marketplace(dir.path());
        let err = market.plugin("x").unwrap_err();
        assert!(
            matches!(&err, IndexError::MarketplaceFile(refused) if refused.problem.contains("symbolic link `plugins/x`")),
            "{err:?}"
        );
        // A skill folder linked out of a plugin is left out of what the plugin shows (an
        // import names it as not carried), not read and not an error.
        std::fs::remove_file(root.join("plugins/x")).unwrap();
        write(
            &root.join("plugins/x/skills/ok/SKILL.md"),
            "---\nname: ok\n---\n",
        );
        write(
            &secret.join("skills/leak/SKILL.md"),
            "---\nname: leak\n---\n",
        );
        std::os::unix::fs::symlink(
            secret.join("skills/leak"),
            root.join("plugins/x/skills/leak"),
        )
        .unwrap();
        assert_eq!(market.plugin("x").unwrap().skills, ["ok"]);
        // A catalog linked to a device is refused, not read.
        std::fs::remove_file(root.join(MARKETPLACE_FILE)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join(MARKETPLACE_FILE)).unwrap();
        let err = marketplace(dir.path()).catalog().unwrap_err();
        assert!(matches!(err, IndexError::MarketplaceFile(_)), "{err:?}");
    }

    #[test]
    fn a_plugins_publisher_is_its_sources_name() {
        assert_eq!(publisher_of_source("acme").unwrap(), "acme");
        assert_eq!(publisher_of_source("Acme_Tools").unwrap(), "acme-tools");
        for refused in ["npm", "PyPI", "oci", "mcpb", "___"] {
            assert!(
                matches!(
                    publisher_of_source(refused),
                    Err(IndexError::PluginPublisher { .. })
                ),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_bad_catalog_names_its_line() {
        let err = parse_catalog(b"{\"name\": \"m\",\n \"plugins\": 3}", "m.json").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn plugin_references_name_a_configured_marketplace() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().join("home"), true);
        std::fs::create_dir_all(&paths.config_dir).unwrap();
        let market = dir.path().join("market");
        write(
            &market.join(MARKETPLACE_FILE),
            r#"{"name": "m", "plugins": []}"#,
        );
        std::fs::create_dir_all(dir.path().join("index")).unwrap();
        std::fs::write(
            dir.path().join("index/config.json"),
            r#"{"v":1,"name":"i"}"#,
        )
        .unwrap();
        let folder = |p: &Path| Source::Folder(p.to_path_buf());
        let kind = super::super::SourceKind::ClaudeMarketplace;
        super::super::source::add_to_config(&paths, "acme", &folder(&market), kind, false).unwrap();
        super::super::source::add_to_config(&paths, "2", &folder(&market), kind, false).unwrap();
        let index = super::super::SourceKind::AgxIndex;
        super::super::source::add_to_config(
            &paths,
            "main",
            &folder(&dir.path().join("index")),
            index,
            false,
        )
        .unwrap();

        let parsed = parse_plugin_ref("weather@acme", &paths).unwrap().unwrap();
        assert_eq!(parsed.to_string(), "weather@acme");
        for not_a_plugin in [
            "acme/weather@acme",
            "weather",
            "weather@main",
            "weather@1.0",
            "@acme",
        ] {
            assert_eq!(
                parse_plugin_ref(not_a_plugin, &paths).unwrap(),
                None,
                "{not_a_plugin}"
            );
        }
        let err = parse_plugin_ref("weather@2", &paths).unwrap_err();
        assert!(
            matches!(err, IndexError::AmbiguousPluginRef { .. }),
            "{err:?}"
        );
    }

    #[test]
    fn catalog_urls() {
        assert_eq!(
            catalog_url("http://127.0.0.1:9/m"),
            "http://127.0.0.1:9/m/.claude-plugin/marketplace.json"
        );
        assert_eq!(
            catalog_url("http://127.0.0.1:9/m/marketplace.json"),
            "http://127.0.0.1:9/m/marketplace.json"
        );
    }
}
