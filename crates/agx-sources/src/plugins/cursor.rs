//! Cursor plugins in a Cursor marketplace: `.cursor-plugin/marketplace.json` listing one
//! plugin folder per package under `plugins/`, each with `.cursor-plugin/plugin.json`,
//! `mcp.json` and `skills/` in the places Cursor looks by default. Cursor's manifest is a
//! closed schema (no field beyond its own), so only its fields are written; settings are
//! named in the description and set with `agx config set`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::claude::{Marketplace, PLUGINS_FOLDER};
use super::model::{
    BundleFile, PluginSource, json_text, manifest_metadata, mcp_file, plain_servers,
    plugins_folder, skill_files,
};

/// Where Cursor reads a marketplace's catalog.
pub const MARKETPLACE_FILE: &str = ".cursor-plugin/marketplace.json";

/// Every file of the marketplace of `sources`.
pub fn marketplace_files(marketplace: &Marketplace, sources: &[PluginSource]) -> Vec<BundleFile> {
    let plugins: Vec<Value> = sources
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "source": format!("{PLUGINS_FOLDER}/{}", s.name),
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
        path: PathBuf::from(MARKETPLACE_FILE),
        text: json_text(&catalog),
    }];
    files.extend(plugins_folder(sources, plugin_files));
    files
}

/// The files of one plugin, rooted at `root`.
pub fn plugin_files(source: &PluginSource, root: &Path) -> Vec<BundleFile> {
    let mut files = vec![BundleFile::Text {
        path: root.join(".cursor-plugin/plugin.json"),
        text: json_text(&manifest(source)),
    }];
    let servers = json!({"mcpServers": plain_servers(source)});
    files.extend(mcp_file(source, root.join("mcp.json"), servers));
    files.extend(skill_files(source, root));
    files
}

/// `.cursor-plugin/plugin.json`: Cursor's fields only (its `author` is a name and an email).
pub fn manifest(source: &PluginSource) -> Value {
    let author = source.author.as_ref().map(|author| {
        let mut object = Map::new();
        object.insert("name".into(), author.name.clone().into());
        if let Some(email) = &author.email {
            object.insert("email".into(), email.clone().into());
        }
        Value::Object(object)
    });
    Value::Object(manifest_metadata(source, author, source.web_homepage()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::model::fixture;

    #[test]
    fn the_manifest_holds_only_cursors_fields() {
        const FIELDS: [&str; 8] = [
            "name",
            "version",
            "description",
            "author",
            "homepage",
            "repository",
            "license",
            "keywords",
        ];
        let m = manifest(&fixture::source());
        assert!(
            m.as_object()
                .unwrap()
                .keys()
                .all(|k| FIELDS.contains(&k.as_str())),
            "{m}"
        );
        let files = plugin_files(&fixture::source(), Path::new("plugins/acme-quotes"));
        assert_eq!(files[1].path(), Path::new("plugins/acme-quotes/mcp.json"));
    }
}
