//! `agx registry init|add|yank`: publishing into a folder registry;
//! `agx registry add-source|remove-source|sources`: the configured registries.

use super::Context;
use crate::cli::RegistryCommand;
use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageSpec;
use agx_sources::index::publish::{self, Added};

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
        } => match publish::add(registry_dir, package)? {
            Added::Published(e) => ctx.printer.status(
                "Published",
                &format!(
                    "{} v{} ({} bytes, sha256 {}) to {}",
                    e.name,
                    e.vers,
                    e.size,
                    e.cksum,
                    registry_dir.display()
                ),
            ),
            Added::Unchanged(e) => ctx.printer.status(
                "Unchanged",
                &format!(
                    "{} v{} is already published with the same bytes",
                    e.name, e.vers
                ),
            ),
        },
        RegistryCommand::Yank {
            registry_dir,
            package,
            undo,
        } => {
            let spec = PackageSpec::parse(package)?;
            let Some(version) = spec.exact_version() else {
                return Err(
                    CliError::new(format!("`{package}` does not name one version")).with_hint(
                        format!("give the exact version, e.g. `{}@1.0.0`", spec.name),
                    ),
                );
            };
            let changed = publish::yank(registry_dir, &spec.name, &version, !undo)?;
            let verb = if *undo { "Unyanked" } else { "Yanked" };
            if changed {
                ctx.printer
                    .status(verb, &format!("{} v{version}", spec.name));
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
        RegistryCommand::AddSource { name, url, kind } => {
            let (source, kind) = agx_sources::index::add_source(
                ctx.paths()?,
                name,
                url,
                kind.map(Into::into),
                ctx.global.offline,
            )?;
            ctx.printer.status(
                "Added",
                &format!(
                    "registry `{name}` ({}) at {}",
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
    }
    Ok(())
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
