//! The entry agx writes, and how each client shape spells it (and reads it back).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::Shape;

/// What an agx entry launches: `<agx> serve <qualified-server>` with some environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
}

impl ServerEntry {
    /// The qualified server this entry serves, when it is an agx entry: `agx serve SERVER`,
    /// optionally followed by `-- ARG…` for a wrapped server's command.
    pub fn agx_server(&self) -> Option<&str> {
        let program = std::path::Path::new(&self.command).file_stem()?.to_str()?;
        match self.args.as_slice() {
            [verb, server, rest @ ..]
                if verb == "serve"
                    && program == "agx"
                    && rest.first().is_none_or(|a| a == "--") =>
            {
                Some(server)
            }
            _ => None,
        }
    }
}

fn env_value(env: &BTreeMap<String, String>) -> Value {
    Value::Object(
        env.iter()
            .map(|(k, v)| (k.clone(), Value::from(v.clone())))
            .collect(),
    )
}

/// The entry as the client's JSON-like value (TOML and YAML editors convert it).
pub fn render(shape: Shape, key: &str, entry: &ServerEntry) -> Value {
    let mut m = Map::new();
    let has_env = !entry.env.is_empty();
    match shape {
        Shape::Plain | Shape::TypedStdio | Shape::Copilot | Shape::NamedListItem => {
            if shape == Shape::NamedListItem {
                m.insert("name".into(), key.into());
            }
            if shape == Shape::TypedStdio {
                m.insert("type".into(), "stdio".into());
            }
            if shape == Shape::Copilot {
                m.insert("type".into(), "local".into());
            }
            m.insert("command".into(), entry.command.clone().into());
            m.insert("args".into(), json!(entry.args));
            if has_env {
                m.insert("env".into(), env_value(&entry.env));
            }
            if shape == Shape::Copilot {
                m.insert("tools".into(), json!(["*"]));
            }
        }
        Shape::OpenCode => {
            m.insert("type".into(), "local".into());
            let mut argv = vec![entry.command.clone()];
            argv.extend(entry.args.iter().cloned());
            m.insert("command".into(), json!(argv));
            if has_env {
                m.insert("environment".into(), env_value(&entry.env));
            }
            m.insert("enabled".into(), true.into());
        }
        Shape::Goose => {
            m.insert("name".into(), key.into());
            m.insert("type".into(), "stdio".into());
            m.insert("cmd".into(), entry.command.clone().into());
            m.insert("args".into(), json!(entry.args));
            m.insert("envs".into(), env_value(&entry.env));
            m.insert("env_keys".into(), json!([]));
            m.insert("enabled".into(), true.into());
            m.insert("timeout".into(), 300.into());
            m.insert("bundled".into(), false.into());
        }
    }
    Value::Object(m)
}

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn string_map(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// Read an entry back from a client's value; `None` when it is not a command entry.
pub fn parse(shape: Shape, value: &Value) -> Option<ServerEntry> {
    let obj = value.as_object()?;
    match shape {
        Shape::OpenCode => {
            let argv = strings(obj.get("command"))?;
            let (command, args) = argv.split_first()?;
            Some(ServerEntry {
                command: command.clone(),
                args: args.to_vec(),
                env: string_map(obj.get("environment")),
            })
        }
        Shape::Goose => Some(ServerEntry {
            command: obj.get("cmd")?.as_str()?.to_string(),
            args: strings(obj.get("args")).unwrap_or_default(),
            env: string_map(obj.get("envs")),
        }),
        _ => Some(ServerEntry {
            command: obj.get("command")?.as_str()?.to_string(),
            args: strings(obj.get("args")).unwrap_or_default(),
            env: string_map(obj.get("env")),
        }),
    }
}

/// The value to store when `existing` already holds an agx entry for the same server: our
/// keys replaced, every key the user added (`disabled`, `autoApprove`, timeouts…) kept.
pub fn merge(existing: &Value, rendered: &Value) -> Value {
    match (existing.as_object(), rendered.as_object()) {
        (Some(old), Some(new)) => {
            let mut out = old.clone();
            for (k, v) in new {
                out.insert(k.clone(), v.clone());
            }
            // An env agx no longer needs must not linger.
            for env_key in ["env", "environment"] {
                if old.contains_key(env_key) && !new.contains_key(env_key) {
                    out.remove(env_key);
                }
            }
            Value::Object(out)
        }
        _ => rendered.clone(),
    }
}

/// A default entry key from a server name, valid in every client: `^[a-z0-9][a-z0-9-]*$`.
pub fn default_key(server_item: &str) -> String {
    let mut key = String::new();
    for c in server_item.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            key.push(c);
        } else if !key.is_empty() && !key.ends_with('-') {
            key.push('-');
        }
    }
    let key = key.trim_end_matches('-').to_string();
    if key.is_empty() {
        "agx-server".into()
    } else {
        key
    }
}

/// Whether a user-given key is valid in every client.
pub fn is_portable_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The command line a committed entry runs: bare `agx` (every member's PATH finds it), the
/// exact version pinned, nothing machine-specific; a wrapped server's `args` after `--`.
pub fn project_entry(launches: &str, version: &semver::Version, args: &[String]) -> ServerEntry {
    let mut all = vec!["serve".to_string(), format!("{launches}@={version}")];
    if !args.is_empty() {
        all.push("--".into());
        all.extend(args.iter().cloned());
    }
    ServerEntry {
        command: "agx".into(),
        args: all,
        env: std::collections::BTreeMap::new(),
    }
}

/// `sha256:` of an entry's command, arguments and environment.
pub fn entry_hash(entry: &ServerEntry) -> String {
    use sha2::Digest;
    let canonical = serde_json::json!({
        "command": entry.command,
        "args": entry.args,
        "env": entry.env,
    });
    format!(
        "sha256:{}",
        hex::encode(sha2::Sha256::digest(canonical.to_string().as_bytes()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> ServerEntry {
        ServerEntry {
            command: "/opt/agx/bin/agx".into(),
            args: vec!["serve".into(), "acme/weather/forecast".into()],
            env: [("AGX_HOME".to_string(), "/h/agx".to_string())].into(),
        }
    }

    #[test]
    fn every_shape_reads_back_what_it_writes() {
        for shape in [
            Shape::Plain,
            Shape::TypedStdio,
            Shape::Copilot,
            Shape::OpenCode,
            Shape::Goose,
            Shape::NamedListItem,
        ] {
            let v = render(shape, "forecast", &entry());
            assert_eq!(parse(shape, &v).as_ref(), Some(&entry()), "{shape:?}");
            assert_eq!(
                parse(shape, &v).unwrap().agx_server(),
                Some("acme/weather/forecast")
            );
        }
        let with = |args: &[&str]| ServerEntry {
            args: args.iter().map(|a| a.to_string()).collect(),
            ..entry()
        };
        assert_eq!(
            with(&["serve", "npm/x", "--", "/data"]).agx_server(),
            Some("npm/x")
        );
        assert_eq!(with(&["serve", "npm/x", "/data"]).agx_server(), None);
    }

    #[test]
    fn keys_are_portable() {
        assert_eq!(default_key("Get_Forecast.v2"), "get-forecast-v2");
        assert_eq!(default_key("__"), "agx-server");
        assert!(is_portable_key("weather-1"));
        assert!(!is_portable_key("Weather"));
        assert!(!is_portable_key("a_b"));
        assert!(!is_portable_key("-a"));
    }

    #[test]
    fn merge_keeps_user_keys() {
        let old = json!({"command": "/old/agx", "args": [], "disabled": false, "env": {"X": "1"}});
        let mut e = entry();
        e.env.clear();
        let merged = merge(&old, &render(Shape::Plain, "k", &e));
        assert_eq!(merged["disabled"], json!(false));
        assert_eq!(merged["command"], json!("/opt/agx/bin/agx"));
        assert!(merged.get("env").is_none());
    }
}
