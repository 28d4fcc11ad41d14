//! What can go wrong with a client file or the record of entries, and how to fix it.

use std::path::PathBuf;

use super::records::RecordsError;
use agx_edit::{EditError, SyntaxError};
use agx_model::client_table as table;

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
    Structure { file: PathBuf, source: EditError },
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
    #[error("{} is a symbolic link to {}, outside the project {}", link.display(), points_to.display(), project.display())]
    LinkLeavesProject {
        link: PathBuf,
        points_to: PathBuf,
        project: PathBuf,
    },
    #[error("{} is read-only; agx left it untouched", file.display())]
    ReadOnly { file: PathBuf },
    #[error("cannot write {}", file.display())]
    Write {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot lock {} for editing", file.display())]
    Lock {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Records(#[from] RecordsError),
    #[error("cannot find the home folder")]
    NoHome,
}

impl agx_core::error::Hint for ClientError {
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
            ClientError::Structure { source, .. } => Some(source.hint()),
            ClientError::KeyTaken { holds, .. } => Some(format!(
                "it runs `{holds}`; choose another key with --name KEY, or replace it with --force"
            )),
            ClientError::BadKey { .. } => Some(
                "use lowercase letters, digits and `-`, starting with a letter or digit (e.g. `weather-forecast`)".into(),
            ),
            ClientError::NoHome => Some("set HOME".into()),
            ClientError::LinkLeavesProject { link, .. } => Some(format!(
                "agx writes a project's client files only inside the project: replace {} with a regular file or folder (or a link inside the project), or use --scope user",
                link.display()
            )),
            ClientError::ReadOnly { file } => Some(format!(
                "make it writable (`chmod u+w {}`) and run the command again, or add the entry by hand",
                file.display()
            )),
            ClientError::Read { source, .. }
                if source.kind() == std::io::ErrorKind::InvalidData =>
            {
                Some(format!(
                    "replace it with a regular text file of at most {} (or remove it), then run the command again",
                    agx_core::regular_file::human_size(super::write::MAX_CLIENT_FILE_BYTES)
                ))
            }
            ClientError::NotAgxEntry { .. } => {
                Some("agx removes only entries that run `agx serve`; edit other entries by hand".into())
            }
            ClientError::Records(e) => e.hint(),
            _ => None,
        }
    }
}
