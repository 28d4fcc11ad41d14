//! The project operations behind `agx add`, `remove`, `lock`, `sync` and `tree`
//! (docs/projects.md): resolve agx.toml's `[servers]` into agx.lock, install the locked
//! versions, and write each listed client's project-scope file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, OpsError};
use crate::project_install::{install_locked_packages, locked_packages_synced};
use agx_clients::{self as clients, HostEnv, Outcome, Scope, ServerEntry, Target, shape};
use agx_core::file_lock::FileLock;
use agx_core::name::{PackageName, PackageSpec};
use agx_core::regular_file::ReadProblem;
use agx_model::client_table::shape::{entry_hash, project_entry};
use agx_model::manifest::package_file::MAX_FILE_BYTES;
use agx_project::manifest::{Project, ServerDecl, ServerTarget};
use agx_project::state::{SyncState, WrittenEntry};
use agx_project::{
    LOCK_FILE, LockFile, LockedPackage, LockedServer, LockedSkill, PROJECT_FILE, PackageSkill,
    ProjectError, SkillDecl, find_project, lock_project,
};
use agx_sources::index::IndexEntry;
use agx_sources::index::marketplace::PluginRef;
use agx_sources::resolve::{self, ResolveError};
use agx_store::Source;

/// Errors of the project operations.
#[derive(Debug, thiserror::Error)]
pub enum ProjectOpError {
    #[error(transparent)]
    Project(#[from] ProjectError),
    #[error(transparent)]
    Ops(#[from] OpsError),
    #[error(transparent)]
    Resolve(Box<ResolveError>),
    #[error("{target} has {} servers; name one", servers.len())]
    WhichServer {
        target: String,
        servers: Vec<String>,
    },
    #[error("{package} has no server `{server}`")]
    NoSuchServer {
        package: String,
        server: String,
        servers: Vec<String>,
    },
    #[error("agx.lock is out of date: {}", reasons.join("; "))]
    LockWouldChange { reasons: Vec<String> },
    #[error("there is no agx.lock in {}", dir.display())]
    NoLock { dir: PathBuf },
    #[error("`{key}` in {} is an entry agx did not write for this project", file.display())]
    Collision { key: String, file: PathBuf },
    #[error("`{key}` already launches {holds} in {PROJECT_FILE}")]
    KeyTaken { key: String, holds: String },
    #[error("no server or skill `{key}` in {PROJECT_FILE}")]
    NoKey { key: String, known: Vec<String> },
    #[error("`{spec}` is not `<server>[@requirement]`: {reason}")]
    BadSpec { spec: String, reason: String },
    #[error("`{spec}` is not `<skill>[@requirement]`: {reason}")]
    BadSkillSpec { spec: String, reason: String },
    #[error("{} does not parse as TOML: {message}", file.display())]
    Edit { file: PathBuf, message: String },
    #[error("the project is out of sync ({count} difference{})", if *count == 1 { "" } else { "s" })]
    Drift { count: usize },
}

impl From<ResolveError> for ProjectOpError {
    fn from(e: ResolveError) -> Self {
        ProjectOpError::Resolve(Box::new(e))
    }
}

impl From<agx_clients::ClientError> for ProjectOpError {
    fn from(e: agx_clients::ClientError) -> Self {
        ProjectOpError::Ops(e.into())
    }
}

impl From<agx_store::StoreError> for ProjectOpError {
    fn from(e: agx_store::StoreError) -> Self {
        ProjectOpError::Ops(e.into())
    }
}

impl From<agx_sources::index::IndexError> for ProjectOpError {
    fn from(e: agx_sources::index::IndexError) -> Self {
        ProjectOpError::Ops(e.into())
    }
}

impl agx_core::error::Hint for ProjectOpError {
    fn hint(&self) -> Option<String> {
        match self {
            ProjectOpError::Project(e) => e.hint(),
            ProjectOpError::Ops(e) => e.hint(),
            ProjectOpError::Resolve(e) => e.hint(),
            ProjectOpError::WhichServer { target, servers } => Some(format!(
                "write `server = \"{target}/<server>\"`; its servers: {}",
                servers.join(", ")
            )),
            ProjectOpError::NoSuchServer { servers, .. } => {
                Some(format!("its servers: {}", servers.join(", ")))
            }
            ProjectOpError::LockWouldChange { .. } => Some(
                "run `agx lock` (or `agx sync` without --locked) and commit agx.lock".into(),
            ),
            ProjectOpError::NoLock { .. } => {
                Some("run `agx lock` to create it, and commit it".into())
            }
            ProjectOpError::Collision { .. } => Some(
                "rename the server in agx.toml, remove that entry by hand, or run `agx sync --force` to replace it"
                    .into(),
            ),
            ProjectOpError::KeyTaken { key, .. } => Some(format!(
                "choose another key with --name, or `agx remove {key}` first"
            )),
            ProjectOpError::NoKey { known, .. } => Some(if known.is_empty() {
                "the project has no servers or skills".into()
            } else {
                format!("its keys: {}", known.join(", "))
            }),
            ProjectOpError::BadSpec { .. } => Some(
                "write `publisher/package/server`, `publisher/package` (one server), optionally `@^1.2`"
                    .into(),
            ),
            ProjectOpError::BadSkillSpec { .. } => {
                Some("write `publisher/package/skill`, optionally `@^1.2`".into())
            }
            ProjectOpError::Edit { .. } => {
                Some("fix the file (`agx validate` shows where), then run the command again".into())
            }
            ProjectOpError::Drift { .. } => {
                Some("run `agx sync` to bring the lock, the store and the client files in line".into())
            }
        }
    }
}

pub type ProjectResult<T> = Result<T, ProjectOpError>;

/// Find and load the project (`--project DIR` / `AGX_PROJECT`, else walking up).
pub fn open(explicit: Option<&Path>) -> ProjectResult<Project> {
    let dir = find_project(explicit)?;
    Ok(Project::load(&dir)?)
}

/// Find the project and load it under its lock, for a command that rewrites its files.
fn open_locked(explicit: Option<&Path>) -> ProjectResult<(Project, FileLock)> {
    let dir = find_project(explicit)?;
    let held = lock_project(&dir)?;
    Ok((Project::load(&dir)?, held))
}

/// What `agx lock --upgrade…` lets move.
#[derive(Debug, Clone, Default)]
pub enum Upgrade {
    /// Keep every locked version that still fits.
    #[default]
    None,
    All,
    Packages(Vec<PackageName>),
}

/// Why the lock does not describe agx.toml (empty: it does): the recorded inputs (each
/// key's `server`, `skill`, `path`, `version` and `args` as written), and the content of
/// the project's own skill folders.
pub fn stale_reasons(project: &Project, lock: &LockFile) -> Vec<String> {
    let mut reasons = input_reasons(project, lock);
    for s in &lock.skill_folders {
        let declared = matches!(project.skills.get(&s.key), Some(SkillDecl::Folder { path }) if *path == s.path);
        // The folder is the project's own: an edit to it is a change to lock.
        if declared && !super::project_skills::folder_has_content(project, s) {
            reasons.push(format!("skill folder {} of `{}` changed", s.path, s.key));
        }
    }
    reasons
}

/// [`stale_reasons`] from the recorded inputs alone: no file but agx.toml and agx.lock read.
fn input_reasons(project: &Project, lock: &LockFile) -> Vec<String> {
    let mut reasons = Vec::new();
    for (key, decl) in &project.servers {
        match lock.server(key) {
            None => reasons.push(format!("`{key}` is not locked")),
            Some(s)
                if s.server != decl.target.to_string()
                    || s.requirement != decl.version
                    || s.args != decl.args =>
            {
                reasons.push(format!("`{key}` changed in {PROJECT_FILE}"))
            }
            Some(_) => {}
        }
    }
    for s in &lock.servers {
        if !project.servers.contains_key(&s.key) {
            reasons.push(format!("`{}` is no longer in {PROJECT_FILE}", s.key));
        }
    }
    for (key, decl) in &project.skills {
        match decl {
            SkillDecl::Package(decl) => match lock.skill(key) {
                None => reasons.push(format!("skill `{key}` is not locked")),
                Some(s) if s.skill != decl.skill.to_string() || s.requirement != decl.version => {
                    reasons.push(format!("skill `{key}` changed in {PROJECT_FILE}"))
                }
                Some(_) => {}
            },
            SkillDecl::Folder { path } => match lock.skill_folder(key) {
                None => reasons.push(format!("skill `{key}` is not locked")),
                Some(s) if &s.path != path => {
                    reasons.push(format!("skill `{key}` changed in {PROJECT_FILE}"))
                }
                Some(_) => {}
            },
        }
    }
    let gone = |key: &str, folder: bool| match project.skills.get(key) {
        Some(SkillDecl::Folder { .. }) => !folder,
        Some(SkillDecl::Package(_)) => folder,
        None => true,
    };
    let locked = (lock.skills.iter().map(|s| (&s.key, false)))
        .chain(lock.skill_folders.iter().map(|s| (&s.key, true)));
    for (key, folder) in locked {
        if gone(key, folder) {
            reasons.push(format!("skill `{key}` is no longer in {PROJECT_FILE}"));
        }
    }
    reasons
}

/// Resolve agx.toml's servers into a lock. Versions of `previous` that still fit (and come
/// from the same registry) are kept unless `upgrade` lets them move.
pub fn resolve_lock(
    ctx: &Context,
    project: &Project,
    previous: Option<&LockFile>,
    upgrade: &Upgrade,
) -> ProjectResult<LockFile> {
    // Every package a server or a skill names, with its requirement; a package two keys
    // name must meet both requirements.
    let mut wanted: BTreeMap<&PackageName, semver::VersionReq> = BTreeMap::new();
    let named = project
        .servers
        .values()
        .map(|d| (d.target.package(), &d.requirement))
        .chain(
            (project.skills.values())
                .filter_map(SkillDecl::package)
                .map(|d| (&d.skill.package, &d.requirement)),
        );
    for (name, requirement) in named {
        wanted
            .entry(name)
            .or_insert(semver::VersionReq::STAR)
            .comparators
            .extend(requirement.comparators.iter().cloned());
    }
    // Imported plugins are provisioned again from their marketplace, like ecosystem packages.
    let mut plugins: BTreeMap<PackageName, PluginRef> = BTreeMap::new();
    for name in wanted.keys() {
        if !provisioned(name)
            && let Some(reference) = plugin_origin(ctx, &project.dir, name, previous)?
        {
            plugins.insert((*name).clone(), reference);
        }
    }
    // npm and PyPI packages, MCP registry entries and plugins are locked as provisioning
    // installs them (a skill's as a server's); the rest resolve in an agx registry or a
    // `.well-known` site.
    let (ecosystem, native): (Vec<_>, Vec<_>) = wanted
        .into_iter()
        .partition(|(name, _)| provisioned(name) || plugins.contains_key(*name));
    let mut packages: BTreeMap<PackageName, LockedPackage> = BTreeMap::new();
    let mut summaries: BTreeMap<PackageName, Vec<String>> = BTreeMap::new();
    // Skills of a `.well-known` site resolve from it; everything else from the registry.
    let sites = ctx.sites()?;
    let mut groups: BTreeMap<Option<&str>, Vec<(&PackageName, semver::VersionReq)>> =
        BTreeMap::new();
    for (name, requirement) in native {
        groups
            .entry(sites.of(name))
            .or_default()
            .push((name, requirement));
    }
    for (site, native) in groups {
        let registry = match site {
            Some(site) => ctx.open_site(site)?,
            None => ctx.open_registry()?,
        };
        let source = registry.source().to_string();
        let keep: BTreeMap<PackageName, semver::Version> = previous
            .map(|l| l.packages.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|p| p.source == source)
            .filter(|p| match upgrade {
                Upgrade::None => true,
                Upgrade::All => false,
                Upgrade::Packages(names) => !names.contains(&p.name),
            })
            .map(|p| (p.name.clone(), p.version.clone()))
            .collect();
        let roots: Vec<PackageSpec> = native
            .into_iter()
            .map(|(name, requirement)| PackageSpec {
                name: name.clone(),
                req: Some(requirement),
            })
            .collect();
        let fetch = |name: &PackageName| registry.versions(name);
        let resolution = resolve::resolve(&roots, &keep, &fetch)?;
        // Read after the index files, which loaded the signed source's metadata.
        let root_keys = registry.root_key_ids()?;
        let chosen: BTreeMap<PackageName, semver::Version> = resolution
            .packages
            .iter()
            .map(|p| (p.name.clone(), p.version.clone()))
            .collect();
        for p in &resolution.packages {
            let locked = match &p.entry {
                Some(entry) => {
                    let mut locked = locked_from_index(entry, &source, &root_keys, &chosen);
                    locked.provenance = locked_provenance(ctx, &registry, entry, previous)?;
                    locked
                }
                // Kept, though the registry no longer lists it: the lock already has it.
                None => previous
                    .and_then(|l| l.packages.iter().find(|x| x.name == p.name))
                    .cloned()
                    .ok_or_else(|| OpsError::Unknown {
                        name: p.name.clone(),
                    })?,
            };
            if let Some(entry) = &p.entry {
                summaries.insert(
                    p.name.clone(),
                    entry
                        .extension
                        .servers
                        .iter()
                        .map(|s| s.name.clone())
                        .collect(),
                );
            }
            packages.insert(p.name.clone(), locked);
        }
    }
    for (name, requirement) in &ecosystem {
        let plugin = plugins.get(*name);
        let (locked, servers) = lock_ecosystem(ctx, &project.dir, name, requirement, plugin)?;
        summaries.insert(locked.name.clone(), servers);
        packages.insert(locked.name.clone(), locked);
    }
    let mut servers = Vec::new();
    for (key, decl) in &project.servers {
        let name = decl.target.package();
        let package = &packages[name];
        let launches = launched_server(&decl.target, summaries.get(name))?;
        servers.push(LockedServer {
            key: key.clone(),
            server: decl.target.to_string(),
            requirement: decl.version.clone(),
            args: decl.args.clone(),
            entry: entry_hash(&project_entry(&launches, &package.version, &decl.args)),
            launches,
            package: name.clone(),
            version: package.version.clone(),
        });
    }
    let mut packages: Vec<LockedPackage> = packages.into_values().collect();
    for package in &mut packages {
        package.pins = locked_pins(ctx, package, previous)?;
    }
    let skills = super::project_skills::lock_skills(ctx, project, &packages)?;
    let folders = super::project_skills::lock_skill_folders(project)?;
    Ok(LockFile::new(servers, skills, packages).with_skill_folders(folders))
}

/// The pinned definitions to lock for `package`: each server's pins on this machine (what
/// `agx serve` pinned or `agx trust` accepted here), else what `previous` locked for the
/// same version (docs/security.md, "Pinned definitions").
fn locked_pins(
    ctx: &Context,
    package: &LockedPackage,
    previous: Option<&LockFile>,
) -> ProjectResult<BTreeMap<String, agx_store::pins::PinDigests>> {
    let mut pins = previous
        .and_then(|lock| lock.package(&package.name))
        .filter(|p| p.version == package.version)
        .map(|p| p.pins.clone())
        .unwrap_or_default();
    for (server, file) in ctx.store().pins_of(&package.name, &package.version) {
        if let Some(local) = agx_store::pins::Pins::read(&file)? {
            pins.insert(server, local.digests());
        }
    }
    Ok(pins)
}

/// Pin on this machine what the lock pins for each version it holds (the lock is the
/// project's authority): a server's pins file follows the lock's hashes, keeping the
/// definitions it holds where they match. Returns the servers whose pins changed.
fn follow_locked_pins(ctx: &Context, lock: &LockFile) -> ProjectResult<Vec<String>> {
    let store = ctx.store();
    let mut changed = Vec::new();
    for package in &lock.packages {
        let dir = store.package_dir(&package.name, &package.version);
        for (server, digests) in &package.pins {
            let Some(file) = store.pins_file(&dir, server) else {
                continue;
            };
            let mut pins =
                agx_store::pins::Pins::read(&file)?.unwrap_or_else(agx_store::pins::Pins::new);
            if pins.follow(digests) {
                pins.write(&file)?;
                changed.push(format!("{}/{server}", package.name));
            }
        }
    }
    Ok(changed)
}

/// What the lock records of who signed `entry` (a version with a Sigstore bundle, or one
/// of a package the previous lock knew as signed): its bundle verified against the archive's
/// sha256, and trust on first use against the previous lock, as an install does against
/// the receipts. A version locked before with the same bytes keeps what was recorded.
fn locked_provenance(
    ctx: &Context,
    registry: &agx_sources::index::Registry,
    entry: &IndexEntry,
    previous: Option<&LockFile>,
) -> ProjectResult<Option<agx_store::provenance::Provenance>> {
    let before = previous.and_then(|lock| lock.package(&entry.name));
    if let Some(before) = before
        && before.version == entry.vers
        && before.sha256 == entry.cksum
        && before.provenance.is_some()
    {
        return Ok(before.provenance.clone());
    }
    let earlier = before.and_then(|p| p.provenance.as_ref());
    let signer = registry.signer_of(entry, earlier.and_then(|p| p.trusted.as_ref()))?;
    if signer.is_none() && earlier.is_none_or(|p| p.trusted.is_none()) {
        return Ok(None);
    }
    Ok(Some(agx_store::provenance::decide(
        &entry.name,
        &entry.vers,
        (earlier, agx_store::provenance::Basis::LockedVersion),
        signer,
        ctx.signer_changes,
    )?))
}

fn locked_from_index(
    entry: &IndexEntry,
    source: &str,
    root_keys: &[String],
    chosen: &BTreeMap<PackageName, semver::Version>,
) -> LockedPackage {
    LockedPackage {
        name: entry.name.clone(),
        version: entry.vers.clone(),
        source: source.to_string(),
        sha256: entry.cksum.clone(),
        integrity: Vec::new(),
        root_keys: root_keys.to_vec(),
        pins: Default::default(),
        provenance: None,
        dependencies: entry
            .deps
            .keys()
            .filter_map(|d| Some((d.clone(), chosen.get(d)?.clone())))
            .collect(),
    }
}

/// Whether a package is provisioned (from another ecosystem or an MCP registry entry)
/// rather than resolved in an agx registry.
fn provisioned(name: &PackageName) -> bool {
    name.is_ecosystem() || agx_sources::index::mcp_registry::is_server_name(&name.to_string())
}

/// Where the imported plugin `name` is provisioned from: the marketplace and plugin of its
/// previous lock's `plugin:` source, else of its receipt; `None` when it is not one.
fn plugin_origin(
    ctx: &Context,
    dir: &Path,
    name: &PackageName,
    previous: Option<&LockFile>,
) -> ProjectResult<Option<PluginRef>> {
    let locked = previous
        .and_then(|l| l.package(name))
        .and_then(|p| agx_sources::plugins::import::parse_lock_source(&p.source, dir, name))
        .and_then(Result::ok);
    if locked.is_some() {
        return Ok(locked);
    }
    Ok(
        match ctx.store().installed(name)?.map(|p| p.receipt.source) {
            Some(Source::Plugin {
                reference,
                marketplace,
                ..
            }) => agx_sources::plugins::import::parse_lock_source(
                &agx_sources::plugins::import::lock_source(&reference, &marketplace),
                dir,
                name,
            )
            .and_then(Result::ok),
            _ => None,
        },
    )
}

/// An ecosystem package, MCP registry entry or imported plugin (`plugin`, from its
/// marketplace) is locked at what provisioning installs: its exact source and integrity
/// hashes (a plugin's revision), from the receipt (installing it first when needed).
fn lock_ecosystem(
    ctx: &Context,
    dir: &Path,
    name: &PackageName,
    requirement: &semver::VersionReq,
    plugin: Option<&PluginRef>,
) -> ProjectResult<(LockedPackage, Vec<String>)> {
    let store = ctx.store();
    let fits = |p: &agx_store::InstalledPackage| requirement.matches(&p.version);
    if let Some(reference) = plugin {
        if !store.installed(name)?.is_some_and(|p| fits(&p)) {
            super::install::install(
                ctx,
                &[super::install::Target::Plugin(reference.clone())],
                false,
            )?;
        }
    } else if !store.installed(name)?.is_some_and(|p| fits(&p)) && !name.is_ecosystem() {
        let entry = agx_sources::ecosystem::EntrySpec {
            name: name.clone(),
            version: None,
        };
        super::install::install(ctx, &[super::install::Target::Entry(entry)], false)?;
    } else if !store.installed(name)?.is_some_and(|p| fits(&p)) {
        let ecosystem = name.publisher().unwrap_or_default();
        let spec = agx_sources::ecosystem::EcosystemSpec::parse(&format!(
            "{ecosystem}:{}",
            name.native_name()
        ))
        .expect("an ecosystem publisher")
        .map_err(OpsError::from)?;
        super::install::install(ctx, &[super::install::Target::Ecosystem(spec)], false)?;
    }
    let installed = store
        .installed(name)?
        .ok_or_else(|| OpsError::Unknown { name: name.clone() })?;
    let (source, integrity) = match &installed.receipt.source {
        Source::Ecosystem {
            spec,
            integrity,
            entry,
            ..
        } => (
            entry
                .as_ref()
                .map_or_else(|| spec.clone(), |e| e.lock_source()),
            integrity.clone(),
        ),
        Source::Plugin {
            reference,
            marketplace,
            revision,
            ..
        } => (
            agx_sources::plugins::import::lock_source(reference, &within_project(dir, marketplace)),
            vec![revision.clone()],
        ),
        other => (other.to_string(), Vec::new()),
    };
    let servers = installed
        .receipt
        .extension
        .servers
        .iter()
        .map(|s| s.name.clone())
        .collect();
    Ok((
        LockedPackage {
            name: name.clone(),
            version: installed.version.clone(),
            source,
            sha256: installed.receipt.sha256.clone(),
            integrity,
            root_keys: Vec::new(),
            pins: Default::default(),
            // Who built it, as its install verified (npm and PyPI provenance): `agx sync`
            // holds every machine to it.
            provenance: installed.receipt.provenance.clone(),
            dependencies: Vec::new(),
        },
        servers,
    ))
}

/// A marketplace folder inside the project as `./<path>` (with `/`), so that the lock
/// names it wherever the project is checked out; any other location as it is.
fn within_project(dir: &Path, location: &str) -> String {
    let path = Path::new(location);
    let inside = path
        .strip_prefix(dir)
        .ok()
        .map(Path::to_path_buf)
        .or_else(|| {
            let (path, dir) = (path.canonicalize().ok()?, dir.canonicalize().ok()?);
            path.strip_prefix(dir).ok().map(Path::to_path_buf)
        });
    match inside {
        Some(relative) if !location.contains("://") => {
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            format!("./{}", parts.join("/"))
        }
        _ => location.to_string(),
    }
}

/// The qualified server an entry launches: as written, or a one-server package's server.
fn launched_server(target: &ServerTarget, servers: Option<&Vec<String>>) -> ProjectResult<String> {
    let servers = servers.cloned().unwrap_or_default();
    match target {
        ServerTarget::Server(q) => {
            if !servers.is_empty() && !servers.iter().any(|s| s == q.item.as_str()) {
                return Err(ProjectOpError::NoSuchServer {
                    package: q.package.to_string(),
                    server: q.item.to_string(),
                    servers,
                });
            }
            Ok(q.to_string())
        }
        ServerTarget::Package(p) => match servers.as_slice() {
            [one] => Ok(format!("{p}/{one}")),
            _ => Err(ProjectOpError::WhichServer {
                target: p.to_string(),
                servers,
            }),
        },
    }
}

/// Write the lock when its text changed; true when written.
fn write_lock(dir: &Path, lock: &LockFile) -> ProjectResult<bool> {
    let path = dir.join(LOCK_FILE);
    let text = lock.to_text();
    if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
        return Ok(false);
    }
    agx_core::atomic::write_file(&path, text.as_bytes(), None)
        .map_err(|source| ProjectError::Write { path, source })?;
    Ok(true)
}

/// What `agx lock` did.
#[derive(Debug, Serialize)]
pub struct LockReport {
    pub project: PathBuf,
    pub written: bool,
    /// Packages whose locked version changed, as `name old → new` (`+name v`, `-name v`).
    pub changes: Vec<String>,
}

/// `agx lock`: resolve agx.toml into agx.lock. A lock that does not parse (a merge conflict)
/// is regenerated from agx.toml.
pub fn lock(
    ctx: &Context,
    explicit: Option<&Path>,
    upgrade: &Upgrade,
) -> ProjectResult<LockReport> {
    let (project, _held) = open_locked(explicit)?;
    check_setting_values(ctx, &project)?;
    let previous = LockFile::read(&project.dir).ok().flatten();
    let lock = resolve_lock(ctx, &project, previous.as_ref(), upgrade)?;
    let written = write_lock(&project.dir, &lock)?;
    Ok(LockReport {
        changes: package_changes(previous.as_ref(), &lock),
        project: project.dir,
        written,
    })
}

fn package_changes(before: Option<&LockFile>, after: &LockFile) -> Vec<String> {
    let old: BTreeMap<&PackageName, &semver::Version> = before
        .map(|l| l.packages.iter().map(|p| (&p.name, &p.version)).collect())
        .unwrap_or_default();
    let new: BTreeMap<&PackageName, &semver::Version> = after
        .packages
        .iter()
        .map(|p| (&p.name, &p.version))
        .collect();
    let mut out = Vec::new();
    for (name, v) in &new {
        match old.get(name) {
            None => out.push(format!("+{name} {v}")),
            Some(o) if o != v => out.push(format!("{name} {o} → {v}")),
            Some(_) => {}
        }
    }
    for (name, v) in &old {
        if !new.contains_key(name) {
            out.push(format!("-{name} {v}"));
        }
    }
    out
}

/// How `sync` treats the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockMode {
    /// Relock when agx.toml changed.
    #[default]
    Update,
    /// Fail when the lock would change.
    Locked,
    /// Use the lock as it is, without comparing it with agx.toml.
    Frozen,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct SyncOptions {
    pub mode: LockMode,
    /// Change nothing; report every difference.
    pub check: bool,
    /// Replace hand-written entries whose keys the project uses.
    pub force: bool,
    /// Start each newly installed server that keeps a compile cache once
    /// ([`crate::warm`]).
    pub warm: bool,
}

/// One entry written, removed or found different.
#[derive(Debug, Clone, Serialize)]
pub struct EntrySync {
    pub client: &'static str,
    pub file: PathBuf,
    pub key: String,
    /// `added`, `updated`, `removed`.
    pub action: &'static str,
}

/// What `sync` did (or, with --check, would do).
#[derive(Debug, Default, Serialize)]
pub struct SyncReport {
    pub project: PathBuf,
    pub lock_written: bool,
    /// Packages installed, as `name version`.
    pub installed: Vec<String>,
    pub entries: Vec<EntrySync>,
    /// Clients without a project-scope file: nothing written for them.
    pub skipped_clients: Vec<&'static str>,
    /// Skill copies written, removed, kept or found different.
    pub skills: Vec<super::project_skills::SkillSync>,
    /// With --check: every difference found (empty when in sync).
    pub differences: Vec<String>,
}

/// `agx sync`.
pub fn sync(
    ctx: &Context,
    explicit: Option<&Path>,
    options: SyncOptions,
) -> ProjectResult<SyncReport> {
    if options.check {
        return sync_project(ctx, &open(explicit)?, options);
    }
    let (project, _held) = open_locked(explicit)?;
    sync_project(ctx, &project, options)
}

fn sync_project(
    ctx: &Context,
    project: &Project,
    options: SyncOptions,
) -> ProjectResult<SyncReport> {
    // The clients first: a refused one stops the sync before anything is written.
    let policy = super::policy::gate(ctx, Some(&project.dir)).map_err(OpsError::from)?;
    for client in project.all_clients() {
        policy.check_client(client.id).map_err(OpsError::from)?;
    }
    let mut report = SyncReport {
        project: project.dir.clone(),
        ..Default::default()
    };
    let existing = LockFile::read(&project.dir)?;
    // A new lock is written only once everything it pins is installed and the project's
    // setting values fit those versions: a refused sync leaves agx.lock as it was.
    let mut lock_changed = false;
    let lock = match (existing, options.mode) {
        (None, LockMode::Frozen | LockMode::Locked) => {
            return Err(ProjectOpError::NoLock {
                dir: project.dir.clone(),
            });
        }
        (Some(lock), LockMode::Frozen) => lock,
        (existing, mode) => {
            let reasons = match &existing {
                Some(lock) => stale_reasons(project, lock),
                None => vec![format!("there is no {LOCK_FILE}")],
            };
            match existing {
                Some(lock) if reasons.is_empty() => lock,
                _ if options.check => {
                    report
                        .differences
                        .extend(reasons.iter().map(|r| format!("lock stale: {r}")));
                    // Compare the rest with what the lock pins today, if anything.
                    LockFile::read(&project.dir)?
                        .unwrap_or_else(|| LockFile::new(vec![], vec![], vec![]))
                }
                _ if mode == LockMode::Locked => {
                    return Err(ProjectOpError::LockWouldChange { reasons });
                }
                existing => {
                    lock_changed = true;
                    // Only the project's own skill folders changed (edited, added, removed):
                    // their hashes are relocked, not every package (no registry needed).
                    let folders_only = match &existing {
                        Some(lock) => {
                            let folders = super::project_skills::lock_skill_folders(project)?;
                            Some(lock.clone().with_skill_folders(folders))
                                .filter(|relocked| input_reasons(project, relocked).is_empty())
                        }
                        None => None,
                    };
                    match folders_only {
                        Some(relocked) => relocked,
                        None => resolve_lock(ctx, project, existing.as_ref(), &Upgrade::None)?,
                    }
                }
            }
        }
    };
    // Nothing is installed or written from a lock whose fields disagree. --frozen does not
    // compare versions with agx.toml, but each key must still launch what agx.toml says.
    let declared = (options.mode == LockMode::Frozen).then_some(project);
    super::lock_check::check_fields(&project.dir, &lock, declared).map_err(ProjectError::from)?;
    install_packages(ctx, project, &lock, options, &mut report)?;
    // After installing: the declarations the values are checked against are known now
    // (an install checked them before the project's root was written).
    check_setting_values(ctx, project)?;
    if !options.check {
        check_profile_names(ctx, project, &lock)?;
    }
    if lock_changed {
        report.lock_written = write_lock(&project.dir, &lock)?;
    }
    let wanted = wanted_entries(ctx, project, &lock, options.check, &mut report)?;
    write_entries(ctx, project, &wanted, options, &mut report)?;
    super::project_skills::sync_skills(ctx, project, &lock, options, &mut report)?;
    Ok(report)
}

/// A profile with `namespace = "none"` whose servers would show one tool name is refused
/// before anything is written, naming both keys, as `install-server @NAME` refuses it: each
/// member is asked for its tools (docs/profiles.md, "Names").
fn check_profile_names(ctx: &Context, project: &Project, lock: &LockFile) -> ProjectResult<()> {
    for profile in project.profiles.values() {
        if profile.namespace != agx_project::profile::Namespace::None {
            continue;
        }
        let mut profile = profile.clone();
        agx_project::pin_profile(&mut profile, project, &project.dir, Some(lock));
        super::tools::profile_tools(ctx, &profile, false)?;
    }
    Ok(())
}

/// The project's setting values against their installed packages' declarations, exactly
/// as `agx validate` checks them (E203, E204, E205).
fn check_setting_values(ctx: &Context, project: &Project) -> ProjectResult<()> {
    let store = ctx.store();
    let declared = |name: &PackageName| {
        agx_project::manifest::installed_settings(&store, Some(&project.dir), name)
    };
    Ok(agx_project::manifest::check_setting_values(
        &project.dir,
        &declared,
    )?)
}

/// Install the locked packages that are missing and make the project's root hold exactly
/// the lock's versions (with --check: list what differs, changing nothing).
fn install_packages(
    ctx: &Context,
    project: &Project,
    lock: &LockFile,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    if options.check {
        if locked_packages_synced(ctx, &project.dir, &lock.packages) {
            return Ok(());
        }
        let missing: Vec<String> = lock
            .packages
            .iter()
            .filter(|p| !crate::locked::is_installed(ctx, &p.name, &p.version))
            .map(|p| format!("package missing: {} {}", p.name, p.version))
            .collect();
        if missing.is_empty() {
            // Everything is there, but the store does not record this project as holding
            // it: `agx gc` would remove it.
            report.differences.push(
                "the store does not record this project as holding its locked versions".into(),
            );
        }
        report.differences.extend(missing);
        return Ok(());
    }
    let installed = install_locked_packages(ctx, &project.dir, &lock.packages)?;
    // Before any server starts (`--warm`): what the lock pins holds here too.
    follow_locked_pins(ctx, lock)?;
    if options.warm {
        let store = ctx.store();
        let targets: Vec<_> = installed
            .installed
            .iter()
            .filter_map(|(name, version)| {
                agx_model::manifest::load_installed(&store.package_dir(name, version)).ok()
            })
            .flat_map(|package| crate::warm::targets_of(&package))
            .collect();
        crate::warm::warm(ctx, &targets);
    }
    report.installed.extend(
        installed
            .installed
            .iter()
            .map(|(name, version)| format!("{name} {version}")),
    );
    Ok(())
}

/// The entries the project wants in every client file: key → (server, version).
/// agx.local.toml's servers are not locked: each is pinned at the installed version while
/// it fits its requirement, else resolved and installed afresh.
fn wanted_entries(
    ctx: &Context,
    project: &Project,
    lock: &LockFile,
    check: bool,
    report: &mut SyncReport,
) -> ProjectResult<BTreeMap<String, ServerEntry>> {
    let mut wanted = BTreeMap::new();
    // The committed keys: what their locked packages produce, never the lock's text alone.
    let committed = project
        .active_servers()
        .map(|(key, _)| key)
        .filter(|key| project.servers.contains_key(*key));
    let mut locked = super::lock_check::locked_entries(ctx, &project.dir, lock, committed)
        .map_err(ProjectError::from)?;
    for (key, decl) in project.active_servers() {
        if project.servers.contains_key(key) {
            // Absent: a stale lock under --check, already reported.
            if let Some(entry) = locked.remove(key) {
                wanted.insert(key.clone(), entry);
            }
            continue;
        }
        let store = ctx.store();
        let name = decl.target.package();
        let fits = |s: &agx_store::Store| -> ProjectResult<Option<agx_store::InstalledPackage>> {
            Ok(s.installed(name)?
                .filter(|p| decl.requirement.matches(&p.version)))
        };
        let installed = match fits(&store)? {
            Some(p) => p,
            None if check => {
                report.differences.push(format!(
                    "package missing: {name} {} (agx.local.toml `{key}`)",
                    decl.version
                ));
                continue;
            }
            None => {
                let spec = PackageSpec {
                    name: name.clone(),
                    req: Some(decl.requirement.clone()),
                };
                super::install::install(ctx, &[super::install::Target::Spec(spec)], false)?;
                let p = fits(&store)?.ok_or_else(|| OpsError::Unknown { name: name.clone() })?;
                report.installed.push(format!("{} {}", p.name, p.version));
                p
            }
        };
        // A personal server is held to the policy as a locked one is.
        super::policy::gate(ctx, Some(&project.dir))
            .map_err(OpsError::from)?
            .check_installed(&store, &installed.name, &installed.version)
            .map_err(OpsError::from)?;
        let servers: Vec<String> = installed
            .receipt
            .extension
            .servers
            .iter()
            .map(|s| s.name.clone())
            .collect();
        let launches = launched_server(&decl.target, Some(&servers))?;
        wanted.insert(
            key.clone(),
            project_entry(&launches, &installed.version, &decl.args),
        );
    }
    // A profile is one entry, `agx serve @NAME`; the servers it lists are served through
    // it and get no entry of their own (docs/profiles.md).
    for (name, profile) in &project.profiles {
        for member in &profile.members {
            if project.servers.contains_key(&member.key) {
                wanted.remove(&member.key);
            }
        }
        wanted.insert(name.clone(), profile_entry(name));
    }
    Ok(wanted)
}

/// The committed entry of profile `name`: bare `agx serve @NAME` (the members' versions
/// come from agx.lock when it starts).
pub fn profile_entry(name: &str) -> ServerEntry {
    ServerEntry {
        command: "agx".into(),
        args: vec!["serve".into(), format!("@{name}")],
        env: BTreeMap::new(),
    }
}

/// The qualified server an agx entry launches, without its `@=version` pin.
fn launched_base(entry: &ServerEntry) -> Option<&str> {
    let server = entry.agx_server()?;
    // The last `@` not followed by a `/` starts the pin (`npm/@scope/x@=1.0.0`); a profile,
    // `@NAME`, has none.
    Some(match server.rsplit_once('@') {
        Some((base, pin)) if !base.is_empty() && !pin.contains('/') => base,
        _ => server,
    })
}

/// Write the wanted entries into each client's project file and remove the ones sync
/// wrote before that are no longer wanted.
fn write_entries(
    ctx: &Context,
    project: &Project,
    wanted: &BTreeMap<String, ServerEntry>,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    let mut state = SyncState::load(ctx.paths, &project.dir);
    let before = state.entries.clone();
    let mut keep: BTreeSet<WrittenEntry> = BTreeSet::new();
    let mut docs: std::collections::HashMap<PathBuf, Box<dyn agx_edit::ConfigDoc>> =
        std::collections::HashMap::new();
    for client in project.all_clients() {
        if client.project.is_none() {
            report.skipped_clients.push(client.id);
            continue;
        }
        for (key, entry) in wanted {
            let target = Target::new(client, Scope::Project, Some(&project.dir), None, key, &host)?;
            let written = WrittenEntry {
                client: client.id.to_string(),
                file: target.file.clone(),
                key: key.clone(),
            };
            // Most syncs change nothing: compare with each file read once, and plan (under
            // the file's lock) only the entries that differ.
            if !docs.contains_key(&target.file) {
                docs.insert(target.file.clone(), clients::read_doc(&target)?.1);
            }
            let doc = &docs[&target.file];
            let up_to_date = doc.get(&target.container, key).is_some_and(|old| {
                shape::merge(&old, &shape::render(client.shape, key, entry)) == old
            });
            let action = if up_to_date {
                None
            } else {
                sync_entry(
                    &target,
                    key,
                    entry,
                    state.entries.contains(&written),
                    options,
                )?
            };
            if action.is_some() && !options.check {
                docs.remove(&target.file);
            }
            if let Some(action) = action {
                if options.check {
                    report.differences.push(format!(
                        "{}: entry `{key}` is {} ({})",
                        target.file.display(),
                        if action == "added" {
                            "missing"
                        } else {
                            "different"
                        },
                        client.id
                    ));
                }
                report.entries.push(EntrySync {
                    client: client.id,
                    file: target.file.clone(),
                    key: key.clone(),
                    action,
                });
            }
            keep.insert(written);
        }
    }
    for old in before.difference(&keep) {
        let Some(client) = agx_model::client_table::find(&old.client) else {
            continue;
        };
        let target = Target::new(
            client,
            Scope::Project,
            Some(&project.dir),
            Some(&old.file),
            &old.key,
            &host,
        )?;
        if options.check {
            let change = clients::plan_uninstall(&target, &old.key)?;
            if change.outcome == Outcome::Removed {
                report.differences.push(format!(
                    "{}: entry `{}` is no longer in the project",
                    old.file.display(),
                    old.key
                ));
            }
            continue;
        }
        if target.file.exists() {
            let _lock = clients::apply::lock_client_file(&target.file)?;
            let change = match clients::plan_uninstall(&target, &old.key) {
                Ok(change) => change,
                // Edited by hand since: no longer ours to remove.
                Err(clients::ClientError::NotAgxEntry { .. }) => continue,
                Err(e) => return Err(e.into()),
            };
            if change.outcome == Outcome::Removed {
                change.apply()?;
                report.entries.push(EntrySync {
                    client: client.id,
                    file: old.file.clone(),
                    key: old.key.clone(),
                    action: "removed",
                });
            }
        }
        state.entries.remove(old);
    }
    if !options.check {
        state.entries.extend(keep);
        state.save(&before)?;
    }
    Ok(())
}

/// Plan (and unless checking, write) one entry; `None` when it is already as wanted.
fn sync_entry(
    target: &Target,
    key: &str,
    entry: &ServerEntry,
    written_before: bool,
    options: SyncOptions,
) -> ProjectResult<Option<&'static str>> {
    let (_, doc) = clients::read_doc(target)?;
    if let Some(existing) = doc.get(&target.container, key) {
        let ours = written_before
            || shape::parse(target.client.shape, &existing)
                .is_some_and(|e| launched_base(&e) == launched_base(entry));
        if !ours && !options.force {
            if options.check {
                return Ok(Some("updated"));
            }
            return Err(ProjectOpError::Collision {
                key: key.into(),
                file: target.file.clone(),
            });
        }
    }
    let _lock = if options.check {
        None
    } else {
        Some(clients::apply::lock_client_file(&target.file)?)
    };
    let change = clients::plan_install(target, key, entry, true)?;
    let action = match change.outcome {
        Outcome::Added => "added",
        Outcome::Updated => "updated",
        _ => return Ok(None),
    };
    if !options.check {
        change.apply()?;
    }
    Ok(Some(action))
}

/// Finish a `--check`: an error listing nothing more (the report has the differences).
pub fn check_result(report: &SyncReport) -> ProjectResult<()> {
    if report.differences.is_empty() {
        Ok(())
    } else {
        Err(ProjectOpError::Drift {
            count: report.differences.len(),
        })
    }
}

/// What `agx add` did.
#[derive(Debug, Serialize)]
pub struct AddReport {
    pub key: String,
    /// The server the key launches (absent for a skill).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The skill, `publisher/package/skill` (absent for a server and a skill folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// A skill folder of the project, relative to it (absent for a package's item).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The version locked (absent for a skill folder, which has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<semver::Version>,
    /// The requirement written into agx.toml (empty for a skill folder).
    pub requirement: String,
    pub created_project: bool,
    pub sync: SyncReport,
}

/// Split `acme/weather/forecast@^1.1` into the name and the requirement (checked).
fn split_requirement(spec: &str) -> ProjectResult<(&str, Option<String>)> {
    let name_end = spec.rfind('/').unwrap_or(0);
    let (name, req) = match spec[name_end..].find('@') {
        Some(i) => (&spec[..name_end + i], Some(&spec[name_end + i + 1..])),
        None => (spec, None),
    };
    if let Some(req) = req {
        agx_core::name::parse_manifest_requirement(req).map_err(|reason| {
            ProjectOpError::BadSpec {
                spec: spec.into(),
                reason,
            }
        })?;
    }
    Ok((name, req.map(str::to_string)))
}

/// Split `acme/weather/forecast@^1.1` into the server and the requirement.
fn split_spec(spec: &str) -> ProjectResult<(ServerTarget, Option<String>)> {
    let (name, req) = split_requirement(spec)?;
    let target = ServerTarget::parse(name).map_err(|e| ProjectOpError::BadSpec {
        spec: spec.into(),
        reason: e.to_string(),
    })?;
    Ok((target, req))
}

/// `agx add <server>[@req] [--name KEY]`: add (or change) the entry in agx.toml, relock,
/// sync. agx.toml is created in the current folder when no project is found. Nothing is
/// written when the server does not resolve.
pub fn add(
    ctx: &Context,
    explicit: Option<&Path>,
    spec: &str,
    key: Option<&str>,
) -> ProjectResult<AddReport> {
    // `PLUGIN@SOURCE`: the package the plugin becomes, imported first.
    let (target, req) = match agx_sources::index::marketplace::parse_plugin_ref(spec, ctx.paths)? {
        Some(reference) => (
            ServerTarget::Package(super::install::ensure_plugin(ctx, &reference)?),
            None,
        ),
        None => split_spec(spec)?,
    };
    let (dir, created, _held) = find_or_start_locked(explicit)?;
    let (file, original, mut project) = read_for_edit(&dir, created)?;
    let key = key.map(str::to_string).unwrap_or_else(|| match &target {
        ServerTarget::Server(q) => shape::default_key(q.item.as_str()),
        ServerTarget::Package(p) => shape::default_key(p.name()),
    });
    clients::plan::check_key(&key)?;
    if let Some(old) = project.servers.get(&key)
        && old.target != target
    {
        return Err(ProjectOpError::KeyTaken {
            key,
            holds: old.target.to_string(),
        });
    }
    let previous = LockFile::read(&dir).ok().flatten();
    // Resolve first with any version, to learn which one to write when none was asked for.
    let requirement_text = req.clone().unwrap_or_else(|| "*".into());
    let decl = ServerDecl {
        target: target.clone(),
        requirement: agx_core::name::parse_manifest_requirement(&requirement_text)
            .expect("checked above"),
        version: requirement_text,
        settings: project
            .servers
            .get(&key)
            .map(|d| d.settings.clone())
            .unwrap_or_default(),
        enabled: true,
        // A changed server keeps the arguments written for the key.
        args: project
            .servers
            .get(&key)
            .map(|d| d.args.clone())
            .unwrap_or_default(),
        filter: project
            .servers
            .get(&key)
            .map(|d| d.filter.clone())
            .unwrap_or_default(),
        permissions: project
            .servers
            .get(&key)
            .and_then(|d| d.permissions.clone()),
        on_change: project
            .servers
            .get(&key)
            .map(|d| d.on_change)
            .unwrap_or_default(),
    };
    project.servers.insert(key.clone(), decl);
    let mut lock = resolve_lock(ctx, &project, previous.as_ref(), &Upgrade::None)?;
    let locked = lock
        .servers
        .iter_mut()
        .find(|s| s.key == key)
        .expect("just locked");
    let version = locked.version.clone();
    // `^version` admits the version just resolved, so recording it changes no choice.
    let requirement = req.unwrap_or_else(|| format!("^{version}"));
    locked.requirement = requirement.clone();
    let text = edit_add(
        &file,
        &original,
        ("servers", "server"),
        &key,
        &target.to_string(),
        &requirement,
    )?;
    let sync = write_added(ctx, &dir, &file, &text, &lock)?;
    let launches = lock.server(&key).expect("just locked").launches.clone();
    Ok(AddReport {
        key,
        server: Some(launches),
        skill: None,
        path: None,
        version: Some(version),
        requirement,
        created_project: created,
        sync,
    })
}

/// agx.toml's path, text (empty when `created`) and project, for `add` to edit.
fn read_for_edit(dir: &Path, created: bool) -> ProjectResult<(PathBuf, String, Project)> {
    let file = dir.join(PROJECT_FILE);
    let original = match agx_core::regular_file::read_text(&file, MAX_FILE_BYTES) {
        Ok(text) => text,
        Err(ReadProblem::NotFound) => String::new(),
        Err(problem) => {
            return Err(ProjectError::Read {
                path: file,
                source: problem.into_io(),
            }
            .into());
        }
    };
    let project = if created {
        Project {
            dir: dir.to_path_buf(),
            clients: Vec::new(),
            servers: BTreeMap::new(),
            skills: BTreeMap::new(),
            profiles: BTreeMap::new(),
            local_clients: Vec::new(),
            local_servers: BTreeMap::new(),
            disabled: BTreeSet::new(),
        }
    } else {
        Project::load(dir)?
    };
    Ok((file, original, project))
}

/// `agx add --skill <skill>[@req] [--name KEY]`: add (or change) the entry in agx.toml's
/// `[skills]`, relock, sync (which copies it into the project's skills folders).
pub fn add_skill(
    ctx: &Context,
    explicit: Option<&Path>,
    spec: &str,
    key: Option<&str>,
) -> ProjectResult<AddReport> {
    if names_a_folder(spec) {
        return add_skill_folder(ctx, explicit, spec, key);
    }
    let (name, req) = split_requirement(spec)?;
    let skill = agx_project::manifest::parse_skill(name).map_err(|reason| {
        ProjectOpError::BadSkillSpec {
            spec: spec.into(),
            reason,
        }
    })?;
    let (dir, created, _held) = find_or_start_locked(explicit)?;
    let (file, original, mut project) = read_for_edit(&dir, created)?;
    let key = key.map_or_else(|| skill.item.to_string(), str::to_string);
    clients::plan::check_key(&key)?;
    match project.skills.get(&key) {
        Some(SkillDecl::Package(old)) if old.skill != skill => {
            return Err(ProjectOpError::KeyTaken {
                key,
                holds: old.skill.to_string(),
            });
        }
        Some(SkillDecl::Folder { path }) => {
            return Err(ProjectOpError::KeyTaken {
                key,
                holds: format!("the folder {path}"),
            });
        }
        _ => {}
    }
    skill_name_free(&project, &key, skill.item.as_str(), spec)?;
    let previous = LockFile::read(&dir).ok().flatten();
    let requirement_text = req.clone().unwrap_or_else(|| "*".into());
    project.skills.insert(
        key.clone(),
        SkillDecl::Package(PackageSkill {
            skill: skill.clone(),
            requirement: agx_core::name::parse_manifest_requirement(&requirement_text)
                .expect("checked above"),
            version: requirement_text,
        }),
    );
    let mut lock = resolve_lock(ctx, &project, previous.as_ref(), &Upgrade::None)?;
    let locked = lock
        .skills
        .iter_mut()
        .find(|s| s.key == key)
        .expect("just locked");
    let version = locked.version.clone();
    let requirement = req.unwrap_or_else(|| format!("^{version}"));
    locked.requirement = requirement.clone();
    let text = edit_add(
        &file,
        &original,
        ("skills", "skill"),
        &key,
        &skill.to_string(),
        &requirement,
    )?;
    let sync = write_added(ctx, &dir, &file, &text, &lock)?;
    Ok(AddReport {
        key,
        server: None,
        skill: Some(skill.to_string()),
        path: None,
        version: Some(version),
        requirement,
        created_project: created,
        sync,
    })
}

/// The end of every `agx add`: agx.toml and agx.lock written, then the project synced.
fn write_added(
    ctx: &Context,
    dir: &Path,
    file: &Path,
    text: &str,
    lock: &LockFile,
) -> ProjectResult<SyncReport> {
    agx_core::atomic::write_file(file, text.as_bytes(), None).map_err(|source| {
        ProjectError::Write {
            path: file.to_path_buf(),
            source,
        }
    })?;
    write_lock(dir, lock)?;
    sync_project(ctx, &Project::load(dir)?, SyncOptions::default())
}

/// No other key of the project names a skill called `name`: their copies would share one
/// folder (`E208` once written).
fn skill_name_free(project: &Project, key: &str, name: &str, spec: &str) -> ProjectResult<()> {
    match project
        .skills
        .iter()
        .find(|(other, decl)| other.as_str() != key && decl.name() == name)
    {
        Some((other, _)) => Err(ProjectOpError::BadSkillSpec {
            spec: spec.into(),
            reason: format!(
                "`{other}` already names a skill `{name}`, and a client loads one skill per name (their copies would share one folder)"
            ),
        }),
        None => Ok(()),
    }
}

/// Whether `agx add --skill` names a folder rather than a package's skill: a path written
/// as one (`./…`, `../…`, absolute), or an existing folder.
fn names_a_folder(spec: &str) -> bool {
    spec.starts_with("./")
        || spec.starts_with("../")
        || spec == "."
        || Path::new(spec).is_absolute()
        || (cfg!(windows) && spec.starts_with(".\\"))
        || Path::new(spec).is_dir()
}

/// `agx add --skill ./tools/skills/review`: the folder (from the current folder) as a
/// `[skills]` entry with `path`, relative to the project, which it must be inside; then
/// lock and sync as for a package's skill.
fn add_skill_folder(
    ctx: &Context,
    explicit: Option<&Path>,
    spec: &str,
    key: Option<&str>,
) -> ProjectResult<AddReport> {
    let (dir, created, _held) = find_or_start_locked(explicit)?;
    let folder = std::env::current_dir()
        .map_err(|source| ProjectError::Read {
            path: ".".into(),
            source,
        })?
        .join(spec);
    // Both the same way (on Windows `canonicalize` gives `\\?\C:\…`, the current
    // folder `C:\…`), so that one is seen inside the other.
    let (seen_dir, folder) = match (std::fs::canonicalize(&dir), std::fs::canonicalize(&folder)) {
        (Ok(seen_dir), Ok(folder)) => (seen_dir, folder),
        _ => (dir.clone(), std::path::absolute(&folder).unwrap_or(folder)),
    };
    let outside = || ProjectOpError::BadSkillSpec {
        spec: spec.into(),
        reason: format!(
            "a skill folder of the project must be inside it ({}), and named without `..`",
            dir.display()
        ),
    };
    let inside = folder.strip_prefix(&seen_dir).map_err(|_| outside())?;
    let mut parts = Vec::new();
    for part in inside.components() {
        match part {
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            std::path::Component::CurDir => {}
            _ => return Err(outside()),
        }
    }
    if parts.is_empty() {
        return Err(outside());
    }
    let path = parts.join("/");
    let name = parts.last().cloned().unwrap_or_default();
    let (file, original, mut project) = read_for_edit(&dir, created)?;
    let key = key.map_or(name, str::to_string);
    clients::plan::check_key(&key)?;
    match project.skills.get(&key) {
        Some(SkillDecl::Package(old)) => {
            return Err(ProjectOpError::KeyTaken {
                key,
                holds: old.skill.to_string(),
            });
        }
        Some(SkillDecl::Folder { path: old }) if *old != path => {
            return Err(ProjectOpError::KeyTaken {
                key,
                holds: format!("the folder {old}"),
            });
        }
        _ => {}
    }
    skill_name_free(
        &project,
        &key,
        agx_project::manifest::skill_folder_name(&path),
        spec,
    )?;
    let previous = LockFile::read(&dir).ok().flatten();
    project
        .skills
        .insert(key.clone(), SkillDecl::Folder { path: path.clone() });
    let lock = resolve_lock(ctx, &project, previous.as_ref(), &Upgrade::None)?;
    let text = edit_entry(&file, &original, "skills", &key, &[("path", &path)])?;
    let sync = write_added(ctx, &dir, &file, &text, &lock)?;
    Ok(AddReport {
        key,
        server: None,
        skill: None,
        path: Some(path),
        version: None,
        requirement: String::new(),
        created_project: created,
        sync,
    })
}

/// The project `add` edits (or the folder to start one in, and `true`), with its lock held.
/// Another agx may start the project while this one waits: the choice is made again under
/// the lock, so that it edits the file the other one wrote.
fn find_or_start_locked(explicit: Option<&Path>) -> ProjectResult<(PathBuf, bool, FileLock)> {
    let find_or_start = || -> ProjectResult<(PathBuf, bool)> {
        match find_project(explicit) {
            Ok(dir) => Ok((dir, false)),
            Err(ProjectError::NotFound { .. }) => {
                let dir = match explicit {
                    Some(d) => d.to_path_buf(),
                    None => std::env::current_dir().map_err(|source| ProjectError::Read {
                        path: ".".into(),
                        source,
                    })?,
                };
                Ok((clients::absolute_dir(&dir).unwrap_or(dir), true))
            }
            Err(e) => Err(e.into()),
        }
    };
    loop {
        let (dir, _) = find_or_start()?;
        let held = lock_project(&dir)?;
        let (again, created) = find_or_start()?;
        if again == dir {
            return Ok((dir, created, held));
        }
    }
}

/// agx.toml with `key = { server, version }` set in `[servers]` (`(table, field)`:
/// `("skills", "skill")` for a skill), every other byte kept.
fn edit_add(
    file: &Path,
    original: &str,
    (table, field): (&str, &str),
    key: &str,
    target: &str,
    requirement: &str,
) -> ProjectResult<String> {
    edit_entry(
        file,
        original,
        table,
        key,
        &[(field, target), ("version", requirement)],
    )
}

/// agx.toml with `fields` set in `[table]`'s `key` (an existing entry keeps its other keys
/// and layout, but loses `skill`, `path` and `version` not given: a key names one source),
/// every other byte kept.
fn edit_entry(
    file: &Path,
    original: &str,
    table: &str,
    key: &str,
    fields: &[(&str, &str)],
) -> ProjectResult<String> {
    let mut doc = parse_edit(file, original)?;
    if original.is_empty() {
        let mut project = toml_edit::Table::new();
        project.insert("clients", toml_edit::value(toml_edit::Array::new()));
        doc.insert("project", toml_edit::Item::Table(project));
    }
    if !doc.contains_key(table) {
        doc.insert(table, toml_edit::Item::Table(toml_edit::Table::new()));
    }
    let entries = doc[table]
        .as_table_like_mut()
        .ok_or_else(|| ProjectOpError::Edit {
            file: file.into(),
            message: format!("[{table}] is not a table"),
        })?;
    match entries.get_mut(key).and_then(|i| i.as_table_like_mut()) {
        // Keep its settings and layout: change only where it comes from.
        Some(existing) => {
            if table == "skills" {
                for source in ["skill", "path", "version"] {
                    if !fields.iter().any(|(f, _)| *f == source) {
                        existing.remove(source);
                    }
                }
            }
            for (field, value) in fields {
                existing.insert(field, toml_edit::value(*value));
            }
        }
        None => {
            let mut entry = toml_edit::InlineTable::new();
            for (field, value) in fields {
                entry.insert(*field, (*value).into());
            }
            entries.insert(key, toml_edit::value(entry));
        }
    }
    Ok(doc.to_string())
}

fn parse_edit(file: &Path, text: &str) -> ProjectResult<toml_edit::DocumentMut> {
    text.parse::<toml_edit::DocumentMut>()
        .map_err(|e| ProjectOpError::Edit {
            file: file.into(),
            message: e.message().to_string(),
        })
}

/// What `agx remove` did.
#[derive(Debug, Serialize)]
pub struct RemoveReport {
    pub key: String,
    pub sync: SyncReport,
}

/// `agx remove KEY`: drop the server or skill from agx.toml, from the lock (with the
/// packages only it needed), and from the client files or skills folders sync wrote it
/// into (a copy edited by hand is left).
pub fn remove(ctx: &Context, explicit: Option<&Path>, key: &str) -> ProjectResult<RemoveReport> {
    let (project, _held) = open_locked(explicit)?;
    let table = if project.servers.contains_key(key) {
        "servers"
    } else if project.skills.contains_key(key) {
        "skills"
    } else {
        return Err(ProjectOpError::NoKey {
            key: key.into(),
            known: project
                .servers
                .keys()
                .chain(project.skills.keys())
                .cloned()
                .collect(),
        });
    };
    let file = project.dir.join(PROJECT_FILE);
    let original = agx_core::regular_file::read_text(&file, MAX_FILE_BYTES).map_err(|problem| {
        ProjectError::Read {
            path: file.clone(),
            source: problem.into_io(),
        }
    })?;
    let mut doc = parse_edit(&file, &original)?;
    if let Some(entries) = doc.get_mut(table).and_then(|s| s.as_table_like_mut()) {
        entries.remove(key);
    }
    agx_core::atomic::write_file(&file, doc.to_string().as_bytes(), None).map_err(|source| {
        ProjectError::Write {
            path: file.clone(),
            source,
        }
    })?;
    if let Some(lock) = LockFile::read(&project.dir)? {
        write_lock(&project.dir, &prune(&lock, key))?;
    }
    let sync = sync_project(ctx, &Project::load(&project.dir)?, SyncOptions::default())?;
    Ok(RemoveReport {
        key: key.into(),
        sync,
    })
}

/// The lock without server or skill `key` and the packages nothing else reaches: no registry needed.
fn prune(lock: &LockFile, key: &str) -> LockFile {
    let servers: Vec<LockedServer> = lock
        .servers
        .iter()
        .filter(|s| s.key != key)
        .cloned()
        .collect();
    let skills: Vec<LockedSkill> = lock
        .skills
        .iter()
        .filter(|s| s.key != key)
        .cloned()
        .collect();
    let mut reached: BTreeSet<PackageName> = BTreeSet::new();
    let mut stack: Vec<PackageName> = servers
        .iter()
        .map(|s| s.package.clone())
        .chain(skills.iter().map(|s| s.package.clone()))
        .collect();
    let folders = (lock.skill_folders.iter())
        .filter(|s| s.key != key)
        .cloned()
        .collect();
    while let Some(name) = stack.pop() {
        if reached.insert(name.clone())
            && let Some(p) = lock.package(&name)
        {
            stack.extend(p.dependencies.iter().map(|(d, _)| d.clone()));
        }
    }
    let packages = lock
        .packages
        .iter()
        .filter(|p| reached.contains(&p.name))
        .cloned()
        .collect();
    LockFile::new(servers, skills, packages).with_skill_folders(folders)
}

/// One node of `agx tree`.
#[derive(Debug, Serialize)]
pub struct TreeNode {
    pub name: String,
    pub version: semver::Version,
    pub dependencies: Vec<TreeNode>,
}

/// One server key of `agx tree`, with the packages it needs.
#[derive(Debug, Serialize)]
pub struct TreeServer {
    pub key: String,
    pub launches: String,
    /// The arguments of the entry `sync` writes for the key (after the `agx` command).
    pub args: Vec<String>,
    /// Whether `sync` writes the key's entry (agx.toml or agx.local.toml may disable it).
    pub enabled: bool,
    pub package: TreeNode,
}

/// One `[skills]` key of `agx tree`, with the package that holds the skill.
#[derive(Debug, Serialize)]
pub struct TreeSkill {
    pub key: String,
    /// The skill, `publisher/package/skill`.
    pub skill: String,
    pub package: TreeNode,
}

/// One `[skills]` key of `agx tree` naming a skill folder of the project: no package.
#[derive(Debug, Serialize)]
pub struct TreeSkillFolder {
    pub key: String,
    /// The folder, relative to the project's.
    pub path: String,
}

/// A root of `agx tree`: a server key or a skill key (JSON: the fields of either).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum TreeRoot {
    Server(TreeServer),
    Skill(TreeSkill),
    SkillFolder(TreeSkillFolder),
}

/// `agx tree`: which packages the project needs, and why (from agx.lock): each server key,
/// then each skill key.
pub fn tree(explicit: Option<&Path>) -> ProjectResult<Vec<TreeRoot>> {
    let project = open(explicit)?;
    let lock = LockFile::read(&project.dir)?.ok_or(ProjectOpError::NoLock {
        dir: project.dir.clone(),
    })?;
    let reasons = stale_reasons(&project, &lock);
    if !reasons.is_empty() {
        return Err(ProjectOpError::LockWouldChange { reasons });
    }
    super::lock_check::check_fields(&project.dir, &lock, None).map_err(ProjectError::from)?;
    fn node(
        lock: &LockFile,
        name: &PackageName,
        version: &semver::Version,
        depth: usize,
    ) -> TreeNode {
        let deps = match lock.package(name) {
            // A cycle cannot be locked, but a hand-edited lock could hold one.
            Some(p) if depth < 64 => p
                .dependencies
                .iter()
                .map(|(d, v)| node(lock, d, v, depth + 1))
                .collect(),
            _ => Vec::new(),
        };
        TreeNode {
            name: name.to_string(),
            version: version.clone(),
            dependencies: deps,
        }
    }
    let enabled: BTreeSet<&String> = project.active_servers().map(|(key, _)| key).collect();
    let servers = lock.servers.iter().map(|s| {
        TreeRoot::Server(TreeServer {
            key: s.key.clone(),
            launches: s.launches.clone(),
            args: project_entry(&s.launches, &s.version, &s.args).args,
            enabled: enabled.contains(&s.key),
            package: node(&lock, &s.package, &s.version, 0),
        })
    });
    let skills = lock.skills.iter().map(|s| {
        TreeRoot::Skill(TreeSkill {
            key: s.key.clone(),
            skill: s.skill.clone(),
            package: node(&lock, &s.package, &s.version, 0),
        })
    });
    let folders = lock.skill_folders.iter().map(|s| {
        TreeRoot::SkillFolder(TreeSkillFolder {
            key: s.key.clone(),
            path: s.path.clone(),
        })
    });
    Ok(servers.chain(skills).chain(folders).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marketplaces_inside_the_project_are_locked_relative() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("repo");
        let market = project.join("vendor").join("market");
        std::fs::create_dir_all(&market).unwrap();
        assert_eq!(
            within_project(&project, &market.display().to_string()),
            "./vendor/market"
        );
        let outside = tmp.path().join("market").display().to_string();
        assert_eq!(within_project(&project, &outside), outside);
        assert_eq!(
            within_project(&project, "https://example.com/m"),
            "https://example.com/m"
        );
    }
}
