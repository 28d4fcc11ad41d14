//! A package's settings with their values, in the order env override > project value >
//! stored value > default, as `agx serve` reads them once at start and `info`/`doctor`
//! show them (docs/settings.md, "Precedence").

use serde::Serialize;

use super::declaration::Setting;
use super::env_override::override_name;
use agx_core::name::PackageName;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ValueSource {
    /// An override variable of the environment.
    Env { variable: String },
    /// The `settings` of the project's `[servers]` entry (agx.toml).
    Project { file: String },
    /// `agx config set`.
    Stored,
    /// The declaration's default.
    Default,
    /// No value.
    Unset,
}

/// One setting and its value. `Debug` and `Serialize` never show a secret's value.
#[derive(Clone, Serialize)]
pub struct ResolvedSetting {
    #[serde(flatten)]
    pub setting: Setting,
    pub source: ValueSource,
    /// The value, shown only for settings that are not secret.
    #[serde(rename = "value", skip_serializing_if = "Option::is_none")]
    shown: Option<String>,
    #[serde(skip)]
    value: Option<String>,
}

impl std::fmt::Debug for ResolvedSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResolvedSetting")
            .field("key", &self.setting.key)
            .field("source", &self.source)
            .field("value", &self.shown)
            .finish()
    }
}

impl ResolvedSetting {
    pub fn new(setting: Setting, value: Option<String>, source: ValueSource) -> Self {
        let shown = if setting.secret { None } else { value.clone() };
        ResolvedSetting {
            setting,
            source,
            shown,
            value,
        }
    }

    /// The value itself (a secret's too): for handing to tools, never for display.
    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }
}

/// All declared settings of one package, resolved.
#[derive(Debug, Clone, Serialize)]
pub struct PackageSettings {
    pub package: PackageName,
    pub settings: Vec<ResolvedSetting>,
}

impl PackageSettings {
    /// `declared` settings of `package`, not resolved yet (every one unset).
    pub fn declared(package: PackageName, declared: &[Setting]) -> Self {
        PackageSettings {
            package,
            settings: declared
                .iter()
                .map(|s| ResolvedSetting::new(s.clone(), None, ValueSource::Unset))
                .collect(),
        }
    }

    /// Lay a project's values over the resolved ones: each beats a stored value and a
    /// default, never an environment override. Secrets are never taken from a project file
    /// (`agx validate` refuses them there). A value that does not fit is an error.
    pub fn apply_project(
        &mut self,
        values: &std::collections::BTreeMap<String, String>,
        file: &std::path::Path,
    ) -> Result<(), super::SettingsError> {
        for s in &mut self.settings {
            let Some(raw) = values.get(&s.setting.key) else {
                continue;
            };
            if s.setting.secret || matches!(s.source, ValueSource::Env { .. }) {
                continue;
            }
            let value =
                s.setting
                    .check_value(raw)
                    .map_err(|e| super::SettingsError::BadOverride {
                        variable: file.display().to_string(),
                        package: self.package.clone(),
                        key: s.setting.key.clone(),
                        problem: e.to_string(),
                    })?;
            *s = ResolvedSetting::new(
                s.setting.clone(),
                Some(value),
                ValueSource::Project {
                    file: file.display().to_string(),
                },
            );
        }
        Ok(())
    }

    /// The declarations alone.
    pub fn declarations(&self) -> Vec<Setting> {
        self.settings.iter().map(|s| s.setting.clone()).collect()
    }

    /// Required settings without a value.
    pub fn missing(&self) -> impl Iterator<Item = &Setting> {
        self.settings
            .iter()
            .filter(|s| s.setting.required && !s.is_set())
            .map(|s| &s.setting)
    }

    /// The variables tools, command prompts and wrapped servers receive: each setting with
    /// a value and an `env` name.
    pub fn env_vars(&self) -> Vec<(String, String)> {
        self.settings
            .iter()
            .filter_map(|s| Some((s.setting.env.clone()?, s.value.clone()?)))
            .collect()
    }

    /// `settings.<key>` of templates: every setting, empty text when unset.
    pub fn template_values(&self) -> Vec<(String, String)> {
        self.settings
            .iter()
            .map(|s| (s.setting.key.clone(), s.value.clone().unwrap_or_default()))
            .collect()
    }

    /// The values of secret settings, for redaction.
    pub fn secret_values(&self) -> impl Iterator<Item = &str> {
        self.settings
            .iter()
            .filter(|s| s.setting.secret)
            .filter_map(|s| s.value())
    }
}

/// The command that sets `setting` of `package`, as agx tells a person to run it.
pub fn set_command(package: &PackageName, setting: &Setting) -> String {
    if setting.secret {
        format!("agx config set {package} {}", setting.key)
    } else {
        let example = setting
            .choices
            .first()
            .map(String::as_str)
            .unwrap_or("<value>");
        format!("agx config set {package} {} {example}", setting.key)
    }
}

/// What a person reads when required settings are missing: one line per setting with the
/// command that sets it, and the override variable for CI.
pub fn missing_message<'a>(
    package: &PackageName,
    missing: impl IntoIterator<Item = &'a Setting>,
) -> String {
    missing
        .into_iter()
        .map(|s| {
            let about = s
                .description
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            format!(
                "`{}`{about}: run `{}` (or set {} in the environment)",
                s.key,
                set_command(package, s),
                override_name(package, &s.key)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_value_is_never_serialized_or_debugged() {
        let secret = Setting {
            secret: true,
            env: Some("K".into()),
            ..Setting::new("api_key")
        };
        let r = ResolvedSetting::new(secret, Some("canary".into()), ValueSource::Stored);
        assert!(!serde_json::to_string(&r).unwrap().contains("canary"));
        assert!(!format!("{r:?}").contains("canary"));
        let ps = PackageSettings {
            package: PackageName::parse("acme/w").unwrap(),
            settings: vec![r],
        };
        assert_eq!(ps.env_vars(), vec![("K".into(), "canary".into())]);
        assert_eq!(ps.secret_values().collect::<Vec<_>>(), ["canary"]);
    }

    #[test]
    fn a_project_value_beats_stored_and_default_but_not_env() {
        let units = Setting {
            default: Some("metric".into()),
            ..Setting::new("units")
        };
        let days = Setting::new("days");
        let token = Setting {
            secret: true,
            ..Setting::new("token")
        };
        let mut ps = PackageSettings {
            package: PackageName::parse("acme/w").unwrap(),
            settings: vec![
                ResolvedSetting::new(units, Some("metric".into()), ValueSource::Default),
                ResolvedSetting::new(
                    days,
                    Some("5".into()),
                    ValueSource::Env {
                        variable: "X".into(),
                    },
                ),
                ResolvedSetting::new(token, None, ValueSource::Unset),
            ],
        };
        let values = [("units", "imperial"), ("days", "2"), ("token", "leak")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into();
        ps.apply_project(&values, std::path::Path::new("/p/agx.toml"))
            .unwrap();
        assert_eq!(ps.settings[0].value(), Some("imperial"));
        assert!(matches!(ps.settings[0].source, ValueSource::Project { .. }));
        assert_eq!(ps.settings[1].value(), Some("5"));
        assert_eq!(ps.settings[2].value(), None);
    }

    #[test]
    fn the_missing_message_names_the_command() {
        let p = PackageName::parse("acme/w").unwrap();
        let s = Setting {
            secret: true,
            required: true,
            ..Setting::new("api_key")
        };
        let msg = missing_message(&p, [&s]);
        assert!(msg.contains("agx config set acme/w api_key"), "{msg}");
        assert!(msg.contains("AGX_SETTING__ACME__W__API_KEY"), "{msg}");
    }
}
