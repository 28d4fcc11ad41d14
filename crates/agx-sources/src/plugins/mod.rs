//! Plugin bundles (docs/plugins.md): an installed agx package written as a Claude Code plugin
//! in a Claude-format marketplace, a Codex or Cursor plugin in a marketplace of that client's,
//! an Agent Plugins 1.0 plugin, or a Gemini CLI extension.
//! Every bundle's MCP entries launch bare `agx serve publisher/package/server@=VERSION`, as
//! committed project entries do, so the bundle carries no path, no store location and no
//! secret: agx finds the pinned version in its store when the client starts the entry.

pub mod agent_plugin;
mod carry;
pub mod claude;
pub mod codex;
pub mod cursor;

pub mod gemini;
pub mod import;
mod lenient_skill;
pub mod model;
pub mod names;
mod plugin_root;

pub use model::{BundleFile, PluginSource};

/// The bundle formats `agx export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.claude-plugin/marketplace.json` and one Claude Code plugin per package (read by
    /// Claude Code, Codex and VS Code).
    ClaudeMarketplace,
    /// An Agent Plugins 1.0 plugin per package (root `plugin.json`, `mcp.json`).
    AgentPlugin,
    /// A Gemini CLI extension per package (`gemini-extension.json`).
    GeminiExtension,
    /// `.agents/plugins/marketplace.json` and one Codex plugin per package
    /// (`.codex-plugin/plugin.json`, `.mcp.json`).
    CodexMarketplace,
    /// `.cursor-plugin/marketplace.json` and one Cursor plugin per package
    /// (`.cursor-plugin/plugin.json`, `mcp.json`).
    CursorMarketplace,
}

impl Format {
    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::ClaudeMarketplace => "claude-marketplace",
            Format::AgentPlugin => "agent-plugin",
            Format::GeminiExtension => "gemini-extension",
            Format::CodexMarketplace => "codex-marketplace",
            Format::CursorMarketplace => "cursor-marketplace",
        }
    }
}
