//! `agx install-server`: write an entry that runs `agx serve <server>` into a client config.

use std::collections::BTreeMap;
use std::io::IsTerminal;

use super::Context;
use crate::cli::InstallServerArgs;
use agx_clients::{self as clients, Outcome, Scope};
use agx_core::error::{CliError, CliResult};
use agx_model::settings::set_command;
use agx_ops::config::{self, Target};
use agx_ops::install_server::{self, Place, ServerRequest};

pub fn run(ctx: &Context, args: &InstallServerArgs) -> CliResult {
    // A usage error, as clap's own (exit 2).
    let (names, server) =
        super::clients_and_target(&args.targets, &args.clients, "acme/weather/forecast")
            .map_err(|e| e.with_exit_code(agx_core::error::exit::USAGE))?;
    let mut missing: Vec<Target> = Vec::new();
    for name in names {
        let client = pick_client(ctx, name, args.config.as_deref())?;
        for target in install_for(ctx, args, client, server)? {
            let known = missing
                .iter()
                .any(|t| t.package == target.package && t.setting.key == target.setting.key);
            if !known {
                missing.push(target);
            }
        }
    }
    ask_for_missing_settings(ctx, &missing)
}

/// Write the entry for one client and say what happened; the required settings still
/// without a value.
fn install_for(
    ctx: &Context,
    args: &InstallServerArgs,
    client: &'static clients::Client,
    server: &str,
) -> CliResult<Vec<Target>> {
    let request = ServerRequest {
        place: Place {
            client,
            scope: args.scope,
            project: args.project.as_deref(),
            config: args.config.as_deref(),
        },
        server: {
            match agx_project::profile::profile_name(server) {
                Some(name) => {
                    name.map_err(agx_ops::OpsError::from)?;
                }
                None => agx_core::name::check_server_reference(server)?,
            }
            server.to_string()
        },
        key: args.name.clone(),
        env: parse_env(&args.env)?,
        args: args.args.clone(),
        force: args.force,
        dry_run: args.dry_run,
        filter: match (
            args.no_filter,
            args.allow.is_empty() && args.deny.is_empty(),
        ) {
            (true, _) => Some(agx_model::filter::FilterSpec::default()),
            (false, true) => None,
            (false, false) => Some(agx_model::filter::FilterSpec {
                tools: agx_model::filter::Rules {
                    allow: args.allow.clone(),
                    deny: args.deny.clone(),
                    ..Default::default()
                },
                ..Default::default()
            }),
        },
    };
    let change = install_server::install_server(&ctx.ops()?, &request)?;
    let place = format!(
        "`{}` in {} ({}, {} scope)",
        change.key,
        change.file.display(),
        client.id,
        args.scope
    );
    let printer = &ctx.printer;
    match (&change.diff, change.outcome) {
        (_, Outcome::Unchanged) => {
            printer.status("Unchanged", &format!("{place} already has this entry"))
        }
        (Some(diff), _) => {
            printer.out(diff)?;
            printer.status("Dry run", &format!("would write {place}; nothing written"));
        }
        (None, Outcome::Updated) => printer.status("Updated", &place),
        (None, _) => printer.status("Added", &place),
    }
    if let Some(notice) = &change.binary_notice {
        printer.warn(notice);
    }
    if args.dry_run {
        return Ok(Vec::new());
    }
    if let Some(filter) = &change.filter {
        let status = if filter.is_empty() {
            "no filter (every tool shown)".to_string()
        } else {
            filter.describe().join("; ")
        };
        printer.status("Filter", &format!("{}: {status}", change.server));
    }
    if let Some(b) = change.backup {
        printer.status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    if client.id == "claude-code" && args.scope == Scope::Project {
        printer.warn("Claude Code starts project servers only after you approve them in a session");
    }
    Ok(change.missing_settings)
}

/// On a terminal, ask for each required setting without a value (a secret without echo)
/// and store it; elsewhere, say which commands to run before the server can start.
fn ask_for_missing_settings(ctx: &Context, missing: &[Target]) -> CliResult {
    if missing.is_empty() {
        return Ok(());
    }
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !interactive {
        let commands: Vec<String> = missing
            .iter()
            .map(|t| format!("  {}", set_command(&t.package, &t.setting)))
            .collect();
        ctx.printer.warn(&format!(
            "the server will not start until its required settings are set:\n{}",
            commands.join("\n")
        ));
        return Ok(());
    }
    let ops = ctx.ops()?;
    for target in missing {
        let value = super::config::ask(target)?;
        let outcome = config::set(&ops, target, &value)?;
        if let Some(notice) = &outcome.notice {
            ctx.printer.warn(notice);
        }
        ctx.printer
            .status("Set", &format!("{} {}", target.package, target.setting.key));
    }
    Ok(())
}

/// The client named on the command line, or with `auto` and `--config FILE`, the one the
/// file's place and contents suggest.
fn pick_client(
    ctx: &Context,
    name: &str,
    config: Option<&std::path::Path>,
) -> CliResult<&'static clients::Client> {
    if name != "auto" {
        return Ok(clients::find_client(name)?);
    }
    let Some(file) = config else {
        return Err(CliError::new("client `auto` needs --config FILE")
            .with_hint("name the client (see `agx clients`), or give the file with --config")
            .with_exit_code(agx_core::error::exit::USAGE));
    };
    let client = install_server::guess_client(file)?;
    ctx.printer.status(
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
                    .with_exit_code(agx_core::error::exit::USAGE)
            })?;
            let valid = !k.is_empty()
                && !k.starts_with(|c: char| c.is_ascii_digit())
                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(
                    CliError::new(format!("--env `{k}` is not a valid variable name"))
                        .with_hint("use letters, digits and `_`, not starting with a digit")
                        .with_exit_code(agx_core::error::exit::USAGE),
                );
            }
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}
