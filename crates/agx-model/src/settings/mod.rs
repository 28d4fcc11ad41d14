//! Settings and secrets (docs/settings.md): packages declare the settings their tools need
//! ([`Setting`]); users set values once with `agx config`, for every client at once.
//!
//! - [`declaration`]: the declaration model and value checking, independent of any package
//!   format;
//! - [`store`]: non-secret values in a versioned TOML file, secrets in the OS keyring or an
//!   owner-only file ([`secrets`]), and resolution (env override > stored > default);
//! - [`redact`]: keeping secret values out of text that leaves agx.

pub mod declaration;
mod document;
pub mod env_override;
pub mod placeholders;
pub mod redact;
pub mod resolve;
pub mod secrets;
pub mod store;

use std::path::PathBuf;

pub use declaration::{Setting, SettingType, ValueError, is_valid_key, key_from};
pub use env_override::override_name;
pub use redact::Redactor;
pub use resolve::{PackageSettings, ResolvedSetting, ValueSource, missing_message, set_command};
pub use secrets::{KEYRING_ENV, KeyringChoice, SecretsLocation};
pub use store::{SettingsStore, StoredIn};

use agx_core::name::PackageName;

/// Why settings could not be read or stored. No message ever holds a value.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{} is not a valid settings file: {detail}", path.display())]
    Corrupt { path: PathBuf, detail: String },
    #[error("{} has format version {found}; this agx reads version {}", path.display(), document::VERSION)]
    Version { path: PathBuf, found: u32 },
    #[error("{} can be read by other users (mode {mode:03o})", path.display())]
    SecretsFileExposed { path: PathBuf, mode: u32 },
    #[error("the {backend} keyring {}: {detail}", if *locked { "refused access (is it locked?)" } else { "failed" })]
    Keyring {
        backend: &'static str,
        detail: String,
        locked: bool,
        /// The file that `AGX_KEYRING=file` would use instead.
        fallback: PathBuf,
    },
    #[error("{KEYRING_ENV}={0:?} is not a choice of secret store")]
    BadKeyringChoice(String),
    #[error("{variable} does not hold a valid value for setting `{key}` of {package}: {problem}")]
    BadOverride {
        variable: String,
        package: PackageName,
        key: String,
        problem: String,
    },
    #[error(transparent)]
    Io(std::io::Error),
}

impl agx_core::error::Hint for SettingsError {
    fn hint(&self) -> Option<String> {
        match self {
            SettingsError::Corrupt { path, .. } | SettingsError::Version { path, .. } => {
                Some(format!(
                    "agx left the file as it is: fix it by hand, or move it away to start afresh ({})",
                    path.display()
                ))
            }
            SettingsError::SecretsFileExposed { path, .. } => Some(format!(
                "make it private with `chmod 600 {}`, then run the command again",
                path.display()
            )),
            SettingsError::Keyring {
                locked, fallback, ..
            } => Some(format!(
                "{}keep secrets in a file only you can read with {KEYRING_ENV}=file ({})",
                if *locked {
                    "unlock the keyring, or "
                } else {
                    ""
                },
                fallback.display()
            )),
            SettingsError::BadKeyringChoice(_) => {
                Some(format!("set {KEYRING_ENV} to auto, os or file"))
            }
            SettingsError::BadOverride { variable, .. } => Some(format!("fix or unset {variable}")),
            SettingsError::Io(_) => None,
        }
    }
}
