//! Messages to people on stderr: status lines, warnings, verbosity and colour.
//! stdout is reserved for results.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};

use crate::cli::ColorChoice;

static COLOR: AtomicBool = AtomicBool::new(false);
/// -1 quiet, 0 normal, 1+ verbose.
static VERBOSITY: AtomicI8 = AtomicI8::new(0);

/// Set once by `main` from the global flags.
pub fn configure(color: ColorChoice, quiet: bool, verbose: u8) {
    let color = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    };
    COLOR.store(color, Ordering::Relaxed);
    let level = if quiet { -1 } else { verbose.min(100) as i8 };
    VERBOSITY.store(level, Ordering::Relaxed);
}

pub fn color_enabled() -> bool {
    COLOR.load(Ordering::Relaxed)
}

pub fn verbosity() -> i8 {
    VERBOSITY.load(Ordering::Relaxed)
}

/// Progress bars show only on a terminal, never with `AGX_NO_PROGRESS` or `-q`.
pub fn progress_enabled() -> bool {
    verbosity() >= 0
        && std::env::var_os("AGX_NO_PROGRESS").is_none()
        && std::io::stderr().is_terminal()
}

/// ANSI styles used in messages.
#[derive(Clone, Copy)]
pub enum Style {
    Error,
    Warning,
    Hint,
    Status,
    Bold,
    Dim,
}

pub fn paint(style: Style, text: &str) -> String {
    if !color_enabled() {
        return text.to_string();
    }
    let code = match style {
        Style::Error => "1;31",
        Style::Warning => "1;33",
        Style::Hint => "1;36",
        Style::Status => "1;32",
        Style::Bold => "1",
        Style::Dim => "2",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

fn emit(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// A command's result on stdout; a reader that went away (`agx clients | head`) is not an
/// error.
pub fn print_result(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// A cargo-style status line, e.g. `  Installed acme/weather v1.2.0`. Hidden by `-q`.
pub fn status(verb: &str, message: &str) {
    if verbosity() >= 0 {
        emit(&format!("{:>12} {message}", paint(Style::Status, verb)));
    }
}

/// A warning; shown even with `-q`.
pub fn warn(message: &str) {
    emit(&format!("{}: {message}", paint(Style::Warning, "warning")));
}

/// Extra detail shown with `-v`.
pub fn verbose(message: &str) {
    if verbosity() >= 1 {
        emit(&format!("{} {message}", paint(Style::Dim, "note:")));
    }
}

/// End a command: render its error, if any, on stderr and turn it into the exit code.
pub fn exit_with(result: crate::error::CliResult) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            if !err.silent {
                eprintln!("{}", render_error(&err));
            }
            std::process::ExitCode::from(u8::try_from(err.exit_code).unwrap_or(1))
        }
    }
}

/// Render an error as `error: …`, its causes, then `hint: …`.
pub fn render_error(err: &crate::error::CliError) -> String {
    let mut out = format!("{}: {}", paint(Style::Error, "error"), err.message);
    for cause in &err.causes {
        out.push_str(&format!("\n  {} {cause}", paint(Style::Dim, "caused by:")));
    }
    if let Some(hint) = &err.hint {
        out.push_str(&format!("\n{}: {hint}", paint(Style::Hint, "hint")));
    }
    out
}
