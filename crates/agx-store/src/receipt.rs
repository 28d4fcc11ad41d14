//! Receipts: `receipts-v1/<publisher>/<name>.toml`, one per installed package, written last
//! by an install (temp file + rename) so that a receipt always names a complete version.
//! A receipt carries everything `list` shows, so listing never reads definition files.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::StoreError;
use agx_core::name::PackageName;
use agx_model::manifest::ExtensionSummary;

/// Where an installed package came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    /// A registry, by its source (URL or path).
    Registry {
        registry: String,
        /// For a TUF-signed source: `tuf: NAME, root vN`, what the index and archive were
        /// verified against. Absent: the source is unsigned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        verified: Option<String>,
    },
    /// A package folder or tarball on this machine, by its absolute path.
    Local { path: String },
    /// An npm or PyPI package provisioned at an exact version.
    Ecosystem {
        /// The exact spec, `npm:@scope/x@1.2.3` or `pypi:name==1.2.3`.
        spec: String,
        /// npm's `integrity` of the package, or `name==version sha256:HEX` of each wheel.
        #[serde(default)]
        integrity: Vec<String>,
        /// The MCP registry entry it came from: registry, server.json name and version,
        /// and what was chosen of it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entry: Option<EntryOrigin>,
        /// The registry npm or pip fetched it from (`https://registry.npmjs.org/`), never
        /// with a credential; absent where the ecosystem does not say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        served_by: Option<String>,
    },
    /// A Claude Code plugin of a marketplace (`agx install PLUGIN@SOURCE`).
    Plugin {
        /// `PLUGIN@SOURCE` as asked.
        reference: String,
        /// The marketplace's URL or folder.
        marketplace: String,
        /// Where the plugin's files came from (`./plugins/x`, `github:owner/repo@sha`, …).
        location: String,
        /// `git:<commit>`, or `sha256:<hex>` of the archive or of the files copied.
        revision: String,
    },
}

impl Source {
    pub fn is_registry(&self) -> bool {
        matches!(self, Source::Registry { .. })
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Registry {
                registry,
                verified: Some(verified),
            } => write!(f, "registry {registry}, verified ({verified})"),
            Source::Registry {
                registry,
                verified: None,
            } => write!(f, "registry {registry}, unsigned"),
            Source::Local { path } => write!(f, "local {path}"),
            Source::Ecosystem { spec, .. } => f.write_str(spec),
            Source::Plugin {
                reference,
                revision,
                ..
            } => write!(f, "plugin {reference} ({revision})"),
        }
    }
}

/// The record of one installed package.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Receipt {
    pub name: PackageName,
    pub version: semver::Version,
    /// Lowercase hex sha256 of the archive the files came from.
    pub sha256: String,
    /// `sha256:HEX` of the installed files as they were put in place (the package's own,
    /// not agx's markers: `agx_model::skills::tree_hash` over the folder without
    /// [`crate::AGX_FILES`]), which `agx verify` checks; absent in older receipts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<String>,
    /// The requirement the user asked for (`*` when none); for a dependency, the requirement
    /// of the package that pulled it in.
    pub requested: semver::VersionReq,
    /// True when the user asked for this package; false when it came in as a dependency
    /// (such packages are removed with the last package that needs them).
    pub explicit: bool,
    /// Install time, RFC 3339 in UTC.
    pub installed_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The codes of the poisoning scan's high findings the package had when installed, which
    /// the install was told to accept (`--accept-finding`); `agx serve` shows the items they
    /// are about instead of hiding them (docs/security.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_findings: Vec<String>,
    /// The package's `[dependencies]`, so that uninstall knows who needs whom.
    #[serde(default)]
    pub dependencies: BTreeMap<PackageName, semver::VersionReq>,
    pub source: Source,
    /// Who built it, for a registry package (docs/security.md, "Provenance"); absent for
    /// other sources, which agx does not check yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<crate::provenance::Provenance>,
    /// What the package contributes (servers, tools, prompts), as shown by `list`.
    #[serde(default)]
    pub extension: ExtensionSummary,
}

/// The receipt fields that locate an installed package's folder.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReceiptHeader {
    pub name: PackageName,
    pub version: semver::Version,
    /// See [`Receipt::accepted_findings`]: `agx serve` reads it from here.
    #[serde(default)]
    pub accepted_findings: Vec<String>,
}

impl ReceiptHeader {
    /// Read only the receipt's root keys. A receipt lists every tool and prompt of its
    /// package, and `agx serve` reads one per package before it can answer, so it parses the
    /// text before the first table header. Cutting there cannot change a root key's value:
    /// a cut inside a multi-line string or array leaves it unterminated, which fails to
    /// parse, and then the whole file is parsed.
    pub fn read(path: &Path) -> Result<ReceiptHeader, StoreError> {
        let text = read_text(path)?;
        toml::from_str(root_keys(&text))
            .or_else(|_| toml::from_str(&text))
            .map_err(|e| bad_receipt(path, &e))
    }
}

/// The text before the first line that opens a table (`[x]` or `[[x]]`).
fn root_keys(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with('[') {
            break;
        }
        end += line.len();
    }
    &text[..end]
}

/// The package a receipt path belongs to (`receipts-v1/<publisher>/<name>.toml`), whatever
/// the file holds: names the package of a damaged receipt.
pub(crate) fn name_of(path: &Path) -> Option<PackageName> {
    let name = path.file_stem()?.to_str()?;
    let publisher = path.parent()?.file_name()?.to_str()?;
    PackageName::from_path_segments(publisher, name).ok()
}

fn read_text(path: &Path) -> Result<String, StoreError> {
    Ok(fs_err::read_to_string(path)?)
}

fn bad_receipt(path: &Path, e: &toml::de::Error) -> StoreError {
    StoreError::BadReceipt {
        path: path.to_path_buf(),
        reason: e.message().to_string(),
    }
}

impl Receipt {
    pub fn read(path: &Path) -> Result<Receipt, StoreError> {
        toml::from_str(&read_text(path)?).map_err(|e| bad_receipt(path, &e))
    }

    /// Write atomically: a temp file in the same folder, fsynced, then renamed over.
    pub fn write(&self, path: &Path) -> Result<(), StoreError> {
        let text = toml::to_string(self).map_err(|e| StoreError::BadReceipt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        Ok(agx_core::atomic::write_file(path, text.as_bytes(), None)?)
    }
}

/// Now as RFC 3339 (`2026-01-31T12:00:00Z`).
pub fn now_rfc3339() -> String {
    rfc3339(agx_core::clock::unix_now())
}

/// Format seconds since the Unix epoch as an RFC 3339 UTC timestamp.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil-from-days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Where an installed package came from, kept in its receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryOrigin {
    /// The MCP registry's base URL.
    pub registry: String,
    /// The server.json `name` and `version`.
    pub server: String,
    pub version: String,
    /// What was chosen, as the exact spec installed: `npm:…@1.2.3`, `pypi:…==1.2.3`,
    /// `oci:<image>`, `mcpb:<url>`, or `remote:<kind> <url>`.
    pub chosen: String,
}

impl EntryOrigin {
    /// How a project lock names this entry: the registry API's URL of the exact version,
    /// with the kind chosen as its fragment
    /// (`https://r.example/v0.1/servers/io.github.user%2Fweather/versions/1.0.2#npm`).
    pub fn lock_source(&self) -> String {
        format!(
            "{}/v0.1/servers/{}/versions/{}#{}",
            self.registry.trim_end_matches('/'),
            self.server.replace('/', "%2F"),
            self.version,
            self.chosen.split([':', ' ']).next().unwrap_or_default()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_timestamps() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_767_225_599), "2025-12-31T23:59:59Z");
    }

    fn sample() -> Receipt {
        Receipt {
            name: PackageName::parse("acme/weather").unwrap(),
            version: semver::Version::new(1, 2, 0),
            sha256: "ab".repeat(32),
            files: None,
            requested: semver::VersionReq::parse("^1.2").unwrap(),
            explicit: true,
            installed_at: now_rfc3339(),
            description: Some("Weather".into()),
            accepted_findings: vec!["S001".into()],
            dependencies: [(
                PackageName::parse("acme/geo").unwrap(),
                semver::VersionReq::parse("^1.0").unwrap(),
            )]
            .into(),
            source: Source::Registry {
                registry: "http://127.0.0.1:1/".into(),
                verified: None,
            },
            provenance: None,
            extension: ExtensionSummary::default(),
        }
    }

    #[test]
    fn round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acme/weather.toml");
        let receipt = sample();
        receipt.write(&path).unwrap();
        assert_eq!(Receipt::read(&path).unwrap(), receipt);
    }

    #[test]
    fn header_reads_name_and_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acme/weather.toml");
        // A description whose lines look like table headers must not cut the root keys short.
        for description in [
            "Weather",
            "line one\n[not-a-table]\nname = \"evil/x\"\n[[x]]",
        ] {
            let receipt = Receipt {
                description: Some(description.into()),
                ..sample()
            };
            receipt.write(&path).unwrap();
            let header = ReceiptHeader::read(&path).unwrap();
            assert_eq!(header.name, receipt.name, "{description:?}");
            assert_eq!(header.version, receipt.version);
            // What `agx serve` reads to show items whose findings were accepted.
            assert_eq!(header.accepted_findings, ["S001"]);
        }
    }

    #[test]
    fn root_keys_stop_at_the_first_table() {
        assert_eq!(root_keys("a = 1\nb = 2\n[t]\nc = 3\n"), "a = 1\nb = 2\n");
        assert_eq!(root_keys("a = 1\n  [[t]]\n"), "a = 1\n");
        assert_eq!(root_keys("a = 1"), "a = 1");
    }

    #[test]
    fn the_path_of_a_receipt_names_its_package() {
        let name = |p: &str| name_of(Path::new(p)).map(|n| n.to_string());
        assert_eq!(name("r/acme/weather.toml").as_deref(), Some("acme/weather"));
        assert_eq!(name("r/_local/notes.toml").as_deref(), Some("notes"));
        assert_eq!(name("r/acme/Bad Name.toml"), None);
    }

    #[test]
    fn header_of_a_broken_receipt_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.toml");
        std::fs::write(&path, "name = \"acme/weather\"\n").unwrap();
        assert!(matches!(
            ReceiptHeader::read(&path),
            Err(StoreError::BadReceipt { .. })
        ));
    }
}
