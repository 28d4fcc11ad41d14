//! `agx config`: setting, reading and removing the values of a package's settings
//! (docs/settings.md). Values are checked against the package's declaration; a package
//! that is not installed has none, so its values are refused unless forced.

use serde::Serialize;

use super::Context;
use agx_core::name::{NameError, PackageName};
use agx_model::manifest::fields::did_you_mean;
use agx_model::settings::{
    PackageSettings, ResolvedSetting, SecretsLocation, Setting, SettingType, SettingsError,
    SettingsStore, StoredIn, ValueError, ValueSource,
};
use agx_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{package} is not installed, so agx cannot check its settings")]
    NotInstalled { package: PackageName },
    #[error("{package} declares no setting `{key}`")]
    UnknownKey {
        package: PackageName,
        key: String,
        known: Vec<String>,
    },
    #[error("invalid value for setting `{key}` of {package}: {source}")]
    BadValue {
        package: PackageName,
        key: String,
        source: ValueError,
        hint: String,
    },
    #[error(
        "setting `{key}` of {package} is a secret; agx never takes a secret from the command line"
    )]
    SecretFromArgv { package: PackageName, key: String },
    #[error(
        "no value given for setting `{key}` of {package}, and standard input is not a terminal"
    )]
    NoValue { package: PackageName, key: String },
    #[error("the value read from standard input is not UTF-8 text")]
    NotUtf8,
    #[error("could not read the value: {0}")]
    Read(std::io::Error),
    #[error("setting `{key}` of {package} has no value")]
    Unset {
        package: PackageName,
        key: String,
        command: String,
    },
    #[error(transparent)]
    Broken(#[from] agx_model::manifest::LoadError),
    #[error(transparent)]
    Name(#[from] NameError),
    #[error(transparent)]
    Store(Box<StoreError>),
    #[error(transparent)]
    Settings(Box<SettingsError>),
}

// Boxed: the store's and the settings' errors are large, and this one is returned on every
// path of `agx config`.
impl From<StoreError> for ConfigError {
    fn from(e: StoreError) -> Self {
        ConfigError::Store(Box::new(e))
    }
}

impl From<SettingsError> for ConfigError {
    fn from(e: SettingsError) -> Self {
        ConfigError::Settings(Box::new(e))
    }
}

impl agx_core::error::Hint for ConfigError {
    fn hint(&self) -> Option<String> {
        match self {
            ConfigError::NotInstalled { package } => Some(format!(
                "install it first (`agx install {package}`), or pass --force to store the value unchecked"
            )),
            ConfigError::UnknownKey { known, key, .. } => {
                Some(match did_you_mean(key, known.iter().map(String::as_str)) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None if known.is_empty() => "the package declares no settings".into(),
                    None => format!("its settings: {}", known.join(", ")),
                })
            }
            ConfigError::BadValue { hint, .. } => Some(hint.clone()),
            ConfigError::SecretFromArgv { package, key } => Some(format!(
                "run `agx config set {package} {key}` on a terminal to type it without echo, or pipe it in: `… | agx config set {package} {key} --stdin`"
            )),
            ConfigError::NoValue { .. } => {
                Some("give the value, or pass --stdin to read it from standard input".into())
            }
            ConfigError::NotUtf8 => Some("settings hold text; pass the value as UTF-8".into()),
            ConfigError::Read(_) => None,
            ConfigError::Unset { command, .. } => Some(format!("set it with `{command}`")),
            ConfigError::Broken(e) => e.hint(),
            ConfigError::Name(e) => e.hint(),
            ConfigError::Store(e) => e.hint(),
            ConfigError::Settings(e) => e.hint(),
        }
    }
}

pub type ConfigResult<T> = Result<T, ConfigError>;

/// One setting of one package, as `agx config` addresses it.
#[derive(Debug, Clone)]
pub struct Target {
    pub package: PackageName,
    pub setting: Setting,
    /// False for a value forced (`--force`) onto a package or key without a declaration.
    pub declared: bool,
}

/// Find the declaration of `key` of `package`. With `force`, a package that is not
/// installed (or a key it does not declare) is addressed as an undeclared string setting,
/// secret when `secret` is set.
pub fn target(
    ctx: &Context,
    package: &str,
    key: &str,
    force: bool,
    secret: bool,
) -> ConfigResult<Target> {
    let package = PackageName::parse(package)?;
    let declared = declared_settings(ctx, &package)?;
    let undeclared = || Target {
        package: package.clone(),
        setting: Setting {
            secret,
            ..Setting::new(key)
        },
        declared: false,
    };
    match declared {
        None if force => Ok(undeclared()),
        None => Err(ConfigError::NotInstalled { package }),
        Some(settings) => match settings.iter().find(|s| s.key == key) {
            Some(s) => Ok(Target {
                package: package.clone(),
                setting: s.clone(),
                declared: true,
            }),
            None if force => Ok(undeclared()),
            None => Err(ConfigError::UnknownKey {
                package: package.clone(),
                key: key.to_string(),
                known: settings.iter().map(|s| s.key.clone()).collect(),
            }),
        },
    }
}

/// The declared settings of an installed package (of the version `agx serve` would use: the
/// user's, else the newest a project holds); `None` when no version is installed.
pub fn declared_settings(
    ctx: &Context,
    package: &PackageName,
) -> ConfigResult<Option<Vec<Setting>>> {
    let store = ctx.store();
    let _lock = store.lock_shared_if_present()?;
    let Some(served) = store.served_version(package, None, None)? else {
        return Ok(None);
    };
    let loaded = agx_model::manifest::load_installed(&served.dir)?;
    Ok(Some(loaded.manifest.extension.settings))
}

/// What `config set` did.
#[derive(Debug, Clone)]
pub struct SetOutcome {
    pub stored_in: StoredIn,
    /// True when the value could not be checked (no declaration; `--force`).
    pub unchecked: bool,
    /// Said once, when the first secret goes to the fallback file because no OS keyring
    /// answered.
    pub notice: Option<String>,
}

/// Check `raw` against the target's declaration and store it. A relative path is made
/// absolute: tools run in their package folder, not where the command ran.
pub fn set(ctx: &Context, target: &Target, raw: &str) -> ConfigResult<SetOutcome> {
    let bad = |source: ValueError| ConfigError::BadValue {
        package: target.package.clone(),
        key: target.setting.key.clone(),
        hint: source.hint(&target.setting),
        source,
    };
    let mut value = target.setting.check_value(raw).map_err(bad)?;
    if target.setting.kind == SettingType::Path {
        value = std::path::absolute(&value)
            .map_err(ConfigError::Read)?
            .display()
            .to_string();
    }
    let store = SettingsStore::open(ctx.paths)?;
    let first_in_file = !store.secrets_path().exists();
    let stored_in = store.set(
        &target.package,
        &target.setting.key,
        target.setting.secret,
        &value,
    )?;
    let notice = match &stored_in {
        StoredIn::Secrets(SecretsLocation::File {
            path,
            fell_back: true,
        }) if first_in_file => Some(format!(
            "no OS keyring answered ({}), so secrets are kept in {}, readable by you alone; set AGX_KEYRING=file to choose this without asking the keyring",
            agx_model::settings::secrets::os_backend_name(),
            path.display()
        )),
        _ => None,
    };
    Ok(SetOutcome {
        stored_in,
        unchecked: !target.declared,
        notice,
    })
}

/// The value of one setting as it resolves now (environment, stored, default).
pub fn get(ctx: &Context, target: &Target) -> ConfigResult<ResolvedSetting> {
    let store = SettingsStore::open(ctx.paths)?;
    let mut resolved = store.resolve(&target.package, std::slice::from_ref(&target.setting))?;
    let one = resolved.settings.remove(0);
    if !one.is_set() {
        return Err(ConfigError::Unset {
            package: target.package.clone(),
            key: target.setting.key.clone(),
            command: agx_model::settings::set_command(&target.package, &target.setting),
        });
    }
    Ok(one)
}

/// Remove a stored value; whether there was one. An undeclared key is removed from both
/// stores.
pub fn unset(ctx: &Context, target: &Target) -> ConfigResult<bool> {
    let store = SettingsStore::open(ctx.paths)?;
    let secret = target.setting.secret || !target.declared;
    Ok(store.unset(&target.package, &target.setting.key, secret)?)
}

/// Every installed package's settings (or one package's), resolved, and stored values that
/// no installed package declares.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    /// Where secrets are kept.
    pub secrets: String,
    /// Where non-secret values are kept.
    pub values_file: std::path::PathBuf,
    pub packages: Vec<PackageSettings>,
    /// Non-secret values stored for packages or keys without a declaration (`--force`).
    pub undeclared: Vec<UndeclaredValue>,
}

#[derive(Debug, Clone, Serialize)]
pub struct UndeclaredValue {
    pub package: String,
    pub key: String,
    pub value: String,
}

pub fn list(ctx: &Context, package: Option<&str>) -> ConfigResult<Listing> {
    let settings = SettingsStore::open(ctx.paths)?;
    let wanted = package.map(PackageName::parse).transpose()?;
    let store = ctx.store();
    let installed = {
        let _lock = store.lock_shared_if_present()?;
        match &wanted {
            Some(name) => match store.installed(name)? {
                Some(p) => vec![p],
                None => Vec::new(),
            },
            None => store.list()?,
        }
    };
    let mut packages = Vec::new();
    for p in &installed {
        let loaded = match agx_model::manifest::load_installed(&p.dir) {
            Ok(loaded) => loaded,
            Err(e) => {
                ctx.reporter.warn(&format!(
                    "{e}; its settings are left out (`agx validate {}` explains)",
                    p.dir.display()
                ));
                continue;
            }
        };
        let declared = &loaded.manifest.extension.settings;
        if declared.is_empty() {
            continue;
        }
        packages.push(settings.resolve(&p.name, declared)?);
    }
    let mut undeclared = Vec::new();
    for (pkg, values) in settings.values()?.packages {
        if wanted.as_ref().is_some_and(|w| w.to_string() != pkg) {
            continue;
        }
        for (key, value) in values {
            let known = packages.iter().any(|p| {
                p.package.to_string() == pkg && p.settings.iter().any(|s| s.setting.key == key)
            });
            if !known {
                undeclared.push(UndeclaredValue {
                    package: pkg.clone(),
                    key,
                    value,
                });
            }
        }
    }
    let secrets_needed = packages
        .iter()
        .any(|p| p.settings.iter().any(|s| s.setting.secret));
    let secrets = if secrets_needed {
        describe(settings.secrets().location())
    } else {
        "not read (no secret settings); AGX_KEYRING chooses the store".to_string()
    };
    Ok(Listing {
        secrets,
        values_file: settings.values_path(),
        packages,
        undeclared,
    })
}

/// The required settings without a value among `declared` (as `agx serve` would resolve
/// them now), each addressed for `config set`.
pub fn missing(
    ctx: &Context,
    declared: &[std::sync::Arc<PackageSettings>],
) -> ConfigResult<Vec<Target>> {
    if declared.iter().all(|d| d.settings.is_empty()) {
        return Ok(Vec::new());
    }
    let store = SettingsStore::open(ctx.paths)?;
    let mut out = Vec::new();
    for d in declared {
        let resolved = store.resolve(&d.package, &d.declarations())?;
        out.extend(resolved.missing().map(|s| Target {
            package: d.package.clone(),
            setting: s.clone(),
            declared: true,
        }));
    }
    Ok(out)
}

/// Where secrets are, in words.
pub fn describe(location: &SecretsLocation) -> String {
    match location {
        SecretsLocation::File {
            path,
            fell_back: true,
        } => format!(
            "{} (no OS keyring answered; readable by you alone)",
            path.display()
        ),
        other => other.to_string(),
    }
}

/// How a setting stands, for `info`, `doctor` and `config list`: never a secret's value.
pub fn state(s: &ResolvedSetting) -> String {
    match &s.source {
        ValueSource::Unset if s.setting.required => "unset (required)".into(),
        ValueSource::Unset => "unset".into(),
        ValueSource::Default => format!("default ({})", s.value().unwrap_or_default()),
        ValueSource::Stored if s.setting.secret => "set (secret)".into(),
        ValueSource::Stored => format!("set ({})", s.value().unwrap_or_default()),
        ValueSource::Env { variable } if s.setting.secret => format!("from {variable} (secret)"),
        ValueSource::Env { variable } => {
            format!("from {variable} ({})", s.value().unwrap_or_default())
        }
        ValueSource::Project { file } => {
            format!("from {file} ({})", s.value().unwrap_or_default())
        }
    }
}
