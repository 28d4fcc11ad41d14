//! How a server.json entry's chosen package or remote is launched: its arguments,
//! environment, URL and headers written as a server definition, with the user's inputs as
//! `${settings.KEY}` references (see `agx_model::settings::placeholders`). Used by
//! [`super::registry_entry`]; see docs/ecosystem.md, "What each field becomes".

use std::collections::BTreeMap;

use super::EcosystemError;
use crate::index::mcp_registry::server_json::{
    Argument, Input, Package, Transport, argument_label, setting_key,
};

/// Runtime arguments are the interpreter's (`node --flag`, `python -X`) only when the hint
/// names the interpreter agx itself runs; a runner's (`npx -y`, `uvx --from`) do not apply.
/// An image's are `docker run` flags (its hint `docker`, `podman` or none).
pub(super) fn runtime_arguments_apply(package: &Package) -> bool {
    match package.registry_type.as_str() {
        "oci" => matches!(
            package.runtime_hint.as_deref(),
            None | Some("docker" | "podman")
        ),
        _ => matches!(
            package.runtime_hint.as_deref(),
            Some("node" | "python" | "python3")
        ),
    }
}

/// A server.json version as semver: as it is when it parses, else its numeric parts
/// without leading zeros (`2025.09.25` → `2025.9.25`), padded to three.
pub(super) fn entry_version(
    server: &str,
    version: &str,
) -> Result<semver::Version, EcosystemError> {
    if let Ok(v) = semver::Version::parse(version) {
        return Ok(v);
    }
    let bad = || EcosystemError::Version {
        spec: server.to_string(),
        version: version.to_string(),
    };
    let (release, rest) = match version.find(['-', '+']) {
        Some(i) => version.split_at(i),
        None => (version, ""),
    };
    let mut parts: Vec<String> = release
        .split('.')
        .map(|p| p.parse::<u64>().map(|n| n.to_string()))
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    parts.resize(3, "0".into());
    semver::Version::parse(&format!("{}{rest}", parts.join("."))).map_err(|_| bad())
}

/// The provisioned command with the entry's arguments: runtime arguments after the
/// interpreter when they are its own, package arguments after the program.
pub(super) fn package_command(package: &Package, launched: &[String]) -> Vec<String> {
    let mut command = launched.to_vec();
    if runtime_arguments_apply(package) {
        let runtime: Vec<String> = package
            .runtime_arguments
            .iter()
            .flat_map(argument_elements)
            .collect();
        if command.first().is_some_and(|p| p == "node") {
            command.splice(1..1, runtime);
        } else {
            // A console script is a Python file: run it with the venv's interpreter.
            let mut with_python = vec![agx_model::manifest::VENV_PYTHON.to_string()];
            with_python.extend(runtime);
            with_python.extend(command);
            command = with_python;
        }
    }
    command.extend(package.package_arguments.iter().flat_map(argument_elements));
    command
}

/// The command elements of one argument. A value the user supplies is a setting
/// reference; an optional named one is written `--flag=${settings.KEY}`, one element that
/// is left out while the setting is unset.
pub(super) fn argument_elements(argument: &Argument) -> Vec<String> {
    let input = argument.input();
    let value = match &input.value {
        Some(fixed) => Some(with_references(fixed, input)),
        None => argument_label(argument)
            .and_then(setting_key)
            .map(|key| format!("${{settings.{key}}}")),
    };
    let Some(value) = value else {
        return Vec::new();
    };
    match argument {
        Argument::Positional { .. } => vec![value],
        Argument::Named { name, .. } => {
            let optional = input.value.is_none() && !input.is_required && input.default.is_none();
            if optional {
                vec![format!("{name}={value}")]
            } else {
                vec![name.clone(), value]
            }
        }
    }
}

/// `{name}` placeholders of a value declared in its `variables` become setting references.
fn with_references(text: &str, input: &Input) -> String {
    let mut out = text.to_string();
    for name in input.variables.keys() {
        if let Some(key) = setting_key(name) {
            out = out.replace(&format!("{{{name}}}"), &format!("${{settings.{key}}}"));
        }
    }
    out
}

/// Environment variables with a fixed value (their `{variables}` as references); the others
/// are settings passed by their `env` name.
pub(super) fn fixed_env(package: &Package) -> BTreeMap<String, String> {
    package
        .environment_variables
        .iter()
        .filter_map(|var| {
            let value = var.input.value.as_ref()?;
            Some((var.name.clone(), with_references(value, &var.input)))
        })
        .collect()
}

/// A remote's URL and headers, `{variables}` and user-supplied headers as references.
pub(super) fn remote_launch(remote: &Transport) -> (String, BTreeMap<String, String>) {
    let (Transport::StreamableHttp {
        url,
        headers,
        variables,
    }
    | Transport::Sse {
        url,
        headers,
        variables,
    }) = remote
    else {
        return (String::new(), BTreeMap::new());
    };
    let url_input = Input {
        variables: variables.clone(),
        ..Input::default()
    };
    let headers = headers
        .iter()
        .filter_map(|h| {
            let value = match &h.input.value {
                Some(v) => with_references(v, &h.input),
                None => format!("${{settings.{}}}", setting_key(&h.name)?),
            };
            Some((h.name.clone(), value))
        })
        .collect();
    (with_references(url, &url_input), headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::mcp_registry::ServerJson;

    const WEATHER: &str = r#"{"name": "io.github.user/weather", "description": "d", "version": "1.0.0",
      "packages": [
        {"registryType": "npm", "identifier": "@u/weather", "version": "1.0.0", "runtimeHint": "npx",
         "runtimeArguments": [{"type": "positional", "value": "-y"}],
         "transport": {"type": "stdio"},
         "packageArguments": [
           {"type": "named", "name": "--units", "default": "metric"},
           {"type": "named", "name": "--max-results"},
           {"type": "positional", "value": "--root={root}", "variables": {"root": {"isRequired": true}}}
         ],
         "environmentVariables": [{"name": "WEATHER_API_KEY", "isSecret": true},
                                  {"name": "MODE", "value": "fast-{tier}", "variables": {"tier": {"default": "a"}}}]}
      ],
      "remotes": [{"type": "streamable-http", "url": "https://{region}.w.example/mcp",
                   "variables": {"region": {"default": "eu"}},
                   "headers": [{"name": "X-Api-Key", "isSecret": true}, {"name": "Accept-Language", "value": "en"}]}]}"#;

    fn launch(command: &[&str]) -> Vec<String> {
        command.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn arguments_env_and_remotes_become_references() {
        let server = ServerJson::parse(WEATHER.as_bytes(), "test").unwrap();
        let package = &server.packages[0];
        let node = launch(&["node", "node_modules/@u/weather/index.js"]);
        // `-y` is npx's flag: left out.
        assert_eq!(
            package_command(package, &node),
            [
                "node",
                "node_modules/@u/weather/index.js",
                "--units",
                "${settings.units}",
                "--max-results=${settings.max_results}",
                "--root=${settings.root}"
            ]
        );
        assert_eq!(fixed_env(package)["MODE"], "fast-${settings.tier}");
        // Every reference names a setting the package declares.
        let keys: Vec<String> = ServerJson::package_settings(package)
            .into_iter()
            .map(|s| s.key)
            .collect();
        assert_eq!(
            keys,
            ["WEATHER_API_KEY", "tier", "units", "max_results", "root"]
        );
        let (url, headers) = remote_launch(&server.remotes[0]);
        assert_eq!(url, "https://${settings.region}.w.example/mcp");
        assert_eq!(headers["X-Api-Key"], "${settings.X_Api_Key}");
        assert_eq!(headers["Accept-Language"], "en");
    }

    #[test]
    fn interpreter_arguments_go_before_the_program() {
        let mut server = ServerJson::parse(WEATHER.as_bytes(), "test").unwrap();
        let package = &mut server.packages[0];
        package.runtime_hint = Some("node".into());
        package.package_arguments.clear();
        let node = launch(&["node", "index.js"]);
        assert_eq!(package_command(package, &node), ["node", "-y", "index.js"]);
        package.runtime_hint = Some("python".into());
        let script = launch(&["venv/bin/weather"]);
        assert_eq!(
            package_command(package, &script),
            ["venv/bin/python", "-y", "venv/bin/weather"]
        );
    }

    #[test]
    fn versions_become_semver() {
        assert_eq!(
            entry_version("x", "2025.09.25").unwrap().to_string(),
            "2025.9.25"
        );
        assert_eq!(entry_version("x", "1.2").unwrap().to_string(), "1.2.0");
        assert_eq!(
            entry_version("x", "1.0.0-rc.1").unwrap().to_string(),
            "1.0.0-rc.1"
        );
        assert!(entry_version("x", "v1").is_err());
    }
}
