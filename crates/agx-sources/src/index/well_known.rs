//! `.well-known` skills (docs/registry.md, "Skills from a web site"): a web site that
//! publishes Agent Skills at `/.well-known/agent-skills/index.json` (or the older
//! `/.well-known/skills/index.json`) is a source of kind `well-known`.
//!
//! The index lists each skill's `name`, `description`, `type` (`skill-md`: the `SKILL.md`
//! file; `archive`: a `.tar.gz` or `.zip` with the skill's files at its root), `url`
//! (resolved against the index's URL) and `digest` (`sha256:HEX`), which is checked before
//! anything is written. A skill is the package `PUBLISHER/NAME`, PUBLISHER the configured
//! source's name. Versions: a skill's `version`, else 0.0.0; when the site serves
//! `versions.json`, each listed version's immutable `v{VERSION}/index.json` too.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::Deserialize;

use super::cache::{CachedRemote, IndexCache};
use super::http::{Http, SinkError};
use super::{ArchiveForm, Catalog, CatalogEntry, HttpSettings, IndexEntry, IndexError};
use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;
use agx_model::manifest::{ExtensionSummary, SkillSummary};

/// The index schema agx reads.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// Where a site publishes its index, and where it used to.
pub const INDEX_PATHS: [&str; 2] = [
    "/.well-known/agent-skills/index.json",
    "/.well-known/skills/index.json",
];
/// The version a skill without one is installed as.
const UNVERSIONED: semver::Version = semver::Version::new(0, 0, 0);
/// The indexes (of each of [`INDEX_PATHS`]) and version list kept for `--offline`.
const INDEX_CACHES: [&str; 2] = ["well-known/index.json", "well-known/legacy-index.json"];
const VERSIONS_CACHE: &str = "well-known/versions.json";

/// What a skill's artifact is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Artifact {
    /// The skill's `SKILL.md`, alone.
    SkillMd,
    /// A `.tar.gz` or `.zip` with the skill's files at its root.
    Archive,
}

/// One skill an index lists, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSkill {
    pub name: String,
    pub description: String,
    pub artifact: Artifact,
    /// Absolute, resolved against the index's URL.
    pub url: String,
    /// Lowercase hex sha256 of the artifact.
    pub sha256: String,
    pub version: Option<semver::Version>,
}

/// An index, read: its skills and what was skipped, for the user.
#[derive(Debug, Clone, Default)]
pub struct SkillIndex {
    pub skills: Vec<ListedSkill>,
    pub skipped: Vec<String>,
}

#[derive(Deserialize)]
struct RawIndex {
    #[serde(rename = "$schema")]
    schema: Option<String>,
    skills: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct RawSkill {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(rename = "type")]
    kind: String,
    url: String,
    digest: Option<String>,
    /// `"sha256": "HEX"`, as some sites write the digest.
    sha256: Option<String>,
    version: Option<String>,
}

/// Read the index at `index_url`. An unknown or missing `$schema` stops it (the format may
/// mean something else); an entry that cannot be used (an unknown `type`, a bad name, URL
/// or digest) is skipped and named in `skipped`.
pub fn parse_index(bytes: &[u8], index_url: &str) -> Result<SkillIndex, IndexError> {
    let bad = |message: String| IndexError::Parse {
        location: index_url.to_string(),
        message,
    };
    let raw: RawIndex = serde_json::from_slice(bytes).map_err(|e| {
        bad(format!(
            "not a skills index (`$schema` and `skills[]`): {e}"
        ))
    })?;
    match raw.schema.as_deref() {
        Some(SCHEMA) => {}
        Some(other) => {
            return Err(bad(format!(
                "its `$schema` is `{other}`, which agx does not know (it reads {SCHEMA}); it stops rather than guess what the index means"
            )));
        }
        None => {
            return Err(bad(format!(
                "it has no `$schema` (agx reads {SCHEMA}); it stops rather than guess what the index means"
            )));
        }
    }
    let base = reqwest::Url::parse(index_url)
        .map_err(|e| bad(format!("the index's own URL does not parse: {e}")))?;
    let mut index = SkillIndex::default();
    let mut seen = std::collections::HashSet::new();
    for (i, value) in raw.skills.into_iter().enumerate() {
        match read_skill(value, &base) {
            Ok(skill) if !seen.insert(skill.name.clone()) => index
                .skipped
                .push(format!("skills[{i}] `{}`: listed twice", skill.name)),
            Ok(skill) => index.skills.push(skill),
            Err(why) => index.skipped.push(format!("skills[{i}]: {why}")),
        }
    }
    Ok(index)
}

fn read_skill(value: serde_json::Value, base: &reqwest::Url) -> Result<ListedSkill, String> {
    let raw: RawSkill = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let artifact = match raw.kind.as_str() {
        "skill-md" => Artifact::SkillMd,
        "archive" => Artifact::Archive,
        other => {
            return Err(format!(
                "`{}` has type `{other}`, which agx does not know (skill-md, archive)",
                raw.name
            ));
        }
    };
    if !agx_model::skills::rules::is_valid_name(&raw.name) {
        return Err(format!(
            "`{}` is not a skill name (lowercase letters, digits and single `-`)",
            raw.name
        ));
    }
    let url = base
        .join(&raw.url)
        .map_err(|e| format!("`{}`: its url `{}` does not parse: {e}", raw.name, raw.url))?;
    let plain_loopback = url.scheme() == "http" && super::source::is_loopback(&url);
    if url.scheme() != "https" && !plain_loopback {
        return Err(format!(
            "`{}`: its url `{url}` is not https (plain http only on this machine)",
            raw.name
        ));
    }
    let sha256 = match (&raw.digest, &raw.sha256) {
        (Some(digest), _) => digest.strip_prefix("sha256:").map(str::to_string),
        (None, Some(hex)) => Some(hex.strip_prefix("sha256:").unwrap_or(hex).to_string()),
        (None, None) => None,
    }
    .map(|hex| hex.to_ascii_lowercase())
    .filter(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
    .ok_or_else(|| {
        format!(
            "`{}` has no `digest` of the form sha256:<64 hex digits>, so what it serves cannot be checked",
            raw.name
        )
    })?;
    let version = match raw.version {
        Some(v) => Some(
            semver::Version::parse(v.trim_start_matches('v'))
                .map_err(|e| format!("`{}`: its version `{v}` is not semver: {e}", raw.name))?,
        ),
        None => None,
    };
    Ok(ListedSkill {
        name: raw.name,
        description: raw.description,
        artifact,
        url: url.to_string(),
        sha256,
        version,
    })
}

/// `versions.json`: the versions a site keeps immutable indexes of.
#[derive(Debug, Deserialize)]
struct Versions {
    versions: Vec<String>,
}

/// The index URL of a site whose base is `base` (`https://example.com`), as found by
/// [`find_index`].
fn index_url(base: &str, path: &str) -> String {
    format!("{}{path}", base.trim_end_matches('/'))
}

/// Which of [`INDEX_PATHS`] the site at `base` serves (a skills index), if any.
pub fn find_index(http: &Http, base: &str) -> Result<Option<String>, IndexError> {
    for path in INDEX_PATHS {
        let url = index_url(base, path);
        match http.fetch(&url, &Default::default()) {
            Ok(super::http::Fetched::Fresh { body, .. }) => {
                let looks_like_one = serde_json::from_slice::<RawIndex>(&body).is_ok();
                if looks_like_one {
                    return Ok(Some(url));
                }
            }
            Ok(_) | Err(IndexError::NotFound { .. } | IndexError::Status { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// A `.well-known` site opened as a package source.
pub struct WellKnown {
    base: String,
    /// The configured source's name: the publisher of its skills' packages. `None` for a
    /// location given directly (a lock's): any publisher the lock recorded is taken.
    publisher: Option<String>,
    offline: bool,
    remote: CachedRemote,
    /// The artifact of each version read, for downloads.
    read: Mutex<BTreeMap<(PackageName, semver::Version), ListedSkill>>,
    /// The current index, once read (a run reads it once, and warns once).
    current: std::sync::OnceLock<SkillIndex>,
    /// The versioned indexes, once read.
    snapshots: std::sync::OnceLock<Vec<(semver::Version, SkillIndex)>>,
}

impl std::fmt::Debug for WellKnown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WellKnown")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl WellKnown {
    pub fn new(
        base: &str,
        publisher: Option<&str>,
        offline: bool,
        paths: &AgxPaths,
    ) -> Result<Self, IndexError> {
        let http = Http::new(HttpSettings::from_env()?, super::http::Limits::from_env()?);
        // A site behind a sign-in gets the source's credential, as every web source does.
        http.offer_login(base, publisher, paths);
        let publisher = publisher
            .map(super::marketplace::publisher_of_source)
            .transpose()?;
        Ok(WellKnown {
            base: base.trim_end_matches('/').to_string(),
            publisher,
            offline,
            remote: CachedRemote::new(http, IndexCache::new(&paths.cache_dir, base)),
            read: Mutex::new(BTreeMap::new()),
            current: std::sync::OnceLock::new(),
            snapshots: std::sync::OnceLock::new(),
        })
    }

    pub fn source(&self) -> &str {
        &self.base
    }

    /// The site's current index, from the first of [`INDEX_PATHS`] it serves.
    pub fn index(&self) -> Result<SkillIndex, IndexError> {
        if let Some(index) = self.current.get() {
            return Ok(index.clone());
        }
        let index = self.read_index()?;
        Ok(self.current.get_or_init(|| index).clone())
    }

    fn read_index(&self) -> Result<SkillIndex, IndexError> {
        let mut first_error = None;
        for (path, cached) in INDEX_PATHS.iter().zip(INDEX_CACHES) {
            let url = index_url(&self.base, path);
            match self.remote.get(&url, cached, self.offline, parse_index) {
                Ok(Some(index)) => {
                    for skipped in &index.skipped {
                        tracing::warn!("{url}: skipped {skipped}");
                    }
                    return Ok(index);
                }
                Ok(None) => {}
                // A host that refuses a missing path (403, as object stores answer) may
                // still serve the other; what parses badly is the site's answer, final.
                Err(e @ (IndexError::Status { .. } | IndexError::Offline { .. })) => {
                    first_error.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        Err(first_error.unwrap_or_else(|| IndexError::NotFound {
            url: index_url(&self.base, INDEX_PATHS[0]),
        }))
    }

    /// The versioned indexes the site lists in `versions.json`, beside its index; read once.
    fn versioned(&self) -> Result<Vec<(semver::Version, SkillIndex)>, IndexError> {
        if let Some(snapshots) = self.snapshots.get() {
            return Ok(snapshots.clone());
        }
        let snapshots = self.read_versioned()?;
        Ok(self.snapshots.get_or_init(|| snapshots).clone())
    }

    fn read_versioned(&self) -> Result<Vec<(semver::Version, SkillIndex)>, IndexError> {
        let list_url = index_url(&self.base, "/.well-known/agent-skills/versions.json");
        let parse = |body: &[u8], location: &str| {
            serde_json::from_slice::<Versions>(body).map_err(|e| IndexError::Parse {
                location: location.to_string(),
                message: format!("not a version list (`versions`: [\"1.0.0\", …]): {e}"),
            })
        };
        let list = match self
            .remote
            .get(&list_url, VERSIONS_CACHE, self.offline, parse)
        {
            Ok(Some(list)) => list,
            Ok(None) | Err(IndexError::Offline { .. }) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut indexes = Vec::new();
        for listed in list.versions {
            let Ok(version) = semver::Version::parse(listed.trim_start_matches('v')) else {
                tracing::warn!("{list_url}: skipped `{listed}`, not a semantic version");
                continue;
            };
            let url = index_url(
                &self.base,
                &format!("/.well-known/agent-skills/v{version}/index.json"),
            );
            let cached = format!("well-known/v{version}/index.json");
            match self.remote.get(&url, &cached, self.offline, parse_index)? {
                Some(index) => indexes.push((version, index)),
                None => tracing::warn!("{url}: listed in versions.json but not served"),
            }
        }
        Ok(indexes)
    }

    /// Every version of the skill `name` the site serves, oldest first.
    pub fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
        let not_found = || IndexError::PackageNotFound {
            name: name.clone(),
            registry: self.base.clone(),
        };
        if self
            .publisher
            .as_deref()
            .is_some_and(|p| name.publisher() != Some(p))
        {
            return Err(not_found());
        }
        let mut found: BTreeMap<semver::Version, ListedSkill> = BTreeMap::new();
        for (version, index) in self.versioned()? {
            if let Some(skill) = index.skills.into_iter().find(|s| s.name == name.name()) {
                found.insert(version, skill);
            }
        }
        if let Some(skill) = self
            .index()?
            .skills
            .into_iter()
            .find(|s| s.name == name.name())
        {
            let version = skill.version.clone().unwrap_or(UNVERSIONED);
            // A versioned snapshot is immutable: the current index does not replace it.
            found.entry(version).or_insert(skill);
        }
        if found.is_empty() {
            return Err(not_found());
        }
        let mut read = self.read.lock().expect("versions read");
        Ok(found
            .into_iter()
            .map(|(version, skill)| {
                let entry = entry_of(name, &version, &skill);
                read.insert((name.clone(), version), skill);
                entry
            })
            .collect())
    }

    /// Every skill of the current index, as `PUBLISHER/NAME` at its version.
    pub fn catalog(&self) -> Result<Catalog, IndexError> {
        let publisher = match &self.publisher {
            Some(publisher) => publisher.clone(),
            None => publisher_of_location(&self.base)?,
        };
        let packages = self
            .index()?
            .skills
            .into_iter()
            .filter_map(|skill| {
                let name = PackageName::parse(&format!("{publisher}/{}", skill.name)).ok()?;
                let version = skill.version.clone().unwrap_or(UNVERSIONED);
                Some(CatalogEntry {
                    description: Some(skill.description.clone()),
                    extension: summary(&skill),
                    name,
                    version,
                })
            })
            .collect();
        Ok(Catalog { v: 1, packages })
    }

    /// The URL of a version's artifact, when [`Self::versions`] read it.
    pub fn artifact_location(&self, entry: &IndexEntry) -> String {
        self.listed(entry)
            .map_or_else(|| self.base.clone(), |skill| skill.url)
    }

    fn listed(&self, entry: &IndexEntry) -> Option<ListedSkill> {
        self.read
            .lock()
            .expect("versions read")
            .get(&(entry.name.clone(), entry.vers.clone()))
            .cloned()
    }

    /// How the artifact of a version holds the skill.
    pub fn archive_form(&self, entry: &IndexEntry) -> ArchiveForm {
        match self.listed(entry).map(|s| s.artifact) {
            Some(Artifact::SkillMd) => ArchiveForm::SkillFile,
            _ => ArchiveForm::Skill,
        }
    }

    /// Download a version's artifact, checked against the index's digest as it streams.
    pub fn download(
        &self,
        entry: &IndexEntry,
        copy: &mut dyn FnMut(&mut dyn std::io::Read, &str) -> Result<(), SinkError>,
    ) -> Result<(), IndexError> {
        let Some(skill) = self.listed(entry) else {
            return Err(IndexError::PackageNotFound {
                name: entry.name.clone(),
                registry: self.base.clone(),
            });
        };
        if self.offline {
            return Err(IndexError::Offline { url: skill.url });
        }
        let url = skill.url.clone();
        self.remote
            .http
            .download_unsized(&url, |body| copy(body, &url))
    }
}

/// The publisher of a site given by its location: its host's first label, kebab-cased
/// (`https://docs.example.com` → `docs`).
fn publisher_of_location(base: &str) -> Result<String, IndexError> {
    let host = reqwest::Url::parse(base)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default();
    let label = host.split('.').next().unwrap_or_default();
    super::marketplace::publisher_of_source(label)
}

fn summary(skill: &ListedSkill) -> ExtensionSummary {
    ExtensionSummary {
        skills: vec![SkillSummary {
            name: skill.name.clone(),
            description: skill.description.clone(),
        }],
        ..ExtensionSummary::default()
    }
}

fn entry_of(name: &PackageName, version: &semver::Version, skill: &ListedSkill) -> IndexEntry {
    IndexEntry {
        v: 1,
        name: name.clone(),
        vers: version.clone(),
        cksum: skill.sha256.clone(),
        // Not announced: the download is capped instead (`registry::MAX_UNSIZED`).
        size: 0,
        deps: BTreeMap::new(),
        yanked: false,
        agx: None,
        description: Some(skill.description.clone()),
        extension: summary(skill),
        provenance: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://example.com/.well-known/agent-skills/index.json";

    fn index(skills: &str) -> String {
        format!(r#"{{"$schema": "{SCHEMA}", "skills": [{skills}]}}"#)
    }

    #[test]
    fn entries_resolve_against_the_index_and_both_digest_spellings_are_read() {
        let hex = "AB".repeat(32);
        let text = index(&format!(
            r#"{{"name": "review", "description": "Review", "type": "skill-md",
                 "url": "review/SKILL.md", "digest": "sha256:{hex}", "version": "1.2.0"}},
               {{"name": "deploy", "description": "Deploy", "type": "archive",
                 "url": "/files/deploy.tar.gz", "sha256": "{hex}", "extra": true}},
               {{"name": "cdn", "description": "CDN", "type": "archive",
                 "url": "https://cdn.example.net/cdn.zip", "digest": "sha256:{hex}"}}"#
        ));
        let read = parse_index(text.as_bytes(), URL).unwrap();
        assert!(read.skipped.is_empty(), "{:?}", read.skipped);
        let urls: Vec<&str> = read.skills.iter().map(|s| s.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://example.com/.well-known/agent-skills/review/SKILL.md",
                "https://example.com/files/deploy.tar.gz",
                "https://cdn.example.net/cdn.zip"
            ]
        );
        assert_eq!(read.skills[0].sha256, "ab".repeat(32));
        assert_eq!(read.skills[0].version, Some(semver::Version::new(1, 2, 0)));
        assert_eq!(read.skills[1].artifact, Artifact::Archive);
    }

    #[test]
    fn an_unknown_schema_stops_and_unusable_entries_are_skipped_by_name() {
        for text in [
            r#"{"skills": []}"#.to_string(),
            r#"{"$schema": "https://schemas.agentskills.io/discovery/9.0.0/schema.json", "skills": []}"#
                .to_string(),
        ] {
            let Err(IndexError::Parse { message, .. }) = parse_index(text.as_bytes(), URL) else {
                panic!("{text}")
            };
            assert!(message.contains(SCHEMA), "{message}");
        }
        let hex = "ab".repeat(32);
        let text = index(&format!(
            r#"{{"name": "movie", "description": "x", "type": "video", "url": "m", "digest": "sha256:{hex}"}},
               {{"name": "Bad Name", "description": "x", "type": "skill-md", "url": "b", "digest": "sha256:{hex}"}},
               {{"name": "nodigest", "description": "x", "type": "skill-md", "url": "n"}},
               {{"name": "short", "description": "x", "type": "skill-md", "url": "s", "digest": "sha256:abc"}},
               {{"name": "ftp", "description": "x", "type": "skill-md", "url": "ftp://x/y", "digest": "sha256:{hex}"}},
               {{"name": "plain", "description": "x", "type": "skill-md", "url": "http://cdn.example.net/p", "digest": "sha256:{hex}"}},
               {{"name": "ok", "description": "x", "type": "skill-md", "url": "o", "digest": "sha256:{hex}"}},
               {{"name": "ok", "description": "x", "type": "skill-md", "url": "o2", "digest": "sha256:{hex}"}}"#
        ));
        let read = parse_index(text.as_bytes(), URL).unwrap();
        assert_eq!(read.skills.len(), 1);
        let skipped = read.skipped.join("\n");
        for why in [
            "type `video`",
            "`Bad Name` is not a skill name",
            "`nodigest` has no `digest`",
            "`short` has no `digest`",
            "not https",
            "listed twice",
        ] {
            assert!(skipped.contains(why), "{why}: {skipped}");
        }
    }

    #[test]
    fn a_location_names_its_publisher_by_its_first_label() {
        assert_eq!(
            publisher_of_location("https://docs.example.com").unwrap(),
            "docs"
        );
    }
}
