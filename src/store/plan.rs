//! Turning requested packages into an install plan: the newest non-yanked version matching
//! every requirement, dependencies included, one version per package, and versions already
//! installed kept when they satisfy what is asked.

use std::collections::BTreeMap;
use std::path::Path;

use crate::index::{IndexEntry, IndexError, Registry};
use crate::name::PackageName;

use super::Receipt;

/// Where packages come from: the registry (an in-memory list in tests).
pub trait PackageSource {
    /// Human-readable source (URL or path), recorded in receipts.
    fn source(&self) -> String;

    /// Every published version of a package, yanked ones included.
    fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError>;

    /// Download a version's tarball into `dest`, verifying its size and sha256.
    fn download(
        &self,
        entry: &IndexEntry,
        dest: &Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError>;
}

impl PackageSource for Registry {
    fn source(&self) -> String {
        Registry::source(self).to_string()
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
}

/// A package the user asked for.
#[derive(Debug, Clone)]
pub struct Root {
    pub name: PackageName,
    pub req: semver::VersionReq,
    /// Set for `pkg@1.2.0`: that version may be chosen even when yanked.
    pub exact: Option<semver::Version>,
    /// Install again even when an installed version satisfies `req`.
    pub force: bool,
}

/// One package to download and install.
#[derive(Debug, Clone)]
pub struct PlannedInstall {
    pub entry: IndexEntry,
    /// The requirement that selected it.
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
    #[error("no version of {name} matches `{req}` (required by {by}){}", available_text(.available))]
    NoMatch {
        name: PackageName,
        req: semver::VersionReq,
        by: String,
        available: Vec<String>,
    },
    #[error("{name} has no published versions")]
    Unknown { name: PackageName },
    #[error(
        "conflicting requirements for {name}: `{first_req}` (required by {first_by}) and `{second_req}` (required by {second_by})"
    )]
    Conflict {
        name: PackageName,
        first_req: semver::VersionReq,
        first_by: String,
        second_req: semver::VersionReq,
        second_by: String,
    },
    #[error("{name} {version} needs agx `{needs}`; this is agx {}", env!("CARGO_PKG_VERSION"))]
    AgxIncompatible {
        name: PackageName,
        version: semver::Version,
        needs: semver::VersionReq,
    },
    #[error(transparent)]
    Index(#[from] IndexError),
}

fn available_text(available: &[String]) -> String {
    if available.is_empty() {
        String::new()
    } else {
        format!("; available: {}", available.join(", "))
    }
}

impl crate::error::Hint for PlanError {
    fn hint(&self) -> Option<String> {
        match self {
            PlanError::NoMatch { name, .. } => Some(format!(
                "`agx info {name}` lists its versions; loosen the requirement"
            )),
            PlanError::Unknown { name } => Some(format!(
                "check the spelling (`agx search {}`) or the registry (--registry)",
                name.name()
            )),
            PlanError::Conflict { .. } => Some(
                "one version of a package is installed at a time; change one requirement or update the package that asks for the older one".into(),
            ),
            PlanError::AgxIncompatible { .. } => {
                Some("update agx, or ask for an older version of the package".into())
            }
            PlanError::Index(e) => crate::error::Hint::hint(e),
        }
    }
}

const USER: &str = "the command line";

struct Planner<'a> {
    source: &'a dyn PackageSource,
    installed: &'a BTreeMap<PackageName, Receipt>,
    agx_version: semver::Version,
    /// The requirement that decided each chosen package, and who asked.
    chosen: BTreeMap<PackageName, (semver::Version, semver::VersionReq, String)>,
    plan: Plan,
}

/// Plan the installation of `roots` given what is installed.
pub fn plan(
    source: &dyn PackageSource,
    installed: &BTreeMap<PackageName, Receipt>,
    roots: &[Root],
) -> Result<Plan, PlanError> {
    let mut planner = Planner {
        source,
        installed,
        agx_version: semver::Version::parse(env!("CARGO_PKG_VERSION"))
            .expect("the crate version is semver"),
        chosen: BTreeMap::new(),
        plan: Plan::default(),
    };
    for root in roots {
        planner.visit(
            &root.name,
            &root.req,
            USER,
            root.exact.as_ref(),
            root.force,
            true,
        )?;
    }
    planner.check_installed_dependents()?;
    Ok(planner.plan)
}

impl Planner<'_> {
    fn visit(
        &mut self,
        name: &PackageName,
        req: &semver::VersionReq,
        by: &str,
        exact: Option<&semver::Version>,
        force: bool,
        is_root: bool,
    ) -> Result<(), PlanError> {
        if let Some((version, first_req, first_by)) = self.chosen.get(name) {
            if req.matches(version) || exact == Some(version) {
                return Ok(());
            }
            return Err(PlanError::Conflict {
                name: name.clone(),
                first_req: first_req.clone(),
                first_by: first_by.clone(),
                second_req: req.clone(),
                second_by: by.to_string(),
            });
        }
        if !force && let Some(receipt) = self.installed.get(name) {
            if req.matches(&receipt.version) || exact == Some(&receipt.version) {
                self.chosen.insert(
                    name.clone(),
                    (receipt.version.clone(), req.clone(), by.to_string()),
                );
                if is_root {
                    self.plan.kept.push((name.clone(), receipt.version.clone()));
                }
                return Ok(());
            }
        }
        let entry = self.select(name, req, by, exact)?;
        let chain = if by == USER {
            format!("{name} {}", entry.vers)
        } else {
            format!("{by} → {name} {}", entry.vers)
        };
        self.chosen.insert(
            name.clone(),
            (entry.vers.clone(), req.clone(), by.to_string()),
        );
        for (dep, dep_req) in &entry.deps {
            self.visit(dep, dep_req, &chain, None, false, false)?;
        }
        self.plan.installs.push(PlannedInstall {
            replaces: self
                .installed
                .get(name)
                .map(|r| r.version.clone()),
            requested: req.clone(),
            entry,
        });
        Ok(())
    }

    /// The newest acceptable version: not yanked (unless asked for exactly), matching, and
    /// compatible with this agx.
    fn select(
        &mut self,
        name: &PackageName,
        req: &semver::VersionReq,
        by: &str,
        exact: Option<&semver::Version>,
    ) -> Result<IndexEntry, PlanError> {
        let versions = self.source.versions(name)?;
        if versions.is_empty() {
            return Err(PlanError::Unknown { name: name.clone() });
        }
        let matching: Vec<&IndexEntry> = versions
            .iter()
            .filter(|e| match exact {
                Some(v) => &e.vers == v,
                None => !e.yanked && req.matches(&e.vers),
            })
            .collect();
        let compatible = matching
            .iter()
            .filter(|e| e.agx.as_ref().is_none_or(|r| r.matches(&self.agx_version)))
            .max_by(|a, b| a.vers.cmp(&b.vers));
        match (compatible, matching.iter().max_by(|a, b| a.vers.cmp(&b.vers))) {
            (Some(entry), _) => {
                if entry.yanked {
                    self.plan.warnings.push(format!(
                        "{name} {} is yanked; installing it because it was asked for exactly",
                        entry.vers
                    ));
                }
                Ok((*entry).clone())
            }
            (None, Some(newest)) => Err(PlanError::AgxIncompatible {
                name: name.clone(),
                version: newest.vers.clone(),
                needs: newest.agx.clone().unwrap_or_default(),
            }),
            (None, None) => Err(PlanError::NoMatch {
                name: name.clone(),
                req: req.clone(),
                by: by.to_string(),
                available: versions
                    .iter()
                    .filter(|e| !e.yanked)
                    .map(|e| e.vers.to_string())
                    .collect(),
            }),
        }
    }

    /// Installed packages that stay must still find versions of their dependencies they accept.
    fn check_installed_dependents(&self) -> Result<(), PlanError> {
        let changed: BTreeMap<&PackageName, &PlannedInstall> = self
            .plan
            .installs
            .iter()
            .map(|p| (&p.entry.name, p))
            .collect();
        for receipt in self.installed.values() {
            if changed.contains_key(&receipt.name) {
                continue;
            }
            for (dep, req) in &receipt.dependencies {
                if let Some(new) = changed.get(dep)
                    && !req.matches(&new.entry.vers)
                {
                    let (_, second_req, second_by) = &self.chosen[dep];
                    return Err(PlanError::Conflict {
                        name: dep.clone(),
                        first_req: req.clone(),
                        first_by: format!("{} {} (installed)", receipt.name, receipt.version),
                        second_req: second_req.clone(),
                        second_by: second_by.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::store::Source;

    /// Versions held in memory.
    pub struct MemorySource(pub Vec<IndexEntry>);

    impl PackageSource for MemorySource {
        fn source(&self) -> String {
            "memory".into()
        }

        fn download(
            &self,
            _entry: &IndexEntry,
            _dest: &Path,
            _progress: &mut dyn FnMut(u64),
        ) -> Result<(), IndexError> {
            Err(IndexError::Unimplemented("download"))
        }

        fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
            Ok(self.0.iter().filter(|e| &e.name == name).cloned().collect())
        }
    }

    pub fn entry(name: &str, vers: &str, deps: &[(&str, &str)]) -> IndexEntry {
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
            description: None,
            extension: Default::default(),
        }
    }

    fn receipt(name: &str, vers: &str, deps: &[(&str, &str)]) -> Receipt {
        let e = entry(name, vers, deps);
        Receipt {
            name: e.name,
            version: e.vers,
            sha256: e.cksum,
            requested: semver::VersionReq::STAR,
            explicit: true,
            installed_at: String::new(),
            description: None,
            dependencies: e.deps,
            source: Source::Registry {
                registry: "test".into(),
            },
            extension: Default::default(),
        }
    }

    fn root(spec: &str) -> Root {
        let spec = crate::name::PackageSpec::parse(spec).unwrap();
        Root {
            exact: spec.exact_version(),
            req: spec.req.unwrap_or(semver::VersionReq::STAR),
            name: spec.name,
            force: false,
        }
    }

    fn registry() -> MemorySource {
        let mut yanked = entry("acme/weather", "1.3.0", &[("acme/geo", "^1.0")]);
        yanked.yanked = true;
        MemorySource(vec![
            entry("acme/geo", "1.0.0", &[]),
            entry("acme/geo", "1.4.0", &[]),
            entry("acme/geo", "2.0.0", &[]),
            entry("acme/weather", "1.1.0", &[("acme/geo", "^1.0")]),
            entry("acme/weather", "1.2.0", &[("acme/geo", "^1.0")]),
            yanked,
            entry("acme/maps", "1.0.0", &[("acme/geo", "^2")]),
        ])
    }

    fn names(plan: &Plan) -> Vec<String> {
        plan.installs
            .iter()
            .map(|p| format!("{}@{}", p.entry.name, p.entry.vers))
            .collect()
    }

    #[test]
    fn picks_newest_non_yanked_with_dependencies_first() {
        let plan = plan(&registry(), &BTreeMap::new(), &[root("acme/weather")]).unwrap();
        assert_eq!(names(&plan), ["acme/geo@1.4.0", "acme/weather@1.2.0"]);
        let plan = plan_exact("acme/weather@1.3.0");
        assert_eq!(names(&plan)[1], "acme/weather@1.3.0");
        assert!(plan.warnings[0].contains("yanked"));
    }

    fn plan_exact(spec: &str) -> Plan {
        plan(&registry(), &BTreeMap::new(), &[root(spec)]).unwrap()
    }

    #[test]
    fn keeps_installed_versions_that_satisfy() {
        let installed = [(
            PackageName::parse("acme/geo").unwrap(),
            receipt("acme/geo", "1.0.0", &[]),
        )]
        .into();
        let plan = plan(&registry(), &installed, &[root("acme/weather")]).unwrap();
        assert_eq!(names(&plan), ["acme/weather@1.2.0"]);
    }

    #[test]
    fn conflicts_name_both_requirements() {
        let err = plan(
            &registry(),
            &BTreeMap::new(),
            &[root("acme/weather"), root("acme/maps")],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("`^1.0` (required by acme/weather 1.2.0)"), "{err}");
        assert!(err.contains("`^2` (required by acme/maps 1.0.0)"), "{err}");

        let installed = [(
            PackageName::parse("acme/weather").unwrap(),
            receipt("acme/weather", "1.2.0", &[("acme/geo", "^1.0")]),
        )]
        .into();
        let err = plan(&registry(), &installed, &[root("acme/geo@2")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("acme/weather 1.2.0 (installed)"), "{err}");
    }

    #[test]
    fn missing_versions_are_explained() {
        let err = plan(&registry(), &BTreeMap::new(), &[root("acme/geo@^3")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("available: 1.0.0, 1.4.0, 2.0.0"), "{err}");
        let err = plan(&registry(), &BTreeMap::new(), &[root("acme/nope")]).unwrap_err();
        assert!(matches!(err, PlanError::Unknown { .. }));
    }
}
