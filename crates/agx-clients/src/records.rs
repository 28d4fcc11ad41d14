//! `clients-v1.toml`: every entry agx wrote into a client config, so that `doctor`,
//! `uninstall` and `clients` can find them again. Rows are typed: a damaged row (an unknown
//! client or scope, a server that is not `publisher/name/server`) is an error naming the
//! file, line and column, never a guess.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Scope;
use agx_core::file_lock::{FileLock, LockMode};
use agx_core::name::QualifiedName;
use agx_model::client_table::Client;

/// One entry agx wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    #[serde(with = "client_id")]
    pub client: &'static Client,
    pub scope: Scope,
    pub file: PathBuf,
    pub key: String,
    /// The qualified server the entry launches.
    #[serde(with = "qualified_name")]
    pub server: QualifiedName,
    /// The project folder of a `local` entry (its place inside `~/.claude.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// The agx binary the entry runs.
    pub command: String,
}

/// Where an entry is: two records with the same place name the same entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub client: &'static Client,
    pub file: PathBuf,
    pub key: String,
    pub project: Option<PathBuf>,
}

impl Record {
    pub fn place(&self) -> Place {
        Place {
            client: self.client,
            file: self.file.clone(),
            key: self.key.clone(),
            project: self.project.clone(),
        }
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Records {
    #[serde(default, rename = "entry")]
    pub entries: Vec<Record>,
    /// Skill folders agx copied into clients' skills folders (crates/agx-model/src/skills/copies.rs).
    #[serde(default, rename = "skill", skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<agx_model::skills::copies::SkillCopy>,
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
    #[error("cannot lock {}", path.display())]
    Lock {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl agx_core::error::Hint for RecordsError {
    fn hint(&self) -> Option<String> {
        match self {
            RecordsError::Parse { path, .. } => Some(format!(
                "fix or remove that row of {} (agx only uses it to find the entries it wrote)",
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
        super::write::write_atomic(path, &text, None, false)
            .map(|_| ())
            .map_err(|source| RecordsError::Write {
                path: path.into(),
                source,
            })
    }

    /// Hold the record for a read-modify-write: every writer takes this lock (before any
    /// client file's, so that two agx processes never wait on each other in a circle).
    pub fn lock(path: &Path) -> Result<FileLock, RecordsError> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let lock_path = path.with_file_name(name);
        let err = |source| RecordsError::Lock {
            path: lock_path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        FileLock::acquire(&lock_path, LockMode::Exclusive, || {
            tracing::info!(
                verb = "Blocking",
                "waiting for another agx process editing {}",
                path.display()
            )
        })
        .map_err(err)
    }

    /// Add or replace the record for the same place; false when it was already there.
    pub fn upsert(&mut self, record: Record) -> bool {
        let place = record.place();
        match self.entries.iter_mut().find(|r| r.place() == place) {
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

    /// Forget the record of a place; false when there was none.
    pub fn remove_place(&mut self, place: &Place) -> bool {
        let before = self.entries.len();
        self.entries.retain(|r| r.place() != *place);
        before != self.entries.len()
    }
}

/// A client by its id in the table.
mod client_id {
    use serde::{Deserialize, Deserializer, Serializer};

    use agx_model::client_table::{CLIENTS, Client};

    pub(super) fn serialize<S: Serializer>(
        client: &&'static Client,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(client.id)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<&'static Client, D::Error> {
        let id = String::deserialize(d)?;
        CLIENTS.iter().find(|c| c.id == id).ok_or_else(|| {
            let known: Vec<&str> = CLIENTS.iter().map(|c| c.id).collect();
            serde::de::Error::custom(format!(
                "unknown client `{id}`, expected one of {}",
                known.join(", ")
            ))
        })
    }
}

/// A qualified server as its `publisher/name/server` text.
mod qualified_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use agx_core::name::QualifiedName;

    pub(super) fn serialize<S: Serializer>(name: &QualifiedName, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(name)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<QualifiedName, D::Error> {
        let text = String::deserialize(d)?;
        QualifiedName::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find_client;

    fn record() -> Record {
        Record {
            client: find_client("cursor").unwrap(),
            scope: Scope::User,
            file: "/h/.cursor/mcp.json".into(),
            key: "forecast".into(),
            server: QualifiedName::parse("acme/weather/forecast").unwrap(),
            project: None,
            command: "/bin/agx".into(),
        }
    }

    #[test]
    fn round_trips_and_upserts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clients-v1.toml");
        let mut records = Records::load(&path).unwrap();
        records.upsert(record());
        records.upsert(Record {
            server: QualifiedName::parse("acme/weather/other").unwrap(),
            ..record()
        });
        records.save(&path).unwrap();
        let back = Records::load(&path).unwrap();
        assert_eq!(
            back.entries,
            vec![Record {
                server: QualifiedName::parse("acme/weather/other").unwrap(),
                ..record()
            }]
        );
        let mut back = back;
        assert!(back.remove_place(&record().place()));
        assert!(back.entries.is_empty());
    }

    /// A damaged row used to be read as a user-scope entry; now it names the file and line.
    #[test]
    fn a_damaged_row_is_an_error_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clients-v1.toml");
        let mut records = Records::default();
        records.upsert(record());
        records.save(&path).unwrap();
        let good = std::fs::read_to_string(&path).unwrap();
        for (from, to, says) in [
            (
                "scope = \"user\"",
                "scope = \"usr\"",
                "unknown variant `usr`",
            ),
            (
                "client = \"cursor\"",
                "client = \"cursr\"",
                "unknown client `cursr`",
            ),
            ("acme/weather/forecast", "acme-weather", "acme-weather"),
        ] {
            assert!(good.contains(from), "{good}");
            std::fs::write(&path, good.replace(from, to)).unwrap();
            let err = Records::load(&path).unwrap_err();
            let RecordsError::Parse {
                path: named,
                source,
            } = &err
            else {
                panic!("{err:?}");
            };
            assert_eq!(named, &path);
            let text = source.to_string();
            let line = good.lines().position(|l| l.contains(from)).unwrap() + 1;
            assert!(text.contains(&format!("line {line}")), "{text}");
            assert!(text.contains(says), "{text}");
        }
    }
}
