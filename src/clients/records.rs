//! `clients-v1.toml`: every entry agx wrote into a client config, so that `doctor`,
//! `uninstall` and `clients` can find them again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One entry agx wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub client: String,
    /// `user`, `project` or `local`.
    pub scope: String,
    pub file: PathBuf,
    pub key: String,
    /// The qualified server the entry launches.
    pub server: String,
    /// The project folder of a `local` entry (its place inside `~/.claude.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// The agx binary the entry runs.
    pub command: String,
}

impl Record {
    /// Two records name the same place in the same file.
    pub fn same_place(&self, other: &Record) -> bool {
        self.client == other.client
            && self.file == other.file
            && self.key == other.key
            && self.project == other.project
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Records {
    #[serde(default, rename = "entry")]
    pub entries: Vec<Record>,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid", path.display())]
    Parse {
        path: PathBuf,
        source: toml::de::Error,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl crate::error::Hint for RecordsError {
    fn hint(&self) -> Option<String> {
        match self {
            RecordsError::Parse { path, .. } => Some(format!(
                "fix or remove {} (agx only uses it to find the entries it wrote)",
                path.display()
            )),
            _ => None,
        }
    }
}

impl Records {
    pub fn load(path: &Path) -> Result<Records, RecordsError> {
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|source| RecordsError::Parse {
                path: path.into(),
                source,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Records::default()),
            Err(source) => Err(RecordsError::Read {
                path: path.into(),
                source,
            }),
        }
    }

    pub fn save(&self, path: &Path) -> Result<(), RecordsError> {
        let mut text =
            String::from("# Entries agx wrote into MCP client configs. Managed by agx.\n\n");
        text.push_str(&toml::to_string(self).expect("records serialize"));
        super::write::write_atomic(path, &text, 0o644, false)
            .map(|_| ())
            .map_err(|source| RecordsError::Write {
                path: path.into(),
                source,
            })
    }

    /// Add or replace the record for the same place; false when it was already there.
    pub fn upsert(&mut self, record: Record) -> bool {
        match self.entries.iter_mut().find(|r| r.same_place(&record)) {
            Some(r) if *r == record => false,
            Some(r) => {
                *r = record;
                true
            }
            None => {
                self.entries.push(record);
                true
            }
        }
    }

    pub fn remove_place(&mut self, record: &Record) -> bool {
        let before = self.entries.len();
        self.entries.retain(|r| !r.same_place(record));
        before != self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_upserts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clients-v1.toml");
        let mut records = Records::load(&path).unwrap();
        let r = Record {
            client: "cursor".into(),
            scope: "user".into(),
            file: "/h/.cursor/mcp.json".into(),
            key: "forecast".into(),
            server: "acme/weather/forecast".into(),
            project: None,
            command: "/bin/agx".into(),
        };
        records.upsert(r.clone());
        records.upsert(Record {
            server: "acme/weather/other".into(),
            ..r.clone()
        });
        records.save(&path).unwrap();
        let back = Records::load(&path).unwrap();
        assert_eq!(back.entries.len(), 1);
        assert_eq!(back.entries[0].server, "acme/weather/other");
    }
}
