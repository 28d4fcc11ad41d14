//! Every supported MCP client in one table (see docs/clients.md): where its config
//! files are, their format, where the servers live inside them, and the entry shape.
//! Adding a client is one entry here, plus a `Shape` variant only when its entry differs.

pub mod shape;

use std::path::PathBuf;

pub use agx_edit::Format;

/// How one server entry looks in a client's file (see `super::shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{command, args, env}` (Claude Desktop, Cursor, Windsurf, Gemini, Codex, Zed, …).
    Plain,
    /// `{type: "stdio", command, args, env}` (Claude Code, VS Code).
    TypedStdio,
    /// `{type: "local", command, args, env, tools: ["*"]}` (Copilot CLI).
    Copilot,
    /// `{type: "local", command: [cmd, …args], environment, enabled: true}` (opencode).
    OpenCode,
    /// `{name, type: stdio, cmd, args, envs, enabled, timeout, …}` (Goose).
    Goose,
    /// A list item `{name, command, args, env}` (Continue).
    NamedListItem,
}

/// Operating systems whose paths differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// What the paths of the table depend on: the home folder, the OS and a few environment
/// variables. Tests build one by hand; `HostEnv::current` reads the real machine.
#[derive(Debug, Clone)]
pub struct HostEnv {
    pub home: PathBuf,
    pub os: Os,
    pub vars: std::collections::BTreeMap<String, String>,
}

/// Environment variables that move client config files.
const PATH_VARS: &[&str] = &[
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "COPILOT_HOME",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "LOCALAPPDATA",
    "OPENCODE_CONFIG",
];

impl HostEnv {
    pub fn current() -> Option<HostEnv> {
        let home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)?;
        let vars = PATH_VARS
            .iter()
            .filter_map(|v| {
                let value = std::env::var(v).ok().filter(|s| !s.is_empty())?;
                Some((v.to_string(), value))
            })
            .collect();
        Some(HostEnv {
            home,
            os: Os::current(),
            vars,
        })
    }

    fn var(&self, name: &str) -> Option<PathBuf> {
        self.vars.get(name).map(PathBuf::from)
    }

    /// `~/.config` on Linux (or `XDG_CONFIG_HOME`), `~/Library/Application Support` on macOS,
    /// `%APPDATA%` on Windows.
    pub fn app_config(&self) -> PathBuf {
        match self.os {
            Os::Linux => self
                .var("XDG_CONFIG_HOME")
                .unwrap_or_else(|| self.home.join(".config")),
            Os::MacOs => self.home.join("Library/Application Support"),
            Os::Windows => self
                .var("APPDATA")
                .unwrap_or_else(|| self.home.join("AppData/Roaming")),
        }
    }

    /// Tools that use `~/.config` on every Unix, not the macOS Application Support folder.
    pub fn unix_config(&self) -> PathBuf {
        match self.os {
            Os::Windows => self.app_config(),
            _ => self
                .var("XDG_CONFIG_HOME")
                .unwrap_or_else(|| self.home.join(".config")),
        }
    }

    /// VS Code's user folder.
    pub fn vscode_user(&self) -> PathBuf {
        self.app_config().join("Code/User")
    }

    /// `$VAR` when set, else `~/<default>`.
    fn home_or_var(&self, var: &str, default: &str) -> PathBuf {
        self.var(var).unwrap_or_else(|| self.home.join(default))
    }
}

/// One client.
#[derive(Debug)]
pub struct Client {
    /// The name used on the command line and in clients-v1.toml.
    pub id: &'static str,
    pub display: &'static str,
    /// Other names accepted on the command line.
    pub aliases: &'static [&'static str],
    pub format: Format,
    /// Key path from the file's root to the servers map (or list, for `NamedListItem`).
    pub container: &'static [&'static str],
    pub shape: Shape,
    /// The user-scope file.
    pub user: fn(&HostEnv) -> PathBuf,
    /// The project-scope file relative to the project folder; `{key}` is the entry key.
    pub project: Option<&'static str>,
    /// Claude Code's `local` scope: `projects.<dir>.<container>` inside the user file.
    pub local_scope: bool,
    /// What a new file starts with, when the client needs more than the entry (`{key}` is
    /// the entry key).
    pub new_file: Option<&'static str>,
}

/// A client is its id (the rest is the table's data about it).
impl PartialEq for Client {
    fn eq(&self, other: &Client) -> bool {
        self.id == other.id
    }
}

impl Eq for Client {}

/// The table, from each client's documentation and source (checked by running Claude
/// Code, Gemini CLI and Codex CLI).
pub static CLIENTS: &[Client] = &[
    Client {
        id: "claude-code",
        display: "Claude Code",
        aliases: &["claude-cli", "claudecode"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::TypedStdio,
        user: |e| {
            e.var("CLAUDE_CONFIG_DIR")
                .map(|d| d.join(".claude.json"))
                .unwrap_or_else(|| e.home.join(".claude.json"))
        },
        project: Some(".mcp.json"),
        local_scope: true,
        new_file: None,
    },
    Client {
        id: "claude-desktop",
        display: "Claude Desktop",
        aliases: &["claude-app"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| {
            // The MSIX build (the default on Windows since 2026) keeps its own copy.
            let msix = e.var("LOCALAPPDATA").map(|l| {
                l.join("Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/claude_desktop_config.json")
            });
            match msix {
                Some(m) if e.os == Os::Windows && m.exists() => m,
                _ => e.app_config().join("Claude/claude_desktop_config.json"),
            }
        },
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "cursor",
        display: "Cursor",
        aliases: &[],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".cursor/mcp.json"),
        project: Some(".cursor/mcp.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "vscode",
        display: "VS Code",
        aliases: &["code", "vs-code"],
        format: Format::Jsonc,
        container: &["servers"],
        shape: Shape::TypedStdio,
        user: |e| e.vscode_user().join("mcp.json"),
        project: Some(".vscode/mcp.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "windsurf",
        display: "Windsurf",
        aliases: &["codeium"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".codeium/windsurf/mcp_config.json"),
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "gemini",
        display: "Gemini CLI",
        aliases: &["gemini-cli"],
        format: Format::Jsonc,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| {
            e.var("GEMINI_CLI_HOME")
                .unwrap_or_else(|| e.home.clone())
                .join(".gemini/settings.json")
        },
        project: Some(".gemini/settings.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "codex",
        display: "Codex CLI",
        aliases: &["codex-cli", "openai-codex"],
        format: Format::Toml,
        container: &["mcp_servers"],
        shape: Shape::Plain,
        user: |e| e.home_or_var("CODEX_HOME", ".codex").join("config.toml"),
        project: Some(".codex/config.toml"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "zed",
        display: "Zed",
        aliases: &[],
        format: Format::Jsonc,
        container: &["context_servers"],
        shape: Shape::Plain,
        user: |e| match e.os {
            Os::Windows => e.app_config().join("Zed/settings.json"),
            _ => e.unix_config().join("zed/settings.json"),
        },
        project: Some(".zed/settings.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "opencode",
        display: "opencode",
        aliases: &["open-code"],
        format: Format::Jsonc,
        container: &["mcp"],
        shape: Shape::OpenCode,
        user: |e| {
            e.var("OPENCODE_CONFIG").unwrap_or_else(|| {
                let dir = e.unix_config().join("opencode");
                let jsonc = dir.join("opencode.jsonc");
                if jsonc.exists() {
                    jsonc
                } else {
                    dir.join("opencode.json")
                }
            })
        },
        project: Some("opencode.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "copilot",
        display: "GitHub Copilot CLI",
        aliases: &["copilot-cli", "github-copilot"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Copilot,
        user: |e| {
            e.home_or_var("COPILOT_HOME", ".copilot")
                .join("mcp-config.json")
        },
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "cline",
        display: "Cline",
        aliases: &[],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| {
            let v4 = e.home.join(".cline/data/settings/cline_mcp_settings.json");
            let legacy = e
                .vscode_user()
                .join("globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json");
            // Cline 4+ moved the file; write the old one only where it is the one in use.
            if !v4.exists() && legacy.exists() {
                legacy
            } else {
                v4
            }
        },
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "kiro",
        display: "Kiro",
        aliases: &[],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".kiro/settings/mcp.json"),
        project: Some(".kiro/settings/mcp.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "qwen",
        display: "Qwen Code",
        aliases: &["qwen-code"],
        format: Format::Jsonc,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".qwen/settings.json"),
        project: Some(".qwen/settings.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "goose",
        display: "Goose",
        aliases: &[],
        format: Format::Yaml,
        container: &["extensions"],
        shape: Shape::Goose,
        user: |e| match e.os {
            Os::Windows => e.app_config().join("Block/goose/config/config.yaml"),
            _ => e.unix_config().join("goose/config.yaml"),
        },
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "continue",
        display: "Continue",
        aliases: &["continue-dev"],
        format: Format::Yaml,
        container: &["mcpServers"],
        shape: Shape::NamedListItem,
        user: |e| e.home.join(".continue/config.yaml"),
        project: Some(".continue/mcpServers/{key}.yaml"),
        local_scope: false,
        new_file: Some("name: {key}\nversion: 0.0.1\nschema: v1\n"),
    },
    Client {
        id: "lm-studio",
        display: "LM Studio",
        aliases: &["lmstudio"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".lmstudio/mcp.json"),
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "amazon-q",
        display: "Amazon Q Developer",
        aliases: &["amazonq", "q"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".aws/amazonq/mcp.json"),
        project: Some(".amazonq/mcp.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "junie",
        display: "JetBrains Junie",
        aliases: &[],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".junie/mcp/mcp.json"),
        project: Some(".junie/mcp/mcp.json"),
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "augment",
        display: "Augment",
        aliases: &["auggie"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".augment/settings.json"),
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "kimi",
        display: "Kimi CLI",
        aliases: &["kimi-cli"],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| e.home.join(".kimi/mcp.json"),
        project: None,
        local_scope: false,
        new_file: None,
    },
    Client {
        id: "antigravity",
        display: "Antigravity",
        aliases: &[],
        format: Format::Json,
        container: &["mcpServers"],
        shape: Shape::Plain,
        user: |e| {
            let gemini = e.home.join(".gemini");
            if gemini.join("config/.migrated").exists() {
                gemini.join("config/mcp_config.json")
            } else {
                gemini.join("antigravity/mcp_config.json")
            }
        },
        project: Some(".agents/mcp_config.json"),
        local_scope: false,
        new_file: None,
    },
];

/// Find a client by id or alias (case-insensitive).
pub fn find(name: &str) -> Option<&'static Client> {
    let name = name.to_ascii_lowercase();
    CLIENTS
        .iter()
        .find(|c| c.id == name || c.aliases.contains(&name.as_str()))
}

/// Guess the client of a config file given with `--config`: first by where the file is
/// (its path ends like a client's user or project file), then by what it holds.
pub fn guess(path: &std::path::Path, text: &str, env: &HostEnv) -> Option<&'static Client> {
    // The last components of a client's file that identify it (`.claude.json`,
    // `Code/User/mcp.json` → `User/mcp.json`), compared with the end of `path`.
    let ends_with = |candidate: &std::path::Path| {
        let rel = candidate.strip_prefix(&env.home).unwrap_or(candidate);
        let tail: Vec<_> = rel.components().rev().take(2).collect();
        let have: Vec<_> = path.components().rev().take(tail.len()).collect();
        !tail.is_empty() && tail == have
    };
    let by_place = CLIENTS.iter().find(|c| {
        ends_with(&(c.user)(env))
            || c.project
                .filter(|p| !p.contains("{key}"))
                .is_some_and(|p| ends_with(std::path::Path::new(p)))
    });
    if by_place.is_some() {
        return by_place;
    }
    let has = |key: &str| text.contains(&format!("\"{key}\"")) || text.contains(&format!("{key}:"));
    let id = match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => "codex",
        Some("yaml" | "yml") if has("extensions") => "goose",
        Some("yaml" | "yml") => "continue",
        _ if has("context_servers") => "zed",
        _ if has("servers") && !has("mcpServers") => "vscode",
        _ if text.contains("\"mcp\"") => "opencode",
        _ => "cursor",
    };
    find(id)
}

/// Every id and alias, for "did you mean" hints.
pub fn all_names() -> impl Iterator<Item = &'static str> {
    CLIENTS
        .iter()
        .flat_map(|c| std::iter::once(c.id).chain(c.aliases.iter().copied()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(os: Os) -> HostEnv {
        HostEnv {
            home: PathBuf::from("/h"),
            os,
            vars: Default::default(),
        }
    }

    #[test]
    fn table_has_every_client_of_the_design_once() {
        let ids: Vec<&str> = CLIENTS.iter().map(|c| c.id).collect();
        assert_eq!(ids.len(), 21);
        let mut names: Vec<&str> = all_names().collect();
        let before = names.len();
        names.sort();
        names.dedup();
        assert_eq!(before, names.len(), "an id or alias is used twice");
        assert!(find("claude").is_none(), "`claude` is ambiguous");
    }

    #[test]
    fn paths_follow_os_and_overrides() {
        let linux = env(Os::Linux);
        assert_eq!(
            (find("vscode").unwrap().user)(&linux),
            PathBuf::from("/h/.config/Code/User/mcp.json")
        );
        let mac = env(Os::MacOs);
        assert_eq!(
            (find("claude-desktop").unwrap().user)(&mac),
            PathBuf::from("/h/Library/Application Support/Claude/claude_desktop_config.json")
        );
        let mut moved = env(Os::Linux);
        moved.vars.insert("CODEX_HOME".into(), "/c".into());
        moved.vars.insert("CLAUDE_CONFIG_DIR".into(), "/cc".into());
        assert_eq!(
            (find("codex").unwrap().user)(&moved),
            PathBuf::from("/c/config.toml")
        );
        assert_eq!(
            (find("claude-code").unwrap().user)(&moved),
            PathBuf::from("/cc/.claude.json")
        );
        assert_eq!(find("Cursor").unwrap().id, "cursor");
    }

    #[test]
    fn guesses_the_client_of_a_config_file() {
        let e = env(Os::Linux);
        let g = |p: &str, text: &str| guess(std::path::Path::new(p), text, &e).unwrap().id;
        assert_eq!(g("/backup/.claude.json", "{}"), "claude-code");
        assert_eq!(g("/x/.vscode/mcp.json", "{}"), "vscode");
        assert_eq!(g("/x/windsurf/mcp_config.json", "{}"), "windsurf");
        assert_eq!(g("/x/y/custom.toml", ""), "codex");
        assert_eq!(g("/x/y/custom.yaml", "extensions:\n"), "goose");
        assert_eq!(g("/x/y/custom.json", "{\"context_servers\": {}}"), "zed");
        assert_eq!(g("/x/y/custom.json", "{\"mcpServers\": {}}"), "cursor");
    }
}
