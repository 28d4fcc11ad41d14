//! Uninstall policy: a package stays while client entries still launch its servers, and
//! every message names the command that removes such an entry.

use super::Scope;
use super::records::{Record, Records, RecordsError};
use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;

/// `agx uninstall` refused: the entries that still launch the package's servers.
#[derive(Debug, thiserror::Error)]
pub enum InUseError {
    #[error("{}", in_use_message(.0))]
    Used(Vec<Record>),
    #[error(transparent)]
    Records(#[from] RecordsError),
}

impl agx_core::error::Hint for InUseError {
    fn hint(&self) -> Option<String> {
        match self {
            InUseError::Used(_) => {
                Some("remove those entries first, or pass --force to uninstall anyway".into())
            }
            InUseError::Records(e) => e.hint(),
        }
    }
}

fn in_use_message(used: &[Record]) -> String {
    let one = used.len() == 1;
    let mut text = format!(
        "{} client entr{} still launch{} this package's servers:",
        used.len(),
        if one { "y" } else { "ies" },
        if one { "es" } else { "" }
    );
    for r in used {
        text.push_str(&format!(
            "\n  {} ({} scope) `{}` in {} runs {}; remove it with `{}`",
            r.client.id,
            r.scope,
            r.key,
            r.file.display(),
            r.server,
            uninstall_command(r)
        ));
    }
    text
}

/// The recorded client entries that launch a server of one of `packages`.
pub fn entries_using(
    paths: &AgxPaths,
    packages: &[PackageName],
) -> Result<Vec<Record>, RecordsError> {
    let records = Records::load(&paths.clients_file())?;
    Ok(records
        .entries
        .into_iter()
        .filter(|r| packages.contains(&r.server.package))
        .collect())
}

/// For `agx uninstall`: refuse (unless `force`) while client entries launch a server of one
/// of `packages`, naming each entry and the command that removes it.
pub fn refuse_uninstall_while_used(
    paths: &AgxPaths,
    packages: &[PackageName],
    force: bool,
) -> Result<(), InUseError> {
    if force {
        return Ok(());
    }
    let used = entries_using(paths, packages)?;
    if used.is_empty() {
        Ok(())
    } else {
        Err(InUseError::Used(used))
    }
}

/// The command that removes a recorded entry (for messages).
pub fn uninstall_command(record: &Record) -> String {
    let mut cmd = format!("agx uninstall-server {} {}", record.client.id, record.key);
    if record.scope != Scope::User {
        cmd.push_str(&format!(" --scope {}", record.scope));
    }
    if let Some(p) = &record.project {
        cmd.push_str(&format!(" --project {}", p.display()));
    } else if record.scope == Scope::Project {
        cmd.push_str(&format!(" --config {}", record.file.display()));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use agx_core::name::QualifiedName;

    #[test]
    fn uninstall_is_refused_while_entries_use_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().to_path_buf(), true);
        let mut records = Records::default();
        records.upsert(Record {
            client: crate::find_client("cursor").unwrap(),
            scope: Scope::User,
            file: "/home/u/.cursor/mcp.json".into(),
            key: "forecast".into(),
            server: QualifiedName::parse("acme/weather/forecast").unwrap(),
            project: None,
            command: "/opt/agx/bin/agx".into(),
        });
        records.save(&paths.clients_file()).unwrap();
        let weather = PackageName::parse("acme/weather").unwrap();
        let other = PackageName::parse("acme/other").unwrap();
        let err =
            refuse_uninstall_while_used(&paths, std::slice::from_ref(&weather), false).unwrap_err();
        assert!(
            err.to_string()
                .contains("remove it with `agx uninstall-server cursor forecast`"),
            "{err}"
        );
        assert!(refuse_uninstall_while_used(&paths, &[weather], true).is_ok());
        assert!(refuse_uninstall_while_used(&paths, &[other], false).is_ok());
    }
}
