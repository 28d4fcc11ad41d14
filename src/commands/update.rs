//! `agx update`.

use std::collections::BTreeMap;

use super::Context;
use super::install::{CliProgress, open_registry};
use crate::cli::UpdateArgs;
use crate::error::CliResult;
use crate::name::{PackageName, PackageSpec};
use crate::store::{InstalledPackage, Installer, LockMode, Root, Store, StoreError};
use crate::ui;

pub fn run(ctx: &Context, args: &UpdateArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let store = Store::open(ctx.paths()?);
    let _lock = store.lock(LockMode::Exclusive)?;
    let installed: BTreeMap<PackageName, InstalledPackage> = store
        .list()?
        .into_iter()
        .map(|p| (p.name.clone(), p))
        .collect();
    let mut targets = Vec::new();
    for name in &names {
        let package = installed
            .get(name)
            .ok_or_else(|| StoreError::NotInstalled { name: name.clone() })?;
        if package.receipt.source.is_registry() {
            targets.push(package);
        } else {
            ui::warn(&format!(
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
        ui::status(
            "Updated",
            "nothing: no package from a registry is installed",
        );
        return Ok(());
    }

    let registry = open_registry(ctx)?;
    let checks = crate::store::update::check(&registry, &installed, &targets)?;
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
        ui::status(
            "Note",
            &format!(
                "{} {} is available; `agx install {}@{}` moves to it",
                c.name, c.latest, c.name, c.latest
            ),
        );
    }
    if roots.is_empty() {
        ui::status(
            "Updated",
            "nothing: every package is at its newest wanted version",
        );
        return Ok(());
    }
    let receipts = installed.into_iter().map(|(n, p)| (n, p.receipt)).collect();
    let plan = crate::store::plan::plan(&registry, &receipts, &roots)?;
    for warning in &plan.warnings {
        ui::warn(warning);
    }
    let mut progress = CliProgress::new();
    // Receipts keep the requirement each package was installed with.
    Installer {
        store: &store,
        progress: &mut progress,
    }
    .apply(&registry, &plan, &BTreeMap::new())?;
    Ok(())
}
