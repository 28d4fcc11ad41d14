//! Which registry to use and where it lives: `--registry` / `AGX_REGISTRY` (a configured
//! name, a URL or a folder), else `default-registry` in `config.toml`. Every home also has
//! the built-in source `official` (the official MCP Registry) until it is turned off.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::IndexError;
use agx_core::io_context::at;
use agx_core::paths::AgxPaths;

/// Where a registry's files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An `https://` URL, or `http://` on a loopback host. No trailing slash.
    Http(String),
    /// A folder on this machine (absolute).
    Folder(PathBuf),
    /// An OCI registry's namespace (`oci://HOST/NAMESPACE`), holding packages as artifacts.
    Oci(super::oci::OciLocation),
}

impl Source {
    /// Parse a URL or a path. Relative paths are taken from the current directory.
    pub fn parse(input: &str) -> Result<Source, IndexError> {
        let invalid = |reason: &str| IndexError::InvalidUrl {
            url: input.to_string(),
            reason: reason.to_string(),
        };
        let Some((scheme, _)) = input.split_once("://") else {
            return Ok(Source::Folder(
                std::path::absolute(input).unwrap_or_else(|_| PathBuf::from(input)),
            ));
        };
        if scheme.eq_ignore_ascii_case("oci") {
            return super::oci::OciLocation::parse(input)
                .map(Source::Oci)
                .map_err(|reason| invalid(&reason));
        }
        let url = reqwest::Url::parse(input).map_err(|e| invalid(&e.to_string()))?;
        match scheme.to_ascii_lowercase().as_str() {
            "https" => Ok(Source::Http(trim_url(&url))),
            "http" => {
                if is_loopback(&url) {
                    Ok(Source::Http(trim_url(&url)))
                } else {
                    Err(IndexError::InsecureHttp {
                        url: trim_url(&url),
                    })
                }
            }
            "file" => url
                .to_file_path()
                .map(Source::Folder)
                .map_err(|()| invalid("it does not name a local folder")),
            other => Err(invalid(&format!(
                "the scheme `{other}` is not supported (use https://, oci://, file:// or a path)"
            ))),
        }
    }

    /// The URL or path, for messages and receipts.
    pub fn display(&self) -> String {
        match self {
            Source::Http(url) => url.clone(),
            Source::Folder(path) => path.display().to_string(),
            Source::Oci(location) => location.display(),
        }
    }
}

fn trim_url(url: &reqwest::Url) -> String {
    url.as_str().trim_end_matches('/').to_string()
}

pub(super) fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

/// The name of the built-in source: the official MCP Registry.
pub const OFFICIAL_NAME: &str = agx_store::policy_gate::OFFICIAL_NAME;
/// Where the official MCP Registry answers.
pub const OFFICIAL_URL: &str = agx_store::policy_gate::OFFICIAL_URL;
/// `off` turns the built-in source off for one run, `on` back on (over `official-registry`).
pub const OFFICIAL_ENV: &str = "AGX_OFFICIAL_REGISTRY";
/// The `config.toml` key `agx registry remove-source official` sets to `false`.
const OFFICIAL_KEY: &str = "official-registry";

/// `config.toml`: the part agx's registry access reads. After [`read_config`],
/// `registries` holds the built-in `official` too, unless it is turned off or the file has
/// its own `[registries.official]`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Config {
    pub default_registry: Option<String>,
    /// `false` turns the built-in `official` source off.
    pub official_registry: Option<bool>,
    #[serde(default)]
    pub registries: BTreeMap<String, RegistryEntry>,
    /// True when `registries["official"]` is the built-in one (not in the file).
    #[serde(skip)]
    pub official_built_in: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistryEntry {
    pub url: String,
    /// Absent: detected on first use and remembered in the cache.
    #[serde(default)]
    pub kind: Option<SourceKind>,
    /// A TUF-signed agx index whose pinned root is in the trust folder ([`trust_dir`]).
    #[serde(default)]
    pub tuf: bool,
    /// A PEM file of certificate authorities trusted beside the system's for this source
    /// (an OCI registry behind a company CA).
    #[serde(default)]
    pub ca: Option<PathBuf>,
    /// An OCI registry on this machine that answers plain HTTP (learnt by `add-source`);
    /// absent: plain HTTP for loopback hosts, HTTPS for the rest.
    #[serde(default, rename = "plain-http")]
    pub plain_http: Option<bool>,
    /// The Sigstore trusted root (`trusted_root.json`) this source's bundles are verified
    /// against; absent: `AGX_TRUSTED_ROOT`, else Sigstore's public-good instance.
    #[serde(default, rename = "trusted-root")]
    pub trusted_root: Option<PathBuf>,
}

/// The Sigstore trusted root for sources that configure none (docs/registry.md).
pub const TRUSTED_ROOT_ENV: &str = "AGX_TRUSTED_ROOT";

fn trusted_root_of(configured: Option<&PathBuf>) -> Option<PathBuf> {
    configured.cloned().or_else(|| {
        std::env::var_os(TRUSTED_ROOT_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// Where a signed source's pinned root and trusted metadata live:
/// `<config>/trust/<name>/` (kept with the configuration, not in the cache, so that cleaning
/// the cache never forgets what the source's signatures said).
pub fn trust_dir(paths: &AgxPaths, name: &str) -> std::path::PathBuf {
    paths.config_dir.join("trust").join(name)
}

/// Where `add-source --trusted-root` keeps its copy of the source's Sigstore trusted root
/// (a copy: the file given may change or go away).
pub fn sigstore_root_file(paths: &AgxPaths, name: &str) -> std::path::PathBuf {
    trust_dir(paths, name).join("sigstore-trusted-root.json")
}

/// What protocol a registry speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// agx's own static index (`config.json`, `catalog.json`, `packages/`, `dl/`).
    AgxIndex,
    /// The MCP Registry REST API (`/v0.1/servers`), listing `server.json` documents.
    McpRegistry,
    /// A Claude-format marketplace (`.claude-plugin/marketplace.json`) listing plugins.
    ClaudeMarketplace,
    /// An OCI registry holding agx packages as artifacts (`oci://HOST/NAMESPACE`).
    Oci,
    /// A web site publishing Agent Skills at `/.well-known/agent-skills/index.json`.
    WellKnown,
}

impl SourceKind {
    pub const ALL: [&'static str; 5] = [
        "agx-index",
        "mcp-registry",
        "claude-marketplace",
        "oci",
        "well-known",
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::AgxIndex => "agx-index",
            SourceKind::McpRegistry => "mcp-registry",
            SourceKind::ClaudeMarketplace => "claude-marketplace",
            SourceKind::Oci => "oci",
            SourceKind::WellKnown => "well-known",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "agx-index" => Some(SourceKind::AgxIndex),
            "mcp-registry" => Some(SourceKind::McpRegistry),
            "claude-marketplace" => Some(SourceKind::ClaudeMarketplace),
            "oci" => Some(SourceKind::Oci),
            "well-known" => Some(SourceKind::WellKnown),
            _ => None,
        }
    }
}

/// A registry chosen by name or location, with its kind when the configuration says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    /// The configured name, when chosen by one.
    pub name: Option<String>,
    pub source: Source,
    pub kind: Option<SourceKind>,
    /// For a TUF-signed source (configured with `tuf = true`, or a location given with
    /// `--root`): the folder of its pinned root and trusted metadata.
    pub trust: Option<PathBuf>,
    /// Extra certificate authorities for this source (`ca` in its table).
    pub ca: Option<PathBuf>,
    /// `plain-http` in its table.
    pub plain_http: Option<bool>,
    /// The Sigstore trusted root for its bundles (`trusted-root`, else `AGX_TRUSTED_ROOT`);
    /// `None`: the public-good instance's.
    pub trusted_root: Option<PathBuf>,
}

/// Read `config.toml` (a missing file is an empty configuration) and add the built-in
/// `official` source when it is on.
pub fn read_config(paths: &AgxPaths) -> Result<Config, IndexError> {
    let mut config = read_config_file(paths)?;
    let env = std::env::var_os(OFFICIAL_ENV).map(|v| v.to_string_lossy().into_owned());
    add_official(&mut config, env.as_deref())?;
    Ok(config)
}

/// Add the built-in `official` source unless `env` (`AGX_OFFICIAL_REGISTRY`) or the file's
/// `official-registry = false` turns it off, or the file has its own `[registries.official]`.
fn add_official(config: &mut Config, env: Option<&str>) -> Result<(), IndexError> {
    let from_env = match env.filter(|v| !v.trim().is_empty()) {
        None => None,
        Some(value) => {
            Some(
                agx_core::paths::parse_switch(value).ok_or_else(|| IndexError::Setting {
                    var: OFFICIAL_ENV,
                    value: value.to_string(),
                    expected: "on or off (also 1/0, true/false, yes/no)",
                })?,
            )
        }
    };
    let on = from_env.unwrap_or(config.official_registry != Some(false));
    if on && !config.registries.contains_key(OFFICIAL_NAME) {
        config.registries.insert(
            OFFICIAL_NAME.to_string(),
            RegistryEntry {
                url: OFFICIAL_URL.to_string(),
                kind: Some(SourceKind::McpRegistry),
                tuf: false,
                ca: None,
                plain_http: None,
                trusted_root: None,
            },
        );
        config.official_built_in = true;
    }
    Ok(())
}

/// `config.toml` as written, without the built-in source.
fn read_config_file(paths: &AgxPaths) -> Result<Config, IndexError> {
    let path = paths.config_file();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
        Err(e) => return Err(IndexError::from(at("read", path)(e))),
    };
    toml::from_str(&text).map_err(|e| IndexError::Config {
        path,
        message: e.to_string().trim().to_string(),
    })
}

/// Pick the registry: `requested` (from `--registry` or `AGX_REGISTRY`) is a configured name,
/// a URL or a folder; without it the config's `default-registry`, or its only registry.
pub fn select(requested: Option<&str>, paths: &AgxPaths) -> Result<Source, IndexError> {
    select_entry(requested, paths).map(|s| s.source)
}

/// Every configured registry, by name; a broken URL is an error naming its table.
pub fn configured(paths: &AgxPaths) -> Result<Vec<Selected>, IndexError> {
    let config = read_config(paths)?;
    let config_path = paths.config_file();
    config
        .registries
        .iter()
        .map(|(name, entry)| {
            Ok(Selected {
                name: Some(name.clone()),
                source: parse_configured(name, &entry.url, &config_path)?,
                kind: entry.kind,
                trust: entry.tuf.then(|| trust_dir(paths, name)),
                ca: entry.ca.clone(),
                plain_http: entry.plain_http,
                trusted_root: trusted_root_of(entry.trusted_root.as_ref()),
            })
        })
        .collect()
}

/// The configured `.well-known` sites by the publisher of their skills' packages (the
/// site's name, kebab-cased: `docs` installs `docs/SKILL`).
pub fn well_known_sites(
    paths: &AgxPaths,
) -> Result<std::collections::BTreeMap<String, String>, IndexError> {
    Ok(read_config(paths)?
        .registries
        .iter()
        .filter(|(_, entry)| entry.kind == Some(SourceKind::WellKnown))
        .filter_map(|(name, _)| {
            let publisher = super::marketplace::publisher_of_source(name).ok()?;
            Some((publisher, name.clone()))
        })
        .collect())
}

fn parse_configured(name: &str, url: &str, config_path: &Path) -> Result<Source, IndexError> {
    Source::parse(url).map_err(|e| match e {
        IndexError::InvalidUrl { url, reason } => IndexError::Config {
            path: config_path.to_path_buf(),
            message: format!("[registries.{name}] url `{url}`: {reason}"),
        },
        other => other,
    })
}

/// [`select`], keeping the configured name and kind.
pub fn select_entry(requested: Option<&str>, paths: &AgxPaths) -> Result<Selected, IndexError> {
    let config = read_config(paths)?;
    let config_path = paths.config_file();
    let from_config = |name: &str| -> Option<Result<Selected, IndexError>> {
        config.registries.get(name).map(|r| {
            Ok(Selected {
                name: Some(name.to_string()),
                source: parse_configured(name, &r.url, &config_path)?,
                kind: r.kind,
                trust: r.tuf.then(|| trust_dir(paths, name)),
                ca: r.ca.clone(),
                plain_http: r.plain_http,
                trusted_root: trusted_root_of(r.trusted_root.as_ref()),
            })
        })
    };
    if let Some(requested) = requested.filter(|r| !r.is_empty()) {
        if let Some(source) = from_config(requested) {
            return source;
        }
        let looks_like_location = requested.contains("://")
            || requested.contains('/')
            || requested.contains(std::path::MAIN_SEPARATOR)
            || requested.starts_with('.')
            || Path::new(requested).exists();
        if looks_like_location {
            let source = Source::parse(requested)?;
            // A configured source named by its location (a lock records locations) keeps
            // its name, kind and, above all, its signature.
            let configured = config
                .registries
                .iter()
                .find(|(_, r)| Source::parse(&r.url).is_ok_and(|s| s == source));
            if let Some((name, _)) = configured {
                return from_config(name).expect("configured");
            }
            return Ok(Selected {
                name: None,
                source,
                kind: None,
                trust: None,
                ca: None,
                plain_http: None,
                trusted_root: trusted_root_of(None),
            });
        }
        return Err(IndexError::UnknownRegistry {
            name: requested.to_string(),
            config: config_path,
            known: config.registries.keys().cloned().collect(),
        });
    }
    if let Some(default) = &config.default_registry {
        return from_config(default).unwrap_or_else(|| {
            Err(IndexError::Config {
                path: config_path.clone(),
                message: format!(
                    "default-registry = \"{default}\" but there is no [registries.{default}] table"
                ),
            })
        });
    }
    if config.registries.len() == 1 && !config.official_built_in {
        let (name, entry) = config.registries.iter().next().expect("one entry");
        // A marketplace installs `PLUGIN@SOURCE` by its name, a `.well-known` site's skills
        // by theirs (`NAME/SKILL`): never the default.
        if !matches!(
            entry.kind,
            Some(SourceKind::ClaudeMarketplace | SourceKind::WellKnown)
        ) {
            return from_config(name).expect("configured");
        }
    }
    // Several, no default: the one agx index among them, when there is one (MCP registries,
    // the built-in `official` among them, and marketplaces install by their own names and
    // do not compete for installs).
    let indexes: Vec<&String> = config
        .registries
        .iter()
        .filter(|(_, r)| {
            !matches!(
                r.kind,
                Some(
                    SourceKind::McpRegistry | SourceKind::ClaudeMarketplace | SourceKind::WellKnown
                )
            )
        })
        .map(|(name, _)| name)
        .collect();
    match indexes.as_slice() {
        [name] => from_config(name).expect("configured"),
        [] => Err(IndexError::NoRegistry {
            config: config_path,
        }),
        several => Err(IndexError::Config {
            path: config_path,
            message: format!(
                "several registries are configured ({}) and default-registry does not choose one",
                several
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// One configured registry, for `agx registry sources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedSource {
    pub name: String,
    pub url: String,
    /// As configured, or as detected earlier; `None` until first use.
    pub kind: Option<SourceKind>,
    /// What `--registry` defaults to for installs.
    pub default: bool,
    /// The built-in `official` source (not written in `config.toml`).
    pub built_in: bool,
}

/// Every configured registry with its kind, the default marked.
pub fn list_sources(paths: &AgxPaths) -> Result<Vec<ListedSource>, IndexError> {
    let default = select_entry(None, paths).ok().and_then(|s| s.name);
    let official_built_in = read_config(paths)?.official_built_in;
    configured(paths)?
        .into_iter()
        .map(|selected| {
            let name = selected.name.clone().unwrap_or_default();
            Ok(ListedSource {
                kind: super::known_kind(&selected, paths)?,
                url: selected.source.display(),
                default: default.as_deref() == Some(name.as_str()),
                built_in: official_built_in && name == OFFICIAL_NAME,
                name,
            })
        })
        .collect()
}

/// Add `[registries.<name>]` to `config.toml` with its URL and kind, keeping the rest of
/// the file (comments, order) as it is.
pub fn add_to_config(
    paths: &AgxPaths,
    name: &str,
    source: &Source,
    kind: SourceKind,
    signed: bool,
) -> Result<(), IndexError> {
    add_to_config_with(paths, name, source, kind, signed, SourceExtras::default())
}

/// [`add_to_config`], with `ca` (an absolute path) written as the source's extra authorities
/// and `plain_http` as what a loopback OCI registry speaks.
/// The optional keys of a source's table beside its URL, kind and `tuf`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceExtras<'a> {
    /// `ca`: extra certificate authorities (an OCI registry behind a company CA).
    pub ca: Option<&'a Path>,
    /// `plain-http`: an OCI registry on this machine that answers plain HTTP.
    pub plain_http: Option<bool>,
    /// `trusted-root`: the Sigstore trusted root of the source's bundles.
    pub trusted_root: Option<&'a Path>,
}

pub fn add_to_config_with(
    paths: &AgxPaths,
    name: &str,
    source: &Source,
    kind: SourceKind,
    signed: bool,
    extras: SourceExtras<'_>,
) -> Result<(), IndexError> {
    check_source_name(name)?;
    let (path, mut doc) = edit_config(paths)?;
    if name == OFFICIAL_NAME && read_config(paths)?.official_built_in {
        return Err(IndexError::SourceExists {
            name: name.to_string(),
            config: path,
        });
    }
    // A table of its own replaces the built-in source; the switch that turned that off
    // has nothing left to say.
    if name == OFFICIAL_NAME {
        doc.remove(OFFICIAL_KEY);
    }
    let registries = doc
        .entry("registries")
        .or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        })
        .as_table_mut()
        .ok_or_else(|| IndexError::Config {
            path: path.clone(),
            message: "`registries` is not a table".into(),
        })?;
    if registries.contains_key(name) {
        return Err(IndexError::SourceExists {
            name: name.to_string(),
            config: path,
        });
    }
    let mut table = toml_edit::Table::new();
    table.insert("url", toml_edit::value(source.display()));
    table.insert("kind", toml_edit::value(kind.as_str()));
    if signed {
        table.insert("tuf", toml_edit::value(true));
    }
    if let Some(ca) = extras.ca {
        table.insert("ca", toml_edit::value(ca.display().to_string()));
    }
    if let Some(plain) = extras.plain_http {
        table.insert("plain-http", toml_edit::value(plain));
    }
    if let Some(root) = extras.trusted_root {
        table.insert("trusted-root", toml_edit::value(root.display().to_string()));
    }
    registries.insert(name, toml_edit::Item::Table(table));
    write_config(&path, &doc)
}

/// Remove `[registries.<name>]` (and `default-registry` when it named it). Removing
/// `official` also writes `official-registry = false`, so the built-in one stays off.
pub fn remove_from_config(paths: &AgxPaths, name: &str) -> Result<(), IndexError> {
    let (path, mut doc) = edit_config(paths)?;
    // Turned off in the file already: `AGX_OFFICIAL_REGISTRY` does not change what is saved.
    let official_off = read_config_file(paths)?.official_registry == Some(false);
    let removed = doc
        .get_mut("registries")
        .and_then(|r| r.as_table_mut())
        .and_then(|r| r.remove(name));
    if name == OFFICIAL_NAME && (removed.is_some() || !official_off) {
        doc.insert(OFFICIAL_KEY, toml_edit::value(false));
    } else if removed.is_none() {
        return Err(IndexError::UnknownRegistry {
            name: name.to_string(),
            known: read_config(paths)?.registries.into_keys().collect(),
            config: path,
        });
    }
    if doc.get("default-registry").and_then(|d| d.as_str()) == Some(name) {
        doc.remove("default-registry");
    }
    write_config(&path, &doc)?;
    // Its pinned root goes with it: adding the name again must pin again.
    let trust = trust_dir(paths, name);
    if trust.exists() {
        fs_err::remove_dir_all(&trust)?;
    }
    Ok(())
}

fn check_source_name(name: &str) -> Result<(), IndexError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(IndexError::SourceName {
            name: name.to_string(),
        })
    }
}

fn edit_config(paths: &AgxPaths) -> Result<(PathBuf, toml_edit::DocumentMut), IndexError> {
    // Parsed first with the reader's rules, so a file agx cannot read is never rewritten.
    read_config(paths)?;
    let path = paths.config_file();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(IndexError::from(at("read", path)(e))),
    };
    let doc = text
        .parse()
        .map_err(|e: toml_edit::TomlError| IndexError::Config {
            path: path.clone(),
            message: e.to_string().trim().to_string(),
        })?;
    Ok((path, doc))
}

fn write_config(path: &Path, doc: &toml_edit::DocumentMut) -> Result<(), IndexError> {
    Ok(agx_core::atomic::write_file(
        path,
        doc.to_string().as_bytes(),
        None,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths_with(config: &str) -> (tempfile::TempDir, AgxPaths) {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().to_path_buf(), true);
        if !config.is_empty() {
            std::fs::write(paths.config_file(), config).unwrap();
        }
        (dir, paths)
    }

    #[test]
    fn parses_urls_and_paths() {
        assert_eq!(
            Source::parse("https://example.com/agx/").unwrap(),
            Source::Http("https://example.com/agx".into())
        );
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost/x",
            "http://[::1]:9/",
        ] {
            assert!(matches!(Source::parse(ok), Ok(Source::Http(_))), "{ok}");
        }
        for bad in [
            "http://example.com",
            "http://10.0.0.1",
            "http://127.example.com",
        ] {
            assert!(
                matches!(Source::parse(bad), Err(IndexError::InsecureHttp { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            Source::parse("file:///srv/reg").unwrap(),
            Source::Folder("/srv/reg".into())
        );
        assert_eq!(
            Source::parse("/srv/reg").unwrap(),
            Source::Folder("/srv/reg".into())
        );
        assert!(matches!(
            Source::parse("ftp://example.com"),
            Err(IndexError::InvalidUrl { .. })
        ));
    }

    #[test]
    fn selection_precedence() {
        let (_d, paths) = paths_with(
            "default-registry = \"a\"\n[registries.a]\nurl = \"https://a.example\"\n[registries.b]\nurl = \"/srv/b\"\n",
        );
        assert_eq!(
            select(None, &paths).unwrap(),
            Source::Http("https://a.example".into())
        );
        assert_eq!(
            select(Some("b"), &paths).unwrap(),
            Source::Folder("/srv/b".into())
        );
        assert_eq!(
            select(Some("https://c.example"), &paths).unwrap(),
            Source::Http("https://c.example".into())
        );
        let err = select(Some("nope"), &paths).unwrap_err();
        assert!(
            matches!(err, IndexError::UnknownRegistry { ref known, .. } if known == &["a", "b", "official"])
        );
    }

    #[test]
    fn selection_without_configuration() {
        let (_d, paths) = paths_with("");
        assert!(matches!(
            select(None, &paths),
            Err(IndexError::NoRegistry { .. })
        ));
        let (_d, paths) = paths_with("[registries.only]\nurl = \"https://only.example\"\n");
        assert_eq!(
            select(None, &paths).unwrap(),
            Source::Http("https://only.example".into())
        );
        let (_d, paths) = paths_with("default-registry = \"x\"\n");
        let err = select(None, &paths).unwrap_err();
        assert!(err.to_string().contains("config"), "{err}");
        let (_d, paths) = paths_with("[registries.a]\nurl = 3\n");
        assert!(matches!(
            select(None, &paths),
            Err(IndexError::Config { .. })
        ));
    }

    fn config_of(text: &str) -> Config {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn the_official_registry_is_built_in_until_turned_off() {
        let mut config = config_of("");
        add_official(&mut config, None).unwrap();
        let official = &config.registries[OFFICIAL_NAME];
        assert_eq!(official.url, "https://registry.modelcontextprotocol.io");
        assert_eq!(official.kind, Some(SourceKind::McpRegistry));
        assert!(config.official_built_in);

        for (file, env, on) in [
            ("official-registry = false\n", None, false),
            ("official-registry = true\n", None, true),
            ("", Some("off"), false),
            ("", Some("0"), false),
            ("official-registry = false\n", Some("on"), true),
            ("official-registry = false\n", Some(""), false),
        ] {
            let mut config = config_of(file);
            add_official(&mut config, env).unwrap();
            assert_eq!(
                config.registries.contains_key(OFFICIAL_NAME),
                on,
                "{file:?} {env:?}"
            );
            assert_eq!(config.official_built_in, on, "{file:?} {env:?}");
        }

        let err = add_official(&mut config_of(""), Some("maybe")).unwrap_err();
        assert!(
            err.to_string().contains("AGX_OFFICIAL_REGISTRY=maybe"),
            "{err}"
        );

        // A table of its own replaces the built-in one.
        let mut config = config_of("[registries.official]\nurl = \"http://127.0.0.1:9\"\n");
        add_official(&mut config, None).unwrap();
        assert_eq!(config.registries[OFFICIAL_NAME].url, "http://127.0.0.1:9");
        assert!(!config.official_built_in);
    }

    // The tests below read the real environment: they expect AGX_OFFICIAL_REGISTRY unset,
    // as `cargo test` runs them.

    #[test]
    fn the_built_in_source_never_takes_installs() {
        let (_d, paths) = paths_with("");
        assert!(read_config(&paths).unwrap().official_built_in);
        assert!(matches!(
            select(None, &paths),
            Err(IndexError::NoRegistry { .. })
        ));
        let (_d, paths) = paths_with("[registries.main]\nurl = \"/srv/main\"\n");
        assert_eq!(
            select(None, &paths).unwrap(),
            Source::Folder("/srv/main".into())
        );
    }

    #[test]
    fn removing_official_is_remembered_and_adding_it_back_clears_that() {
        let (_d, paths) = paths_with("# mine\n");
        remove_from_config(&paths, OFFICIAL_NAME).unwrap();
        let text = std::fs::read_to_string(paths.config_file()).unwrap();
        assert!(
            text.contains("# mine\n") && text.contains("official-registry = false\n"),
            "{text}"
        );
        assert!(!read_config(&paths).unwrap().official_built_in);
        assert!(matches!(
            remove_from_config(&paths, OFFICIAL_NAME),
            Err(IndexError::UnknownRegistry { .. })
        ));

        let source = Source::parse("http://127.0.0.1:9").unwrap();
        add_to_config(
            &paths,
            OFFICIAL_NAME,
            &source,
            SourceKind::McpRegistry,
            false,
        )
        .unwrap();
        let text = std::fs::read_to_string(paths.config_file()).unwrap();
        assert!(!text.contains("official-registry"), "{text}");
        assert!(text.contains("[registries.official]"), "{text}");
        // Removing a table of its own still leaves the built-in one off.
        remove_from_config(&paths, OFFICIAL_NAME).unwrap();
        assert!(!read_config(&paths).unwrap().official_built_in);

        // While the built-in one is on, adding `official` says it exists.
        let (_d, paths) = paths_with("");
        assert!(matches!(
            add_to_config(
                &paths,
                OFFICIAL_NAME,
                &source,
                SourceKind::McpRegistry,
                false
            ),
            Err(IndexError::SourceExists { .. })
        ));
        assert!(!paths.config_file().exists());
    }
}
