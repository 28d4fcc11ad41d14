//! Registry access: sources, HTTP caching, catalog (docs/registry.md).
//!
//! - [`source`] picks the registry (`--registry`, `AGX_REGISTRY`, the config file);
//! - [`http`] talks to web registries (timeouts, retries, conditional requests);
//! - [`cache`] keeps index files of web registries for `--offline` and fallback;
//! - [`registry`] reads a registry of either kind and downloads verified tarballs;
//! - [`publish`] writes folder registries (`agx registry init|add|yank`);
//! - [`search`] ranks catalog entries for `agx search`;
//! - [`mcp_registry`] reads MCP registries (`server.json` documents; docs/ecosystem.md);
//! - [`marketplace`] reads Claude-format plugin marketplaces (docs/plugins.md);
//! - [`oci`] reads and pushes packages in OCI registries (docs/organizations.md).

pub mod cache;
pub mod credentials;
pub mod dialect;
mod error;
mod http;
pub mod marketplace;
pub mod marketplace_files;
pub mod mcp_registry;
pub mod oci;
pub mod publish;
mod registry;
pub mod search;
pub mod signed;
pub mod signing;
pub mod source;
mod tls;
mod tuf_fetch;
pub mod well_known;

pub use error::IndexError;
pub use http::Settings as HttpSettings;
pub use http::{Fetched, Http, Limits as HttpLimits, SinkError};
pub use registry::{
    AnyRegistry, Opened, Registry, SourceFiles, add_source, detect, kind_of, known_kind, open,
    open_any, open_each, open_every, parse_version_lines,
};
pub use source::{Source, SourceKind};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use agx_core::name::PackageName;
use agx_model::manifest::ExtensionSummary;

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
    /// Where the archive's provenance is published (docs/registry.md, "Provenance").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<ProvenanceRef>,
}

/// An index entry's `provenance`: the archive's Sigstore bundle, published beside it as
/// `dl/<publisher>/<name>/<version>.tar.gz.sigstore.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvenanceRef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigstore: Option<FileRef>,
}

/// A published file's size and lowercase hex sha256, which its download must match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    pub sha256: String,
    pub size: u64,
}

/// How a version's archive holds its files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ArchiveForm {
    /// An agx package: one top folder, with `agx.toml`.
    #[default]
    Package,
    /// One skill's files at the archive's root, a `.tar.gz` or (from a `.well-known` site)
    /// a `.zip`: a ToolHive skill artifact, or a `.well-known` skill of type `archive`.
    /// Installed as a generated package of that skill.
    Skill,
    /// A skill's `SKILL.md`, alone (a `.well-known` skill of type `skill-md`).
    SkillFile,
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
