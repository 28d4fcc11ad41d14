//! The settings of one agx home: non-secret values in `settings-v1.toml` under agx's
//! config folder, secrets in [`Secrets`], and the resolution of a package's settings.

use std::cell::OnceCell;
use std::ffi::OsString;
use std::path::PathBuf;

use super::SettingsError;
use super::declaration::Setting;
use super::document::{self, Document};
use super::env_override::override_name;
use super::resolve::{PackageSettings, ResolvedSetting, ValueSource};
use super::secrets::{KeyringChoice, Secrets, SecretsLocation};
use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;

/// Registry credentials sit beside package secrets under `registry:HOST`, which no package
/// name can be (`:` is not allowed in one).
fn registry_owner(host: &str) -> String {
    format!("registry:{}", host.to_ascii_lowercase())
}
/// A sign-in to a remote server sits under `oauth:RESOURCE` (docs/auth.md).
fn sign_in_owner(resource: &str) -> String {
    format!("oauth:{resource}")
}
const PARTS_KEY: &str = "parts";
/// Characters per keyring entry of a sign-in: Windows stores an entry as UTF-16 in at most
/// 2,560 bytes.
const SECRET_PART_CHARS: usize = 1_000;

/// How many parts the secret kept under `owner` has (0 when none).
fn parts_kept(secrets: &Secrets, owner: &str) -> Result<usize, SettingsError> {
    Ok(secrets
        .get(owner, PARTS_KEY)?
        .and_then(|n| n.parse().ok())
        .unwrap_or(0))
}

/// `text` in pieces of at most `chars` characters (at least one piece).
fn split_at_chars(text: &str, chars: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = text;
    while rest.chars().count() > chars {
        let end = rest
            .char_indices()
            .nth(chars)
            .map_or(rest.len(), |(i, _)| i);
        parts.push(&rest[..end]);
        rest = &rest[end..];
    }
    parts.push(rest);
    parts
}
const USERNAME_KEY: &str = "username";
const SECRET_KEY: &str = "secret";

const VALUES_HEADER: &str =
    "# agx settings (docs/settings.md). Secrets are not here; edit with `agx config`.";

/// Settings storage of one agx home. The secret store is opened (and the keyring asked)
/// only when a secret is needed.
pub struct SettingsStore {
    config_dir: PathBuf,
    choice: KeyringChoice,
    service: String,
    secrets: OnceCell<Secrets>,
}

/// Where a value was stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredIn {
    ValuesFile(PathBuf),
    Secrets(SecretsLocation),
}

impl SettingsStore {
    /// The store of `paths`, with the secret store `AGX_KEYRING` chooses.
    pub fn open(paths: &AgxPaths) -> Result<Self, SettingsError> {
        Ok(Self::with_choice(paths, KeyringChoice::from_env()?))
    }

    pub fn with_choice(paths: &AgxPaths, choice: KeyringChoice) -> Self {
        // An `AGX_HOME` is a home of its own: its keyring entries are kept apart.
        let service = if paths.home_from_env {
            format!("agx:{}", paths.home.display())
        } else {
            "agx".to_string()
        };
        SettingsStore {
            config_dir: paths.config_dir.clone(),
            choice,
            service,
            secrets: OnceCell::new(),
        }
    }

    pub fn values_path(&self) -> PathBuf {
        self.config_dir.join("settings-v1.toml")
    }

    pub fn secrets_path(&self) -> PathBuf {
        self.config_dir.join("secrets-v1.toml")
    }

    /// The secret store, chosen on first use.
    pub fn secrets(&self) -> &Secrets {
        self.secrets
            .get_or_init(|| Secrets::open(self.choice, self.service.clone(), self.secrets_path()))
    }

    /// The credential `agx login` stored for a registry host: the user name (absent for a
    /// token) and the password or token.
    pub fn registry_credential(
        &self,
        host: &str,
    ) -> Result<Option<(Option<String>, String)>, SettingsError> {
        let owner = registry_owner(host);
        let Some(secret) = self.secrets().get(&owner, SECRET_KEY)? else {
            return Ok(None);
        };
        Ok(Some((self.secrets().get(&owner, USERNAME_KEY)?, secret)))
    }

    /// Store a registry host's credential (replacing the one before); where it went.
    pub fn set_registry_credential(
        &self,
        host: &str,
        username: Option<&str>,
        secret: &str,
    ) -> Result<SecretsLocation, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let owner = registry_owner(host);
        let secrets = self.secrets();
        match username {
            Some(user) => secrets.set(&owner, USERNAME_KEY, user)?,
            None => {
                secrets.remove(&owner, USERNAME_KEY)?;
            }
        }
        secrets.set(&owner, SECRET_KEY, secret)?;
        Ok(secrets.location().clone())
    }

    /// Forget a registry host's credential; whether there was one.
    pub fn remove_registry_credential(&self, host: &str) -> Result<bool, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let owner = registry_owner(host);
        let user = self.secrets().remove(&owner, USERNAME_KEY)?;
        Ok(self.secrets().remove(&owner, SECRET_KEY)? || user)
    }

    /// The secret of a sign-in to a remote server (`agx auth login`, docs/auth.md), kept under
    /// `oauth:RESOURCE`. Stored in parts, since Windows' Credential Manager holds at most
    /// 2,560 bytes per entry and a token response is often longer.
    pub fn sign_in_secret(&self, resource: &str) -> Result<Option<String>, SettingsError> {
        let owner = sign_in_owner(resource);
        if self.secrets().get(&owner, PARTS_KEY)?.is_none() {
            return Ok(None);
        }
        let parts = parts_kept(self.secrets(), &owner)?;
        let mut whole = String::new();
        for part in 1..=parts {
            match self.secrets().get(&owner, &format!("part-{part}"))? {
                Some(text) => whole.push_str(&text),
                // A part went missing (removed by hand): the sign-in is gone, not half there.
                None => return Ok(None),
            }
        }
        Ok(Some(whole))
    }

    /// Store a sign-in's secret (replacing the one before); where it went.
    pub fn set_sign_in_secret(
        &self,
        resource: &str,
        secret: &str,
    ) -> Result<SecretsLocation, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let owner = sign_in_owner(resource);
        let secrets = self.secrets();
        let before = parts_kept(secrets, &owner)?;
        let parts = split_at_chars(secret, SECRET_PART_CHARS);
        for (i, part) in parts.iter().enumerate() {
            secrets.set(&owner, &format!("part-{}", i + 1), part)?;
        }
        secrets.set(&owner, PARTS_KEY, &parts.len().to_string())?;
        for stale in parts.len() + 1..=before {
            secrets.remove(&owner, &format!("part-{stale}"))?;
        }
        Ok(secrets.location().clone())
    }

    /// Forget a sign-in's secret; whether there was one.
    pub fn remove_sign_in_secret(&self, resource: &str) -> Result<bool, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let owner = sign_in_owner(resource);
        let secrets = self.secrets();
        let parts = parts_kept(secrets, &owner)?;
        let mut removed = secrets.remove(&owner, PARTS_KEY)?;
        for part in 1..=parts {
            removed |= secrets.remove(&owner, &format!("part-{part}"))?;
        }
        Ok(removed)
    }

    /// Every stored non-secret value.
    pub fn values(&self) -> Result<Document, SettingsError> {
        document::read(&self.values_path())
    }

    /// Store a value (already checked against its declaration).
    pub fn set(
        &self,
        package: &PackageName,
        key: &str,
        secret: bool,
        value: &str,
    ) -> Result<StoredIn, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let package = package.to_string();
        // A value lives in one place: setting it removes a copy kept in the other.
        let mut values = self.values()?;
        if secret {
            self.secrets().set(&package, key, value)?;
            if values.remove(&package, key) {
                document::write(&self.values_path(), &values, VALUES_HEADER, 0o644)?;
            }
            Ok(StoredIn::Secrets(self.secrets().location().clone()))
        } else {
            values.insert(&package, key, value.to_string());
            document::write(&self.values_path(), &values, VALUES_HEADER, 0o644)?;
            Ok(StoredIn::ValuesFile(self.values_path()))
        }
    }

    /// Remove a stored value from wherever it is; whether there was one.
    pub fn unset(
        &self,
        package: &PackageName,
        key: &str,
        secret: bool,
    ) -> Result<bool, SettingsError> {
        let _lock = document::lock(&self.config_dir)?;
        let package = package.to_string();
        let mut values = self.values()?;
        let mut removed = values.remove(&package, key);
        if removed {
            document::write(&self.values_path(), &values, VALUES_HEADER, 0o644)?;
        }
        if secret {
            removed |= self.secrets().remove(&package, key)?;
        }
        Ok(removed)
    }

    /// The stored value of one setting.
    pub fn stored(
        &self,
        package: &PackageName,
        setting: &Setting,
    ) -> Result<Option<String>, SettingsError> {
        if setting.secret {
            self.secrets().get(&package.to_string(), &setting.key)
        } else {
            Ok(self
                .values()?
                .get(&package.to_string(), &setting.key)
                .map(str::to_string))
        }
    }

    /// Resolve `declared` settings of `package`: env override > stored > default.
    pub fn resolve(
        &self,
        package: &PackageName,
        declared: &[Setting],
    ) -> Result<PackageSettings, SettingsError> {
        self.resolve_with(package, declared, |name| std::env::var_os(name))
    }

    /// [`Self::resolve`] with the environment given (tests).
    pub fn resolve_with(
        &self,
        package: &PackageName,
        declared: &[Setting],
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<PackageSettings, SettingsError> {
        let values = if declared.iter().any(|s| !s.secret) {
            self.values()?
        } else {
            Document::default()
        };
        let mut settings = Vec::with_capacity(declared.len());
        for setting in declared {
            let variable = override_name(package, &setting.key);
            // A client that does not expand a plugin's `${user_config.KEY}` passes it as
            // written (Codex, docs/plugins.md): that is no value, so the stored one counts.
            let given = env(&variable).filter(|raw| {
                let unexpanded = raw
                    .to_str()
                    .is_some_and(|r| r.starts_with("${user_config.") && r.ends_with('}'));
                if unexpanded {
                    tracing::debug!("{variable} holds an unexpanded plugin placeholder");
                }
                !unexpanded
            });
            let (value, source) = if let Some(raw) = given {
                let bad = |problem: String| SettingsError::BadOverride {
                    variable: variable.clone(),
                    package: package.clone(),
                    key: setting.key.clone(),
                    problem,
                };
                let raw = raw
                    .into_string()
                    .map_err(|_| bad("the value is not UTF-8".into()))?;
                let value = setting.check_value(&raw).map_err(|e| bad(e.to_string()))?;
                (Some(value), ValueSource::Env { variable })
            } else {
                let stored = if setting.secret {
                    self.secrets().get(&package.to_string(), &setting.key)?
                } else {
                    values
                        .get(&package.to_string(), &setting.key)
                        .map(str::to_string)
                };
                match (stored, &setting.default) {
                    (Some(v), _) => (Some(v), ValueSource::Stored),
                    (None, Some(d)) => (Some(d.clone()), ValueSource::Default),
                    (None, None) => (None, ValueSource::Unset),
                }
            };
            settings.push(ResolvedSetting::new(setting.clone(), value, source));
        }
        Ok(PackageSettings {
            package: package.clone(),
            settings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &std::path::Path) -> SettingsStore {
        SettingsStore::with_choice(
            &AgxPaths::under(dir.to_path_buf(), true),
            KeyringChoice::File,
        )
    }

    fn declared() -> Vec<Setting> {
        vec![
            Setting {
                secret: true,
                required: true,
                env: Some("ACME_API_KEY".into()),
                ..Setting::new("api_key")
            },
            Setting {
                default: Some("metric".into()),
                env: Some("UNITS".into()),
                ..Setting::new("units")
            },
        ]
    }

    #[test]
    fn a_long_sign_in_secret_is_kept_in_parts_and_shrinks_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let resource = "https://mcp.example.com/mcp";
        assert_eq!(s.sign_in_secret(resource).unwrap(), None);
        let long: String = "é".repeat(2_500);
        s.set_sign_in_secret(resource, &long).unwrap();
        assert_eq!(
            s.sign_in_secret(resource).unwrap().as_deref(),
            Some(long.as_str())
        );
        // A shorter secret replaces it whole: no part of the longer one is read back.
        s.set_sign_in_secret(resource, "short").unwrap();
        assert_eq!(
            s.sign_in_secret(resource).unwrap().as_deref(),
            Some("short")
        );
        assert!(s.remove_sign_in_secret(resource).unwrap());
        assert_eq!(s.sign_in_secret(resource).unwrap(), None);
        assert!(!s.remove_sign_in_secret(resource).unwrap());
    }

    #[test]
    fn secrets_split_on_character_boundaries() {
        assert_eq!(split_at_chars("", 3), vec![""]);
        assert_eq!(split_at_chars("abcdefg", 3), vec!["abc", "def", "g"]);
        assert_eq!(split_at_chars("ééé", 2), vec!["éé", "é"]);
    }

    #[test]
    fn env_beats_stored_beats_default() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let p = PackageName::parse("acme/w").unwrap();
        let none = |_: &str| None;
        let r = s.resolve_with(&p, &declared(), none).unwrap();
        assert_eq!(r.missing().count(), 1);
        assert_eq!(r.settings[1].source, ValueSource::Default);

        s.set(&p, "api_key", true, "canary").unwrap();
        s.set(&p, "units", false, "imperial").unwrap();
        let r = s.resolve_with(&p, &declared(), none).unwrap();
        assert_eq!(r.missing().count(), 0);
        assert_eq!(
            r.env_vars(),
            vec![
                ("ACME_API_KEY".into(), "canary".into()),
                ("UNITS".into(), "imperial".into())
            ]
        );
        let values = std::fs::read_to_string(s.values_path()).unwrap();
        assert!(
            !values.contains("canary"),
            "secrets stay out of the values file"
        );

        let env =
            |name: &str| (name == "AGX_SETTING__ACME__W__UNITS").then(|| OsString::from("metric"));
        let r = s.resolve_with(&p, &declared(), env).unwrap();
        assert_eq!(r.settings[1].value(), Some("metric"));
        assert!(matches!(r.settings[1].source, ValueSource::Env { .. }));

        assert!(s.unset(&p, "units", false).unwrap());
        assert!(!s.unset(&p, "units", false).unwrap());
    }

    #[test]
    fn a_bad_override_names_the_variable_not_the_value() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let p = PackageName::parse("acme/w").unwrap();
        let mut decl = declared();
        decl[1].choices = vec!["metric".into(), "imperial".into()];
        let env =
            |name: &str| (name == "AGX_SETTING__ACME__W__UNITS").then(|| OsString::from("kelvin"));
        let err = s.resolve_with(&p, &decl, env).unwrap_err().to_string();
        assert!(err.contains("AGX_SETTING__ACME__W__UNITS"), "{err}");
        assert!(!err.contains("kelvin"), "{err}");
    }

    #[test]
    fn a_plugin_placeholder_the_client_left_unexpanded_is_no_override() {
        // Codex passes a Claude plugin's `${user_config.api_key}` as written (docs/plugins.md).
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let p = PackageName::parse("acme/w").unwrap();
        s.set(&p, "api_key", true, "canary").unwrap();
        let env = |name: &str| {
            (name == "AGX_SETTING__ACME__W__API_KEY")
                .then(|| OsString::from("${user_config.api_key}"))
        };
        let r = s.resolve_with(&p, &declared(), env).unwrap();
        assert_eq!(r.settings[0].value(), Some("canary"));
        assert_eq!(r.settings[0].source, ValueSource::Stored);
    }

    #[test]
    fn a_corrupt_values_file_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        std::fs::write(s.values_path(), "version = 1\n[packages\n").unwrap();
        let p = PackageName::parse("acme/w").unwrap();
        let err = s.set(&p, "units", false, "metric").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        assert_eq!(
            std::fs::read_to_string(s.values_path()).unwrap(),
            "version = 1\n[packages\n"
        );
    }
}
