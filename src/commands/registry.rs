//! `agx registry init|add|yank`: publishing into a folder registry.

use super::Context;
use crate::cli::RegistryCommand;
use crate::error::{CliError, CliResult};
use crate::index::publish::{self, Added};
use crate::name::PackageSpec;

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
    }
    Ok(())
}
