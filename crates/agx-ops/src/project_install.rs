//! The one call that puts a lock's packages into the store, held by the project's root.

use std::path::Path;

use crate::locked::{self, LockedInstallReport};
use crate::{Context, OpsError};
use agx_project::LockedPackage;

/// The lock's packages as the store's locked install takes them.
fn for_store(packages: &[LockedPackage]) -> Vec<locked::LockedPackage> {
    packages
        .iter()
        .map(|p| locked::LockedPackage {
            name: p.name.clone(),
            version: p.version.clone(),
            source: p.source.clone(),
            sha256: p.sha256.clone(),
            integrity: p.integrity.clone(),
            root_keys: p.root_keys.clone(),
            dependencies: p.dependencies.clone(),
            provenance: p.provenance.clone(),
        })
        .collect()
}

/// Install `packages` at exactly their locked versions and make the project in `project`
/// hold exactly them (versions it held before stay until `agx gc`, or while another root
/// holds them). The project's setting values are checked against those versions'
/// declarations first: a value they refuse (a secret, an undeclared key, a wrong type)
/// leaves the project's root as it was.
pub(crate) fn install_locked_packages(
    ctx: &Context,
    project: &Path,
    packages: &[LockedPackage],
) -> Result<LockedInstallReport, OpsError> {
    let values_fit = |store: &agx_store::Store| {
        let declared = |name: &agx_core::name::PackageName| {
            let locked = packages.iter().find(|p| &p.name == name)?;
            let dir = store.package_dir(name, &locked.version);
            let package = agx_model::manifest::load_installed(&dir).ok()?;
            Some(package.manifest.extension.settings)
        };
        agx_project::manifest::check_setting_values(project, &declared)
            .map_err(agx_core::error::Upstream::new)
    };
    locked::install_locked(ctx, project, &for_store(packages), &values_fit)
}

/// Whether every package is installed and the project's root holds exactly them.
pub(crate) fn locked_packages_synced(
    ctx: &Context,
    project: &Path,
    packages: &[LockedPackage],
) -> bool {
    locked::is_synced(ctx, project, &for_store(packages))
}
