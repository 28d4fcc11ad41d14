//! `agx auth login|logout|status` (docs/auth.md): sign-ins to remote MCP servers.

use std::time::Duration;

use super::Context;
use crate::cli::{AuthCommand, AuthLoginArgs, AuthServerArgs, AuthStatusArgs};
use agx_core::error::{CliError, CliResult};
use agx_ops::auth::{self, ClientChoice, LoginOptions};

/// Where an organisation's hosted client metadata document is named for every sign-in.
const CLIENT_METADATA_URL_ENV: &str = "AGX_OAUTH_CLIENT_METADATA_URL";

pub fn run(ctx: &Context, command: &AuthCommand) -> CliResult {
    match command {
        AuthCommand::Login(a) => login(ctx, a),
        AuthCommand::Logout(a) => logout(ctx, a),
        AuthCommand::Status(a) => status(ctx, a),
    }
}

fn login(ctx: &Context, args: &AuthLoginArgs) -> CliResult {
    let ops = ctx.ops()?;
    let target = auth::target(&ops, &args.server)?;
    let client_secret = if args.client_secret_stdin {
        let secret = super::login::read_line()?;
        if secret.is_empty() {
            return Err(CliError::new("the client secret is empty")
                .with_hint("pipe the secret in on standard input, or leave out --client-secret-stdin for a client without one"));
        }
        Some(secret)
    } else {
        None
    };
    let options = LoginOptions {
        client: ClientChoice {
            client_id: args.client_id.clone(),
            client_secret,
            metadata_url: args
                .client_metadata_url
                .clone()
                .or_else(|| std::env::var(CLIENT_METADATA_URL_ENV).ok())
                .filter(|u| !u.trim().is_empty()),
        },
        client_credentials: args.client_credentials,
        scopes: args.scopes.clone(),
        callback_port: args.callback_port,
        timeout: Some(Duration::from_secs(args.timeout)),
    };
    let printer = &ctx.printer;
    let no_browser = args.no_browser;
    let mut present = |url: &str| {
        let opened = !no_browser && auth::open_in_browser(url);
        let how = if opened {
            "in your browser; if it did not open, visit"
        } else {
            "by visiting"
        };
        // Shown even with `-q`: without it the sign-in cannot be finished.
        printer.always("Sign in", &format!("to {} {how}:\n  {url}", target.shown));
    };
    let done = auth::login(&ops, &target, options, &mut present)?;
    if args.json {
        return ctx
            .printer
            .outln(&serde_json::to_string_pretty(&done).expect("serializable"));
    }
    let issuer = done
        .issuer
        .as_deref()
        .map(|i| format!(" with {i}"))
        .unwrap_or_default();
    ctx.printer.status(
        "Signed in",
        &format!(
            "to {}{issuer}; tokens kept in {}",
            done.resource, done.stored_in
        ),
    );
    Ok(())
}

fn logout(ctx: &Context, args: &AuthServerArgs) -> CliResult {
    let ops = ctx.ops()?;
    let target = auth::target(&ops, &args.server)?;
    if auth::logout(&ops, &target)? {
        ctx.printer.status(
            "Signed out",
            &format!("of {}; its tokens are deleted", target.shown),
        );
    } else {
        ctx.printer.status(
            "Unchanged",
            &format!("there was no sign-in to {}", target.shown),
        );
    }
    Ok(())
}

fn status(ctx: &Context, args: &AuthStatusArgs) -> CliResult {
    let ops = ctx.ops()?;
    let target = match &args.server {
        Some(s) => Some(auth::target(&ops, s)?),
        None => None,
    };
    let sign_ins = auth::status(&ops, target.as_ref())?;
    if args.json {
        return ctx
            .printer
            .outln(&serde_json::to_string_pretty(&sign_ins).expect("serializable"));
    }
    if sign_ins.is_empty() {
        let what = target
            .as_ref()
            .map(|t| format!("no sign-in to {}", t.shown))
            .unwrap_or_else(|| "no sign-ins".to_string());
        return ctx.printer.outln(&format!(
            "{what}; `agx auth login SERVER` signs in to a remote server that asks for it"
        ));
    }
    let mut out = String::new();
    for s in &sign_ins {
        out.push_str(&format!("{}: {}\n", s.resource, s.state));
        if let Some(issuer) = &s.issuer {
            out.push_str(&format!("  issuer: {issuer}\n"));
        }
        out.push_str(&format!("  client: {} ({})\n", s.client_id, s.registration));
        if !s.scopes.is_empty() {
            out.push_str(&format!("  scopes: {}\n", s.scopes.join(" ")));
        }
        if let Some(at) = s.expires_at {
            out.push_str(&format!(
                "  token expires: {}{}\n",
                agx_store::rfc3339(at),
                if s.refreshable {
                    ", refreshed by agx"
                } else {
                    ""
                }
            ));
        }
    }
    ctx.printer.out(out)
}
