//! Roots: who holds which installed versions. The user is one root, recorded by the receipts
//! (`receipts-v1/`, one version per package, unchanged since the first store); each project
//! is another, recorded by one file under `roots-v1/` that names exactly the versions its
//! lock needs. A version folder stays while some root holds it; `agx gc` removes the rest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use agx_core::fsutil;
use agx_core::name::PackageName;

/// Who holds an installed version.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holder {
    /// The user's own installs (and the dependencies they pulled in).
    User,
    /// A project, by its absolute folder.
    Project(PathBuf),
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Holder::User => f.write_str("user"),
            Holder::Project(path) => write!(f, "project {}", path.display()),
        }
    }
}

/// One version a project holds, with what its lock recorded about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldVersion {
    pub name: PackageName,
    pub version: semver::Version,
    pub sha256: String,
    /// Registry URL or path, a local package path, or an ecosystem spec.
    pub source: String,
    /// The exact versions of its dependencies, as the lock chose them.
    #[serde(default)]
    pub dependencies: BTreeMap<PackageName, semver::Version>,
}

/// `roots-v1/<hash of the folder>.toml`: the versions one project holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectRoot {
    /// The project's absolute folder.
    pub project: PathBuf,
    #[serde(default)]
    pub packages: Vec<HeldVersion>,
}

impl ProjectRoot {
    pub fn read(path: &Path) -> Result<ProjectRoot, StoreError> {
        let text = fs_err::read_to_string(path)?;
        toml::from_str(&text).map_err(|e| StoreError::BadRoot {
            path: path.to_path_buf(),
            reason: e.message().to_string(),
        })
    }

    /// Write atomically (temporary file and rename), so a crash leaves the old or the new.
    pub fn write(&self, path: &Path) -> Result<(), StoreError> {
        let text = toml::to_string(self).map_err(|e| StoreError::BadRoot {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        Ok(agx_core::atomic::write_file(path, text.as_bytes(), None)?)
    }

    /// The version of `name` this project holds.
    pub fn version_of(&self, name: &PackageName) -> Option<&semver::Version> {
        self.packages
            .iter()
            .find(|p| &p.name == name)
            .map(|p| &p.version)
    }

    pub fn holds(&self, name: &PackageName, version: &semver::Version) -> bool {
        self.version_of(name) == Some(version)
    }
}

/// Every installed version and its holders, as read from receipts and project roots.
#[derive(Debug, Default)]
pub struct Holdings {
    pub held: BTreeMap<(PackageName, semver::Version), BTreeSet<Holder>>,
    /// Packages with a damaged receipt: which version the user holds is unknown, so every
    /// version of them counts as held until the receipt is repaired or deleted.
    pub unknown: BTreeSet<PackageName>,
    /// The project roots, by their file.
    pub projects: Vec<(PathBuf, ProjectRoot)>,
}

impl Holdings {
    pub fn holders(&self, name: &PackageName, version: &semver::Version) -> Vec<Holder> {
        self.held
            .get(&(name.clone(), version.clone()))
            .map(|h| h.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub fn is_held(&self, name: &PackageName, version: &semver::Version) -> bool {
        self.unknown.contains(name) || self.held.contains_key(&(name.clone(), version.clone()))
    }

    /// The projects holding that version (the user aside).
    pub fn projects_holding(&self, name: &PackageName, version: &semver::Version) -> Vec<PathBuf> {
        self.holders(name, version)
            .into_iter()
            .filter_map(|h| match h {
                Holder::Project(p) => Some(p),
                Holder::User => None,
            })
            .collect()
    }
}

impl Store {
    /// `roots-v1/`, beside `receipts-v1/`.
    pub fn roots_dir(&self) -> PathBuf {
        self.receipts_dir.with_file_name("roots-v1")
    }

    /// The root file of a project folder (absolute): named by a hash of the path, which it
    /// also records, so any path maps to one file name.
    pub fn project_root_path(&self, project: &Path) -> PathBuf {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(project.as_os_str().as_encoded_bytes());
        self.roots_dir()
            .join(format!("{}.toml", &hex::encode(digest)[..16]))
    }

    /// The versions a project holds, if it holds any.
    pub fn project_root(&self, project: &Path) -> Result<Option<ProjectRoot>, StoreError> {
        let path = self.project_root_path(project);
        if !path.is_file() {
            return Ok(None);
        }
        ProjectRoot::read(&path).map(Some)
    }

    /// Every project root. A damaged file is an error naming it: what it holds is unknown,
    /// and guessing could lose a project's packages.
    pub fn project_roots(&self) -> Result<Vec<(PathBuf, ProjectRoot)>, StoreError> {
        let mut roots = Vec::new();
        for path in fsutil::read_dir_paths(&self.roots_dir())? {
            let is_root = path.extension().is_some_and(|e| e == "toml")
                && super::file_name(&path).is_some_and(|n| !n.starts_with('.'))
                && path.is_file();
            if is_root {
                let root = ProjectRoot::read(&path)?;
                roots.push((path, root));
            }
        }
        roots.sort_by(|a, b| a.1.project.cmp(&b.1.project));
        Ok(roots)
    }

    /// Who holds what: the user's receipts and every project root.
    pub fn holdings(&self) -> Result<Holdings, StoreError> {
        let mut user = Vec::new();
        let mut unknown = std::collections::BTreeSet::new();
        for path in self.receipt_paths()? {
            match super::ReceiptHeader::read(&path) {
                Ok(header) => user.push((header.name, header.version)),
                Err(StoreError::BadReceipt { .. }) => {
                    unknown.extend(super::receipt::name_of(&path));
                }
                Err(e) => return Err(e),
            }
        }
        let mut holdings = self.holdings_beside(user)?;
        holdings.unknown = unknown;
        Ok(holdings)
    }

    /// [`Store::holdings`] from the user's versions already read (`list` has them).
    pub fn holdings_beside(
        &self,
        user: impl IntoIterator<Item = (PackageName, semver::Version)>,
    ) -> Result<Holdings, StoreError> {
        let mut holdings = Holdings::default();
        for key in user {
            holdings.held.entry(key).or_default().insert(Holder::User);
        }
        holdings.projects = self.project_roots()?;
        for (_, root) in &holdings.projects {
            for package in &root.packages {
                holdings
                    .held
                    .entry((package.name.clone(), package.version.clone()))
                    .or_default()
                    .insert(Holder::Project(root.project.clone()));
            }
        }
        Ok(holdings)
    }

    /// Every complete version of `name`, oldest first, with who holds it (nobody, for a
    /// version waiting for `agx gc`).
    pub fn versions_with_holders(
        &self,
        name: &PackageName,
    ) -> Result<Vec<(semver::Version, Vec<Holder>)>, StoreError> {
        let holdings = self.holdings()?;
        Ok(self
            .installed_versions(name)?
            .into_iter()
            .map(|v| {
                let holders = holdings.holders(name, &v);
                (v, holders)
            })
            .collect())
    }

    /// The projects (other than the user) holding that version. Cheap when no project
    /// exists: one folder listing.
    pub fn projects_holding(
        &self,
        name: &PackageName,
        version: &semver::Version,
    ) -> Result<Vec<PathBuf>, StoreError> {
        Ok(self
            .project_roots()?
            .into_iter()
            .filter(|(_, root)| root.holds(name, version))
            .map(|(_, root)| root.project)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agx_core::paths::AgxPaths;

    #[test]
    fn project_roots_round_trip_and_name_their_holders() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&AgxPaths::under(tmp.path().to_path_buf(), true));
        let name = PackageName::parse("acme/weather").unwrap();
        let v = semver::Version::new(1, 1, 0);
        let root = ProjectRoot {
            project: PathBuf::from("/work/a"),
            packages: vec![HeldVersion {
                name: name.clone(),
                version: v.clone(),
                sha256: "ab".repeat(32),
                source: "http://127.0.0.1:1/".into(),
                dependencies: [(
                    PackageName::parse("acme/geo").unwrap(),
                    semver::Version::new(1, 0, 0),
                )]
                .into(),
            }],
        };
        let path = store.project_root_path(&root.project);
        assert!(path.starts_with(tmp.path().join("roots-v1")));
        assert_ne!(path, store.project_root_path(Path::new("/work/b")));
        root.write(&path).unwrap();
        assert_eq!(
            store.project_root(&root.project).unwrap(),
            Some(root.clone())
        );
        let holdings = store.holdings().unwrap();
        assert_eq!(
            holdings.holders(&name, &v),
            [Holder::Project(PathBuf::from("/work/a"))]
        );
        assert!(!holdings.is_held(&name, &semver::Version::new(1, 2, 0)));

        std::fs::write(&path, "project = 3").unwrap();
        let err = store.holdings().unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
    }
}
