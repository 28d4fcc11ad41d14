//! Update installed registry packages to the newest versions their requirements allow.

use std::collections::BTreeMap;

use super::{Context, OpsResult};
use agx_core::name::{PackageName, PackageSpec};
use agx_installer::{Root, StagedPlan};
use agx_sources::index::Registry;
use agx_store::{InstalledPackage, StoreError};

/// A package `agx update` kept at its installed version because the newer one asks for
/// more permissions (docs/sandbox.md, "When an update asks for more").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldBack {
    pub name: PackageName,
    pub current: semver::Version,
    pub wanted: semver::Version,
    /// What grew, one line each (`read {home}/.aws`, `network any (was none)`, …).
    pub grown: Vec<String>,
}

/// Update `names` (every registry package when empty). Installs report through the
/// reporter; packages from other sources and newer versions outside a requirement are noted.
/// Checking and downloading happen without the store lock (see `Store::prepare_then_commit`).
/// A package whose newer version asks for more permissions keeps its version and is
/// returned, unless `accept_permissions`.
pub fn update(
    ctx: &Context,
    names: &[PackageName],
    accept_permissions: bool,
) -> OpsResult<Vec<HeldBack>> {
    let held = update_packages(ctx, names, accept_permissions)?;
    // Skill copies in clients' folders follow their packages (docs/skills.md).
    super::skills::refresh_copies(ctx)?;
    Ok(held)
}

/// What an update prepared without the store lock: the staged plan with its registry
/// (none when nothing moves) and the packages held back.
type Prepared = (Option<(Registry, StagedPlan)>, Vec<HeldBack>);

fn update_packages(
    ctx: &Context,
    names: &[PackageName],
    accept_permissions: bool,
) -> OpsResult<Vec<HeldBack>> {
    // Loaded first: a policy that cannot be read stops the update before anything moves.
    let policy = super::policy::gate(ctx, None)?;
    // npm and PyPI packages move by provisioning their newest version (ops::outdated).
    let handled = super::outdated::update_ecosystem(ctx, names)?;
    let rest: Vec<PackageName> = names
        .iter()
        .filter(|n| !handled.contains(n))
        .cloned()
        .collect();
    if !names.is_empty() && rest.is_empty() {
        return Ok(Vec::new());
    }
    let names = rest.as_slice();
    let store = ctx.store();
    let installer = ctx.installer(&store, &policy);
    let staging = store.staging()?;
    store.prepare_then_commit(
        |installed, previous: Option<Prepared>| {
            let (registry, mut previous) = previous.and_then(|(p, _)| p).unzip();
            let installed: BTreeMap<PackageName, InstalledPackage> =
                installed.into_iter().map(|p| (p.name.clone(), p)).collect();
            let Some((mut roots, registry)) = update_roots(ctx, &installed, names, registry)?
            else {
                return Ok((None, Vec::new()));
            };
            let receipts = installed
                .iter()
                .map(|(n, p)| (n.clone(), p.receipt.clone()))
                .collect();
            let mut held = Vec::new();
            // Each pass holds back the packages whose staged version asks for more; the
            // next plans them at their installed version (the downloads are reused).
            loop {
                let plan = agx_installer::plan::plan(&registry, &receipts, &roots)?;
                let staged = installer.stage(&registry, plan, &staging, previous.take())?;
                let grown = if accept_permissions {
                    Vec::new()
                } else {
                    grown_permissions(&installed, &staged)
                };
                if grown.is_empty() {
                    return Ok((Some((registry, staged)), held));
                }
                for h in &grown {
                    roots.retain(|r| r.spec.name != h.name);
                    roots.push(Root {
                        spec: PackageSpec {
                            name: h.name.clone(),
                            req: Some(exactly(&h.current)),
                        },
                        force: false,
                    });
                }
                held.extend(grown);
                previous = Some(staged);
            }
        },
        |(staged, held)| {
            if let Some((_, staged)) = staged {
                for warning in &staged.plan().warnings {
                    ctx.reporter.warn(warning);
                }
                // Receipts keep the requirement each package was installed with.
                installer.apply(staged, &BTreeMap::new())?;
            }
            Ok(held)
        },
    )
}

/// The packages of `staged` that replace an installed version and ask for more
/// permissions than it.
fn grown_permissions(
    installed: &BTreeMap<PackageName, InstalledPackage>,
    staged: &StagedPlan,
) -> Vec<HeldBack> {
    staged
        .packages()
        .filter_map(|new| {
            let name = &new.manifest.package.name;
            let current = installed.get(name)?;
            // A version whose definitions no longer load runs nothing to compare with.
            let old = agx_model::manifest::load_installed(&current.dir).ok()?;
            let grown = agx_sandbox::growth::package_growth(&old, new);
            (!grown.is_empty()).then(|| HeldBack {
                name: name.clone(),
                current: current.version.clone(),
                wanted: new.manifest.package.version.clone(),
                grown,
            })
        })
        .collect()
}

/// The requirement of exactly `version`.
fn exactly(version: &semver::Version) -> semver::VersionReq {
    semver::VersionReq::parse(&format!("={version}")).expect("a version is a valid requirement")
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
        None => {
            // A `.well-known` site's skills update from it: alone, or by their names.
            let sites = ctx.sites()?;
            let first = targets.first().and_then(|p| sites.of(&p.name));
            match first {
                Some(site) if targets.iter().all(|p| sites.of(&p.name) == Some(site)) => {
                    ctx.open_site(site)?
                }
                _ => {
                    targets.retain(|p| match sites.of(&p.name) {
                        Some(site) => {
                            ctx.reporter.status(
                                "Note",
                                &format!(
                                    "{} comes from the site `{site}`: `agx update {}` updates it",
                                    p.name, p.name
                                ),
                            );
                            false
                        }
                        None => true,
                    });
                    if targets.is_empty() {
                        return Ok(None);
                    }
                    ctx.open_registry()?
                }
            }
        }
    };
    let checks = agx_installer::update::check(&registry, installed, &targets)?;
    let roots: Vec<Root> = checks
        .iter()
        .filter(|c| c.wanted > c.current)
        .map(|c| Root {
            spec: PackageSpec {
                name: c.name.clone(),
                req: Some(exactly(&c.wanted)),
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
