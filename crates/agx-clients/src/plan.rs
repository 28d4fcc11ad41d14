//! Planning an edit: read the client's file, work out the text after adding or removing an
//! entry, and say what that does. Nothing is written here (see `apply`).

use std::path::PathBuf;

use serde_json::Value;

use super::{ClientError, Target, write};
use agx_edit::{self as edit, ConfigDoc};
use agx_model::client_table::shape::{self, ServerEntry};

/// What an edit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Added,
    Updated,
    Unchanged,
    Removed,
    NotFound,
}

/// A planned edit: the file's text before (None when missing) and after.
#[derive(Debug)]
pub struct Change {
    pub target: Target,
    pub key: String,
    pub before: Option<String>,
    pub after: String,
    pub outcome: Outcome,
}

impl Change {
    pub fn diff(&self) -> String {
        write::unified_diff(
            &self.target.file,
            self.before.as_deref().unwrap_or(""),
            &self.after,
        )
    }

    /// Write the change (nothing when unchanged); returns the backup's path. The caller
    /// holds the file's lock from planning to here (see `apply`).
    pub fn apply(&self) -> Result<Option<PathBuf>, ClientError> {
        if matches!(self.outcome, Outcome::Unchanged | Outcome::NotFound) {
            return Ok(None);
        }
        let read_only =
            write::is_read_only(&self.target.file).map_err(|source| ClientError::Read {
                file: self.target.file.clone(),
                source,
            })?;
        if read_only {
            return Err(ClientError::ReadOnly {
                file: self.target.file.clone(),
            });
        }
        write::write_atomic(
            &self.target.file,
            &self.after,
            self.target.new_file_mode(),
            true,
        )
        .map_err(|source| ClientError::Write {
            file: self.target.file.clone(),
            source,
        })
    }
}

/// Read and parse a target's file (a missing file is an empty document). Every edit is
/// planned from this read, so a project file reached through a link out of the project is
/// refused here, before anything is written.
pub fn read_doc(target: &Target) -> Result<(Option<String>, Box<dyn ConfigDoc>), ClientError> {
    target.check_confined()?;
    let before = write::read_client_file(&target.file).map_err(|source| ClientError::Read {
        file: target.file.clone(),
        source,
    })?;
    let doc =
        edit::parse(target.client.format, before.as_deref().unwrap_or("")).map_err(|source| {
            ClientError::Syntax {
                file: target.file.clone(),
                source,
            }
        })?;
    Ok((before, doc))
}

/// A value short enough for a message.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// Refuse a key that some client cannot use.
pub fn check_key(key: &str) -> Result<(), ClientError> {
    if shape::is_portable_key(key) {
        Ok(())
    } else {
        Err(ClientError::BadKey { key: key.into() })
    }
}

/// Plan writing `entry` under `key`.
pub fn plan_install(
    target: &Target,
    key: &str,
    entry: &ServerEntry,
    force: bool,
) -> Result<Change, ClientError> {
    check_key(key)?;
    let (before, mut doc) = read_doc(target)?;
    if let (None, Some(seed)) = (&before, target.client.new_file) {
        doc = edit::parse(target.client.format, &seed.replace("{key}", key))
            .expect("client seeds are valid");
    }
    let shape = target.client.shape;
    let rendered = shape::render(shape, key, entry);
    let existing = doc.get(&target.container, key);
    let (value, outcome) = match &existing {
        None => (rendered, Outcome::Added),
        Some(old) => {
            let same_server = shape::parse(shape, old)
                .is_some_and(|e| e.agx_server().is_some() && e.agx_server() == entry.agx_server());
            if same_server {
                let merged = shape::merge(old, &rendered);
                if &merged == old {
                    (merged, Outcome::Unchanged)
                } else {
                    (merged, Outcome::Updated)
                }
            } else if force {
                (rendered, Outcome::Updated)
            } else {
                return Err(ClientError::KeyTaken {
                    file: target.file.clone(),
                    key: key.into(),
                    holds: describe(old),
                });
            }
        }
    };
    if outcome == Outcome::Unchanged {
        let after = before.clone().unwrap_or_default();
        return Ok(Change {
            target: target.clone(),
            key: key.into(),
            before,
            after,
            outcome,
        });
    }
    doc.set(&target.container, key, &value)
        .map_err(|source| ClientError::Structure {
            file: target.file.clone(),
            source,
        })?;
    Ok(Change {
        target: target.clone(),
        key: key.into(),
        before,
        after: doc.text(),
        outcome,
    })
}

/// Plan removing an entry named by key, or by the qualified server it launches.
pub fn plan_uninstall(target: &Target, key_or_server: &str) -> Result<Change, ClientError> {
    let (before, mut doc) = read_doc(target)?;
    let key = if key_or_server.contains('/') {
        doc.entries(&target.container)
            .into_iter()
            .find(|(_, v)| {
                shape::parse(target.client.shape, v)
                    .is_some_and(|e| e.agx_server() == Some(key_or_server))
            })
            .map(|(k, _)| k)
    } else {
        doc.get(&target.container, key_or_server)
            .map(|_| key_or_server.to_string())
    };
    let Some(key) = key else {
        return Ok(Change {
            target: target.clone(),
            key: key_or_server.into(),
            after: before.clone().unwrap_or_default(),
            before,
            outcome: Outcome::NotFound,
        });
    };
    let is_agx = doc
        .get(&target.container, &key)
        .and_then(|v| shape::parse(target.client.shape, &v))
        .is_some_and(|e| e.agx_server().is_some());
    if !is_agx {
        return Err(ClientError::NotAgxEntry {
            file: target.file.clone(),
            key,
        });
    }
    doc.remove(&target.container, &key)
        .map_err(|source| ClientError::Structure {
            file: target.file.clone(),
            source,
        })?;
    Ok(Change {
        target: target.clone(),
        key,
        before,
        after: doc.text(),
        outcome: Outcome::Removed,
    })
}

/// The agx entries of a file's container: (key, qualified server, entry).
pub fn agx_entries(target: &Target) -> Result<Vec<(String, String, ServerEntry)>, ClientError> {
    Ok(entries_by_owner(target)?.0)
}

/// The entries of `target`'s file: those that run `agx serve` (key, server, entry), and the
/// keys of the others (the user's own servers, another tool's).
pub fn entries_by_owner(target: &Target) -> Result<AgxAndOther, ClientError> {
    let (_, doc) = read_doc(target)?;
    let mut agx = Vec::new();
    let mut other = Vec::new();
    for (key, value) in doc.entries(&target.container) {
        let entry = shape::parse(target.client.shape, &value);
        match entry
            .as_ref()
            .and_then(|e| e.agx_server().map(str::to_string))
        {
            Some(server) => agx.push((key, server, entry.expect("parsed"))),
            None => other.push(key),
        }
    }
    Ok((agx, other))
}

/// What [`entries_by_owner`] gives: agx's entries, and the keys of the others.
pub type AgxAndOther = (Vec<(String, String, ServerEntry)>, Vec<String>);
