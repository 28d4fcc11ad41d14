//! Which installed packages have newer versions: registry packages from their registry,
//! npm and PyPI packages from theirs (`crate::ecosystem::latest`); and moving the latter
//! to their newest versions for `agx update`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Context, OpsResult};
use crate::ecosystem::latest::{Newest, newest};
use crate::name::PackageName;
use crate::store::{InstalledPackage, Source, StoreError};

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

/// The answer: what is outdated, out of how many packages checked.
#[derive(Debug, Clone, Serialize)]
pub struct Outdated {
    pub packages: Vec<OutdatedPackage>,
    #[serde(skip)]
    pub checked: usize,
    /// Installed packages that have no source of newer versions (bundles, pinned images),
    /// with why.
    #[serde(skip)]
    pub unchecked: Vec<(PackageName, &'static str)>,
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
    let mut packages: Vec<OutdatedPackage> = checks
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
    let mut checked = targets.len();
    let mut unchecked = Vec::new();
    for (package, answer) in ecosystem_newest(ctx, installed.values())? {
        match answer {
            Newest::Version { version, .. } => {
                checked += 1;
                if version > package.version {
                    packages.push(OutdatedPackage {
                        name: package.name.clone(),
                        current: package.version.clone(),
                        wanted: version.clone(),
                        latest: version,
                        explicit: package.receipt.explicit,
                    });
                }
            }
            Newest::NoSource(why) => unchecked.push((package.name.clone(), why)),
        }
    }
    Ok(Outdated {
        packages,
        checked,
        unchecked,
    })
}

/// The newest version of each ecosystem package among `packages`.
fn ecosystem_newest<'a>(
    ctx: &Context,
    packages: impl IntoIterator<Item = &'a InstalledPackage>,
) -> OpsResult<Vec<(&'a InstalledPackage, Newest)>> {
    let mut answers = Vec::new();
    for package in packages {
        if let Source::Ecosystem { spec, .. } = &package.receipt.source {
            let answer = newest(spec, ctx.paths, ctx.offline).map_err(StoreError::from)?;
            answers.push((package, answer));
        }
    }
    Ok(answers)
}

/// `agx update` for npm and PyPI packages: provision each of `names` (every ecosystem
/// package when empty) that has a newer version at that exact version, as `agx install`
/// does, so the installed one keeps working until the new one is committed. Returns the
/// names it handled (those the registry update must not consider).
pub fn update_ecosystem(ctx: &Context, names: &[PackageName]) -> OpsResult<Vec<PackageName>> {
    let store = ctx.store();
    let installed: Vec<InstalledPackage> = store
        .list()?
        .into_iter()
        .filter(|p| matches!(p.receipt.source, Source::Ecosystem { .. }))
        .filter(|p| names.is_empty() || names.contains(&p.name))
        .collect();
    let mut targets = Vec::new();
    for (package, answer) in ecosystem_newest(ctx, &installed)? {
        match answer {
            Newest::Version { version, spec } if version > package.version => {
                targets.push(super::install::Target::Ecosystem(spec))
            }
            Newest::Version { .. } => {}
            Newest::NoSource(why) => ctx
                .reporter
                .status("Note", &format!("{}: {why}", package.name)),
        }
    }
    if !targets.is_empty() {
        super::install::install(ctx, &targets, false)?;
    }
    Ok(installed.into_iter().map(|p| p.name).collect())
}
