//! Which installed packages have newer versions: registry packages from their registry,
//! npm and PyPI packages from theirs, packages installed from MCP registry entries from
//! that registry (`agx_sources::ecosystem::latest`); and moving the latter two to their newest
//! versions for `agx update`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Context, OpsResult};
use agx_core::name::PackageName;
use agx_sources::ecosystem::latest::{Newest, newest, newest_entry};
use agx_sources::ecosystem::{Prefer, ProvisionOptions};
use agx_store::{InstalledPackage, Source, StoreError};

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
    /// Installed packages that have no source of newer versions (bundles, pinned images,
    /// folders, marketplace plugins), with why and how to update them.
    #[serde(skip)]
    pub unchecked: Vec<(PackageName, String)>,
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
        agx_installer::update::check(&registry, &installed, &targets)?
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
            Newest::Version { version, .. } | Newest::Entry { version, .. } => {
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
            Newest::NoSource(why) => unchecked.push((package.name.clone(), why.to_string())),
        }
    }
    // Packages agx cannot ask for a newer version: said, not left out silently.
    for package in installed.values() {
        let why = match &package.receipt.source {
            Source::Local { path } => format!(
                "installed from {path}, which has no versions to compare; `agx install {path}` again takes its current state"
            ),
            Source::Plugin { reference, .. } => format!(
                "imported from the plugin {reference}; `agx install {reference}` again takes the marketplace's current version"
            ),
            _ => continue,
        };
        unchecked.push((package.name.clone(), why));
    }
    Ok(Outdated {
        packages,
        checked,
        unchecked,
    })
}

/// The newest version of each ecosystem package among `packages`: from its MCP registry
/// entry when it was installed from one, else from its ecosystem.
fn ecosystem_newest<'a>(
    ctx: &Context,
    packages: impl IntoIterator<Item = &'a InstalledPackage>,
) -> OpsResult<Vec<(&'a InstalledPackage, Newest)>> {
    let mut answers = Vec::new();
    for package in packages {
        let answer = match &package.receipt.source {
            Source::Ecosystem {
                entry: Some(origin),
                ..
            } => newest_entry(origin, ctx.paths, ctx.offline),
            Source::Ecosystem { spec, .. } => newest(spec, ctx.paths, ctx.offline),
            _ => continue,
        };
        answers.push((package, answer.map_err(StoreError::from)?));
    }
    Ok(answers)
}

/// `agx update` for npm and PyPI packages and MCP registry entries: provision each of
/// `names` (every ecosystem package when empty) that has a newer version at that exact
/// version, as `agx install` does, so the installed one keeps working until the new one is
/// committed. An entry is installed again from the registry it came from, choosing the same
/// kind of package as before. Returns the names it handled (those the registry update must
/// not consider).
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
            Newest::Entry { version, spec } if version > package.version => {
                update_entry(ctx, package, spec)?
            }
            Newest::Version { .. } | Newest::Entry { .. } => {}
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

/// Install `spec` (the newer version of the entry `package` came from) from the registry
/// and of the kind recorded in its receipt.
fn update_entry(
    ctx: &Context,
    package: &InstalledPackage,
    spec: agx_sources::ecosystem::EntrySpec,
) -> OpsResult<()> {
    let Source::Ecosystem {
        entry: Some(origin),
        ..
    } = &package.receipt.source
    else {
        unreachable!("only entries have a newest entry version")
    };
    let from_origin = Context {
        registry: Some(&origin.registry),
        ..*ctx
    };
    let options = ProvisionOptions {
        prefer: origin
            .chosen
            .split([':', ' '])
            .next()
            .and_then(Prefer::parse),
        ..ProvisionOptions::default()
    };
    super::install::install_with(
        &from_origin,
        &[super::install::Target::Entry(spec)],
        false,
        options,
    )
}
