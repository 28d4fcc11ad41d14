//! Agent Plugins 1.0 plugins: a root `plugin.json` with the exact `$schema`, `mcp.json`
//! with `type = "stdio"` servers, and `skills/`. Agent Plugins has no portable way to ask
//! for a value (`env` values are visible package data, §9.2), so settings are named in the
//! description and set with `agx config set`. [`check`] holds the specification's rules,
//! which every exported plugin is tested against.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::model::{BundleFile, PluginSource, json_text, manifest_metadata, mcp_file, skill_files};
use super::names::is_valid_plugin_name;

pub const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
pub const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// The files of one plugin, rooted at `root`.
pub fn plugin_files(source: &PluginSource, root: &Path) -> Vec<BundleFile> {
    let mut files = vec![BundleFile::Text {
        path: root.join("plugin.json"),
        text: json_text(&manifest(source)),
    }];
    files.extend(mcp_file(source, root.join("mcp.json"), mcp_config(source)));
    files.extend(skill_files(source, root));
    files
}

/// `plugin.json`: only the fields of the closed manifest (§5.2).
pub fn manifest(source: &PluginSource) -> Value {
    let mut m = Map::new();
    m.insert("$schema".into(), PLUGIN_SCHEMA.into());
    m.extend(manifest_metadata(
        source,
        source.author.as_ref().map(|a| a.to_json()),
        source.homepage.as_deref(),
    ));
    Value::Object(m)
}

/// `mcp.json`: each server a stdio entry launching bare `agx` (a bare executable name,
/// resolved on PATH, §7.2.1), no `env` and no `cwd`.
pub fn mcp_config(source: &PluginSource) -> Value {
    let servers: Map<String, Value> = source
        .servers
        .iter()
        .map(|(key, launches)| {
            let entry = source.entry(launches);
            let server = json!({"type": "stdio", "command": entry.command, "args": entry.args});
            (key.clone(), server)
        })
        .collect();
    json!({"$schema": MCP_SCHEMA, "mcpServers": servers})
}

const MANIFEST_FIELDS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

/// What in `root` breaks the Agent Plugins 1.0 rules for a manifest, an MCP configuration
/// and skill discovery (empty: none). Each problem names its file and field.
pub fn check(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let read = |name: &str| -> Option<Result<Value, String>> {
        let text = std::fs::read_to_string(root.join(name)).ok()?;
        Some(serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}")))
    };
    match read("plugin.json") {
        None => problems.push("plugin.json is missing".into()),
        Some(Err(e)) => problems.push(e),
        Some(Ok(m)) => check_manifest(&m, &mut problems),
    }
    match read("mcp.json") {
        None => {}
        Some(Err(e)) => problems.push(e),
        Some(Ok(m)) => check_mcp(&m, &mut problems),
    }
    if let Ok(entries) = std::fs::read_dir(root.join("skills")) {
        for entry in entries.flatten() {
            let skill = entry.path().join(agx_model::skills::SKILL_FILE);
            if !skill.is_file() {
                problems.push(format!(
                    "skills/{}: no SKILL.md",
                    entry.file_name().display()
                ));
            }
        }
    }
    problems
}

fn check_manifest(m: &Value, problems: &mut Vec<String>) {
    let Some(m) = m.as_object() else {
        return problems.push("plugin.json: not an object".into());
    };
    for key in m.keys().filter(|k| !MANIFEST_FIELDS.contains(&k.as_str())) {
        problems.push(format!("plugin.json: unknown field `{key}`"));
    }
    if m.get("$schema").and_then(Value::as_str) != Some(PLUGIN_SCHEMA) {
        problems.push(format!("plugin.json: `$schema` is not {PLUGIN_SCHEMA}"));
    }
    match m.get("name").and_then(Value::as_str) {
        Some(name) if is_valid_plugin_name(name) => {}
        other => problems.push(format!("plugin.json: `name` {other:?} breaks §5.5")),
    }
    for key in [
        "version",
        "description",
        "homepage",
        "repository",
        "license",
    ] {
        if m.get(key).is_some_and(|v| !v.is_string()) {
            problems.push(format!("plugin.json: `{key}` is not a string"));
        }
    }
    if let Some(author) = m.get("author") {
        let ok = author.as_object().is_some_and(|a| {
            a.iter()
                .all(|(k, v)| ["name", "email", "url"].contains(&k.as_str()) && v.is_string())
        });
        if !ok {
            problems.push("plugin.json: `author` has fields other than name, email, url".into());
        }
    }
}

fn check_mcp(m: &Value, problems: &mut Vec<String>) {
    let Some(m) = m.as_object() else {
        return problems.push("mcp.json: not an object".into());
    };
    for key in m
        .keys()
        .filter(|k| !["$schema", "mcpServers"].contains(&k.as_str()))
    {
        problems.push(format!("mcp.json: unknown field `{key}`"));
    }
    if m.get("$schema").and_then(Value::as_str) != Some(MCP_SCHEMA) {
        problems.push(format!("mcp.json: `$schema` is not {MCP_SCHEMA}"));
    }
    let Some(servers) = m.get("mcpServers").and_then(Value::as_object) else {
        return problems.push("mcp.json: `mcpServers` is not an object".into());
    };
    for (name, server) in servers {
        let at = format!("mcp.json: server `{name}`");
        let Some(server) = server.as_object() else {
            problems.push(format!("{at}: not an object"));
            continue;
        };
        if server.get("type").and_then(Value::as_str) != Some("stdio") {
            problems.push(format!("{at}: `type` is not \"stdio\""));
            continue;
        }
        for key in server.keys() {
            if !["type", "command", "args", "env", "cwd"].contains(&key.as_str()) {
                problems.push(format!("{at}: unknown field `{key}`"));
            }
        }
        match server.get("command").and_then(Value::as_str) {
            Some(c) if is_command_token(c) => {}
            other => problems.push(format!(
                "{at}: `command` {other:?} is neither a bare name nor a `./` path in the plugin"
            )),
        }
        if let Some(args) = server.get("args")
            && !args
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string))
        {
            problems.push(format!("{at}: `args` is not a list of strings"));
        }
        if let Some(env) = server.get("env") {
            match env.as_object() {
                Some(env) => {
                    for (k, v) in env {
                        if k == "PLUGIN_ROOT" || k == "PLUGIN_DATA" || !v.is_string() {
                            problems.push(format!("{at}: `env` entry `{k}` is not allowed"));
                        }
                    }
                }
                None => problems.push(format!("{at}: `env` is not an object")),
            }
        }
        if let Some(cwd) = server.get("cwd") {
            let ok = cwd.as_str().is_some_and(|c| {
                let rooted = |p: &str| c == p || c.starts_with(&format!("{p}/"));
                (c.starts_with("./") || rooted("${PLUGIN_ROOT}") || rooted("${PLUGIN_DATA}"))
                    && !c.split('/').any(|part| part == "..")
            });
            if !ok {
                problems.push(format!("{at}: `cwd` is not inside the plugin or its data"));
            }
        }
    }
}

/// One executable token: a bare name, or a `./` path that stays in the plugin (§7.2.1).
fn is_command_token(command: &str) -> bool {
    if let Some(rest) = command.strip_prefix("./") {
        return !rest.is_empty() && !rest.split('/').any(|part| part == "..");
    }
    !command.is_empty()
        && !command.contains(['/', '\\'])
        && !command.chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::model::fixture;

    fn write(root: &Path, files: &[BundleFile]) {
        for file in files {
            if let BundleFile::Text { path, text } = file {
                let path = root.join(path);
                fs_err::create_dir_all(path.parent().unwrap()).unwrap();
                fs_err::write(path, text).unwrap();
            }
        }
    }

    #[test]
    fn the_manifest_and_mcp_config_follow_the_specification() {
        let source = fixture::source();
        assert_eq!(
            mcp_config(&source),
            json!({
                "$schema": MCP_SCHEMA,
                "mcpServers": {"quotes": {
                    "type": "stdio", "command": "agx", "args": ["serve", "acme/quotes/quotes@=1.0.0"],
                }},
            })
        );
        let m = manifest(&source);
        assert_eq!(m["$schema"], PLUGIN_SCHEMA);
        assert_eq!(m["name"], "acme-quotes");
        assert!(m.get("userConfig").is_none(), "the manifest is closed: {m}");
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &plugin_files(&source, Path::new("")));
        assert_eq!(check(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn check_reports_each_broken_rule() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = json!({"$schema": PLUGIN_SCHEMA, "name": "Bad--Name", "hooks": {},
            "author": {"name": "a", "twitter": "b"}});
        let mcp = json!({"$schema": MCP_SCHEMA, "mcpServers": {
            "up": {"type": "stdio", "command": "../bin/server", "cwd": "data",
                   "env": {"PLUGIN_ROOT": "/x"}},
            "shell": {"type": "stdio", "command": "agx serve x"},
            "other": {"type": "websocket", "url": "ws://x"},
        }});
        fs_err::write(dir.path().join("plugin.json"), manifest.to_string()).unwrap();
        fs_err::write(dir.path().join("mcp.json"), mcp.to_string()).unwrap();
        fs_err::create_dir_all(dir.path().join("skills/empty")).unwrap();
        let problems = check(dir.path()).join("\n");
        for expected in [
            "unknown field `hooks`",
            "`name` Some(\"Bad--Name\")",
            "`author` has fields",
            "server `up`: `command`",
            "server `up`: `cwd`",
            "`env` entry `PLUGIN_ROOT`",
            "server `shell`: `command`",
            "server `other`: `type`",
            "skills/empty: no SKILL.md",
        ] {
            assert!(
                problems.contains(expected),
                "{expected} not in:\n{problems}"
            );
        }
    }
}
