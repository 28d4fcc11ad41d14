//! The user's permissions of a server (`agx permissions set|show|reset`), in
//! `permissions-v1.toml` under agx's config folder, keyed by qualified server: they replace
//! what the package declares (for a wrapped npm, PyPI, OCI, MCPB or registry server, which
//! declares nothing, they are the only ones). See docs/sandbox.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Permissions;
use super::permissions::{host_problem, path_problem};
use crate::name::QualifiedName;
use crate::paths::AgxPaths;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionsFile {
    version: u32,
    #[serde(default)]
    servers: BTreeMap<String, Permissions>,
}

const FILE_VERSION: u32 = 1;
/// Larger than any set of permissions a person writes; keeps a corrupt file from being read
/// whole.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum PermissionsFileError {
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a permissions file: {detail}", path.display())]
    Invalid { path: PathBuf, detail: String },
    #[error("could not write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Refused(String, String),
}

impl crate::error::Hint for PermissionsFileError {
    fn hint(&self) -> Option<String> {
        match self {
            PermissionsFileError::Invalid { .. } => Some(
                "fix the line named, or `agx permissions reset SERVER` and set them again".into(),
            ),
            PermissionsFileError::Refused(_, fix) => Some(fix.clone()),
            PermissionsFileError::Read { .. } | PermissionsFileError::Write { .. } => None,
        }
    }
}

/// The file of the user's permissions.
pub fn permissions_file(paths: &AgxPaths) -> PathBuf {
    paths.config_dir.join("permissions-v1.toml")
}

fn read_file(path: &Path) -> Result<PermissionsFile, PermissionsFileError> {
    use crate::regular_file::ReadProblem;
    let text = match crate::regular_file::read_text(path, MAX_FILE_BYTES) {
        Ok(text) => text,
        Err(ReadProblem::NotFound) => return Ok(PermissionsFile::default()),
        Err(problem) => {
            return Err(PermissionsFileError::Read {
                path: path.into(),
                source: problem.into_io(),
            });
        }
    };
    let file: PermissionsFile =
        toml::from_str(&text).map_err(|e| PermissionsFileError::Invalid {
            path: path.into(),
            detail: e.to_string(),
        })?;
    if file.version != FILE_VERSION {
        return Err(PermissionsFileError::Invalid {
            path: path.into(),
            detail: format!(
                "version {} (this agx reads version {FILE_VERSION})",
                file.version
            ),
        });
    }
    Ok(file)
}

/// The user's permissions of `server`, when recorded.
pub fn user_permissions(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<Option<Permissions>, PermissionsFileError> {
    Ok(read_file(&permissions_file(paths))?
        .servers
        .remove(&server.to_string()))
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
        if !crate::settings::declaration::is_valid_env_name(name) {
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
    let path = permissions_file(paths);
    let lock_path = paths.config_dir.join("permissions-v1.lock");
    fs_err::create_dir_all(&paths.config_dir).map_err(|source| PermissionsFileError::Write {
        path: paths.config_dir.clone(),
        source,
    })?;
    let _lock = crate::file_lock::FileLock::acquire(
        &lock_path,
        crate::file_lock::LockMode::Exclusive,
        || {},
    )
    .map_err(|source| PermissionsFileError::Write {
        path: lock_path.clone(),
        source,
    })?;
    let mut file = read_file(&path)?;
    file.version = FILE_VERSION;
    let before = file.servers.clone();
    match permissions {
        Some(p) => {
            file.servers.insert(server.to_string(), p.clone());
        }
        None => {
            file.servers.remove(&server.to_string());
        }
    }
    if file.servers == before {
        return Ok(false);
    }
    let text = toml::to_string(&file).map_err(|e| PermissionsFileError::Invalid {
        path: path.clone(),
        detail: e.to_string(),
    })?;
    let text = format!("# Written by `agx permissions set|reset` (docs/sandbox.md).\n{text}");
    crate::atomic::write_file(&path, text.as_bytes(), None)
        .map_err(|source| PermissionsFileError::Write { path, source })?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Network;

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
}
