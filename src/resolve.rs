//! Version and dependency resolution (docs/registry.md, "resolution").
//!
//! Rules: the newest non-yanked version matching every requirement on a package; an exact
//! `pkg@1.2.0` asked for on the command line may select a yanked version (with a warning);
//! dependencies are followed transitively; one version of each package; versions whose `agx`
//! range excludes this agx are skipped; an installed version that satisfies every
//! requirement is kept.
//!
//! The resolver re-derives every requirement from the roots through the current choices
//! until the choices stop changing, so a requirement that appears late (a dependency of a
//! dependency) can move an earlier choice. It does not backtrack into older versions of a
//! package to dodge a conflict: a conflict is reported with the chain of requirements on
//! both sides.

// Errors are rare and carry the details people need (chains, paths, hashes).
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use semver::{Version, VersionReq};

use crate::index::{IndexEntry, IndexError};
use crate::name::{PackageName, PackageSpec};

/// The agx version checked against a package's `agx` range.
pub fn agx_version() -> Version {
    Version::parse(env!("CARGO_PKG_VERSION")).expect("the crate version is semver")
}

/// What to do with one package of the solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Already installed at this version: nothing to do.
    Keep,
    /// Not installed: install this version.
    Install,
    /// Installed at another version that no longer fits: replace it.
    Replace { from: Version },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedPackage {
    pub name: PackageName,
    pub version: Version,
    pub action: Action,
    /// The index entry of the chosen version (`None` only for a kept installed version the
    /// registry no longer lists).
    pub entry: Option<IndexEntry>,
    /// Asked for on the command line (a root), as opposed to pulled in as a dependency.
    pub explicit: bool,
    /// The requirement of the root spec for an explicit package (`*` when none was given).
    pub requested: Option<VersionReq>,
}

/// The packages to have installed, dependencies before their dependents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resolution {
    pub packages: Vec<ResolvedPackage>,
    /// Things the user should know (a yanked version chosen on purpose), for the reporter to warn about.
    pub warnings: Vec<String>,
}

impl Resolution {
    /// Packages that need downloading (`Install` or `Replace`), in dependency order.
    pub fn to_install(&self) -> impl Iterator<Item = &ResolvedPackage> {
        self.packages.iter().filter(|p| p.action != Action::Keep)
    }

    pub fn get(&self, name: &PackageName) -> Option<&ResolvedPackage> {
        self.packages.iter().find(|p| &p.name == name)
    }
}

/// One requirement on a package and how it arose, e.g.
/// `["acme/app (requested)", "acme/app 1.0.0 requires acme/geo ^1.0"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub req: VersionReq,
    pub chain: Vec<String>,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.chain.join(" → "))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("cannot read the index entry of {name} (needed by {})", chain.join(" → "))]
    Index {
        name: PackageName,
        chain: Vec<String>,
        #[source]
        source: IndexError,
    },

    #[error("no version of {name} matches {}", describe_requirements(requirements))]
    NoMatch {
        name: PackageName,
        requirements: Vec<Requirement>,
        /// Versions in the index, newest first, with why they were not chosen.
        available: Vec<String>,
        /// A yanked version that would match, if any.
        yanked_match: Option<Version>,
    },

    #[error("conflicting requirements on {name}:\n{}", requirements.iter().map(|r| format!("    {r}")).collect::<Vec<_>>().join("\n"))]
    Conflict {
        name: PackageName,
        requirements: Vec<Requirement>,
        available: Vec<String>,
    },

    #[error("{name} {version} needs agx {range}, but this is agx {current}")]
    AgxIncompatible {
        name: PackageName,
        version: Version,
        range: VersionReq,
        current: Version,
        chain: Vec<String>,
    },

    #[error("the requirements on {name} keep changing; resolution does not settle")]
    Unsettled { name: PackageName },
}

/// `^9`, or `^1.0 (via acme/app (requested) → acme/app 1.0.0 requires acme/geo ^1.0)` for a
/// requirement that came through dependencies.
fn describe_requirements(requirements: &[Requirement]) -> String {
    requirements
        .iter()
        .map(|r| {
            if r.chain.len() <= 1 {
                r.req.to_string()
            } else {
                format!("{} (via {})", r.req, r.chain.join(" → "))
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

impl crate::error::Hint for ResolveError {
    fn hint(&self) -> Option<String> {
        match self {
            ResolveError::Index { source, .. } => source.hint(),
            ResolveError::NoMatch {
                name,
                available,
                yanked_match,
                ..
            } => Some(match yanked_match {
                Some(v) => format!(
                    "{name} {v} matches but is yanked; install it on purpose with `agx install {name}@{v}`"
                ),
                None if available.is_empty() => format!("{name} has no published versions"),
                None => format!("available versions: {}", available.join(", ")),
            }),
            ResolveError::Conflict { available, .. } => Some(format!(
                "only one version of a package can be installed; relax one of the requirements (available: {})",
                available.join(", ")
            )),
            ResolveError::AgxIncompatible { name, .. } => Some(format!(
                "upgrade agx, or ask for an older version of {name} (`agx install {name}@<version>`)"
            )),
            ResolveError::Unsettled { .. } => None,
        }
    }
}

/// A function returning every version of a package (as [`crate::index::Registry::versions`]).
pub type VersionSource<'a> = &'a dyn Fn(&PackageName) -> Result<Vec<IndexEntry>, IndexError>;

/// Resolve `roots` (what the user asked for) and their dependencies.
///
/// `installed` maps installed packages to their versions: an installed version that
/// satisfies every requirement is kept rather than upgraded (pass a smaller map, without the
/// packages being updated, for `agx update`). Requirements of installed packages that are
/// not roots are not considered; pass them as roots to keep them satisfied.
pub fn resolve(
    roots: &[PackageSpec],
    installed: &BTreeMap<PackageName, Version>,
    source: VersionSource<'_>,
) -> Result<Resolution, ResolveError> {
    Resolver {
        roots,
        installed,
        source,
        entries: BTreeMap::new(),
        current: agx_version(),
    }
    .run()
}

struct Resolver<'a> {
    roots: &'a [PackageSpec],
    installed: &'a BTreeMap<PackageName, Version>,
    source: VersionSource<'a>,
    /// Versions fetched so far, oldest first.
    entries: BTreeMap<PackageName, Vec<IndexEntry>>,
    current: Version,
}

/// A choice for one package: the version and its entry (if the index lists it).
#[derive(Debug, Clone, PartialEq)]
struct Choice {
    version: Version,
    entry: Option<IndexEntry>,
}

impl Resolver<'_> {
    fn run(mut self) -> Result<Resolution, ResolveError> {
        let mut chosen: BTreeMap<PackageName, Choice> = BTreeMap::new();
        let mut rounds = 0;
        loop {
            let requirements = self.requirements(&chosen);
            let mut next = BTreeMap::new();
            for (name, reqs) in &requirements {
                let choice = match chosen.get(name) {
                    Some(c) if reqs.iter().all(|r| r.req.matches(&c.version)) => c.clone(),
                    _ => self.choose(name, reqs)?,
                };
                next.insert(name.clone(), choice);
            }
            if next == chosen {
                return Ok(self.finish(chosen));
            }
            rounds += 1;
            if rounds > 100 {
                let name = next
                    .keys()
                    .find(|n| next.get(*n) != chosen.get(*n))
                    .cloned()
                    .expect("a choice changed");
                return Err(ResolveError::Unsettled { name });
            }
            chosen = next;
        }
    }

    /// Every requirement reachable from the roots through the current choices.
    fn requirements(
        &self,
        chosen: &BTreeMap<PackageName, Choice>,
    ) -> BTreeMap<PackageName, Vec<Requirement>> {
        let mut out: BTreeMap<PackageName, Vec<Requirement>> = BTreeMap::new();
        let mut queue: Vec<(PackageName, Requirement)> = self
            .roots
            .iter()
            .map(|spec| {
                let req = spec.req.clone().unwrap_or(VersionReq::STAR);
                let chain = vec![format!("{spec} (requested)")];
                (spec.name.clone(), Requirement { req, chain })
            })
            .collect();
        let mut expanded = BTreeSet::new();
        while let Some((name, requirement)) = queue.pop() {
            let chain = requirement.chain.clone();
            out.entry(name.clone()).or_default().push(requirement);
            let Some(choice) = chosen.get(&name) else {
                continue;
            };
            // Follow each chosen package's dependencies once (cycles end here).
            if !expanded.insert(name.clone()) {
                continue;
            }
            if let Some(entry) = &choice.entry {
                for (dep, req) in &entry.deps {
                    let mut dep_chain = chain.clone();
                    dep_chain.push(format!("{name} {} requires {dep} {req}", choice.version));
                    queue.push((
                        dep.clone(),
                        Requirement {
                            req: req.clone(),
                            chain: dep_chain,
                        },
                    ));
                }
            }
        }
        out
    }

    fn versions(
        &mut self,
        name: &PackageName,
        chain: &[String],
    ) -> Result<&[IndexEntry], ResolveError> {
        if !self.entries.contains_key(name) {
            let mut list = (self.source)(name).map_err(|source| ResolveError::Index {
                name: name.clone(),
                chain: chain.to_vec(),
                source,
            })?;
            list.retain(|e| &e.name == name);
            list.sort_by(|a, b| a.vers.cmp(&b.vers));
            self.entries.insert(name.clone(), list);
        }
        Ok(&self.entries[name])
    }

    /// The version to use for `name` under `reqs`.
    fn choose(&mut self, name: &PackageName, reqs: &[Requirement]) -> Result<Choice, ResolveError> {
        let exact: BTreeSet<Version> = self
            .roots
            .iter()
            .filter(|s| &s.name == name)
            .filter_map(|s| s.exact_version())
            .collect();
        let installed = self.installed.get(name).cloned();
        let current = self.current.clone();
        let entries = self.versions(name, &reqs[0].chain)?.to_vec();
        let matches_all = |v: &Version| reqs.iter().all(|r| r.req.matches(v));

        // An installed version that fits is kept, whether or not the index still lists it.
        if let Some(v) = installed.as_ref().filter(|v| matches_all(v)) {
            return Ok(Choice {
                version: v.clone(),
                entry: entries.iter().find(|e| &e.vers == v).cloned(),
            });
        }
        let eligible = |e: &IndexEntry| !e.yanked || exact.contains(&e.vers);
        let compatible = |e: &IndexEntry| e.agx.as_ref().is_none_or(|r| r.matches(&current));
        if let Some(entry) = entries
            .iter()
            .rev()
            .find(|e| matches_all(&e.vers) && eligible(e) && compatible(e))
        {
            return Ok(Choice {
                version: entry.vers.clone(),
                entry: Some(entry.clone()),
            });
        }

        // Nothing fits: say why, as precisely as possible.
        if let Some(e) = entries
            .iter()
            .rev()
            .find(|e| matches_all(&e.vers) && eligible(e))
        {
            let chain = reqs[0].chain.clone();
            return Err(ResolveError::AgxIncompatible {
                name: name.clone(),
                version: e.vers.clone(),
                range: e.agx.clone().unwrap_or(VersionReq::STAR),
                current,
                chain,
            });
        }
        let available: Vec<String> = entries
            .iter()
            .rev()
            .map(|e| {
                if e.yanked {
                    format!("{} (yanked)", e.vers)
                } else {
                    e.vers.to_string()
                }
            })
            .collect();
        let each_satisfiable = reqs.iter().all(|r| {
            entries
                .iter()
                .any(|e| r.req.matches(&e.vers) && eligible(e))
        });
        if reqs.len() > 1 && each_satisfiable {
            return Err(ResolveError::Conflict {
                name: name.clone(),
                requirements: reqs.to_vec(),
                available,
            });
        }
        let yanked_match = entries
            .iter()
            .rev()
            .find(|e| e.yanked && matches_all(&e.vers))
            .map(|e| e.vers.clone());
        Err(ResolveError::NoMatch {
            name: name.clone(),
            requirements: reqs.to_vec(),
            available,
            yanked_match,
        })
    }

    /// Order the choices (dependencies first) and note what to do with each.
    fn finish(self, chosen: BTreeMap<PackageName, Choice>) -> Resolution {
        let mut order = Vec::new();
        let mut visited = BTreeSet::new();
        for root in self.roots {
            visit(&root.name, &chosen, &mut visited, &mut order);
        }
        let mut warnings = Vec::new();
        let packages = order
            .into_iter()
            .map(|name| {
                let choice = &chosen[&name];
                let root = self.roots.iter().find(|s| s.name == name);
                let action = match self.installed.get(&name) {
                    Some(v) if *v == choice.version => Action::Keep,
                    Some(v) => Action::Replace { from: v.clone() },
                    None => Action::Install,
                };
                if action != Action::Keep && choice.entry.as_ref().is_some_and(|e| e.yanked) {
                    warnings.push(format!(
                        "{name} {} is yanked; installing it because you asked for exactly that version",
                        choice.version
                    ));
                }
                ResolvedPackage {
                    name: name.clone(),
                    version: choice.version.clone(),
                    action,
                    entry: choice.entry.clone(),
                    explicit: root.is_some(),
                    requested: root.map(|s| s.req.clone().unwrap_or(VersionReq::STAR)),
                }
            })
            .collect();
        Resolution { packages, warnings }
    }
}

/// Depth-first post-order: dependencies before dependents; cycles are cut.
fn visit(
    name: &PackageName,
    chosen: &BTreeMap<PackageName, Choice>,
    visited: &mut BTreeSet<PackageName>,
    order: &mut Vec<PackageName>,
) {
    if !visited.insert(name.clone()) {
        return;
    }
    if let Some(entry) = chosen.get(name).and_then(|c| c.entry.as_ref()) {
        for dep in entry.deps.keys() {
            visit(dep, chosen, visited, order);
        }
    }
    if chosen.contains_key(name) {
        order.push(name.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Hint as _;

    fn n(s: &str) -> PackageName {
        PackageName::parse(s).unwrap()
    }

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    /// An index: `(name, version, [(dep, req)], yanked, agx range)`.
    fn entry(name: &str, vers: &str, deps: &[(&str, &str)]) -> IndexEntry {
        IndexEntry {
            v: 1,
            name: n(name),
            vers: v(vers),
            cksum: "0".repeat(64),
            size: 1,
            deps: deps
                .iter()
                .map(|(d, r)| (n(d), VersionReq::parse(r).unwrap()))
                .collect(),
            yanked: false,
            agx: None,
            description: None,
            extension: Default::default(),
        }
    }

    fn yanked(mut e: IndexEntry) -> IndexEntry {
        e.yanked = true;
        e
    }

    fn run(
        index: &[IndexEntry],
        roots: &[&str],
        installed: &[(&str, &str)],
    ) -> Result<Resolution, ResolveError> {
        let index = index.to_vec();
        let source = move |name: &PackageName| -> Result<Vec<IndexEntry>, IndexError> {
            let found: Vec<_> = index.iter().filter(|e| &e.name == name).cloned().collect();
            if found.is_empty() {
                Err(IndexError::PackageNotFound {
                    name: name.clone(),
                    registry: "test".into(),
                })
            } else {
                Ok(found)
            }
        };
        let roots: Vec<_> = roots
            .iter()
            .map(|r| PackageSpec::parse(r).unwrap())
            .collect();
        let installed = installed.iter().map(|(a, b)| (n(a), v(b))).collect();
        resolve(&roots, &installed, &source)
    }

    fn picked(r: &Resolution) -> Vec<String> {
        r.packages
            .iter()
            .map(|p| format!("{}@{}", p.name, p.version))
            .collect()
    }

    #[test]
    fn newest_matching_non_yanked() {
        let index = [
            entry("acme/a", "1.0.0", &[]),
            entry("acme/a", "1.2.0", &[]),
            yanked(entry("acme/a", "1.3.0", &[])),
            entry("acme/a", "2.0.0", &[]),
        ];
        assert_eq!(
            picked(&run(&index, &["acme/a"], &[]).unwrap()),
            ["acme/a@2.0.0"]
        );
        assert_eq!(
            picked(&run(&index, &["acme/a@^1"], &[]).unwrap()),
            ["acme/a@1.2.0"]
        );
        let r = run(&index, &["acme/a@^1"], &[]).unwrap();
        assert!(r.warnings.is_empty());
        assert_eq!(r.packages[0].action, Action::Install);
        assert!(r.packages[0].explicit);
    }

    #[test]
    fn exact_version_may_pick_a_yanked_one_with_a_warning() {
        let index = [
            entry("acme/a", "1.0.0", &[]),
            yanked(entry("acme/a", "1.3.0", &[])),
        ];
        let r = run(&index, &["acme/a@1.3.0"], &[]).unwrap();
        assert_eq!(picked(&r), ["acme/a@1.3.0"]);
        assert_eq!(r.warnings.len(), 1);
        assert!(r.warnings[0].contains("yanked"));
        // A range never does, and the error says how to get it on purpose.
        let err = run(&index, &["acme/a@>=1.1"], &[]).unwrap_err();
        assert!(
            matches!(
                err,
                ResolveError::NoMatch {
                    yanked_match: Some(_),
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.hint().unwrap().contains("acme/a@1.3.0"));
    }

    #[test]
    fn dependencies_are_transitive_and_ordered() {
        let index = [
            entry("acme/app", "1.0.0", &[("acme/maps", "^1")]),
            entry("acme/maps", "1.1.0", &[("acme/geo", "^2.1")]),
            entry("acme/geo", "2.0.0", &[]),
            entry("acme/geo", "2.3.0", &[]),
        ];
        let r = run(&index, &["acme/app"], &[]).unwrap();
        assert_eq!(
            picked(&r),
            ["acme/geo@2.3.0", "acme/maps@1.1.0", "acme/app@1.0.0"]
        );
        assert!(!r.packages[0].explicit);
        assert_eq!(r.to_install().count(), 3);
    }

    #[test]
    fn one_version_per_package_satisfying_all() {
        let index = [
            entry("acme/a", "1.0.0", &[("acme/geo", ">=1.0")]),
            entry("acme/b", "1.0.0", &[("acme/geo", "<1.5")]),
            entry("acme/geo", "1.2.0", &[]),
            entry("acme/geo", "1.9.0", &[]),
        ];
        let r = run(&index, &["acme/a", "acme/b"], &[]).unwrap();
        assert_eq!(
            r.packages
                .iter()
                .filter(|p| p.name == n("acme/geo"))
                .count(),
            1
        );
        assert_eq!(r.get(&n("acme/geo")).unwrap().version, v("1.2.0"));
    }

    #[test]
    fn conflict_shows_both_chains() {
        let index = [
            entry("acme/a", "1.0.0", &[("acme/geo", "^1")]),
            entry("acme/b", "1.0.0", &[("acme/geo", "^2")]),
            entry("acme/geo", "1.0.0", &[]),
            entry("acme/geo", "2.0.0", &[]),
        ];
        let err = run(&index, &["acme/a", "acme/b"], &[]).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, ResolveError::Conflict { .. }), "{err:?}");
        assert!(text.contains("acme/a 1.0.0 requires acme/geo ^1"), "{text}");
        assert!(text.contains("acme/b 1.0.0 requires acme/geo ^2"), "{text}");
        assert!(text.contains("acme/a (requested)"), "{text}");
    }

    #[test]
    fn agx_range_is_honoured() {
        let mut future = entry("acme/a", "2.0.0", &[]);
        future.agx = Some(VersionReq::parse(">=99").unwrap());
        let index = [entry("acme/a", "1.0.0", &[]), future];
        // The incompatible newer version is skipped.
        assert_eq!(
            picked(&run(&index, &["acme/a"], &[]).unwrap()),
            ["acme/a@1.0.0"]
        );
        // Asking for it is a clear error.
        let err = run(&index, &["acme/a@2.0.0"], &[]).unwrap_err();
        assert!(
            matches!(err, ResolveError::AgxIncompatible { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("needs agx >=99"), "{err}");
    }

    #[test]
    fn installed_versions_that_fit_are_kept() {
        let index = [
            entry("acme/app", "1.0.0", &[("acme/geo", "^1")]),
            entry("acme/geo", "1.0.0", &[]),
            entry("acme/geo", "1.4.0", &[]),
        ];
        let r = run(&index, &["acme/app"], &[("acme/geo", "1.0.0")]).unwrap();
        let geo = r.get(&n("acme/geo")).unwrap();
        assert_eq!(
            (geo.version.clone(), geo.action.clone()),
            (v("1.0.0"), Action::Keep)
        );
        assert_eq!(picked(&r), ["acme/geo@1.0.0", "acme/app@1.0.0"]);
        assert_eq!(r.to_install().count(), 1);
        // One that no longer fits is replaced.
        let index2 = [
            entry("acme/app", "1.0.0", &[("acme/geo", "^1.4")]),
            entry("acme/geo", "1.0.0", &[]),
            entry("acme/geo", "1.4.0", &[]),
        ];
        let r = run(&index2, &["acme/app"], &[("acme/geo", "1.0.0")]).unwrap();
        assert_eq!(
            r.get(&n("acme/geo")).unwrap().action,
            Action::Replace { from: v("1.0.0") }
        );
    }

    #[test]
    fn a_late_requirement_moves_an_earlier_choice() {
        // acme/a alone would take geo 2.0; acme/b, reached through c, needs geo <2.
        let index = [
            entry("acme/a", "1.0.0", &[("acme/geo", ">=1")]),
            entry("acme/c", "1.0.0", &[("acme/b", "^1")]),
            entry("acme/b", "1.0.0", &[("acme/geo", "<2")]),
            entry("acme/geo", "1.5.0", &[]),
            entry("acme/geo", "2.0.0", &[]),
        ];
        let r = run(&index, &["acme/a", "acme/c"], &[]).unwrap();
        assert_eq!(r.get(&n("acme/geo")).unwrap().version, v("1.5.0"));
    }

    #[test]
    fn missing_packages_and_versions() {
        let index = [
            entry("acme/app", "1.0.0", &[("acme/gone", "^1")]),
            entry("acme/x", "1.0.0", &[]),
        ];
        let err = run(&index, &["acme/app"], &[]).unwrap_err();
        assert!(matches!(err, ResolveError::Index { .. }), "{err:?}");
        assert!(
            err.to_string()
                .contains("acme/app 1.0.0 requires acme/gone ^1"),
            "{err}"
        );
        let err = run(&index, &["acme/x@^3"], &[]).unwrap_err();
        assert!(matches!(err, ResolveError::NoMatch { .. }));
        assert!(err.hint().unwrap().contains("1.0.0"));
    }

    #[test]
    fn dependency_cycles_terminate() {
        let index = [
            entry("acme/a", "1.0.0", &[("acme/b", "^1")]),
            entry("acme/b", "1.0.0", &[("acme/a", "^1")]),
        ];
        let r = run(&index, &["acme/a"], &[]).unwrap();
        assert_eq!(picked(&r), ["acme/b@1.0.0", "acme/a@1.0.0"]);
    }
}
