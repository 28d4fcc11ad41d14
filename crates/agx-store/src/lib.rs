//! The local store: layout, locking, install/uninstall transactions, receipts and roots
//! (docs/store.md).
//!
//! ```text
//! store-v1/<publisher>/<name>/<version>/   unpacked package, complete with `.agx-complete`,
//!                                          described by its `.agx-receipt.toml`
//! store-v1/_local/<name>/<version>/        a package without a publisher
//! store-v1/.staging/<unique>/              one writer's downloads and unpacking in progress,
//! store-v1/.staging/<unique>.lock           owned through this lock while the writer lives
//! store-v1/.lock                           the process-level lock
//! receipts-v1/<publisher>/<name>.toml      the user's version of a package (written last)
//! roots-v1/<hash>.toml                     the versions one project holds (written last)
//! ```
//! Versions sit side by side; each stays while a root holds it: the user (the receipts) or a
//! project (its root file). A version folder without its marker is a leftover, removed by
//! the next command that writes; a complete one no root holds is removed by `agx gc`.
//! Readers need no lock to be correct (every change is a rename),
//! but commands take the shared lock so that they never run in the middle of a writer's
//! multi-package change. Writers download and unpack into their own staging folder first
//! and hold the exclusive lock only to commit ([`Store::prepare_then_commit`]), so that a
//! slow registry never blocks `list`, `info` or `serve`.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

use agx_core::fsutil;
pub mod gc;
mod lock;
pub mod pins;
pub mod policy_gate;
pub mod provenance;
mod receipt;
pub mod remove;
mod roots;
mod staging;
mod versions;

use std::path::{Path, PathBuf};

pub use agx_core::fsutil::make_writable;
pub use lock::{LockMode, StoreLock};
pub use policy_gate::{PolicyGate, policy_hint};
pub use receipt::{EntryOrigin, Receipt, ReceiptHeader, Source, now_rfc3339, rfc3339};
pub use roots::{HeldVersion, Holder, Holdings, ProjectRoot};
pub use staging::Staging;
pub use versions::ServedVersion;

use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;

/// The file whose presence marks a version folder as complete.
pub const COMPLETE_MARKER: &str = ".agx-complete";

/// A version's Sigstore bundle, inside its folder (as its source published it), which
/// `agx verify` checks again.
pub const PROVENANCE_BUNDLE: &str = ".agx-provenance.sigstore.json";

/// What a version's bundle signs when that is not its archive (an OCI source's manifest),
/// beside the bundle ([`provenance::subject_beside`]).
pub const PROVENANCE_SUBJECT: &str = ".agx-provenance.sigstore.json.subject";

/// The files of a version folder that agx writes (not the package's): left out of the hash
/// of its files.
pub const AGX_FILES: [&str; 5] = [
    COMPLETE_MARKER,
    VERSION_RECEIPT,
    PROVENANCE_BUNDLE,
    PROVENANCE_SUBJECT,
    agx_model::manifest::snapshot::SNAPSHOT_FILE,
];

/// The receipt of a version, inside its folder: what any installed version is, whoever
/// holds it (`receipts-v1/` says only which version the user holds).
pub const VERSION_RECEIPT: &str = ".agx-receipt.toml";

/// Errors of the store. Each names the package or path involved.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file system step failed; the error names the path (`fs_err`).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("the receipt {} is damaged: {reason}", path.display())]
    BadReceipt { path: PathBuf, reason: String },
    #[error("the pinned definitions {} are damaged: {reason}", path.display())]
    BadPins { path: PathBuf, reason: String },
    #[error("{name} is not installed")]
    NotInstalled { name: PackageName },
    #[error("{name} is not installed for the user; only projects hold it: {}", projects.join(", "))]
    HeldByProjectsOnly {
        name: PackageName,
        projects: Vec<String>,
    },
    #[error("{name} {version} is not installed")]
    VersionNotInstalled {
        name: PackageName,
        version: semver::Version,
    },
    #[error(transparent)]
    LockMismatch(Box<LockMismatch>),
    #[error("{origin} has no {name} {version}, which the lock records")]
    NotInSource {
        name: PackageName,
        version: semver::Version,
        origin: String,
    },
    #[error("the lock names {name} twice ({})", versions.join(" and "))]
    LockedTwice {
        name: PackageName,
        versions: Vec<String>,
    },
    #[error("the project root {} is damaged: {reason}", path.display())]
    BadRoot { path: PathBuf, reason: String },
    #[error("{name} {version} is recorded as installed but its files in {} are missing or incomplete", dir.display())]
    Damaged {
        name: PackageName,
        version: semver::Version,
        dir: PathBuf,
    },
    #[error("cannot uninstall {name}: {} depend{} on it", dependents.join(", "), if dependents.len() == 1 { "s" } else { "" })]
    HasDependents {
        name: PackageName,
        dependents: Vec<String>,
    },
    #[error("the archive for {expected} contains {found}")]
    WrongPackage { expected: String, found: String },
    /// Trust on first use: another signer than the one recorded (crate::provenance).
    /// Trust on first use: another signer than the one recorded, or none
    /// (crate::provenance).
    #[error(transparent)]
    SignerMismatch(Box<provenance::SignerMismatch>),
    /// An error of a layer above the store that an install step met: resolving, planning,
    /// a registry or an ecosystem's tools. Those layers convert their errors into this one.
    #[error(transparent)]
    Upstream(agx_core::error::Upstream),
    #[error("cannot unpack {name}")]
    Archive {
        name: String,
        #[source]
        source: agx_archive::ArchiveError,
    },
    #[error(transparent)]
    Load(Box<agx_model::manifest::LoadError>),
    /// Skill folders could not be wrapped in a package (crates/agx-model/src/skills/wrap.rs).
    #[error(transparent)]
    WrapSkills(#[from] agx_model::skills::wrap::WrapError),
    /// Other agx processes changed the store every time this one had prepared its change.
    #[error("the store changed {attempts} times while this command prepared its change")]
    KeptChanging { attempts: usize },
    /// An archive unpacked but holds no valid package; `findings` are rendered with paths
    /// inside the package (the staging folder they were found in is gone by now).
    #[error("{what} does not hold a valid package:\n{findings}")]
    InvalidPackage {
        what: String,
        findings: String,
        from_registry: bool,
    },
    /// The poisoning scan found what a model would read and a person would not see, or text
    /// that tells the model to act against the user (docs/security.md): `findings` is one
    /// line each, `codes` the codes to accept.
    #[error("{what} has {} the poisoning scan blocks:\n{findings}", if codes.len() == 1 { "a finding" } else { "findings" })]
    Poisoned {
        what: String,
        findings: String,
        codes: Vec<String>,
    },
    /// The organisation's policy refuses the package (docs/policy.md).
    #[error("refused by policy: {0}")]
    Policy(agx_model::policy::Refusal),
    /// An npm install script (`--allow-scripts`), run once the package was accepted,
    /// rewrote or removed the manifest agx had generated and checked.
    #[error("{what}: an install script changed {file} after agx checked it; nothing was installed")]
    ScriptChangedManifest { what: String, file: &'static str },
}

/// A locked package whose bytes differ from what the lock recorded.
#[derive(Debug, thiserror::Error)]
#[error("{name} {version} from {origin} has sha256 {found}, but the lock records {expected}")]
pub struct LockMismatch {
    pub name: PackageName,
    pub version: semver::Version,
    pub origin: String,
    pub expected: String,
    pub found: String,
}

// Boxed: this error is large, and store functions return it on every path.

impl From<agx_model::manifest::LoadError> for StoreError {
    fn from(e: agx_model::manifest::LoadError) -> Self {
        StoreError::Load(Box::new(e))
    }
}

impl agx_core::error::Hint for StoreError {
    fn hint(&self) -> Option<String> {
        match self {
            StoreError::Io(source) if source.kind() == std::io::ErrorKind::PermissionDenied => {
                Some(
                    "check the permissions of the agx home (set AGX_HOME to use another folder)"
                        .into(),
                )
            }
            StoreError::BadReceipt { path, .. } => Some(match receipt::name_of(path) {
                Some(name) => format!(
                    "reinstall the package with `agx install --force {name}`, or delete {} to forget it",
                    path.display()
                ),
                None => format!("delete {}", path.display()),
            }),
            StoreError::BadPins { path, .. } => Some(format!(
                "delete {} and pin what the server lists now with `agx trust SERVER`",
                path.display()
            )),
            StoreError::NotInstalled { .. } => Some("`agx list` shows what is installed".into()),
            StoreError::ScriptChangedManifest { .. } => Some(
                "install it without --allow-scripts, and tell its publisher: a package's scripts may not rewrite how agx runs it".into(),
            ),
            StoreError::HeldByProjectsOnly { .. } => Some(
                "a project's versions go when its lock no longer names them (`agx remove` there) or its folder is deleted, then at `agx gc`".into(),
            ),
            StoreError::VersionNotInstalled { name, version } => Some(format!(
                "run `agx sync` in the project that uses it (or `agx install {name}@={version}`)"
            )),
            StoreError::LockMismatch(_) => Some(
                "the package changed since it was locked; if the change is expected, relock with `agx lock`".into(),
            ),
            StoreError::NotInSource { .. } => Some(
                "the version may have been removed from there; relock with `agx lock` to choose another".into(),
            ),
            StoreError::LockedTwice { .. } => {
                Some("a project holds one version of each package; relock with `agx lock`".into())
            }
            StoreError::BadRoot { path, .. } => Some(format!(
                "delete {} to forget that project; `agx sync` in the project records it again",
                path.display()
            )),
            StoreError::Damaged { name, .. } => {
                Some(format!("reinstall it with `agx install --force {name}`"))
            }
            StoreError::HasDependents { .. } => Some(
                "uninstall those first, or pass --force to remove it anyway (they will break)"
                    .into(),
            ),
            StoreError::KeptChanging { .. } => Some(
                "other agx commands are installing or removing packages; run this one again when they are done".into(),
            ),
            StoreError::WrongPackage { .. } => {
                Some("the registry serves a wrong archive; tell its maintainer".into())
            }
            StoreError::SignerMismatch(mismatch) => Some(mismatch.hint()),
            StoreError::Upstream(e) => e.hint(),
            StoreError::Archive { source, .. } => agx_core::error::Hint::hint(source),
            StoreError::Load(e) => agx_core::error::Hint::hint(e.as_ref()),
            StoreError::WrapSkills(e) => agx_core::error::Hint::hint(e),
            StoreError::InvalidPackage {
                from_registry: true,
                ..
            } => Some(
                "the registry serves a broken package; tell its publisher".into(),
            ),
            StoreError::InvalidPackage { .. } => Some(
                "fix these files in the package's folder, check it with `agx validate <folder>`, and pack it again with `agx pack <folder>` (or install the folder itself)".into(),
            ),
            StoreError::Policy(refusal) => Some(policy_hint(refusal)),
            StoreError::Poisoned { codes, .. } => Some(format!(
                "nothing was installed; read the text at each place (`agx validate <folder>` shows them in the package's files), and only if you trust it run the command again with {} (docs/security.md, \"The poisoning scan\")",
                codes
                    .iter()
                    .map(|c| format!("`--accept-finding {c}`"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
            _ => None,
        }
    }
}

/// An installed package: its receipt and the folder holding its files.
#[derive(Debug, Clone)]
pub struct InstalledPackage {
    pub name: PackageName,
    pub version: semver::Version,
    /// The unpacked package (the folder with `agx.toml`).
    pub dir: PathBuf,
    pub receipt: Receipt,
}

impl InstalledPackage {
    /// True when the folder carries its completion marker.
    pub fn is_complete(&self) -> bool {
        is_complete_dir(&self.dir)
    }
}

/// True when a version folder carries its completion marker.
fn is_complete_dir(dir: &Path) -> bool {
    dir.join(COMPLETE_MARKER).is_file()
}

/// The store under an agx home. Opening touches nothing on disk.
#[derive(Debug, Clone)]
pub struct Store {
    store_dir: PathBuf,
    receipts_dir: PathBuf,
    /// `data-v1/`, the versions' data folders (see [`Store::data_dir_of`]).
    pub(crate) data_dir: PathBuf,
    /// `pins-v1/`, the versions' pinned definitions (see [`Store::pins_file`]).
    pins_dir: PathBuf,
}

impl Store {
    pub fn open(paths: &AgxPaths) -> Store {
        Store {
            store_dir: paths.store_dir(),
            receipts_dir: paths.receipts_dir(),
            data_dir: paths.data_dir(),
            pins_dir: paths.pins_dir(),
        }
    }

    /// The pins files of an installed version, by server (none when nothing was pinned).
    pub fn pins_of(&self, name: &PackageName, version: &semver::Version) -> Vec<(String, PathBuf)> {
        let Some(any) = self.pins_file(&self.package_dir(name, version), "_") else {
            return Vec::new();
        };
        let Some(dir) = any.parent() else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut files: Vec<(String, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let path = e.path();
                let server = path
                    .file_name()?
                    .to_str()?
                    .strip_suffix(".json")?
                    .to_string();
                Some((server, path))
            })
            .collect();
        files.sort();
        files
    }

    /// The pins file of `server` of the version folder `version_dir`
    /// (`pins-v1/<publisher>/<name>/<version>/<server>.json`); `None` for a folder outside
    /// the store.
    pub fn pins_file(&self, version_dir: &Path, server: &str) -> Option<PathBuf> {
        let relative = version_dir.strip_prefix(&self.store_dir).ok()?;
        Some(self.pins_dir.join(relative).join(format!("{server}.json")))
    }

    /// The data folder of the version folder `version_dir` (`data-v1/<publisher>/<name>/
    /// <version>/`, where its compiled-code caches live); `None` for a folder outside the
    /// store.
    pub fn data_dir_of(&self, version_dir: &Path) -> Option<PathBuf> {
        let relative = version_dir.strip_prefix(&self.store_dir).ok()?;
        Some(self.data_dir.join(relative))
    }

    pub fn store_dir(&self) -> &Path {
        &self.store_dir
    }

    /// `store-v1/<publisher>/<name>/<version>/`.
    pub fn package_dir(&self, name: &PackageName, version: &semver::Version) -> PathBuf {
        self.versions_dir(name).join(version.to_string())
    }

    /// `store-v1/<publisher>/<name>/`, holding the package's version folders.
    fn versions_dir(&self, name: &PackageName) -> PathBuf {
        let (publisher, name) = name.path_segments();
        self.store_dir.join(publisher).join(name)
    }

    /// `receipts-v1/<publisher>/<name>.toml`.
    pub fn receipt_path(&self, name: &PackageName) -> PathBuf {
        let (publisher, name) = name.path_segments();
        self.receipts_dir
            .join(publisher)
            .join(format!("{name}.toml"))
    }

    pub(crate) fn staging_dir(&self) -> PathBuf {
        self.store_dir.join(".staging")
    }

    /// A staging folder for this process, where it prepares packages without the store lock.
    pub fn staging(&self) -> Result<Staging, StoreError> {
        Staging::create(&self.staging_dir())
    }

    /// Prepare a change without the exclusive lock, then make it under that lock, provided
    /// no other process changed the receipts in between; if one did, prepare again against
    /// the new state. `prepare` gets the installed packages (read under the shared lock) and
    /// what it returned last time (to reuse its downloads), and may take long: it is where
    /// the network is used. `commit` runs under the exclusive lock.
    pub fn prepare_then_commit<P, T, E: From<StoreError>>(
        &self,
        mut prepare: impl FnMut(Vec<InstalledPackage>, Option<P>) -> Result<P, E>,
        commit: impl FnOnce(P) -> Result<T, E>,
    ) -> Result<T, E> {
        const ATTEMPTS: usize = 5;
        let mut previous = None;
        for _ in 0..ATTEMPTS {
            let (installed, seen) = {
                let _shared = self.lock_shared_if_present()?;
                (self.list()?, self.receipts_fingerprint()?)
            };
            let prepared = prepare(installed, previous.take())?;
            let _lock = self.lock(LockMode::Exclusive)?;
            if self.receipts_fingerprint()? == seen {
                return commit(prepared);
            }
            tracing::info!("another agx process changed the store meanwhile; checking again");
            previous = Some(prepared);
        }
        Err(StoreError::KeptChanging { attempts: ATTEMPTS }.into())
    }

    /// Every receipt's path and bytes: equal fingerprints mean that nothing was installed,
    /// removed or changed in between.
    fn receipts_fingerprint(&self) -> Result<Vec<(PathBuf, Vec<u8>)>, StoreError> {
        let mut fingerprint = Vec::new();
        for path in self.receipt_paths()? {
            match fs_err::read(&path) {
                Ok(bytes) => fingerprint.push((path, bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e.into()),
            }
        }
        fingerprint.sort();
        Ok(fingerprint)
    }

    /// Take the store lock. Writers (`Exclusive`) also clean what an interrupted run left.
    pub fn lock(&self, mode: LockMode) -> Result<StoreLock, StoreError> {
        let lock = StoreLock::acquire(&lock::lock_path(&self.store_dir), mode)?;
        if mode == LockMode::Exclusive {
            self.clean_leftovers()?;
        }
        Ok(lock)
    }

    /// Take the shared lock if the store exists (a reader never creates it).
    pub fn lock_shared_if_present(&self) -> Result<Option<StoreLock>, StoreError> {
        if self.store_dir.is_dir() {
            self.lock(LockMode::Shared).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The installed package of that name, if any. Fast: reads one receipt and checks the
    /// marker. A receipt whose files are gone is an error ([`StoreError::Damaged`]).
    pub fn installed(&self, name: &PackageName) -> Result<Option<InstalledPackage>, StoreError> {
        let path = self.receipt_path(name);
        if !path.is_file() {
            return Ok(None);
        }
        let receipt = Receipt::read(&path)?;
        let package = self.package_from_receipt(receipt);
        if !package.is_complete() {
            return Err(StoreError::Damaged {
                name: package.name,
                version: package.version,
                dir: package.dir,
            });
        }
        Ok(Some(package))
    }

    /// The folder of the installed package of that name, if any: [`Store::installed`]
    /// without the rest of the receipt, for `agx serve`, which starts on every client launch.
    pub fn installed_dir(&self, name: &PackageName) -> Result<Option<PathBuf>, StoreError> {
        let path = self.receipt_path(name);
        if !path.is_file() {
            return Ok(None);
        }
        let header = ReceiptHeader::read(&path)?;
        let dir = self.package_dir(&header.name, &header.version);
        if !is_complete_dir(&dir) {
            return Err(StoreError::Damaged {
                name: header.name,
                version: header.version,
                dir,
            });
        }
        Ok(Some(dir))
    }

    /// Every installed package, sorted by name as written (`acme/geo` before `notes`). Reads
    /// receipts only (no definition files, no marker checks), so it stays fast with thousands
    /// of packages. A damaged receipt is left out with a warning that says how to repair it,
    /// so that one broken package does not hide or block the others.
    pub fn list(&self) -> Result<Vec<InstalledPackage>, StoreError> {
        let mut packages = Vec::new();
        for path in self.receipt_paths()? {
            match Receipt::read(&path) {
                Ok(receipt) => packages.push(self.package_from_receipt(receipt)),
                Err(e @ StoreError::BadReceipt { .. }) => warn_damaged(&e),
                Err(e) => return Err(e),
            }
        }
        packages.sort_by_cached_key(|p| p.name.to_string());
        Ok(packages)
    }

    /// The receipt of that package, if it has one that can be read. A damaged receipt counts
    /// as none, with a warning: installing over it is how it gets repaired.
    pub fn readable_receipt(&self, name: &PackageName) -> Result<Option<Receipt>, StoreError> {
        let path = self.receipt_path(name);
        if !path.is_file() {
            return Ok(None);
        }
        match Receipt::read(&path) {
            Ok(receipt) => Ok(Some(receipt)),
            Err(e @ StoreError::BadReceipt { .. }) => {
                warn_damaged(&e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Fails with [`StoreError::BadReceipt`] when the package has a receipt that cannot be read.
    fn check_receipt_readable(&self, name: &PackageName) -> Result<(), StoreError> {
        let path = self.receipt_path(name);
        if path.is_file() {
            Receipt::read(&path)?;
        }
        Ok(())
    }

    /// `receipts-v1/<publisher>/<name>.toml` files; anything else there is not agx's and is
    /// ignored.
    fn receipt_paths(&self) -> Result<Vec<PathBuf>, StoreError> {
        let mut paths = Vec::new();
        for publisher_dir in agx_dirs(&self.receipts_dir)? {
            for path in fsutil::read_dir_paths(&publisher_dir)? {
                let is_receipt = path.extension().is_some_and(|e| e == "toml")
                    && file_name(&path).is_some_and(|n| !n.starts_with('.'))
                    && path.is_file();
                if is_receipt {
                    paths.push(path);
                }
            }
        }
        Ok(paths)
    }

    fn package_from_receipt(&self, receipt: Receipt) -> InstalledPackage {
        InstalledPackage {
            name: receipt.name.clone(),
            version: receipt.version.clone(),
            dir: self.package_dir(&receipt.name, &receipt.version),
            receipt,
        }
    }

    /// Remove what an interrupted writer left: staging folders whose process has ended, and
    /// version folders without their completion marker. A complete folder that no root holds
    /// may still be served by a running `agx serve`, so it waits for `agx gc`. Call only while
    /// holding the exclusive lock.
    fn clean_leftovers(&self) -> Result<(), StoreError> {
        staging::clean(&self.staging_dir())?;
        for name_dir in self.package_dirs()? {
            self.clean_package_leftovers(&name_dir)?;
        }
        Ok(())
    }

    /// Every `store-v1/<publisher>/<name>/` folder.
    fn package_dirs(&self) -> Result<Vec<PathBuf>, StoreError> {
        let mut dirs = Vec::new();
        for publisher_dir in agx_dirs(&self.store_dir)? {
            dirs.extend(agx_dirs(&publisher_dir)?);
        }
        Ok(dirs)
    }

    /// The package a `store-v1/<publisher>/<name>/` folder belongs to.
    fn package_of_dir(name_dir: &Path) -> Option<PackageName> {
        let name = file_name(name_dir)?;
        let publisher = file_name(name_dir.parent()?)?;
        PackageName::from_path_segments(publisher, name).ok()
    }

    fn clean_package_leftovers(&self, name_dir: &Path) -> Result<(), StoreError> {
        if let Some(pkg) = Self::package_of_dir(name_dir)
            && let Err(StoreError::BadReceipt { .. }) = self.check_receipt_readable(&pkg)
        {
            // Which version it names is unknown: keep them all until it is repaired.
            return Ok(());
        }
        for version_dir in agx_dirs(name_dir)? {
            if !is_complete_dir(&version_dir) {
                fsutil::discard_tree(&version_dir, &self.staging_dir())?;
            }
        }
        // Only when empty: the package's last version went.
        let _ = fs_err::remove_dir(name_dir);
        Ok(())
    }
}

fn file_name(path: &Path) -> Option<&str> {
    path.file_name().and_then(|n| n.to_str())
}

/// The sub-folders of `dir` that agx may have made: folders whose names do not start with a
/// dot. Stray files (a `.DS_Store`, notes) and hidden folders are not agx's, so they are left
/// alone rather than read as packages or removed as leftovers.
fn agx_dirs(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    Ok(fsutil::read_dir_paths(dir)?
        .into_iter()
        .filter(|p| file_name(p).is_some_and(|n| !n.starts_with('.')) && p.is_dir())
        .collect())
}

/// Say that a receipt is damaged, with its repair hint, and go on without it.
fn warn_damaged(error: &StoreError) {
    let hint = agx_core::error::Hint::hint(error).unwrap_or_default();
    tracing::warn!("{error}; it is skipped ({hint})");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(tmp: &Path) -> Store {
        Store::open(&AgxPaths::under(tmp.to_path_buf(), true))
    }

    #[test]
    fn layout_uses_path_segments() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path());
        let local = PackageName::parse("notes").unwrap();
        let v = semver::Version::new(0, 1, 0);
        assert!(
            s.package_dir(&local, &v)
                .ends_with("store-v1/_local/notes/0.1.0")
        );
        assert!(
            s.receipt_path(&local)
                .ends_with("receipts-v1/_local/notes.toml")
        );
        assert!(s.list().unwrap().is_empty());
        assert!(s.installed(&local).unwrap().is_none());
    }

    #[test]
    fn writers_clean_incomplete_versions_but_keep_complete_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path());
        let name = PackageName::parse("acme/weather").unwrap();
        let kept = s.package_dir(&name, &semver::Version::new(1, 2, 0));
        let stale = s.package_dir(&name, &semver::Version::new(1, 1, 0));
        let orphan = s.package_dir(
            &PackageName::parse("acme/gone").unwrap(),
            &semver::Version::new(1, 0, 0),
        );
        let unheld = s.package_dir(&name, &semver::Version::new(1, 0, 0));
        for dir in [&kept, &stale, &orphan, &unheld, &s.staging_dir().join("x")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(kept.join(COMPLETE_MARKER), "").unwrap();
        std::fs::write(unheld.join(COMPLETE_MARKER), "").unwrap();
        let receipt = Receipt {
            name: name.clone(),
            version: semver::Version::new(1, 2, 0),
            sha256: String::new(),
            files: None,
            requested: semver::VersionReq::STAR,
            explicit: true,
            installed_at: receipt::now_rfc3339(),
            description: None,
            accepted_findings: Vec::new(),
            dependencies: Default::default(),
            source: Source::Local { path: "/x".into() },
            provenance: None,
            extension: Default::default(),
        };
        receipt.write(&s.receipt_path(&name)).unwrap();
        let _lock = s.lock(LockMode::Exclusive).unwrap();
        assert!(kept.is_dir());
        assert!(unheld.is_dir(), "complete but unheld: left for gc");
        assert!(!stale.exists());
        assert!(!orphan.exists());
        assert!(!orphan.parent().unwrap().exists());
        assert!(fsutil::read_dir_paths(&s.staging_dir()).unwrap().is_empty());
        let installed = s.installed(&name).unwrap().unwrap();
        assert_eq!(installed.dir, kept);
        assert_eq!(s.list().unwrap().len(), 1);
    }
}
