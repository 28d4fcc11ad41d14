//! Which installed packages have newer versions: `outdated` shows them, `update` installs
//! the wanted ones.
//!
//! *Wanted* is the newest non-yanked version, compatible with this agx, that every
//! requirement on the package accepts: the one the user asked for (a version asked for
//! exactly, `pkg@1.1.0`, counts as `^1.1.0`, as npm records it) and those of the installed
//! packages that depend on it. *Latest* is the newest non-yanked version.

use std::collections::BTreeMap;

use super::plan::PackageSource;
use agx_core::name::PackageName;
use agx_store::{InstalledPackage, StoreError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateCheck {
    pub name: PackageName,
    pub current: semver::Version,
    /// The version `agx update` moves to (equal to `current` when none is newer).
    pub wanted: semver::Version,
    pub latest: semver::Version,
}

impl UpdateCheck {
    pub fn is_outdated(&self) -> bool {
        self.latest > self.current || self.wanted > self.current
    }
}

/// The requirement `update` honours for a package the user asked for.
pub fn update_requirement(requested: &semver::VersionReq) -> semver::VersionReq {
    match requested.comparators.as_slice() {
        [c] if c.op == semver::Op::Exact && c.minor.is_some() && c.patch.is_some() => {
            semver::VersionReq {
                comparators: vec![semver::Comparator {
                    op: semver::Op::Caret,
                    ..c.clone()
                }],
            }
        }
        _ => requested.clone(),
    }
}

/// Check `targets` (installed from a registry) against `source`.
pub fn check(
    source: &dyn PackageSource,
    installed: &BTreeMap<PackageName, InstalledPackage>,
    targets: &[&InstalledPackage],
) -> Result<Vec<UpdateCheck>, StoreError> {
    let agx = agx_sources::resolve::agx_version();
    let mut checks = Vec::new();
    for target in targets {
        let mut reqs = Vec::new();
        if target.receipt.explicit {
            reqs.push(update_requirement(&target.receipt.requested));
        }
        for dependent in agx_store::remove::dependents_of(installed, &target.name) {
            reqs.push(dependent.receipt.dependencies[&target.name].clone());
        }
        let versions = source.versions(&target.name)?;
        let usable = versions
            .iter()
            .filter(|e| !e.yanked && e.agx.as_ref().is_none_or(|r| r.matches(&agx)));
        let latest = usable
            .clone()
            .map(|e| &e.vers)
            .max()
            .cloned()
            .unwrap_or_else(|| target.version.clone());
        let wanted = usable
            .filter(|e| reqs.iter().all(|r| r.matches(&e.vers)))
            .map(|e| &e.vers)
            .max()
            .filter(|v| **v > target.version)
            .cloned()
            .unwrap_or_else(|| target.version.clone());
        checks.push(UpdateCheck {
            name: target.name.clone(),
            current: target.version.clone(),
            wanted,
            latest: latest.max(target.version.clone()),
        });
    }
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_requests_update_within_their_major() {
        let req = |s: &str| semver::VersionReq::parse(s).unwrap();
        let v = |s: &str| semver::Version::parse(s).unwrap();
        let exact = update_requirement(&req("=1.1.0"));
        assert!(exact.matches(&v("1.2.0")) && !exact.matches(&v("2.0.0")));
        assert_eq!(update_requirement(&req(">=1, <1.2")), req(">=1, <1.2"));
        assert_eq!(update_requirement(&req("=1.1")), req("=1.1"));
    }
}
