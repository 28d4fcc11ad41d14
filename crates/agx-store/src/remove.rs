//! Uninstall: the receipt goes first (the package is then no longer installed), the files
//! after. Dependencies installed only for the removed packages go with them.

use std::collections::{BTreeMap, BTreeSet};

use super::{InstalledPackage, Store, StoreError};
use agx_core::fsutil;
use agx_core::name::PackageName;

/// One removed package and whether it went as an unneeded dependency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    pub name: PackageName,
    pub version: semver::Version,
    pub as_dependency: bool,
    /// Projects that still hold this version: its files stay for them.
    pub kept_for: Vec<std::path::PathBuf>,
}

/// What an uninstall did.
#[derive(Debug, Clone, Default)]
pub struct Uninstalled {
    pub removed: Vec<Removed>,
    /// With `force`: installed packages left without a dependency (`name version needs dep`).
    pub broken: Vec<String>,
}

/// Remove a package's data folder (`agx uninstall --purge`); returns whether there was one.
pub fn purge_data(data_dir: &std::path::Path) -> Result<bool, StoreError> {
    if !data_dir.exists() {
        return Ok(false);
    }
    agx_core::fsutil::remove_tree(data_dir)?;
    Ok(true)
}

/// Remove `names` (the caller holds the exclusive lock). Refuses, before changing anything,
/// when a package is not installed or when other installed packages depend on one, unless
/// `force`.
pub fn uninstall(
    store: &Store,
    names: &[PackageName],
    force: bool,
) -> Result<Uninstalled, StoreError> {
    let mut done = Uninstalled::default();
    let installed: BTreeMap<PackageName, InstalledPackage> = store
        .list()?
        .into_iter()
        .map(|p| (p.name.clone(), p))
        .collect();
    let requested: BTreeSet<&PackageName> = names.iter().collect();
    for name in names {
        if !installed.contains_key(name) {
            // A damaged receipt: say so, with its repair hint, rather than "not installed".
            store.check_receipt_readable(name)?;
            let projects: Vec<String> = store
                .project_roots()?
                .into_iter()
                .filter(|(_, root)| root.version_of(name).is_some())
                .map(|(_, root)| root.project.display().to_string())
                .collect();
            if !projects.is_empty() {
                return Err(StoreError::HeldByProjectsOnly {
                    name: name.clone(),
                    projects,
                });
            }
            return Err(StoreError::NotInstalled { name: name.clone() });
        }
        let dependents: Vec<String> = dependents_of(&installed, name)
            .filter(|d| !requested.contains(&d.name))
            .map(|d| format!("{} {}", d.name, d.version))
            .collect();
        if !dependents.is_empty() && !force {
            return Err(StoreError::HasDependents {
                name: name.clone(),
                dependents,
            });
        }
        done.broken
            .extend(dependents.iter().map(|d| format!("{d} needs {name}")));
    }

    let mut removing: Vec<(&InstalledPackage, bool)> =
        names.iter().map(|n| (&installed[n], false)).collect();
    // Dependencies nobody else needs any more, found breadth-first from the removed ones.
    let mut next = 0;
    while next < removing.len() {
        let (package, _) = removing[next];
        next += 1;
        for dep in package.receipt.dependencies.keys() {
            let Some(candidate) = installed.get(dep) else {
                continue;
            };
            let already = removing.iter().any(|(p, _)| p.name == *dep);
            let still_needed = dependents_of(&installed, dep)
                .any(|d| !removing.iter().any(|(p, _)| p.name == d.name));
            if !candidate.receipt.explicit && !already && !still_needed {
                removing.push((candidate, true));
            }
        }
    }

    for (package, as_dependency) in removing {
        fsutil::remove_file(&store.receipt_path(&package.name))?;
        let kept_for = store.release_user_version(&package.receipt)?;
        done.removed.push(Removed {
            name: package.name.clone(),
            version: package.version.clone(),
            as_dependency,
            kept_for,
        });
    }
    Ok(done)
}

/// Installed packages whose receipts list `name` as a dependency.
pub fn dependents_of<'a>(
    installed: &'a BTreeMap<PackageName, InstalledPackage>,
    name: &'a PackageName,
) -> impl Iterator<Item = &'a InstalledPackage> + 'a {
    installed
        .values()
        .filter(move |p| p.receipt.dependencies.contains_key(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{COMPLETE_MARKER, Receipt, Source};
    use agx_core::paths::AgxPaths;

    fn install_fake(store: &Store, name: &str, deps: &[&str], explicit: bool) {
        let name = PackageName::parse(name).unwrap();
        let version = semver::Version::new(1, 0, 0);
        let dir = store.package_dir(&name, &version);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(COMPLETE_MARKER), "").unwrap();
        Receipt {
            name: name.clone(),
            version,
            sha256: String::new(),
            files: None,
            requested: semver::VersionReq::STAR,
            explicit,
            installed_at: String::new(),
            description: None,
            accepted_findings: Vec::new(),
            dependencies: deps
                .iter()
                .map(|d| (PackageName::parse(d).unwrap(), semver::VersionReq::STAR))
                .collect(),
            source: Source::Local { path: "/x".into() },
            provenance: None,
            extension: Default::default(),
        }
        .write(&store.receipt_path(&name))
        .unwrap();
    }

    fn names(store: &Store) -> Vec<String> {
        store
            .list()
            .unwrap()
            .iter()
            .map(|p| p.name.to_string())
            .collect()
    }

    #[test]
    fn refuses_dependents_then_removes_unneeded_dependencies() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().to_path_buf(), true));
        install_fake(&store, "acme/geo", &[], false);
        install_fake(&store, "acme/units", &[], false);
        install_fake(&store, "acme/weather", &["acme/geo", "acme/units"], true);
        install_fake(&store, "acme/maps", &["acme/geo"], true);
        let geo = PackageName::parse("acme/geo").unwrap();
        let err = uninstall(&store, std::slice::from_ref(&geo), false).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("acme/maps 1.0.0, acme/weather 1.0.0"),
            "{text}"
        );

        let weather = PackageName::parse("acme/weather").unwrap();
        let removed = uninstall(&store, &[weather], false).unwrap().removed;
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(removed[1].as_dependency && removed[1].name.to_string() == "acme/units");
        assert_eq!(names(&store), ["acme/geo", "acme/maps"]);
        assert!(!store.store_dir().join("acme/weather").exists());

        let maps = PackageName::parse("acme/maps").unwrap();
        uninstall(&store, std::slice::from_ref(&maps), false).unwrap();
        assert!(names(&store).is_empty(), "geo went with its last dependent");
        let err = uninstall(&store, std::slice::from_ref(&geo), true).unwrap_err();
        assert!(matches!(err, StoreError::NotInstalled { .. }));

        install_fake(&store, "acme/geo", &[], true);
        install_fake(&store, "acme/maps", &["acme/geo"], true);
        let forced = uninstall(&store, std::slice::from_ref(&geo), true).unwrap();
        assert_eq!(forced.broken, ["acme/maps 1.0.0 needs acme/geo"]);
        assert_eq!(names(&store), ["acme/maps"]);
    }
}
