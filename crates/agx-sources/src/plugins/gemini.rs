//! Gemini CLI extensions: `gemini-extension.json` (`name` = the folder's name, `version`,
//! `description`, `mcpServers`, `settings`) and `skills/`. Each package setting becomes an
//! extension setting whose `envVar` is the setting's override variable (docs/settings.md),
//! so a value given to Gemini CLI reaches `agx serve` as that setting; `sensitive` ones go
//! to Gemini CLI's keychain, never into the extension.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::model::{BundleFile, PluginSource, json_text, plain_servers, skill_files};
use agx_model::settings::override_name;

pub const MANIFEST_FILE: &str = "gemini-extension.json";

/// The files of one extension, rooted at `root` (whose last segment is the plugin's name).
pub fn extension_files(source: &PluginSource, root: &Path) -> Vec<BundleFile> {
    let mut files = vec![BundleFile::Text {
        path: root.join(MANIFEST_FILE),
        text: json_text(&manifest(source)),
    }];
    files.extend(skill_files(source, root));
    files
}

/// `gemini-extension.json`.
pub fn manifest(source: &PluginSource) -> Value {
    let servers = plain_servers(source);
    let mut m = Map::new();
    m.insert("name".into(), source.name.clone().into());
    m.insert("version".into(), source.version.to_string().into());
    m.insert("description".into(), source.description().into());
    m.insert("mcpServers".into(), Value::Object(servers));
    let settings: Vec<Value> = source
        .settings
        .iter()
        .map(|s| {
            json!({
                "name": s.key,
                "description": s.description.clone().unwrap_or_else(|| s.key.clone()),
                "envVar": override_name(&source.package, &s.key),
                "sensitive": s.secret,
            })
        })
        .collect();
    if !settings.is_empty() {
        m.insert("settings".into(), settings.into());
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::model::fixture;

    #[test]
    fn settings_map_to_their_override_variable_and_servers_to_agx_serve() {
        assert_eq!(
            manifest(&fixture::source()),
            json!({
                "name": "acme-quotes",
                "version": "1.0.0",
                "description": "Quotes. Requires the setting(s) api_key (secret): `agx config set acme/quotes <key>`.",
                "mcpServers": {"quotes": {"command": "agx", "args": ["serve", "acme/quotes/quotes@=1.0.0"]}},
                "settings": [
                    {"name": "api_key", "description": "Acme API key",
                     "envVar": "AGX_SETTING__ACME__QUOTES__API_KEY", "sensitive": true},
                    {"name": "units", "description": "units",
                     "envVar": "AGX_SETTING__ACME__QUOTES__UNITS", "sensitive": false},
                ],
            })
        );
    }

    #[test]
    fn the_extension_folder_is_named_as_the_extension() {
        let files = extension_files(&fixture::source(), Path::new("acme-quotes"));
        assert_eq!(
            files[0].path(),
            Path::new("acme-quotes/gemini-extension.json")
        );
        assert_eq!(files[1].path(), Path::new("acme-quotes/skills/review"));
    }
}
