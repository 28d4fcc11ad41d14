//! Installed packages from their receipts (no definition file is read), and with the
//! catalog what the registry offers besides (no package is downloaded).

use std::collections::BTreeSet;

use crate::manifest::ExtensionSummary;
use crate::name::PackageName;

use super::{Context, OpsResult};

/// One package as listed: installed (from its receipt) or offered by the catalog.
#[derive(Debug, Clone)]
pub struct ListedPackage {
    pub name: PackageName,
    pub version: semver::Version,
    pub installed: bool,
    /// Installed because the user asked for it (not only as a dependency).
    pub explicit: bool,
    pub description: Option<String>,
    pub extension: ExtensionSummary,
}

/// Installed packages in name order; with `include_remote`, followed by (and sorted
/// together with) the catalog's packages that are not installed.
pub fn list(ctx: &Context, include_remote: bool) -> OpsResult<Vec<ListedPackage>> {
    let store = ctx.store();
    let lock = store.lock_shared_if_present()?;
    let mut rows: Vec<ListedPackage> = store
        .list()?
        .into_iter()
        .map(|p| ListedPackage {
            name: p.name,
            version: p.version,
            installed: true,
            explicit: p.receipt.explicit,
            description: p.receipt.description,
            extension: p.receipt.extension,
        })
        .collect();
    drop(lock);
    if include_remote {
        let registry = ctx.open_registry()?;
        let installed: BTreeSet<PackageName> = rows.iter().map(|r| r.name.clone()).collect();
        let catalog = registry.catalog()?;
        rows.extend(
            catalog
                .packages
                .into_iter()
                .filter(|e| !installed.contains(&e.name))
                .map(|e| ListedPackage {
                    name: e.name,
                    version: e.version,
                    installed: false,
                    explicit: false,
                    description: e.description,
                    extension: e.extension,
                }),
        );
        rows.sort_by_cached_key(|r| r.name.to_string());
    }
    Ok(rows)
}
