//! `[extension.settings.<key>]` in agx.toml: the settings a package's tools and servers
//! need, read into the format-independent [`Setting`] model (docs/settings.md).

use std::collections::HashMap;

use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::{Table, did_you_mean};
use crate::manifest::spanned::{Node, SourceFile, Value};
use crate::settings::declaration::{
    MAX_KEY_LEN, Setting, SettingType, is_reserved_env_name, is_valid_env_name, is_valid_key,
};

const SETTING_KEYS: &[&str] = &[
    "description",
    "type",
    "secret",
    "required",
    "default",
    "enum",
    "env",
];

/// Read `[extension.settings]`: each valid setting, and a finding for everything else.
pub fn read_settings(f: &mut Findings, file: &SourceFile, node: &Node) -> Vec<Setting> {
    let Some(entries) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!(
                "`settings` in [extension] must be a table of settings, found {}",
                node.type_name()
            ),
            Some("write one [extension.settings.<key>] table per setting".into()),
        );
        return Vec::new();
    };
    let mut settings = Vec::new();
    // Which setting first took each `env` name (case-insensitive: Windows ignores case).
    let mut env_owners: HashMap<String, String> = HashMap::new();
    let mut key_owners: HashMap<String, String> = HashMap::new();
    for entry in entries {
        if !is_valid_key(&entry.key) {
            f.at(
                codes::INVALID_SETTING_KEY,
                file,
                &entry.key_span,
                format!("setting key `{}` is not a valid key", entry.key),
                Some(format!(
                    "use letters, digits and single `_`, starting with a letter, at most {MAX_KEY_LEN} characters (e.g. `api_key` or `API_KEY`)"
                )),
            );
            continue;
        }
        // Override variables are uppercase (docs/settings.md): `units` and `UNITS` would
        // share one.
        if let Some(first) = key_owners.insert(entry.key.to_ascii_lowercase(), entry.key.clone()) {
            f.at(
                codes::INVALID_SETTING_KEY,
                file,
                &entry.key_span,
                format!(
                    "setting key `{}` differs from `{first}` only in case",
                    entry.key
                ),
                Some("give each setting a name that differs in more than case".into()),
            );
            continue;
        }
        let before = f.error_count();
        let what = format!("setting `{}`", entry.key);
        let Some(t) = Table::read(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            what.clone(),
            SETTING_KEYS,
        ) else {
            continue;
        };
        let mut setting = Setting::new(entry.key.clone());
        setting.description = t.opt_string(f, "description");
        setting.secret = t.bool(f, "secret").unwrap_or(false);
        setting.required = t.bool(f, "required").unwrap_or(false);
        if let Some((name, node)) = t.string(f, "type") {
            match SettingType::parse(&name) {
                Some(kind) => setting.kind = kind,
                None => {
                    let hint = match did_you_mean(&name, SettingType::ALL) {
                        Some(close) => format!("did you mean `{close}`?"),
                        None => format!("use one of: {}", SettingType::ALL.join(", ")),
                    };
                    f.at(
                        codes::INVALID_SETTING_TYPE,
                        file,
                        &node.span,
                        format!("{what} has type `{name}`, which is not a setting type"),
                        Some(hint),
                    );
                    continue;
                }
            }
        }
        if let Some(e) = t.get("enum") {
            match e.value.as_array() {
                Some(items) if !items.is_empty() => {
                    // Each value is checked against the type alone, then they become the
                    // choices.
                    let choices = items
                        .iter()
                        .filter_map(|item| typed_text(f, file, item, &setting, "`enum` value"))
                        .collect();
                    setting.choices = choices;
                }
                _ => f.at(
                    codes::WRONG_TYPE,
                    file,
                    &e.value.span,
                    format!("`enum` in {what} must be a non-empty array of allowed values"),
                    Some("write e.g. `enum = [\"metric\", \"imperial\"]`".into()),
                ),
            }
        }
        if let Some(d) = t.get("default") {
            if setting.secret {
                f.at(
                    codes::SECRET_WITH_DEFAULT,
                    file,
                    &d.key_span,
                    format!("{what} is secret and has a default"),
                    Some("a secret's value comes from each user: remove `default`".into()),
                );
            } else if let Some(text) = typed_text(f, file, &d.value, &setting, "`default`") {
                if !setting.choices.is_empty() && !setting.choices.contains(&text) {
                    f.at(
                        codes::INVALID_SETTING_VALUE,
                        file,
                        &d.value.span,
                        format!("the `default` of {what} is not one of its `enum` values"),
                        Some(format!("use one of: {}", setting.choices.join(", "))),
                    );
                } else {
                    setting.default = Some(text);
                }
            }
        }
        if let Some((name, node)) = t.string(f, "env") {
            if !is_valid_env_name(&name) {
                f.at(
                    codes::INVALID_VALUE,
                    file,
                    &node.span,
                    format!("`env` of {what} is `{name}`, which is not a variable name"),
                    Some("use letters, digits and `_`, not starting with a digit (e.g. \"ACME_API_KEY\")".into()),
                );
            } else if is_reserved_env_name(&name) {
                f.at(
                    codes::RESERVED_SETTING_ENV,
                    file,
                    &node.span,
                    format!("`env` of {what} is `{name}`; names starting with AGX_ belong to agx"),
                    Some("choose a name of your own, e.g. with your package's prefix".into()),
                );
            } else if let Some(owner) = env_owners.get(&name.to_ascii_uppercase()) {
                f.at(
                    codes::DUPLICATE_SETTING_ENV,
                    file,
                    &node.span,
                    format!("{what} and setting `{owner}` both use `env = \"{name}\"`"),
                    Some("give each setting its own variable".into()),
                );
            } else {
                env_owners.insert(name.to_ascii_uppercase(), entry.key.clone());
                setting.env = Some(name);
            }
        }
        if f.error_count() == before {
            settings.push(setting);
        }
    }
    settings
}

/// A `default` or `enum` value as the canonical text of the setting's type, or a finding.
fn typed_text(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    setting: &Setting,
    what: &str,
) -> Option<String> {
    let text = match (&node.value, setting.kind) {
        (Value::String(s), SettingType::String | SettingType::Path) => Some(s.clone()),
        (Value::Integer(i), SettingType::Number) => Some(i.to_string()),
        (Value::Float(x), SettingType::Number) if x.is_finite() => Some(x.to_string()),
        (Value::Bool(b), SettingType::Boolean) => Some(b.to_string()),
        _ => None,
    };
    let checked = text.as_deref().map(|t| setting.check_value(t));
    match checked {
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => {
            f.at(
                codes::INVALID_SETTING_VALUE,
                file,
                &node.span,
                format!("the {what} of setting `{}` does not fit: {e}", setting.key),
                Some(e.hint(setting)),
            );
            None
        }
        None => {
            f.at(
                codes::INVALID_SETTING_VALUE,
                file,
                &node.span,
                format!(
                    "the {what} of setting `{}` is {}, but the setting's type is {}",
                    setting.key,
                    node.type_name(),
                    setting.kind.as_str()
                ),
                Some("write a value of the setting's type, or change its `type`".into()),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Setting>, Vec<(&'static str, usize)>) {
        let file = SourceFile::new("agx.toml", text.to_string());
        let node = file.parse().unwrap();
        let settings_node = node.pointer("/extension/settings").unwrap().clone();
        let mut f = Findings::default();
        let settings = read_settings(&mut f, &file, &settings_node);
        let codes = f.list.iter().map(|x| (x.code, x.location.line)).collect();
        (settings, codes)
    }

    #[test]
    fn a_full_declaration_reads() {
        let (settings, codes) = read(
            "[extension.settings.api_key]\ndescription = \"Key\"\nsecret = true\nrequired = true\nenv = \"ACME_API_KEY\"\n\
             [extension.settings.units]\ntype = \"string\"\nenum = [\"metric\", \"imperial\"]\ndefault = \"metric\"\n\
             [extension.settings.retries]\ntype = \"number\"\ndefault = 3\n",
        );
        assert!(codes.is_empty(), "{codes:?}");
        assert_eq!(settings.len(), 3);
        assert!(settings[0].secret && settings[0].required);
        assert_eq!(settings[0].env.as_deref(), Some("ACME_API_KEY"));
        assert_eq!(settings[1].choices, ["metric", "imperial"]);
        assert_eq!(settings[2].default.as_deref(), Some("3"));
    }

    #[test]
    fn every_mistake_has_its_code_and_line() {
        let (settings, codes) = read(
            "[extension.settings.Bad-Key]\n\
             [extension.settings.a]\ntype = \"strng\"\n\
             [extension.settings.b]\ndefault = \"x\"\nenum = [\"y\"]\n\
             [extension.settings.c]\nsecret = true\ndefault = \"d\"\n\
             [extension.settings.d]\nenv = \"AGX_TOOL\"\n\
             [extension.settings.e]\nenv = \"SAME\"\n\
             [extension.settings.f]\nenv = \"SAME\"\nsecrte = true\n\
             [extension.settings.g]\ntype = \"number\"\ndefault = \"three\"\n",
        );
        assert_eq!(
            codes,
            [
                ("E035", 1),
                ("E036", 3),
                ("E037", 5),
                ("E038", 9),
                ("E040", 11),
                ("E003", 16),
                ("E039", 15),
                ("E037", 19),
            ]
        );
        assert_eq!(
            settings.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(),
            ["e"]
        );
    }

    #[test]
    fn keys_keep_their_case_but_may_not_differ_only_in_it() {
        let (settings, codes) = read(
            "[extension.settings.WEATHER_API_KEY]
secret = true
             [extension.settings.units]
             [extension.settings.Units]
",
        );
        assert_eq!(codes, [("E035", 4)]);
        assert_eq!(
            settings.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(),
            ["WEATHER_API_KEY", "units"]
        );
    }
}
