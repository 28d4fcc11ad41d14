//! `agx install-server`: write an entry that runs `agx serve <server>` into a client config.

use std::collections::BTreeMap;

use super::Context;
use crate::cli::InstallServerArgs;
use crate::clients::resolve::{ResolvedServer, resolve_server};
use crate::clients::{self, HostEnv, Outcome, Records, ServerEntry, shape};
use crate::error::{CliError, CliResult};
use crate::name::QualifiedName;

pub fn run(ctx: &Context, args: &InstallServerArgs) -> CliResult {
    let client = pick_client(ctx, &args.client, args.config.as_deref())?;
    let server = QualifiedName::parse(&args.server)?;
    let paths = ctx.paths()?;
    let env_pairs = parse_env(&args.env)?;

    crate::ops::install::ensure_installed(&ctx.ops()?, &server.package, "needed by the entry")?;
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
    let target = clients::target(
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
        command: command.clone(),
        args: vec!["serve".into(), server.to_string()],
        env,
    };
    let change = clients::plan_install(&target, &key, &entry, args.force)?;
    let place = format!(
        "`{key}` in {} ({}, {} scope)",
        target.file.display(),
        client.id,
        clients::scope_name(args.scope)
    );
    if args.dry_run {
        if change.outcome == Outcome::Unchanged {
            ctx.printer
                .status("Unchanged", &format!("{place} already has this entry"));
        } else {
            clients::print_result(&change.diff());
            ctx.printer
                .status("Dry run", &format!("would write {place}; nothing written"));
        }
        return Ok(());
    }
    let backup = change.apply()?;
    let records_path = paths.clients_file();
    let mut records = Records::load(&records_path)?;
    if records.upsert(target.record(&key, &server.to_string(), &command)) {
        records.save(&records_path)?;
    }
    match change.outcome {
        Outcome::Unchanged => ctx
            .printer
            .status("Unchanged", &format!("{place} already has this entry")),
        Outcome::Updated => ctx.printer.status("Updated", &place),
        _ => ctx.printer.status("Added", &place),
    }
    if let Some(b) = backup {
        ctx.printer.status(
            "Backup",
            &format!("previous content saved to {}", b.display()),
        );
    }
    if client.id == "claude-code" && args.scope == crate::cli::Scope::Project {
        ctx.printer
            .warn("Claude Code starts project servers only after you approve them in a session");
    }
    Ok(())
}

fn report_resolved(resolved: &ResolvedServer) {
    if resolved.wrapped {
        tracing::debug!("{} wraps a shipped MCP server", resolved.server);
    }
    let names = |items: &[String]| items.join(", ");
    tracing::debug!(
        "{} resolves: {} tool(s) [{}], {} prompt(s) [{}]",
        resolved.server,
        resolved.tools.len(),
        names(&resolved.tools),
        resolved.prompts.len(),
        names(&resolved.prompts)
    );
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
            .with_exit_code(crate::error::exit::USAGE));
    };
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    let client = clients::table::guess(file, &text, &host)
        .ok_or_else(|| clients::ClientError::UnknownClient("auto".into()))?;
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
