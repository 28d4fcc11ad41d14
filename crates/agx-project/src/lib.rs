//! Projects (docs/projects.md): a repository declares the MCP servers it uses in `agx.toml`
//! (`[project]`, `[servers]`), agx pins them in `agx.lock`, and `agx sync` installs the
//! pinned versions and writes each listed client's project-scope file.
//!
//! - [`manifest`]: reading and checking `agx.toml` and `agx.local.toml` (with findings);
//! - [`discover`]: finding the project folder (walking up, `--project`, `AGX_PROJECT`);
//! - [`lock`]: the `agx.lock` format;
//! - [`install`]: the one call that installs locked packages;
//! - [`state`]: which client entries `sync` wrote, per project, on this machine.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod profile;

pub mod discover;

pub mod lock;
pub mod manifest;
pub mod policy;
pub mod state;

use std::path::PathBuf;

pub use discover::find_project;
pub use lock::{LockError, LockFile, LockedPackage, LockedServer, LockedSkill, LockedSkillFolder};
pub use manifest::{PackageSkill, Project, ServerDecl, ServerTarget, SkillDecl};

/// The committed project file.
pub const PROJECT_FILE: &str = "agx.toml";
/// The personal override beside it (meant for `.gitignore`).
pub const LOCAL_FILE: &str = "agx.local.toml";
/// The lock file beside it.
pub const LOCK_FILE: &str = "agx.lock";
/// The variable naming the project folder (as `--project` does).
pub const PROJECT_ENV: &str = "AGX_PROJECT";

/// Why a project cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("no agx.toml with a [project], [servers] or [skills] table in {} or any folder above it", start.display())]
    NotFound { start: PathBuf },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The first error finding, with file:line:col; `more` counts the others.
    #[error("{location}: {message}{}", if *more > 0 { format!(" (and {more} more problem{})", if *more == 1 { "" } else { "s" }) } else { String::new() })]
    Invalid {
        location: String,
        message: String,
        hint: Option<String>,
        more: usize,
    },
    #[error("cannot lock {} for editing: {source}", path.display())]
    Busy {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Lock(#[from] LockError),
}

impl agx_core::error::Hint for ProjectError {
    fn hint(&self) -> Option<String> {
        match self {
            ProjectError::NotFound { .. } => Some(
                "run `agx add <server>` in the project's folder to start one, or name it with --project DIR (AGX_PROJECT)".into(),
            ),
            ProjectError::Read { .. } | ProjectError::Write { .. } | ProjectError::Busy { .. } => {
                None
            }
            ProjectError::Invalid { hint, .. } => Some(match hint {
                Some(h) => format!("{h}; `agx validate` lists every problem"),
                None => "`agx validate` lists every problem".into(),
            }),
            ProjectError::Lock(e) => e.hint(),
        }
    }
}

/// Hold the project in `dir` for a read-modify-write of agx.toml and agx.lock (add, remove,
/// lock, sync), so that concurrent agx processes each keep their change. The lock file,
/// `agx.toml.agx-lock`, exists only while held; `dir` is created when missing (`agx add`
/// starts a project there).
pub fn lock_project(dir: &std::path::Path) -> Result<agx_core::file_lock::FileLock, ProjectError> {
    let path = dir.join(format!("{PROJECT_FILE}.agx-lock"));
    let busy = |source| ProjectError::Busy {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(busy)?;
    agx_core::file_lock::FileLock::acquire_transient(&path, || {
        tracing::info!(
            verb = "Blocking",
            "waiting for another agx process editing {}",
            dir.join(PROJECT_FILE).display()
        )
    })
    .map_err(busy)
}

/// The project values of `server`'s settings for `agx serve`: from the project named by
/// `AGX_PROJECT`, else the nearest one at or above the current folder (clients start
/// project servers in the project's folder). Returns the file and the entry's `settings`;
/// `None` outside a project or when it has no entry for that server. A project file that
/// does not load is logged and skipped: serving a user-scope entry must not depend on it.
pub fn serve_values(
    server: &agx_core::name::QualifiedName,
) -> Option<(PathBuf, std::collections::BTreeMap<String, String>)> {
    serve_entry(server).map(|(file, decl)| (file, decl.settings))
}

/// The project's filter of `server` for `agx serve` (found as [`serve_values`] finds
/// settings), when its entry has one. Unlike settings, a filter fails closed: when the
/// project file does not load and its text names `server`, the filter it may declare cannot
/// be known, so the file and its error are returned and the server is not started.
pub fn serve_filter(
    server: &agx_core::name::QualifiedName,
) -> Result<Option<(PathBuf, agx_model::filter::FilterSpec)>, (PathBuf, String)> {
    Ok(serve_entry_or_fail(server)?
        .map(|(file, decl)| (file, decl.filter))
        .filter(|(_, filter)| !filter.is_empty()))
}

/// The project's permissions of `server` for `agx serve` (found as [`serve_filter`] finds
/// a filter, and failing closed as it does), when its entry has them (docs/sandbox.md).
pub fn serve_permissions(
    server: &agx_core::name::QualifiedName,
) -> Result<Option<(PathBuf, agx_model::permissions::Permissions)>, (PathBuf, String)> {
    Ok(serve_entry_or_fail(server)?.and_then(|(file, decl)| Some((file, decl.permissions?))))
}

/// The project's `on-change` rule of `server` for `agx serve` (found and failing closed as
/// [`serve_filter`]); the default (hide) outside a project or without one.
pub fn serve_on_change(
    server: &agx_core::name::QualifiedName,
) -> Result<agx_store::pins::OnChange, (PathBuf, String)> {
    Ok(serve_entry_or_fail(server)?
        .map(|(_, decl)| decl.on_change)
        .unwrap_or_default())
}

/// The project file and `server`'s entry in it, for what must not be guessed (a filter,
/// permissions): a project file that does not load and names `server` is an error.
fn serve_entry_or_fail(
    server: &agx_core::name::QualifiedName,
) -> Result<Option<(PathBuf, ServerDecl)>, (PathBuf, String)> {
    let Some(dir) = serve_project_dir() else {
        return Ok(None);
    };
    match Project::load(&dir) {
        Ok(project) => Ok(project
            .entry_for(server)
            .map(|(_, decl)| (dir.join(PROJECT_FILE), decl.clone()))),
        Err(e) => {
            let file = dir.join(PROJECT_FILE);
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let named =
                text.contains(&server.to_string()) || text.contains(&server.package.to_string());
            if named {
                Err((file, e.to_string()))
            } else {
                Ok(None)
            }
        }
    }
}

/// The project's profile `name` for `agx serve @NAME`, when the project `agx serve` runs in
/// has one: each member served at the version agx.lock pins for its key (a member that is
/// not locked, or named by reference, as written). A project file that does not load is an
/// error when it names the profile: its members are unknown.
pub fn serve_profile(
    name: &str,
) -> Result<Option<crate::profile::Profile>, crate::profile::ProfileError> {
    let Some(dir) = serve_project_dir() else {
        return Ok(None);
    };
    let project = match Project::load(&dir) {
        Ok(project) => project,
        Err(ProjectError::NotFound { .. }) => return Ok(None),
        Err(e) => {
            let file = dir.join(PROJECT_FILE);
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if text.contains(&format!("profiles.{name}")) {
                return Err(crate::profile::ProfileError::Invalid {
                    location: file.display().to_string(),
                    message: e.to_string(),
                    hint: agx_core::error::Hint::hint(&e),
                });
            }
            return Ok(None);
        }
    };
    let Some(mut profile) = project.profiles.get(name).cloned() else {
        return Ok(None);
    };
    let lock = LockFile::read(&dir).ok().flatten();
    pin_profile(&mut profile, &project, &dir, lock.as_ref());
    Ok(Some(profile))
}

/// A project's profile as `agx serve @NAME` runs it: each member that is a `[servers]` key
/// at the version and with the arguments `lock` gives it.
pub fn pin_profile(
    profile: &mut crate::profile::Profile,
    project: &Project,
    dir: &std::path::Path,
    lock: Option<&LockFile>,
) {
    profile.source = dir.join(PROJECT_FILE);
    for member in &mut profile.members {
        if let Some(locked) = lock.and_then(|l| l.server(&member.key))
            && project.servers.contains_key(&member.key)
        {
            member.reference = format!("{}@={}", locked.launches, locked.version);
            member.args = locked.args.clone();
        }
    }
}

/// The project `agx serve` runs in: `AGX_PROJECT`, else the nearest one at or above the
/// current folder.
pub fn serve_project_dir() -> Option<PathBuf> {
    match std::env::var_os(PROJECT_ENV) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => discover::walk_up(&std::env::current_dir().ok()?),
    }
}

fn serve_entry(server: &agx_core::name::QualifiedName) -> Option<(PathBuf, ServerDecl)> {
    let dir = serve_project_dir()?;
    let project = match Project::load(&dir) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("project entries of {} not applied: {e}", dir.display());
            return None;
        }
    };
    let (_, decl) = project.entry_for(server)?;
    Some((dir.join(PROJECT_FILE), decl.clone()))
}
