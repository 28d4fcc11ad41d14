//! Installed packages from their receipts (no definition file is read), and with the
//! registries' catalogs and server lists what they offer besides (no package is
//! downloaded).

use std::collections::BTreeSet;

use agx_core::name::PackageName;
use agx_model::manifest::ExtensionSummary;
use agx_sources::index::AnyRegistry;
use agx_sources::index::marketplace::PluginSummary;
use agx_sources::index::mcp_registry::{self, ServerSummary};

use super::{Context, OpsResult};
use agx_store::{Holder, Holdings, Store, StoreError};

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
    /// Who holds this version: the user and projects (empty when not installed).
    pub held_by: Vec<Holder>,
    /// For an installed registry package: `verified (tuf: NAME, root vN)` or `unsigned`.
    pub signature: Option<String>,
}

/// How an installed package's registry source was checked (docs/registry.md, "Signed
/// registries").
pub fn signature_of(source: &agx_store::Source) -> Option<String> {
    match source {
        agx_store::Source::Registry {
            verified: Some(verified),
            ..
        } => Some(format!("verified ({verified})")),
        agx_store::Source::Registry { verified: None, .. } => Some("unsigned".into()),
        _ => None,
    }
}

/// What `agx list` shows.
#[derive(Debug, Default)]
pub struct Listing {
    /// Installed packages, and with `include_remote` the agx indexes' packages that are not
    /// installed, sorted together by name.
    pub packages: Vec<ListedPackage>,
    /// With `include_remote`: the MCP registries' servers (not installable yet), by name.
    pub servers: Vec<ServerSummary>,
    /// With `include_remote`: the marketplaces' plugins, by what installs them.
    pub plugins: Vec<ListedPlugin>,
}

/// A marketplace's plugin, with what `agx install` takes for it (`PLUGIN@SOURCE`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ListedPlugin {
    pub install: String,
    #[serde(flatten)]
    pub plugin: PluginSummary,
}

/// Installed packages in name order; with `include_remote`, followed by (and sorted
/// together with) what every configured registry offers that is not installed.
pub fn list(ctx: &Context, include_remote: bool) -> OpsResult<Listing> {
    let store = ctx.store();
    let lock = store.lock_shared_if_present()?;
    let installed = store.list()?;
    let user = installed
        .iter()
        .map(|p| (p.name.clone(), p.version.clone()));
    let holdings = match store.holdings_beside(user) {
        Ok(holdings) => holdings,
        // One damaged project root hides only which projects hold what.
        Err(e @ StoreError::BadRoot { .. }) => {
            let hint = agx_core::error::Hint::hint(&e).unwrap_or_default();
            ctx.reporter
                .warn(&format!("{e}; the projects' holds are not shown ({hint})"));
            Holdings::default()
        }
        Err(e) => return Err(e.into()),
    };
    let mut rows: Vec<ListedPackage> = installed
        .into_iter()
        .map(|p| ListedPackage {
            held_by: holders_or_user(&holdings, &p.name, &p.version),
            name: p.name,
            version: p.version,
            installed: true,
            explicit: p.receipt.explicit,
            signature: signature_of(&p.receipt.source),
            description: p.receipt.description,
            extension: p.receipt.extension,
        })
        .collect();
    rows.extend(project_only_versions(&store, &holdings));
    rows.sort_by_cached_key(|r| (r.name.to_string(), r.version.clone()));
    drop(lock);
    let mut servers = Vec::new();
    let mut plugins = Vec::new();
    if include_remote {
        let installed: BTreeSet<PackageName> = rows.iter().map(|r| r.name.clone()).collect();
        for (name, registry) in
            agx_sources::index::open_every(ctx.registry, ctx.registry_root, ctx.offline, ctx.paths)?
        {
            let registry =
                match registry {
                    AnyRegistry::Agx(registry) => registry,
                    AnyRegistry::Mcp(registry) => {
                        servers.extend(mcp_registry::list_all(&registry)?);
                        continue;
                    }
                    AnyRegistry::Marketplace(marketplace) => {
                        let label = name.unwrap_or_else(|| marketplace.source().to_string());
                        plugins.extend(marketplace.plugins()?.into_iter().map(|plugin| {
                            ListedPlugin {
                                install: format!("{}@{label}", plugin.name),
                                plugin,
                            }
                        }));
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
                        held_by: Vec::new(),
                        signature: None,
                    }),
            );
        }
        rows.sort_by_cached_key(|r| r.name.to_string());
        servers.sort_by(|a, b| a.name.cmp(&b.name));
        plugins.sort_by(|a, b| a.install.cmp(&b.install));
    }
    Ok(Listing {
        packages: rows,
        servers,
        plugins,
    })
}

/// The holders of a version the user holds (the user at least, as its receipt says).
fn holders_or_user(
    holdings: &Holdings,
    name: &PackageName,
    version: &semver::Version,
) -> Vec<Holder> {
    let holders = holdings.holders(name, version);
    if holders.is_empty() {
        vec![Holder::User]
    } else {
        holders
    }
}

/// Installed versions that only projects hold, from the receipts in their folders.
fn project_only_versions(store: &Store, holdings: &Holdings) -> Vec<ListedPackage> {
    holdings
        .held
        .iter()
        .filter(|(_, holders)| !holders.contains(&Holder::User))
        .filter(|((name, version), _)| store.has_version(name, version, None))
        .map(|((name, version), holders)| {
            let receipt = store.version_receipt(name, version);
            ListedPackage {
                name: name.clone(),
                version: version.clone(),
                installed: true,
                explicit: false,
                description: receipt.as_ref().and_then(|r| r.description.clone()),
                signature: receipt.as_ref().and_then(|r| signature_of(&r.source)),
                extension: receipt.map(|r| r.extension).unwrap_or_default(),
                held_by: holders.iter().cloned().collect(),
            }
        })
        .collect()
}
