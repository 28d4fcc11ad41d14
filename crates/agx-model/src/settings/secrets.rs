//! Where secret values live: the OS keyring (Secret Service on Linux, Keychain on macOS,
//! Credential Manager on Windows) through the `keyring` crate, or, where no keyring is
//! reachable or `AGX_KEYRING=file` asks for it, a file only its owner may read.

use std::path::{Path, PathBuf};

use super::SettingsError;
use super::document::{self, Document};

/// `AGX_KEYRING`: which store secrets use.
pub const KEYRING_ENV: &str = "AGX_KEYRING";

/// What `AGX_KEYRING` chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyringChoice {
    /// The OS keyring when one answers, else the secrets file (the default).
    Auto,
    /// The OS keyring or an error.
    Os,
    /// The secrets file only (tests, headless machines).
    File,
}

impl KeyringChoice {
    pub fn from_env() -> Result<Self, SettingsError> {
        match std::env::var(KEYRING_ENV) {
            Err(std::env::VarError::NotPresent) => Ok(KeyringChoice::Auto),
            Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
                "" | "auto" => Ok(KeyringChoice::Auto),
                "os" => Ok(KeyringChoice::Os),
                "file" => Ok(KeyringChoice::File),
                _ => Err(SettingsError::BadKeyringChoice(v)),
            },
            Err(std::env::VarError::NotUnicode(v)) => Err(SettingsError::BadKeyringChoice(
                v.to_string_lossy().into_owned(),
            )),
        }
    }
}

/// The OS keyring's name, for messages.
pub fn os_backend_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "macOS Keychain"
    } else if cfg!(windows) {
        "Windows Credential Manager"
    } else {
        "Secret Service"
    }
}

/// Where secrets are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretsLocation {
    /// The OS keyring, under this service name.
    Keyring { service: String },
    /// The owner-only file; `fell_back` when it is used because no keyring answered.
    File { path: PathBuf, fell_back: bool },
}

impl std::fmt::Display for SecretsLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretsLocation::Keyring { service } => {
                write!(f, "the {} keyring (service `{service}`)", os_backend_name())
            }
            SecretsLocation::File { path, .. } => write!(f, "{}", path.display()),
        }
    }
}

/// The secret store of one agx home.
pub struct Secrets {
    location: SecretsLocation,
    file: PathBuf,
}

impl Secrets {
    /// Choose the store. `service` names agx's entries in the keyring; `file` is the
    /// fallback file.
    pub fn open(choice: KeyringChoice, service: String, file: PathBuf) -> Self {
        let keyring = SecretsLocation::Keyring { service };
        let location = match choice {
            KeyringChoice::File => SecretsLocation::File {
                path: file.clone(),
                fell_back: false,
            },
            KeyringChoice::Os => keyring,
            KeyringChoice::Auto if keyring_answers(&keyring) => keyring,
            KeyringChoice::Auto => SecretsLocation::File {
                path: file.clone(),
                fell_back: true,
            },
        };
        Secrets { location, file }
    }

    pub fn location(&self) -> &SecretsLocation {
        &self.location
    }

    pub fn get(&self, package: &str, key: &str) -> Result<Option<String>, SettingsError> {
        match &self.location {
            SecretsLocation::Keyring { service } => {
                match self.entry(service, package, key)?.get_password() {
                    Ok(v) => Ok(Some(v)),
                    Err(keyring::Error::NoEntry) => Ok(None),
                    Err(e) => Err(self.keyring_error(e)),
                }
            }
            SecretsLocation::File { .. } => {
                Ok(read_file(&self.file)?.get(package, key).map(str::to_string))
            }
        }
    }

    /// Store a secret (the caller holds the settings lock).
    pub fn set(&self, package: &str, key: &str, value: &str) -> Result<(), SettingsError> {
        match &self.location {
            SecretsLocation::Keyring { service } => self
                .entry(service, package, key)?
                .set_password(value)
                .map_err(|e| self.keyring_error(e)),
            SecretsLocation::File { .. } => {
                let mut doc = read_file(&self.file)?;
                doc.insert(package, key, value.to_string());
                write_file(&self.file, &doc)
            }
        }
    }

    /// Remove a secret; whether there was one (the caller holds the settings lock).
    pub fn remove(&self, package: &str, key: &str) -> Result<bool, SettingsError> {
        match &self.location {
            SecretsLocation::Keyring { service } => {
                match self.entry(service, package, key)?.delete_credential() {
                    Ok(()) => Ok(true),
                    Err(keyring::Error::NoEntry) => Ok(false),
                    Err(e) => Err(self.keyring_error(e)),
                }
            }
            SecretsLocation::File { .. } => {
                let mut doc = read_file(&self.file)?;
                let removed = doc.remove(package, key);
                if removed {
                    write_file(&self.file, &doc)?;
                }
                Ok(removed)
            }
        }
    }

    fn entry(
        &self,
        service: &str,
        package: &str,
        key: &str,
    ) -> Result<keyring::Entry, SettingsError> {
        keyring::Entry::new(service, &format!("{package}/{key}")).map_err(|e| self.keyring_error(e))
    }

    fn keyring_error(&self, e: keyring::Error) -> SettingsError {
        let locked = is_locked(&e);
        SettingsError::Keyring {
            backend: os_backend_name(),
            detail: e.to_string(),
            locked,
            fallback: self.file.clone(),
        }
    }
}

/// The Secret Service's D-Bus error for an operation on a locked collection.
const SECRET_SERVICE_IS_LOCKED: &str = "org.freedesktop.Secret.Error.IsLocked";

/// Whether a keyring error means the keyring is locked: a dismissed unlock prompt
/// (`NoStorageAccess`), or the Secret Service refusing to create an item in a locked
/// collection, which the `keyring` crate passes on only as a platform failure.
fn is_locked(e: &keyring::Error) -> bool {
    match e {
        keyring::Error::NoStorageAccess(_) => true,
        keyring::Error::PlatformFailure(inner) => {
            inner.to_string().contains(SECRET_SERVICE_IS_LOCKED)
        }
        _ => false,
    }
}

/// Whether the OS keyring answers a lookup (an entry that is absent counts as an answer).
fn keyring_answers(location: &SecretsLocation) -> bool {
    let SecretsLocation::Keyring { service } = location else {
        return false;
    };
    let answer = keyring::Entry::new(service, "agx-keyring-probe").and_then(|e| e.get_password());
    match answer {
        Ok(_) | Err(keyring::Error::NoEntry) => true,
        // A locked keyring answers too: using it reports the lock, rather than hiding the
        // secrets kept there behind an empty file.
        Err(keyring::Error::NoStorageAccess(_)) => true,
        Err(e) => {
            tracing::debug!("no OS keyring: {e}");
            false
        }
    }
}

/// Read the secrets file, refusing one that others may read.
fn read_file(path: &Path) -> Result<Document, SettingsError> {
    check_private(path)?;
    document::read(path)
}

fn write_file(path: &Path, doc: &Document) -> Result<(), SettingsError> {
    check_private(path)?;
    document::write(
        path,
        doc,
        "# agx secrets (docs/settings.md): readable by its owner alone; edit with `agx config`.",
        0o600,
    )
}

/// A secrets file that exists must be readable and writable by its owner alone.
fn check_private(path: &Path) -> Result<(), SettingsError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::metadata(path) {
            Ok(meta) => {
                let mode = meta.permissions().mode() & 0o777;
                if mode & 0o077 != 0 {
                    return Err(SettingsError::SecretsFileExposed {
                        path: path.to_path_buf(),
                        mode,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(SettingsError::Io(agx_core::io_context::at("read", path)(e)));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn file_store(dir: &Path) -> Secrets {
        Secrets::open(
            KeyringChoice::File,
            "agx-test".into(),
            dir.join("secrets-v1.toml"),
        )
    }

    #[test]
    fn a_locked_secret_service_collection_counts_as_locked() {
        let platform = |text: &str| keyring::Error::PlatformFailure(text.to_string().into());
        assert!(is_locked(&platform(
            "zbus error: org.freedesktop.Secret.Error.IsLocked: Cannot create an item in a locked collection"
        )));
        assert!(!is_locked(&platform(
            "zbus error: org.freedesktop.DBus.Error.ServiceUnknown"
        )));
        assert!(is_locked(&keyring::Error::NoStorageAccess(
            "prompt dismissed".to_string().into()
        )));
        assert!(!is_locked(&keyring::Error::NoEntry));
    }

    #[cfg(unix)]
    #[test]
    fn the_file_store_keeps_secrets_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let s = file_store(dir.path());
        assert_eq!(s.get("acme/w", "api_key").unwrap(), None);
        s.set("acme/w", "api_key", "canary").unwrap();
        assert_eq!(
            s.get("acme/w", "api_key").unwrap().as_deref(),
            Some("canary")
        );
        let path = dir.path().join("secrets-v1.toml");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(s.remove("acme/w", "api_key").unwrap());
        assert!(!s.remove("acme/w", "api_key").unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_file_is_refused_without_waiting() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let s = file_store(dir.path());
        let path = dir.path().join("secrets-v1.toml");
        let made = std::process::Command::new("mkfifo")
            .arg("-m")
            .arg("600")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let err = s.get("acme/w", "api_key").unwrap_err();
        assert!(matches!(err, SettingsError::Corrupt { .. }), "{err:?}");
        assert!(err.to_string().contains("FIFO"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_read_is_refused_on_every_read() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let s = file_store(dir.path());
        s.set("acme/w", "api_key", "canary").unwrap();
        let path = dir.path().join("secrets-v1.toml");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = s.get("acme/w", "api_key").unwrap_err();
        assert!(matches!(
            err,
            SettingsError::SecretsFileExposed { mode: 0o644, .. }
        ));
        let hint = agx_core::error::Hint::hint(&err).unwrap();
        assert!(hint.contains("chmod 600"), "{hint}");
        assert!(
            s.set("acme/w", "api_key", "x").is_err(),
            "nothing is written either"
        );
    }
}
