//! What a package declares about one setting, and how a value is checked against it. The
//! type is plain serde data with no tie to `agx.toml` parsing, so every package format
//! (agx.toml, server.json `environmentVariables`, MCPB `user_config`) maps onto it.

use serde::{Deserialize, Serialize};

/// The largest value agx keeps. Values reach tools as environment variables, and Linux
/// refuses a single variable over 128 KiB at exec; half of that leaves room for the name.
pub const MAX_VALUE_BYTES: usize = 64 * 1024;

/// The longest setting key.
pub const MAX_KEY_LEN: usize = 64;

/// What kind of value a setting holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SettingType {
    #[default]
    String,
    Number,
    Boolean,
    /// A file or folder; a relative path given to `agx config set` is made absolute, since
    /// tools run in the package folder.
    Path,
}

impl SettingType {
    pub const ALL: [&'static str; 4] = ["string", "number", "boolean", "path"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => SettingType::String,
            "number" => SettingType::Number,
            "boolean" => SettingType::Boolean,
            "path" => SettingType::Path,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SettingType::String => "string",
            SettingType::Number => "number",
            SettingType::Boolean => "boolean",
            SettingType::Path => "path",
        }
    }
}

/// One declared setting. Values (`default`, `choices`) are kept as their canonical text,
/// the form in which tools receive them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// `[A-Za-z][A-Za-z0-9_]*` (see [`is_valid_key`]): the name in `agx config` commands and `{{ settings.<key> }}`.
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(rename = "type", default)]
    pub kind: SettingType,
    /// Kept in the OS keyring (or the owner-only secrets file), never shown or logged.
    #[serde(default)]
    pub secret: bool,
    /// `agx serve` refuses to start while a required setting has no value.
    #[serde(default)]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// The allowed values (`enum` in agx.toml); empty means any value of the type.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// The environment variable tools, command prompts and wrapped servers receive it as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
}

/// Why a value does not fit its setting. The messages never quote the value: it may be a
/// secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("the value is not a number")]
    NotANumber,
    #[error("the value is not a boolean")]
    NotABoolean,
    #[error("the value is not one of the allowed values ({})", .0.join(", "))]
    NotAChoice(Vec<String>),
    #[error("the value is empty")]
    Empty,
    #[error("the value contains a NUL byte, which no environment variable can hold")]
    Nul,
    #[error("the value is {0} bytes long; the limit is {MAX_VALUE_BYTES} bytes")]
    TooLong(usize),
}

impl ValueError {
    /// How to write a value that fits.
    pub fn hint(&self, setting: &Setting) -> String {
        match self {
            ValueError::NotANumber => "write a number such as 3 or 2.5".into(),
            ValueError::NotABoolean => "write true or false".into(),
            ValueError::NotAChoice(choices) => format!("write one of: {}", choices.join(", ")),
            ValueError::Empty => format!("give a non-empty {}", setting.kind.as_str()),
            ValueError::Nul => "remove the NUL byte".into(),
            ValueError::TooLong(_) => {
                "keep long data in a file and declare the setting with type = \"path\"".into()
            }
        }
    }
}

impl Setting {
    /// A setting of type string with nothing else declared.
    pub fn new(key: impl Into<String>) -> Self {
        Setting {
            key: key.into(),
            description: None,
            kind: SettingType::String,
            secret: false,
            required: false,
            default: None,
            choices: Vec::new(),
            env: None,
        }
    }

    /// Check `raw` against the type and the allowed values; the canonical text on success
    /// (a number or boolean trimmed, `true`/`false` lowercase).
    pub fn check_value(&self, raw: &str) -> Result<String, ValueError> {
        if raw.len() > MAX_VALUE_BYTES {
            return Err(ValueError::TooLong(raw.len()));
        }
        if raw.contains('\0') {
            return Err(ValueError::Nul);
        }
        let value = match self.kind {
            SettingType::String => raw.to_string(),
            SettingType::Path if raw.is_empty() => return Err(ValueError::Empty),
            SettingType::Path => raw.to_string(),
            SettingType::Number => {
                let t = raw.trim();
                match t.parse::<f64>() {
                    Ok(n) if n.is_finite() && !t.starts_with('+') => t.to_string(),
                    _ => return Err(ValueError::NotANumber),
                }
            }
            SettingType::Boolean => match raw.trim().to_ascii_lowercase().as_str() {
                "true" => "true".into(),
                "false" => "false".into(),
                _ => return Err(ValueError::NotABoolean),
            },
        };
        if !self.choices.is_empty() && !self.choices.contains(&value) {
            return Err(ValueError::NotAChoice(self.choices.clone()));
        }
        Ok(value)
    }
}

/// Whether `key` is a valid setting key: `[A-Za-z][A-Za-z0-9_]*`, at most [`MAX_KEY_LEN`]
/// characters, without `__` or a trailing `_` (so the environment override names built
/// from keys stay unambiguous). Uppercase is allowed so that settings from server.json and
/// MCPB keep their names as written (`WEATHER_API_KEY`); see docs/settings.md.
pub fn is_valid_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && key.len() <= MAX_KEY_LEN
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.contains("__")
        && !key.ends_with('_')
}

/// `raw` (an argument label, a header or variable name) made into a valid key: characters
/// outside the key alphabet become `_`, runs of `_` one, and a leading non-letter gets a
/// `v` in front. `None` when nothing is left.
pub fn key_from(raw: &str) -> Option<String> {
    let mut key = String::with_capacity(raw.len() + 1);
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '_' };
        if !(c == '_' && (key.is_empty() || key.ends_with('_'))) {
            key.push(c);
        }
    }
    let key = key.trim_end_matches('_');
    let key = match key.chars().next() {
        None => return None,
        Some(c) if c.is_ascii_alphabetic() => key.to_string(),
        Some(_) => format!("v{key}"),
    };
    let key: String = key.chars().take(MAX_KEY_LEN).collect();
    Some(key.trim_end_matches('_').to_string())
}

/// Whether `name` can be an environment variable name: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Variables agx sets itself for tools and servers; a setting may not take them over.
pub fn is_reserved_env_name(name: &str) -> bool {
    name.to_ascii_uppercase().starts_with("AGX_")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(kind: SettingType) -> Setting {
        Setting {
            kind,
            ..Setting::new("k")
        }
    }

    #[test]
    fn values_are_checked_against_the_type() {
        assert_eq!(
            typed(SettingType::Number).check_value(" 2.5 "),
            Ok("2.5".into())
        );
        assert_eq!(
            typed(SettingType::Number).check_value("two"),
            Err(ValueError::NotANumber)
        );
        assert_eq!(
            typed(SettingType::Number).check_value("inf"),
            Err(ValueError::NotANumber)
        );
        assert_eq!(
            typed(SettingType::Boolean).check_value("TRUE"),
            Ok("true".into())
        );
        assert_eq!(
            typed(SettingType::Boolean).check_value("yes"),
            Err(ValueError::NotABoolean)
        );
        assert_eq!(
            typed(SettingType::Path).check_value(""),
            Err(ValueError::Empty)
        );
        assert_eq!(
            typed(SettingType::String).check_value(""),
            Ok(String::new())
        );
    }

    #[test]
    fn choices_bound_the_value() {
        let s = Setting {
            choices: vec!["metric".into(), "imperial".into()],
            ..Setting::new("units")
        };
        assert_eq!(s.check_value("metric"), Ok("metric".into()));
        let err = s.check_value("kelvin").unwrap_err();
        assert!(err.to_string().contains("metric, imperial"));
        assert!(
            !err.to_string().contains("kelvin"),
            "errors never quote the value"
        );
    }

    #[test]
    fn long_and_nul_values_are_refused() {
        let s = Setting::new("k");
        let long = "x".repeat(1024 * 1024);
        assert_eq!(s.check_value(&long), Err(ValueError::TooLong(1024 * 1024)));
        assert_eq!(s.check_value("a\0b"), Err(ValueError::Nul));
    }

    #[test]
    fn keys_and_env_names() {
        for good in ["api_key", "units", "a1", "WEATHER_API_KEY", "Api"] {
            assert!(is_valid_key(good), "{good}");
        }
        for bad in ["", "1a", "_a", "a-b", "a__b", "a_", &"a".repeat(65)] {
            assert!(!is_valid_key(bad), "{bad}");
        }
        assert!(is_valid_env_name("ACME_API_KEY"));
        assert!(!is_valid_env_name("1X"));
        assert!(!is_valid_env_name("A-B"));
        assert!(is_reserved_env_name("AGX_PACKAGE"));
        assert_eq!(key_from("--max-results").as_deref(), Some("max_results"));
        assert_eq!(key_from("X-Api-Key").as_deref(), Some("X_Api_Key"));
        assert_eq!(key_from("2fa code").as_deref(), Some("v2fa_code"));
        assert_eq!(key_from("--"), None);
        for raw in ["--max-results", "X-Api-Key", "2fa code", &"a-".repeat(80)] {
            assert!(is_valid_key(&key_from(raw).unwrap()), "{raw}");
        }
        assert!(!is_reserved_env_name("ACME"));
    }
}
