//! `agx install-server`: write an entry that runs `agx serve <server>` into a client config.

use std::collections::BTreeMap;

use super::Context;
use crate::cli::InstallServerArgs;
use crate::clients::resolve::{ResolvedServer, installed_package_dir, resolve_server};
use crate::clients::{self, HostEnv, Outcome, Scope, ServerEntry, Target, shape};
use crate::error::{CliError, CliResult};
use crate::name::{PackageName, QualifiedName};
use crate::ui;

pub fn run(ctx: &Context, args: &InstallServerArgs) -> CliResult {
    let client = pick_client(&args.client, args.config.as_deref())?;
    let server = QualifiedName::parse(&args.server)?;
    let paths = ctx.paths()?;
    let env_pairs = parse_env(&args.env)?;

    ensure_installed(ctx, &server.package)?;
    let resolved = {
        let _lock = crate::store::Store::open(paths).lock_shared_if_present()?;
        resolve_server(paths, &server)?
    };
    report_resolved(&resolved);

    let key = args
        .name
        .clone()
        .unwrap_or_else(|| shape::default_key(server.item.as_str()));
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    let target = Target::new(
        client,
        args.scope,
        args.project.as_deref(),
        args.config.as_deref(),
        &key,
        &host,
    )?;
    let command = clients::agx_binary()
        .map_err(|e| {
            CliError::new(format!(
                "cannot find the path of the running agx binary: {e}"
            ))
        })?
        .display()
        .to_string();
    let mut env = BTreeMap::new();
    if paths.home_from_env {
        env.insert("AGX_HOME".to_string(), paths.home.display().to_string());
    }
    env.extend(env_pairs);
    let entry = ServerEntry {
        command,
        args: vec!["serve".into(), server.to_string()],
        env,
    };
    let place = format!(
        "`{key}` in {} ({}, {} scope)",
        target.file.display(),
        client.id,
        args.scope
    );
    if args.dry_run {
        let change = clients::plan_install(&target, &key, &entry, args.force)?;
        if change.outcome == Outcome::Unchanged {
            ui::status("Unchanged", &format!("{place} already has this entry"));
        } else {
            ui::print_result(&change.diff());
            ui::status("Dry run", &format!("would write {place}; nothing written"));
        }
        return Ok(());
    }
    let clients::Applied { change, backup } = clients::install_entry(
        &paths.clients_file(),
        &target,
        &key,
        &server,
        &entry,
        args.force,
    )?;
    match change.outcome {
        Outcome::Unchanged => ui::status("Unchanged", &format!("{place} already has this entry")),
        Outcome::Updated => ui::status("Updated", &place),
        _ => ui::status("Added", &place),
    }
    if let Some(b) = backup {
        ui::status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    if client.id == "claude-code" && args.scope == Scope::Project {
        ui::warn("Claude Code starts project servers only after you approve them in a session");
    }
    Ok(())
}

/// The one call into the store: install the package and its dependencies when missing,
/// exactly as `agx install <package>` does.
fn ensure_installed(ctx: &Context, package: &PackageName) -> CliResult {
    if installed_package_dir(ctx.paths()?, package)?.is_some() {
        return Ok(());
    }
    ui::status("Installing", &format!("{package} (needed by the entry)"));
    super::install::run(
        ctx,
        &crate::cli::InstallArgs {
            packages: vec![package.to_string()],
            force: false,
        },
    )
}

fn report_resolved(resolved: &ResolvedServer) {
    if resolved.wrapped {
        ui::verbose(&format!("{} wraps a shipped MCP server", resolved.server));
    }
    let names = |items: &[String]| items.join(", ");
    ui::verbose(&format!(
        "{} resolves: {} tool(s) [{}], {} prompt(s) [{}]",
        resolved.server,
        resolved.tools.len(),
        names(&resolved.tools),
        resolved.prompts.len(),
        names(&resolved.prompts)
    ));
}

/// The client named on the command line, or with `auto` and `--config FILE`, the one the
/// file's place and contents suggest.
fn pick_client(
    name: &str,
    config: Option<&std::path::Path>,
) -> CliResult<&'static clients::Client> {
    if name != "auto" {
        return Ok(clients::find_client(name)?);
    }
    let Some(file) = config else {
        return Err(CliError::new("client `auto` needs --config FILE")
            .with_hint("name the client (see `agx clients`), or give the file with --config")
            .with_exit_code(crate::error::exit::USAGE));
    };
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    let client = clients::table::guess(file, &text, &host)
        .ok_or_else(|| clients::ClientError::UnknownClient("auto".into()))?;
    ui::status(
        "Guessed",
        &format!("{} is a {} config", file.display(), client.display),
    );
    Ok(client)
}

/// `--env K=V` values.
fn parse_env(pairs: &[String]) -> CliResult<BTreeMap<String, String>> {
    pairs
        .iter()
        .map(|pair| {
            let (k, v) = pair.split_once('=').ok_or_else(|| {
                CliError::new(format!("--env `{pair}` is not K=V"))
                    .with_hint("write it as NAME=value, e.g. --env API_URL=https://example.org")
                    .with_exit_code(crate::error::exit::USAGE)
            })?;
            let valid = !k.is_empty()
                && !k.starts_with(|c: char| c.is_ascii_digit())
                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(
                    CliError::new(format!("--env `{k}` is not a valid variable name"))
                        .with_hint("use letters, digits and `_`, not starting with a digit")
                        .with_exit_code(crate::error::exit::USAGE),
                );
            }
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}
