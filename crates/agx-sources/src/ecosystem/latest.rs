//! The newest version of an installed npm or PyPI package, for `outdated` and `update`:
//! asked of the registry's JSON API through agx's HTTP layer and cache (conditional
//! requests; `--offline` answers from the cache); of a package installed from an MCP
//! registry entry, asked of that registry ([`newest_entry`]). Images and bundles installed
//! directly have no such source.
//! See docs/ecosystem.md, "Updates".

use super::entry_launch::entry_version;
use super::{Ecosystem, EcosystemError, EcosystemSpec, EntryOrigin, EntrySpec, to_semver};
use crate::index::IndexError;
use crate::index::cache::{CachedRemote, IndexCache};
use crate::index::mcp_registry::McpRegistry;
use agx_core::paths::AgxPaths;

/// The npm registry agx asks, unless `AGX_NPM_REGISTRY` names another (a mirror, a test
/// server).
const NPM_REGISTRY: &str = "https://registry.npmjs.org";
/// PyPI's JSON API, unless `AGX_PYPI_URL` names another (a mirror, a test server).
const PYPI: &str = "https://pypi.org/pypi";

/// What an installed ecosystem package can move to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Newest {
    /// The registry's newest version, and the exact spec that installs it.
    Version {
        version: semver::Version,
        spec: EcosystemSpec,
    },
    /// The newest version of the MCP registry entry it was installed from, and the spec
    /// that installs the entry at that version.
    Entry {
        version: semver::Version,
        spec: EntrySpec,
    },
    /// The kind has no source of newer versions (why, for a note).
    NoSource(&'static str),
}

/// The newest version of the entry `origin` names, asked of the MCP registry it was
/// installed from (`/v0.1/servers/{name}/versions/latest`, cached).
pub fn newest_entry(
    origin: &EntryOrigin,
    paths: &AgxPaths,
    offline: bool,
) -> Result<Newest, EcosystemError> {
    let failed = |e: IndexError| EcosystemError::Download {
        url: origin.registry.clone(),
        source: Box::new(e),
    };
    let registry = McpRegistry::new(&origin.registry, offline, paths).map_err(failed)?;
    let latest = match registry.server(&origin.server, None) {
        Ok(latest) => latest,
        Err(IndexError::ServerDeleted { .. }) => {
            return Ok(Newest::NoSource(
                "its MCP registry entry is deleted, so it has no newer version",
            ));
        }
        Err(e) => return Err(failed(e)),
    };
    let name = agx_core::name::PackageName::parse(&origin.server).map_err(|e| {
        EcosystemError::NotFound {
            spec: origin.server.clone(),
            detail: e.to_string(),
        }
    })?;
    Ok(Newest::Entry {
        version: entry_version(&origin.server, &latest.server.version)?,
        spec: EntrySpec {
            name,
            version: Some(latest.server.version),
        },
    })
}

/// The newest version of the package installed from `exact` (a receipt's spec:
/// `npm:@scope/x@1.2.3`, `pypi:name==1.2.3`, `oci:…`, `mcpb:…`).
pub fn newest(exact: &str, paths: &AgxPaths, offline: bool) -> Result<Newest, EcosystemError> {
    if exact.starts_with("mcpb:") {
        return Ok(Newest::NoSource(
            "a bundle has no registry of versions; install a newer .mcpb to update it",
        ));
    }
    let spec = match EcosystemSpec::parse(exact) {
        Some(Ok(spec)) => spec,
        _ => {
            return Err(EcosystemError::NotFound {
                spec: exact.to_string(),
                detail: "the receipt's source is not an ecosystem spec agx reads".into(),
            });
        }
    };
    let (base, url, version) = match spec.ecosystem {
        Ecosystem::Npm => {
            let base = std::env::var("AGX_NPM_REGISTRY")
                .ok()
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| NPM_REGISTRY.to_string());
            let base = base.trim_end_matches('/').to_string();
            // A scope's `/` is escaped in registry URLs (`@scope%2fname`).
            let url = format!("{base}/{}/latest", spec.native_name().replace('/', "%2f"));
            (
                base,
                url,
                npm_version as fn(&serde_json::Value) -> Option<String>,
            )
        }
        Ecosystem::Pypi => {
            let base = std::env::var("AGX_PYPI_URL")
                .ok()
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| PYPI.to_string());
            let base = base.trim_end_matches('/').to_string();
            let url = format!("{base}/{}/json", spec.native_name());
            (
                base,
                url,
                pypi_version as fn(&serde_json::Value) -> Option<String>,
            )
        }
        Ecosystem::Oci => {
            return Ok(Newest::NoSource(
                "an image has no source of newer versions agx reads; install `oci:<image>:<tag>` again to move it",
            ));
        }
        Ecosystem::Mcpb(_) => unreachable!("bundles are answered above"),
    };
    let failed = |e: IndexError| EcosystemError::Download {
        url: url.clone(),
        source: Box::new(e),
    };
    let http = crate::index::Http::from_env().map_err(failed)?;
    let remote = CachedRemote::new(http, IndexCache::new(&paths.cache_dir, &base));
    let rel = format!(
        "ecosystem/{}.json",
        spec.native_name().replace(['/', '@'], "+")
    );
    let native = remote
        .get(&url, &rel, offline, |body, url| {
            let json: serde_json::Value =
                serde_json::from_slice(body).map_err(|e| IndexError::Parse {
                    location: url.to_string(),
                    message: e.to_string(),
                })?;
            version(&json).ok_or_else(|| IndexError::Parse {
                location: url.to_string(),
                message: "the answer names no version".into(),
            })
        })
        .map_err(failed)?
        .ok_or_else(|| EcosystemError::NotFound {
            spec: spec.to_string(),
            detail: format!("{url} does not know the package any more"),
        })?;
    let semver = to_semver(&spec, &native)?;
    let mut pinned = spec;
    pinned.version = Some(native);
    Ok(Newest::Version {
        version: semver,
        spec: pinned,
    })
}

/// npm's `/<name>/latest` document: the `latest` dist-tag's manifest.
fn npm_version(json: &serde_json::Value) -> Option<String> {
    json["version"].as_str().map(str::to_string)
}

/// PyPI's `/pypi/<name>/json`: `info.version` is the newest release that is not a
/// pre-release or yanked.
fn pypi_version(json: &serde_json::Value) -> Option<String> {
    json["info"]["version"].as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_and_images_have_no_source_of_versions() {
        let paths = AgxPaths::under(std::env::temp_dir().join("agx-latest-test"), false);
        assert!(matches!(
            newest("mcpb:/tmp/x.mcpb", &paths, true).unwrap(),
            Newest::NoSource(_)
        ));
        assert!(matches!(
            newest("oci:mcp/time@sha256:0000000000000000000000000000000000000000000000000000000000000000", &paths, true).unwrap(),
            Newest::NoSource(_)
        ));
    }

    #[test]
    fn versions_are_read_from_each_registrys_answer() {
        let npm = serde_json::json!({"name": "x", "version": "2025.9.25"});
        assert_eq!(npm_version(&npm).as_deref(), Some("2025.9.25"));
        let pypi = serde_json::json!({"info": {"version": "2026.10.19"}, "releases": {}});
        assert_eq!(pypi_version(&pypi).as_deref(), Some("2026.10.19"));
    }
}
