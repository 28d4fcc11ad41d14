//! Codex plugins in a Codex marketplace: `.agents/plugins/marketplace.json` listing one
//! plugin folder per package under `plugins/` as `{"source": "local", "path": …}`, each with
//! `.codex-plugin/plugin.json` (its `skills` and `mcpServers` paths), `.mcp.json` and
//! `skills/`. Codex has no way to ask the user for a value, so settings are named in the
//! description and set with `agx config set`, as for Agent Plugins.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::claude::{Marketplace, PLUGINS_FOLDER};
use super::model::{
    BundleFile, PluginSource, json_text, manifest_metadata, mcp_file, plain_servers,
    plugins_folder, skill_files,
};

/// Where Codex reads a marketplace's catalog.
pub const MARKETPLACE_FILE: &str = ".agents/plugins/marketplace.json";

/// Every file of the marketplace of `sources`.
pub fn marketplace_files(marketplace: &Marketplace, sources: &[PluginSource]) -> Vec<BundleFile> {
    let plugins: Vec<Value> = sources
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "source": {"source": "local", "path": format!("./{PLUGINS_FOLDER}/{}", s.name)},
                "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
                "category": "Productivity",
            })
        })
        .collect();
    let catalog = json!({
        "name": marketplace.name,
        "interface": {"displayName": marketplace.name},
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
        path: root.join(".codex-plugin/plugin.json"),
        text: json_text(&manifest(source)),
    }];
    let servers = json!({"mcpServers": plain_servers(source)});
    files.extend(mcp_file(source, root.join(".mcp.json"), servers));
    files.extend(skill_files(source, root));
    files
}

/// `.codex-plugin/plugin.json`: every path starts with `./`, as Codex requires.
pub fn manifest(source: &PluginSource) -> Value {
    let mut m = manifest_metadata(
        source,
        source.author.as_ref().map(|a| a.to_json()),
        source.web_homepage(),
    );
    if !source.skills.is_empty() {
        m.insert("skills".into(), "./skills/".into());
    }
    if !source.servers.is_empty() {
        m.insert("mcpServers".into(), "./.mcp.json".into());
    }
    m.insert(
        "interface".into(),
        json!({"displayName": source.name, "shortDescription": source.description()}),
    );
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::model::fixture;

    #[test]
    fn the_manifest_names_its_components_by_relative_paths() {
        let m = manifest(&fixture::source());
        assert_eq!(m["skills"], "./skills/");
        assert_eq!(m["mcpServers"], "./.mcp.json");
        assert_eq!(m["name"], "acme-quotes");
        let marketplace = Marketplace {
            name: "acme".into(),
            owner: "Acme".into(),
        };
        let files = marketplace_files(&marketplace, &[fixture::source()]);
        assert_eq!(files[0].path(), Path::new(MARKETPLACE_FILE));
        assert_eq!(
            files[1].path(),
            Path::new("plugins/acme-quotes/.codex-plugin/plugin.json")
        );
    }
}
