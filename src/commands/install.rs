//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use agx_core::error::{CliError, CliResult};
use agx_ops::install::{self, Target};
use agx_sources::ecosystem::{Prefer, ProvisionOptions};

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    let paths = ctx.paths()?;
    let targets = args
        .packages
        .iter()
        .map(|arg| Target::parse_configured(arg, args.sha256.as_deref(), paths))
        .collect::<Result<Vec<_>, _>>()?;
    let bundles = targets
        .iter()
        .filter(|t| matches!(t, Target::Bundle(_)))
        .count();
    if args.sha256.is_some() && bundles != 1 {
        return Err(CliError::new(format!(
            "--sha256 checks one MCPB bundle, and {bundles} were given"
        ))
        .with_hint(
            "install bundles one at a time, each with its own --sha256 (a `.mcpb` file or URL)",
        ));
    }
    if args.prefer.is_some() && !targets.iter().any(|t| matches!(t, Target::Entry(_))) {
        return Err(CliError::new(
            "--prefer applies to servers from an MCP registry, and none was given",
        )
        .with_hint(
            "name one as `io.github.user/weather`, or leave out --prefer (docs/ecosystem.md)",
        ));
    }
    let provision = ProvisionOptions {
        allow_scripts: args.allow_scripts,
        allow_sdist: args.allow_sdist,
        // clap accepts only the kinds `Prefer` knows.
        prefer: args.prefer.as_deref().and_then(Prefer::parse),
        warm: args.warm,
        ..ProvisionOptions::default()
    };
    let recorder = agx_core::report::Recorder::new(&ctx.printer);
    let ops = agx_ops::Context {
        reporter: &recorder,
        accept_findings: &args.accept.codes,
        signer_changes: args.signer.changes(),
        ..ctx.ops()?
    };
    install::install_with(&ops, &targets, args.force, provision)?;
    show_permissions(ctx, &ops, recorder.done())
}

/// What each package put in place may do, as `agx info` shows it (docs/sandbox.md): read
/// before its servers first run.
pub(super) fn show_permissions(
    ctx: &Context,
    ops: &agx_ops::Context<'_>,
    done: Vec<(agx_core::name::PackageName, semver::Version)>,
) -> CliResult {
    let mut out = String::new();
    for (name, version) in done {
        for server in agx_ops::auth::sign_ins_wanted(ops, &name)? {
            ctx.printer.status(
                "Sign in",
                &format!(
                    "{server} asks for one: run `agx auth login {server}` (once, for every client)"
                ),
            );
        }
        if let Some(provenance) = agx_ops::info::installed_provenance(ops, &name)? {
            ctx.printer.status(
                "Provenance",
                &format!("{name} v{version}: {}", provenance.summary()),
            );
        }
        let Some(shown) = agx_ops::info::installed_permissions(ops, &name)? else {
            continue;
        };
        super::info::write_permissions(
            &mut out,
            "",
            &format!("{name} v{version} permissions:"),
            &shown.package,
        );
        for (server, lines) in &shown.servers {
            super::info::write_permissions(&mut out, "  ", &format!("server {server}:"), lines);
        }
    }
    if out.is_empty() {
        return Ok(());
    }
    ctx.printer.out(out)
}
