//! Where agx keeps its data, configuration and cache (docs/store.md).
//!
//! With `AGX_HOME` set, everything lives under it (`AGX_HOME/config.toml`,
//! `AGX_HOME/cache/`); otherwise the platform's data, config and cache folders are used.

use std::path::PathBuf;

/// Why agx's folders cannot be found.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    #[error("cannot read the current directory (to resolve the relative AGX_HOME)")]
    CurrentDir(#[source] std::io::Error),
    #[error("cannot find a home directory for agx's data")]
    NoHome,
}

impl crate::error::Hint for PathsError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            PathsError::CurrentDir(_) => "set AGX_HOME to an absolute path".into(),
            PathsError::NoHome => "set AGX_HOME to a folder where agx may keep its store".into(),
        })
    }
}

/// The folders agx uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgxPaths {
    /// Root of the store, receipts and `clients-v1.toml`.
    pub home: PathBuf,
    /// Folder of `config.toml`.
    pub config_dir: PathBuf,
    /// Cached index data and downloads.
    pub cache_dir: PathBuf,
    /// True when `AGX_HOME` chose the home (client entries must then carry it).
    pub home_from_env: bool,
}

impl AgxPaths {
    /// Resolve from the environment.
    pub fn from_env() -> Result<Self, PathsError> {
        match std::env::var_os("AGX_HOME").filter(|v| !v.is_empty()) {
            Some(home) => {
                let home = PathBuf::from(home);
                let home = if home.is_absolute() {
                    home
                } else {
                    std::env::current_dir()
                        .map_err(PathsError::CurrentDir)?
                        .join(home)
                };
                Ok(Self::under(home, true))
            }
            None => {
                let dirs =
                    directories::ProjectDirs::from("", "", "agx").ok_or(PathsError::NoHome)?;
                Ok(AgxPaths {
                    home: dirs.data_dir().to_path_buf(),
                    config_dir: dirs.config_dir().to_path_buf(),
                    cache_dir: dirs.cache_dir().to_path_buf(),
                    home_from_env: false,
                })
            }
        }
    }

    /// Everything under one folder (used for `AGX_HOME` and in tests).
    pub fn under(home: PathBuf, home_from_env: bool) -> Self {
        AgxPaths {
            config_dir: home.clone(),
            cache_dir: home.join("cache"),
            home,
            home_from_env,
        }
    }

    pub fn config_file(&self) -> PathBuf {
        self.config_dir.join("config.toml")
    }

    /// The user's policy (docs/policy.md).
    pub fn policy_file(&self) -> PathBuf {
        self.config_dir.join("policy.toml")
    }

    pub fn store_dir(&self) -> PathBuf {
        self.home.join("store-v1")
    }

    pub fn receipts_dir(&self) -> PathBuf {
        self.home.join("receipts-v1")
    }

    pub fn clients_file(&self) -> PathBuf {
        self.home.join("clients-v1.toml")
    }

    pub fn logs_dir(&self) -> PathBuf {
        self.home.join("logs")
    }

    /// `pins-v1/`: each installed version's pinned definitions, laid out like `store-v1/`
    /// (docs/security.md, "Pinned definitions"). Apart from `data-v1/`, which a server's
    /// programs may write, so that no server can rewrite its own pins.
    pub fn pins_dir(&self) -> PathBuf {
        self.home.join("pins-v1")
    }

    /// `data-v1/`: each installed version's data outside the store (compiled-code caches),
    /// laid out like `store-v1/` (docs/ecosystem.md, "Compiled-code caches").
    pub fn data_dir(&self) -> PathBuf {
        self.home.join("data-v1")
    }

    /// `data/<publisher>/<name>/`: a package's own data folder (`{data}`, `AGX_DATA_DIR`,
    /// `${package.data}`, an imported plugin's `${CLAUDE_PLUGIN_DATA}`), outside the store
    /// and kept across its versions and uninstalls (docs/store.md, "Data folders").
    pub fn package_data_dir(&self, package: &crate::name::PackageName) -> PathBuf {
        let (publisher, name) = package.path_segments();
        self.home.join(PACKAGE_DATA).join(publisher).join(name)
    }

    /// [`AgxPaths::package_data_dir`], created when missing. A folder left by an older agx
    /// under `plugin-data-v1/` is moved here first, so a plugin keeps what it stored.
    pub fn ensure_package_data_dir(
        &self,
        package: &crate::name::PackageName,
    ) -> std::io::Result<PathBuf> {
        let dir = self.package_data_dir(package);
        if !dir.is_dir() {
            let (publisher, name) = package.path_segments();
            let legacy = self.home.join("plugin-data-v1").join(publisher).join(name);
            if let Some(parent) = dir.parent() {
                fs_err::create_dir_all(parent)?;
            }
            if legacy.is_dir() {
                fs_err::rename(&legacy, &dir)?;
            } else {
                fs_err::create_dir_all(&dir)?;
            }
        }
        Ok(dir)
    }
}

/// The folder under agx's home holding the packages' data folders.
const PACKAGE_DATA: &str = "data";

/// The data folder ([`AgxPaths::package_data_dir`]) of the package whose installed version
/// folder is `version_dir` (`<home>/store-v1/<publisher>/<name>/<version>/`); `None` for a
/// folder outside a store (a package run from its source folder).
pub fn package_data_of(version_dir: &std::path::Path) -> Option<PathBuf> {
    let versions = version_dir.parent()?;
    let publisher = versions.parent()?;
    let store = publisher.parent()?;
    if store.file_name()? != "store-v1" {
        return None;
    }
    Some(
        store
            .parent()?
            .join(PACKAGE_DATA)
            .join(publisher.file_name()?)
            .join(versions.file_name()?),
    )
}

/// An on/off setting as environment variables write it (`on`/`off`, `1`/`0`, `true`/`false`,
/// `yes`/`no`); `None` for anything else.
pub fn parse_switch(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "1" | "true" | "yes" => Some(true),
        "off" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// The system's policy (docs/policy.md), which the machine's administrator writes. Debug
/// builds (the tests) may name another file in `AGX_SYSTEM_POLICY`; a release build never
/// lets the environment move it, so a user cannot step around it.
pub fn system_policy_file() -> PathBuf {
    #[cfg(debug_assertions)]
    if let Some(path) = std::env::var_os("AGX_SYSTEM_POLICY").filter(|v| !v.is_empty()) {
        return PathBuf::from(path);
    }
    system_policy_default()
}

#[cfg(windows)]
fn system_policy_default() -> PathBuf {
    let data = std::env::var_os("ProgramData")
        .map_or_else(|| PathBuf::from(r"C:\ProgramData"), PathBuf::from);
    data.join("agx").join("policy.toml")
}

#[cfg(target_os = "macos")]
fn system_policy_default() -> PathBuf {
    PathBuf::from("/Library/Application Support/agx/policy.toml")
}

#[cfg(all(unix, not(target_os = "macos")))]
fn system_policy_default() -> PathBuf {
    PathBuf::from("/etc/agx/policy.toml")
}

/// The executable file `program` in a folder of `PATH`: on Unix a file with an execute bit;
/// on Windows `program` itself or with an extension of `PATHEXT` (`npx.cmd`, `uvx.exe`).
pub fn find_on_path(program: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| executable_in(&dir, program))
}

#[cfg(unix)]
fn executable_in(dir: &std::path::Path, program: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let candidate = dir.join(program);
    std::fs::metadata(&candidate)
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .then_some(candidate)
}

#[cfg(windows)]
fn executable_in(dir: &std::path::Path, program: &str) -> Option<std::path::PathBuf> {
    let extensions = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into());
    std::iter::once(String::new())
        .chain(
            extensions
                .split(';')
                .filter(|e| !e.is_empty())
                .map(str::to_ascii_lowercase),
        )
        .map(|extension| dir.join(format!("{program}{extension}")))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::PackageName;

    #[test]
    fn a_version_folder_maps_to_its_packages_data_folder() {
        let paths = AgxPaths::under(PathBuf::from("/h"), true);
        let name = PackageName::parse("npm/@scope/x").unwrap();
        let (publisher, segment) = name.path_segments();
        let version_dir = paths
            .store_dir()
            .join(publisher)
            .join(segment)
            .join("1.0.0");
        assert_eq!(
            package_data_of(&version_dir),
            Some(paths.package_data_dir(&name))
        );
        assert_eq!(package_data_of(std::path::Path::new("/src/pkg")), None);
    }

    #[test]
    fn a_legacy_plugin_data_folder_moves_to_the_data_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(tmp.path().to_path_buf(), true);
        let name = PackageName::parse("acme/p").unwrap();
        let legacy = tmp.path().join("plugin-data-v1/acme/p");
        fs_err::create_dir_all(&legacy).unwrap();
        fs_err::write(legacy.join("kept.txt"), "x").unwrap();
        let dir = paths.ensure_package_data_dir(&name).unwrap();
        assert_eq!(fs_err::read_to_string(dir.join("kept.txt")).unwrap(), "x");
        assert!(!legacy.exists());
    }
}
