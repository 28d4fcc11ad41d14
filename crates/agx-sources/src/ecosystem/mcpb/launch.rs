//! How a bundle's server starts. Its `mcp_config` (with this platform's override) becomes a
//! small POSIX shell script, [`LAUNCHER`], in the package folder, which the wrapped server
//! runs. The script exists because `${user_config.KEY}` may sit inside arguments and must
//! take the value the setting has when `agx serve` starts, not at install: agx passes each
//! setting as `MCPB_USER_CONFIG_<KEY>` and the script expands it, quoted, into the
//! arguments and environment the manifest gives. `${__dirname}` is the unpacked bundle.

use std::path::Path;

use super::manifest::{Manifest, ServerType, UserConfig};
use super::{BundleFile, EcosystemError, EcosystemSpec};
use agx_model::mcpb_manifest::LAUNCHER;
use agx_model::settings::declaration::is_valid_key;

/// Prefix of the variables that carry `user_config` values to the script.
const VALUE_PREFIX: &str = "MCPB_USER_CONFIG_";

/// What [`prepare`] decided: the wrapped server's command, the settings, and a description
/// listing the tools and prompts the manifest names.
pub(super) struct Prepared {
    pub command: Vec<String>,
    pub settings: toml::Table,
    pub server_description: String,
    /// For the user: defaults agx read as their declared type (see [`setting`]).
    pub warnings: Vec<String>,
}

pub(super) fn prepare(
    spec: &EcosystemSpec,
    bundle: &BundleFile,
    manifest: &Manifest,
    unpacked: &Path,
    dir: &Path,
) -> Result<Prepared, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: bundle.origin.clone(),
        detail,
        hint: hint.into(),
    };
    if let Some(platforms) = manifest
        .compatibility
        .as_ref()
        .and_then(|c| c.platforms.as_ref())
        && !platforms
            .iter()
            .any(|p| p == super::manifest::current_platform())
    {
        return Err(bad(
            format!(
                "the bundle supports {} only, not {}",
                platforms.join(", "),
                super::manifest::current_platform()
            ),
            "use a build of the bundle made for this platform",
        ));
    }
    let kind = ServerType::parse(&manifest.server.kind).expect("checked when read");
    let mut config = match manifest.launch_config() {
        Some(config) => config,
        // A uv bundle may leave launching to the host: `uv run` its entry point.
        None if kind == ServerType::Uv => super::manifest::McpConfig {
            command: "uv".into(),
            args: vec![
                "run".into(),
                "--directory".into(),
                "${__dirname}".into(),
                manifest.server.entry_point.clone(),
            ],
            env: Default::default(),
            platform_overrides: Default::default(),
        },
        None => {
            return Err(bad(
                "manifest.json has no server.mcp_config".into(),
                "add server.mcp_config (command, args) to manifest.json",
            ));
        }
    };
    // `join` of an absolute path (or one climbing out with `..`) leaves the bundle.
    if let Err(problem) = agx_archive::check_path_syntax(&manifest.server.entry_point) {
        return Err(bad(
            format!("its server.entry_point is not in the bundle: {problem}"),
            "give server.entry_point as a path inside the bundle, relative to manifest.json",
        ));
    }
    if !unpacked.join(&manifest.server.entry_point).is_file() {
        return Err(bad(
            format!(
                "its server.entry_point `{}` is not in the bundle",
                manifest.server.entry_point
            ),
            "pack the bundle with the server's files, or fix server.entry_point",
        ));
    }
    // Runtimes must be on this machine; `python` is often only `python3`.
    if kind == ServerType::Python
        && config.command == "python"
        && agx_core::paths::find_on_path("python").is_none()
    {
        config.command = "python3".into();
    }
    if !config.command.contains('/')
        && !config.command.contains("${")
        && agx_core::paths::find_on_path(&config.command).is_none()
    {
        return Err(EcosystemError::MissingRuntime {
            what: runtime_name(&config.command),
            spec: spec.to_string(),
            install: install_hint(kind),
        });
    }

    let user_config = read_user_config(bundle, manifest)?;
    let expand = |text: &str, multiple_ok: bool| {
        substitute(text, &user_config, multiple_ok).map_err(|detail| {
            bad(
                detail,
                "mcp_config may use ${__dirname}, ${HOME}, ${DESKTOP}, ${DOCUMENTS}, \
                 ${DOWNLOADS}, ${pathSeparator}, ${/} and ${user_config.<key>} of a declared key",
            )
        })
    };
    let mut script = String::from(
        "#!/bin/sh\n\
         # Written by agx from the bundle's manifest.json (server.mcp_config): starts its\n\
         # server with ${__dirname} as the unpacked bundle and each ${user_config.KEY} from\n\
         # the setting KEY, which agx serve passes as MCPB_USER_CONFIG_KEY. The script's own\n\
         # arguments (the entry's packageArguments) follow the command's.\n\
         set -f\n\
         dirname=\"$AGX_PACKAGE_DIR/bundle\"\n\
         cd \"$dirname\" || exit 1\n",
    );
    for (name, value) in &config.env {
        if !agx_model::settings::declaration::is_valid_env_name(name) {
            return Err(bad(
                format!("mcp_config.env has `{name}`, which is not a variable name"),
                "environment variable names are letters, digits and `_`",
            ));
        }
        script.push_str(&format!(
            "export {name}={}\n",
            expand(value, false)?.join("")
        ));
    }
    // The command is appended after the script's own arguments, which are then rotated
    // to the end: POSIX sh has no array to keep them in meanwhile.
    script.push_str("own=$#\n");
    for word in std::iter::once(&config.command).chain(&config.args) {
        for line in expand(word, true)? {
            script.push_str(&line);
            script.push('\n');
        }
    }
    script.push_str(
        "while [ \"$own\" -gt 0 ]; do set -- \"$@\" \"$1\"; shift; own=$((own - 1)); done\n\
         exec \"$@\"\n",
    );
    fs_err::write(dir.join(LAUNCHER), script)?;

    let mut settings = toml::Table::new();
    let mut warnings = Vec::new();
    for (key, entry) in &user_config {
        let (table, warning) = setting(key, entry).map_err(|detail| {
            bad(
                detail,
                "write the default as the type declares it (`\"default\": 10`, `\"default\": true`) \
                 in manifest.json and pack the bundle again",
            )
        })?;
        settings.insert(key.clone(), toml::Value::Table(table));
        warnings.extend(warning.map(|w| format!("{}: {w}", bundle.origin)));
    }
    let list = |what: &str, names: Vec<&str>| {
        (!names.is_empty()).then(|| format!("{what}: {}", names.join(", ")))
    };
    let listed: Vec<String> = [
        list(
            "tools",
            manifest.tools.iter().map(|t| t.name.as_str()).collect(),
        ),
        list(
            "prompts",
            manifest.prompts.iter().map(|p| p.name.as_str()).collect(),
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    let title = manifest
        .display_name
        .as_deref()
        .unwrap_or(&manifest.description);
    let server_description = if listed.is_empty() {
        title.to_string()
    } else {
        format!("{title} ({})", listed.join("; "))
    };
    Ok(Prepared {
        command: vec!["sh".into(), LAUNCHER.into()],
        settings,
        server_description,
        warnings,
    })
}

/// The `user_config` entries, checked: each key must be a setting key, each type known.
fn read_user_config(
    bundle: &BundleFile,
    manifest: &Manifest,
) -> Result<Vec<(String, UserConfig)>, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: bundle.origin.clone(),
        detail,
        hint: hint.into(),
    };
    let mut entries = Vec::new();
    for (key, value) in &manifest.user_config {
        if !is_valid_key(key) {
            return Err(bad(
                format!("user_config key `{key}` cannot be an agx setting key"),
                "agx setting keys are lowercase letters, digits and single `_`, starting with a letter",
            ));
        }
        let entry: UserConfig = serde_json::from_value(value.clone()).map_err(|e| {
            bad(
                format!("manifest.json: user_config.{key}: {e}"),
                "fix the entry in manifest.json and pack the bundle again",
            )
        })?;
        if !["string", "number", "boolean", "directory", "file"].contains(&entry.kind.as_str()) {
            return Err(bad(
                format!("user_config.{key} has type `{}`", entry.kind),
                "user_config types are string, number, boolean, directory and file",
            ));
        }
        entries.push((key.clone(), entry));
    }
    Ok(entries)
}

/// The agx setting a `user_config` entry becomes (docs/ecosystem.md, "MCPB bundles"), and a
/// warning when its default is a string agx read as the declared number or boolean (as the
/// `mcpb` CLI packs `"default": "10"`). A default that is not of its type is an error.
fn setting(key: &str, entry: &UserConfig) -> Result<(toml::Table, Option<String>), String> {
    let mut table = toml::Table::new();
    let mut warning = None;
    let mut description = entry
        .description
        .clone()
        .or_else(|| entry.title.clone())
        .unwrap_or_default();
    let range = match (entry.min, entry.max) {
        (Some(min), Some(max)) => Some(format!("{min} to {max}")),
        (Some(min), None) => Some(format!("at least {min}")),
        (None, Some(max)) => Some(format!("at most {max}")),
        (None, None) => None,
    };
    if let Some(range) = range {
        description = format!("{description} ({range})").trim().to_string();
    }
    if entry.multiple {
        description = format!("{description} (several values separated by `:`)")
            .trim()
            .to_string();
    }
    if !description.is_empty() {
        table.insert("description".into(), description.into());
    }
    let kind = match entry.kind.as_str() {
        "number" => "number",
        "boolean" => "boolean",
        "directory" | "file" if !entry.multiple => "path",
        _ => "string",
    };
    table.insert("type".into(), kind.into());
    if entry.sensitive {
        table.insert("secret".into(), true.into());
    }
    if entry.required {
        table.insert("required".into(), true.into());
    }
    // A secret has no default (its value lives in the keyring only).
    if let Some(default) = entry.default.as_ref().filter(|_| !entry.sensitive) {
        let text = match default {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Array(items) => Some(
                items
                    .iter()
                    .filter_map(|v| {
                        v.as_str()
                            .map(str::to_string)
                            .or_else(|| Some(v.to_string()))
                    })
                    .collect::<Vec<_>>()
                    .join(":"),
            ),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        };
        if let Some(text) = text {
            let text = expand_home_variables(&text);
            let (value, coerced) = typed_default(kind, &text).ok_or_else(|| {
                format!("user_config.{key} is a {kind} but its default is `{text}`")
            })?;
            table.insert("default".into(), value);
            if coerced && default.is_string() {
                warning = Some(format!(
                    "user_config.{key}: the default \"{text}\" is a string; agx reads it as the {kind} {text}"
                ));
            }
        }
    }
    table.insert("env".into(), format!("{VALUE_PREFIX}{key}").into());
    Ok((table, warning))
}

/// A default's text as the TOML value of a setting of `kind`; the flag says whether it
/// had to be read as a number or boolean. `None` when it is not one.
fn typed_default(kind: &str, text: &str) -> Option<(toml::Value, bool)> {
    match kind {
        "number" => {
            let trimmed = text.trim();
            let value = match trimmed.parse::<i64>() {
                Ok(i) => toml::Value::Integer(i),
                Err(_) => {
                    toml::Value::Float(trimmed.parse::<f64>().ok().filter(|x| x.is_finite())?)
                }
            };
            Some((value, true))
        }
        "boolean" => match text.trim() {
            "true" => Some((true.into(), true)),
            "false" => Some((false.into(), true)),
            _ => None,
        },
        _ => Some((text.into(), false)),
    }
}

/// `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}` in a default value, resolved at
/// install (a setting's default is plain text).
fn expand_home_variables(text: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    text.replace("${HOME}", &home)
        .replace("${DESKTOP}", &format!("{home}/Desktop"))
        .replace("${DOCUMENTS}", &format!("{home}/Documents"))
        .replace("${DOWNLOADS}", &format!("{home}/Downloads"))
}

/// One `mcp_config` string as shell text. For an argument (`multiple_ok`), the result is the
/// script lines that append it to `"$@"`: one `set --` line, or a loop that adds each value
/// of a `multiple` entry when the argument is exactly `${user_config.KEY}`. For an env
/// value, the one double-quoted word.
fn substitute(
    text: &str,
    user_config: &[(String, UserConfig)],
    multiple_ok: bool,
) -> Result<Vec<String>, String> {
    let lookup = |key: &str| user_config.iter().find(|(k, _)| k == key).map(|(_, e)| e);
    if multiple_ok
        && let Some(key) = text
            .strip_prefix("${user_config.")
            .and_then(|rest| rest.strip_suffix('}'))
        && lookup(key).is_some_and(|e| e.multiple)
    {
        return Ok(vec![format!(
            "IFS=:; for value in ${{{VALUE_PREFIX}{key}-}}; do set -- \"$@\" \"$value\"; done; unset IFS"
        )]);
    }
    let mut word = String::from("\"");
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        push_literal(&mut word, &rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("`{text}` has `${{` without its closing `}}`"))?;
        let name = &after[..end];
        let expansion = match name {
            "__dirname" => "${dirname}".to_string(),
            "HOME" => "${HOME}".to_string(),
            "DESKTOP" => "${HOME}/Desktop".to_string(),
            "DOCUMENTS" => "${HOME}/Documents".to_string(),
            "DOWNLOADS" => "${HOME}/Downloads".to_string(),
            "pathSeparator" | "/" => "/".to_string(),
            _ => match name.strip_prefix("user_config.") {
                Some(key) if lookup(key).is_some() => format!("${{{VALUE_PREFIX}{key}-}}"),
                Some(key) => {
                    return Err(format!(
                        "`{text}` refers to user_config `{key}`, which the manifest does not declare"
                    ));
                }
                None => return Err(format!("`{text}` uses an unknown variable `${{{name}}}`")),
            },
        };
        word.push_str(&expansion);
        rest = &after[end + 1..];
    }
    push_literal(&mut word, rest);
    word.push('"');
    Ok(vec![if multiple_ok {
        format!("set -- \"$@\" {word}")
    } else {
        word
    }])
}

/// Text inside a double-quoted shell word, with the characters the shell would interpret
/// there escaped.
fn push_literal(word: &mut String, text: &str) {
    for c in text.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            word.push('\\');
        }
        word.push(c);
    }
}

fn runtime_name(command: &str) -> &'static str {
    match command {
        "node" => "node",
        "npx" => "npx",
        "python" => "python",
        "python3" => "python3",
        "uv" => "uv",
        "uvx" => "uvx",
        _ => "the bundle's command",
    }
}

fn install_hint(kind: ServerType) -> &'static str {
    match kind {
        ServerType::Node => {
            "install Node.js (e.g. from https://nodejs.org or your package manager) and make sure `node` is on PATH"
        }
        ServerType::Python => {
            "install Python 3 (e.g. `apt install python3`, or https://www.python.org) and make sure `python3` is on PATH"
        }
        ServerType::Uv => {
            "install uv (https://docs.astral.sh/uv/, e.g. `pipx install uv`) and make sure `uv` is on PATH"
        }
        ServerType::Binary => "install the program the bundle's mcp_config.command names",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(kind: &str, multiple: bool) -> UserConfig {
        serde_json::from_value(serde_json::json!({"type": kind, "multiple": multiple})).unwrap()
    }

    #[test]
    fn substitutions_become_quoted_shell_words() {
        let uc = vec![
            ("api_key".to_string(), config("string", false)),
            ("dirs".to_string(), config("directory", true)),
        ];
        assert_eq!(
            substitute("${__dirname}/server/index.js", &uc, true).unwrap(),
            ["set -- \"$@\" \"${dirname}/server/index.js\""]
        );
        assert_eq!(
            substitute("--key=${user_config.api_key}", &uc, false).unwrap(),
            ["\"--key=${MCPB_USER_CONFIG_api_key-}\""]
        );
        assert_eq!(
            substitute("a \"$x\" `y` \\", &uc, false).unwrap(),
            ["\"a \\\"\\$x\\\" \\`y\\` \\\\\""]
        );
        assert!(substitute("${user_config.dirs}", &uc, true).unwrap()[0].starts_with("IFS=:;"));
        assert_eq!(
            substitute("${DOCUMENTS}${/}x", &uc, false).unwrap(),
            ["\"${HOME}/Documents/x\""]
        );
        assert!(substitute("${user_config.nope}", &uc, false).is_err());
        assert!(substitute("${WHAT}", &uc, false).is_err());
        assert!(substitute("${__dirname", &uc, false).is_err());
    }

    /// Prepare a bundle whose manifest is `manifest` and whose unpacked files are `files`,
    /// in a new package folder.
    fn prepared(
        manifest: serde_json::Value,
        files: &[&str],
    ) -> (tempfile::TempDir, Result<Prepared, EcosystemError>) {
        let dir = tempfile::tempdir().unwrap();
        let unpacked = dir.path().join(super::super::BUNDLE_DIR);
        for file in files {
            let path = unpacked.join(file);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, "").unwrap();
        }
        let bundle = BundleFile {
            path: dir.path().join("x.mcpb"),
            sha256: String::new(),
            origin: "x.mcpb".into(),
        };
        let spec = EcosystemSpec {
            ecosystem: super::super::Ecosystem::Mcpb(bundle.clone()),
            name: agx_core::name::PackageName::parse("mcpb/x").unwrap(),
            version: Some("1.0.0".into()),
        };
        let manifest: Manifest = serde_json::from_value(manifest).unwrap();
        let result = prepare(&spec, &bundle, &manifest, &unpacked, dir.path());
        (dir, result)
    }

    fn binary_manifest(entry_point: &str, command: &str, args: &[&str]) -> serde_json::Value {
        serde_json::json!({
            "manifest_version": "0.3", "name": "x", "version": "1.0.0", "description": "d",
            "server": {"type": "binary", "entry_point": entry_point,
                       "mcp_config": {"command": command, "args": args}}
        })
    }

    #[cfg(unix)]
    #[test]
    fn the_launcher_passes_its_own_arguments_on_after_the_command() {
        let manifest = binary_manifest("server/x", "printf", &["%s\\n", "${__dirname}", "fixed"]);
        let (dir, result) = prepared(manifest, &["server/x"]);
        let prepared = result.unwrap();
        assert_eq!(prepared.command, ["sh", LAUNCHER]);
        let out = std::process::Command::new("sh")
            .arg(LAUNCHER)
            .args(["--flag", "two words", "*"])
            .current_dir(dir.path())
            .env("AGX_PACKAGE_DIR", dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let bundle = dir.path().join("bundle");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{}\nfixed\n--flag\ntwo words\n*\n", bundle.display())
        );
    }

    #[test]
    fn an_entry_point_outside_the_bundle_is_refused() {
        for outside in ["/bin/sh", "../x/server/x", "server/../../x"] {
            let (_dir, result) = prepared(binary_manifest(outside, "sh", &[]), &["server/x"]);
            let Err(err) = result else {
                panic!("{outside} was accepted")
            };
            assert!(
                err.to_string()
                    .contains("its server.entry_point is not in the bundle"),
                "{err}"
            );
        }
    }

    #[test]
    fn user_config_maps_onto_settings() {
        let entry: UserConfig = serde_json::from_value(serde_json::json!({
            "type": "number", "title": "Max", "default": 10, "min": 1, "max": 100, "required": true
        }))
        .unwrap();
        let (table, warning) = setting("max_size", &entry).unwrap();
        assert_eq!(warning, None);
        assert_eq!(table["type"].as_str(), Some("number"));
        assert_eq!(table["default"].as_integer(), Some(10));
        assert_eq!(table["required"].as_bool(), Some(true));
        assert_eq!(table["description"].as_str(), Some("Max (1 to 100)"));
        assert_eq!(table["env"].as_str(), Some("MCPB_USER_CONFIG_max_size"));
        let secret: UserConfig = serde_json::from_value(serde_json::json!({
            "type": "string", "sensitive": true, "default": "x"
        }))
        .unwrap();
        let (table, _) = setting("api_key", &secret).unwrap();
        assert_eq!(table["secret"].as_bool(), Some(true));
        assert!(!table.contains_key("default"));
    }

    #[test]
    fn string_defaults_of_numbers_and_booleans_are_read_as_their_type_with_a_warning() {
        let entry = |kind: &str, default: serde_json::Value| -> UserConfig {
            serde_json::from_value(serde_json::json!({"type": kind, "default": default})).unwrap()
        };
        let (table, warning) = setting("limit", &entry("number", "10".into())).unwrap();
        assert_eq!(table["default"].as_integer(), Some(10));
        assert_eq!(
            warning.as_deref(),
            Some(
                "user_config.limit: the default \"10\" is a string; agx reads it as the number 10"
            )
        );
        let (table, _) = setting("ratio", &entry("number", "0.5".into())).unwrap();
        assert_eq!(table["default"].as_float(), Some(0.5));
        let (table, warning) = setting("debug", &entry("boolean", "true".into())).unwrap();
        assert_eq!(table["default"].as_bool(), Some(true));
        assert!(warning.is_some());
        let (table, warning) = setting("debug", &entry("boolean", false.into())).unwrap();
        assert_eq!(table["default"].as_bool(), Some(false));
        assert_eq!(warning, None);
        let (table, warning) = setting("name", &entry("string", "10".into())).unwrap();
        assert_eq!(table["default"].as_str(), Some("10"));
        assert_eq!(warning, None);
        assert_eq!(
            setting("limit", &entry("number", "ten".into())).unwrap_err(),
            "user_config.limit is a number but its default is `ten`"
        );
        assert!(setting("debug", &entry("boolean", "yes".into())).is_err());
    }
}
