//! Registry access: sources, HTTP caching, catalog (DESIGN §3).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::manifest::ExtensionSummary;
use crate::name::PackageName;

/// One line of `packages/<publisher>/<name>.json`: one published version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexEntry {
    pub v: u32,
    pub name: PackageName,
    pub vers: semver::Version,
    /// Lowercase hex sha256 of the tarball.
    pub cksum: String,
    pub size: u64,
    #[serde(default)]
    pub deps: BTreeMap<PackageName, semver::VersionReq>,
    #[serde(default)]
    pub yanked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agx: Option<semver::VersionReq>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub extension: ExtensionSummary,
}

/// `catalog.json`: every package with its newest version.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub v: u32,
    pub packages: Vec<CatalogEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogEntry {
    pub name: PackageName,
    /// Newest non-yanked version.
    pub version: semver::Version,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub extension: ExtensionSummary,
}

/// `config.json` at the registry root.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegistryConfig {
    pub v: u32,
    pub name: String,
}

/// Errors reading a registry. Every variant names the URL or path involved.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{0}")]
    Unimplemented(&'static str),
}

impl crate::error::Hint for IndexError {}

/// A registry opened from a source (URL, `file://` or a folder), with its cache.
/// `index::open` picks the source from `--registry`, `AGX_REGISTRY` or the config file.
#[derive(Debug)]
pub struct Registry {
    _private: (),
}

impl Registry {
    /// Human-readable source (URL or path), for messages and receipts.
    pub fn source(&self) -> &str {
        ""
    }

    /// Every published version of a package (yanked ones included), oldest first.
    pub fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
        let _ = name;
        Err(IndexError::Unimplemented("versions"))
    }

    /// The catalog of every package.
    pub fn catalog(&self) -> Result<Catalog, IndexError> {
        Err(IndexError::Unimplemented("catalog"))
    }

    /// Download a version's tarball into `dest`, hashing while writing; fails on a size or
    /// sha256 mismatch. `progress` is called with the bytes received so far.
    pub fn download(
        &self,
        entry: &IndexEntry,
        dest: &std::path::Path,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), IndexError> {
        let _ = (entry, dest, progress);
        Err(IndexError::Unimplemented("download"))
    }
}
