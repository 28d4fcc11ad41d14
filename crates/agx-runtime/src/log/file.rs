//! A server's log file, bounded in size: past [`LOG_FILE_CAP`] it moves to `<name>.log.1`
//! (replacing an older one) and a new file starts. It is created with its first line: a
//! session with nothing to say leaves no file behind.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Above this size the log file is moved to `<name>.log.1` and a new one started.
pub(crate) const LOG_FILE_CAP: u64 = 1024 * 1024;

pub(super) struct LogFile {
    path: PathBuf,
    /// Opened at the first line.
    file: Option<File>,
    written: u64,
}

impl LogFile {
    /// The log file at `path`, opened for appending (its folder created) when the first
    /// line comes. A server without a log file still serves.
    pub(super) fn open(path: &Path) -> LogFile {
        LogFile {
            path: path.to_path_buf(),
            file: None,
            written: 0,
        }
    }

    /// The open file, opening it (and rotating a full one) first.
    fn file(&mut self) -> std::io::Result<&mut File> {
        if self.file.is_none() {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            self.written = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
            self.file = Some(append(&self.path)?);
            if self.written >= LOG_FILE_CAP {
                self.rotate();
            }
        }
        Ok(self.file.as_mut().expect("opened above"))
    }

    /// Keep one previous file: `x.log` becomes `x.log.1`, replacing an older one.
    fn rotate(&mut self) {
        let mut old = self.path.clone().into_os_string();
        old.push(".1");
        let _ = std::fs::rename(&self.path, &old);
        if let Ok(f) = append(&self.path) {
            self.file = Some(f);
            self.written = 0;
        }
    }
}

fn append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// Each write is one log line (see `lossy`), so rotation never splits a line.
impl Write for LogFile {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        self.file()?;
        if self.written + line.len() as u64 > LOG_FILE_CAP {
            self.rotate();
        }
        self.file()?.write_all(line)?;
        self.written += line.len() as u64;
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
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
        let mut log = LogFile::open(&path);
        let line = format!("{}\n", "x".repeat(999));
        for _ in 0..3000 {
            log.write_all(line.as_bytes()).unwrap();
        }
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size <= LOG_FILE_CAP, "log is {size} bytes");
        assert!(size > 0);
        let previous = std::fs::metadata(dir.path().join("logs/s.log.1")).unwrap();
        assert!(previous.len() <= LOG_FILE_CAP);
    }

    #[test]
    fn a_session_that_logs_nothing_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/s.log");
        let mut log = LogFile::open(&path);
        log.flush().unwrap();
        drop(log);
        assert!(!dir.path().join("logs").exists());
    }
}
