//! agx's own diagnostics while serving: stderr plus a size-bounded log file per server.
//! stdout is reserved for protocol messages, so nothing here ever writes to it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Above this size the log file is moved to `<name>.log.1` and a new one started.
pub const LOG_FILE_CAP: u64 = 1024 * 1024;

/// Levels accepted by `AGX_LOG`, most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
    Debug,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "error" => Level::Error,
            "warn" | "warning" => Level::Warn,
            "info" => Level::Info,
            "debug" | "trace" => Level::Debug,
            _ => return None,
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
        }
    }
}

/// The serving log. Cheap to share behind an `Arc`.
pub struct Log {
    level: Level,
    echo_to_stderr: bool,
    file: Mutex<Option<LogFile>>,
}

struct LogFile {
    path: PathBuf,
    file: File,
    written: u64,
}

impl Log {
    /// A log at the level given by `AGX_LOG` (default `info`), writing to stderr and, when
    /// `file` is given and can be opened, to that file.
    pub fn from_env(file: Option<&Path>) -> Log {
        let level = match std::env::var("AGX_LOG") {
            Ok(v) => Level::parse(&v).unwrap_or_else(|| {
                eprintln!(
                    "agx: AGX_LOG={v:?} is not a level (error, warn, info, debug); using info"
                );
                Level::Info
            }),
            Err(_) => Level::Info,
        };
        Log {
            level,
            echo_to_stderr: true,
            file: Mutex::new(file.and_then(LogFile::open)),
        }
    }

    /// A log that only writes to stderr (tests, early failures).
    pub fn stderr_only(level: Level) -> Log {
        Log {
            level,
            echo_to_stderr: true,
            file: Mutex::new(None),
        }
    }

    pub fn enabled(&self, level: Level) -> bool {
        level <= self.level
    }

    pub fn write(&self, level: Level, message: &str) {
        if !self.enabled(level) {
            return;
        }
        let line = format!("agx serve: {}: {message}\n", level.as_str());
        if self.echo_to_stderr {
            let _ = std::io::stderr().write_all(line.as_bytes());
        }
        if let Ok(mut guard) = self.file.lock()
            && let Some(f) = guard.as_mut()
        {
            f.append(&line);
        }
    }

    pub fn error(&self, message: &str) {
        self.write(Level::Error, message)
    }
    pub fn warn(&self, message: &str) {
        self.write(Level::Warn, message)
    }
    pub fn info(&self, message: &str) {
        self.write(Level::Info, message)
    }
    pub fn debug(&self, message: &str) {
        self.write(Level::Debug, message)
    }
}

impl LogFile {
    fn open(path: &Path) -> Option<LogFile> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).ok()?;
        }
        let written = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let mut log = LogFile {
            path: path.to_path_buf(),
            file: OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok()?,
            written,
        };
        if written >= LOG_FILE_CAP {
            log.rotate();
        }
        Some(log)
    }

    fn append(&mut self, line: &str) {
        if self.written + line.len() as u64 > LOG_FILE_CAP {
            self.rotate();
        }
        if self.file.write_all(line.as_bytes()).is_ok() {
            self.written += line.len() as u64;
        }
    }

    /// Keep one previous file: `x.log` becomes `x.log.1`, replacing an older one.
    fn rotate(&mut self) {
        let mut old = self.path.clone().into_os_string();
        old.push(".1");
        let _ = std::fs::rename(&self.path, &old);
        if let Ok(f) = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
        {
            self.file = f;
            self.written = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stays_under_cap_and_keeps_one_previous() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/s.log");
        let log = Log {
            level: Level::Debug,
            echo_to_stderr: false,
            file: Mutex::new(LogFile::open(&path)),
        };
        let line = "x".repeat(1000);
        for _ in 0..3000 {
            log.debug(&line);
        }
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size <= LOG_FILE_CAP, "log is {size} bytes");
        assert!(dir.path().join("logs/s.log.1").exists());
    }

    #[test]
    fn levels_parse_and_filter() {
        assert_eq!(Level::parse("WARN"), Some(Level::Warn));
        assert_eq!(Level::parse("nope"), None);
        let log = Log::stderr_only(Level::Warn);
        assert!(log.enabled(Level::Error));
        assert!(!log.enabled(Level::Info));
    }
}
