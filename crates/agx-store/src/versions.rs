//! Versions side by side: what is installed of a package whoever holds it, the receipt
//! inside each version folder, and which versions `agx serve` uses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{
    COMPLETE_MARKER, ProjectRoot, Receipt, Store, StoreError, VERSION_RECEIPT, agx_dirs, file_name,
    is_complete_dir,
};
use agx_core::name::PackageName;

/// The versions `agx serve` uses for a server's package and its dependencies.
#[derive(Debug, Clone)]
pub struct ServedVersion {
    pub version: semver::Version,
    pub dir: PathBuf,
    /// The dependency versions of the root that holds it; `None` when the user's installs
    /// are the ones to use.
    pub dependencies: Option<BTreeMap<PackageName, semver::Version>>,
    /// Said in the log when the choice is not the user's version.
    pub note: Option<String>,
}

impl Store {
    /// True when `name` `version` is installed and complete; with `sha256`, only when its
    /// files came from an archive of that hash.
    pub fn has_version(
        &self,
        name: &PackageName,
        version: &semver::Version,
        sha256: Option<&str>,
    ) -> bool {
        let dir = self.package_dir(name, version);
        let Ok(marker) = std::fs::read_to_string(dir.join(COMPLETE_MARKER)) else {
            return false;
        };
        match sha256 {
            None => true,
            Some(want) if marker.trim() == want => true,
            // A marker that records no hash: ask the version's receipt.
            Some(want) => {
                marker.trim().is_empty()
                    && self
                        .version_receipt(name, version)
                        .is_some_and(|r| r.sha256 == want)
            }
        }
    }

    /// Every complete version folder of a package, oldest first.
    pub fn installed_versions(
        &self,
        name: &PackageName,
    ) -> Result<Vec<semver::Version>, StoreError> {
        let mut versions: Vec<semver::Version> = agx_dirs(&self.versions_dir(name))?
            .iter()
            .filter(|dir| is_complete_dir(dir))
            .filter_map(|dir| semver::Version::parse(file_name(dir)?).ok())
            .collect();
        versions.sort();
        Ok(versions)
    }

    /// The receipt of an installed version: the one in its folder, or for a version installed
    /// by an older agx, the user's receipt when it names that version.
    pub fn version_receipt(
        &self,
        name: &PackageName,
        version: &semver::Version,
    ) -> Option<Receipt> {
        let in_folder = self.package_dir(name, version).join(VERSION_RECEIPT);
        if let Ok(receipt) = Receipt::read(&in_folder) {
            return Some(receipt);
        }
        self.readable_receipt(name)
            .ok()
            .flatten()
            .filter(|r| &r.version == version)
    }

    /// The user no longer holds `prev` (its receipt names another version or is gone):
    /// remove its files, unless a project holds them, which then keep its receipt in the
    /// version folder. Returns the projects that keep it. The caller holds the exclusive lock.
    pub fn release_user_version(&self, prev: &Receipt) -> Result<Vec<PathBuf>, StoreError> {
        let old = self.package_dir(&prev.name, &prev.version);
        let holders = self.projects_holding(&prev.name, &prev.version)?;
        if holders.is_empty() {
            self.discard_version(&old)?;
        } else if !old.join(VERSION_RECEIPT).is_file() && old.is_dir() {
            // Installed by an older agx, whose version folders hold no receipt.
            let mut kept = prev.clone();
            kept.explicit = false;
            kept.write(&old.join(VERSION_RECEIPT))?;
        }
        Ok(holders)
    }

    /// Remove a version folder and its data folder (its compiled-code caches), and its
    /// package's and publisher's folders when it was their last. The caller holds the
    /// exclusive lock.
    pub(crate) fn discard_version(&self, dir: &Path) -> Result<(), StoreError> {
        agx_core::fsutil::discard_tree(dir, &self.staging_dir())?;
        remove_with_empty_parents(dir, self.store_dir());
        if let Some(data) = self.data_dir_of(dir) {
            self.discard_data(&data)?;
        }
        if let Some(pins) = self.pins_file(dir, "_").as_deref().and_then(Path::parent) {
            agx_core::fsutil::remove_tree(pins)?;
            remove_with_empty_parents(pins, &self.pins_dir);
        }
        Ok(())
    }

    /// Remove a version's data folder, and its package's and publisher's data folders when
    /// they are left empty.
    pub fn discard_data(&self, data: &Path) -> Result<(), StoreError> {
        agx_core::fsutil::remove_tree(data)?;
        remove_with_empty_parents(data, &self.data_dir);
        Ok(())
    }

    /// Which version of `name` to serve, and with which dependency versions. Pinned: exactly
    /// that version, with the dependencies its holding project recorded (the user's when the
    /// user holds it). Unpinned: the user's version; when the user has none, the newest
    /// version a project holds.
    pub fn served_version(
        &self,
        name: &PackageName,
        pinned: Option<&semver::Version>,
        cwd: Option<&Path>,
    ) -> Result<Option<ServedVersion>, StoreError> {
        // Only the receipt's root keys: `agx serve` starts on every client launch. A damaged
        // receipt is an error here, with its repair hint.
        let receipt = self.receipt_path(name);
        let user = if receipt.is_file() {
            Some(super::ReceiptHeader::read(&receipt)?.version)
        } else {
            None
        };
        let version = match (pinned, &user) {
            (Some(v), _) => v.clone(),
            (None, Some(user)) => user.clone(),
            (None, None) => match self.installed_versions(name)?.pop() {
                Some(newest) => newest,
                None => return Ok(None),
            },
        };
        let dir = self.package_dir(name, &version);
        if !is_complete_dir(&dir) {
            return match (pinned, &user) {
                (Some(v), _) if user.as_ref() != Some(v) => Err(StoreError::VersionNotInstalled {
                    name: name.clone(),
                    version: v.clone(),
                }),
                _ => Err(StoreError::Damaged {
                    name: name.clone(),
                    version,
                    dir,
                }),
            };
        }
        if user.as_ref() == Some(&version) {
            return Ok(Some(ServedVersion {
                version,
                dir,
                dependencies: None,
                note: None,
            }));
        }
        let holder = self.holding_project(name, &version, cwd)?;
        let note = match (&holder, pinned) {
            (Some(root), None) => Some(format!(
                "{name} is not installed for the user; serving {version}, held by project {}",
                root.project.display()
            )),
            (None, None) => Some(format!(
                "{name} is not installed for the user; serving {version}, which no project holds"
            )),
            _ => None,
        };
        let dependencies = holder.map(|root| {
            root.packages
                .into_iter()
                .map(|p| (p.name, p.version))
                .collect()
        });
        Ok(Some(ServedVersion {
            version,
            dir,
            dependencies,
            note,
        }))
    }

    /// A project holding that version: the one containing `cwd` when there is one (its
    /// client entries start servers there), else the first.
    fn holding_project(
        &self,
        name: &PackageName,
        version: &semver::Version,
        cwd: Option<&Path>,
    ) -> Result<Option<ProjectRoot>, StoreError> {
        let mut holding: Vec<ProjectRoot> = self
            .project_roots()?
            .into_iter()
            .map(|(_, root)| root)
            .filter(|root| root.holds(name, version))
            .collect();
        let here = cwd.and_then(|cwd| holding.iter().position(|r| cwd.starts_with(&r.project)));
        Ok(match here {
            Some(i) => Some(holding.swap_remove(i)),
            None => holding.into_iter().next(),
        })
    }

    /// The folder of a dependency at the version `dependencies` names (the user's version
    /// when it names none).
    pub fn dependency_dir(
        &self,
        name: &PackageName,
        dependencies: Option<&BTreeMap<PackageName, semver::Version>>,
    ) -> Result<Option<PathBuf>, StoreError> {
        match dependencies.and_then(|d| d.get(name)) {
            Some(version) => {
                let dir = self.package_dir(name, version);
                if is_complete_dir(&dir) {
                    Ok(Some(dir))
                } else {
                    Err(StoreError::VersionNotInstalled {
                        name: name.clone(),
                        version: version.clone(),
                    })
                }
            }
            None => self.installed_dir(name),
        }
    }
}

/// Remove the package and publisher folders above the removed version folder `dir` that
/// are left empty (`remove_dir` fails on a folder that is not), never `top` itself.
fn remove_with_empty_parents(dir: &Path, top: &Path) {
    let mut parent = dir.parent();
    for _ in 0..2 {
        match parent {
            Some(p) if p != top && fs_err::remove_dir(p).is_ok() => {
                parent = p.parent();
            }
            _ => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HeldVersion, Source};
    use agx_core::paths::AgxPaths;

    fn put(store: &Store, name: &PackageName, version: &str, sha: &str) -> semver::Version {
        let v = semver::Version::parse(version).unwrap();
        let dir = store.package_dir(name, &v);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(COMPLETE_MARKER), sha).unwrap();
        v
    }

    fn user_receipt(store: &Store, name: &PackageName, version: &semver::Version) {
        Receipt {
            name: name.clone(),
            version: version.clone(),
            sha256: "aa".into(),
            files: None,
            requested: semver::VersionReq::STAR,
            explicit: true,
            installed_at: String::new(),
            description: None,
            accepted_findings: Vec::new(),
            dependencies: Default::default(),
            source: Source::Local { path: "/x".into() },
            provenance: None,
            extension: Default::default(),
        }
        .write(&store.receipt_path(name))
        .unwrap();
    }

    #[test]
    fn serves_the_users_version_a_pinned_one_or_the_newest_held() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().to_path_buf(), true));
        let weather = PackageName::parse("acme/weather").unwrap();
        let geo = PackageName::parse("acme/geo").unwrap();
        let v11 = put(&store, &weather, "1.1.0", "bb");
        let v12 = put(&store, &weather, "1.2.0", "cc");
        let geo1 = put(&store, &geo, "1.0.0", "dd");
        assert!(store.has_version(&weather, &v11, Some("bb")));
        assert!(!store.has_version(&weather, &v11, Some("cc")));
        assert!(!store.has_version(&weather, &semver::Version::new(9, 0, 0), None));
        assert_eq!(
            store.installed_versions(&weather).unwrap(),
            [v11.clone(), v12.clone()]
        );

        // Only project versions: the newest, said in a note.
        let served = store.served_version(&weather, None, None).unwrap().unwrap();
        assert_eq!(served.version, v12);
        assert!(served.note.unwrap().contains("which no project holds"));

        ProjectRoot {
            project: "/p".into(),
            packages: [(&weather, &v11), (&geo, &geo1)]
                .iter()
                .map(|(n, v)| HeldVersion {
                    name: (*n).clone(),
                    version: (*v).clone(),
                    sha256: String::new(),
                    source: String::new(),
                    dependencies: Default::default(),
                })
                .collect(),
        }
        .write(&store.project_root_path(Path::new("/p")))
        .unwrap();
        user_receipt(&store, &weather, &v12);
        let user = store.served_version(&weather, None, None).unwrap().unwrap();
        assert_eq!(
            (user.version, user.dependencies, user.note),
            (v12, None, None)
        );
        let pinned = store
            .served_version(&weather, Some(&v11), None)
            .unwrap()
            .unwrap();
        assert_eq!(pinned.version, v11);
        let deps = pinned.dependencies.unwrap();
        assert_eq!(
            store.dependency_dir(&geo, Some(&deps)).unwrap(),
            Some(store.package_dir(&geo, &geo1))
        );
        let err = store
            .served_version(&weather, Some(&semver::Version::new(1, 0, 0)), None)
            .unwrap_err();
        assert!(
            matches!(err, StoreError::VersionNotInstalled { .. }),
            "{err}"
        );
    }
}
