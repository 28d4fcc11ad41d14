//! `agx publish DIR|TARBALL --to SOURCE`: push a package to an OCI registry, or add it to a
//! folder registry (docs/organizations.md, docs/registry.md).

use std::path::PathBuf;

use super::Context;
use crate::cli::PublishArgs;
use agx_core::error::{CliError, CliResult};
use agx_sources::index::oci::{OciAccess, OciRegistry, Pushed};
use agx_sources::index::publish::{self, Added};
use agx_sources::index::{IndexEntry, Source, source};

pub fn run(ctx: &Context, args: &PublishArgs) -> CliResult {
    let package = args.package.clone().unwrap_or_else(|| PathBuf::from("."));
    let selected = source::select_entry(Some(&args.to), ctx.paths()?)?;
    let to = selected.source.display();
    let (entry, published, manifest) = match &selected.source {
        Source::Folder(_) | Source::Http(_) if args.skill => {
            return Err(CliError::new(format!(
                "--skill pushes ToolHive's skill artifact to an OCI registry, and {to} is not one"
            ))
            .with_hint(
                "publish to an OCI source (`--to oci://HOST/NAMESPACE`), or `agx new DIR --skill NAME` makes a package of a skill for a folder registry",
            ));
        }
        Source::Folder(dir) => {
            match super::registry::add_to_folder(ctx, dir, &package, None, &args.signing)? {
                Added::Published(entry) => (entry, true, None),
                Added::Unchanged(entry) => (entry, false, None),
            }
        }
        Source::Oci(location) => {
            if args.signing.keys.is_some() {
                return Err(CliError::new("--keys signs folder registries with TUF")
                    .with_hint("an OCI registry is not signed with TUF; leave --keys out"));
            }
            let access = OciAccess::lookup(
                ctx.paths()?,
                selected.name.as_deref(),
                location,
                selected.ca.as_deref(),
                selected.plain_http,
            )?;
            let registry = OciRegistry::new(location.clone(), ctx.global.offline, access)?;
            let (entry, pushed) = match args.skill {
                true => publish::push_skill(
                    &registry,
                    &package,
                    &args.publisher,
                    args.skill_version.as_ref(),
                )?,
                false => publish::push(&registry, &package)?,
            };
            match &pushed {
                Pushed::Published { manifest } => {
                    report(ctx, "Published", &entry, &to, manifest);
                }
                Pushed::Unchanged { manifest } => ctx.printer.status(
                    "Unchanged",
                    &format!(
                        "{} v{} is already published with the same bytes ({manifest})",
                        entry.name, entry.vers
                    ),
                ),
            }
            let published = matches!(pushed, Pushed::Published { .. });
            let (Pushed::Published { manifest } | Pushed::Unchanged { manifest }) = pushed;
            (entry, published, Some(manifest))
        }
        Source::Http(url) => {
            return Err(CliError::new(format!(
                "{url} is a web registry: agx publishes into its folder or to an OCI registry"
            ))
            .with_hint(
                "publish into the folder the web server serves (`agx publish --to DIR`), or configure an OCI source (`agx registry add-source NAME oci://HOST/NAMESPACE`)",
            ));
        }
    };
    if args.json {
        let doc = serde_json::json!({
            "name": entry.name.to_string(),
            "version": entry.vers.to_string(),
            "sha256": entry.cksum,
            "size": entry.size,
            "to": to,
            "manifest": manifest,
            "published": published,
        });
        ctx.printer
            .outln(&serde_json::to_string_pretty(&doc).expect("serializable"))?;
    }
    Ok(())
}

fn report(ctx: &Context, verb: &str, entry: &IndexEntry, to: &str, manifest: &str) {
    ctx.printer.status(
        verb,
        &format!(
            "{} v{} ({} bytes, sha256 {}) to {to} as {manifest}",
            entry.name, entry.vers, entry.size, entry.cksum
        ),
    );
}
