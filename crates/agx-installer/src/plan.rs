//! Turning requested packages into an install plan: `agx_sources::resolve` chooses the versions;
//! this adds what the store knows (forced reinstalls, damaged packages, and the requirements
//! of installed packages that stay) and says what to download.

use std::collections::BTreeMap;
use std::path::Path;

use agx_core::name::{PackageName, PackageSpec};
use agx_sources::index::{IndexEntry, IndexError, Registry};
use agx_sources::resolve::{self, Action};

use agx_store::{Receipt, StoreError};

/// Where packages come from: the registry (an in-memory list in tests).
pub trait PackageSource {
    /// Human-readable source (URL or path), recorded in receipts.
    fn source(&self) -> String;

    /// What the packages were verified against (`tuf: NAME, root vN`), for a signed source;
    /// asked after the downloads, when the source's metadata is loaded.
    fn verified(&self) -> Option<String> {
        None
    }

    /// Every published version of a package, yanked ones included.
    fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError>;

    /// Download a version's tarball into `dest`, verifying its size and sha256.
    fn download(
        &self,
        entry: &IndexEntry,
        dest: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError>;

    /// Who signed a downloaded, checksum-verified archive, as its Sigstore bundle proves
    /// (the bundle is left at `bundle_file`); `None` when the source publishes no bundle.
    /// `trusted`: the signer recorded before, preferred among several signatures.
    fn provenance(
        &self,
        _entry: &IndexEntry,
        _archive: &Path,
        _bundle_file: &Path,
        _trusted: Option<&agx_store::provenance::Signer>,
    ) -> Result<Option<agx_store::provenance::Signer>, IndexError> {
        Ok(None)
    }

    /// How a version's archive holds its files: an agx package unless the source read it
    /// as a skill artifact.
    fn archive_form(&self, _entry: &IndexEntry) -> agx_sources::index::ArchiveForm {
        agx_sources::index::ArchiveForm::Package
    }
}

impl PackageSource for Registry {
    fn source(&self) -> String {
        Registry::source(self).to_string()
    }

    fn verified(&self) -> Option<String> {
        let signed = self.signature()?;
        // Loaded by the downloads before: this reads what they verified.
        let root = signed.root().ok()?;
        Some(format!("tuf: {}, root v{}", signed.name(), root.version))
    }

    fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
        Registry::versions(self, name)
    }

    fn download(
        &self,
        entry: &IndexEntry,
        dest: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError> {
        Registry::download(self, entry, dest, progress)
    }

    fn provenance(
        &self,
        entry: &IndexEntry,
        archive: &Path,
        bundle_file: &Path,
        trusted: Option<&agx_store::provenance::Signer>,
    ) -> Result<Option<agx_store::provenance::Signer>, IndexError> {
        Registry::provenance(self, entry, archive, bundle_file, trusted)
    }

    fn archive_form(&self, entry: &IndexEntry) -> agx_sources::index::ArchiveForm {
        Registry::archive_form(self, entry)
    }
}

/// A package the user asked for.
#[derive(Debug, Clone)]
pub struct Root {
    pub spec: PackageSpec,
    /// Install again even when an installed version satisfies the requirement.
    pub force: bool,
}

/// One package to download and install.
#[derive(Debug, Clone)]
pub struct PlannedInstall {
    pub entry: IndexEntry,
    /// The requirement to record: the user's for a root, the dependent's for a dependency.
    pub requested: semver::VersionReq,
    /// The version it replaces, when one is installed.
    pub replaces: Option<semver::Version>,
}

/// What to do, in order: dependencies come before the packages that need them.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub installs: Vec<PlannedInstall>,
    /// Roots already satisfied by an installed version.
    pub kept: Vec<(PackageName, semver::Version)>,
    /// Things to tell the user (e.g. a yanked version chosen by an exact request).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(
        "{name} {version} would replace {name} {installed}, but the installed {dependent} {dependent_version} requires {name} {req}"
    )]
    BreaksInstalled {
        name: PackageName,
        version: semver::Version,
        installed: semver::Version,
        dependent: PackageName,
        dependent_version: semver::Version,
        req: semver::VersionReq,
    },
}

impl agx_core::error::Hint for PlanError {
    fn hint(&self) -> Option<String> {
        match self {
            PlanError::BreaksInstalled { dependent, .. } => Some(format!(
                "update {dependent} too (`agx update {dependent}`), or ask for a version it accepts"
            )),
        }
    }
}

/// Plan the installation of `roots` given the installed receipts.
pub fn plan(
    source: &dyn PackageSource,
    installed: &BTreeMap<PackageName, Receipt>,
    roots: &[Root],
) -> Result<Plan, StoreError> {
    // A forced root counts as not installed, so the resolver picks it afresh.
    let versions: BTreeMap<PackageName, semver::Version> = installed
        .iter()
        .filter(|(name, _)| !roots.iter().any(|r| r.force && &r.spec.name == *name))
        .map(|(name, r)| (name.clone(), r.version.clone()))
        .collect();
    let specs: Vec<PackageSpec> = roots.iter().map(|r| r.spec.clone()).collect();
    let fetch = |name: &PackageName| source.versions(name);
    let resolution = resolve::resolve(&specs, &versions, &fetch)?;

    let mut plan = Plan {
        warnings: resolution.warnings.clone(),
        ..Plan::default()
    };
    for package in &resolution.packages {
        match (&package.action, &package.entry) {
            (Action::Keep, _) | (_, None) => {
                if package.explicit {
                    plan.kept
                        .push((package.name.clone(), package.version.clone()));
                }
            }
            (_, Some(entry)) => plan.installs.push(PlannedInstall {
                entry: entry.clone(),
                requested: package
                    .requested
                    .clone()
                    .or_else(|| dependent_requirement(&resolution, &package.name))
                    .unwrap_or(semver::VersionReq::STAR),
                replaces: installed.get(&package.name).map(|r| r.version.clone()),
            }),
        }
    }
    check_installed_dependents(installed, &plan)?;
    Ok(plan)
}

/// The requirement a chosen package's first dependent puts on it.
fn dependent_requirement(
    resolution: &resolve::Resolution,
    name: &PackageName,
) -> Option<semver::VersionReq> {
    resolution
        .packages
        .iter()
        .filter_map(|p| p.entry.as_ref()?.deps.get(name).cloned())
        .next()
}

/// Installed packages that stay must still accept the versions of their dependencies.
fn check_installed_dependents(
    installed: &BTreeMap<PackageName, Receipt>,
    plan: &Plan,
) -> Result<(), StoreError> {
    for change in &plan.installs {
        let Some(old) = &change.replaces else {
            continue;
        };
        let name = &change.entry.name;
        for receipt in installed.values() {
            let stays = !plan.installs.iter().any(|p| p.entry.name == receipt.name);
            if let Some(req) = receipt.dependencies.get(name)
                && stays
                && !req.matches(&change.entry.vers)
            {
                return Err(PlanError::BreaksInstalled {
                    name: name.clone(),
                    version: change.entry.vers.clone(),
                    installed: old.clone(),
                    dependent: receipt.name.clone(),
                    dependent_version: receipt.version.clone(),
                    req: req.clone(),
                }
                .into());
            }
        }
    }
    Ok(())
}

impl From<PlanError> for agx_store::StoreError {
    fn from(e: PlanError) -> Self {
        agx_store::StoreError::Upstream(agx_core::error::Upstream::new(e))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use agx_store::Source;

    /// Versions held in memory.
    pub(crate) struct MemorySource(pub Vec<IndexEntry>);

    impl PackageSource for MemorySource {
        fn source(&self) -> String {
            "memory".into()
        }

        fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
            Ok(self.0.iter().filter(|e| &e.name == name).cloned().collect())
        }

        fn download(
            &self,
            entry: &IndexEntry,
            _dest: &Path,
            _progress: &mut dyn FnMut(u64),
        ) -> Result<(), IndexError> {
            Err(IndexError::PackageNotFound {
                name: entry.name.clone(),
                registry: "memory".into(),
            })
        }
    }

    pub(crate) fn entry(name: &str, vers: &str, deps: &[(&str, &str)]) -> IndexEntry {
        IndexEntry {
            v: 1,
            name: PackageName::parse(name).unwrap(),
            vers: semver::Version::parse(vers).unwrap(),
            cksum: "00".repeat(32),
            size: 0,
            deps: deps
                .iter()
                .map(|(n, r)| {
                    (
                        PackageName::parse(n).unwrap(),
                        semver::VersionReq::parse(r).unwrap(),
                    )
                })
                .collect(),
            yanked: false,
            agx: None,
            provenance: None,
            description: None,
            extension: Default::default(),
        }
    }

    fn receipt(name: &str, vers: &str, deps: &[(&str, &str)]) -> (PackageName, Receipt) {
        let e = entry(name, vers, deps);
        let receipt = Receipt {
            name: e.name.clone(),
            version: e.vers,
            sha256: e.cksum,
            files: None,
            requested: semver::VersionReq::STAR,
            explicit: true,
            installed_at: String::new(),
            description: None,
            accepted_findings: Vec::new(),
            dependencies: e.deps,
            source: Source::Registry {
                registry: "test".into(),
                verified: None,
            },
            provenance: None,
            extension: Default::default(),
        };
        (e.name, receipt)
    }

    fn root(spec: &str, force: bool) -> Root {
        Root {
            spec: PackageSpec::parse(spec).unwrap(),
            force,
        }
    }

    fn registry() -> MemorySource {
        MemorySource(vec![
            entry("acme/geo", "1.0.0", &[]),
            entry("acme/geo", "1.4.0", &[]),
            entry("acme/geo", "2.0.0", &[]),
            entry("acme/weather", "1.1.0", &[("acme/geo", "^1.0")]),
            entry("acme/weather", "1.2.0", &[("acme/geo", "^1.0")]),
        ])
    }

    fn names(plan: &Plan) -> Vec<String> {
        plan.installs
            .iter()
            .map(|p| format!("{}@{}", p.entry.name, p.entry.vers))
            .collect()
    }

    #[test]
    fn keeps_installed_versions_unless_forced() {
        let installed = [receipt("acme/geo", "1.0.0", &[])].into();
        let plan = plan(&registry(), &installed, &[root("acme/weather", false)]).unwrap();
        assert_eq!(names(&plan), ["acme/weather@1.2.0"]);
        assert_eq!(plan.installs[0].requested.to_string(), "*");

        let installed = [receipt("acme/weather", "1.2.0", &[("acme/geo", "^1.0")])].into();
        let kept = super::plan(&registry(), &installed, &[root("acme/weather", false)]).unwrap();
        assert_eq!(names(&kept), ["acme/geo@1.4.0"]);
        assert_eq!(kept.kept.len(), 1);
        assert_eq!(kept.installs[0].requested.to_string(), "^1.0");
        let forced = super::plan(&registry(), &installed, &[root("acme/weather", true)]).unwrap();
        assert_eq!(names(&forced), ["acme/geo@1.4.0", "acme/weather@1.2.0"]);
    }

    #[test]
    fn refuses_to_break_installed_dependents() {
        let installed = [
            receipt("acme/geo", "1.4.0", &[]),
            receipt("acme/weather", "1.2.0", &[("acme/geo", "^1.0")]),
        ]
        .into();
        let err = plan(&registry(), &installed, &[root("acme/geo@2", false)])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("installed acme/weather 1.2.0 requires acme/geo ^1.0"),
            "{err}"
        );
    }
}
