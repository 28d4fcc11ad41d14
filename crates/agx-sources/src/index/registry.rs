//! Reading a registry, local or remote, and downloading verified tarballs.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::cache::{CachedRemote, IndexCache, Validators};
use super::http::{Fetched, Http, Limits, SinkError};
use super::marketplace::{self, Marketplace};
use super::mcp_registry::{McpRegistry, api as mcp_api, cache as mcp_cache};
use super::oci::{OciAccess, OciRegistry};
use super::signed::{RootSummary, SignedIndex, pin_root};
use super::source::{Selected, SourceKind};
use super::well_known::WellKnown;
use super::{Catalog, HttpSettings, IndexEntry, IndexError, Source, source};
use agx_core::io_context::at;
use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;

/// Open the agx index chosen by `requested` (the global `--registry` flag, which also reads
/// `AGX_REGISTRY`), else the config file. `offline` restricts a web registry to its cache.
/// An MCP registry is refused: only agx indexes hold installable packages today.
pub fn open(
    requested: Option<&str>,
    root: Option<&Path>,
    offline: bool,
    paths: &AgxPaths,
) -> Result<Registry, IndexError> {
    match open_any(requested, root, offline, paths)? {
        AnyRegistry::Agx(registry) => Ok(registry),
        AnyRegistry::Mcp(registry) => Err(IndexError::NotAnAgxIndex {
            url: registry.base().to_string(),
            what: "it lists servers but does not hold agx packages",
        }),
        AnyRegistry::Marketplace(marketplace) => Err(IndexError::NotAnAgxIndex {
            url: marketplace.source().to_string(),
            what: "it is a Claude-format marketplace of plugins (`agx install PLUGIN@SOURCE`)",
        }),
    }
}

/// A registry of either kind.
#[derive(Debug)]
pub enum AnyRegistry {
    Agx(Registry),
    Mcp(McpRegistry),
    Marketplace(Marketplace),
}

impl AnyRegistry {
    pub fn kind(&self) -> SourceKind {
        match self {
            AnyRegistry::Agx(_) => SourceKind::AgxIndex,
            AnyRegistry::Mcp(_) => SourceKind::McpRegistry,
            AnyRegistry::Marketplace(_) => SourceKind::ClaudeMarketplace,
        }
    }

    /// The URL or folder, for messages.
    pub fn source(&self) -> &str {
        match self {
            AnyRegistry::Agx(registry) => registry.source(),
            AnyRegistry::Mcp(registry) => registry.base(),
            AnyRegistry::Marketplace(marketplace) => marketplace.source(),
        }
    }
}

/// The registry chosen by `requested` or the config file, of whichever kind it is. `root`
/// (`--root`) pins a TUF root for a `requested` location, for this run.
pub fn open_any(
    requested: Option<&str>,
    root: Option<&Path>,
    offline: bool,
    paths: &AgxPaths,
) -> Result<AnyRegistry, IndexError> {
    let selected = with_root(source::select_entry(requested, paths)?, root, paths)?;
    open_selected(selected, offline, paths)
}

/// A `--registry URL|DIR` location given with `--root`: verified against that root, its
/// trusted metadata kept in the cache under the location (and started again when another
/// root is given for it).
fn with_root(
    mut selected: Selected,
    root: Option<&Path>,
    paths: &AgxPaths,
) -> Result<Selected, IndexError> {
    let Some(root) = root else {
        return Ok(selected);
    };
    if let Some(name) = &selected.name {
        return Err(IndexError::Signed {
            source_name: name.clone(),
            error: agx_tuf::TufError::Usage {
                what: format!(
                    "--root pins the root of a --registry URL or folder, and `{name}` is a configured source; pin its root with `agx registry remove-source {name}` then `agx registry add-source {name} URL --root ROOT.json`"
                ),
            },
        });
    }
    let bytes = fs_err::read(root)?;
    let dir = IndexCache::new(&paths.cache_dir, &selected.source.display())
        .dir()
        .join("tuf");
    let pinned = dir.join("pinned-root.json");
    if fs_err::read(&pinned).ok().as_deref() != Some(bytes.as_slice()) {
        super::signed::describe_root(&bytes)?;
        if dir.exists() {
            fs_err::remove_dir_all(&dir)?;
        }
        fs_err::create_dir_all(&dir)?;
        agx_core::atomic::write_file(&dir.join("root.json"), &bytes, None)?;
        agx_core::atomic::write_file(&pinned, &bytes, None)?;
    }
    selected.trust = Some(dir);
    Ok(selected)
}

/// The registry `requested` names, else every configured one (for discovery: `search`,
/// `list --include-remote`, `info`), each with its configured name.
pub fn open_every(
    requested: Option<&str>,
    root: Option<&Path>,
    offline: bool,
    paths: &AgxPaths,
) -> Result<Vec<(Option<String>, AnyRegistry)>, IndexError> {
    open_each(requested, root, offline, paths)?
        .into_iter()
        .map(|opened| Ok((opened.name, opened.registry?)))
        .collect()
}

/// One source [`open_each`] tried.
pub struct Opened {
    /// The configured name (`None` for a `--registry` location).
    pub name: Option<String>,
    /// Its URL or folder.
    pub location: String,
    /// The registry, or why it could not be opened (a folder that is gone, a URL whose kind
    /// could not be learnt).
    pub registry: Result<AnyRegistry, IndexError>,
}

/// [`open_every`], keeping each source's failure apart, so that discovery can show what the
/// others answered. Only the configuration itself failing is an error here.
pub fn open_each(
    requested: Option<&str>,
    root: Option<&Path>,
    offline: bool,
    paths: &AgxPaths,
) -> Result<Vec<Opened>, IndexError> {
    let configured = source::configured(paths)?;
    let selected = if requested.is_some_and(|r| !r.is_empty()) || configured.is_empty() {
        vec![with_root(
            source::select_entry(requested, paths)?,
            root,
            paths,
        )?]
    } else {
        configured
    };
    Ok(selected
        .into_iter()
        .map(|selected| Opened {
            name: selected.name.clone(),
            location: selected.source.display(),
            registry: open_selected(selected, offline, paths),
        })
        .collect())
}

fn open_selected(
    selected: Selected,
    offline: bool,
    paths: &AgxPaths,
) -> Result<AnyRegistry, IndexError> {
    let kind = kind_of(&selected, offline, paths)?;
    Ok(match (kind, selected.source.clone()) {
        (SourceKind::Oci, Source::Oci(location)) => {
            let access = OciAccess::lookup(
                paths,
                selected.name.as_deref(),
                &location,
                selected.ca.as_deref(),
                selected.plain_http,
            )?;
            // Its Sigstore referrers are verified against the source's trusted root.
            AnyRegistry::Agx(
                Registry::from_oci(location, offline, access)?
                    .with_trusted_root(selected.trusted_root.clone()),
            )
        }
        (SourceKind::Oci, other) | (_, other @ Source::Oci(_)) => {
            return Err(oci_mismatch(&other));
        }
        (SourceKind::McpRegistry, Source::Http(url)) => AnyRegistry::Mcp(
            McpRegistry::new(&url, offline, paths)?.named(selected.name.as_deref(), paths),
        ),
        (SourceKind::McpRegistry, Source::Folder(path)) => {
            return Err(IndexError::InvalidUrl {
                url: path.display().to_string(),
                reason: "an MCP registry is a web API: give its https:// base URL".into(),
            });
        }
        (SourceKind::WellKnown, Source::Http(url)) => AnyRegistry::Agx(Registry::from_well_known(
            &url,
            selected.name.as_deref(),
            offline,
            paths,
        )?),
        (SourceKind::WellKnown, Source::Folder(path)) => {
            return Err(well_known_folder(&path));
        }
        (SourceKind::ClaudeMarketplace, source) => {
            AnyRegistry::Marketplace(Marketplace::new(source, offline, paths)?)
        }
        (SourceKind::AgxIndex, source) => {
            let registry = Registry::new(source.clone(), offline, paths)?;
            if let (Some(remote), Source::Http(url)) = (&registry.remote, &source)
                && selected.name.is_some()
            {
                remote
                    .http
                    .offer_login(url, selected.name.as_deref(), paths);
            }
            let registry = registry.with_trusted_root(selected.trusted_root.clone());
            AnyRegistry::Agx(match &selected.trust {
                Some(dir) => {
                    let name = selected.name.clone().unwrap_or_else(|| source.display());
                    registry.with_signature(dir, &name)
                }
                None => registry,
            })
        }
    })
}

/// An OCI source's version signed by a Sigstore referrer: who, the bundle that verified,
/// and the manifest it signs.
struct OciSigned {
    signer: agx_provenance::Signer,
    bundle: Vec<u8>,
    manifest: Vec<u8>,
}

/// The kind of a selected registry: as configured, else as remembered from an earlier
/// detection, else detected now (and remembered). A folder is a marketplace when it holds
/// `.claude-plugin/marketplace.json`, else an agx index. When
/// nothing can be learnt (offline, or the network fails) it is taken as an agx index, which
/// then reports its own errors or works from its cache.
pub fn kind_of(
    selected: &Selected,
    offline: bool,
    paths: &AgxPaths,
) -> Result<SourceKind, IndexError> {
    if let Some(kind) = known_kind(selected, paths)? {
        return Ok(kind);
    }
    let Source::Http(url) = &selected.source else {
        return Ok(SourceKind::AgxIndex);
    };
    if offline {
        return Ok(SourceKind::AgxIndex);
    }
    let http = Http::from_env()?;
    http.offer_login(url, selected.name.as_deref(), paths);
    match detect(&http, url) {
        Ok(Some(kind)) => {
            remember_kind(paths, url, kind);
            Ok(kind)
        }
        Ok(None) => Ok(SourceKind::AgxIndex),
        Err(e) => {
            tracing::debug!("could not detect the kind of {url}: {e}");
            Ok(SourceKind::AgxIndex)
        }
    }
}

/// The kind as configured, as remembered from a detection, or (a folder) what it holds;
/// `None` for a web registry not yet seen.
pub fn known_kind(selected: &Selected, paths: &AgxPaths) -> Result<Option<SourceKind>, IndexError> {
    if let Some(kind) = selected.kind {
        return Ok(Some(kind));
    }
    let url = match &selected.source {
        Source::Http(url) => url,
        Source::Folder(dir) => return Ok(Some(folder_kind(dir))),
        Source::Oci(_) => return Ok(Some(SourceKind::Oci)),
    };
    Ok(IndexCache::new(&paths.cache_dir, url)
        .read(mcp_cache::KIND_FILE)?
        .and_then(|body| SourceKind::parse(String::from_utf8_lossy(&body).trim())))
}

/// A folder holding a marketplace catalog (Claude Code's, Codex's or Cursor's) is a
/// marketplace; any other an agx index (which reports its own errors when it is not one).
fn folder_kind(dir: &Path) -> SourceKind {
    if marketplace::catalog_file_of(dir).is_some() {
        SourceKind::ClaudeMarketplace
    } else {
        SourceKind::AgxIndex
    }
}

/// Remember a detected kind; a cache that cannot be written only costs a detection later.
fn remember_kind(paths: &AgxPaths, url: &str, kind: SourceKind) {
    let cache = IndexCache::new(&paths.cache_dir, url);
    if let Err(e) = cache.write(
        mcp_cache::KIND_FILE,
        kind.as_str().as_bytes(),
        &Validators::default(),
    ) {
        tracing::debug!("could not remember the kind of {url}: {e}");
    }
}

/// Files `agx registry add-source` is given for a source.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceFiles<'a> {
    /// `--ca`: extra certificate authorities (OCI registries).
    pub ca: Option<&'a Path>,
    /// `--trusted-root`: the Sigstore trusted root of its bundles (agx indexes).
    pub trusted_root: Option<&'a Path>,
}

/// `agx registry add-source`: check the location, learn its kind (detected when `kind` is
/// `None`: a web registry must answer as one kind or the other) and add it to
/// `config.toml`. Returns the kind recorded.
pub fn add_source(
    paths: &AgxPaths,
    name: &str,
    location: &str,
    kind: Option<SourceKind>,
    offline: bool,
    root: Option<&[u8]>,
    files: SourceFiles<'_>,
) -> Result<(Source, SourceKind, Option<RootSummary>), IndexError> {
    let SourceFiles { ca, trusted_root } = files;
    let source = Source::parse(location)?;
    let ca = match ca {
        None => None,
        Some(_) if !matches!(source, Source::Oci(_)) => {
            return Err(IndexError::InvalidUrl {
                url: source.display(),
                reason: "--ca applies to OCI registries (oci://HOST/NAMESPACE)".into(),
            });
        }
        Some(ca) => Some(super::oci::check_ca(ca)?),
    };
    let mut plain_http = None;
    let kind = match (kind, &source) {
        (None | Some(SourceKind::Oci), Source::Oci(location)) => {
            if !offline {
                let access = OciAccess::lookup(paths, Some(name), location, ca.as_deref(), None)?;
                let plain = OciRegistry::new(location.clone(), offline, access)?.check()?;
                plain_http = location.is_loopback().then_some(plain);
            }
            SourceKind::Oci
        }
        (Some(SourceKind::Oci), other) | (Some(_), other @ Source::Oci(_)) => {
            return Err(oci_mismatch(other));
        }
        (Some(kind), _) => kind,
        (None, Source::Folder(dir)) => match folder_kind(dir) {
            SourceKind::AgxIndex if !dir.join("config.json").is_file() => {
                return Err(IndexError::NotARegistry { path: dir.clone() });
            }
            kind => kind,
        },
        (None, Source::Http(url)) => {
            if offline {
                return Err(IndexError::Offline {
                    url: format!("{url}/config.json"),
                });
            }
            let http = Http::from_env()?;
            http.offer_login(url, Some(name), paths);
            let kind =
                detect(&http, url)?.ok_or_else(|| IndexError::UnknownKind { url: url.clone() })?;
            remember_kind(paths, url, kind);
            kind
        }
    };
    if let (SourceKind::McpRegistry, Source::Folder(path)) = (kind, &source) {
        return Err(IndexError::InvalidUrl {
            url: path.display().to_string(),
            reason: "an MCP registry is a web API: give its https:// base URL".into(),
        });
    }
    // Opened and read once, so a source that cannot be read is never configured.
    match (kind, &source) {
        (SourceKind::ClaudeMarketplace, _) => {
            Marketplace::new(source.clone(), offline, paths)?.catalog()?;
        }
        (SourceKind::WellKnown, Source::Folder(path)) => return Err(well_known_folder(path)),
        (SourceKind::WellKnown, Source::Http(url)) if !offline => {
            WellKnown::new(url, Some(name), offline, paths)?.index()?;
        }
        _ => {}
    }
    let pinned = match root {
        None => None,
        Some(_) if kind != SourceKind::AgxIndex => {
            return Err(IndexError::InvalidUrl {
                url: source.display(),
                reason: "only agx indexes are signed with TUF; --root does not apply".into(),
            });
        }
        Some(root) => Some(pin_and_check(paths, name, &source, root, offline)?),
    };
    let sigstore_root = match trusted_root {
        None => None,
        Some(_) if !matches!(kind, SourceKind::AgxIndex) => {
            return Err(IndexError::InvalidUrl {
                url: source.display(),
                reason:
                    "only agx indexes publish Sigstore bundles today; --trusted-root does not apply"
                        .into(),
            });
        }
        Some(file) => Some(keep_sigstore_root(paths, name, file)?),
    };
    if let Err(e) = source::add_to_config_with(
        paths,
        name,
        &source,
        kind,
        pinned.is_some(),
        source::SourceExtras {
            ca: ca.as_deref(),
            plain_http,
            trusted_root: sigstore_root.as_deref(),
        },
    ) {
        if pinned.is_some() || sigstore_root.is_some() {
            let _ = fs_err::remove_dir_all(source::trust_dir(paths, name));
        }
        return Err(e);
    }
    Ok((source, kind, pinned))
}

/// Check that `file` is a Sigstore trusted root and keep a copy for the source `name`.
fn keep_sigstore_root(paths: &AgxPaths, name: &str, file: &Path) -> Result<PathBuf, IndexError> {
    let refused = |error| IndexError::Provenance {
        what: format!("registry {name}"),
        error,
    };
    agx_provenance::TrustRoot::read(file).map_err(refused)?;
    let kept = source::sigstore_root_file(paths, name);
    let bytes = fs_err::read(file)?;
    if let Some(dir) = kept.parent() {
        fs_err::create_dir_all(dir)?;
    }
    agx_core::atomic::write_file(&kept, &bytes, None)?;
    Ok(kept)
}

/// A folder configured as a `.well-known` site.
fn well_known_folder(path: &Path) -> IndexError {
    IndexError::InvalidUrl {
        url: path.display().to_string(),
        reason: "`.well-known` skills are published by a web site: give its https:// address"
            .into(),
    }
}

/// An OCI location configured as another kind, or another location as kind `oci`.
fn oci_mismatch(source: &Source) -> IndexError {
    IndexError::InvalidUrl {
        url: source.display(),
        reason: "an OCI registry is written oci://HOST/NAMESPACE, and only it is of kind `oci`"
            .into(),
    }
}

/// Pin `root` for `name` and verify the source against it once (refresh and `config.json`),
/// so that a source whose metadata does not match the root is never configured.
fn pin_and_check(
    paths: &AgxPaths,
    name: &str,
    source: &Source,
    root: &[u8],
    offline: bool,
) -> Result<RootSummary, IndexError> {
    if source::read_config(paths)?.registries.contains_key(name) {
        return Err(IndexError::SourceExists {
            name: name.to_string(),
            config: paths.config_dir.join("config.toml"),
        });
    }
    pin_root(paths, name, root)?;
    let checked = (|| {
        let registry = Registry::new(source.clone(), offline, paths)?
            .with_signature(&source::trust_dir(paths, name), name);
        registry.index_file("config.json", |_, _| Ok(()))?;
        registry.signature().expect("signed").root()
    })();
    if checked.is_err() {
        let _ = fs_err::remove_dir_all(source::trust_dir(paths, name));
    }
    checked.map_err(|e| match e {
        // Never signed here before: not a downgrade, but a root for an unsigned registry.
        IndexError::Signed {
            source_name,
            error: agx_tuf::TufError::Downgrade { .. },
        } => IndexError::Signed {
            error: agx_tuf::TufError::Usage {
                what: format!(
                    "{} serves no TUF metadata (metadata/timestamp.json): it is not signed, or the root belongs to another registry",
                    source.display()
                ),
            },
            source_name,
        },
        e => e,
    })
}

/// What the web registry at `url` is: an agx index serves `config.json`; a Claude-format
/// marketplace is a `.json` URL serving one, or serves `.claude-plugin/marketplace.json`; a
/// `.well-known` site serves a skills index; an MCP registry answers `GET /v0.1/servers`.
/// `None` when it is none of them.
pub fn detect(http: &Http, url: &str) -> Result<Option<SourceKind>, IndexError> {
    let serves_marketplace = || -> Result<bool, IndexError> {
        let catalog = marketplace::catalog_url(url);
        match http.fetch(&catalog, &Validators::default()) {
            Ok(Fetched::Fresh { body, .. }) => {
                Ok(marketplace::parse_catalog(&body, &catalog).is_ok())
            }
            Ok(_) | Err(IndexError::NotFound { .. } | IndexError::Status { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    };
    if url.to_ascii_lowercase().ends_with(".json") {
        return Ok(serves_marketplace()?.then_some(SourceKind::ClaudeMarketplace));
    }
    let config_url = format!("{url}/config.json");
    match http.fetch(&config_url, &Validators::default()) {
        Ok(Fetched::Fresh { body, .. })
            if serde_json::from_slice::<super::RegistryConfig>(&body).is_ok() =>
        {
            return Ok(Some(SourceKind::AgxIndex));
        }
        Ok(_) | Err(IndexError::NotFound { .. } | IndexError::Status { .. }) => {}
        Err(e) => return Err(e),
    }
    if serves_marketplace()? {
        return Ok(Some(SourceKind::ClaudeMarketplace));
    }
    if super::well_known::find_index(http, url)?.is_some() {
        return Ok(Some(SourceKind::WellKnown));
    }
    Ok(mcp_api::answers_api(http, url)?.then_some(SourceKind::McpRegistry))
}

/// The most a file of unannounced size may be: a `.well-known` skill's `SKILL.md` or
/// archive (64 MiB; no skill agx copies is near it).
pub(super) const MAX_UNSIZED: u64 = 64 * 1024 * 1024;

/// A registry opened from a source (URL, `file://` or a folder), with its cache.
#[derive(Debug)]
pub struct Registry {
    source: Source,
    display: String,
    offline: bool,
    remote: Option<CachedRemote>,
    /// Set for a TUF-signed source: every file is checked against its signed target.
    /// Boxed: the verifier holds the trusted metadata, and most registries have none.
    signed: Option<Box<SignedIndex>>,
    /// Set for an OCI registry, which answers every read instead of index files.
    oci: Option<Box<OciRegistry>>,
    /// Set for a `.well-known` site, which answers every read from its skills index.
    well_known: Option<Box<WellKnown>>,
    /// The Sigstore trusted root its bundles are verified against (`None`: public good).
    trusted_root: Option<PathBuf>,
}

impl Registry {
    /// A registry at a known source, with HTTP settings and limits from the environment.
    pub fn new(source: Source, offline: bool, paths: &AgxPaths) -> Result<Registry, IndexError> {
        let (settings, limits) = match &source {
            Source::Http(_) => (HttpSettings::from_env()?, Limits::from_env()?),
            Source::Folder(_) | Source::Oci(_) => Default::default(),
        };
        Self::with_limits(source, offline, paths, settings, limits)
    }

    /// A registry at a known source with explicit HTTP settings (timeouts, retries) and the
    /// default transfer limits.
    pub fn with_settings(
        source: Source,
        offline: bool,
        paths: &AgxPaths,
        settings: HttpSettings,
    ) -> Result<Registry, IndexError> {
        Self::with_limits(source, offline, paths, settings, Limits::default())
    }

    fn with_limits(
        source: Source,
        offline: bool,
        paths: &AgxPaths,
        settings: HttpSettings,
        limits: Limits,
    ) -> Result<Registry, IndexError> {
        let mut oci = None;
        let remote = match &source {
            Source::Oci(location) => {
                let access = OciAccess::lookup(paths, None, location, None, None)?;
                oci = Some(Box::new(OciRegistry::new(
                    location.clone(),
                    offline,
                    access,
                )?));
                None
            }
            Source::Http(url) => {
                let http = Http::new(settings, limits);
                http.offer_login(url, None, paths);
                Some(CachedRemote::new(
                    http,
                    IndexCache::new(&paths.cache_dir, url),
                ))
            }
            Source::Folder(dir) => {
                if !dir.is_dir() {
                    return Err(IndexError::MissingFolder { path: dir.clone() });
                }
                if !dir.join("config.json").is_file() {
                    return Err(IndexError::NotARegistry { path: dir.clone() });
                }
                None
            }
        };
        Ok(Registry {
            display: source.display(),
            source,
            offline,
            remote,
            signed: None,
            oci,
            well_known: None,
            trusted_root: None,
        })
    }

    /// An OCI registry, reached with `access` (its credential and extra authorities).
    pub fn from_oci(
        location: super::oci::OciLocation,
        offline: bool,
        access: OciAccess,
    ) -> Result<Registry, IndexError> {
        let oci = OciRegistry::new(location.clone(), offline, access)?;
        Ok(Self::answered_by(
            Source::Oci(location),
            offline,
            Some(oci),
            None,
        ))
    }

    /// A `.well-known` site at `url`, its skills published as `NAME/SKILL` (`name`: the
    /// configured source's; `None` for a location given directly).
    pub fn from_well_known(
        url: &str,
        name: Option<&str>,
        offline: bool,
        paths: &AgxPaths,
    ) -> Result<Registry, IndexError> {
        let site = WellKnown::new(url, name, offline, paths)?;
        let source = Source::Http(url.to_string());
        Ok(Self::answered_by(source, offline, None, Some(site)))
    }

    /// A registry whose reads a backend answers instead of index files.
    fn answered_by(
        source: Source,
        offline: bool,
        oci: Option<OciRegistry>,
        well_known: Option<WellKnown>,
    ) -> Registry {
        Registry {
            display: source.display(),
            source,
            offline,
            remote: None,
            signed: None,
            oci: oci.map(Box::new),
            well_known: well_known.map(Box::new),
            trusted_root: None,
        }
    }

    /// Verify everything this registry serves through TUF, as the root pinned in `trust`
    /// says (`name`: the source, for messages).
    pub fn with_signature(mut self, trust: &Path, name: &str) -> Self {
        let http = self.remote.as_ref().map(|r| r.http.clone());
        let signed = SignedIndex::new(trust, name, &self.source, self.offline, http);
        self.signed = Some(Box::new(signed));
        self
    }

    /// Verify this registry's Sigstore bundles against `trusted_root` instead of the
    /// public-good instance's root.
    pub fn with_trusted_root(mut self, trusted_root: Option<PathBuf>) -> Self {
        self.trusted_root = trusted_root;
        self
    }

    /// The provenance of a downloaded, checksum-verified `archive`: `None` when its index
    /// entry names no bundle (unsigned); else the signer its bundle proves, or an error when
    /// the bundle does not verify against the archive and the trusted root. The bundle is
    /// left at `bundle_file` (removed when it does not verify). `trusted`, the signer trust on
    /// first use recorded, is preferred where an OCI version carries several signatures.
    pub fn provenance(
        &self,
        entry: &IndexEntry,
        archive: &Path,
        bundle_file: &Path,
        trusted: Option<&agx_provenance::Signer>,
    ) -> Result<Option<agx_provenance::Signer>, IndexError> {
        if self.oci.is_some() {
            let Some(signed) = self.oci_provenance(entry, trusted)? else {
                return Ok(None);
            };
            // The bundle and the manifest it signs (whose layer is the archive), kept with
            // the version for `agx verify`.
            fs_err::write(bundle_file, &signed.bundle)?;
            fs_err::write(
                agx_store::provenance::subject_beside(bundle_file),
                &signed.manifest,
            )?;
            return Ok(Some(signed.signer));
        }
        let artifact = || fs_err::read(archive);
        let verified = self.verify_bundle(
            entry,
            bundle_file,
            |bytes| Ok(agx_provenance::Subject::Bytes(bytes)),
            artifact,
        );
        if verified.is_err() {
            let _ = std::fs::remove_file(bundle_file);
        }
        verified
    }

    /// The signer of a version's bundle, verified against the archive's sha256 as its index
    /// entry gives it (for `agx lock`, which downloads no archive): a DSSE statement's
    /// subject, or an ECDSA signature over that digest. `None` when it has no bundle.
    /// `trusted` as for [`Self::provenance`].
    pub fn signer_of(
        &self,
        entry: &IndexEntry,
        trusted: Option<&agx_provenance::Signer>,
    ) -> Result<Option<agx_provenance::Signer>, IndexError> {
        if self.oci.is_some() {
            return Ok(self
                .oci_provenance(entry, trusted)?
                .map(|signed| signed.signer));
        }
        if entry
            .provenance
            .as_ref()
            .and_then(|p| p.sigstore.as_ref())
            .is_none()
        {
            return Ok(None);
        }
        let scratch = tempfile::tempdir()?;
        let digest: [u8; 32] = hex::decode(&entry.cksum)
            .ok()
            .and_then(|d| d.try_into().ok())
            .ok_or_else(|| IndexError::Parse {
                location: self.location_of(&tarball_path(&entry.name, &entry.vers)),
                message: format!("`cksum` is not a sha256: {}", entry.cksum),
            })?;
        self.verify_bundle(
            entry,
            &scratch.path().join("provenance.sigstore.json"),
            |_| Ok(agx_provenance::Subject::Sha256(digest)),
            || Ok(Vec::new()),
        )
    }

    /// The signer of an OCI source's version, from the Sigstore bundles attached to its
    /// manifest as referrers (docs/organizations.md, "Provenance"): each must sign the
    /// manifest's digest (whose one layer is the archive, checked at download); the signer
    /// is chosen by [`super::oci::provenance::signer_among`], with its bundle and the
    /// manifest. `None` when none is attached (unsigned); when bundles are attached and none
    /// verifies, the version is refused.
    fn oci_provenance(
        &self,
        entry: &IndexEntry,
        trusted: Option<&agx_provenance::Signer>,
    ) -> Result<Option<OciSigned>, IndexError> {
        use agx_provenance::TrustRoot;
        let Some(oci) = &self.oci else {
            return Ok(None);
        };
        let Some(referred) = oci.bundle_referrers(entry)? else {
            return Ok(None);
        };
        if referred.bundles.is_empty() {
            return Ok(None);
        }
        let refused = |error| IndexError::Provenance {
            what: format!("{} {}", entry.name, entry.vers),
            error,
        };
        let root =
            TrustRoot::configured_or_public_good(self.trusted_root.as_deref()).map_err(refused)?;
        let origin = format!("{} (a Sigstore referrer)", oci.archive_location(entry));
        let signed = super::oci::provenance::signer_among(
            referred.bundles,
            referred.digest,
            &root,
            &origin,
            trusted,
        )
        .map_err(refused)?;
        Ok(signed.map(|(signer, bundle)| OciSigned {
            signer,
            bundle,
            manifest: referred.manifest,
        }))
    }

    /// Download `entry`'s bundle into `bundle_file` and verify it against the artifact
    /// (`subject` of the bytes `artifact` reads) and this source's trusted root.
    fn verify_bundle(
        &self,
        entry: &IndexEntry,
        bundle_file: &Path,
        subject: impl for<'a> Fn(&'a [u8]) -> Result<agx_provenance::Subject<'a>, IndexError>,
        artifact: impl FnOnce() -> std::io::Result<Vec<u8>>,
    ) -> Result<Option<agx_provenance::Signer>, IndexError> {
        use agx_provenance::{IdentityPolicy, SigstoreBundle, TrustRoot};
        if !self.download_bundle(entry, bundle_file)? {
            return Ok(None);
        }
        let refused = |error| IndexError::Provenance {
            what: format!("{} {}", entry.name, entry.vers),
            error,
        };
        let location = self.location_of(&bundle_path(&entry.name, &entry.vers));
        let bytes = fs_err::read(bundle_file)?;
        let bundle = SigstoreBundle::parse(&bytes, &location).map_err(refused)?;
        let root =
            TrustRoot::configured_or_public_good(self.trusted_root.as_deref()).map_err(refused)?;
        let artifact = artifact()?;
        root.verify(subject(&artifact)?, &bundle, &IdentityPolicy::any())
            .map(Some)
            .map_err(refused)
    }

    /// The key ids of a signed source's trusted root role (empty when unsigned).
    pub fn root_key_ids(&self) -> Result<Vec<String>, IndexError> {
        match &self.signed {
            Some(signed) => Ok(signed.root()?.key_ids),
            None => Ok(Vec::new()),
        }
    }

    /// The signed source's verifier, when the source is signed.
    pub fn signature(&self) -> Option<&SignedIndex> {
        self.signed.as_deref()
    }

    /// Human-readable source (URL or path), for messages and receipts.
    pub fn source(&self) -> &str {
        &self.display
    }

    /// Where the registry lives.
    pub fn location(&self) -> &Source {
        &self.source
    }

    /// Every published version of a package (yanked ones included), oldest first.
    pub fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
        if let Some(oci) = &self.oci {
            return oci.versions(name);
        }
        if let Some(site) = &self.well_known {
            return site.versions(name);
        }
        let (publisher, short) = name.path_segments();
        let rel = format!("packages/{publisher}/{short}.json");
        let Some(mut entries) = self.index_file(&rel, parse_version_lines)? else {
            return Err(IndexError::PackageNotFound {
                name: name.clone(),
                registry: self.display.clone(),
            });
        };
        entries.sort_by(|a, b| a.vers.cmp(&b.vers));
        Ok(entries)
    }

    /// The catalog of every package.
    pub fn catalog(&self) -> Result<Catalog, IndexError> {
        if let Some(oci) = &self.oci {
            return oci.catalog();
        }
        if let Some(site) = &self.well_known {
            return site.catalog();
        }
        let rel = "catalog.json";
        let parse = |body: &[u8], location: &str| {
            serde_json::from_slice(body).map_err(|e| IndexError::Parse {
                location: location.to_string(),
                message: e.to_string(),
            })
        };
        self.index_file(rel, parse)?
            .ok_or_else(|| match &self.source {
                Source::Http(_) => IndexError::NotFound {
                    url: self.location_of(rel),
                },
                Source::Folder(dir) => IndexError::NotARegistry { path: dir.clone() },
                Source::Oci(_) => unreachable!("an OCI registry has no index files"),
            })
    }

    /// The URL or path of a version's tarball.
    pub fn tarball_location(&self, entry: &IndexEntry) -> String {
        if let Some(oci) = &self.oci {
            return oci.archive_location(entry);
        }
        if let Some(site) = &self.well_known {
            return site.artifact_location(entry);
        }
        self.location_of(&tarball_path(&entry.name, &entry.vers))
    }

    /// Download a version's tarball into `dest`, hashing while writing; fails on a size or
    /// sha256 mismatch (and then removes `dest`). `progress` is called with the bytes
    /// received so far. The package is streamed, never held in memory.
    pub fn download(
        &self,
        entry: &IndexEntry,
        dest: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError> {
        if let Some(oci) = &self.oci {
            let result = oci.download(entry, &mut |body, location| {
                copy_verified(body, dest, entry, location, progress)
            });
            if result.is_err() {
                let _ = std::fs::remove_file(dest);
            }
            return result;
        }
        if let Some(site) = &self.well_known {
            let result = site.download(entry, &mut |body, location| {
                copy_checked(body, dest, &entry.cksum, None, location, progress)
            });
            if result.is_err() {
                let _ = std::fs::remove_file(dest);
            }
            return result;
        }
        let rel = tarball_path(&entry.name, &entry.vers);
        self.download_file(&rel, entry.size, &entry.cksum, dest, progress)
    }

    /// Download a version's Sigstore bundle (`VERSION.tar.gz.sigstore.json` beside its
    /// archive) into `dest`, checked against the size and sha256 its index entry gives;
    /// `Ok(false)` when the entry names none.
    pub fn download_bundle(&self, entry: &IndexEntry, dest: &Path) -> Result<bool, IndexError> {
        let Some(bundle) = entry.provenance.as_ref().and_then(|p| p.sigstore.as_ref()) else {
            return Ok(false);
        };
        if self.oci.is_some() || self.well_known.is_some() {
            return Ok(false);
        }
        let rel = bundle_path(&entry.name, &entry.vers);
        self.download_file(&rel, bundle.size, &bundle.sha256, dest, &mut |_| {})?;
        Ok(true)
    }

    /// One file of an agx index (`rel`) into `dest`, which must be `size` bytes hashing to
    /// `cksum`; through TUF for a signed source. `dest` is removed on failure.
    fn download_file(
        &self,
        rel: &str,
        size: u64,
        cksum: &str,
        dest: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError> {
        let location = self.location_of(rel);
        if let Some(signed) = &self.signed {
            signed.check_archive(rel, size, cksum)?;
        }
        let copy = |body: &mut dyn Read, progress: &mut dyn FnMut(u64)| {
            copy_checked(body, dest, cksum, Some(size), &location, progress)
        };
        let result = match (&self.source, &self.remote) {
            (Source::Http(_), Some(remote)) => {
                if self.offline {
                    return Err(IndexError::Offline { url: location });
                }
                remote
                    .http
                    .download(&location, size, |body| copy(body, progress))
            }
            (Source::Folder(dir), _) => {
                let path = dir.join(rel);
                match std::fs::File::open(&path) {
                    Ok(mut file) => copy(&mut file, progress).map_err(|e| match e {
                        SinkError::Read(err, _) => IndexError::from(at("read", path.clone())(err)),
                        SinkError::Fatal(e) => e,
                    }),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        Err(IndexError::NotFound { url: location })
                    }
                    Err(e) => Err(IndexError::from(at("read", path)(e))),
                }
            }
            (Source::Http(_), None) | (Source::Oci(_), _) => {
                unreachable!("web registries have a client, and OCI ones are answered above")
            }
        };
        if result.is_err() {
            let _ = std::fs::remove_file(dest);
        }
        match (result, &self.signed) {
            // The file differs from its signed target: say so in TUF's words.
            (
                Err(IndexError::SizeMismatch { .. } | IndexError::ChecksumMismatch { .. }),
                Some(signed),
            ) => Err(IndexError::Signed {
                source_name: signed.name().to_string(),
                error: agx_tuf::TufError::Tampered {
                    file: rel.to_string(),
                    what: "length or sha256".into(),
                },
            }),
            (result, _) => result,
        }
    }

    /// The folder of a folder registry, if this is one.
    pub fn folder(&self) -> Option<&PathBuf> {
        match &self.source {
            Source::Folder(dir) => Some(dir),
            Source::Http(_) | Source::Oci(_) => None,
        }
    }

    /// The OCI registry, if this is one.
    /// How a version's archive holds its files (a skill artifact's are at its root).
    pub fn archive_form(&self, entry: &IndexEntry) -> super::ArchiveForm {
        if let Some(site) = &self.well_known {
            return site.archive_form(entry);
        }
        self.oci
            .as_ref()
            .map_or(super::ArchiveForm::Package, |oci| oci.archive_form(entry))
    }

    pub fn oci(&self) -> Option<&OciRegistry> {
        self.oci.as_deref()
    }

    fn location_of(&self, rel: &str) -> String {
        match &self.source {
            Source::Http(url) => format!("{url}/{rel}"),
            Source::Folder(dir) => dir.join(rel).display().to_string(),
            Source::Oci(location) => format!("{}/{rel}", location.display()),
        }
    }

    /// An index file, parsed by `parse` (given the body and its URL or path); `None` when
    /// the registry does not have it. Only a body that parses is cached, so a cut-off or
    /// odd answer never poisons later runs; a cached copy that no longer parses is fetched
    /// again.
    fn index_file<T>(
        &self,
        rel: &str,
        parse: impl Fn(&[u8], &str) -> Result<T, IndexError>,
    ) -> Result<Option<T>, IndexError> {
        let url = self.location_of(rel);
        let verified_parse = |body: &[u8], location: &str| {
            if let Some(signed) = &self.signed {
                signed.verify(rel, body)?;
            }
            parse(body, location)
        };
        let remote = match (&self.source, &self.remote) {
            (Source::Folder(dir), _) => {
                let path = dir.join(rel);
                return match std::fs::read(&path) {
                    Ok(body) => verified_parse(&body, &url).map(Some),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(IndexError::from(at("read", path)(e))),
                };
            }
            (Source::Http(_), Some(remote)) => remote,
            (Source::Oci(_), _) => return Ok(None),
            (Source::Http(_), None) => unreachable!("web registries have a client"),
        };
        // A signed source's metadata, refreshed this run, says what each file must hash to:
        // a cached copy that matches is current and needs no request. Anything else (no copy,
        // another hash, a metadata failure) goes the usual way, where `parse` verifies.
        if let Some(signed) = &self.signed
            && !self.offline
            && let Ok(Some(body)) = remote.cache.read(rel)
            && signed.verify(rel, &body).is_ok()
        {
            return parse(&body, &url).map(Some);
        }
        remote.get(&url, rel, self.offline, verified_parse)
    }
}

/// `dl/<publisher>/<name>/<version>.tar.gz`.
pub(crate) fn tarball_path(name: &PackageName, version: &semver::Version) -> String {
    let (publisher, short) = name.path_segments();
    format!("dl/{publisher}/{short}/{version}.tar.gz")
}

/// `dl/<publisher>/<name>/<version>.tar.gz.sigstore.json`: the archive's Sigstore bundle.
pub(crate) fn bundle_path(name: &PackageName, version: &semver::Version) -> String {
    format!("{}.sigstore.json", tarball_path(name, version))
}

/// Parse `packages/<publisher>/<name>.json`: one JSON object per non-empty line.
pub fn parse_version_lines(body: &[u8], location: &str) -> Result<Vec<IndexEntry>, IndexError> {
    let text = std::str::from_utf8(body).map_err(|e| IndexError::Parse {
        location: location.to_string(),
        message: format!("not UTF-8: {e}"),
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| IndexError::Parse {
                location: format!("{location}:{}", i + 1),
                message: e.to_string(),
            })
        })
        .collect()
}

/// Copy `body` into a new file at `dest`, hashing and counting; check size and sha256.
fn copy_verified(
    body: &mut dyn Read,
    dest: &Path,
    entry: &IndexEntry,
    location: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<(), SinkError> {
    copy_checked(
        body,
        dest,
        &entry.cksum,
        Some(entry.size),
        location,
        progress,
    )
}

/// Copy `body` into `dest`, hashing as it writes: its sha256 must be `cksum`, and its size
/// `size` (when known) or at most `MAX_UNSIZED` (a `.well-known` skill, whose index gives
/// no size).
pub(super) fn copy_checked(
    body: &mut dyn Read,
    dest: &Path,
    cksum: &str,
    size: Option<u64>,
    location: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<(), SinkError> {
    let most = size.unwrap_or(MAX_UNSIZED);
    let write_error = |e: std::io::Error| SinkError::Fatal(IndexError::from(at("write", dest)(e)));
    let mut file = std::fs::File::create(dest).map_err(write_error)?;
    let mut hasher = Sha256::new();
    let mut received: u64 = 0;
    let mut buf = vec![0u8; 64 * 1024];
    progress(0);
    loop {
        let n = match body.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(SinkError::Read(e, received)),
        };
        received += n as u64;
        if received > most {
            return Err(SinkError::Fatal(match size {
                Some(expected) => IndexError::SizeMismatch {
                    url: location.to_string(),
                    expected,
                    actual: received,
                },
                None => IndexError::TooLarge {
                    url: location.to_string(),
                    limit: MAX_UNSIZED,
                },
            }));
        }
        hasher.update(&buf[..n]);
        file.write_all(&buf[..n]).map_err(write_error)?;
        progress(received);
    }
    file.sync_all().map_err(write_error)?;
    if let Some(expected) = size
        && received != expected
    {
        return Err(SinkError::Fatal(IndexError::SizeMismatch {
            url: location.to_string(),
            expected,
            actual: received,
        }));
    }
    let actual = hex::encode(hasher.finalize());
    if !actual.eq_ignore_ascii_case(cksum) {
        return Err(SinkError::Fatal(IndexError::ChecksumMismatch {
            url: location.to_string(),
            expected: cksum.to_string(),
            actual,
            bytes: received,
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_lines_report_the_bad_line() {
        let good = r#"{"v":1,"name":"acme/a","vers":"1.0.0","cksum":"00","size":1}"#;
        let body = format!("{good}\n\n{{not json\n");
        let err = parse_version_lines(body.as_bytes(), "packages/acme/a.json").unwrap_err();
        assert!(
            matches!(&err, IndexError::Parse { location, .. } if location == "packages/acme/a.json:3"),
            "{err:?}"
        );
        let entries = parse_version_lines(format!("{good}\n").as_bytes(), "x").unwrap();
        assert_eq!(entries.len(), 1);
        assert!(!entries[0].yanked);
    }

    #[test]
    fn each_source_opens_or_fails_on_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().join("home"), true);
        std::fs::create_dir_all(&paths.config_dir).unwrap();
        let kind = SourceKind::ClaudeMarketplace;
        for name in ["here", "gone"] {
            let market = dir.path().join(name);
            std::fs::create_dir_all(market.join(".claude-plugin")).unwrap();
            std::fs::write(
                market.join(".claude-plugin/marketplace.json"),
                r#"{"name": "m", "plugins": []}"#,
            )
            .unwrap();
            source::add_to_config(&paths, name, &Source::Folder(market), kind, false).unwrap();
        }
        std::fs::remove_dir_all(dir.path().join("gone")).unwrap();
        let opened = open_each(None, None, true, &paths).unwrap();
        let of = |name: &str| {
            opened
                .iter()
                .find(|o| o.name.as_deref() == Some(name))
                .unwrap()
        };
        assert!(of("here").registry.is_ok());
        assert!(of("gone").registry.is_err());
        assert_eq!(
            of("gone").location,
            dir.path().join("gone").display().to_string()
        );
        // `open_every` still wants them all.
        assert!(open_every(None, None, true, &paths).is_err());
    }

    #[test]
    fn tarball_paths() {
        let name = PackageName::parse("acme/weather").unwrap();
        assert_eq!(
            tarball_path(&name, &semver::Version::new(1, 2, 0)),
            "dl/acme/weather/1.2.0.tar.gz"
        );
    }
}
