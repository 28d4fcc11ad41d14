//! The source kinds that install whole from one place rather than through an agx registry's
//! resolution: a folder or tarball, an npm, PyPI or OCI package (an MCPB bundle too, once
//! [`pin_bundle`] made it a spec), an MCP registry entry, a marketplace's plugin. Each kind's one way into staging, shared by
//! `agx install` and a project's locked install (`agx sync`); every one ends at the
//! installer's gate, so what comes out is an [`agx_installer::Prepared`] that passed the
//! scan and the policy.

use super::{Context, OpsResult};
use agx_installer::{Installer, LocalSource, Prepared};
use agx_sources::ecosystem::mcpb::BundleSource;
use agx_sources::ecosystem::{EcosystemSpec, EntrySpec, ProvisionOptions};
use agx_sources::index::marketplace::PluginRef;
use agx_store::{Staging, StoreError};

/// One request of a kind that installs whole, pinned as far as its kind allows (a bundle is
/// resolved to its spec by [`pin_bundle`] first).
pub(crate) enum Direct<'a> {
    Local(&'a LocalSource),
    Ecosystem(EcosystemSpec),
    Entry(&'a EntrySpec),
    Plugin(&'a PluginRef),
}

/// Fetch `direct` into `staging` and take it through the installer's gate. `options` say
/// what npm and PyPI packages may run while they are provisioned, and which kind of an MCP
/// registry entry is preferred.
pub(crate) fn prepare(
    ctx: &Context,
    installer: &Installer<'_>,
    direct: Direct<'_>,
    staging: &Staging,
    options: ProvisionOptions,
) -> OpsResult<Prepared> {
    Ok(match direct {
        Direct::Local(local) => installer.prepare_local(local, staging)?,
        Direct::Ecosystem(spec) => {
            ctx.reporter.status("Provisioning", &spec.to_string());
            installer.prepare_ecosystem(&spec, staging, options)?
        }
        Direct::Entry(spec) => {
            super::install_entry::prepare(ctx, installer, spec, staging, options)?
        }
        Direct::Plugin(reference) => {
            super::install::prepare_plugin(ctx, installer, reference, staging)?
        }
    })
}

/// Fetch an MCPB bundle into `staging` and check its bytes: its manifest names the package,
/// and the spec it gives pins those bytes (by sha256).
pub(crate) fn pin_bundle(bundle: &BundleSource, staging: &Staging) -> OpsResult<EcosystemSpec> {
    let dir = staging.new_dir("bundle")?;
    Ok(agx_sources::ecosystem::mcpb::fetch(bundle, &dir).map_err(StoreError::from)?)
}
