//! `agx login SOURCE|HOST` and `agx logout SOURCE|HOST`: a registry's credential in the
//! keyring (or the owner-only secrets file), for agx's requests to that host only
//! (docs/organizations.md, "Credentials").

use std::io::IsTerminal;

use super::Context;
use crate::cli::{LoginArgs, LogoutArgs};
use agx_core::error::{CliError, CliResult};
use agx_sources::index::credentials::{self, Credential};

pub fn login(ctx: &Context, args: &LoginArgs) -> CliResult {
    let paths = ctx.paths()?;
    let host = credentials::host_of(paths, &args.target)?;
    let what = if args.username.is_some() {
        "password"
    } else {
        "token"
    };
    let secret = if args.password_stdin || args.token_stdin {
        read_line()?
    } else if std::io::stdin().is_terminal() {
        let user = args
            .username
            .as_deref()
            .map(|u| format!(" of {u}"))
            .unwrap_or_default();
        rpassword::prompt_password(format!("{what}{user} for {host}, input hidden: "))
            .map_err(|e| CliError::new(format!("cannot read the {what}: {e}")))?
    } else {
        return Err(CliError::new(format!(
            "no {what} given and standard input is not a terminal"
        ))
        .with_hint("pipe it in with --password-stdin (with --username) or --token-stdin"));
    };
    if secret.is_empty() {
        return Err(CliError::new(format!("the {what} is empty"))
            .with_hint("nothing was stored; give the credential on standard input"));
    }
    let credential = match &args.username {
        Some(username) => Credential::Basic {
            username: username.clone(),
            password: secret,
        },
        None => Credential::Token(secret),
    };
    let stored_in = credentials::login(paths, &host, &credential)?;
    ctx.printer
        .status("Stored", &format!("the {what} for {host} in {stored_in}"));
    Ok(())
}

pub fn logout(ctx: &Context, args: &LogoutArgs) -> CliResult {
    let paths = ctx.paths()?;
    let host = credentials::host_of(paths, &args.target)?;
    if credentials::logout(paths, &host)? {
        ctx.printer
            .status("Removed", &format!("the stored credential for {host}"));
    } else {
        ctx.printer.status(
            "Unchanged",
            &format!("no credential was stored for {host} by `agx login`"),
        );
    }
    Ok(())
}

/// One line of standard input, without its line ending.
pub(super) fn read_line() -> Result<String, CliError> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| CliError::new(format!("cannot read standard input: {e}")))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}
