//! `agx install io.github.user/weather[@version]`: find the entry in the MCP registries in
//! reach, choose what to install of it, and provision it in staging (see
//! `agx_sources::ecosystem::registry_entry`).

use super::{Context, OpsResult};
use agx_core::report::Outcome;
use agx_installer::{Installer, Prepared};
use agx_sources::ecosystem::registry_entry::{self, Planned};
use agx_sources::ecosystem::{EntryError, EntrySpec, ProvisionOptions};
use agx_sources::index::{AnyRegistry, IndexError};
use agx_store::{Source, Staging, Store};

/// Look the entry up (the `--registry` one, else every configured MCP registry; the first
/// that lists it wins), choose, report warnings, and provision it into `staging`.
pub(super) fn prepare(
    ctx: &Context,
    installer: &Installer<'_>,
    spec: &EntrySpec,
    staging: &Staging,
    mut options: ProvisionOptions,
) -> OpsResult<Prepared> {
    options.trusted = installer.trusted_signer(&spec.name)?;
    let mut planned = find(ctx, spec, &options)?;
    registry_entry::pin(&mut planned).map_err(agx_store::StoreError::from)?;
    for warning in &planned.warnings {
        ctx.reporter.warn(warning);
    }
    ctx.reporter.status("Provisioning", &spec.to_string());
    Ok(
        installer.prepare_provisioned(&spec.to_string(), staging, |stage| {
            registry_entry::provision(&planned, stage, options)
        })?,
    )
}

fn find(ctx: &Context, spec: &EntrySpec, options: &ProvisionOptions) -> OpsResult<Planned> {
    let name = spec.name.to_string();
    let mut not_found = None;
    for (_, registry) in
        agx_sources::index::open_every(ctx.registry, ctx.registry_root, ctx.offline, ctx.paths)?
    {
        let AnyRegistry::Mcp(registry) = registry else {
            continue;
        };
        match registry.server(&name, spec.version.as_deref()) {
            Ok(entry) => {
                return Ok(registry_entry::choose(
                    entry,
                    registry.base(),
                    options.prefer,
                    &registry_entry::on_path,
                )?);
            }
            Err(e @ IndexError::ServerNotFound { .. }) => {
                not_found = Some(match &spec.version {
                    Some(version) => EntryError::NoSuchVersion {
                        server: name.clone(),
                        version: version.clone(),
                        registry: registry.base().to_string(),
                    }
                    .into(),
                    None => e.into(),
                })
            }
            Err(IndexError::ServerDeleted { registry, .. }) => {
                return Err(EntryError::Deleted {
                    server: name.clone(),
                    registry,
                    status_message: None,
                }
                .into());
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(not_found.unwrap_or_else(|| {
        IndexError::ServerNotFound {
            name: name.clone(),
            registry: "the configured registries (none is an MCP registry)".into(),
        }
        .into()
    }))
}

/// The no-network fast path: the entry is installed from an MCP registry, at the version
/// asked for (any when none is). Reports it.
pub(super) fn installed(ctx: &Context, store: &Store, spec: &EntrySpec) -> bool {
    let Ok(Some(p)) = store.installed(&spec.name) else {
        return false;
    };
    let Source::Ecosystem {
        entry: Some(origin),
        ..
    } = &p.receipt.source
    else {
        return false;
    };
    if spec.version.as_ref().is_some_and(|v| v != &origin.version) {
        return false;
    }
    ctx.reporter
        .package_done(&p.name, &p.version, &Outcome::AlreadyInstalled);
    true
}
