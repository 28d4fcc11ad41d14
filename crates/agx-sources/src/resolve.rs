//! Version and dependency resolution (the rules are in `docs/registry.md`, "Resolution").
//!
//! Rules: the newest non-yanked version matching every requirement on a package; an exact
//! `pkg@1.2.0` asked for on the command line may select a yanked version (with a warning);
//! dependencies are followed transitively; one version of each package; versions whose `agx`
//! range excludes this agx are skipped; an installed version that satisfies every
//! requirement is kept.
//!
//! The resolver works in passes. A pass walks from the roots through the current choices,
//! choosing a version for each package as soon as it is reached (so a chain of any depth is
//! found in one pass), then checks every choice against all the requirements the pass found
//! and re-chooses those that no longer fit. Passes repeat until the choices stop changing,
//! so a requirement that appears late (a dependency of a dependency) can move an earlier
//! choice. Choices that come back to a set already tried would cycle forever: that is
//! reported instead. It does not backtrack into older versions of a package to dodge a
//! conflict: a conflict is reported with the chain of requirements on both sides.

// Errors are rare and carry the details people need (chains, paths, hashes).
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use semver::{Version, VersionReq};

use crate::index::{IndexEntry, IndexError};
use agx_core::name::{PackageName, PackageSpec};

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
    Unsettled {
        name: PackageName,
        /// The versions of `name` the resolver went round between.
        versions: Vec<Version>,
    },
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

impl agx_core::error::Hint for ResolveError {
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
            ResolveError::Unsettled { name, versions } => Some(format!(
                "choosing one version of {name} changes the requirements on it ({}); pick one with `agx install {name}@<version>`",
                versions
                    .iter()
                    .map(Version::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
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

/// How a requirement arose, as a link to the requirement that led to it: chains are built
/// only for messages, so a pass costs the same at any depth.
struct Link {
    parent: Option<usize>,
    /// `acme/app (requested)` or `acme/app 1.0.0 requires acme/geo ^1.0`.
    text: String,
}

/// A requirement found during a pass: the range and the link it came through.
struct Found {
    req: VersionReq,
    via: usize,
}

/// The requirements found by one pass, with the links behind them.
#[derive(Default)]
struct PassRequirements {
    links: Vec<Link>,
    on: BTreeMap<PackageName, Vec<Found>>,
}

impl PassRequirements {
    /// Add a link and return its index.
    fn link(&mut self, parent: Option<usize>, text: String) -> usize {
        self.links.push(Link { parent, text });
        self.links.len() - 1
    }

    /// The chain of requirements that ends at link `via`, root first.
    fn chain(&self, via: usize) -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = Some(via);
        while let Some(i) = at {
            chain.push(self.links[i].text.clone());
            at = self.links[i].parent;
        }
        chain.reverse();
        chain
    }

    /// Whether `choice` satisfies every requirement found so far on `name`.
    fn fit(&self, name: &PackageName, choice: &Choice) -> bool {
        self.on[name].iter().all(|r| r.req.matches(&choice.version))
    }

    /// Every requirement on `name` with its chain, for messages.
    fn requirements(&self, name: &PackageName) -> Vec<Requirement> {
        self.on[name]
            .iter()
            .map(|r| Requirement {
                req: r.req.clone(),
                chain: self.chain(r.via),
            })
            .collect()
    }
}

impl Resolver<'_> {
    fn run(mut self) -> Result<Resolution, ResolveError> {
        let mut chosen: BTreeMap<PackageName, Choice> = BTreeMap::new();
        // Each pass depends only on the choices before it: meeting a set of choices again
        // means the passes go round in a cycle.
        let mut tried: BTreeSet<Vec<(PackageName, Version)>> = BTreeSet::new();
        loop {
            let next = self.pass(&chosen)?;
            if next == chosen {
                return Ok(self.finish(chosen));
            }
            if !tried.insert(versions_of(&next)) {
                let name = next
                    .keys()
                    .find(|n| next.get(*n) != chosen.get(*n))
                    .cloned()
                    .expect("a choice changed");
                let versions = [&chosen, &next]
                    .iter()
                    .filter_map(|c| c.get(&name).map(|c| c.version.clone()))
                    .collect();
                return Err(ResolveError::Unsettled { name, versions });
            }
            chosen = next;
        }
    }

    /// One pass from the roots through `chosen`: the choices to make next.
    fn pass(
        &mut self,
        chosen: &BTreeMap<PackageName, Choice>,
    ) -> Result<BTreeMap<PackageName, Choice>, ResolveError> {
        let mut found = PassRequirements::default();
        let mut next: BTreeMap<PackageName, Choice> = BTreeMap::new();
        // Reached, but no version fits what was known then; chosen once all is known.
        let mut deferred = BTreeSet::new();
        let mut queue: Vec<(PackageName, Found)> = Vec::new();
        for spec in self.roots.iter().rev() {
            let via = found.link(None, format!("{spec} (requested)"));
            let req = spec.req.clone().unwrap_or(VersionReq::STAR);
            queue.push((spec.name.clone(), Found { req, via }));
        }
        while let Some((name, requirement)) = queue.pop() {
            let via = requirement.via;
            found.on.entry(name.clone()).or_default().push(requirement);
            // Follow each package's dependencies once (cycles end here).
            if next.contains_key(&name) || deferred.contains(&name) {
                continue;
            }
            let choice = match chosen.get(&name) {
                Some(c) if found.fit(&name, c) => c.clone(),
                _ => match self.choose(&name, &found) {
                    Ok(choice) => choice,
                    Err(e @ ResolveError::Index { .. }) => return Err(e),
                    Err(_) => {
                        deferred.insert(name);
                        continue;
                    }
                },
            };
            if let Some(entry) = &choice.entry {
                for (dep, req) in entry.deps.iter().rev() {
                    let text = format!("{name} {} requires {dep} {req}", choice.version);
                    let via = found.link(Some(via), text);
                    queue.push((
                        dep.clone(),
                        Found {
                            req: req.clone(),
                            via,
                        },
                    ));
                }
            }
            next.insert(name, choice);
        }
        // Every requirement is known now: re-choose where a choice no longer fits.
        for name in found.on.keys() {
            if next.get(name).is_some_and(|c| found.fit(name, c)) {
                continue;
            }
            let choice = self.choose(name, &found)?;
            next.insert(name.clone(), choice);
        }
        Ok(next)
    }

    /// Every version of `name` in the index, oldest first (fetched once per resolution).
    fn versions(&mut self, name: &PackageName) -> Result<&[IndexEntry], IndexError> {
        if !self.entries.contains_key(name) {
            let mut list = (self.source)(name)?;
            list.retain(|e| &e.name == name);
            list.sort_by(|a, b| a.vers.cmp(&b.vers));
            self.entries.insert(name.clone(), list);
        }
        Ok(&self.entries[name])
    }

    /// The version to use for `name` under the requirements found on it.
    fn choose(
        &mut self,
        name: &PackageName,
        found: &PassRequirements,
    ) -> Result<Choice, ResolveError> {
        let reqs = &found.on[name];
        let exact: BTreeSet<Version> = self
            .roots
            .iter()
            .filter(|s| &s.name == name)
            .filter_map(|s| s.exact_version())
            .collect();
        let installed = self.installed.get(name).cloned();
        let current = self.current.clone();
        let entries = self
            .versions(name)
            .map_err(|source| ResolveError::Index {
                name: name.clone(),
                chain: found.chain(reqs[0].via),
                source,
            })?
            .to_vec();
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
            return Err(ResolveError::AgxIncompatible {
                name: name.clone(),
                version: e.vers.clone(),
                range: e.agx.clone().unwrap_or(VersionReq::STAR),
                current,
                chain: found.chain(reqs[0].via),
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
                requirements: found.requirements(name),
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
            requirements: found.requirements(name),
            available,
            yanked_match,
        })
    }

    /// Order the choices (dependencies first) and note what to do with each.
    fn finish(self, chosen: BTreeMap<PackageName, Choice>) -> Resolution {
        let order = dependency_order(self.roots, &chosen);
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

/// The versions of a set of choices, to recognise it when it comes back.
fn versions_of(chosen: &BTreeMap<PackageName, Choice>) -> Vec<(PackageName, Version)> {
    chosen
        .iter()
        .map(|(name, c)| (name.clone(), c.version.clone()))
        .collect()
}

/// Depth-first post-order from the roots: dependencies before dependents; cycles are cut.
/// Iterative, so a chain of any depth needs no deeper stack.
fn dependency_order(
    roots: &[PackageSpec],
    chosen: &BTreeMap<PackageName, Choice>,
) -> Vec<PackageName> {
    let mut order = Vec::new();
    let mut visited = BTreeSet::new();
    // `(name, true)` comes back once the package's dependencies are done.
    let mut stack: Vec<(&PackageName, bool)> =
        roots.iter().rev().map(|s| (&s.name, false)).collect();
    while let Some((name, deps_done)) = stack.pop() {
        if deps_done {
            order.push(name.clone());
            continue;
        }
        if !visited.insert(name) {
            continue;
        }
        let Some(choice) = chosen.get(name) else {
            continue;
        };
        stack.push((name, true));
        if let Some(entry) = &choice.entry {
            stack.extend(entry.deps.keys().rev().map(|dep| (dep, false)));
        }
    }
    order
}

impl From<ResolveError> for agx_store::StoreError {
    fn from(e: ResolveError) -> Self {
        agx_store::StoreError::Upstream(agx_core::error::Upstream::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agx_core::error::Hint as _;

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
            provenance: None,
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

    /// `acme/p0` → `acme/p1` → … → `acme/p{depth-1}`, each at 1.0.0 and 2.0.0.
    fn chain(depth: usize) -> Vec<IndexEntry> {
        (0..depth)
            .flat_map(|i| {
                let next = format!("acme/p{}", i + 1);
                let deps: Vec<(&str, &str)> = if i + 1 < depth {
                    vec![(next.as_str(), "^1")]
                } else {
                    vec![]
                };
                let name = format!("acme/p{i}");
                [entry(&name, "1.0.0", &deps), entry(&name, "2.0.0", &deps)]
            })
            .collect()
    }

    #[test]
    fn a_deep_chain_resolves_reading_each_package_once() {
        let index = chain(500);
        let reads = std::cell::Cell::new(0);
        let source = |name: &PackageName| -> Result<Vec<IndexEntry>, IndexError> {
            reads.set(reads.get() + 1);
            Ok(index.iter().filter(|e| &e.name == name).cloned().collect())
        };
        let roots = [PackageSpec::parse("acme/p0").unwrap()];
        let r = resolve(&roots, &BTreeMap::new(), &source).unwrap();
        assert_eq!(r.packages.len(), 500);
        assert_eq!(reads.get(), 500);
        // Dependencies first: the end of the chain, then back up to the root.
        assert_eq!(r.packages[0].name, n("acme/p499"));
        assert_eq!(r.packages[499].name, n("acme/p0"));
        assert_eq!(r.packages[499].version, v("2.0.0"));
        assert!(r.packages[..499].iter().all(|p| p.version == v("1.0.0")));
    }

    #[test]
    fn a_requirement_at_the_end_of_a_deep_chain_moves_a_root_choice() {
        let mut index = chain(500);
        index.pop(); // acme/p499 2.0.0
        index.pop(); // acme/p499 1.0.0
        index.push(entry("acme/p499", "1.0.0", &[("acme/geo", "<2")]));
        index.push(entry("acme/geo", "1.5.0", &[]));
        index.push(entry("acme/geo", "2.0.0", &[]));
        let r = run(&index, &["acme/geo", "acme/p0"], &[]).unwrap();
        assert_eq!(r.get(&n("acme/geo")).unwrap().version, v("1.5.0"));
        assert_eq!(r.packages.len(), 501);
        // And a conflict at that depth names the whole chain.
        let err = run(&index, &["acme/geo@^2", "acme/p0"], &[]).unwrap_err();
        let ResolveError::Conflict { requirements, .. } = &err else {
            panic!("{err:?}");
        };
        let deep = requirements.iter().map(|r| r.chain.len()).max().unwrap();
        assert_eq!(deep, 501, "{err}");
        assert!(
            err.to_string()
                .contains("acme/p499 1.0.0 requires acme/geo <2")
        );
    }

    #[test]
    fn choices_that_go_round_in_a_cycle_are_reported() {
        // a 2 needs b 2, which needs a 1, which needs b 1, which needs a 2: no solution, and
        // each pass would undo the last one.
        let index = [
            entry("acme/a", "1.0.0", &[("acme/b", "<2")]),
            entry("acme/a", "2.0.0", &[("acme/b", ">=2")]),
            entry("acme/b", "1.0.0", &[("acme/a", ">=2")]),
            entry("acme/b", "2.0.0", &[("acme/a", "<2")]),
        ];
        let err = run(&index, &["acme/a", "acme/b"], &[]).unwrap_err();
        let ResolveError::Unsettled { name, versions } = &err else {
            panic!("{err:?}");
        };
        assert!(name.to_string().starts_with("acme/"), "{err}");
        assert_eq!(versions.len(), 2, "{err:?}");
        assert!(err.hint().unwrap().contains("agx install"), "{err:?}");
    }
}
