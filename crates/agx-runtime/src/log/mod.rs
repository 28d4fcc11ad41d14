//! agx's own diagnostics while serving, through `tracing`: each event becomes one line
//! `agx serve: LEVEL: message`, written to stderr and to the server's log file, each through
//! a bounded queue on a thread of its own ([`lossy`]), so logging never waits for a reader.
//! stdout carries the protocol, so nothing here ever writes to it.
//!
//! Only agx's own events are shown (not its libraries'), at the level `AGX_LOG` names, each
//! with the server's secret values redacted.

mod file;
mod lossy;

use std::io::Write;
use std::path::Path;

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::fmt::format::{self, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;

/// The target of lines shown whatever the level, and without one: what scripts read, such
/// as the address `--http` listens on.
pub(crate) const ANNOUNCE: &str = "agx::announce";

/// The level `AGX_LOG` names (default `info`), or the value when it names none.
pub(crate) fn level_from_env() -> Result<LevelFilter, String> {
    match std::env::var("AGX_LOG") {
        Ok(v) => parse_level(&v).ok_or(v),
        Err(_) => Ok(LevelFilter::INFO),
    }
}

fn parse_level(s: &str) -> Option<LevelFilter> {
    Some(match s.trim().to_ascii_lowercase().as_str() {
        "error" => LevelFilter::ERROR,
        "warn" | "warning" => LevelFilter::WARN,
        "info" => LevelFilter::INFO,
        "debug" => LevelFilter::DEBUG,
        "trace" => LevelFilter::TRACE,
        _ => return None,
    })
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::ERROR => "error",
        Level::WARN => "warn",
        Level::INFO => "info",
        Level::DEBUG => "debug",
        Level::TRACE => "trace",
    }
}

/// agx's log line: `PREFIX: LEVEL: message key=value…` (`PREFIX: message` for [`ANNOUNCE`]).
pub(crate) struct LineFormat {
    pub prefix: &'static str,
    /// Applied to every message: the server's secret values redacted.
    pub redact: fn(&str) -> std::borrow::Cow<'_, str>,
}

impl<S, N> FormatEvent<S, N> for LineFormat
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: format::Writer<'_>,
        event: &Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        write!(writer, "{}: ", self.prefix)?;
        if meta.target() != ANNOUNCE {
            write!(writer, "{}: ", level_name(*meta.level()))?;
        }
        // Redacted here, whatever wrote the event: a message may quote a URL, an HTTP client's
        // error or a tool's output holding a secret value.
        let mut message = String::new();
        ctx.field_format()
            .format_fields(format::Writer::new(&mut message), event)?;
        writeln!(writer, "{}", (self.redact)(&message))
    }
}

/// Keep until the process ends: dropping it writes out (briefly) what is still queued.
#[must_use = "dropping the guard ends logging"]
pub(crate) struct LogGuard {
    _flush: Vec<lossy::FlushOnDrop>,
}

/// Make the serving log this process's `tracing` subscriber: stderr plus `file` when given
/// and it can be opened (a server without a log file still serves).
pub(crate) fn init(file: Option<&Path>) -> LogGuard {
    let level = level_from_env();
    let mut destinations: Vec<(&'static str, Box<dyn Write + Send>)> =
        vec![("stderr", Box::new(std::io::stderr()))];
    if let Some(file) = file {
        destinations.push(("the log file", Box::new(file::LogFile::open(file))));
    }
    let mut flush = Vec::new();
    let mut writers = Vec::new();
    for (name, destination) in destinations {
        let (writer, guard) = lossy::LossyWriter::new(name, destination);
        writers.push(writer);
        flush.push(guard);
    }
    let filter = Targets::new()
        .with_target("agx", *level.as_ref().unwrap_or(&LevelFilter::INFO))
        .with_target(ANNOUNCE, LevelFilter::TRACE);
    let lines = tracing_subscriber::fmt::layer()
        .event_format(LineFormat {
            prefix: "agx serve",
            redact: super::settings::redact,
        })
        .with_writer(lossy::Each(writers));
    let subscriber = tracing_subscriber::registry().with(lines).with(filter);
    // Only the first call installs a subscriber; the serving log is set up once per process.
    let _ = tracing::subscriber::set_global_default(subscriber);
    if let Err(value) = level {
        tracing::warn!(
            "AGX_LOG={value:?} is not a level (error, warn, info, debug, trace); using info"
        );
    }
    LogGuard { _flush: flush }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn levels_parse() {
        assert_eq!(parse_level("WARN"), Some(LevelFilter::WARN));
        assert_eq!(parse_level(" warning "), Some(LevelFilter::WARN));
        assert_eq!(parse_level("trace"), Some(LevelFilter::TRACE));
        assert_eq!(parse_level("nope"), None);
    }

    /// Collects what the fmt layer writes.
    #[derive(Clone, Default)]
    struct Collect(Arc<Mutex<Vec<u8>>>);

    impl Write for Collect {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_keep_the_serve_format_and_filter_by_target() {
        let out = Collect::default();
        let sink = out.clone();
        let subscriber = tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .event_format(LineFormat {
                        prefix: "agx serve",
                        redact: |text| text.replace("s3cret", "[redacted]").into(),
                    })
                    .with_writer(move || sink.clone()),
            )
            .with(
                Targets::new()
                    .with_target("agx", LevelFilter::WARN)
                    .with_target(ANNOUNCE, LevelFilter::TRACE),
            );
        tracing::subscriber::with_default(subscriber, || {
            tracing::warn!("tool t: careful with {}", "s3cret");
            tracing::info!("hidden below warn");
            tracing::info!(target: ANNOUNCE, "listening on http://127.0.0.1:1/mcp");
            tracing::error!(target: "rmcp::service", "not agx's");
        });
        assert_eq!(
            String::from_utf8(out.0.lock().unwrap().clone()).unwrap(),
            "agx serve: warn: tool t: careful with [redacted]\nagx serve: listening on http://127.0.0.1:1/mcp\n"
        );
    }
}
