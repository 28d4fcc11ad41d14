//! Update installed registry packages to the newest versions their requirements allow.

use std::collections::BTreeMap;

use super::{Context, OpsResult};
use crate::index::Registry;
use crate::name::{PackageName, PackageSpec};
use crate::store::{InstalledPackage, Installer, Root, StagedPlan, StoreError};

/// Update `names` (every registry package when empty). Installs report through the
/// reporter; packages from other sources and newer versions outside a requirement are noted.
/// Checking and downloading happen without the store lock (see `Store::prepare_then_commit`).
pub fn update(ctx: &Context, names: &[PackageName]) -> OpsResult<()> {
    update_packages(ctx, names)?;
    // Skill copies in clients' folders follow their packages (docs/skills.md).
    super::skills::refresh_copies(ctx)
}

fn update_packages(ctx: &Context, names: &[PackageName]) -> OpsResult<()> {
    // npm and PyPI packages move by provisioning their newest version (ops::outdated).
    let handled = super::outdated::update_ecosystem(ctx, names)?;
    let rest: Vec<PackageName> = names
        .iter()
        .filter(|n| !handled.contains(n))
        .cloned()
        .collect();
    if !names.is_empty() && rest.is_empty() {
        return Ok(());
    }
    let names = rest.as_slice();
    let store = ctx.store();
    let installer = Installer {
        store: &store,
        reporter: ctx.reporter,
    };
    let staging = store.staging()?;
    store.prepare_then_commit(
        |installed, previous: Option<Option<(Registry, StagedPlan)>>| {
            let (registry, previous) = previous.flatten().unzip();
            let installed: BTreeMap<PackageName, InstalledPackage> =
                installed.into_iter().map(|p| (p.name.clone(), p)).collect();
            let Some((roots, registry)) = update_roots(ctx, &installed, names, registry)? else {
                return Ok(None);
            };
            let receipts = installed.into_iter().map(|(n, p)| (n, p.receipt)).collect();
            let plan = crate::store::plan::plan(&registry, &receipts, &roots)?;
            let staged = installer.stage(&registry, plan, &staging, previous)?;
            Ok(Some((registry, staged)))
        },
        |staged| {
            if let Some((registry, staged)) = staged {
                for warning in &staged.plan().warnings {
                    ctx.reporter.warn(warning);
                }
                // Receipts keep the requirement each package was installed with.
                installer.apply(&registry, staged, &BTreeMap::new())?;
            }
            Ok(())
        },
    )
}

/// The packages to move to a newer version, as exact requirements, and the registry they
/// come from (`registry` when one was opened before); `None` (said on the reporter) when
/// there is nothing to update.
fn update_roots(
    ctx: &Context,
    installed: &BTreeMap<PackageName, InstalledPackage>,
    names: &[PackageName],
    registry: Option<Registry>,
) -> OpsResult<Option<(Vec<Root>, Registry)>> {
    let mut targets = Vec::new();
    for name in names {
        let package = installed
            .get(name)
            .ok_or_else(|| StoreError::NotInstalled { name: name.clone() })?;
        if package.receipt.source.is_registry() {
            targets.push(package);
        } else {
            ctx.reporter.warn(&format!(
                "{name} was installed from {}; reinstall it from there to update it",
                package.receipt.source
            ));
        }
    }
    if names.is_empty() {
        targets = installed
            .values()
            .filter(|p| p.receipt.source.is_registry())
            .collect();
    }
    if targets.is_empty() {
        ctx.reporter.status(
            "Updated",
            "nothing: no package from a registry is installed",
        );
        return Ok(None);
    }

    let registry = match registry {
        Some(registry) => registry,
        None => ctx.open_registry()?,
    };
    let checks = crate::store::update::check(&registry, installed, &targets)?;
    let roots: Vec<Root> = checks
        .iter()
        .filter(|c| c.wanted > c.current)
        .map(|c| Root {
            spec: PackageSpec {
                name: c.name.clone(),
                req: Some(
                    semver::VersionReq::parse(&format!("={}", c.wanted))
                        .expect("a version is a valid requirement"),
                ),
            },
            force: false,
        })
        .collect();
    for c in checks.iter().filter(|c| c.latest > c.wanted) {
        ctx.reporter.status(
            "Note",
            &format!(
                "{} {} is available; `agx install {}@{}` moves to it",
                c.name, c.latest, c.name, c.latest
            ),
        );
    }
    if roots.is_empty() {
        ctx.reporter.status(
            "Updated",
            "nothing: every package is at its newest wanted version",
        );
        return Ok(None);
    }
    Ok(Some((roots, registry)))
}
