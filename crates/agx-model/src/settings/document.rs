//! The file format shared by the values file and the secrets file: a version and, per
//! package, its values by key. A file that does not parse is reported with its line and
//! column but without the text around it (it may hold secrets) and is left as it is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SettingsError;
use agx_core::regular_file::ReadProblem;

/// The format version this agx reads and writes.
pub(super) const VERSION: u32 = 1;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    pub version: u32,
    /// Package name → key → value.
    #[serde(default)]
    pub packages: BTreeMap<String, BTreeMap<String, String>>,
}

impl Document {
    pub fn get(&self, package: &str, key: &str) -> Option<&str> {
        self.packages.get(package)?.get(key).map(String::as_str)
    }

    pub fn insert(&mut self, package: &str, key: &str, value: String) {
        self.packages
            .entry(package.to_string())
            .or_default()
            .insert(key.to_string(), value);
    }

    /// Remove a value; whether there was one.
    pub fn remove(&mut self, package: &str, key: &str) -> bool {
        let Some(values) = self.packages.get_mut(package) else {
            return false;
        };
        let removed = values.remove(key).is_some();
        if values.is_empty() {
            self.packages.remove(package);
        }
        removed
    }
}

/// The largest settings file (values or secrets) agx reads; real ones are a few KiB. A FIFO
/// or device in its place is refused rather than read (docs/security.md).
pub(super) const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Read a document; a missing file is an empty one. Only a regular file is read.
pub(super) fn read(path: &Path) -> Result<Document, SettingsError> {
    let text = match agx_core::regular_file::read_text(path, MAX_FILE_BYTES) {
        Ok(t) => t,
        Err(ReadProblem::NotFound) => {
            return Ok(Document {
                version: VERSION,
                ..Default::default()
            });
        }
        Err(ReadProblem::NotUtf8) => {
            return Err(corrupt(path, "it is not UTF-8 text".into()));
        }
        Err(problem @ (ReadProblem::NotRegular { .. } | ReadProblem::TooLarge { .. })) => {
            return Err(corrupt(path, format!("it {}", problem.describe())));
        }
        Err(problem) => {
            return Err(SettingsError::Io(agx_core::io_context::at("read", path)(
                problem.into_io(),
            )));
        }
    };
    parse(path, &text)
}

fn parse(path: &Path, text: &str) -> Result<Document, SettingsError> {
    let doc: Document = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|span| {
                let (line, column) = line_col(text, span.start);
                format!("line {line}, column {column}: ")
            })
            .unwrap_or_default();
        corrupt(path, format!("{at}{}", e.message().trim_end()))
    })?;
    if doc.version != VERSION {
        return Err(SettingsError::Version {
            path: path.to_path_buf(),
            found: doc.version,
        });
    }
    Ok(doc)
}

fn corrupt(path: &Path, detail: String) -> SettingsError {
    SettingsError::Corrupt {
        path: path.to_path_buf(),
        detail,
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Write a document atomically with `mode` (0600 for secrets).
pub(super) fn write(
    path: &Path,
    doc: &Document,
    header: &str,
    mode: u32,
) -> Result<(), SettingsError> {
    let body = toml::to_string(doc).expect("a settings document serializes");
    let text = format!("{header}\n{body}");
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(mode))
    };
    #[cfg(not(unix))]
    let permissions = {
        let _ = mode;
        None
    };
    agx_core::atomic::write_file(path, text.as_bytes(), permissions).map_err(SettingsError::Io)
}

/// The lock that serializes read-modify-write of the settings files.
pub(super) fn lock(dir: &Path) -> Result<agx_core::file_lock::FileLock, SettingsError> {
    let path: PathBuf = dir.join("settings.lock");
    fs_err::create_dir_all(dir).map_err(SettingsError::Io)?;
    agx_core::file_lock::FileLock::acquire(&path, agx_core::file_lock::LockMode::Exclusive, || {})
        .map_err(agx_core::io_context::at("lock", &path))
        .map_err(SettingsError::Io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corrupt_file_gives_line_and_column_without_its_text() {
        let text = "version = 1\n[packages.\"a/b\"]\nkey = \"s3cr3t\" junk\n";
        let err = parse(Path::new("/x/secrets-v1.toml"), text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("line 3, column"), "{msg}");
        assert!(!msg.contains("s3cr3t"), "{msg}");
    }

    #[test]
    fn another_version_is_refused() {
        let err = parse(Path::new("f.toml"), "version = 2\n").unwrap_err();
        assert!(matches!(err, SettingsError::Version { found: 2, .. }));
    }

    #[test]
    fn round_trip_and_remove() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        let mut doc = read(&path).unwrap();
        doc.insert("acme/w", "units", "metric".into());
        write(&path, &doc, "# test", 0o600).unwrap();
        let mut back = read(&path).unwrap();
        assert_eq!(back.get("acme/w", "units"), Some("metric"));
        assert!(back.remove("acme/w", "units"));
        assert!(back.packages.is_empty());
        assert!(!back.remove("acme/w", "units"));
    }
}
