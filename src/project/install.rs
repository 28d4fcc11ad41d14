//! The one call that puts a lock's packages into the store.

use std::path::Path;

use super::LockedPackage;
use crate::ecosystem::EcosystemSpec;
use crate::name::PackageSpec;
use crate::ops::install::{Target, install};
use crate::ops::{Context, OpsError};

/// Install `packages` at exactly their locked versions for the project in `project`.
///
/// This becomes `crate::ops::locked::install_locked(ctx, project, packages)` once the
/// multi-version store is in (it also records the project as a root holding those
/// versions); until then each package is installed with today's install at `=version`.
pub fn install_locked_packages(
    ctx: &Context,
    project: &Path,
    packages: &[LockedPackage],
) -> Result<(), OpsError> {
    let _ = project;
    let targets = packages
        .iter()
        .map(|p| {
            if p.name.is_ecosystem() {
                let spec = EcosystemSpec::parse(&p.source).unwrap_or_else(|| {
                    Err(crate::name::NameError::Package {
                        input: p.source.clone(),
                        reason: "not an npm: or pypi: spec".into(),
                    })
                })?;
                Ok(Target::Ecosystem(spec))
            } else {
                Ok(Target::Spec(PackageSpec {
                    name: p.name.clone(),
                    req: Some(exact(&p.version)),
                }))
            }
        })
        .collect::<Result<Vec<_>, OpsError>>()?;
    install(ctx, &targets, false)
}

/// `=version`.
pub fn exact(version: &semver::Version) -> semver::VersionReq {
    semver::VersionReq::parse(&format!("={version}")).expect("an exact requirement parses")
}
