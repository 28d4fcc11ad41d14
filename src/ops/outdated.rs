//! Which installed registry packages have newer versions.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Context, OpsResult};
use crate::name::PackageName;
use crate::store::InstalledPackage;

/// One outdated package (a row of `agx outdated --json`, docs/json.md).
#[derive(Debug, Clone, Serialize)]
pub struct OutdatedPackage {
    pub name: PackageName,
    pub current: semver::Version,
    /// The newest version its requirement allows.
    pub wanted: semver::Version,
    pub latest: semver::Version,
    pub explicit: bool,
}

/// The answer: what is outdated, out of how many registry packages checked.
#[derive(Debug, Clone, Serialize)]
pub struct Outdated {
    pub packages: Vec<OutdatedPackage>,
    #[serde(skip)]
    pub checked: usize,
}

pub fn outdated(ctx: &Context) -> OpsResult<Outdated> {
    let store = ctx.store();
    let _lock = store.lock_shared_if_present()?;
    let installed: BTreeMap<PackageName, InstalledPackage> = store
        .list()?
        .into_iter()
        .map(|p| (p.name.clone(), p))
        .collect();
    let targets: Vec<&InstalledPackage> = installed
        .values()
        .filter(|p| p.receipt.source.is_registry())
        .collect();
    let checks = if targets.is_empty() {
        Vec::new()
    } else {
        let registry = ctx.open_registry()?;
        crate::store::update::check(&registry, &installed, &targets)?
    };
    let packages = checks
        .into_iter()
        .filter(|c| c.is_outdated())
        .map(|c| OutdatedPackage {
            explicit: installed[&c.name].receipt.explicit,
            name: c.name,
            current: c.current,
            wanted: c.wanted,
            latest: c.latest,
        })
        .collect();
    Ok(Outdated {
        packages,
        checked: targets.len(),
    })
}
