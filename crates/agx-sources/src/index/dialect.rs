//! The plugin formats agx imports (docs/plugins.md, "Dialects"). They share one shape (a
//! manifest, MCP servers in a JSON file or inline, skills in `skills/<name>/SKILL.md`) and
//! differ in where the manifest is, where servers are by default, and the words a server's
//! command uses for the plugin's folder and its data folder.

use std::path::Path;

use super::marketplace_files;

/// One plugin format, told apart by its manifest's place.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Dialect {
    /// Claude Code: `.claude-plugin/plugin.json` (optional), `.mcp.json`.
    #[default]
    Claude,
    /// Codex: `.codex-plugin/plugin.json`, `.mcp.json`.
    Codex,
    /// Cursor: `.cursor-plugin/plugin.json`, `mcp.json`.
    Cursor,
    /// Agent Plugins 1.0: root `plugin.json`, `mcp.json`, fixed places only.
    AgentPlugins,
    /// Gemini CLI: `gemini-extension.json` with its servers inline.
    Gemini,
}

impl Dialect {
    /// In the order a folder is recognised: a folder with more than one manifest (a plugin
    /// published for several clients) is read as the first, Claude's being the one agx
    /// imported first and the richest (settings).
    pub const ALL: [Dialect; 5] = [
        Dialect::Claude,
        Dialect::Codex,
        Dialect::Cursor,
        Dialect::AgentPlugins,
        Dialect::Gemini,
    ];

    /// The manifest's path inside the plugin.
    pub fn manifest_file(self) -> &'static str {
        match self {
            Dialect::Claude => ".claude-plugin/plugin.json",
            Dialect::Codex => ".codex-plugin/plugin.json",
            Dialect::Cursor => ".cursor-plugin/plugin.json",
            Dialect::AgentPlugins => "plugin.json",
            Dialect::Gemini => "gemini-extension.json",
        }
    }

    /// The folder that holds the manifest (`.claude-plugin`), when it is not the root.
    pub fn manifest_folder(self) -> Option<&'static str> {
        self.manifest_file()
            .rsplit_once('/')
            .map(|(folder, _)| folder)
    }

    /// Where the MCP servers are when the manifest does not say: a file of the plugin, or
    /// `None` for Gemini, whose servers are only in the manifest.
    pub fn servers_file(self) -> Option<&'static str> {
        match self {
            Dialect::Claude | Dialect::Codex => Some(".mcp.json"),
            Dialect::Cursor | Dialect::AgentPlugins => Some("mcp.json"),
            Dialect::Gemini => None,
        }
    }

    /// Whether the manifest may move components (`"skills": "./more"`, `"mcpServers":
    /// "./servers.json"`); Agent Plugins fixes their places (§6), so its manifest's fields
    /// are not read for that.
    pub fn manifest_moves_components(self) -> bool {
        !matches!(self, Dialect::AgentPlugins)
    }

    /// The components of this dialect agx does not carry beyond Claude Code's (hooks,
    /// agents, commands, …), each with its place in the plugin.
    pub fn other_components(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Dialect::Claude | Dialect::AgentPlugins => &[],
            Dialect::Codex => &[("apps", ".app.json")],
            Dialect::Cursor => &[("rules", "rules")],
            Dialect::Gemini => &[("context file", "GEMINI.md")],
        }
    }

    /// What a user calls a plugin of this format, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Claude => "a Claude Code plugin",
            Dialect::Codex => "a Codex plugin",
            Dialect::Cursor => "a Cursor plugin",
            Dialect::AgentPlugins => "an Agent Plugins 1.0 plugin",
            Dialect::Gemini => "a Gemini CLI extension",
        }
    }

    /// The client that installs plugins of this format, for hints.
    pub fn client(self) -> &'static str {
        match self {
            Dialect::Claude => "Claude Code",
            Dialect::Codex => "Codex",
            Dialect::Cursor => "Cursor",
            Dialect::AgentPlugins => "a client that loads Agent Plugins",
            Dialect::Gemini => "Gemini CLI",
        }
    }

    /// The dialect of the plugin in `dir`: the first whose manifest is there (a link
    /// counts: reading it says why it is refused), else Claude's, whose manifest is
    /// optional.
    pub fn of(dir: &Path) -> Dialect {
        Dialect::ALL
            .into_iter()
            .find(|d| marketplace_files::exists(&dir.join(d.manifest_file())))
            .unwrap_or_default()
    }

    /// Whether `dir` has the manifest of some dialect.
    pub fn has_manifest(dir: &Path) -> bool {
        Dialect::ALL
            .iter()
            .any(|d| marketplace_files::exists(&dir.join(d.manifest_file())))
    }

    /// `text` of a server's command, arguments, environment or URL in agx's words: the
    /// plugin's folder is `${package.dir}`, its data folder `${package.data}`, a Claude
    /// `userConfig` option `${settings.KEY}`.
    pub fn translate(self, text: &str) -> String {
        let mut out = text.to_string();
        for (theirs, ours) in self.placeholders() {
            out = out.replace(theirs, ours);
        }
        out
    }

    fn placeholders(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Dialect::Claude => &[
                ("${CLAUDE_PLUGIN_ROOT}", "${package.dir}"),
                ("${CLAUDE_PLUGIN_DATA}", "${package.data}"),
                ("${user_config.", "${settings."),
            ],
            // Codex and Cursor run Claude-format plugins and Agent Plugins too, and so
            // read their words.
            Dialect::Codex => &[
                ("${CLAUDE_PLUGIN_ROOT}", "${package.dir}"),
                ("${CLAUDE_PLUGIN_DATA}", "${package.data}"),
                ("${PLUGIN_ROOT}", "${package.dir}"),
                ("${PLUGIN_DATA}", "${package.data}"),
            ],
            Dialect::Cursor => &[
                ("${CURSOR_PLUGIN_ROOT}", "${package.dir}"),
                ("${CURSOR_PLUGIN_DATA}", "${package.data}"),
                ("${CLAUDE_PLUGIN_ROOT}", "${package.dir}"),
                ("${CLAUDE_PLUGIN_DATA}", "${package.data}"),
                ("${PLUGIN_ROOT}", "${package.dir}"),
                ("${PLUGIN_DATA}", "${package.data}"),
            ],
            Dialect::AgentPlugins => &[
                ("${PLUGIN_ROOT}", "${package.dir}"),
                ("${PLUGIN_DATA}", "${package.data}"),
            ],
            // `${/}` is the path separator: agx's paths take `/` on every system.
            Dialect::Gemini => &[
                ("${extensionPath}", "${package.dir}"),
                ("${/}", "/"),
                ("${pathSeparator}", "/"),
            ],
        }
    }

    /// A server's `cwd` relative to the plugin (`${CLAUDE_PLUGIN_ROOT}/srv` → `srv`);
    /// `None` for the plugin's own folder.
    pub fn relative_cwd(self, cwd: &str) -> Option<String> {
        let translated = self.translate(cwd);
        let relative = translated
            .strip_prefix("${package.dir}")
            .unwrap_or(&translated)
            .trim_start_matches('/')
            .trim_start_matches("./");
        (!relative.is_empty() && relative != ".").then(|| relative.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_read_in_the_first_dialect_whose_manifest_it_has() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Dialect::of(dir.path()), Dialect::Claude);
        assert!(!Dialect::has_manifest(dir.path()));
        std::fs::write(dir.path().join("gemini-extension.json"), "{}").unwrap();
        assert_eq!(Dialect::of(dir.path()), Dialect::Gemini);
        std::fs::write(dir.path().join("plugin.json"), "{}").unwrap();
        assert_eq!(Dialect::of(dir.path()), Dialect::AgentPlugins);
        std::fs::create_dir(dir.path().join(".codex-plugin")).unwrap();
        std::fs::write(dir.path().join(".codex-plugin/plugin.json"), "{}").unwrap();
        assert_eq!(Dialect::of(dir.path()), Dialect::Codex);
        assert!(Dialect::has_manifest(dir.path()));
    }

    #[test]
    fn each_dialect_names_its_folders_in_its_own_words() {
        assert_eq!(
            Dialect::AgentPlugins.translate("${PLUGIN_ROOT}/bin/x --data ${PLUGIN_DATA}"),
            "${package.dir}/bin/x --data ${package.data}"
        );
        // Not another dialect's: Claude Code would expand `${PLUGIN_ROOT}` from the
        // environment.
        assert_eq!(
            Dialect::Claude.translate("${PLUGIN_ROOT}"),
            "${PLUGIN_ROOT}"
        );
        assert_eq!(
            Dialect::Claude.translate("${CLAUDE_PLUGIN_ROOT}/s ${user_config.token}"),
            "${package.dir}/s ${settings.token}"
        );
        assert_eq!(
            Dialect::Gemini.translate("${extensionPath}${/}server.js"),
            "${package.dir}/server.js"
        );
        assert_eq!(Dialect::Gemini.relative_cwd("${extensionPath}"), None);
        assert_eq!(
            Dialect::AgentPlugins.relative_cwd("${PLUGIN_ROOT}/srv"),
            Some("srv".into())
        );
        assert_eq!(Dialect::Claude.relative_cwd("./srv"), Some("srv".into()));
    }
}
