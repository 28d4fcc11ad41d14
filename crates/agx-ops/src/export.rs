//! `agx export`: write installed packages (installing registry references first) as plugin
//! bundles. The bundle is written beside the output folder and renamed into place, so a
//! failed export leaves nothing behind; the bytes depend only on the packages (sorted JSON
//! keys as written here, files copied in name order), so exporting twice gives one tree.

use std::path::{Path, PathBuf};

use crate::Context;
use crate::install::{self, Target};
use agx_core::name::PackageSpec;
use agx_sources::plugins::model::{BundleFile, PluginSource};
use agx_sources::plugins::{Format, agent_plugin, claude, codex, cursor, gemini, names};

/// What to export.
#[derive(Debug, Clone)]
pub struct ExportRequest<'a> {
    pub format: Format,
    pub out_dir: &'a Path,
    /// `publisher/name` (installed, or installed now from the registry) or
    /// `publisher/name@REQ`.
    pub packages: &'a [String],
    /// The marketplace's name (claude-marketplace); default: the output folder's name.
    pub marketplace_name: Option<&'a str>,
}

/// One plugin written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ExportedPlugin {
    pub name: String,
    pub package: String,
    pub version: String,
    /// The plugin's folder.
    pub path: PathBuf,
}

/// What was written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Exported {
    pub out_dir: PathBuf,
    pub plugins: Vec<ExportedPlugin>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("`{arg}` is not a package: {source}")]
    NotAPackage {
        arg: String,
        source: agx_core::name::NameError,
    },
    #[error("no package to export")]
    NoPackage,
    #[error("{package} {installed} is installed, not a version matching {wanted}")]
    OtherVersion {
        package: String,
        installed: semver::Version,
        wanted: String,
    },
    #[error("{package} has no server and no skill: its plugin would be empty")]
    Empty { package: String },
    #[error("{first} and {second} would both be the plugin `{name}`")]
    SameName {
        name: String,
        first: String,
        second: String,
    },
    #[error("`{name}` is not a marketplace name")]
    BadMarketplaceName { name: String },
    #[error("{} exists and is not an empty folder", path.display())]
    OutDirTaken { path: PathBuf },
    #[error("the exported plugin {} breaks the Agent Plugins rules: {}", path.display(), problems.join("; "))]
    Invalid {
        path: PathBuf,
        problems: Vec<String>,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Ops(#[from] Box<crate::OpsError>),
}

impl From<crate::OpsError> for ExportError {
    fn from(e: crate::OpsError) -> Self {
        ExportError::Ops(Box::new(e))
    }
}

impl agx_core::error::Hint for ExportError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            ExportError::NotAPackage { .. } | ExportError::NoPackage => {
                "name installed packages as `publisher/name`, or registry packages as `publisher/name@VERSION`".into()
            }
            ExportError::OtherVersion { package, wanted, .. } => {
                format!("install that version first (`agx install {package}@{wanted}`), or export the installed one (`{package}`)")
            }
            ExportError::Empty { .. } => {
                "plugins carry MCP servers and skills; export a package that has one".into()
            }
            ExportError::SameName { .. } => "export them in two runs, into two folders".into(),
            ExportError::BadMarketplaceName { .. } => {
                "write it in kebab-case: lowercase letters, digits and single `-` (--name acme-tools)".into()
            }
            ExportError::OutDirTaken { .. } => {
                "choose a new folder, or remove that one first (export never overwrites files)".into()
            }
            ExportError::Invalid { .. } => "this is a bug in agx; please report it".into(),
            ExportError::Write { .. } => return None,
            ExportError::Ops(e) => return agx_core::error::Hint::hint(e.as_ref()),
        })
    }
}

/// Export `request.packages` in `request.format` into `request.out_dir`.
pub fn export(ctx: &Context, request: &ExportRequest<'_>) -> Result<Exported, ExportError> {
    if request.packages.is_empty() {
        return Err(ExportError::NoPackage);
    }
    let policy = crate::policy::gate(ctx, None).map_err(crate::OpsError::from)?;
    let mut sources: Vec<PluginSource> = Vec::new();
    for arg in request.packages {
        let source = load(ctx, &policy, arg)?;
        if let Some(other) = sources.iter().find(|s| s.name == source.name) {
            return Err(ExportError::SameName {
                name: source.name.clone(),
                first: other.package.to_string(),
                second: source.package.to_string(),
            });
        }
        sources.push(source);
    }
    // Sorted, so that the argument order does not change the marketplace's bytes.
    sources.sort_by(|a, b| a.name.cmp(&b.name));

    let out_dir = std::path::absolute(request.out_dir).map_err(|source| ExportError::Write {
        path: request.out_dir.to_path_buf(),
        source,
    })?;
    let (files, roots): (Vec<BundleFile>, Vec<PathBuf>) = match request.format {
        Format::ClaudeMarketplace | Format::CodexMarketplace | Format::CursorMarketplace => {
            let marketplace = claude::Marketplace {
                name: marketplace_name(request.marketplace_name, &out_dir)?,
                owner: owner(&sources),
            };
            let roots = sources
                .iter()
                .map(|s| Path::new(claude::PLUGINS_FOLDER).join(&s.name))
                .collect();
            let files = match request.format {
                Format::CodexMarketplace => codex::marketplace_files(&marketplace, &sources),
                Format::CursorMarketplace => cursor::marketplace_files(&marketplace, &sources),
                _ => claude::marketplace_files(&marketplace, &sources),
            };
            (files, roots)
        }
        Format::AgentPlugin => per_package(&sources, agent_plugin::plugin_files),
        Format::GeminiExtension => per_package(&sources, gemini::extension_files),
    };
    write_into_place(&out_dir, &files, |staged| {
        if request.format == Format::AgentPlugin {
            for root in &roots {
                let problems = agent_plugin::check(&staged.join(root));
                if !problems.is_empty() {
                    return Err(ExportError::Invalid {
                        path: out_dir.join(root),
                        problems,
                    });
                }
            }
        }
        Ok(())
    })?;
    Ok(Exported {
        plugins: sources
            .iter()
            .zip(&roots)
            .map(|(s, root)| ExportedPlugin {
                name: s.name.clone(),
                package: s.package.to_string(),
                version: s.version.to_string(),
                path: out_dir.join(root),
            })
            .collect(),
        out_dir,
    })
}

fn per_package(
    sources: &[PluginSource],
    files_of: fn(&PluginSource, &Path) -> Vec<BundleFile>,
) -> (Vec<BundleFile>, Vec<PathBuf>) {
    let roots: Vec<PathBuf> = sources.iter().map(|s| PathBuf::from(&s.name)).collect();
    let files = sources
        .iter()
        .zip(&roots)
        .flat_map(|(s, root)| files_of(s, root))
        .collect();
    (files, roots)
}

/// The installed package `arg` names, installed first when it is not (or not at the
/// version asked for and nothing is installed).
fn load(
    ctx: &Context,
    policy: &agx_store::PolicyGate,
    arg: &str,
) -> Result<PluginSource, ExportError> {
    let spec = PackageSpec::parse(arg).map_err(|source| ExportError::NotAPackage {
        arg: arg.to_string(),
        source,
    })?;
    let store = ctx.store();
    let installed = match store.installed(&spec.name).map_err(crate::OpsError::from)? {
        Some(p) => p,
        None => {
            install::install(ctx, &[Target::Spec(spec.clone())], false)?;
            store
                .installed(&spec.name)
                .map_err(crate::OpsError::from)?
                .ok_or(ExportError::NoPackage)?
        }
    };
    if let Some(req) = &spec.req
        && !req.matches(&installed.version)
    {
        return Err(ExportError::OtherVersion {
            package: spec.name.to_string(),
            installed: installed.version,
            wanted: req.to_string(),
        });
    }
    // A package installed before the policy was written is held to it too.
    policy
        .check_installed(&store, &spec.name, &installed.version)
        .map_err(crate::OpsError::from)?;
    let package = agx_model::manifest::load_package(&installed.dir)
        .map_err(|e| crate::OpsError::from(agx_store::StoreError::from(e)))?;
    if package.servers.is_empty() && package.skills.is_empty() {
        return Err(ExportError::Empty {
            package: spec.name.to_string(),
        });
    }
    Ok(PluginSource::from_package(&package))
}

fn marketplace_name(given: Option<&str>, out_dir: &Path) -> Result<String, ExportError> {
    match given {
        Some(name) if names::kebab(name) == name && !name.is_empty() => Ok(name.to_string()),
        Some(name) => Err(ExportError::BadMarketplaceName { name: name.into() }),
        None => {
            let folder = out_dir.file_name().unwrap_or_default().to_string_lossy();
            let name = names::kebab(&folder);
            Ok(if name.is_empty() {
                "agx-plugins".into()
            } else {
                name
            })
        }
    }
}

/// The publishers of the packages, in order (`agx` when none has one).
fn owner(sources: &[PluginSource]) -> String {
    let mut publishers: Vec<&str> = sources
        .iter()
        .filter_map(|s| s.package.publisher())
        .collect();
    publishers.sort_unstable();
    publishers.dedup();
    if publishers.is_empty() {
        "agx".into()
    } else {
        publishers.join(", ")
    }
}

/// Write `files` into a hidden sibling of `out_dir`, let `check` look at it, then rename it
/// into place. `out_dir` must be absent or an empty folder; on any failure it is left as it
/// was.
fn write_into_place(
    out_dir: &Path,
    files: &[BundleFile],
    check: impl FnOnce(&Path) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let taken = || ExportError::OutDirTaken {
        path: out_dir.to_path_buf(),
    };
    let was_empty_dir = match fs_err::symlink_metadata(out_dir) {
        Err(_) => false,
        Ok(meta) if meta.is_dir() => {
            let mut entries = fs_err::read_dir(out_dir).map_err(|_| taken())?;
            if entries.next().is_some() {
                return Err(taken());
            }
            true
        }
        Ok(_) => return Err(taken()),
    };
    let parent = out_dir.parent().unwrap_or(Path::new("/"));
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExportError::Write { path, source }
    };
    fs_err::create_dir_all(parent).map_err(write_err(parent))?;
    let name = out_dir.file_name().unwrap_or_default().to_string_lossy();
    let staged = parent.join(format!(".{name}.agx-export-{}", std::process::id()));
    let _ = fs_err::remove_dir_all(&staged);
    let result = write_files(&staged, files).and_then(|()| check(&staged));
    let result = result.and_then(|()| {
        if was_empty_dir {
            fs_err::remove_dir(out_dir).map_err(write_err(out_dir))?;
        }
        fs_err::rename(&staged, out_dir).map_err(write_err(out_dir))
    });
    if result.is_err() {
        let _ = fs_err::remove_dir_all(&staged);
    }
    result
}

fn write_files(root: &Path, files: &[BundleFile]) -> Result<(), ExportError> {
    fs_err::create_dir_all(root).map_err(|source| ExportError::Write {
        path: root.to_path_buf(),
        source,
    })?;
    for file in files {
        let dest = root.join(file.path());
        let err = |source| ExportError::Write {
            path: dest.clone(),
            source,
        };
        if let Some(parent) = dest.parent() {
            fs_err::create_dir_all(parent).map_err(err)?;
        }
        match file {
            BundleFile::Text { text, .. } => fs_err::write(&dest, text).map_err(err)?,
            BundleFile::Tree { from, .. } => agx_model::skills::wrap::copy_tree(from, &dest)
                .map_err(|e| err(std::io::Error::other(e.to_string())))?,
        }
    }
    Ok(())
}
