//! Install packages from the registry or from local folders and tarballs, and the one way
//! other operations make sure a package is installed.

use std::collections::BTreeMap;
use std::path::Path;

use super::{Context, OpsError, OpsResult};
use agx_core::name::{PackageName, PackageSpec};
use agx_core::report::Outcome;
use agx_installer::{InstallOptions, Installer, LocalSource, Root, StagedPlan};
use agx_sources::ecosystem::mcpb::BundleSource;
use agx_sources::ecosystem::{Ecosystem, EcosystemSpec, EntrySpec, ProvisionOptions};

use super::direct::Direct;
use agx_store::{Source, Store, StoreError};

/// What `agx install` was asked for.
#[derive(Debug, Clone)]
pub enum Target {
    Spec(PackageSpec),
    Local(LocalSource),
    /// `npm:<name>[@version]`, `pypi:<name>[==version]` or `oci:<image>`, provisioned into an
    /// agx package.
    Ecosystem(EcosystemSpec),
    /// An MCPB bundle (a `.mcpb` file or URL), fetched and checked before provisioning.
    Bundle(BundleSource),
    /// `io.github.user/weather[@version]`, a server listed in an MCP registry.
    Entry(EntrySpec),
    /// `PLUGIN@SOURCE`, a Claude Code plugin of a configured marketplace.
    Plugin(agx_sources::index::marketplace::PluginRef),
}

impl Target {
    /// A command-line argument is a local package when it looks like a path (`./x`, `/x`,
    /// `x.tar.gz`) or is not a package spec but names an existing file or folder.
    pub fn parse(arg: &str) -> OpsResult<Target> {
        Self::parse_with_sha256(arg, None)
    }

    /// [`Target::parse_with_sha256`], reading `PLUGIN@SOURCE` first when `SOURCE` is a
    /// configured marketplace (docs/plugins.md).
    pub fn parse_configured(
        arg: &str,
        sha256: Option<&str>,
        paths: &agx_core::paths::AgxPaths,
    ) -> OpsResult<Target> {
        if let Some(reference) = agx_sources::index::marketplace::parse_plugin_ref(arg, paths)? {
            return Ok(Target::Plugin(reference));
        }
        Self::parse_with_sha256(arg, sha256)
    }

    /// [`Target::parse`], with the sha256 a bundle must have (`--sha256`).
    pub fn parse_with_sha256(arg: &str, sha256: Option<&str>) -> OpsResult<Target> {
        if let Some(spec) = EcosystemSpec::parse(arg) {
            return Ok(Target::Ecosystem(spec?));
        }
        if let Some(bundle) = BundleSource::parse(arg, sha256) {
            return Ok(Target::Bundle(bundle.map_err(agx_store::StoreError::from)?));
        }
        if let Some(spec) = EntrySpec::parse(arg) {
            return Ok(Target::Entry(spec?));
        }
        let looks_like_path = arg.starts_with('.')
            || arg.starts_with('/')
            || arg.starts_with('~')
            || arg.contains('\\')
            || arg.ends_with(".tar.gz")
            || arg.ends_with(".tgz");
        let mut not_a_name = true;
        if !looks_like_path {
            match PackageSpec::parse(arg) {
                Ok(spec) => return Ok(Target::Spec(spec)),
                Err(source) if !Path::new(arg).exists() => {
                    return Err(OpsError::NotASpec { source });
                }
                Err(_) => not_a_name = false,
            }
        }
        let path = Path::new(arg);
        let meta = std::fs::metadata(path).map_err(|source| OpsError::NotAPackage {
            arg: arg.to_string(),
            source,
            not_a_name,
        })?;
        Ok(Target::Local(if meta.is_dir() {
            LocalSource::Dir(path.to_path_buf())
        } else {
            LocalSource::Tarball(path.to_path_buf())
        }))
    }
}

/// A target that installs whole, or a bundle to fetch before it is one.
enum Pending<'a> {
    Ready(Direct<'a>),
    Bundle(&'a BundleSource),
}

/// Install `targets`; with `force`, reinstall what is already installed. Each package's
/// outcome goes to the reporter as it completes.
pub fn install(ctx: &Context, targets: &[Target], force: bool) -> OpsResult<()> {
    install_with(ctx, targets, force, ProvisionOptions::default())
}

/// [`install`], with what npm and PyPI packages may run while they are provisioned.
pub fn install_with(
    ctx: &Context,
    targets: &[Target],
    force: bool,
    provision: ProvisionOptions,
) -> OpsResult<()> {
    let store = ctx.store();
    // Loaded first: a policy that cannot be read stops even an install with nothing to do.
    let policy = super::policy::gate(ctx, None)?;
    let mut specs = Vec::new();
    // What installs whole from one place, in the order asked, less what is installed.
    let mut direct = Vec::new();
    for target in targets {
        match target {
            Target::Spec(spec) => specs.push(spec.clone()),
            Target::Local(local) => direct.push(Pending::Ready(Direct::Local(local))),
            Target::Ecosystem(spec) if force || !ecosystem_installed(ctx, &store, spec) => {
                direct.push(Pending::Ready(Direct::Ecosystem(spec.clone())))
            }
            Target::Ecosystem(_) => {}
            Target::Bundle(bundle) => direct.push(Pending::Bundle(bundle)),
            Target::Entry(spec) if force || !super::install_entry::installed(ctx, &store, spec) => {
                direct.push(Pending::Ready(Direct::Entry(spec)))
            }
            Target::Entry(_) => {}
            Target::Plugin(reference) => direct.push(Pending::Ready(Direct::Plugin(reference))),
        }
    }
    if direct.is_empty() && !force && all_installed(ctx, &store, &specs, &policy)? {
        return Ok(());
    }

    let installer = ctx.installer(&store, &policy);
    // Everything slow (reading local packages, the registry, downloads) happens in staging,
    // without the store lock; the lock is held only to put the result in place.
    let staging = store.staging()?;
    let mut prepared = Vec::new();
    // Every package is through the gate before any is put in place.
    for pending in direct {
        let direct = match pending {
            Pending::Ready(direct) => direct,
            // Fetched and checked first: the bundle's manifest names the package.
            Pending::Bundle(bundle) => {
                let spec = super::direct::pin_bundle(bundle, &staging)?;
                if !force && ecosystem_installed(ctx, &store, &spec) {
                    continue;
                }
                Direct::Ecosystem(spec)
            }
        };
        let direct = match direct {
            // An image given by tag is pinned to its digest while a daemon can tell it.
            Direct::Ecosystem(spec) if spec.ecosystem == Ecosystem::Oci => {
                let pinned =
                    agx_sources::ecosystem::oci::pin(&spec).map_err(agx_store::StoreError::from)?;
                if let Some(warning) = &pinned.warning {
                    ctx.reporter.warn(warning);
                }
                Direct::Ecosystem(pinned.spec)
            }
            other => other,
        };
        prepared.push(super::direct::prepare(
            ctx,
            &installer,
            direct,
            &staging,
            provision.clone(),
        )?);
    }

    let mut roots: Vec<Root> = specs
        .iter()
        .map(|spec| Root {
            spec: spec.clone(),
            // Files gone behind a receipt's back: install again.
            force: force || matches!(store.installed(&spec.name), Err(StoreError::Damaged { .. })),
        })
        .collect();
    let explicit: BTreeMap<PackageName, semver::VersionReq> = specs
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                s.req.clone().unwrap_or(semver::VersionReq::STAR),
            )
        })
        .collect();
    // A package's dependencies come from the registry, installed before it.
    for p in &prepared {
        for (dep, req) in &p.package().manifest.dependencies {
            if !explicit.contains_key(dep) {
                roots.push(Root {
                    spec: PackageSpec {
                        name: dep.clone(),
                        req: Some(req.clone()),
                    },
                    force: false,
                });
            }
        }
    }
    let warm: Vec<super::warm::WarmTarget> = if provision.warm {
        (prepared.iter().map(|p| p.package()))
            .flat_map(super::warm::targets_of)
            .collect()
    } else {
        Vec::new()
    };
    let registry = if roots.is_empty() {
        None
    } else {
        Some(ctx.open_registry_for(roots.iter().map(|r| &r.spec.name))?)
    };
    store.prepare_then_commit(
        |installed, previous| -> OpsResult<Option<StagedPlan>> {
            let Some(registry) = &registry else {
                return Ok(None);
            };
            let installed = installed.into_iter().map(|p| (p.name, p.receipt)).collect();
            let plan = agx_installer::plan::plan(registry, &installed, &roots)?;
            Ok(Some(installer.stage(
                registry,
                plan,
                &staging,
                previous.flatten(),
            )?))
        },
        |staged| {
            if let (Some(staged), Some(registry)) = (staged, &registry) {
                for warning in &staged.plan().warnings {
                    ctx.reporter.warn(warning);
                }
                let installs = !staged.plan().installs.is_empty();
                installer.apply(staged, &explicit)?;
                if installs && let Some(verified) = agx_installer::PackageSource::verified(registry)
                {
                    ctx.reporter.status(
                        "Verified",
                        &format!("what was installed, against {verified}"),
                    );
                }
            }
            for p in prepared {
                installer.commit_prepared(p, InstallOptions { force })?;
            }
            Ok(())
        },
    )?;
    // After the store lock is released: the servers read the store as any start does.
    super::warm::warm(ctx, &warm);
    Ok(())
}

/// The marketplace `source` names (a configured name, a URL or a folder); anything else is
/// refused as not one.
fn open_marketplace(
    ctx: &Context,
    source: &str,
) -> OpsResult<agx_sources::index::marketplace::Marketplace> {
    match agx_sources::index::open_any(Some(source), None, ctx.offline, ctx.paths)? {
        agx_sources::index::AnyRegistry::Marketplace(marketplace) => Ok(marketplace),
        other => Err(agx_sources::index::IndexError::NotAMarketplace {
            path: other.source().into(),
        }
        .into()),
    }
}

/// Fetch a marketplace's plugin and write it as an agx package in staging. The reference's
/// source is a configured name, or (from a project's lock) the marketplace's URL or folder.
pub(super) fn prepare_plugin(
    ctx: &Context,
    installer: &Installer<'_>,
    reference: &agx_sources::index::marketplace::PluginRef,
    staging: &agx_store::Staging,
) -> OpsResult<agx_installer::Prepared> {
    let marketplace = open_marketplace(ctx, &reference.source)?;
    ctx.reporter.status("Importing", &reference.to_string());
    Ok(
        installer.prepare_plugin(&reference.to_string(), staging, |stage| {
            agx_sources::plugins::import::provision(&marketplace, reference, stage)
        })?,
    )
}

/// The package the plugin `reference` becomes, imported (as `agx install PLUGIN@SOURCE`)
/// unless that plugin of that marketplace is what is installed under its name.
pub fn ensure_plugin(
    ctx: &Context,
    reference: &agx_sources::index::marketplace::PluginRef,
) -> OpsResult<PackageName> {
    let marketplace = open_marketplace(ctx, &reference.source)?;
    let catalog = marketplace.catalog()?;
    if !catalog.plugins.iter().any(|p| p.name == reference.plugin) {
        return Err(agx_sources::index::IndexError::PluginNotFound {
            plugin: reference.plugin.clone(),
            marketplace: marketplace.source().to_string(),
            known: catalog.plugins.iter().map(|p| p.name.clone()).collect(),
        }
        .into());
    }
    let name = agx_sources::plugins::import::package_name(&catalog, reference)
        .map_err(StoreError::from)?;
    let imported = ctx.store().installed(&name)?.is_some_and(|p| {
        agx_installer::imported_from(&p.receipt.source, &reference.plugin, marketplace.source())
    });
    if !imported {
        // Refused there when another source's package has the name.
        install(ctx, &[Target::Plugin(reference.clone())], false)?;
    }
    Ok(name)
}

/// Install `package` (and its dependencies) unless it is installed, as `agx install
/// <package>` would; `why` says what needs it.
pub fn ensure_installed(ctx: &Context, package: &PackageName, why: &str) -> OpsResult<()> {
    if ctx.store().installed_dir(package)?.is_some() {
        return Ok(());
    }
    ctx.reporter
        .status("Installing", &format!("{package} ({why})"));
    let spec = PackageSpec {
        name: package.clone(),
        req: None,
    };
    install(ctx, &[Target::Spec(spec)], false)
}

/// The no-network fast path for an npm or PyPI spec: the package is installed from that
/// ecosystem, at the version asked for (any version when none is). Reports it.
fn ecosystem_installed(ctx: &Context, store: &Store, spec: &EcosystemSpec) -> bool {
    let Ok(Some(p)) = store.installed(&spec.name) else {
        return false;
    };
    let Source::Ecosystem {
        spec: exact,
        integrity,
        ..
    } = &p.receipt.source
    else {
        return false;
    };
    // A bundle is the same when its bytes are; an image or package when its spec is.
    let same = match &spec.ecosystem {
        Ecosystem::Mcpb(bundle) => *integrity == [format!("sha256:{}", bundle.sha256)],
        _ => spec
            .version
            .as_ref()
            .is_none_or(|_| spec.to_string() == *exact),
    };
    if !same {
        return false;
    }
    ctx.reporter
        .package_done(&p.name, &p.version, &Outcome::AlreadyInstalled);
    true
}

/// The no-network fast path: every requested package is installed, explicitly, at a version
/// its requirement accepts. Reports them and returns true.
fn all_installed(
    ctx: &Context,
    store: &Store,
    specs: &[PackageSpec],
    policy: &agx_store::PolicyGate,
) -> OpsResult<bool> {
    let mut found = Vec::new();
    for spec in specs {
        match store.installed(&spec.name) {
            Ok(Some(p))
                if p.receipt.explicit
                    && spec.req.as_ref().is_none_or(|r| r.matches(&p.version)) =>
            {
                found.push(p)
            }
            _ => return Ok(false),
        }
    }
    // What is there already is held to the policy as a new install would be.
    for p in &found {
        policy.check_installed(store, &p.name, &p.version)?;
    }
    for p in found {
        ctx.reporter
            .package_done(&p.name, &p.version, &Outcome::AlreadyInstalled);
    }
    Ok(true)
}
