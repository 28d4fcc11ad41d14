//! Which client entries `agx sync` wrote for a project on this machine, so that a later sync
//! removes exactly those (an entry that leaves agx.toml or agx.local.toml, or a client that
//! leaves the list) and never a hand-written one. Kept under agx's home, one file per project
//! folder: `agx.local.toml` makes the set personal, so it cannot live in the committed lock.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ProjectError;
use agx_core::paths::AgxPaths;

/// One entry written by sync: the client, its file, and the key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct WrittenEntry {
    pub client: String,
    pub file: PathBuf,
    pub key: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    project: PathBuf,
    #[serde(default, rename = "entry")]
    entries: BTreeSet<WrittenEntry>,
}

/// The entries sync wrote for one project.
#[derive(Debug)]
pub struct SyncState {
    path: PathBuf,
    project: PathBuf,
    pub entries: BTreeSet<WrittenEntry>,
}

impl SyncState {
    /// `projects-v1/<hash of the folder>.toml` under agx's home.
    fn path(paths: &AgxPaths, project: &Path) -> PathBuf {
        let digest = Sha256::digest(project.as_os_str().as_encoded_bytes());
        paths
            .home
            .join("projects-v1")
            .join(format!("{}.toml", &hex::encode(digest)[..16]))
    }

    /// The state of `project` (empty when sync never ran there). A file that does not parse
    /// is treated as empty: it only narrows what sync may remove.
    pub fn load(paths: &AgxPaths, project: &Path) -> SyncState {
        let path = Self::path(paths, project);
        let entries = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| toml::from_str::<StateFile>(&t).ok())
            .filter(|s| s.project == project)
            .map(|s| s.entries)
            .unwrap_or_default();
        SyncState {
            path,
            project: project.to_path_buf(),
            entries,
        }
    }

    /// Write the state back (nothing when it did not change).
    pub fn save(&self, before: &BTreeSet<WrittenEntry>) -> Result<(), ProjectError> {
        if &self.entries == before {
            return Ok(());
        }
        let text = toml::to_string(&StateFile {
            project: self.project.clone(),
            entries: self.entries.clone(),
        })
        .expect("sync state serializes");
        agx_core::atomic::write_file(&self.path, text.as_bytes(), None).map_err(|source| {
            ProjectError::Write {
                path: self.path.clone(),
                source,
            }
        })
    }
}
