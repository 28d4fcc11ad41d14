//! `agx registry init|add|yank`: publishing into a folder registry;
//! `agx registry add-source|remove-source|sources`: the configured registries;
//! `agx registry keys generate|sign|refresh-timestamp|rotate`: TUF signing (docs/registry.md).

use super::Context;
use crate::cli::{RegistryCommand, RegistryKeysCommand, SigningArgs};
use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageSpec;
use agx_sources::index::publish::{self, Added};
use agx_sources::index::signing::{self, Resigner, SigningOptions};
use agx_tuf::repository::Signed;

pub fn run(ctx: &Context, args: &RegistryCommand) -> CliResult {
    match args {
        RegistryCommand::Init { dir, name } => {
            let name = publish::init(dir, name.as_deref())?;
            ctx.printer.status(
                "Created",
                &format!("registry `{name}` at {}", dir.display()),
            );
        }
        RegistryCommand::Add {
            registry_dir,
            package,
            bundle,
            trusted_root,
            signing,
        } => {
            let bundle = bundle.as_deref().map(|path| publish::BundleToAttach {
                path,
                trusted_root: trusted_root.as_deref(),
            });
            add_to_folder(ctx, registry_dir, package, bundle, signing)?;
        }
        RegistryCommand::Yank {
            registry_dir,
            package,
            undo,
            signing,
        } => {
            let spec = PackageSpec::parse(package)?;
            let Some(version) = spec.exact_version() else {
                return Err(
                    CliError::new(format!("`{package}` does not name one version")).with_hint(
                        format!("give the exact version, e.g. `{}@1.0.0`", spec.name),
                    ),
                );
            };
            let resigner = Resigner::prepare(registry_dir, &options(signing))?;
            let changed = publish::yank(registry_dir, &spec.name, &version, !undo)?;
            let verb = if *undo { "Unyanked" } else { "Yanked" };
            if let Some(entry) = changed {
                ctx.printer
                    .status(verb, &format!("{} v{version}", spec.name));
                resign(ctx, resigner, &publish::written_paths(&entry))?;
            } else {
                let state = if *undo {
                    "not yanked"
                } else {
                    "already yanked"
                };
                ctx.printer
                    .status("Unchanged", &format!("{} v{version} is {state}", spec.name));
            }
        }
        RegistryCommand::AddSource {
            name,
            url,
            kind,
            ca,
            trusted_root,
            yes,
        } => {
            let root = match &ctx.global.root {
                Some(path) => Some(read_root(path)?),
                None => trust_on_first_use(ctx, url, *kind, *yes)?,
            };
            let (source, kind, pinned) = agx_sources::index::add_source(
                ctx.paths()?,
                name,
                url,
                kind.map(Into::into),
                ctx.global.offline,
                root.as_deref(),
                agx_sources::index::SourceFiles {
                    ca: ca.as_deref(),
                    trusted_root: trusted_root.as_deref(),
                },
            )?;
            let signed = match &pinned {
                Some(root) => format!(
                    ", signed: TUF root v{} ({} of {} keys)",
                    root.version,
                    root.threshold,
                    root.key_ids.len()
                ),
                None => String::new(),
            };
            ctx.printer.status(
                "Added",
                &format!(
                    "registry `{name}` ({}) at {}{signed}",
                    kind.as_str(),
                    source.display()
                ),
            );
        }
        RegistryCommand::RemoveSource { name } => {
            agx_sources::index::source::remove_from_config(ctx.paths()?, name)?;
            ctx.printer.status("Removed", &format!("registry `{name}`"));
        }
        RegistryCommand::Sources { json } => return sources(ctx, *json),
        RegistryCommand::Keys(RegistryKeysCommand::Generate {
            keys_dir,
            threshold,
            root_keys,
        }) => {
            signing::generate_keys(keys_dir, *threshold, *root_keys)?;
            ctx.printer.status(
                "Generated",
                &format!(
                    "root ({threshold} of {} keys), targets, snapshot and timestamp keys in {}; keep this folder out of the registry, and the root keys offline",
                    root_keys.unwrap_or(*threshold),
                    keys_dir.display()
                ),
            );
        }
        RegistryCommand::Sign {
            registry_dir,
            signing: args,
        } => {
            let signed = signing::sign(registry_dir, &options(args))?;
            report_signed(ctx, &signed, registry_dir);
        }
        RegistryCommand::RefreshTimestamp {
            registry_dir,
            signing: args,
        } => {
            let version = signing::refresh_timestamp(registry_dir, &options(args))?;
            ctx.printer.status(
                "Signed",
                &format!("timestamp v{version} of {}", registry_dir.display()),
            );
        }
        RegistryCommand::Rotate {
            role,
            registry_dir,
            signing: args,
        } => {
            let signed = signing::rotate(registry_dir, role.as_str(), &options(args))?;
            ctx.printer.status(
                "Rotated",
                &format!(
                    "the {} keys: root v{} names the new keys",
                    role.as_str(),
                    signed.root_version
                ),
            );
            report_signed(ctx, &signed, registry_dir);
        }
    }
    Ok(())
}

/// The `--root` file, checked to be a TUF root signed by its own keys (its path in the error).
fn read_root(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    let hint = "give the root.json the registry's operator published (the registry's metadata/1.root.json)";
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::new(format!("cannot read {}: {e}", path.display())).with_hint(hint)
    })?;
    agx_sources::index::signed::describe_root(&bytes).map_err(|e| {
        CliError::new(format!(
            "{} is not a TUF root signed by its own keys",
            path.display()
        ))
        .with_cause(match e {
            agx_sources::index::IndexError::Signed { error, .. } => error.to_string(),
            e => e.to_string(),
        })
        .with_hint(hint)
    })?;
    Ok(bytes)
}

/// Without `--root`: when the source publishes TUF metadata, show its first root's keys and
/// ask before pinning it (`--yes` pins without asking). `None`: the source is unsigned.
fn trust_on_first_use(
    ctx: &Context,
    url: &str,
    kind: Option<crate::cli::SourceKindArg>,
    yes: bool,
) -> Result<Option<Vec<u8>>, CliError> {
    use std::io::IsTerminal;
    if ctx.global.offline || kind.is_some_and(|k| k != crate::cli::SourceKindArg::AgxIndex) {
        return Ok(None);
    }
    let Ok(source) = agx_sources::index::Source::parse(url) else {
        return Ok(None);
    };
    let Ok(root) = agx_sources::index::signed::fetch_first_root(&source) else {
        return Ok(None);
    };
    let summary = agx_sources::index::signed::describe_root(&root)?;
    let keys = summary
        .key_ids
        .iter()
        .map(|id| format!("  {id}"))
        .collect::<Vec<_>>()
        .join("\n");
    let about = format!(
        "{url} is signed (TUF). Its root (v{}) needs {} of these keys:\n{keys}",
        summary.version, summary.threshold
    );
    if yes {
        ctx.printer.err(&format!("{about}\nTrusted (--yes).\n"));
        return Ok(Some(root));
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(CliError::new(format!(
            "{url} is signed, and agx cannot ask whether to trust its root"
        ))
        .with_hint(
            "get root.json from the registry's operator and pass `--root root.json`, or pass --yes to trust what the registry serves now",
        ));
    }
    ctx.printer.err(&format!(
        "{about}\nCompare them with what the registry's operator published. Trust this root? [y/N] "
    ));
    let mut answer = String::new();
    std::io::stdin()
        .read_line(&mut answer)
        .map_err(|e| CliError::new(format!("reading the answer: {e}")))?;
    if matches!(answer.trim(), "y" | "Y" | "yes") {
        Ok(Some(root))
    } else {
        Err(CliError::new("not added: the root was not trusted")
            .with_hint("pass `--root root.json` with the root from the registry's operator"))
    }
}

/// Publish a package folder or tarball into a folder registry, re-signing what changed when
/// the registry is signed (`agx registry add`, and `agx publish --to` a folder).
pub fn add_to_folder(
    ctx: &Context,
    registry_dir: &std::path::Path,
    package: &std::path::Path,
    bundle: Option<publish::BundleToAttach<'_>>,
    signing: &SigningArgs,
) -> CliResult<Added> {
    let resigner = Resigner::prepare(registry_dir, &options(signing))?;
    let (added, signer) = publish::add(registry_dir, package, bundle)?;
    let provenance = signer
        .map(|signer| format!("; provenance: {}", signer.summary()))
        .unwrap_or_default();
    match &added {
        Added::Published(e) => {
            ctx.printer.status(
                "Published",
                &format!(
                    "{} v{} ({} bytes, sha256 {}) to {}{provenance}",
                    e.name,
                    e.vers,
                    e.size,
                    e.cksum,
                    registry_dir.display()
                ),
            );
            resign(ctx, resigner, &publish::written_paths(e))?;
        }
        Added::Unchanged(e) => ctx.printer.status(
            "Unchanged",
            &format!(
                "{} v{} is already published with the same bytes{provenance}",
                e.name, e.vers
            ),
        ),
    }
    Ok(added)
}

fn options(args: &SigningArgs) -> SigningOptions<'_> {
    SigningOptions {
        keys_dir: args.keys.as_deref(),
        expires: &args.expires,
    }
}

fn resign(ctx: &Context, resigner: Option<Resigner>, changed: &[String]) -> CliResult {
    if let Some(resigner) = resigner {
        let signed = resigner.resign(changed).map_err(|e| {
            CliError::from(e).with_hint(
                "the package is published but its signatures are not: clients refuse it until `agx registry sign` succeeds",
            )
        })?;
        ctx.printer.status(
            "Signed",
            &format!(
                "{} bin(s), snapshot v{}, timestamp v{}",
                signed.bins_signed, signed.snapshot_version, signed.timestamp_version
            ),
        );
    }
    Ok(())
}

fn report_signed(ctx: &Context, signed: &Signed, registry: &std::path::Path) {
    ctx.printer.status(
        "Signed",
        &format!(
            "{} targets of {} in {} hashed bins ({} re-signed); root v{}, snapshot v{}, timestamp v{}",
            signed.targets,
            registry.display(),
            signed.bins,
            signed.bins_signed,
            signed.root_version,
            signed.snapshot_version,
            signed.timestamp_version
        ),
    );
}

/// One line per configured registry: name, kind, location; the default marked.
fn sources(ctx: &Context, json: bool) -> CliResult {
    let listed = agx_sources::index::source::list_sources(ctx.paths()?)?;
    if json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "sources": listed }))
            .expect("sources serialize");
        return ctx.printer.outln(&text);
    }
    if listed.is_empty() {
        ctx.printer
            .err("No registry is configured. Add one with `agx registry add-source NAME URL`.\n");
        return Ok(());
    }
    let width = listed.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for s in &listed {
        let kind = s
            .kind
            .map_or("unknown (detected on first use)", |k| k.as_str());
        let default = if s.default { "  (default)" } else { "" };
        let built_in = if s.built_in {
            "  (built in; `agx registry remove-source official` turns it off)"
        } else {
            ""
        };
        text.push_str(&format!(
            "{:width$}  {kind:12}  {}{default}{built_in}\n",
            s.name, s.url
        ));
    }
    ctx.printer.out(text)
}
