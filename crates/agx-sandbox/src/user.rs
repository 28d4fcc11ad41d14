//! The user's permissions of a server (`agx permissions set|show|reset`), in
//! `permissions-v1.toml` under agx's config folder, keyed by qualified server: they replace
//! what the package declares (for a wrapped npm, PyPI, OCI, MCPB or registry server, which
//! declares nothing, they are the only ones). See docs/sandbox.md.

use std::path::PathBuf;

use super::Permissions;
use super::permissions::{host_problem, path_problem};
use agx_core::name::QualifiedName;
use agx_core::paths::AgxPaths;

#[derive(Debug, thiserror::Error)]
pub enum PermissionsFileError {
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a permissions file: {detail}", path.display())]
    Invalid { path: PathBuf, detail: String },
    #[error("{} does not load, so the permissions it may give this server are unknown: {detail}", path.display())]
    ProjectUnreadable { path: PathBuf, detail: String },
    #[error("could not write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Refused(String, String),
}

impl agx_core::error::Hint for PermissionsFileError {
    fn hint(&self) -> Option<String> {
        match self {
            PermissionsFileError::Invalid { .. } => Some(
                "fix the line named, or `agx permissions reset SERVER` and set them again".into(),
            ),
            PermissionsFileError::Refused(_, fix) => Some(fix.clone()),
            PermissionsFileError::ProjectUnreadable { .. } => Some(
                "fix the project file (`agx validate` names the place); agx does not start a server whose permissions it cannot read"
                    .into(),
            ),
            PermissionsFileError::Read { .. } | PermissionsFileError::Write { .. } => None,
        }
    }
}

fn table(paths: &AgxPaths) -> agx_core::server_table::ServerTable<'_> {
    agx_core::server_table::ServerTable {
        config_dir: &paths.config_dir,
        stem: "permissions-v1",
        header: "Written by `agx permissions set|reset` (docs/sandbox.md).",
    }
}

/// The file of the user's permissions.
pub fn permissions_file(paths: &AgxPaths) -> PathBuf {
    table(paths).path()
}

impl From<agx_core::server_table::TableError> for PermissionsFileError {
    fn from(e: agx_core::server_table::TableError) -> Self {
        use agx_core::server_table::TableError;
        match e {
            TableError::Read { path, source } => PermissionsFileError::Read { path, source },
            TableError::Invalid { path, detail } => PermissionsFileError::Invalid { path, detail },
            TableError::Write { path, source } => PermissionsFileError::Write { path, source },
        }
    }
}

/// The user's permissions of `server`, when recorded.
pub fn user_permissions(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<Option<Permissions>, PermissionsFileError> {
    Ok(table(paths)
        .read::<Permissions>()?
        .remove(&server.to_string()))
}

fn accepted_table(paths: &AgxPaths) -> agx_core::server_table::ServerTable<'_> {
    agx_core::server_table::ServerTable {
        config_dir: &paths.config_dir,
        stem: "accepted-permissions-v1",
        header: "Written by `agx permissions accept` (docs/sandbox.md): what a project's agx.toml may grant.",
    }
}

/// The key of a project's server in the accepted table: the server and the project file.
fn accepted_key(project_file: &std::path::Path, server: &QualifiedName) -> String {
    format!("{server} in {}", project_file.display())
}

/// The permissions of `server` in the project file `project_file` that the user accepted
/// (`agx permissions accept`), if any.
pub fn accepted_project_permissions(
    paths: &AgxPaths,
    project_file: &std::path::Path,
    server: &QualifiedName,
) -> Result<Option<Permissions>, PermissionsFileError> {
    Ok(accepted_table(paths)
        .read::<Permissions>()?
        .remove(&accepted_key(project_file, server)))
}

/// Record that the user accepts `permissions` for `server` in the project file
/// `project_file`: agx serve applies them there even where they grant more than the
/// package's (or the user's), until the project asks for more. Returns whether anything
/// changed.
pub fn accept_project_permissions(
    paths: &AgxPaths,
    project_file: &std::path::Path,
    server: &QualifiedName,
    permissions: &Permissions,
) -> Result<bool, PermissionsFileError> {
    check(permissions)?;
    Ok(accepted_table(paths).record(
        &accepted_key(project_file, server),
        Some(permissions.clone()),
    )?)
}

/// Why `permissions` cannot be recorded (a bad path or host), with the fix.
pub fn check(permissions: &Permissions) -> Result<(), PermissionsFileError> {
    for path in permissions.read.iter().chain(&permissions.write) {
        if let Some((problem, fix)) = path_problem(path) {
            return Err(PermissionsFileError::Refused(problem, fix));
        }
    }
    if let super::Network::Hosts(hosts) = &permissions.network {
        for host in hosts {
            if let Some(problem) = host_problem(host) {
                return Err(PermissionsFileError::Refused(
                    problem,
                    "give --network none, loopback, any or host names".into(),
                ));
            }
        }
    }
    for name in &permissions.env {
        if !agx_model::settings::declaration::is_valid_env_name(name) {
            return Err(PermissionsFileError::Refused(
                format!("`{name}` is not a variable name"),
                "use letters, digits and `_`, not starting with a digit".into(),
            ));
        }
    }
    Ok(())
}

/// Record `permissions` as the user's for `server`, or remove them (`None`). Checked first;
/// the file is replaced whole or left as it was. Returns whether anything changed.
pub fn record(
    paths: &AgxPaths,
    server: &QualifiedName,
    permissions: Option<&Permissions>,
) -> Result<bool, PermissionsFileError> {
    if let Some(p) = permissions {
        check(p)?;
    }
    Ok(table(paths).record(&server.to_string(), permissions.cloned())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Network;

    #[test]
    fn permissions_are_recorded_read_back_and_reset() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(tmp.path().to_path_buf(), true);
        let server = QualifiedName::parse("npm/@scope/x/x").unwrap();
        let p = Permissions {
            write: vec!["/srv/ok".into()],
            network: Network::Hosts(vec!["api.example".into()]),
            ..Default::default()
        };
        assert!(record(&paths, &server, Some(&p)).unwrap());
        assert_eq!(user_permissions(&paths, &server).unwrap(), Some(p));
        assert!(record(&paths, &server, None).unwrap());
        assert_eq!(user_permissions(&paths, &server).unwrap(), None);
        let bad = Permissions {
            read: vec!["relative".into()],
            ..Default::default()
        };
        assert!(record(&paths, &server, Some(&bad)).is_err());
        assert!(
            !permissions_file(&paths).exists()
                || user_permissions(&paths, &server).unwrap().is_none()
        );
    }

    #[test]
    fn a_projects_permissions_are_accepted_per_project_file() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(tmp.path().to_path_buf(), true);
        let server = QualifiedName::parse("acme/files/main").unwrap();
        let (one, two) = (tmp.path().join("a/agx.toml"), tmp.path().join("b/agx.toml"));
        let p = Permissions {
            write: vec!["{home}/work".into()],
            ..Default::default()
        };
        assert!(accept_project_permissions(&paths, &one, &server, &p).unwrap());
        assert!(!accept_project_permissions(&paths, &one, &server, &p).unwrap());
        assert_eq!(
            accepted_project_permissions(&paths, &one, &server).unwrap(),
            Some(p)
        );
        assert_eq!(
            accepted_project_permissions(&paths, &two, &server).unwrap(),
            None
        );
    }
}
