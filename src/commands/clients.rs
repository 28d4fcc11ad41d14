//! `agx clients`: supported clients, their config files here, and the agx entries in them.

use std::fmt::Write;

use serde::Serialize;

use super::Context;
use crate::cli::JsonArgs;
use crate::clients::{self, CLIENTS, ClientError, HostEnv, Scope, Target};
use crate::error::CliResult;
use crate::ui::{self, Style, paint};

#[derive(Serialize)]
struct ClientInfo {
    client: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    format: &'static str,
    files: Vec<FileInfo>,
}

#[derive(Serialize)]
struct FileInfo {
    scope: &'static str,
    path: String,
    exists: bool,
    entries: Vec<EntryInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct EntryInfo {
    key: String,
    server: String,
    command: String,
}

pub fn run(_ctx: &Context, args: &JsonArgs) -> CliResult {
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
                    Err(e) => (Vec::new(), Some(crate::error::CliError::from(e).message)),
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
    let mut out = String::new();
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&infos).expect("serializable")
        );
        ui::print_result(&out);
        return Ok(());
    }
    for info in &infos {
        let _ = writeln!(
            out,
            "{} {}",
            paint(Style::Bold, info.client),
            paint(Style::Dim, &format!("({})", info.name))
        );
        for f in &info.files {
            let state = match (&f.error, f.exists) {
                (Some(e), _) => format!("unreadable: {e}"),
                (None, true) => "exists".to_string(),
                (None, false) => "not created yet".to_string(),
            };
            let _ = writeln!(out, "  {:<8} {}  [{state}]", f.scope, f.path);
            for e in &f.entries {
                let _ = writeln!(out, "           {} -> {}", e.key, e.server);
            }
        }
    }
    ui::print_result(&out);
    Ok(())
}
