//! A bundle's `manifest.json` (MCPB manifest versions 0.2 to 0.4): the fields that decide
//! how its server is installed and launched, and what agx shows about it. Fields agx does
//! not use (icons, screenshots, localization, `_meta`) are accepted and ignored.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The manifest versions agx reads.
pub const MANIFEST_VERSIONS: [&str; 3] = ["0.2", "0.3", "0.4"];

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    /// `manifest_version`, or `dxt_version` in bundles made before the rename.
    #[serde(alias = "dxt_version")]
    pub manifest_version: String,
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
