//! Installed packages from their receipts (no definition file is read), and with the
//! registries' catalogs and server lists what they offer besides (no package is
//! downloaded).

use std::collections::BTreeSet;

use crate::index::AnyRegistry;
use crate::index::mcp_registry::{self, ServerSummary};
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

/// What `agx list` shows.
#[derive(Debug, Default)]
pub struct Listing {
    /// Installed packages, and with `include_remote` the agx indexes' packages that are not
    /// installed, sorted together by name.
    pub packages: Vec<ListedPackage>,
    /// With `include_remote`: the MCP registries' servers (not installable yet), by name.
    pub servers: Vec<ServerSummary>,
}

/// Installed packages in name order; with `include_remote`, followed by (and sorted
/// together with) what every configured registry offers that is not installed.
pub fn list(ctx: &Context, include_remote: bool) -> OpsResult<Listing> {
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
    let mut servers = Vec::new();
    if include_remote {
        let installed: BTreeSet<PackageName> = rows.iter().map(|r| r.name.clone()).collect();
        for (_, registry) in crate::index::open_every(ctx.registry, ctx.offline, ctx.paths)? {
            let registry = match registry {
                AnyRegistry::Agx(registry) => registry,
                AnyRegistry::Mcp(registry) => {
                    servers.extend(mcp_registry::list_all(&registry)?);
                    continue;
                }
            };
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
        }
        rows.sort_by_cached_key(|r| r.name.to_string());
        servers.sort_by(|a, b| a.name.cmp(&b.name));
    }
    Ok(Listing {
        packages: rows,
        servers,
    })
}
