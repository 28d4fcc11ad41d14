//! Installing what a project's lock names: exactly those versions, checked against the
//! hashes the lock recorded, never resolved again, held by the project's root so that the
//! user's installs and other projects' versions stay beside them (docs/store.md, "Roots").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Context, OpsResult};
use agx_core::name::PackageName;
use agx_installer::plan::{Plan, PlannedInstall};
use agx_installer::{Installer, LocalSource, Prepared, StagedPlan};

use super::direct::Direct;
use agx_sources::ecosystem::mcpb::BundleSource;
use agx_sources::ecosystem::{EcosystemError, EcosystemSpec, LockedEntry, ProvisionOptions};
use agx_sources::index::Registry;
use agx_store::{HeldVersion, LockMismatch, LockMode, ProjectRoot, Staging, Store, StoreError};

/// One package of a project's lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedPackage {
    pub name: PackageName,
    pub version: semver::Version,
    /// A registry (URL or folder), a package folder or `.tar.gz` (relative paths are taken
    /// from the project folder), an ecosystem spec at its exact version
    /// (`npm:@scope/x@1.2.3`, `pypi:name==1.2.3`, `oci:<image>`, `mcpb:<url or path>`), an
    /// MCP registry entry's API URL (see `EntryOrigin::lock_source`), or an imported
    /// plugin's `plugin:<PLUGIN>@<marketplace URL or folder>`.
    pub source: String,
    /// Lowercase hex sha256 of the archive (for ecosystem packages, what their receipt
    /// records: a sha256 of the ecosystem's integrity hashes).
    pub sha256: String,
    /// For ecosystem packages, those integrity hashes (a bundle's `sha256:HEX`, which its
    /// download is checked against; an imported plugin's revision).
    pub integrity: Vec<String>,
    /// For a TUF-signed registry: its root key ids when locked (checked before staging).
    pub root_keys: Vec<String>,
    /// The exact versions of its dependencies, as the lock chose them.
    pub dependencies: Vec<(PackageName, semver::Version)>,
    /// Who the lock says signed it (a registry package with a Sigstore bundle): a
    /// download signed by anyone else is refused.
    pub provenance: Option<agx_store::provenance::Provenance>,
}

/// What [`install_locked`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockedInstallReport {
    /// The project, as its root records it (absolute).
    pub project: PathBuf,
    /// Versions installed now.
    pub installed: Vec<(PackageName, semver::Version)>,
    /// Versions that were installed already.
    pub present: Vec<(PackageName, semver::Version)>,
    /// Versions the project held before and no longer holds; their files stay until
    /// `agx gc` (or for as long as another root holds them).
    pub released: Vec<(PackageName, semver::Version)>,
}

/// How many times to stage again when another agx removes a version between staging and
/// committing (a concurrent `agx gc`).
const ATTEMPTS: usize = 5;

/// Install exactly `packages` for `project` and make the project's root hold exactly them.
/// Downloads happen without the store lock; the lock is held only to put folders in place
/// and write the root. When every version is present and the root already holds them,
/// nothing is written and no lock is taken. `before_root` sees the store with every version
/// in place, before the root is written: its error leaves the root as it was.
pub fn install_locked(
    ctx: &Context,
    project: &Path,
    packages: &[LockedPackage],
    before_root: &dyn Fn(&Store) -> Result<(), agx_core::error::Upstream>,
) -> OpsResult<LockedInstallReport> {
    let project = project_path(project);
    check_one_version_each(packages)?;
    let store = ctx.store();
    let desired = root_of(&project, packages);
    let previous = store.project_root(&project).unwrap_or(None);
    let mut missing = missing(&store, packages);
    // What is already in the store is held to the policy too; what is missing is checked
    // as it is staged, before anything is put in place.
    let policy = super::policy::gate(ctx, Some(&project))?;
    for package in packages.iter().filter(|p| !missing.contains(p)) {
        policy.check_installed(&store, &package.name, &package.version)?;
    }
    let mut report = LockedInstallReport {
        project: project.clone(),
        ..LockedInstallReport::default()
    };
    if missing.is_empty() && previous.as_ref() == Some(&desired) {
        before_root(&store).map_err(StoreError::Upstream)?;
        report.present = packages.iter().map(key).collect();
        return Ok(report);
    }

    let mut installer = ctx.installer(&store, &policy);
    // The lock, not this machine's receipts, says who signed each version.
    installer.locked_signers = Some(
        packages
            .iter()
            .map(|p| {
                let signer = p.provenance.as_ref().and_then(|v| v.signer.clone());
                (p.name.clone(), signer)
            })
            .collect(),
    );
    // Only a download needs a staging folder; a sync that only changes the root makes none.
    let mut staging: Option<Staging> = None;
    let mut sources = Sources::default();
    let mut staged: BTreeMap<(PackageName, semver::Version), Staged> = BTreeMap::new();
    for _ in 0..ATTEMPTS {
        for package in &missing {
            if let std::collections::btree_map::Entry::Vacant(slot) = staged.entry(key(package)) {
                let staging = match &mut staging {
                    Some(staging) => staging,
                    None => staging.insert(store.staging()?),
                };
                slot.insert(stage(
                    ctx,
                    &installer,
                    staging,
                    &mut sources,
                    &project,
                    package,
                )?);
            }
        }
        let _lock = store.lock(LockMode::Exclusive)?;
        let now_missing = self::missing(&store, packages);
        if now_missing.iter().all(|p| staged.contains_key(&key(p))) {
            for package in &now_missing {
                let ready = staged.remove(&key(package)).expect("staged above");
                ready.place(&installer)?;
                report.installed.push(key(package));
            }
            before_root(&store).map_err(StoreError::Upstream)?;
            let previous = store.project_root(&project).unwrap_or(None);
            desired.write(&store.project_root_path(&project))?;
            report.present = packages
                .iter()
                .map(key)
                .filter(|k| !report.installed.contains(k))
                .collect();
            report.released = previous
                .map(|p| p.packages)
                .unwrap_or_default()
                .into_iter()
                .map(|p| (p.name, p.version))
                .filter(|(n, v)| !desired.holds(n, v))
                .collect();
            return Ok(report);
        }
        // Another agx removed a version meanwhile: stage what is missing now.
        missing = now_missing;
    }
    Err(StoreError::KeptChanging { attempts: ATTEMPTS }.into())
}

/// Forget a project's root: the versions only it held go at the next `agx gc`. Returns what
/// it held (nothing when it held nothing).
pub fn release_project(
    ctx: &Context,
    project: &Path,
) -> OpsResult<Vec<(PackageName, semver::Version)>> {
    let project = project_path(project);
    let store = ctx.store();
    let path = store.project_root_path(&project);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let _lock = store.lock(LockMode::Exclusive)?;
    // A damaged root is forgotten all the same: that is what was asked.
    let held = store.project_root(&project).unwrap_or(None);
    fs_err::remove_file(&path).map_err(StoreError::from)?;
    Ok(held
        .map(|r| {
            r.packages
                .into_iter()
                .map(|p| (p.name, p.version))
                .collect()
        })
        .unwrap_or_default())
}

/// True when `name` `version` is installed (whoever holds it). Reads one marker file.
pub fn is_installed(ctx: &Context, name: &PackageName, version: &semver::Version) -> bool {
    ctx.store().has_version(name, version, None)
}

/// True when every package is installed with the recorded hash and the project's root holds
/// exactly them: what `sync --check` asks of the store. Reads only.
pub fn is_synced(ctx: &Context, project: &Path, packages: &[LockedPackage]) -> bool {
    let project = project_path(project);
    let store = ctx.store();
    missing(&store, packages).is_empty()
        && store.project_root(&project).ok().flatten() == Some(root_of(&project, packages))
}

/// The project folder as its root records it: absolute, and canonical when it exists, so
/// that two spellings of one folder are one project.
fn project_path(project: &Path) -> PathBuf {
    project
        .canonicalize()
        .or_else(|_| std::path::absolute(project))
        .unwrap_or_else(|_| project.to_path_buf())
}

fn key(package: &LockedPackage) -> (PackageName, semver::Version) {
    (package.name.clone(), package.version.clone())
}

fn check_one_version_each(packages: &[LockedPackage]) -> Result<(), StoreError> {
    let mut seen: BTreeMap<&PackageName, &semver::Version> = BTreeMap::new();
    for p in packages {
        if let Some(first) = seen.insert(&p.name, &p.version)
            && first != &p.version
        {
            return Err(StoreError::LockedTwice {
                name: p.name.clone(),
                versions: vec![first.to_string(), p.version.to_string()],
            });
        }
    }
    Ok(())
}

fn root_of(project: &Path, packages: &[LockedPackage]) -> ProjectRoot {
    let mut held: Vec<HeldVersion> = packages
        .iter()
        .map(|p| HeldVersion {
            name: p.name.clone(),
            version: p.version.clone(),
            sha256: p.sha256.clone(),
            source: p.source.clone(),
            dependencies: p.dependencies.iter().cloned().collect(),
        })
        .collect();
    held.sort_by(|a, b| (a.name.to_string(), &a.version).cmp(&(b.name.to_string(), &b.version)));
    held.dedup();
    ProjectRoot {
        project: project.to_path_buf(),
        packages: held,
    }
}

/// The packages whose version is not installed with the recorded hash.
fn missing<'a>(store: &Store, packages: &'a [LockedPackage]) -> Vec<&'a LockedPackage> {
    packages
        .iter()
        .filter(|p| !store.has_version(&p.name, &p.version, Some(&p.sha256)))
        .collect()
}

/// Where a locked package comes from.
enum Origin {
    Registry(String),
    Local(LocalSource),
    Ecosystem(EcosystemSpec),
    /// A bundle, checked against the `sha256:` its lock entry records.
    Bundle(BundleSource),
    /// An MCP registry entry at its exact version.
    Entry(LockedEntry),
    /// A plugin of a Claude-format marketplace (its URL or folder as the reference's source).
    Plugin(agx_sources::index::marketplace::PluginRef),
}

impl Origin {
    fn of(
        project: &Path,
        name: &PackageName,
        source: &str,
        integrity: &[String],
    ) -> OpsResult<Origin> {
        if let Some(reference) =
            agx_sources::plugins::import::parse_lock_source(source, project, name)
        {
            return reference.map(Origin::Plugin).map_err(|detail| {
                StoreError::from(EcosystemError::Bundle {
                    bundle: source.to_string(),
                    detail,
                    hint: "run `agx lock` to resolve it again from agx.toml".into(),
                })
                .into()
            });
        }
        if let Some(spec) = EcosystemSpec::parse(source) {
            return Ok(Origin::Ecosystem(spec?));
        }
        if let Some(bundle) = source.strip_prefix("mcpb:") {
            return Ok(Origin::Bundle(locked_bundle(bundle, integrity)?));
        }
        if let Some(entry) = LockedEntry::parse(source) {
            return Ok(Origin::Entry(entry?));
        }
        if source.contains("://") {
            return Ok(Origin::Registry(source.to_string()));
        }
        let path = project.join(source);
        Ok(if path.is_file() {
            Origin::Local(LocalSource::Tarball(path))
        } else if path.join("agx.toml").is_file() {
            Origin::Local(LocalSource::Dir(path))
        } else {
            // A registry in a folder (or one that is gone, which opening reports).
            Origin::Registry(path.display().to_string())
        })
    }
}

/// A locked bundle: where it was installed from, with the sha256 the lock recorded.
fn locked_bundle(bundle: &str, integrity: &[String]) -> Result<BundleSource, StoreError> {
    let sha256 = integrity.iter().find_map(|i| i.strip_prefix("sha256:"));
    let refused = |detail: &str| EcosystemError::Bundle {
        bundle: bundle.to_string(),
        detail: detail.to_string(),
        hint: "run `agx lock` again with the bundle installed, so the lock records where it \
               comes from and its sha256"
            .into(),
    };
    let Some(sha256) = sha256 else {
        return Err(refused("the lock records no sha256 to check the bundle against").into());
    };
    match BundleSource::parse(bundle, Some(sha256)) {
        Some(source) => Ok(source?),
        None => Err(refused("the lock names no .mcpb file or URL").into()),
    }
}

/// The registries opened so far, by source.
#[derive(Default)]
struct Sources(BTreeMap<String, Registry>);

/// One version ready in staging.
enum Staged {
    Registry(StagedPlan),
    /// Local or provisioned. Boxed: a prepared package is large, and the list holds every
    /// version.
    Prepared(Box<Prepared>),
}

impl Staged {
    fn place(self, installer: &Installer) -> Result<(), StoreError> {
        match self {
            Staged::Registry(plan) => installer.place_staged(plan).map(drop),
            Staged::Prepared(prepared) => installer.place(*prepared),
        }
    }
}

/// Download (or pack, or provision) one locked version into staging and check it is the
/// version and the bytes the lock records.
fn stage(
    ctx: &Context,
    installer: &Installer,
    staging: &Staging,
    sources: &mut Sources,
    project: &Path,
    package: &LockedPackage,
) -> OpsResult<Staged> {
    // Checked before anything is placed: a refused one leaves the store as it was. `origin`
    // names where it came from in an error.
    let direct = |ctx: &Context, direct: Direct<'_>, options: ProvisionOptions, origin: &str| {
        let prepared = super::direct::prepare(ctx, installer, direct, staging, options)?;
        OpsResult::Ok(Staged::Prepared(Box::new(check_locked(
            package, prepared, origin,
        )?)))
    };
    match Origin::of(project, &package.name, &package.source, &package.integrity)? {
        Origin::Registry(source) => {
            if !sources.0.contains_key(&source) {
                let registry =
                    agx_sources::index::open(Some(&source), None, ctx.offline, ctx.paths)?;
                sources.0.insert(source.clone(), registry);
            }
            let registry = &sources.0[&source];
            check_root_keys(registry, &package.root_keys)?;
            let entry = registry
                .versions(&package.name)?
                .into_iter()
                .find(|e| e.vers == package.version)
                .ok_or_else(|| StoreError::NotInSource {
                    name: package.name.clone(),
                    version: package.version.clone(),
                    origin: registry.source().to_string(),
                })?;
            if entry.cksum != package.sha256 {
                return Err(lock_mismatch(package, registry.source(), &entry.cksum).into());
            }
            let plan = Plan {
                installs: vec![PlannedInstall {
                    entry,
                    requested: exact(&package.version),
                    replaces: None,
                }],
                ..Plan::default()
            };
            let staged = installer.stage(registry, plan, staging, None)?;
            Ok(Staged::Registry(staged))
        }
        Origin::Local(local) => {
            let origin = local.path().display().to_string();
            direct(
                ctx,
                Direct::Local(&local),
                ProvisionOptions::default(),
                &origin,
            )
        }
        Origin::Ecosystem(spec) => direct(
            ctx,
            Direct::Ecosystem(spec),
            ProvisionOptions::default(),
            &package.source,
        ),
        Origin::Bundle(bundle) => {
            let spec = super::direct::pin_bundle(&bundle, staging)?;
            direct(
                ctx,
                Direct::Ecosystem(spec),
                ProvisionOptions::default(),
                &package.source,
            )
        }
        Origin::Entry(entry) => {
            // From the registry the lock names, choosing the kind it chose.
            let from_lock = Context {
                registry: Some(&entry.registry),
                ..*ctx
            };
            let options = ProvisionOptions {
                prefer: entry.prefer,
                ..ProvisionOptions::default()
            };
            direct(
                &from_lock,
                Direct::Entry(&entry.spec),
                options,
                &package.source,
            )
        }
        // Imported again; its revision (files, archive, commit or npm integrity) must be the
        // one locked, which the checked sha256 covers.
        Origin::Plugin(reference) => direct(
            ctx,
            Direct::Plugin(&reference),
            ProvisionOptions::default(),
            &package.source,
        ),
    }
}

/// A package locked from a signed registry installs only from a registry whose root the
/// same keys sign (another machine's source of the same URL may pin another root).
fn check_root_keys(registry: &agx_sources::index::Registry, locked: &[String]) -> OpsResult<()> {
    if locked.is_empty() {
        return Ok(());
    }
    let found = registry.root_key_ids()?;
    let sorted = |ids: &[String]| {
        let mut ids = ids.to_vec();
        ids.sort();
        ids
    };
    if sorted(locked) != sorted(&found) {
        let list = |ids: &[String]| {
            if ids.is_empty() {
                "none: the source is not signed here".to_string()
            } else {
                ids.join(", ")
            }
        };
        return Err(StoreError::from(agx_sources::index::IndexError::Signed {
            source_name: registry.source().to_string(),
            error: agx_tuf::TufError::RootKeysChanged {
                locked: list(locked),
                found: list(&found),
            },
        })
        .into());
    }
    Ok(())
}

/// A package prepared from `origin` must be the locked name, version and hash.
fn check_locked(
    package: &LockedPackage,
    prepared: Prepared,
    origin: &str,
) -> Result<Prepared, StoreError> {
    let p = prepared.package();
    if p.name() != &package.name || p.version() != &package.version {
        return Err(StoreError::WrongPackage {
            expected: format!("{} {} (from {origin})", package.name, package.version),
            found: format!("{} {}", p.name(), p.version()),
        });
    }
    if prepared.sha256() != package.sha256 {
        return Err(lock_mismatch(package, origin, prepared.sha256()));
    }
    Ok(prepared)
}

/// `package`'s bytes from `origin` hash to `found`, not to what the lock records.
fn lock_mismatch(package: &LockedPackage, origin: &str, found: &str) -> StoreError {
    StoreError::LockMismatch(Box::new(LockMismatch {
        name: package.name.clone(),
        version: package.version.clone(),
        origin: origin.to_string(),
        expected: package.sha256.clone(),
        found: found.to_string(),
    }))
}

fn exact(version: &semver::Version) -> semver::VersionReq {
    semver::VersionReq::parse(&format!("={version}")).expect("a version is a valid requirement")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked(name: &str, version: &str) -> LockedPackage {
        LockedPackage {
            name: PackageName::parse(name).unwrap(),
            version: semver::Version::parse(version).unwrap(),
            source: "http://127.0.0.1:1/".into(),
            sha256: "00".repeat(32),
            integrity: Vec::new(),
            root_keys: Vec::new(),
            dependencies: Vec::new(),
            provenance: None,
        }
    }

    #[test]
    fn a_lock_holds_one_version_of_each_package() {
        let same = [locked("acme/geo", "1.0.0"), locked("acme/geo", "1.0.0")];
        assert!(check_one_version_each(&same).is_ok());
        let two = [locked("acme/geo", "1.0.0"), locked("acme/geo", "1.4.0")];
        let err = check_one_version_each(&two).unwrap_err().to_string();
        assert_eq!(err, "the lock names acme/geo twice (1.0.0 and 1.4.0)");
    }

    #[test]
    fn sources_are_told_apart() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("pkg")).unwrap();
        std::fs::write(tmp.path().join("pkg/agx.toml"), "").unwrap();
        std::fs::write(tmp.path().join("x.tar.gz"), "").unwrap();
        let name = PackageName::parse("acme/weather").unwrap();
        let of = |s: &str| {
            Origin::of(
                tmp.path(),
                &name,
                s,
                &[format!("sha256:{}", "ab".repeat(32))],
            )
            .unwrap()
        };
        assert!(matches!(of("https://r.example/agx"), Origin::Registry(_)));
        assert!(matches!(of("pkg"), Origin::Local(LocalSource::Dir(_))));
        assert!(matches!(
            of("x.tar.gz"),
            Origin::Local(LocalSource::Tarball(_))
        ));
        assert!(matches!(of("npm:@scope/x@1.2.3"), Origin::Ecosystem(_)));
        assert!(matches!(of("registry-folder"), Origin::Registry(_)));
        assert!(matches!(of("oci:mcp/time:1.0"), Origin::Ecosystem(_)));
        assert!(matches!(
            of("mcpb:https://r.example/x.mcpb"),
            Origin::Bundle(_)
        ));
        assert!(matches!(
            of("https://r.example/v0.1/servers/io.github.u%2Fw/versions/1.0.0#npm"),
            Origin::Entry(_)
        ));
        assert!(matches!(
            of("plugin:weather@https://r.example/market"),
            Origin::Plugin(_)
        ));
        let unchecked = Origin::of(tmp.path(), &name, "mcpb:https://r.example/x.mcpb", &[]);
        assert!(
            unchecked
                .err()
                .is_some_and(|e| e.to_string().contains("no sha256")),
        );
    }

    #[test]
    fn roots_are_sorted_so_equal_locks_compare_equal() {
        let a = root_of(
            Path::new("/p"),
            &[locked("acme/weather", "1.1.0"), locked("acme/geo", "1.0.0")],
        );
        let b = root_of(
            Path::new("/p"),
            &[locked("acme/geo", "1.0.0"), locked("acme/weather", "1.1.0")],
        );
        assert_eq!(a, b);
        assert_eq!(a.packages[0].name.to_string(), "acme/geo");
    }
}
