//! `agx install PLUGIN@SOURCE`: a Claude Code plugin of a configured marketplace becomes an
//! agx package (docs/plugins.md, "Importing"). Its files are fetched into staging (a folder
//! of the marketplace, a sha256-checked archive, or a git commit), then an `agx.toml` is
//! written beside them: each `.mcp.json` server a wrapped server, each skill a skill, each
//! `userConfig` option a setting.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::ecosystem::{EcosystemError, Provisioned};
use crate::index::dialect::Dialect;
use crate::index::marketplace::{
    self, Marketplace, MarketplaceJson, PluginEntry, PluginLocation, RemoteLocation,
};
use crate::index::marketplace_files;
use agx_archive::ArchiveFormat;
use agx_core::name::PackageName;

/// What the receipt records of an imported plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginOrigin {
    /// `weather-tools@acme` as asked.
    pub reference: String,
    /// The marketplace's URL or folder.
    pub marketplace: String,
    /// Where the files came from (`./plugins/x`, `github:owner/repo@sha`, …).
    pub location: String,
    /// `git:<commit>` for a git source, else `sha256:<hex>` of the archive or of the files.
    pub revision: String,
}

/// The prefix of a project lock's `source` for an imported plugin.
const LOCK_PREFIX: &str = "plugin:";

/// `plugin:<PLUGIN>@<marketplace URL or folder>`: where a project's lock says an imported
/// plugin is provisioned again from (`reference` is `PLUGIN@SOURCE` as installed).
pub fn lock_source(reference: &str, marketplace: &str) -> String {
    let plugin = reference.split_once('@').map_or(reference, |(p, _)| p);
    format!("{LOCK_PREFIX}{plugin}@{marketplace}")
}

/// The plugin a lock's `source` names, with its marketplace's URL or folder as the
/// reference's source, imported as `package` (whose publisher the lock or receipt recorded);
/// `None` when `source` is not a plugin's. A relative folder is taken from `project`.
pub fn parse_lock_source(
    source: &str,
    project: &Path,
    package: &PackageName,
) -> Option<Result<marketplace::PluginRef, String>> {
    let rest = source.strip_prefix(LOCK_PREFIX)?;
    // A plugin's name has no `@` (`PLUGIN@SOURCE` could not name it): the first one ends it.
    let parsed = match rest.split_once('@') {
        Some((plugin, location)) if !plugin.is_empty() && !location.is_empty() => {
            let location = if location.contains("://") || Path::new(location).is_absolute() {
                location.to_string()
            } else {
                project.join(location).display().to_string()
            };
            match package.publisher() {
                Some(publisher) if !package.is_ecosystem() => Ok(marketplace::PluginRef {
                    plugin: plugin.to_string(),
                    source: location,
                    publisher: publisher.to_string(),
                }),
                _ => Err(format!(
                    "`{package}` cannot be an imported plugin's package: it needs a publisher of its own"
                )),
            }
        }
        _ => Err(format!(
            "`{source}` is not `plugin:PLUGIN@MARKETPLACE` (a marketplace's URL or folder)"
        )),
    };
    Some(parsed)
}

/// Whether `text` is a revision an import records: `git:<commit>` (40 hex, or 64 in a
/// SHA-256 repository), `sha256:<64 hex>` or
/// `npm:<name>@<version> sha512-<base64>`.
pub fn is_revision(text: &str) -> bool {
    let hex_of =
        |hex: &str, len: usize| hex.len() == len && hex.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(commit) = text.strip_prefix("git:") {
        return hex_of(commit, 40) || hex_of(commit, 64);
    }
    if let Some(sha256) = text.strip_prefix("sha256:") {
        return hex_of(sha256, 64);
    }
    text.strip_prefix("npm:")
        .and_then(|rest| rest.split_once(" sha512-"))
        .is_some_and(|(spec, sri)| spec.contains('@') && !sri.is_empty() && !sri.contains(' '))
}

/// The package an imported plugin becomes, with where it came from.
pub struct Imported {
    pub provisioned: Provisioned,
    pub origin: PluginOrigin,
}

/// The package the plugin `reference` becomes: `<publisher>/<plugin in kebab-case>`, the
/// publisher bound to the source the user named (see [`marketplace::PluginRef::publisher`]).
/// Refused when another plugin of the catalog has the same kebab-case name (`Weather` and
/// `weather_`): both would be one package, and installing one would replace the other.
pub fn package_name(
    catalog: &MarketplaceJson,
    reference: &marketplace::PluginRef,
) -> Result<PackageName, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: reference.to_string(),
        detail,
        hint: hint.to_string(),
    };
    let name = super::names::kebab(&reference.plugin);
    let full = format!("{}/{name}", reference.publisher);
    let alike: Vec<&str> = catalog
        .plugins
        .iter()
        .filter(|p| super::names::kebab(&p.name) == name)
        .map(|p| p.name.as_str())
        .collect();
    if alike.len() > 1 {
        let listed: Vec<String> = alike.iter().map(|n| format!("`{n}`")).collect();
        return Err(bad(
            format!(
                "the marketplace lists {} plugins that would all be the package {full} ({}): agx cannot tell them apart",
                alike.len(),
                listed.join(", ")
            ),
            "ask the marketplace's maintainer to give each plugin a name of its own, one that differs in more than case or punctuation",
        ));
    }
    PackageName::parse(&full).map_err(|e| {
        bad(
            format!("no agx package name can be made from it: {e}"),
            "rename the plugin in marketplace.json",
        )
    })
}

/// Fetch the plugin `reference.plugin` of `marketplace` into `stage` and write it as an agx
/// package there. Nothing outside `stage` changes.
pub fn provision(
    marketplace: &Marketplace,
    reference: &marketplace::PluginRef,
    stage: &Path,
) -> Result<Imported, EcosystemError> {
    let label = reference.to_string();
    let index = |e: crate::index::IndexError| EcosystemError::Download {
        url: marketplace.source().to_string(),
        source: Box::new(e),
    };
    let catalog = marketplace.catalog().map_err(index)?;
    let Some(entry) = catalog.plugins.iter().find(|p| p.name == reference.plugin) else {
        return Err(index(crate::index::IndexError::PluginNotFound {
            plugin: reference.plugin.clone(),
            marketplace: marketplace.source().to_string(),
            known: catalog.plugins.iter().map(|p| p.name.clone()).collect(),
        }));
    };
    if entry.withheld() {
        return Err(index(crate::index::IndexError::PluginWithheld {
            plugin: reference.plugin.clone(),
            marketplace: marketplace.source().to_string(),
        }));
    }
    let name = package_name(&catalog, reference)?;
    let dir = stage.join("package");
    let fetched = fetch(marketplace, &catalog, entry, stage, &dir, &label)?;
    let revision = fetched.revision;
    let version = plugin_version(entry.version.clone(), fetched.published, &dir, &label)?;
    let facts = super::carry::PackageFacts {
        name: &name,
        version: &version,
        description: entry.description.clone(),
        label: &label,
    };
    let warnings = super::carry::write_package(&facts, &dir, &fetched.skipped_links)?;
    Ok(Imported {
        provisioned: Provisioned {
            dir,
            version,
            exact: format!("plugin:{label}"),
            integrity: vec![revision.clone()],
            served_by: None,
            built_by: Default::default(),
            install_scripts: None,
            origin: None,
            warnings,
        },
        origin: PluginOrigin {
            reference: label.clone(),
            marketplace: marketplace.source().to_string(),
            location: entry.source.describe(),
            revision,
        },
    })
}

/// Whether `dir` is a plugin rather than an agx package: it has the manifest of some
/// dialect (`.claude-plugin/plugin.json`, `.codex-plugin/plugin.json`,
/// `.cursor-plugin/plugin.json`, `plugin.json`, `gemini-extension.json`; a link counts:
/// importing it says why it is refused) and no `agx.toml`.
pub fn is_plugin_folder(dir: &Path) -> bool {
    Dialect::has_manifest(dir) && !marketplace_files::exists(&dir.join("agx.toml"))
}

/// `agx install ./plugin`: the plugin folder `folder` copied into `into` (to be created) and
/// written as an agx package, as a marketplace's plugin is. It is named by its manifest's
/// `name` (else the folder's) in kebab-case, without a publisher, as a folder of skills is.
/// Returns the warnings for the user.
pub fn import_folder(folder: &Path, into: &Path) -> Result<Vec<String>, EcosystemError> {
    let label = folder.display().to_string();
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: label.clone(),
        detail,
        hint: hint.to_string(),
    };
    let skipped_links = marketplace_files::copy_plugin_tree(folder, into)
        .map_err(|e| bad(e.to_string(), COPY_HINT))?;
    let manifest_file = Dialect::of(into).manifest_file();
    let manifest = marketplace::read_manifest_or_default(into)
        .map_err(|e| bad(e.to_string(), &format!("fix the plugin's {manifest_file}")))?;
    let folder_name = std::path::absolute(folder)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let plugin = manifest.name.clone().unwrap_or(folder_name);
    let name = PackageName::parse(&super::names::kebab(&plugin)).map_err(|e| {
        bad(
            format!("no agx package name can be made of `{plugin}`: {e}"),
            &format!("give the plugin a `name` in {manifest_file}"),
        )
    })?;
    let version = plugin_version(None, None, into, &label)?;
    let facts = super::carry::PackageFacts {
        name: &name,
        version: &version,
        description: None,
        label: &label,
    };
    super::carry::write_package(&facts, into, &skipped_links)
}

/// A plugin's files as fetched.
struct Fetched {
    /// What the receipt records (see [`PluginOrigin::revision`]).
    revision: String,
    /// The version its source published it as (npm's), when it has one.
    published: Option<String>,
    /// The symbolic links the copy left out (see [`marketplace_files::copy_plugin_tree`]).
    skipped_links: Vec<String>,
}

/// Put the plugin's files in `dir`.
fn fetch(
    marketplace: &Marketplace,
    catalog: &MarketplaceJson,
    entry: &PluginEntry,
    stage: &Path,
    dir: &Path,
    label: &str,
) -> Result<Fetched, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail,
        hint: hint.to_string(),
    };
    let fetched = |revision: String| Fetched {
        revision,
        published: None,
        skipped_links: Vec::new(),
    };
    match &entry.source {
        PluginLocation::Path(relative)
        | PluginLocation::Remote(RemoteLocation::Local { path: relative }) => {
            let folder = marketplace
                .plugin_folder(catalog, entry)
                .map_err(|e| bad(e.to_string(), "fix the plugin's `source` in marketplace.json"))?
                .ok_or_else(|| {
                    bad(
                        format!(
                            "its source `{relative}` is a folder beside the catalog, which a marketplace read over HTTP cannot give"
                        ),
                        "add the marketplace from its folder or git checkout, or give the plugin an `archive`, git or npm source",
                    )
                })?;
            if !folder.is_dir() {
                return Err(bad(
                    format!("its folder {} does not exist", folder.display()),
                    "fix the plugin's `source` in marketplace.json",
                ));
            }
            let skipped_links = marketplace_files::copy_plugin_tree(&folder, dir)
                .map_err(|e| bad(e.to_string(), COPY_HINT))?;
            Ok(Fetched {
                skipped_links,
                ..fetched(format!("sha256:{}", tree_sha256(dir)?))
            })
        }
        PluginLocation::Remote(RemoteLocation::Archive { url, sha256 }) => {
            archive_fetch(marketplace, url, sha256, stage, dir, label).map(fetched)
        }
        PluginLocation::Remote(RemoteLocation::Github { repo, git_ref, sha }) => {
            let url = format!("https://github.com/{repo}.git");
            git_fetch(&url, None, git_ref, sha, stage, dir, label)
        }
        PluginLocation::Remote(RemoteLocation::Url { url, git_ref, sha }) => {
            let url = git_url(marketplace, url);
            git_fetch(&url, None, git_ref, sha, stage, dir, label)
        }
        PluginLocation::Remote(RemoteLocation::GitSubdir {
            url,
            path,
            git_ref,
            sha,
        }) => {
            let url = git_url(marketplace, url);
            git_fetch(&url, Some(path), git_ref, sha, stage, dir, label)
        }
        PluginLocation::Remote(RemoteLocation::Npm {
            package,
            version,
            registry,
        }) => npm_fetch(
            package,
            version.as_deref(),
            registry.as_deref(),
            stage,
            dir,
            label,
        )
        .map(|(revision, version)| Fetched {
            published: Some(version),
            ..fetched(revision)
        }),
    }
}

/// Download `package@version` with `npm pack` (no package code runs) and unpack it into
/// `dir`. Returns `npm:<name>@<exact version> <integrity>`, and the exact version.
fn npm_fetch(
    package: &str,
    version: Option<&str>,
    registry: Option<&str>,
    stage: &Path,
    dir: &Path,
    label: &str,
) -> Result<(String, String), EcosystemError> {
    let bad = |detail: String| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail,
        hint: "fix the plugin's npm `source` in marketplace.json".into(),
    };
    let wanted = match version {
        Some(version) => format!("npm:{package}@{version}"),
        None => format!("npm:{package}"),
    };
    let spec = crate::ecosystem::EcosystemSpec::parse(&wanted)
        .expect("an npm: spec")
        .map_err(|e| bad(e.to_string()))?;
    // npm would also read a `file:` "registry"; a plugin's comes over https (or http on a
    // loopback host), as agx's own downloads do.
    if let Some(registry) = registry {
        match crate::index::Source::parse(registry) {
            Ok(crate::index::Source::Http(_)) => {}
            Ok(crate::index::Source::Folder(_) | crate::index::Source::Oci(_)) => {
                return Err(bad(format!(
                    "its `registry` `{registry}` is not an https URL"
                )));
            }
            Err(e) => return Err(bad(format!("its `registry`: {e}"))),
        }
    }
    let downloads = stage.join("npm");
    fs_err::create_dir_all(&downloads)?;
    let packed = crate::ecosystem::npm_pack(&spec, registry, &downloads)?;
    agx_archive::unpack(&packed.tarball, dir)?;
    let revision = format!(
        "npm:{}@{} {}",
        spec.native_name(),
        packed.version,
        packed.integrity
    );
    Ok((revision, packed.version))
}

/// What the error says of a plugin folder agx does not copy.
const COPY_HINT: &str = "a plugin holds regular files and folders (a symbolic link is left out; no FIFO or device), of at most 512 MiB in all";

/// Fetch an `archive` source into `stage`, check it against `sha256` and unpack it into
/// `dir`. Returns `sha256:<hex>` of the archive.
fn archive_fetch(
    marketplace: &Marketplace,
    url: &str,
    sha256: &str,
    stage: &Path,
    dir: &Path,
    label: &str,
) -> Result<String, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail,
        hint: hint.to_string(),
    };
    let archive = stage.join("plugin.archive");
    let (actual, local) = match resolve(marketplace, url).map_err(|detail| {
        bad(
            detail,
            "give the archive as an https URL, or as a path inside the marketplace",
        )
    })? {
        Resolved::Url(url) => (crate::ecosystem::mcpb::download(&url, &archive)?, false),
        Resolved::File(path) => {
            // The bounded regular-file copy: a FIFO cannot hang it, a device cannot fill it.
            marketplace_files::copy_file(&path, &archive, crate::ecosystem::mcpb::MAX_BUNDLE_SIZE)
                .map_err(|e| {
                    bad(
                        e.to_string(),
                        "an archive is a regular file inside the marketplace",
                    )
                })?;
            (agx_archive::sha256_file(&archive)?, true)
        }
    };
    if !actual.eq_ignore_ascii_case(sha256) {
        if local {
            // Not the file's real sha256: a catalog must not learn the hash of a file it
            // names (what a mismatch would print).
            return Err(bad(
                format!(
                    "its archive `{url}` does not match the sha256 {sha256} in marketplace.json"
                ),
                "the marketplace's archive and its catalog disagree: update the marketplace (or ask its maintainer to fix the sha256)",
            ));
        }
        return Err(EcosystemError::Sha256Mismatch {
            bundle: format!("{label} ({url})"),
            expected: sha256.to_string(),
            actual,
        });
    }
    match ArchiveFormat::of_file(&archive)? {
        Some(ArchiveFormat::TarGz) => agx_archive::unpack(&archive, dir)?,
        Some(ArchiveFormat::Zip) => unpack_zip_plugin(&archive, stage, dir)?,
        None => {
            return Err(bad(
                format!("its archive `{url}` is neither a .tar.gz nor a .zip"),
                "give an archive source a gzip-compressed tar or a zip file",
            ));
        }
    }
    Ok(format!("sha256:{}", actual.to_ascii_lowercase()))
}

/// Unpack a zip into `dir`: its entries are the plugin's files, or sit in one top folder (as
/// in a repository's zip download), which then is the plugin's folder.
fn unpack_zip_plugin(archive: &Path, stage: &Path, dir: &Path) -> Result<(), EcosystemError> {
    let unzipped = stage.join("unzipped");
    agx_archive::unpack_zip(archive, &unzipped)?;
    let entries = agx_core::fsutil::read_dir_paths(&unzipped)?;
    match entries.as_slice() {
        [only] if fs_err::symlink_metadata(only)?.is_dir() => fs_err::rename(only, dir)?,
        _ => fs_err::rename(&unzipped, dir)?,
    }
    Ok(())
}

enum Resolved {
    Url(String),
    File(PathBuf),
}

/// An archive's URL, absolute or relative to the marketplace's root (the folder holding
/// `.claude-plugin/`, the base URL, or the folder of a catalog's own URL). A relative path
/// stays inside the marketplace: no `..`, not absolute, and (in a folder) through no link.
fn resolve(marketplace: &Marketplace, url: &str) -> Result<Resolved, String> {
    if url.contains("://") {
        return Ok(Resolved::Url(url.to_string()));
    }
    if !marketplace_files::is_plain(url) {
        return Err(format!(
            "its archive `{url}` is outside the marketplace (a path with `..`, or absolute)"
        ));
    }
    match marketplace.folder() {
        Some(root) => marketplace_files::contained(root, url)
            .map(Resolved::File)
            .map_err(|e| e.to_string()),
        None => {
            // The marketplace's root: the base URL, or the folder of a catalog's own URL.
            let source = marketplace.source();
            let base = if source.to_ascii_lowercase().ends_with(".json") {
                source.to_string()
            } else {
                format!("{source}/")
            };
            reqwest::Url::parse(&base)
                .and_then(|b| b.join(url))
                .map(|u| Resolved::Url(u.to_string()))
                .map_err(|e| format!("its archive `{url}` is not a URL under {source}: {e}"))
        }
    }
}

/// A git URL as written; a relative path is taken from a folder marketplace.
fn git_url(marketplace: &Marketplace, url: &str) -> String {
    match (
        marketplace.folder(),
        url.contains("://") || url.contains('@'),
    ) {
        (Some(root), false) if !Path::new(url).is_absolute() => {
            root.join(url).display().to_string()
        }
        _ => url.to_string(),
    }
}

/// Clone `url` with the system `git`, check out `sha` (or `git_ref`, or the default
/// branch), and copy the tree (or its `subdir`) into `dir`; the revision is `git:<commit>`.
fn git_fetch(
    url: &str,
    subdir: Option<&String>,
    git_ref: &Option<String>,
    sha: &Option<String>,
    stage: &Path,
    dir: &Path,
    label: &str,
) -> Result<Fetched, EcosystemError> {
    let Some(git) = agx_core::paths::find_on_path(git_program()) else {
        return Err(EcosystemError::MissingRuntime {
            what: "git",
            spec: label.to_string(),
            install: "install git (https://git-scm.com/downloads) and make sure `git` is on PATH",
        });
    };
    let checkout = stage.join("git");
    let run = |args: &[&str]| -> Result<String, EcosystemError> {
        let out = Command::new(&git)
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(std::process::Stdio::null())
            .output()?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            Err(EcosystemError::Failed {
                spec: label.to_string(),
                command: format!("git {}", args.join(" ")),
                detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            })
        }
    };
    let target = checkout.display().to_string();
    run(&["clone", "--quiet", "--no-checkout", url, &target])?;
    let wanted = sha.as_deref().or(git_ref.as_deref()).unwrap_or("HEAD");
    // A branch or tag name is found among the remote's refs.
    let commit = run(&[
        "-C",
        &target,
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{wanted}^{{commit}}"),
    ])
    .or_else(|_| {
        run(&[
            "-C",
            &target,
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("origin/{wanted}^{{commit}}"),
        ])
    })
    .map_err(|_| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail: format!("{url} has no commit, branch or tag `{wanted}`"),
        hint: "check the plugin's `sha` or `ref` in marketplace.json".into(),
    })?;
    if let Some(sha) = sha
        && !commit.starts_with(&sha.to_ascii_lowercase())
    {
        return Err(EcosystemError::Bundle {
            bundle: label.to_string(),
            detail: format!("`{sha}` names commit {commit}, not itself"),
            hint: "give the full commit sha in marketplace.json".into(),
        });
    }
    run(&["-C", &target, "checkout", "--quiet", "--detach", &commit])?;
    let from = match subdir {
        Some(sub) => {
            if !marketplace_files::is_plain(sub) {
                return Err(EcosystemError::Bundle {
                    bundle: label.to_string(),
                    detail: format!("its `path` `{sub}` leaves the repository"),
                    hint: "give a path inside the repository in marketplace.json".into(),
                });
            }
            // A committed link on the way is not followed out of the checkout.
            marketplace_files::contained(&checkout, sub).map_err(|e| EcosystemError::Bundle {
                bundle: label.to_string(),
                detail: e.to_string(),
                hint: "give a path inside the repository in marketplace.json".into(),
            })?
        }
        None => checkout.clone(),
    };
    let skipped_links =
        marketplace_files::copy_plugin_tree(&from, dir).map_err(|e| EcosystemError::Bundle {
            bundle: label.to_string(),
            detail: e.to_string(),
            hint: COPY_HINT.into(),
        })?;
    Ok(Fetched {
        revision: format!("git:{commit}"),
        published: None,
        skipped_links,
    })
}

#[cfg(unix)]
fn git_program() -> &'static str {
    "git"
}

#[cfg(windows)]
fn git_program() -> &'static str {
    "git.exe"
}

/// sha256 over every file's relative path and bytes, in path order: the revision of a
/// plugin copied from a folder.
fn tree_sha256(dir: &Path) -> Result<String, EcosystemError> {
    fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in fs_err::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(root, &path, files)?;
            } else {
                files.push(path.strip_prefix(root).expect("inside").to_path_buf());
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for file in files {
        hasher.update(file.to_string_lossy().replace('\\', "/").as_bytes());
        hasher.update([0]);
        hasher.update(fs_err::read(dir.join(&file))?);
        hasher.update([0]);
    }
    Ok(hex::encode(hasher.finalize()))
}

/// The plugin's version (its manifest's, else the one its source published, else the one
/// its catalog entry lists) as semver; `0.0.0` when it has none, as Claude Code then tracks it by
/// commit alone.
fn plugin_version(
    listed: Option<String>,
    published: Option<String>,
    dir: &Path,
    label: &str,
) -> Result<semver::Version, EcosystemError> {
    let manifest = marketplace::read_manifest(dir).map_err(|e| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail: e.to_string(),
        hint: format!("fix the plugin's {}", Dialect::of(dir).manifest_file()),
    })?;
    let text = manifest.and_then(|m| m.version).or(published).or(listed);
    match text {
        None => Ok(semver::Version::new(0, 0, 0)),
        Some(text) => semver::Version::parse(text.trim_start_matches('v')).map_err(|_| {
            EcosystemError::Version {
                spec: label.to_string(),
                version: text,
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lock_sources_name_the_plugin_and_its_marketplace() {
        let project = Path::new("/repo");
        let package = PackageName::parse("acme/weather-tools").unwrap();
        let source = lock_source("weather-tools@acme", "https://example.com/m@v2");
        assert_eq!(source, "plugin:weather-tools@https://example.com/m@v2");
        let parsed = parse_lock_source(&source, project, &package)
            .unwrap()
            .unwrap();
        assert_eq!(parsed.plugin, "weather-tools");
        assert_eq!(parsed.source, "https://example.com/m@v2");
        // The publisher is the one the lock recorded, never the catalog's own name.
        assert_eq!(parsed.publisher, "acme");
        let relative = parse_lock_source("plugin:w@market", project, &package)
            .unwrap()
            .unwrap();
        assert_eq!(Path::new(&relative.source), project.join("market"));
        assert!(
            parse_lock_source("plugin:@market", project, &package)
                .unwrap()
                .is_err()
        );
        assert!(
            parse_lock_source("plugin:w", project, &package)
                .unwrap()
                .is_err()
        );
        assert!(parse_lock_source("npm:w@1.0.0", project, &package).is_none());
        let no_publisher = PackageName::parse("weather").unwrap();
        assert!(
            parse_lock_source("plugin:w@market", project, &no_publisher)
                .unwrap()
                .is_err()
        );
    }

    fn catalog(names: &[&str]) -> MarketplaceJson {
        let plugins: Vec<Value> = names
            .iter()
            .map(|n| serde_json::json!({"name": n, "source": format!("./plugins/{n}")}))
            .collect();
        serde_json::from_value(serde_json::json!({"name": "acme", "plugins": plugins})).unwrap()
    }

    fn reference(plugin: &str, publisher: &str) -> marketplace::PluginRef {
        marketplace::PluginRef {
            plugin: plugin.into(),
            source: "evil".into(),
            publisher: publisher.into(),
        }
    }

    #[test]
    fn a_package_is_named_by_the_sources_publisher_never_the_catalogs() {
        let catalog = catalog(&["Weather Tools", "notes"]);
        let name = package_name(&catalog, &reference("Weather Tools", "evil")).unwrap();
        assert_eq!(name.to_string(), "evil/weather-tools");
    }

    #[test]
    fn plugins_alike_in_kebab_case_are_refused() {
        let catalog = catalog(&["Weather", "weather_", "notes"]);
        for plugin in ["Weather", "weather_"] {
            let err = package_name(&catalog, &reference(plugin, "m")).unwrap_err();
            assert!(
                err.to_string().contains(
                    "2 plugins that would all be the package m/weather (`Weather`, `weather_`)"
                ),
                "{err}"
            );
        }
        assert!(package_name(&catalog, &reference("notes", "m")).is_ok());
    }

    #[test]
    fn an_archive_path_must_stay_inside_the_marketplace() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("market");
        std::fs::create_dir_all(root.join(".claude-plugin")).unwrap();
        std::fs::write(
            root.join(marketplace::MARKETPLACE_FILE),
            r#"{"name": "m", "plugins": []}"#,
        )
        .unwrap();
        let paths = agx_core::paths::AgxPaths::under(dir.path().join("home"), true);
        let market =
            Marketplace::new(crate::index::Source::Folder(root.clone()), false, &paths).unwrap();
        for outside in ["../x.tar.gz", "/etc/shadow", "a/../../x.tar.gz"] {
            let err = resolve(&market, outside).err().unwrap();
            assert!(
                err.contains("is outside the marketplace"),
                "{outside}: {err}"
            );
        }
        assert!(matches!(
            resolve(&market, "archives/x.tar.gz"),
            Ok(Resolved::File(path)) if path == root.join("archives").join("x.tar.gz")
        ));
        assert!(matches!(
            resolve(&market, "https://example.com/x.zip"),
            Ok(Resolved::Url(_))
        ));
    }
}
