//! The command line's one printer: results on stdout, messages to people on stderr (status
//! lines, warnings, `-v` notes, progress bars), with the global quiet/verbose/colour choices.
//! `main` builds it from the flags and passes it down; it implements the library's
//! [`Reporter`] and renders `tracing` events (see [`Printer::install_logger`]).
//!
//! Part of the CLI layer: the library never uses it.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageName;
use agx_core::report::{Outcome, Reporter};
pub use agx_core::style::Style;
use agx_core::style::{for_terminal, paint};

/// When to colour messages (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ColorChoice {
    /// Colour on a terminal unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Cheap to clone: clones share the progress bars.
#[derive(Clone)]
pub struct Printer {
    inner: Arc<Inner>,
}

struct Inner {
    color: bool,
    /// -1 quiet, 0 normal, 1+ verbose.
    verbosity: i8,
    /// Present when progress bars may be drawn (a terminal, not `-q`, no `AGX_NO_PROGRESS`).
    bars: Option<MultiProgress>,
    download: Mutex<Option<ProgressBar>>,
}

impl Printer {
    pub fn new(color: ColorChoice, quiet: bool, verbose: u8) -> Self {
        let stderr_is_terminal = std::io::stderr().is_terminal();
        let color = use_color(color);
        let verbosity = if quiet { -1 } else { verbose.min(100) as i8 };
        let bars =
            (verbosity >= 0 && std::env::var_os("AGX_NO_PROGRESS").is_none() && stderr_is_terminal)
                .then(MultiProgress::new);
        Printer {
            inner: Arc::new(Inner {
                color,
                verbosity,
                bars,
                download: Mutex::new(None),
            }),
        }
    }

    pub fn color(&self) -> bool {
        self.inner.color
    }

    pub fn verbosity(&self) -> i8 {
        self.inner.verbosity
    }

    pub fn paint(&self, style: Style, text: &str) -> String {
        paint(self.inner.color, style, text)
    }

    /// Write `text` to stdout. A closed pipe (`agx list | head -1`) ends the command quietly
    /// with success: the error returned then is silent with exit code 0.
    /// Text is shown safely ([`for_terminal`]): what packages and registries wrote cannot
    /// drive the terminal.
    pub fn out(&self, text: impl AsRef<[u8]>) -> CliResult {
        let bytes = text.as_ref();
        let safe = std::str::from_utf8(bytes).map(for_terminal);
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(safe.as_ref().map_or(bytes, |t| t.as_bytes()))
            .and_then(|()| stdout.flush())
            .map_err(stdout_error)
    }

    /// `text` and a newline on stdout (see [`Printer::out`]).
    pub fn outln(&self, text: &str) -> CliResult {
        self.out(format!("{text}\n"))
    }

    /// A block of text for people (diagnostics) on stderr, shown safely ([`for_terminal`]).
    pub fn err(&self, text: &str) {
        let text = for_terminal(text);
        let write = || {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        };
        match &self.inner.bars {
            Some(bars) => bars.suspend(write),
            None => write(),
        }
    }

    /// One message line on stderr.
    fn emit(&self, line: &str) {
        self.err(&format!("{line}\n"));
    }

    /// A cargo-style status line (`   Installed acme/weather v1.2.0`); hidden by `-q`.
    pub fn status(&self, verb: &str, message: &str) {
        if self.inner.verbosity >= 0 {
            self.emit(&format!(
                "{:>12} {message}",
                self.paint(Style::Status, verb)
            ));
        }
    }

    /// A status line shown even with `-q`: what the person must act on to go on.
    pub fn always(&self, verb: &str, message: &str) {
        self.emit(&format!(
            "{:>12} {message}",
            self.paint(Style::Status, verb)
        ));
    }

    /// A warning; shown even with `-q`.
    pub fn warn(&self, message: &str) {
        self.emit(&format!(
            "{}: {message}",
            self.paint(Style::Warning, "warning")
        ));
    }

    /// Detail shown with `-v`.
    pub fn note(&self, message: &str) {
        if self.inner.verbosity >= 1 {
            self.emit(&format!("{} {message}", self.paint(Style::Dim, "note:")));
        }
    }

    /// Render an error as `error: …`, its causes, then `hint: …`.
    pub fn render_error(&self, err: &CliError) -> String {
        render_error(self.inner.color, err)
    }

    /// End a command: render its error, if any, on stderr and turn it into the exit code.
    pub fn exit_with(&self, result: CliResult) -> std::process::ExitCode {
        match result {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(err) => {
                if !err.silent {
                    self.emit(&self.render_error(&err));
                }
                std::process::ExitCode::from(u8::try_from(err.exit_code).unwrap_or(1))
            }
        }
    }

    /// Route the library's `tracing` events through this printer: warnings always; agx's
    /// info events that carry a `verb` as status lines (hidden by `-q`); debug events as
    /// `note:` lines with `-v` (agx's own) or `-vv` (every crate's as well, but never the
    /// OAuth code's: they carry codes and tokens).
    pub fn install_logger(&self) {
        use tracing_subscriber::filter::{LevelFilter, Targets};
        use tracing_subscriber::prelude::*;
        let filter = match self.inner.verbosity {
            ..=0 => Targets::new()
                .with_default(LevelFilter::WARN)
                .with_target("agx", LevelFilter::INFO),
            1 => Targets::new()
                .with_default(LevelFilter::WARN)
                .with_target("agx", LevelFilter::DEBUG),
            // Every crate's debug events but the OAuth ones: rmcp's `auth` debug-prints an
            // authorization code and token responses' extra fields (an `id_token`).
            _ => Targets::new()
                .with_default(LevelFilter::DEBUG)
                .with_target("agx", LevelFilter::TRACE)
                .with_target("rmcp::transport::auth", LevelFilter::WARN)
                .with_target("rmcp::transport::common::auth", LevelFilter::WARN)
                .with_target("oauth2", LevelFilter::WARN),
        };
        let layer = PrinterLayer {
            printer: self.clone(),
        };
        // Only `main` installs one; a second call (in tests) keeps the first.
        let _ = tracing_subscriber::registry()
            .with(layer.with_filter(filter))
            .try_init();
    }
}

/// Whether messages are coloured: `--color`, and for `auto` a terminal without `NO_COLOR`.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// Turns a failed stdout write into the command's result: a closed pipe is success.
fn stdout_error(e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CliError::silent_failure().with_exit_code(agx_core::error::exit::SUCCESS)
    } else {
        CliError::new(format!("cannot write to stdout: {e}"))
    }
}

fn render_error(color: bool, err: &CliError) -> String {
    let mut out = format!("{}: {}", paint(color, Style::Error, "error"), err.message);
    for cause in &err.causes {
        out.push_str(&format!(
            "\n  {} {cause}",
            paint(color, Style::Dim, "caused by:")
        ));
    }
    if let Some(hint) = &err.hint {
        out.push_str(&format!("\n{}: {hint}", paint(color, Style::Hint, "hint")));
    }
    out
}

/// The status line for one installed, updated or kept package.
fn package_line(
    name: &PackageName,
    version: &semver::Version,
    outcome: &Outcome,
) -> (&'static str, String) {
    match outcome {
        Outcome::Installed => ("Installed", format!("{name} v{version}")),
        Outcome::Reinstalled => ("Reinstalled", format!("{name} v{version}")),
        Outcome::Replaced { previous } => ("Updated", format!("{name} v{previous} -> v{version}")),
        Outcome::AlreadyInstalled => (
            "Installed",
            format!("{name} v{version} (already installed; --force reinstalls it)"),
        ),
    }
}

impl Reporter for Printer {
    fn status(&self, verb: &str, message: &str) {
        Printer::status(self, verb, message);
    }

    fn warn(&self, message: &str) {
        Printer::warn(self, message);
    }

    fn start_download(&self, name: &PackageName, version: &semver::Version, size: u64) {
        tracing::debug!("downloading {name} v{version} ({size} bytes)");
        let Some(bars) = &self.inner.bars else { return };
        let bar = bars.add(ProgressBar::new(size));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>12.cyan.bold} {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix("Downloading");
        bar.set_message(format!("{name} v{version}"));
        *self.inner.download.lock().expect("not poisoned") = Some(bar);
    }

    fn downloaded(&self, bytes: u64) {
        if let Some(bar) = &*self.inner.download.lock().expect("not poisoned") {
            bar.set_position(bytes);
        }
    }

    fn finish_download(&self) {
        if let Some(bar) = self.inner.download.lock().expect("not poisoned").take() {
            bar.finish_and_clear();
        }
    }

    fn package_done(&self, name: &PackageName, version: &semver::Version, outcome: &Outcome) {
        let (verb, message) = package_line(name, version, outcome);
        Printer::status(self, verb, &message);
    }
}

/// A `tracing` layer that prints events through the printer: `warning:` for warnings and
/// errors, a status line for info events with a `verb` field, `note:` for the rest.
struct PrinterLayer {
    printer: Printer,
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for PrinterLayer {
    fn on_event(
        &self,
        event: &tracing::Event<'_>,
        _ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut fields = EventFields::default();
        event.record(&mut fields);
        let level = *event.metadata().level();
        match fields.verb {
            _ if level <= tracing::Level::WARN => self.printer.warn(&fields.message),
            Some(verb) if level == tracing::Level::INFO => {
                self.printer.status(&verb, &fields.message)
            }
            _ => self.printer.note(&fields.message),
        }
    }
}

/// An event's message and status verb; other fields are appended as `name=value`.
#[derive(Default)]
struct EventFields {
    message: String,
    verb: Option<String>,
}

impl tracing::field::Visit for EventFields {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "verb" {
            self.verb = Some(value.to_string());
        } else {
            self.record_debug(field, &value);
        }
    }

    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write as _;
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.message, " {}={value:?}", field.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_a_quiet_success() {
        let e = stdout_error(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(e.silent);
        assert_eq!(e.exit_code, agx_core::error::exit::SUCCESS);
        let other = stdout_error(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        assert!(!other.silent);
        assert_eq!(other.exit_code, agx_core::error::exit::FAILURE);
    }

    #[test]
    fn errors_render_with_causes_and_hint() {
        let err = CliError::new("it broke")
            .with_cause("because")
            .with_hint("do this");
        assert_eq!(
            render_error(false, &err),
            "error: it broke\n  caused by: because\nhint: do this"
        );
    }
}
