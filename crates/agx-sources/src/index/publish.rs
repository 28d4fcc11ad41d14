//! Writing folder registries: `agx registry init|add|yank`.
//!
//! Every file is replaced atomically (temp file + rename) in an order that keeps the
//! registry readable at each step: the tarball first, then the package's version file, then
//! `catalog.json`.

// Errors are rare and carry the details people need (chains, paths, hashes).
#![allow(clippy::result_large_err)]

use std::path::{Path, PathBuf};

use semver::Version;

use super::registry::{bundle_path, parse_version_lines, tarball_path};
use super::{Catalog, CatalogEntry, IndexEntry, IndexError, RegistryConfig};
use agx_archive::ArchiveError;
use agx_core::file_lock::{FileLock, LockMode};
use agx_core::io_context::at;
use agx_core::name::PackageName;
use agx_model::manifest::{LoadError, Package};
use sha2::Digest;

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Index(#[from] IndexError),

    #[error("{} is already an agx registry", path.display())]
    AlreadyRegistry { path: PathBuf },

    #[error("invalid registry name `{name}`: {reason}")]
    BadName { name: String, reason: &'static str },

    #[error("{} does not exist", path.display())]
    MissingPackage { path: PathBuf },

    #[error(transparent)]
    Load(#[from] LoadError),

    #[error("cannot publish {}", path.display())]
    Archive {
        path: PathBuf,
        #[source]
        source: ArchiveError,
    },

    #[error("cannot publish {name}: registry packages need a publisher (`publisher/{name}`)")]
    NoPublisher { name: PackageName },

    #[error("cannot publish {name} {version}: [package] has no description")]
    NoDescription { name: PackageName, version: Version },

    #[error(
        "{name} {version} is already published in {} with different content (sha256 {existing}, new {new})",
        registry.display()
    )]
    VersionExists {
        name: PackageName,
        version: Version,
        registry: PathBuf,
        existing: String,
        new: String,
    },

    #[error("{name} {version} is not published in {}", registry.display())]
    VersionNotFound {
        name: PackageName,
        version: Version,
        registry: PathBuf,
    },

    #[error("{} is not a skill folder: it has no SKILL.md at its root", path.display())]
    NotASkill { path: PathBuf },

    #[error("{} says no version to publish the skill as", path.display())]
    NoSkillVersion { path: PathBuf },

    #[error("the skill's version `{version}` (from {from}) is not a semantic version")]
    BadSkillVersion { version: String, from: String },

    #[error("cannot name the skill's package `{publisher}/{skill}`: {source}")]
    SkillPackageName {
        publisher: String,
        skill: String,
        source: agx_core::name::NameError,
    },

    #[error(transparent)]
    Wrap(#[from] agx_model::skills::wrap::WrapError),

    /// `--bundle` does not verify against the archive it is published with.
    #[error("cannot publish {name} {version} with the bundle {}: {error}", bundle.display())]
    Bundle {
        name: PackageName,
        version: Version,
        bundle: PathBuf,
        error: agx_provenance::ProvenanceError,
    },
}

impl From<std::io::Error> for PublishError {
    fn from(e: std::io::Error) -> Self {
        PublishError::Index(IndexError::Io(e))
    }
}

impl agx_core::error::Hint for PublishError {
    fn hint(&self) -> Option<String> {
        match self {
            PublishError::Index(e) => e.hint(),
            PublishError::AlreadyRegistry { .. } => {
                Some("publish into it with `agx registry add <REGISTRY_DIR> <PACKAGE_DIR>`".into())
            }
            PublishError::BadName { .. } => {
                Some("use letters, digits, `-`, `_` and `.` (e.g. `--name team-registry`)".into())
            }
            PublishError::MissingPackage { .. } => {
                Some("give a package folder (with agx.toml) or a .tar.gz made by `agx pack`".into())
            }
            PublishError::Load(e) => e.hint(),
            PublishError::Archive { source, .. } => source.hint(),
            PublishError::NoPublisher { name } => Some(format!(
                "set `name = \"<publisher>/{name}\"` under [package] in agx.toml"
            )),
            PublishError::NoDescription { .. } => Some(
                "add `description = \"…\"` under [package] in agx.toml; search shows it".into(),
            ),
            PublishError::VersionExists { .. } => Some(
                "published versions are immutable: raise `version` in agx.toml and publish again"
                    .into(),
            ),
            PublishError::VersionNotFound { name, .. } => Some(format!(
                "see the published versions in packages/{}.json",
                name
            )),
            PublishError::NotASkill { .. } => Some(
                "give the folder that holds SKILL.md, or leave out --skill to publish an agx package"
                    .into(),
            ),
            PublishError::NoSkillVersion { .. } => Some(
                "pass --skill-version 1.0.0, or add `version: 1.0.0` to SKILL.md's front matter".into(),
            ),
            PublishError::BadSkillVersion { .. } => {
                Some("write it as MAJOR.MINOR.PATCH, e.g. 1.0.0".into())
            }
            PublishError::SkillPackageName { .. } => Some(
                "choose another --publisher: lowercase letters, digits and `-`".into(),
            ),
            PublishError::Wrap(e) => e.hint(),
            PublishError::Bundle {
                error: agx_provenance::ProvenanceError::Rejected { .. },
                ..
            } => Some(
                "give the bundle that was made for this archive (`cosign sign-blob --bundle` or the GitHub Actions steps in docs/registry.md); a bundle from another Sigstore instance needs its trusted root (--trusted-root FILE)".into(),
            ),
            PublishError::Bundle { error, .. } => error.hint(),
        }
    }
}

/// Create an empty folder registry (`config.json`, `catalog.json`, `packages/`, `dl/`).
/// The name defaults to the folder's name.
pub fn init(dir: &Path, name: Option<&str>) -> Result<String, PublishError> {
    if dir.join("config.json").exists() {
        return Err(PublishError::AlreadyRegistry {
            path: dir.to_path_buf(),
        });
    }
    let name = match name {
        Some(n) => n.to_string(),
        None => std::path::absolute(dir)
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "registry".into()),
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(PublishError::BadName {
            name,
            reason: "it must be non-empty and use only letters, digits, `-`, `_` and `.`",
        });
    }
    for sub in ["packages", "dl"] {
        let path = dir.join(sub);
        fs_err::create_dir_all(&path).map_err(IndexError::from)?;
    }
    agx_core::atomic::write_file(
        &dir.join("catalog.json"),
        &catalog_json(&Catalog {
            v: 1,
            packages: vec![],
        }),
        None,
    )?;
    let config = RegistryConfig {
        v: 1,
        name: name.clone(),
    };
    let mut bytes = serde_json::to_vec(&config).expect("config serializes");
    bytes.push(b'\n');
    agx_core::atomic::write_file(&dir.join("config.json"), &bytes, None)?;
    Ok(name)
}

/// What `add` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Added {
    Published(IndexEntry),
    /// The same bytes were already published: nothing changed.
    Unchanged(IndexEntry),
}

/// A Sigstore bundle published with an archive (`agx registry add --bundle`).
#[derive(Debug, Clone)]
pub struct BundleToAttach<'a> {
    pub path: &'a Path,
    /// The trusted root it is checked against before publishing (`None`: public good).
    pub trusted_root: Option<&'a Path>,
}

/// What publishing proved about a bundle: the archive's signer.
pub type Attached = Option<agx_provenance::Signer>;

/// Publish a package folder (packed first) or a tarball made by `agx pack`, with its
/// Sigstore bundle when given: the bundle must verify against the archive, and is published
/// beside it. A version already published with the same bytes gets the bundle added.
pub fn add(
    registry: &Path,
    package: &Path,
    bundle: Option<BundleToAttach<'_>>,
) -> Result<(Added, Attached), PublishError> {
    let _lock = lock_registry(registry)?;
    let work = tempfile::tempdir_in(registry).map_err(at("create a temp folder in", registry))?;
    let (loaded, tarball) = archive_of(package, work.path())?;
    let mut entry = index_entry(&loaded, &tarball)?;
    let attached = match &bundle {
        Some(bundle) => Some(check_bundle(&entry, &tarball, bundle)?),
        None => None,
    };

    let versions_path = versions_file(registry, &entry.name);
    let mut versions = read_versions(&versions_path)?;
    let dest = registry.join(tarball_path(&entry.name, &entry.vers));
    if let Some(existing) = versions.iter().find(|e| e.vers == entry.vers) {
        if !existing.cksum.eq_ignore_ascii_case(&entry.cksum) {
            return Err(PublishError::VersionExists {
                name: entry.name,
                version: entry.vers,
                registry: registry.to_path_buf(),
                existing: existing.cksum.clone(),
                new: entry.cksum,
            });
        }
        let archive_in_place =
            agx_archive::sha256_file(&dest).ok().as_deref() == Some(entry.cksum.as_str());
        let same_bundle = attached.is_none()
            || attached.as_ref().map(|checked| &checked.file)
                == existing
                    .provenance
                    .as_ref()
                    .and_then(|p| p.sigstore.as_ref());
        if archive_in_place && same_bundle {
            return Ok((
                Added::Unchanged(existing.clone()),
                attached.map(|checked| checked.signer),
            ));
        }
        // Published before with a bundle, and given none now: keep it.
        if attached.is_none() {
            entry.provenance = existing.provenance.clone();
        }
    }
    let signer = match attached {
        Some(checked) => {
            let bundle_dest = registry.join(bundle_path(&entry.name, &entry.vers));
            if let Some(dir) = bundle_dest.parent() {
                std::fs::create_dir_all(dir).map_err(at("create folder", dir))?;
            }
            agx_core::atomic::write_file(&bundle_dest, &checked.bytes, None)?;
            entry.provenance = Some(super::ProvenanceRef {
                sigstore: Some(checked.file),
            });
            Some(checked.signer)
        }
        None => None,
    };

    // The tarball first: a crash before the index lines leaves an unlisted file only.
    let dl_dir = dest.parent().expect("dl path has a folder");
    std::fs::create_dir_all(dl_dir).map_err(at("create folder", dl_dir))?;
    let staged = dl_dir.join(format!(".{}.tmp", entry.vers));
    // Copied into a new file rather than with `fs::copy`, which would carry a private
    // tarball's 0600 over: a registry's files follow the umask, so a web server can read them.
    let mut from = std::fs::File::open(&tarball).map_err(at("read", &tarball))?;
    let mut to = std::fs::File::create(&staged).map_err(at("write", &staged))?;
    std::io::copy(&mut from, &mut to).map_err(at("write", &staged))?;
    to.sync_all().map_err(at("write", &staged))?;
    std::fs::rename(&staged, &dest).map_err(at("write", &dest))?;

    versions.retain(|e| e.vers != entry.vers);
    versions.push(entry.clone());
    write_versions(&versions_path, &mut versions)?;
    update_catalog(registry, &entry.name, &versions)?;
    Ok((Added::Published(entry), signer))
}

/// Verify `bundle` against the archive about to be published: a bundle that would refuse
/// every install is refused here, before anything is written.
fn check_bundle(
    entry: &IndexEntry,
    tarball: &Path,
    bundle: &BundleToAttach<'_>,
) -> Result<CheckedBundle, PublishError> {
    use agx_provenance::{IdentityPolicy, SigstoreBundle, Subject, TrustRoot};
    let refused = |error| PublishError::Bundle {
        name: entry.name.clone(),
        version: entry.vers.clone(),
        bundle: bundle.path.to_path_buf(),
        error,
    };
    let (parsed, bytes) = SigstoreBundle::read_with_bytes(bundle.path).map_err(refused)?;
    let root = TrustRoot::configured_or_public_good(bundle.trusted_root).map_err(refused)?;
    let archive = fs_err::read(tarball)?;
    let signer = root
        .verify(Subject::Bytes(&archive), &parsed, &IdentityPolicy::any())
        .map_err(refused)?;
    let file = super::FileRef {
        sha256: hex::encode(sha2::Sha256::digest(&bytes)),
        size: bytes.len() as u64,
    };
    Ok(CheckedBundle {
        file,
        signer,
        bytes,
    })
}

/// A bundle that verified against the archive it is published with, read once.
struct CheckedBundle {
    file: super::FileRef,
    signer: agx_provenance::Signer,
    bytes: Vec<u8>,
}

/// The package a folder (packed into `work`) or a tarball made by `agx pack` holds, and its
/// archive.
fn archive_of(package: &Path, work: &Path) -> Result<(Package, PathBuf), PublishError> {
    let archive_error = |source| PublishError::Archive {
        path: package.to_path_buf(),
        source,
    };
    if package.is_dir() {
        let loaded = agx_model::manifest::load_package(package)?;
        let packed = agx_archive::pack_dir(&loaded.dir, loaded.name(), loaded.version(), work)
            .map_err(archive_error)?;
        Ok((loaded, packed.path))
    } else if package.is_file() {
        // Read the tarball's agx.toml (and definition files) by unpacking it safely.
        let unpacked = work.join("unpacked");
        agx_archive::unpack(package, &unpacked).map_err(archive_error)?;
        let mut loaded = agx_model::manifest::load_package(&unpacked)?;
        loaded.dir = package.to_path_buf();
        Ok((loaded, package.to_path_buf()))
    } else {
        Err(PublishError::MissingPackage {
            path: package.to_path_buf(),
        })
    }
}

/// Publish a package folder (packed first) or a tarball made by `agx pack` to an OCI
/// registry: pushed as an artifact tagged with its version, unless the tag already holds the
/// same archive. A tag holding another archive is refused, and nothing is pushed.
pub fn push(
    registry: &super::oci::OciRegistry,
    package: &Path,
) -> Result<(IndexEntry, super::oci::Pushed), PublishError> {
    let work = tempfile::tempdir().map_err(at("create a temp folder in", std::env::temp_dir()))?;
    let (loaded, tarball) = archive_of(package, work.path())?;
    let entry = index_entry(&loaded, &tarball)?;
    let source = loaded.manifest.package.repository.as_deref();
    let pushed = registry.push(&entry, &tarball, source)?;
    Ok((entry, pushed))
}

/// Publish a skill folder (`SKILL.md` at its root) to an OCI registry as ToolHive's skill
/// artifact: the package `PUBLISHER/SKILL` at `version`, or else the version its front
/// matter gives (`version`, then `metadata.version`). The skill is validated first; a tag
/// holding another skill is refused, and nothing is pushed.
pub fn push_skill(
    registry: &super::oci::OciRegistry,
    dir: &Path,
    publisher: &str,
    version: Option<&Version>,
) -> Result<(IndexEntry, super::oci::Pushed), PublishError> {
    use agx_model::skills::{front_matter, wrap};
    if !dir.is_dir() {
        return Err(PublishError::MissingPackage {
            path: dir.to_path_buf(),
        });
    }
    if wrap::detect(dir) != Some(wrap::SkillFolder::One) {
        return Err(PublishError::NotASkill {
            path: dir.to_path_buf(),
        });
    }
    let report = wrap::check(dir, &wrap::SkillFolder::One)?;
    let skill = match report.package.as_ref().and_then(|p| p.skills.first()) {
        Some(skill) if !report.has_errors() => skill.clone(),
        _ => {
            return Err(LoadError {
                dir: dir.to_path_buf(),
                findings: report.errors().cloned().collect(),
            }
            .into());
        }
    };
    let skill_file = dir.join(agx_model::skills::check::SKILL_FILE);
    let version = match version {
        Some(version) => version.clone(),
        None => {
            let text = fs_err::read_to_string(&skill_file).map_err(IndexError::from)?;
            let (said, from) = match front_matter::top_level(&text, "version") {
                Some(said) => (said, "`version`"),
                None => match skill.metadata.get("version") {
                    Some(said) => (said.clone(), "`metadata.version`"),
                    None => {
                        return Err(PublishError::NoSkillVersion { path: skill_file });
                    }
                },
            };
            Version::parse(said.trim().trim_start_matches('v')).map_err(|_| {
                PublishError::BadSkillVersion {
                    version: said.clone(),
                    from: format!("{from} in {}", skill_file.display()),
                }
            })?
        }
    };
    let name = PackageName::parse(&format!("{publisher}/{}", skill.name)).map_err(|source| {
        PublishError::SkillPackageName {
            publisher: publisher.to_string(),
            skill: skill.name.clone(),
            source,
        }
    })?;
    let work = tempfile::tempdir().map_err(at("create a temp folder in", std::env::temp_dir()))?;
    let flat = agx_archive::pack_flat(dir, work.path(), super::oci::skill::LAYER_FILE).map_err(
        |source| PublishError::Archive {
            path: dir.to_path_buf(),
            source,
        },
    )?;
    let facts = super::oci::skill::SkillFacts {
        name: skill.name.clone(),
        description: skill.description.clone(),
        version: version.clone(),
        license: skill.license.clone(),
        allowed_tools: skill
            .allowed_tools
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    };
    let created = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let built = super::oci::skill::build(&facts, &flat, &created);
    let pushed = registry.push_skill(
        &name,
        &version,
        &flat.archive.path,
        &flat.archive.sha256,
        &built,
    )?;
    let entry = IndexEntry {
        v: 1,
        name,
        vers: version,
        cksum: flat.archive.sha256.clone(),
        size: flat.archive.size,
        deps: Default::default(),
        yanked: false,
        agx: None,
        description: Some(skill.description.clone()),
        provenance: None,
        extension: agx_model::manifest::ExtensionSummary {
            skills: vec![agx_model::manifest::SkillSummary {
                name: skill.name,
                description: skill.description,
            }],
            ..Default::default()
        },
    };
    Ok((entry, pushed))
}

/// Mark a version yanked (or not). Returns false when it already was in that state.
pub fn yank(
    registry: &Path,
    name: &PackageName,
    version: &Version,
    yanked: bool,
) -> Result<Option<IndexEntry>, PublishError> {
    let _lock = lock_registry(registry)?;
    let path = versions_file(registry, name);
    let mut versions = read_versions(&path)?;
    let not_found = || PublishError::VersionNotFound {
        name: name.clone(),
        version: version.clone(),
        registry: registry.to_path_buf(),
    };
    let entry = versions
        .iter_mut()
        .find(|e| &e.vers == version)
        .ok_or_else(not_found)?;
    if entry.yanked == yanked {
        return Ok(None);
    }
    entry.yanked = yanked;
    let changed = entry.clone();
    write_versions(&path, &mut versions)?;
    update_catalog(registry, name, &versions)?;
    Ok(Some(changed))
}

/// Check that `dir` is a registry and take its publishing lock (on `config.json`, which
/// publishing never replaces), so that concurrent `add`/`yank` runs do not lose updates.
fn lock_registry(dir: &Path) -> Result<FileLock, IndexError> {
    check_registry(dir)?;
    let path = dir.join("config.json");
    let file = std::fs::File::open(&path).map_err(at("open", &path))?;
    FileLock::lock(file, LockMode::Exclusive, || {
        tracing::info!(
            verb = "Blocking",
            "waiting for another agx process publishing to {}",
            dir.display()
        )
    })
    .map_err(|e| at("lock", &path)(e).into())
}

fn check_registry(dir: &Path) -> Result<(), IndexError> {
    if !dir.is_dir() {
        return Err(IndexError::MissingFolder {
            path: dir.to_path_buf(),
        });
    }
    if !dir.join("config.json").is_file() {
        return Err(IndexError::NotARegistry {
            path: dir.to_path_buf(),
        });
    }
    Ok(())
}

fn index_entry(package: &Package, tarball: &Path) -> Result<IndexEntry, PublishError> {
    let name = package.name().clone();
    if name.publisher().is_none() {
        return Err(PublishError::NoPublisher { name });
    }
    let meta = &package.manifest.package;
    let Some(description) = meta.description.clone().filter(|d| !d.trim().is_empty()) else {
        return Err(PublishError::NoDescription {
            name,
            version: meta.version.clone(),
        });
    };
    let size = std::fs::metadata(tarball)
        .map_err(at("read", tarball))?
        .len();
    Ok(IndexEntry {
        v: 1,
        name,
        vers: meta.version.clone(),
        cksum: agx_archive::sha256_file(tarball).map_err(IndexError::from)?,
        size,
        deps: package.manifest.dependencies.clone(),
        yanked: false,
        agx: meta.agx.clone(),
        description: Some(description),
        provenance: None,
        extension: package.summary(),
    })
}

fn versions_file(registry: &Path, name: &PackageName) -> PathBuf {
    let (publisher, short) = name.path_segments();
    registry
        .join("packages")
        .join(publisher)
        .join(format!("{short}.json"))
}

fn read_versions(path: &Path) -> Result<Vec<IndexEntry>, IndexError> {
    match std::fs::read(path) {
        Ok(body) => parse_version_lines(&body, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(IndexError::from(at("read", path)(e))),
    }
}

/// One JSON object per line, oldest version first.
fn write_versions(path: &Path, versions: &mut [IndexEntry]) -> Result<(), IndexError> {
    versions.sort_by(|a, b| a.vers.cmp(&b.vers));
    let mut text = String::new();
    for entry in versions.iter() {
        text.push_str(&serde_json::to_string(entry).expect("entries serialize"));
        text.push('\n');
    }
    Ok(agx_core::atomic::write_file(path, text.as_bytes(), None)?)
}

/// Replace the package's catalog entry with its newest non-yanked version (none if every
/// version is yanked).
fn update_catalog(
    registry: &Path,
    name: &PackageName,
    versions: &[IndexEntry],
) -> Result<(), IndexError> {
    let path = registry.join("catalog.json");
    let mut catalog: Catalog = match std::fs::read(&path) {
        Ok(body) => serde_json::from_slice(&body).map_err(|e| IndexError::Parse {
            location: path.display().to_string(),
            message: e.to_string(),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Catalog {
            v: 1,
            packages: vec![],
        },
        Err(e) => return Err(IndexError::from(at("read", path)(e))),
    };
    catalog.packages.retain(|p| &p.name != name);
    if let Some(newest) = versions
        .iter()
        .filter(|e| !e.yanked)
        .max_by(|a, b| a.vers.cmp(&b.vers))
    {
        catalog.packages.push(CatalogEntry {
            name: name.clone(),
            version: newest.vers.clone(),
            description: newest.description.clone(),
            extension: newest.extension.clone(),
        });
    }
    catalog.packages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(agx_core::atomic::write_file(
        &path,
        &catalog_json(&catalog),
        None,
    )?)
}

/// `catalog.json` with one package per line, so diffs of a registry stay readable.
fn catalog_json(catalog: &Catalog) -> Vec<u8> {
    let lines: Vec<String> = catalog
        .packages
        .iter()
        .map(|p| serde_json::to_string(p).expect("catalog entries serialize"))
        .collect();
    let body = if lines.is_empty() {
        String::new()
    } else {
        format!("\n{}\n", lines.join(",\n"))
    };
    format!("{{\"v\":{},\"packages\":[{body}]}}\n", catalog.v).into_bytes()
}

/// The registry files (`/`-separated, relative) that publishing or yanking `entry`
/// writes: what a signed registry re-signs (its bundle too, when it has one).
pub fn written_paths(entry: &IndexEntry) -> Vec<String> {
    let (publisher, short) = entry.name.path_segments();
    let mut paths = vec![
        tarball_path(&entry.name, &entry.vers),
        format!("packages/{publisher}/{short}.json"),
        "catalog.json".to_string(),
    ];
    if entry
        .provenance
        .as_ref()
        .is_some_and(|p| p.sigstore.is_some())
    {
        paths.push(bundle_path(&entry.name, &entry.vers));
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_json_is_valid_and_line_per_package() {
        let empty = catalog_json(&Catalog {
            v: 1,
            packages: vec![],
        });
        assert_eq!(empty, b"{\"v\":1,\"packages\":[]}\n");
        let entry = CatalogEntry {
            name: PackageName::parse("acme/a").unwrap(),
            version: Version::new(1, 0, 0),
            description: Some("A".into()),
            extension: Default::default(),
        };
        let two = Catalog {
            v: 1,
            packages: vec![entry.clone(), entry],
        };
        let bytes = catalog_json(&two);
        let back: Catalog = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, two);
        assert_eq!(String::from_utf8(bytes).unwrap().lines().count(), 4);
    }

    #[test]
    fn init_refuses_an_existing_registry() {
        let dir = tempfile::tempdir().unwrap();
        let reg = dir.path().join("team-reg");
        assert_eq!(init(&reg, None).unwrap(), "team-reg");
        assert!(reg.join("catalog.json").is_file());
        assert!(matches!(
            init(&reg, None),
            Err(PublishError::AlreadyRegistry { .. })
        ));
        assert!(matches!(
            init(&dir.path().join("x"), Some("bad name")),
            Err(PublishError::BadName { .. })
        ));
    }
}
