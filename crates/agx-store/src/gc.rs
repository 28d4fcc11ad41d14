//! `agx gc`: remove the versions no root holds, forget the projects that are gone, and
//! remove what ended writers left in staging. Planning reads only; removing happens under the
//! exclusive lock, after checking again that nothing planned became held meanwhile.

use std::path::{Path, PathBuf};

use super::{Holdings, Store, StoreError, agx_dirs, file_name, fsutil, staging};
use agx_core::name::PackageName;

/// A version folder no root holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnheldVersion {
    pub name: PackageName,
    pub version: semver::Version,
    pub dir: PathBuf,
    /// Its files and its data folder's (compiled-code caches).
    pub bytes: u64,
}

/// A project whose root is forgotten, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoneProject {
    pub project: PathBuf,
    /// The root's file under `roots-v1/`.
    pub file: PathBuf,
    /// `folder` when the project's folder is gone, `agx.lock` when only its lock is.
    pub missing: &'static str,
}

/// A project whose folder or lock agx could not look at (a folder it may not read, a path
/// through a file): its root, and the versions it holds, are kept.
#[derive(Debug, Clone)]
pub struct UncheckedProject {
    pub project: PathBuf,
    /// Why it could not be checked.
    pub problem: String,
}

/// What gc removes (or, with `--dry-run`, would remove).
#[derive(Debug, Clone, Default)]
pub struct GcPlan {
    pub projects: Vec<GoneProject>,
    /// Projects kept because they could not be checked (reported, never removed).
    pub unchecked: Vec<UncheckedProject>,
    pub versions: Vec<UnheldVersion>,
    /// Staging folders and files of processes that have ended, with their sizes.
    pub staging: Vec<(PathBuf, u64)>,
    /// Data folders (compiled-code caches) of versions no longer in the store, with their
    /// sizes. A version gc removes takes its data folder with it (counted in its `bytes`).
    pub caches: Vec<(PathBuf, u64)>,
}

impl GcPlan {
    pub fn bytes(&self) -> u64 {
        self.versions.iter().map(|v| v.bytes).sum::<u64>()
            + self.staging.iter().map(|(_, b)| b).sum::<u64>()
            + self.caches.iter().map(|(_, b)| b).sum::<u64>()
    }

    pub fn is_empty(&self) -> bool {
        self.projects.is_empty()
            && self.versions.is_empty()
            && self.staging.is_empty()
            && self.caches.is_empty()
    }
}

/// The file a project keeps its lock in; a project without it holds nothing any more.
const PROJECT_LOCK: &str = "agx.lock";

/// What gc would remove now. Reads only.
pub fn plan(store: &Store) -> Result<GcPlan, StoreError> {
    let mut holdings = store.holdings()?;
    let (projects, unchecked) = gone_projects(&holdings);
    // The versions that only gone projects hold are unheld too.
    holdings.held.retain(|_, holders| {
        holders.retain(|h| match h {
            super::Holder::Project(p) => !projects.iter().any(|g| &g.project == p),
            super::Holder::User => true,
        });
        !holders.is_empty()
    });
    Ok(GcPlan {
        versions: unheld_versions(store, &holdings)?,
        staging: staging::leftovers(&store.staging_dir())?
            .into_iter()
            .map(|path| {
                let bytes = size_of(&path);
                (path, bytes)
            })
            .collect(),
        caches: orphan_caches(store)?,
        projects,
        unchecked,
    })
}

/// Remove what `planned` names, under the exclusive lock. Versions that some root holds by
/// now (a sync ran in between) are kept. Returns what was removed.
pub fn apply(store: &Store, planned: GcPlan) -> Result<GcPlan, StoreError> {
    // Taking the lock removes the staging leftovers (see `Store::lock`).
    let _lock = store.lock(super::LockMode::Exclusive)?;
    let mut done = GcPlan {
        staging: planned.staging,
        unchecked: planned.unchecked,
        ..GcPlan::default()
    };
    for gone in planned.projects {
        // Recreated meanwhile (or no longer readable): keep it.
        if matches!(gone_reason(&gone.project), Ok(Some(_))) {
            fsutil::remove_file(&gone.file)?;
            done.projects.push(gone);
        }
    }
    let holdings = store.holdings()?;
    for unheld in planned.versions {
        if !holdings.is_held(&unheld.name, &unheld.version) {
            store.discard_version(&unheld.dir)?;
            done.versions.push(unheld);
        }
    }
    for (data, bytes) in planned.caches {
        // Installed again meanwhile: its data folder is in use.
        if !store_version_of(store, &data).is_some_and(|dir| super::is_complete_dir(&dir)) {
            store.discard_data(&data)?;
            done.caches.push((data, bytes));
        }
    }
    Ok(done)
}

/// The version folder a data folder belongs to.
fn store_version_of(store: &Store, data: &Path) -> Option<PathBuf> {
    let relative = data.strip_prefix(&store.data_dir).ok()?;
    Some(store.store_dir().join(relative))
}

/// The data folders (`data-v1/<publisher>/<name>/<version>/`) whose version is not
/// (completely) in the store: left by an uninstall of an older agx, or by a version folder
/// removed by hand.
fn orphan_caches(store: &Store) -> Result<Vec<(PathBuf, u64)>, StoreError> {
    let mut orphans = Vec::new();
    for publisher in agx_dirs(&store.data_dir)? {
        for name in agx_dirs(&publisher)? {
            for data in agx_dirs(&name)? {
                let held =
                    store_version_of(store, &data).is_some_and(|dir| super::is_complete_dir(&dir));
                if !held {
                    let bytes = size_of(&data);
                    orphans.push((data, bytes));
                }
            }
        }
    }
    orphans.sort();
    Ok(orphans)
}

fn gone_projects(holdings: &Holdings) -> (Vec<GoneProject>, Vec<UncheckedProject>) {
    let mut gone = Vec::new();
    let mut unchecked = Vec::new();
    for (file, root) in &holdings.projects {
        match gone_reason(&root.project) {
            Ok(Some(missing)) => gone.push(GoneProject {
                project: root.project.clone(),
                file: file.clone(),
                missing,
            }),
            Ok(None) => {}
            Err(e) => unchecked.push(UncheckedProject {
                project: root.project.clone(),
                problem: e.to_string(),
            }),
        }
    }
    (gone, unchecked)
}

/// Why a project's root can be forgotten: `Some("folder")` only when its folder is gone
/// (ENOENT, which the OS answers only after reading the parent), `Some("agx.lock")` when the
/// folder is there without its lock. A folder agx may not read, or a path that runs through
/// a file, is an error: the project may well be there, so it is kept.
fn gone_reason(project: &Path) -> std::io::Result<Option<&'static str>> {
    let folder = std::fs::metadata(project);
    let lock = match &folder {
        Ok(meta) if meta.is_dir() => Some(std::fs::metadata(project.join(PROJECT_LOCK))),
        _ => None,
    };
    classify(folder, lock)
}

/// [`gone_reason`] from what looking at the folder and (when it is a folder) its lock gave.
fn classify(
    folder: std::io::Result<std::fs::Metadata>,
    lock: Option<std::io::Result<std::fs::Metadata>>,
) -> std::io::Result<Option<&'static str>> {
    use std::io::{Error, ErrorKind};
    match folder {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Some("folder")),
        Err(e) => return Err(e),
        Ok(meta) if !meta.is_dir() => {
            return Err(Error::new(ErrorKind::NotADirectory, "it is not a folder"));
        }
        Ok(_) => {}
    }
    match lock {
        Some(Ok(meta)) if meta.is_file() => Ok(None),
        Some(Ok(_)) => Ok(Some(PROJECT_LOCK)),
        Some(Err(e)) if e.kind() == ErrorKind::NotFound => Ok(Some(PROJECT_LOCK)),
        Some(Err(e)) => Err(e),
        None => Ok(None),
    }
}

/// Every complete version folder that `holdings` does not hold. Incomplete folders are
/// leftovers every writer removes (see `Store::lock`).
fn unheld_versions(store: &Store, holdings: &Holdings) -> Result<Vec<UnheldVersion>, StoreError> {
    let mut unheld = Vec::new();
    for name_dir in store.package_dirs()? {
        let Some(name) = Store::package_of_dir(&name_dir) else {
            continue;
        };
        for dir in agx_dirs(&name_dir)? {
            let Some(version) = file_name(&dir).and_then(|v| semver::Version::parse(v).ok()) else {
                continue;
            };
            if super::is_complete_dir(&dir) && !holdings.is_held(&name, &version) {
                let caches = store.data_dir_of(&dir).map_or(0, |data| size_of(&data));
                unheld.push(UnheldVersion {
                    name: name.clone(),
                    version,
                    bytes: size_of(&dir) + caches,
                    dir,
                });
            }
        }
    }
    unheld.sort_by(|a, b| (a.name.to_string(), &a.version).cmp(&(b.name.to_string(), &b.version)));
    Ok(unheld)
}

/// Bytes of the files under `path` (links not followed); what cannot be read counts as 0.
fn size_of(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| size_of(&e.path())).sum())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{COMPLETE_MARKER, HeldVersion, ProjectRoot};
    use agx_core::paths::AgxPaths;

    /// gc took a project folder it could not read for a deleted one and removed its
    /// versions: only ENOENT forgets a project. (Tests run as root, where a chmod 000 folder
    /// stays readable, so the unreadable case is a path through a regular file, ENOTDIR,
    /// and the classification is checked with the kinds the OS gives.)
    #[test]
    fn only_a_folder_that_is_gone_is_forgotten() {
        use std::io::{Error, ErrorKind};
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let through_a_file = gone_reason(&file.join("project")).unwrap_err();
        assert_eq!(through_a_file.kind(), ErrorKind::NotADirectory);
        assert!(gone_reason(&file).is_err(), "a file where the folder was");
        assert_eq!(
            gone_reason(&tmp.path().join("gone/project")).unwrap(),
            Some("folder")
        );
        assert_eq!(gone_reason(tmp.path()).unwrap(), Some(PROJECT_LOCK));
        let denied = || Err(Error::from(ErrorKind::PermissionDenied));
        assert!(classify(denied(), None).is_err());
        let folder = || std::fs::metadata(tmp.path());
        assert!(classify(folder(), Some(denied())).is_err());
        assert_eq!(
            classify(folder(), Some(Err(ErrorKind::NotFound.into()))).unwrap(),
            Some(PROJECT_LOCK)
        );
    }

    #[test]
    fn a_project_that_cannot_be_checked_keeps_its_versions() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().join("home"), true));
        let name = PackageName::parse("acme/weather").unwrap();
        let version = semver::Version::parse("1.0.0").unwrap();
        let dir = store.package_dir(&name, &version);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(COMPLETE_MARKER), "x").unwrap();
        let blocker = tmp.path().join("mnt");
        std::fs::write(&blocker, "not a folder").unwrap();
        let project = blocker.join("project");
        let root = ProjectRoot {
            project: project.clone(),
            packages: vec![HeldVersion {
                name: name.clone(),
                version: version.clone(),
                sha256: "x".into(),
                source: String::new(),
                dependencies: Default::default(),
            }],
        };
        root.write(&store.project_root_path(&project)).unwrap();
        let planned = plan(&store).unwrap();
        assert!(planned.projects.is_empty(), "{:?}", planned.projects);
        assert!(planned.versions.is_empty(), "{:?}", planned.versions);
        assert_eq!(planned.unchecked[0].project, project);
        let done = apply(&store, planned).unwrap();
        assert_eq!(done.unchecked.len(), 1);
        assert!(store.has_version(&name, &version, None));
        assert_eq!(store.project_roots().unwrap().len(), 1);
    }

    #[test]
    fn removes_only_what_no_root_holds() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().join("home"), true));
        let name = PackageName::parse("acme/weather").unwrap();
        let version = |v: &str| semver::Version::parse(v).unwrap();
        for v in ["1.0.0", "1.1.0"] {
            let dir = store.package_dir(&name, &version(v));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(COMPLETE_MARKER), "x").unwrap();
            std::fs::write(dir.join("data"), "0123456789").unwrap();
        }
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join(PROJECT_LOCK), "").unwrap();
        let root = ProjectRoot {
            project: project.clone(),
            packages: vec![HeldVersion {
                name: name.clone(),
                version: version("1.1.0"),
                sha256: "x".into(),
                source: String::new(),
                dependencies: Default::default(),
            }],
        };
        root.write(&store.project_root_path(&project)).unwrap();

        let planned = plan(&store).unwrap();
        assert!(planned.projects.is_empty());
        assert_eq!(planned.versions.len(), 1);
        assert_eq!(planned.versions[0].version, version("1.0.0"));
        assert_eq!(planned.versions[0].bytes, 11);
        let done = apply(&store, planned).unwrap();
        assert_eq!(done.versions.len(), 1);
        assert!(store.has_version(&name, &version("1.1.0"), None));
        assert!(!store.has_version(&name, &version("1.0.0"), None));

        // The project's lock goes: the project is forgotten and its version with it.
        std::fs::remove_file(project.join(PROJECT_LOCK)).unwrap();
        let planned = plan(&store).unwrap();
        assert_eq!(planned.projects[0].missing, PROJECT_LOCK);
        assert_eq!(planned.versions[0].version, version("1.1.0"));
        apply(&store, planned).unwrap();
        assert!(store.project_roots().unwrap().is_empty());
        assert!(!store.store_dir().join("acme/weather").exists());
        assert!(plan(&store).unwrap().is_empty());
    }

    #[test]
    fn caches_go_with_their_versions_and_orphans_are_collected() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().join("home"), true));
        let name = PackageName::parse("npm/@acme/weather").unwrap();
        let version = |v: &str| semver::Version::parse(v).unwrap();
        // 1.0.0 is in the store, held by no root; 0.9.0 was removed without its caches.
        let dir = store.package_dir(&name, &version("1.0.0"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(COMPLETE_MARKER), "x").unwrap();
        let data = store.data_dir_of(&dir).unwrap();
        std::fs::create_dir_all(data.join("node-compile-cache")).unwrap();
        std::fs::write(data.join("node-compile-cache/entry"), "0123456789").unwrap();
        let orphan = store
            .data_dir_of(&store.package_dir(&name, &version("0.9.0")))
            .unwrap();
        std::fs::create_dir_all(&orphan).unwrap();
        std::fs::write(orphan.join("node.toml"), "12345").unwrap();

        let planned = plan(&store).unwrap();
        assert_eq!(planned.versions.len(), 1);
        assert_eq!(planned.versions[0].bytes, 11, "the version's caches count");
        assert_eq!(planned.caches, [(orphan.clone(), 5)]);
        assert_eq!(planned.bytes(), 16);
        let done = apply(&store, planned).unwrap();
        assert_eq!(done.caches.len(), 1);
        assert!(!data.exists() && !orphan.exists());
        assert!(!tmp.path().join("home/data-v1/npm").exists());
        assert!(plan(&store).unwrap().is_empty());
    }
}
