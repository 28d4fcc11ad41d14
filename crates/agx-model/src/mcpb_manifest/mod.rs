//! A bundle's `manifest.json` (MCPB manifest versions 0.1 to 0.4): the fields that decide
//! how its server is installed and launched, and what agx shows about it. Fields agx does
//! not use (icons, screenshots, localization, `_meta`) are accepted and ignored.

pub mod paths;

/// The launcher script agx writes into an MCPB package's folder (see the provisioning in
/// the sources layer), which the wrapped server's command runs.
pub const LAUNCHER: &str = "mcpb-launch.sh";
/// The largest `manifest.json` agx reads.
pub const MAX_MANIFEST_SIZE: u64 = 1024 * 1024;
/// The folder of the package that holds the unpacked bundle.
pub const BUNDLE_DIR: &str = "bundle";

use std::collections::BTreeMap;

use serde::Deserialize;

/// The manifest versions agx reads. 0.1 names the fields agx uses as later versions do;
/// its bundles often give the version as `dxt_version` (see [`Manifest::declared_version`]).
pub const MANIFEST_VERSIONS: [&str; 4] = ["0.1", "0.2", "0.3", "0.4"];

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    #[serde(default)]
    pub manifest_version: Option<String>,
    /// The version's name before the rename to `manifest_version` (0.1 and 0.2 bundles
    /// carry it, some beside `manifest_version`).
    #[serde(default)]
    pub dxt_version: Option<String>,
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub display_name: Option<String>,
    pub description: String,
    #[serde(default)]
    pub license: Option<String>,
    #[serde(default)]
    pub homepage: Option<String>,
    #[serde(default)]
    pub repository: Option<Repository>,
    #[serde(default)]
    pub keywords: Vec<String>,
    pub server: Server,
    #[serde(default)]
    pub tools: Vec<Named>,
    #[serde(default)]
    pub prompts: Vec<Named>,
    #[serde(default)]
    pub compatibility: Option<Compatibility>,
    /// Keyed by the name `${user_config.<key>}` refers to; kept in the manifest's order.
    #[serde(default)]
    pub user_config: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Repository {
    pub url: String,
}

/// A tool or prompt the manifest lists (metadata only: the server answers for itself).
#[derive(Debug, Clone, Deserialize)]
pub struct Named {
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Compatibility {
    /// `darwin`, `win32`, `linux`; absent means every platform.
    #[serde(default)]
    pub platforms: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Server {
    /// `node`, `python`, `binary` or `uv`; checked by [`ServerType::parse`] so that an
    /// unknown type gets its own error.
    #[serde(rename = "type")]
    pub kind: String,
    pub entry_point: String,
    /// Optional only for `uv` servers, which the host launches itself.
    #[serde(default)]
    pub mcp_config: Option<McpConfig>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct McpConfig {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Keyed by platform (`darwin`, `win32`, `linux`); replaces `command`/`args` and adds
    /// to `env` on that platform.
    #[serde(default)]
    pub platform_overrides: BTreeMap<String, Override>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Override {
    #[serde(default)]
    pub command: Option<String>,
    #[serde(default)]
    pub args: Option<Vec<String>>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// How the bundle's server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerType {
    Node,
    Python,
    Binary,
    Uv,
}

impl ServerType {
    pub const ALL: [&'static str; 4] = ["node", "python", "binary", "uv"];

    pub fn parse(kind: &str) -> Option<ServerType> {
        Some(match kind {
            "node" => ServerType::Node,
            "python" => ServerType::Python,
            "binary" => ServerType::Binary,
            "uv" => ServerType::Uv,
            _ => return None,
        })
    }
}

/// One `user_config` entry.
#[derive(Debug, Clone, Deserialize)]
pub struct UserConfig {
    /// `string`, `number`, `boolean`, `directory` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub sensitive: bool,
    #[serde(default)]
    pub multiple: bool,
    #[serde(default)]
    pub default: Option<serde_json::Value>,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
}

impl Manifest {
    /// The manifest version: `manifest_version` when present (it is authoritative, as in
    /// the `mcpb` CLI), else `dxt_version`.
    pub fn declared_version(&self) -> Option<&str> {
        self.manifest_version
            .as_deref()
            .or(self.dxt_version.as_deref())
    }

    /// The platform-resolved launch configuration: `mcp_config` with this platform's
    /// override applied. `None` for a `uv` server without one.
    pub fn launch_config(&self) -> Option<McpConfig> {
        let mut config = self.server.mcp_config.clone()?;
        if let Some(over) = config.platform_overrides.get(current_platform()).cloned() {
            if let Some(command) = over.command {
                config.command = command;
            }
            if let Some(args) = over.args {
                config.args = args;
            }
            config.env.extend(over.env);
        }
        Some(config)
    }
}

/// This machine's platform as MCPB names it (Node's `process.platform`).
pub fn current_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_manifest_version_else_dxt_version() {
        let read = |versions: serde_json::Value| {
            let mut doc = serde_json::json!({
                "name": "x", "version": "1.0.0", "description": "d",
                "server": {"type": "node", "entry_point": "server/index.js",
                           "mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js"]}}
            });
            for (key, value) in versions.as_object().unwrap() {
                doc[key] = value.clone();
            }
            let manifest: Manifest = serde_json::from_value(doc).unwrap();
            manifest.declared_version().map(str::to_string)
        };
        assert_eq!(
            read(serde_json::json!({"dxt_version": "0.1"})).as_deref(),
            Some("0.1")
        );
        assert_eq!(
            read(serde_json::json!({"dxt_version": "0.1", "manifest_version": "0.2"})).as_deref(),
            Some("0.2")
        );
        assert_eq!(read(serde_json::json!({})), None);
        assert!(MANIFEST_VERSIONS.contains(&"0.1"));
    }

    #[test]
    fn the_platform_override_replaces_the_command_and_adds_env() {
        let platform = current_platform();
        let manifest: Manifest = serde_json::from_value(serde_json::json!({
            "manifest_version": "0.3",
            "name": "x",
            "version": "1.0.0",
            "description": "d",
            "author": {"name": "a"},
            "server": {
                "type": "binary",
                "entry_point": "server/x",
                "mcp_config": {
                    "command": "server/x",
                    "args": ["--a"],
                    "env": {"A": "1"},
                    "platform_overrides": {
                        platform: {"command": "server/x-native", "env": {"B": "2"}},
                        "other-os": {"command": "nope"}
                    }
                }
            }
        }))
        .unwrap();
        let config = manifest.launch_config().unwrap();
        assert_eq!(config.command, "server/x-native");
        assert_eq!(config.args, ["--a"]);
        assert_eq!(config.env.len(), 2);
    }
}
