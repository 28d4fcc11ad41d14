//! Claude Code plugins in a Claude-format marketplace (read by Claude Code, Codex and VS
//! Code): `.claude-plugin/marketplace.json` listing one plugin folder per package under
//! `plugins/`, each with `.claude-plugin/plugin.json`, `.mcp.json` and `skills/`.
//!
//! A required setting becomes a `userConfig` option (`sensitive` for a secret) whose value
//! Claude Code passes to `agx serve` as the setting's override variable
//! (`AGX_SETTING__…=${user_config.KEY}`, docs/settings.md): the value stays in Claude Code's
//! own storage and never in the plugin.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::model::{
    BundleFile, PluginSource, json_text, manifest_metadata, mcp_file, plugins_folder, skill_files,
};
use agx_model::settings::{Setting, SettingType, override_name};

/// The folder holding every plugin of an exported marketplace.
pub const PLUGINS_FOLDER: &str = "plugins";

/// The marketplace's owner and name.
#[derive(Debug, Clone)]
pub struct Marketplace {
    pub name: String,
    pub owner: String,
}

/// Every file of the marketplace of `sources`.
pub fn marketplace_files(marketplace: &Marketplace, sources: &[PluginSource]) -> Vec<BundleFile> {
    let plugins: Vec<Value> = sources
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "source": format!("./{PLUGINS_FOLDER}/{}", s.name),
                "version": s.version.to_string(),
                "description": s.description(),
            })
        })
        .collect();
    let packages: Vec<String> = sources
        .iter()
        .map(|s| format!("{} {}", s.package, s.version))
        .collect();
    let catalog = json!({
        "name": marketplace.name,
        "owner": {"name": marketplace.owner},
        "metadata": {"description": format!("agx packages: {}", packages.join(", "))},
        "plugins": plugins,
    });
    let mut files = vec![BundleFile::Text {
        path: PathBuf::from(".claude-plugin/marketplace.json"),
        text: json_text(&catalog),
    }];
    files.extend(plugins_folder(sources, plugin_files));
    files
}

/// The files of one plugin, rooted at `root`.
pub fn plugin_files(source: &PluginSource, root: &Path) -> Vec<BundleFile> {
    let mut files = vec![BundleFile::Text {
        path: root.join(".claude-plugin/plugin.json"),
        text: json_text(&manifest(source)),
    }];
    files.extend(mcp_file(source, root.join(".mcp.json"), mcp_config(source)));
    files.extend(skill_files(source, root));
    files
}

/// `.claude-plugin/plugin.json`.
pub fn manifest(source: &PluginSource) -> Value {
    let mut m = manifest_metadata(
        source,
        source.author.as_ref().map(|a| a.to_json()),
        source.web_homepage(),
    );
    let options: Map<String, Value> = source
        .required_settings()
        .map(|s| (s.key.clone(), user_config_option(s)))
        .collect();
    if !options.is_empty() {
        m.insert("userConfig".into(), Value::Object(options));
    }
    Value::Object(m)
}

/// A `userConfig` option for a setting: Claude Code asks for it when the plugin is enabled
/// and keeps a `sensitive` one in its secure storage.
fn user_config_option(setting: &Setting) -> Value {
    let kind = match setting.kind {
        SettingType::Number => "number",
        SettingType::Boolean => "boolean",
        SettingType::String | SettingType::Path => "string",
    };
    json!({
        "type": kind,
        "title": setting.key,
        "description": setting.description.clone().unwrap_or_else(|| setting.key.clone()),
        "required": true,
        "sensitive": setting.secret,
    })
}

/// `.mcp.json`: each server launched by bare `agx serve`, the `userConfig` values passed as
/// the settings' override variables.
pub fn mcp_config(source: &PluginSource) -> Value {
    let env: Map<String, Value> = source
        .required_settings()
        .map(|s| {
            (
                override_name(&source.package, &s.key),
                format!("${{user_config.{}}}", s.key).into(),
            )
        })
        .collect();
    let servers: Map<String, Value> = source
        .servers
        .iter()
        .map(|(key, launches)| {
            let entry = source.entry(launches);
            let mut server = Map::new();
            server.insert("command".into(), entry.command.into());
            server.insert("args".into(), entry.args.into());
            if !env.is_empty() {
                server.insert("env".into(), Value::Object(env.clone()));
            }
            (key.clone(), Value::Object(server))
        })
        .collect();
    json!({ "mcpServers": servers })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::model::fixture;

    #[test]
    fn the_manifest_maps_metadata_and_required_settings_to_user_config() {
        let m = manifest(&fixture::source());
        assert_eq!(
            m,
            json!({
                "name": "acme-quotes",
                "version": "1.0.0",
                "description": "Quotes. Requires the setting(s) api_key (secret): `agx config set acme/quotes <key>`.",
                "author": {"name": "Acme", "email": "dev@acme.test"},
                "homepage": "https://acme.test/quotes",
                "license": "MIT",
                "keywords": ["quotes"],
                "userConfig": {"api_key": {
                    "type": "string", "title": "api_key", "description": "Acme API key",
                    "required": true, "sensitive": true,
                }},
            })
        );
    }

    #[test]
    fn servers_launch_agx_serve_and_get_settings_through_their_override_variable() {
        assert_eq!(
            mcp_config(&fixture::source()),
            json!({"mcpServers": {"quotes": {
                "command": "agx",
                "args": ["serve", "acme/quotes/quotes@=1.0.0"],
                "env": {"AGX_SETTING__ACME__QUOTES__API_KEY": "${user_config.api_key}"},
            }}})
        );
    }

    #[test]
    fn the_marketplace_lists_each_plugin_by_relative_folder() {
        let market = Marketplace {
            name: "acme-tools".into(),
            owner: "acme".into(),
        };
        let files = marketplace_files(&market, &[fixture::source()]);
        let paths: Vec<_> = files.iter().map(|f| f.path().to_path_buf()).collect();
        assert_eq!(
            paths,
            [
                ".claude-plugin/marketplace.json",
                "plugins/acme-quotes/.claude-plugin/plugin.json",
                "plugins/acme-quotes/.mcp.json",
                "plugins/acme-quotes/skills/review",
            ]
            .map(PathBuf::from)
        );
        let BundleFile::Text { text, .. } = &files[0] else {
            panic!("marketplace.json is text")
        };
        let catalog: Value = serde_json::from_str(text).unwrap();
        assert_eq!(catalog["owner"], json!({"name": "acme"}));
        assert_eq!(
            catalog["metadata"],
            json!({"description": "agx packages: acme/quotes 1.0.0"})
        );
        assert_eq!(catalog["plugins"][0]["source"], "./plugins/acme-quotes");
        assert_eq!(catalog["plugins"][0]["version"], "1.0.0");
    }
}
