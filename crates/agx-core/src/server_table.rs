//! agx's per-server user files in its config folder (`filters-v1.toml`,
//! `permissions-v1.toml`): `version = 1` and a table of values keyed by qualified server.
//! Read bounded (a regular file, a size cap); replaced whole under a lock of its own, or left
//! as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

const FILE_VERSION: u32 = 1;
/// Larger than any table a person writes; keeps a corrupt file from being read whole.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile<V> {
    version: u32,
    #[serde(default = "BTreeMap::new")]
    servers: BTreeMap<String, V>,
}

/// What went wrong with a table file; each owner maps it into its own error.
#[derive(Debug)]
pub enum TableError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    Invalid {
        path: PathBuf,
        detail: String,
    },
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One table file: `<stem>.toml` with its lock `<stem>.lock` in agx's config folder.
pub struct ServerTable<'a> {
    pub config_dir: &'a Path,
    /// `filters-v1`, `permissions-v1`.
    pub stem: &'static str,
    /// The comment line written above the table: what writes it and where it is explained.
    pub header: &'static str,
}

impl ServerTable<'_> {
    pub fn path(&self) -> PathBuf {
        self.config_dir.join(format!("{}.toml", self.stem))
    }

    /// Every server's value; none when the file does not exist.
    pub fn read<V: DeserializeOwned>(&self) -> Result<BTreeMap<String, V>, TableError> {
        use crate::regular_file::ReadProblem;
        let path = self.path();
        let text = match crate::regular_file::read_text(&path, MAX_FILE_BYTES) {
            Ok(text) => text,
            Err(ReadProblem::NotFound) => return Ok(BTreeMap::new()),
            Err(problem) => {
                return Err(TableError::Read {
                    path,
                    source: problem.into_io(),
                });
            }
        };
        let file: TableFile<V> = toml::from_str(&text).map_err(|e| TableError::Invalid {
            path: path.clone(),
            detail: e.to_string(),
        })?;
        if file.version != FILE_VERSION {
            return Err(TableError::Invalid {
                path,
                detail: format!(
                    "version {} (this agx reads version {FILE_VERSION})",
                    file.version
                ),
            });
        }
        Ok(file.servers)
    }

    /// Set `server`'s value, or remove it (`None`). Returns whether the file changed.
    pub fn record<V>(&self, server: &str, value: Option<V>) -> Result<bool, TableError>
    where
        V: Serialize + DeserializeOwned + PartialEq + Clone,
    {
        fs_err::create_dir_all(self.config_dir).map_err(|source| TableError::Write {
            path: self.config_dir.to_path_buf(),
            source,
        })?;
        let lock_path = self.config_dir.join(format!("{}.lock", self.stem));
        let _lock = crate::file_lock::FileLock::acquire(
            &lock_path,
            crate::file_lock::LockMode::Exclusive,
            || {},
        )
        .map_err(|source| TableError::Write {
            path: lock_path.clone(),
            source,
        })?;
        let mut servers = self.read::<V>()?;
        let before = servers.clone();
        match value {
            Some(value) => {
                servers.insert(server.to_string(), value);
            }
            None => {
                servers.remove(server);
            }
        }
        if servers == before {
            return Ok(false);
        }
        let path = self.path();
        let file = TableFile {
            version: FILE_VERSION,
            servers,
        };
        let text = toml::to_string(&file).map_err(|e| TableError::Invalid {
            path: path.clone(),
            detail: e.to_string(),
        })?;
        let text = format!("# {}\n{text}", self.header);
        crate::atomic::write_file(&path, text.as_bytes(), None)
            .map_err(|source| TableError::Write { path, source })?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(dir: &Path) -> ServerTable<'_> {
        ServerTable {
            config_dir: dir,
            stem: "things-v1",
            header: "Written by a test.",
        }
    }

    #[test]
    fn record_read_remove_and_refuse_another_version() {
        let dir = tempfile::tempdir().unwrap();
        let t = table(dir.path());
        assert!(t.read::<u32>().unwrap().is_empty());
        assert!(t.record("a/b/c", Some(7u32)).unwrap());
        assert!(!t.record("a/b/c", Some(7u32)).unwrap(), "nothing changed");
        assert_eq!(t.read::<u32>().unwrap()["a/b/c"], 7);
        let text = std::fs::read_to_string(t.path()).unwrap();
        assert!(
            text.starts_with("# Written by a test.\nversion = 1\n"),
            "{text}"
        );
        assert!(t.record::<u32>("a/b/c", None).unwrap());
        assert!(t.read::<u32>().unwrap().is_empty());

        std::fs::write(t.path(), "version = 2\n").unwrap();
        let Err(TableError::Invalid { detail, .. }) = t.read::<u32>() else {
            panic!("version 2 was read");
        };
        assert!(detail.contains("this agx reads version 1"), "{detail}");
        assert!(t.record("a/b/c", Some(1u32)).is_err());
        assert_eq!(std::fs::read_to_string(t.path()).unwrap(), "version = 2\n");
    }
}
