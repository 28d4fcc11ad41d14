//! `agx config set|get|unset|list`: read the value the way a secret needs (never from
//! argv; without echo on a terminal; or `--stdin`), call `ops::config`, render the result.

use std::fmt::Write as _;
use std::io::{IsTerminal, Read};

use super::Context;
use crate::cli::{ConfigCommand, ConfigKeyArgs, ConfigSetArgs};
use agx_core::error::CliResult;
use agx_model::settings::declaration::MAX_VALUE_BYTES;
use agx_model::settings::{ResolvedSetting, StoredIn};
use agx_ops::config::{self, ConfigError, Listing, Target};

pub fn run(ctx: &Context, command: &ConfigCommand) -> CliResult {
    let ops = ctx.ops()?;
    match command {
        ConfigCommand::Set(a) => {
            let target = target_of(ctx, &a.target, a.secret)?;
            let raw = read_value(&target, a)?;
            let outcome = config::set(&ops, &target, &raw)?;
            if let Some(notice) = &outcome.notice {
                ctx.printer.warn(notice);
            }
            if outcome.unchecked {
                ctx.printer.warn(&format!(
                    "stored unchecked: {} is not installed or does not declare `{}`",
                    target.package, target.setting.key
                ));
            }
            let place = match &outcome.stored_in {
                StoredIn::ValuesFile(path) => path.display().to_string(),
                StoredIn::Secrets(location) => config::describe(location),
            };
            ctx.printer.status(
                "Set",
                &format!("{} {} in {place}", target.package, target.setting.key),
            );
            Ok(())
        }
        ConfigCommand::Get(a) => {
            let target = target_of(ctx, &a.target, false)?;
            let resolved = config::get(&ops, &target)?;
            if target.setting.secret && !a.reveal {
                return ctx.printer.outln("set");
            }
            ctx.printer.outln(resolved.value().unwrap_or_default())
        }
        ConfigCommand::Unset(a) => {
            let target = target_of(ctx, a, false)?;
            if config::unset(&ops, &target)? {
                ctx.printer.status(
                    "Removed",
                    &format!("{} {}", target.package, target.setting.key),
                );
            } else {
                ctx.printer.status(
                    "Unchanged",
                    &format!(
                        "{} {} had no stored value",
                        target.package, target.setting.key
                    ),
                );
            }
            Ok(())
        }
        ConfigCommand::List(a) => {
            let listing = config::list(&ops, a.package.as_deref())?;
            if a.json {
                let json = serde_json::to_string(&listing).expect("a listing serializes");
                return ctx.printer.outln(&json);
            }
            ctx.printer.outln(listing_text(&listing).trim_end())
        }
    }
}

fn target_of(ctx: &Context, a: &ConfigKeyArgs, secret: bool) -> CliResult<Target> {
    Ok(config::target(
        &ctx.ops()?,
        &a.package,
        &a.key,
        a.force,
        secret,
    )?)
}

/// The value to set: from argv (never for a secret), standard input, or typed on the
/// terminal (without echo for a secret).
fn read_value(target: &Target, a: &ConfigSetArgs) -> Result<String, ConfigError> {
    let (package, key) = (target.package.clone(), target.setting.key.clone());
    if let Some(value) = &a.value {
        if target.setting.secret {
            return Err(ConfigError::SecretFromArgv { package, key });
        }
        return Ok(value.clone());
    }
    if a.stdin {
        return read_stdin();
    }
    if !std::io::stdin().is_terminal() {
        return Err(ConfigError::NoValue { package, key });
    }
    ask(target)
}

/// Ask for the value on the terminal: a secret without echo.
pub fn ask(target: &Target) -> Result<String, ConfigError> {
    let (package, key) = (&target.package, &target.setting.key);
    let about = target
        .setting
        .description
        .as_deref()
        .map(|d| format!(" ({d})"))
        .unwrap_or_default();
    // The description is the package's text: shown safely, as everything printed is.
    let about = agx_core::style::for_terminal(&about);
    if target.setting.secret {
        rpassword::prompt_password(format!("{package} {key}{about}, input hidden: "))
            .map_err(ConfigError::Read)
    } else {
        eprint!("{package} {key}{about}: ");
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(ConfigError::Read)?;
        Ok(strip_newline(line))
    }
}

/// All of standard input, as text, without one trailing newline. Reading stops a little
/// past the largest value, which the value check then refuses.
fn read_stdin() -> Result<String, ConfigError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_VALUE_BYTES as u64 + 3)
        .read_to_end(&mut bytes)
        .map_err(ConfigError::Read)?;
    let text = String::from_utf8(bytes).map_err(|_| ConfigError::NotUtf8)?;
    Ok(strip_newline(text))
}

fn strip_newline(mut text: String) -> String {
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    text
}

/// One line per setting: key, state (never a secret's value), env name, description.
pub fn settings_lines(out: &mut String, settings: &[ResolvedSetting]) {
    let width = settings
        .iter()
        .map(|s| s.setting.key.len())
        .max()
        .unwrap_or(0);
    for s in settings {
        let env = s
            .setting
            .env
            .as_deref()
            .map(|e| format!(", env {e}"))
            .unwrap_or_default();
        let about = s
            .setting
            .description
            .as_deref()
            .map(|d| format!(" — {d}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:width$}  {}{env}{about}",
            s.setting.key,
            config::state(s)
        );
    }
}

fn listing_text(listing: &Listing) -> String {
    let mut out = String::new();
    if listing.packages.is_empty() && listing.undeclared.is_empty() {
        out.push_str("no installed package declares settings\n");
    }
    for p in &listing.packages {
        let _ = writeln!(out, "{}", p.package);
        settings_lines(&mut out, &p.settings);
    }
    if !listing.undeclared.is_empty() {
        out.push_str("stored without a declaration:\n");
        for u in &listing.undeclared {
            let _ = writeln!(out, "  {} {} = {}", u.package, u.key, u.value);
        }
    }
    let _ = writeln!(out, "values: {}", listing.values_file.display());
    let _ = writeln!(out, "secrets: {}", listing.secrets);
    out
}
