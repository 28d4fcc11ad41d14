//! MCP client configuration (DESIGN §6): the client table, lossless editors, and the
//! operations behind `install-server`, `uninstall-server`, `clients` and `doctor`.

pub mod doctor;
pub mod edit;
pub mod records;
pub mod resolve;
pub mod shape;
pub mod table;
pub mod write;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::Scope;
pub use edit::{Container, SyntaxError};
pub use records::{Record, Records};
pub use shape::ServerEntry;
pub use table::{CLIENTS, Client, Format, HostEnv};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("unknown MCP client `{0}`")]
    UnknownClient(String),
    #[error("{client} has no {scope} scope")]
    NoScope {
        client: &'static str,
        scope: &'static str,
    },
    #[error("{} does not parse; agx left it untouched", file.display())]
    Syntax { file: PathBuf, source: SyntaxError },
    #[error("cannot edit {}: {source}", file.display())]
    Structure {
        file: PathBuf,
        source: edit::EditError,
    },
    #[error("`{key}` in {} already holds a different server", file.display())]
    KeyTaken {
        file: PathBuf,
        key: String,
        holds: String,
    },
    #[error("`{key}` in {} is not an entry agx wrote", file.display())]
    NotAgxEntry { file: PathBuf, key: String },
    #[error("`{key}` is not a portable entry key")]
    BadKey { key: String },
    #[error("cannot read {}", file.display())]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}", file.display())]
    Write {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot find the home folder")]
    NoHome,
}

impl crate::error::Hint for ClientError {
    fn hint(&self) -> Option<String> {
        match self {
            ClientError::UnknownClient(name) => {
                let close = table::all_names()
                    .filter(|n| strsim::jaro_winkler(n, name) > 0.8)
                    .max_by(|a, b| strsim::jaro_winkler(a, name).total_cmp(&strsim::jaro_winkler(b, name)));
                Some(match close {
                    Some(n) => format!("did you mean `{n}`? `agx clients` lists every client"),
                    None => "`agx clients` lists every supported client".into(),
                })
            }
            ClientError::NoScope { .. } => Some("use --scope user".into()),
            ClientError::Syntax { source, .. } => Some(format!(
                "fix the file at line {}, column {} (or restore it from a backup), then run the command again",
                source.line, source.column
            )),
            ClientError::Structure { .. } => Some("fix that key by hand, or pass --config with another file".into()),
            ClientError::KeyTaken { holds, .. } => Some(format!(
                "it runs `{holds}`; choose another key with --name KEY, or replace it with --force"
            )),
            ClientError::BadKey { .. } => Some(
                "use lowercase letters, digits and `-`, starting with a letter or digit (e.g. `weather-forecast`)".into(),
            ),
            ClientError::NoHome => Some("set HOME".into()),
            ClientError::NotAgxEntry { .. } => {
                Some("agx removes only entries that run `agx serve`; edit other entries by hand".into())
            }
            _ => None,
        }
    }
}

pub fn find_client(name: &str) -> Result<&'static Client, ClientError> {
    table::find(name).ok_or_else(|| ClientError::UnknownClient(name.into()))
}

pub fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    }
}

pub fn parse_scope(name: &str) -> Option<Scope> {
    match name {
        "user" => Some(Scope::User),
        "project" => Some(Scope::Project),
        "local" => Some(Scope::Local),
        _ => None,
    }
}

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
    /// Permission bits of a new file: user files may hold secrets passed with --env (and
    /// Claude Code keeps `~/.claude.json` at 0600); project files are shared.
    pub fn new_file_mode(&self) -> u32 {
        match self.scope {
            Scope::Project => 0o644,
            _ => 0o600,
        }
    }

    pub fn record(&self, key: &str, server: &str, command: &str) -> Record {
        Record {
            client: self.client.id.into(),
            scope: scope_name(self.scope).into(),
            file: self.file.clone(),
            key: key.into(),
            server: server.into(),
            project: match self.scope {
                Scope::Local => self.project.clone(),
                _ => None,
            },
            command: command.into(),
        }
    }
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

/// Work out the file and container for a client and scope. `config` overrides the file.
pub fn target(
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

/// What an edit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Added,
    Updated,
    Unchanged,
    Removed,
    NotFound,
}

/// A planned edit: the file's text before (None when missing) and after.
#[derive(Debug)]
pub struct Change {
    pub target: Target,
    pub key: String,
    pub before: Option<String>,
    pub after: String,
    pub outcome: Outcome,
}

impl Change {
    pub fn diff(&self) -> String {
        write::unified_diff(
            &self.target.file,
            self.before.as_deref().unwrap_or(""),
            &self.after,
        )
    }

    /// Write the change (nothing when unchanged); returns the backup's path.
    pub fn apply(&self) -> Result<Option<PathBuf>, ClientError> {
        if matches!(self.outcome, Outcome::Unchanged | Outcome::NotFound) {
            return Ok(None);
        }
        write::write_atomic(
            &self.target.file,
            &self.after,
            self.target.new_file_mode(),
            true,
        )
        .map_err(|source| ClientError::Write {
            file: self.target.file.clone(),
            source,
        })
    }
}

/// Read and parse a target's file (a missing file is an empty document).
pub fn read_doc(
    target: &Target,
) -> Result<(Option<String>, Box<dyn edit::ConfigDoc>), ClientError> {
    let before = match std::fs::read_to_string(&target.file) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(ClientError::Read {
                file: target.file.clone(),
                source,
            });
        }
    };
    let doc =
        edit::parse(target.client.format, before.as_deref().unwrap_or("")).map_err(|source| {
            ClientError::Syntax {
                file: target.file.clone(),
                source,
            }
        })?;
    Ok((before, doc))
}

fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// Plan writing `entry` under `key`.
pub fn plan_install(
    target: &Target,
    key: &str,
    entry: &ServerEntry,
    force: bool,
) -> Result<Change, ClientError> {
    if !shape::is_portable_key(key) {
        return Err(ClientError::BadKey { key: key.into() });
    }
    let (before, mut doc) = read_doc(target)?;
    if let (None, Some(seed)) = (&before, target.client.new_file) {
        doc = edit::parse(target.client.format, &seed.replace("{key}", key))
            .expect("client seeds are valid");
    }
    let shape = target.client.shape;
    let rendered = shape::render(shape, key, entry);
    let existing = doc.get(&target.container, key);
    let (value, outcome) = match &existing {
        None => (rendered, Outcome::Added),
        Some(old) => {
            let same_server = shape::parse(shape, old)
                .is_some_and(|e| e.agx_server().is_some() && e.agx_server() == entry.agx_server());
            if same_server {
                let merged = shape::merge(old, &rendered);
                if &merged == old {
                    (merged, Outcome::Unchanged)
                } else {
                    (merged, Outcome::Updated)
                }
            } else if force {
                (rendered, Outcome::Updated)
            } else {
                return Err(ClientError::KeyTaken {
                    file: target.file.clone(),
                    key: key.into(),
                    holds: describe(old),
                });
            }
        }
    };
    if outcome == Outcome::Unchanged {
        let after = before.clone().unwrap_or_default();
        return Ok(Change {
            target: target.clone(),
            key: key.into(),
            before,
            after,
            outcome,
        });
    }
    doc.set(&target.container, key, &value)
        .map_err(|source| ClientError::Structure {
            file: target.file.clone(),
            source,
        })?;
    Ok(Change {
        target: target.clone(),
        key: key.into(),
        before,
        after: doc.text(),
        outcome,
    })
}

/// The agx entries of a file's container: (key, qualified server, entry).
pub fn agx_entries(target: &Target) -> Result<Vec<(String, String, ServerEntry)>, ClientError> {
    let (_, doc) = read_doc(target)?;
    Ok(doc
        .entries(&target.container)
        .into_iter()
        .filter_map(|(key, value)| {
            let entry = shape::parse(target.client.shape, &value)?;
            let server = entry.agx_server()?.to_string();
            Some((key, server, entry))
        })
        .collect())
}

/// Plan removing an entry named by key, or by the qualified server it launches.
pub fn plan_uninstall(target: &Target, key_or_server: &str) -> Result<Change, ClientError> {
    let (before, mut doc) = read_doc(target)?;
    let key = if key_or_server.contains('/') {
        doc.entries(&target.container)
            .into_iter()
            .find(|(_, v)| {
                shape::parse(target.client.shape, v)
                    .is_some_and(|e| e.agx_server() == Some(key_or_server))
            })
            .map(|(k, _)| k)
    } else {
        doc.get(&target.container, key_or_server)
            .map(|_| key_or_server.to_string())
    };
    let Some(key) = key else {
        return Ok(Change {
            target: target.clone(),
            key: key_or_server.into(),
            after: before.clone().unwrap_or_default(),
            before,
            outcome: Outcome::NotFound,
        });
    };
    let is_agx = doc
        .get(&target.container, &key)
        .and_then(|v| shape::parse(target.client.shape, &v))
        .is_some_and(|e| e.agx_server().is_some());
    if !is_agx {
        return Err(ClientError::NotAgxEntry {
            file: target.file.clone(),
            key,
        });
    }
    doc.remove(&target.container, &key);
    Ok(Change {
        target: target.clone(),
        key,
        before,
        after: doc.text(),
        outcome: Outcome::Removed,
    })
}

/// The recorded client entries that launch a server of `package` (for `agx uninstall`,
/// which refuses while they exist).
pub fn entries_using_package(
    paths: &crate::paths::AgxPaths,
    package: &crate::name::PackageName,
) -> Result<Vec<Record>, records::RecordsError> {
    let records = Records::load(&paths.clients_file())?;
    Ok(records
        .entries
        .into_iter()
        .filter(|r| {
            crate::name::QualifiedName::parse(&r.server).is_ok_and(|q| &q.package == package)
        })
        .collect())
}

/// For `agx uninstall`: refuse (unless `force`) while client entries launch a server of one
/// of `packages`, naming each entry and the command that removes it.
pub fn refuse_uninstall_while_used(
    paths: &crate::paths::AgxPaths,
    packages: &[crate::name::PackageName],
    force: bool,
) -> Result<(), crate::error::CliError> {
    if force {
        return Ok(());
    }
    let mut used = Vec::new();
    for package in packages {
        used.extend(entries_using_package(paths, package)?);
    }
    if used.is_empty() {
        return Ok(());
    }
    let mut err = crate::error::CliError::new(format!(
        "{} client entr{} still launch{} this package's servers",
        used.len(),
        if used.len() == 1 { "y" } else { "ies" },
        if used.len() == 1 { "es" } else { "" }
    ));
    for r in &used {
        err = err.with_cause(format!(
            "{} ({} scope) `{}` in {} runs {}; remove it with `{}`",
            r.client,
            r.scope,
            r.key,
            r.file.display(),
            r.server,
            uninstall_command(r)
        ));
    }
    Err(err.with_hint("remove those entries first, or pass --force to uninstall anyway"))
}

/// The command that removes a recorded entry (for messages).
pub fn uninstall_command(record: &Record) -> String {
    let mut cmd = format!("agx uninstall-server {} {}", record.client, record.key);
    if record.scope != "user" {
        cmd.push_str(&format!(" --scope {}", record.scope));
    }
    if let Some(p) = &record.project {
        cmd.push_str(&format!(" --project {}", p.display()));
    } else if record.scope == "project" {
        cmd.push_str(&format!(" --config {}", record.file.display()));
    }
    cmd
}

/// The target a record points at.
pub fn record_target(record: &Record) -> Result<Target, ClientError> {
    let client = find_client(&record.client)?;
    let scope = parse_scope(&record.scope).unwrap_or(Scope::User);
    let env = HostEnv::current().ok_or(ClientError::NoHome)?;
    target(
        client,
        scope,
        record.project.as_deref(),
        Some(&record.file),
        &record.key,
        &env,
    )
}

/// Print a result to stdout; a reader that went away (`agx clients | head`) is not an error.
pub fn print_result(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// The agx binary path to put into entries: canonical and absolute (GUI clients do not get
/// the shell's PATH).
pub fn agx_binary() -> std::io::Result<PathBuf> {
    std::fs::canonicalize(std::env::current_exe()?)
}

#[cfg(test)]
mod golden_tests;
