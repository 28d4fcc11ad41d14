//! Where an entry lives: the client's file for a scope, and the container inside it.

use std::path::{Path, PathBuf};

use super::records::{Place, Record};
use super::{ClientError, Scope};
use agx_core::name::QualifiedName;
use agx_edit::Container;
use agx_model::client_table::{self as table, Client, HostEnv};

/// Where one entry lives: the file, the container inside it, and how to write a new file.
#[derive(Debug, Clone)]
pub struct Target {
    pub client: &'static Client,
    pub scope: Scope,
    pub file: PathBuf,
    pub container: Container,
    /// The project folder (project and local scopes).
    pub project: Option<PathBuf>,
}

impl Target {
    /// Work out the file and container for a client and scope. `config` overrides the file.
    pub fn new(
        client: &'static Client,
        scope: Scope,
        project: Option<&Path>,
        config: Option<&Path>,
        key: &str,
        env: &HostEnv,
    ) -> Result<Target, ClientError> {
        let project_dir = || -> Result<PathBuf, ClientError> {
            let dir = project
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."));
            absolute_dir(&dir).map_err(|source| ClientError::Read { file: dir, source })
        };
        let mut container = Container {
            path: client.container.iter().map(|s| s.to_string()).collect(),
            list_by_name: client.shape == table::Shape::NamedListItem,
        };
        let (file, project) = match scope {
            Scope::User => ((client.user)(env), None),
            Scope::Project => {
                let rel = client.project.ok_or(ClientError::NoScope {
                    client: client.id,
                    scope: "project",
                })?;
                let dir = project_dir()?;
                (dir.join(rel.replace("{key}", key)), Some(dir))
            }
            Scope::Local => {
                if !client.local_scope {
                    return Err(ClientError::NoScope {
                        client: client.id,
                        scope: "local",
                    });
                }
                let dir = project_dir()?;
                let mut path = vec!["projects".to_string(), dir.display().to_string()];
                path.append(&mut container.path);
                container.path = path;
                ((client.user)(env), Some(dir))
            }
        };
        let file = match config {
            Some(c) => absolute_dir(c).map_err(|source| ClientError::Read {
                file: c.into(),
                source,
            })?,
            None => file,
        };
        Ok(Target {
            client,
            scope,
            file,
            container,
            project,
        })
    }

    /// The target a record points at.
    pub fn of_record(record: &Record) -> Result<Target, ClientError> {
        let env = HostEnv::current().ok_or(ClientError::NoHome)?;
        Target::new(
            record.client,
            record.scope,
            record.project.as_deref(),
            Some(&record.file),
            &record.key,
            &env,
        )
    }

    /// Permission bits of a new file: user files may hold secrets passed with --env (and
    /// Claude Code keeps `~/.claude.json` at 0600); project files are shared, so they follow
    /// the umask (`None`) like any file of the repository.
    pub fn new_file_mode(&self) -> Option<u32> {
        match self.scope {
            Scope::Project => None,
            _ => Some(0o600),
        }
    }

    /// In project scope, refuse a client file, or a folder on its way from the project
    /// folder, that is a symbolic link leading out of the project: a cloned repository could
    /// otherwise make `sync` write anywhere the user may write. Links inside the project are
    /// fine, and user-scope files keep writing through links (dotfile managers).
    pub fn check_confined(&self) -> Result<(), ClientError> {
        let (Scope::Project, Some(project)) = (self.scope, &self.project) else {
            return Ok(());
        };
        check_confined_in(project, &self.file)
    }
}

/// [`Target::check_confined`] for any path under `project` (skill copies too): no link on
/// the way from `project` to `file` may lead out of the project.
pub fn check_confined_in(project: &Path, file: &Path) -> Result<(), ClientError> {
    // A file named with --config outside the project is the user's explicit choice.
    let Ok(inside) = file.strip_prefix(project) else {
        return Ok(());
    };
    let mut path = project.to_path_buf();
    for part in inside.components() {
        path.push(part);
        let is_link = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta.file_type().is_symlink(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => return Err(ClientError::Read { file: path, source }),
        };
        if !is_link {
            continue;
        }
        let leads_to = link_destination(&path).map_err(|source| ClientError::Read {
            file: path.clone(),
            source,
        })?;
        if !leads_to.starts_with(project) {
            return Err(ClientError::LinkLeavesProject {
                link: path.clone(),
                points_to: std::fs::read_link(&path).unwrap_or(leads_to),
                project: project.to_path_buf(),
            });
        }
    }
    Ok(())
}

impl Target {
    /// The place of entry `key` in this target, as records name it.
    pub fn place(&self, key: &str) -> Place {
        Place {
            client: self.client,
            file: self.file.clone(),
            key: key.into(),
            project: match self.scope {
                Scope::Local => self.project.clone(),
                _ => None,
            },
        }
    }

    /// The record of entry `key` launching `server` with the agx binary `command`.
    pub fn record(&self, key: &str, server: &QualifiedName, command: &str) -> Record {
        let Place {
            client,
            file,
            key,
            project,
        } = self.place(key);
        Record {
            client,
            scope: self.scope,
            file,
            key,
            server: server.clone(),
            project,
            command: command.into(),
        }
    }
}

/// Where the link at `link` finally leads, absolute and without `.` or `..`, even when its
/// end does not exist yet: the existing part is resolved by the OS, the rest by its names.
fn link_destination(link: &Path) -> std::io::Result<PathBuf> {
    let end = super::write::follow_links(link)?;
    let mut existing = end.as_path();
    let mut missing = Vec::new();
    let base = loop {
        match std::fs::canonicalize(existing) {
            Ok(real) => break real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let Some(parent) = existing.parent() else {
                    break existing.to_path_buf();
                };
                missing.extend(existing.file_name().map(Path::new));
                existing = parent;
            }
            Err(e) => return Err(e),
        }
    };
    let mut out = base;
    for part in missing.into_iter().rev() {
        for c in part.components() {
            match c {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::CurDir => {}
                other => out.push(other),
            }
        }
    }
    Ok(out)
}

/// An absolute folder without `..` (the key Claude Code uses for a project).
pub fn absolute_dir(dir: &Path) -> std::io::Result<PathBuf> {
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir()?.join(dir)
    };
    Ok(std::fs::canonicalize(&abs).unwrap_or(abs))
}
