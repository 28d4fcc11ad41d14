//! The supported clients, their config files on this machine, and the agx entries in them.

use serde::Serialize;

use super::OpsResult;
use crate::clients::{self, CLIENTS, ClientError, HostEnv, Scope, Target};

/// One client (a row of `agx clients --json`, docs/json.md).
#[derive(Debug, Serialize)]
pub struct ClientInfo {
    pub client: &'static str,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub format: &'static str,
    pub files: Vec<FileInfo>,
}

#[derive(Debug, Serialize)]
pub struct FileInfo {
    pub scope: &'static str,
    pub path: String,
    pub exists: bool,
    pub entries: Vec<EntryInfo>,
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
pub fn clients() -> OpsResult<Vec<ClientInfo>> {
    let host = HostEnv::current().ok_or(ClientError::NoHome)?;
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
            let (entries, error) = if exists {
                match clients::agx_entries(&target) {
                    Ok(found) => (
                        found
                            .into_iter()
                            .map(|(key, server, e)| EntryInfo {
                                key,
                                server,
                                command: e.command,
                            })
                            .collect(),
                        None,
                    ),
                    Err(e) => (Vec::new(), Some(e.to_string())),
                }
            } else {
                (Vec::new(), None)
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
                error,
            });
        }
        infos.push(ClientInfo {
            client: client.id,
            name: client.display,
            aliases: client.aliases,
            format: client.format.as_str(),
            files,
        });
    }
    Ok(infos)
}
