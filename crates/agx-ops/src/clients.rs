//! The supported clients, their config files on this machine, and the agx entries in them.

use std::path::PathBuf;

use serde::Serialize;

use super::OpsResult;
use agx_clients::{self as clients, CLIENTS, ClientError, HostEnv, Scope, Target};

/// One client (a row of `agx clients --json`, docs/json.md).
#[derive(Debug, Serialize)]
pub struct ClientInfo {
    pub client: &'static str,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub format: &'static str,
    pub files: Vec<FileInfo>,
    /// The skill copies agx wrote into folders this client reads (docs/skills.md).
    pub skills: Vec<SkillCopyInfo>,
    /// The other skills in the user's folders this client reads (`~/.agents/skills/x`
    /// written by hand or by another tool): the client loads them too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_skills: Vec<PathBuf>,
}

/// One skill copy in a folder a client reads.
#[derive(Debug, Serialize)]
pub struct SkillCopyInfo {
    /// `user` or `project`.
    pub scope: agx_model::skills::folders::FolderScope,
    /// The skills folder (`/home/ada/.agents/skills`).
    pub folder: PathBuf,
    /// The copy (`/home/ada/.agents/skills/review`).
    pub path: PathBuf,
    /// `publisher/package/skill`.
    pub skill: String,
    pub package: String,
    pub version: semver::Version,
    /// `ok`, `hand-edited`, `missing`, or `package-missing` (an unedited copy whose package
    /// is no longer installed).
    pub state: &'static str,
    /// The project whose `agx sync` wrote it (absent for `install-skill`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// For a project's skill folder of its own: the folder it is copied from, which takes
    /// the place of a package (`package` is then `project`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_folder: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
pub struct FileInfo {
    pub scope: &'static str,
    pub path: String,
    pub exists: bool,
    pub entries: Vec<EntryInfo>,
    /// The keys of the file's other servers (not `agx serve`): the client starts them too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_entries: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EntryInfo {
    pub key: String,
    pub server: String,
    pub command: String,
}

/// Every client in the table; the project scope is read for the current directory.
pub fn clients(paths: &agx_core::paths::AgxPaths) -> OpsResult<Vec<ClientInfo>> {
    let host = HostEnv::current().ok_or(ClientError::NoHome)?;
    let copies = super::skills::recorded_copies(paths)?;
    let mut infos = Vec::new();
    for client in CLIENTS {
        let mut scopes = vec![Scope::User];
        if client.project.is_some() {
            scopes.push(Scope::Project);
        }
        if client.local_scope {
            scopes.push(Scope::Local);
        }
        let mut files = Vec::new();
        for scope in scopes {
            // The project scope is shown for the current directory.
            let target = Target::new(client, scope, None, None, "KEY", &host)?;
            let exists = target.file.is_file();
            let (entries, other_entries, error) = if exists {
                match clients::entries_by_owner(&target) {
                    Ok((agx, other)) => (
                        agx.into_iter()
                            .map(|(key, server, e)| EntryInfo {
                                key,
                                server,
                                command: e.command,
                            })
                            .collect(),
                        other,
                        None,
                    ),
                    Err(e) => (Vec::new(), Vec::new(), Some(e.to_string())),
                }
            } else {
                (Vec::new(), Vec::new(), None)
            };
            // Project files of other projects and absent local entries say nothing useful.
            if scope != Scope::User && !exists {
                continue;
            }
            files.push(FileInfo {
                scope: scope.as_str(),
                path: target.file.display().to_string(),
                exists,
                entries,
                other_entries,
                error,
            });
        }
        infos.push(ClientInfo {
            client: client.id,
            name: client.display,
            aliases: client.aliases,
            format: client.format.as_str(),
            files,
            skills: skill_copies(client.id, &copies, &host.home),
            other_skills: other_skills(client.id, &copies, &host.home),
        });
    }
    Ok(infos)
}

/// The skills in the user folders `client` reads that agx did not record: each a folder
/// holding `SKILL.md`, in name order.
fn other_skills(
    client: &str,
    copies: &[super::skills::CopyStatus],
    home: &std::path::Path,
) -> Vec<PathBuf> {
    use agx_model::skills::folders::{FolderChoice, folder};
    let mut found = Vec::new();
    for choice in [FolderChoice::Shared, FolderChoice::Own] {
        let Some(relative) = folder(client, false, choice) else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(home.join(relative)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let recorded = copies.iter().any(|c| c.copy.path == path);
            if !recorded && !found.contains(&path) && path.join("SKILL.md").is_file() {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The recorded copies in the folders `client` reads.
fn skill_copies(
    client: &str,
    copies: &[super::skills::CopyStatus],
    home: &std::path::Path,
) -> Vec<SkillCopyInfo> {
    use agx_model::skills::copies::CopyState;
    copies
        .iter()
        .filter_map(|c| {
            let folder = c.copy.path.parent()?;
            let (_, scope) = agx_model::skills::folders::readers(folder, Some(home))
                .into_iter()
                .find(|(id, _)| *id == client)?;
            Some(SkillCopyInfo {
                scope,
                folder: folder.to_path_buf(),
                path: c.copy.path.clone(),
                skill: c.copy.skill.to_string(),
                package: c.copy.skill.package.to_string(),
                version: c.copy.version.clone(),
                state: match (c.state, c.package_installed) {
                    (CopyState::HandEdited, _) => "hand-edited",
                    (CopyState::Missing, _) => "missing",
                    (CopyState::Ok, false) => "package-missing",
                    (CopyState::Ok, true) => "ok",
                },
                project: c.copy.project.clone(),
                source_folder: c.copy.folder.clone(),
            })
        })
        .collect()
}
