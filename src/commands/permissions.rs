//! `agx permissions set|show|reset|accept`: the user's permissions of a server, and the
//! project permissions the user trusts (docs/sandbox.md).

use std::fmt::Write as _;

use super::Context;
use crate::cli::{PermissionsCommand, PermissionsSetArgs};
use agx_core::error::{CliError, CliResult};
use agx_core::name::QualifiedName;
use agx_sandbox::{Network, Permissions, user};

pub fn run(ctx: &Context, command: &PermissionsCommand) -> CliResult {
    let paths = ctx.paths()?;
    match command {
        PermissionsCommand::Set(a) => {
            let server = QualifiedName::parse(&a.target.server)?;
            let permissions = permissions_of(a)?;
            let changed = user::record(paths, &server, Some(&permissions))?;
            let verb = if changed { "Recorded" } else { "Unchanged" };
            ctx.printer.status(
                verb,
                &format!("permissions of {server} (agx serve applies them)"),
            );
            ctx.printer.out(lines(&permissions))?;
        }
        PermissionsCommand::Show(a) => {
            let server = QualifiedName::parse(&a.server)?;
            match user::user_permissions(paths, &server)? {
                Some(p) => ctx.printer.out(lines(&p))?,
                None => ctx.printer.status(
                    "None",
                    &format!(
                        "recorded for {server}: its package's own apply (`agx info {}` shows them)",
                        server.package
                    ),
                ),
            }
            // What `agx serve` uses here instead, when run in a project that says.
            match agx_project::serve_permissions(&server) {
                Ok(Some((file, project))) => {
                    ctx.printer.status(
                        "Replaced",
                        &format!(
                            "here by the project's permissions of {server} ({}), which agx serve applies in this project:",
                            file.display()
                        ),
                    );
                    ctx.printer.out(lines(&project))?;
                }
                Ok(None) => {}
                // The detail names the file, with its line and column.
                Err((_, detail)) => ctx.printer.warn(&format!(
                    "the project's agx.toml does not load: {detail}; agx serve will not start {server} in this project until it does"
                )),
            }
        }
        PermissionsCommand::Accept(a) => {
            let server = QualifiedName::parse(&a.server)?;
            let (file, project) = match agx_project::serve_permissions(&server) {
                Ok(Some(found)) => found,
                Ok(None) => {
                    return Err(CliError::new(format!(
                        "no project here gives {server} permissions"
                    ))
                    .with_hint(
                        "run it in the project whose agx.toml has [servers.KEY.permissions] for that server",
                    ));
                }
                Err((_, detail)) => {
                    return Err(CliError::new(format!(
                        "the project's agx.toml does not load: {detail}"
                    ))
                    .with_hint("fix it first (`agx validate` names the place)"));
                }
            };
            let verb = if user::accept_project_permissions(paths, &file, &server, &project)? {
                "Accepted"
            } else {
                "Unchanged"
            };
            ctx.printer.status(
                verb,
                &format!(
                    "the permissions {} gives {server}; agx serve applies them in this project:",
                    file.display()
                ),
            );
            ctx.printer.out(lines(&project))?;
        }
        PermissionsCommand::Reset(a) => {
            let server = QualifiedName::parse(&a.server)?;
            let verb = if user::record(paths, &server, None)? {
                "Reset"
            } else {
                "Unchanged"
            };
            ctx.printer.status(
                verb,
                &format!("permissions of {server}: its package's own apply"),
            );
        }
    }
    Ok(())
}

fn permissions_of(a: &PermissionsSetArgs) -> CliResult<Permissions> {
    let network = match a.network.as_slice() {
        [] => Network::Any,
        [one] if one == "none" => Network::None,
        [one] if one == "loopback" => Network::Loopback,
        [one] if one == "any" => Network::Any,
        hosts
            if hosts
                .iter()
                .any(|h| ["none", "loopback", "any"].contains(&h.as_str())) =>
        {
            return Err(
                CliError::new("--network none, loopback or any stands alone")
                    .with_hint("give one of them, or only host names"),
            );
        }
        hosts => Network::Hosts(hosts.to_vec()),
    };
    Ok(Permissions {
        read: a.read.clone(),
        write: a.write.clone(),
        network,
        env: a.env.clone(),
    })
}

fn lines(p: &Permissions) -> String {
    let mut out = String::new();
    for line in Permissions::describe(Some(p)) {
        let _ = writeln!(out, "{line}");
    }
    out
}
