//! The `server.json` document of the MCP Registry: what a server is, which packages (npm,
//! PyPI, OCI, MCPB) run it and which remote endpoints serve it. Field names and the checks
//! below follow the registry's published schema (a copy with its source is in
//! `tests/data/mcp-registry/`); see `docs/ecosystem.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use agx_model::settings::{Setting, SettingType};

/// One server as its publisher describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerJson {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Reverse-DNS namespace, one slash, server name: `io.github.user/weather`.
    pub name: String,
    pub description: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<Repository>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packages: Vec<Package>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remotes: Vec<Transport>,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repository {
    pub url: String,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subfolder: Option<String>,
}

/// One way to obtain and run the server locally.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Package {
    /// `npm`, `pypi`, `oci`, `mcpb`, `nuget`, … (open-ended in the schema).
    pub registry_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_base_url: Option<String>,
    /// A package name, an image reference or a download URL.
    pub identifier: String,
    /// Required by the schema (since its 2025-12-11 version; earlier examples left it out of
    /// images and bundles); optional here so its absence is reported by
    /// [`ServerJson::check`] with the package it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_sha256: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_hint: Option<String>,
    /// Required by the schema; optional here so its absence is reported by [`ServerJson::check`]
    /// with the package it belongs to rather than as a bare parse error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<Transport>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtime_arguments: Vec<Argument>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub package_arguments: Vec<Argument>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment_variables: Vec<KeyValueInput>,
}

/// How a client talks to the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Transport {
    Stdio,
    StreamableHttp {
        url: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<KeyValueInput>,
        /// `{name}` placeholders of `url` (remotes only).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        variables: BTreeMap<String, Input>,
    },
    Sse {
        url: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        headers: Vec<KeyValueInput>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        variables: BTreeMap<String, Input>,
    },
}

impl Transport {
    pub fn kind(&self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp { .. } => "streamable-http",
            Transport::Sse { .. } => "sse",
        }
    }

    /// The endpoint of an HTTP transport.
    pub fn url(&self) -> Option<&str> {
        match self {
            Transport::Stdio => None,
            Transport::StreamableHttp { url, .. } | Transport::Sse { url, .. } => Some(url),
        }
    }
}

/// A value the user may provide (or the publisher fixed), with `{variables}` inside it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub is_required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<InputFormat>,
    /// A fixed value: not configurable, apart from its `{variables}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default)]
    pub is_secret: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variables: BTreeMap<String, Input>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    String,
    Number,
    Boolean,
    Filepath,
}

/// An environment variable or an HTTP header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyValueInput {
    pub name: String,
    #[serde(flatten)]
    pub input: Input,
}

/// A command-line argument of the runtime (`runtimeArguments`) or the package.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Argument {
    /// A value inserted as it is; `valueHint` labels it.
    #[serde(rename_all = "camelCase")]
    Positional {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value_hint: Option<String>,
        #[serde(default)]
        is_repeated: bool,
        #[serde(flatten)]
        input: Input,
    },
    /// `--flag value`; `name` includes the dashes.
    #[serde(rename_all = "camelCase")]
    Named {
        name: String,
        #[serde(default)]
        is_repeated: bool,
        #[serde(flatten)]
        input: Input,
    },
}

impl Argument {
    pub fn input(&self) -> &Input {
        match self {
            Argument::Positional { input, .. } | Argument::Named { input, .. } => input,
        }
    }
}

/// Why a `server.json` document is refused. Each names the document and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServerJsonError {
    #[error("{location}: not a valid server.json: {message}")]
    Parse { location: String, message: String },
    #[error(
        "{location}: server name `{name}` {reason}; a name is a reverse-DNS namespace, one slash and a server name, e.g. io.github.user/weather"
    )]
    Name {
        location: String,
        name: String,
        reason: String,
    },
    #[error("{location}: {field} is `{version}`, {reason}; give one exact version such as 1.0.2")]
    Version {
        location: String,
        field: String,
        version: String,
        reason: &'static str,
    },
    #[error(
        "{location}: packages[{index}] ({identifier}) has no version; the server.json schema requires one: add \"version\": \"1.0.2\" (the package's exact version)"
    )]
    MissingVersion {
        location: String,
        index: usize,
        identifier: String,
    },
    #[error(
        "{location}: packages[{index}] ({identifier}) has no transport; add \"transport\": {{\"type\": \"stdio\"}} or an HTTP transport with its url"
    )]
    MissingTransport {
        location: String,
        index: usize,
        identifier: String,
    },
    #[error("{location}: packages[{index}].fileSha256 `{value}` is not 64 lowercase hex digits")]
    Sha256 {
        location: String,
        index: usize,
        value: String,
    },
    #[error(
        "{location}: packages[{index}].environmentVariables has the name `{}`, which {reason}; an environment variable name is letters, digits and `_`",
        name.escape_debug()
    )]
    EnvName {
        location: String,
        index: usize,
        name: String,
        reason: &'static str,
    },
    #[error("{location}: {field} is empty or longer than {max} characters")]
    Length {
        location: String,
        field: &'static str,
        max: usize,
    },
}

impl ServerJson {
    /// Parse and check a document; `location` (a URL or path) names it in errors.
    pub fn parse(body: &[u8], location: &str) -> Result<ServerJson, ServerJsonError> {
        let server: ServerJson =
            serde_json::from_slice(body).map_err(|e| ServerJsonError::Parse {
                location: location.to_string(),
                message: e.to_string(),
            })?;
        server.check(location)?;
        Ok(server)
    }

    /// The checks the schema makes that serde alone does not.
    pub fn check(&self, location: &str) -> Result<(), ServerJsonError> {
        let location = location.to_string();
        if let Err(reason) = agx_core::name::check_registry_name(&self.name) {
            return Err(ServerJsonError::Name {
                location,
                name: self.name.clone(),
                reason,
            });
        }
        if self.description.is_empty() || self.description.chars().count() > 100 {
            return Err(ServerJsonError::Length {
                location,
                field: "description",
                max: 100,
            });
        }
        if self.version.len() > 255 {
            return Err(ServerJsonError::Length {
                location,
                field: "version",
                max: 255,
            });
        }
        check_version(&self.version).map_err(|reason| ServerJsonError::Version {
            location: location.clone(),
            field: "version".into(),
            version: self.version.clone(),
            reason,
        })?;
        for (index, package) in self.packages.iter().enumerate() {
            let Some(version) = &package.version else {
                return Err(ServerJsonError::MissingVersion {
                    location,
                    index,
                    identifier: package.identifier.clone(),
                });
            };
            check_version(version).map_err(|reason| ServerJsonError::Version {
                location: location.clone(),
                field: format!("packages[{index}].version"),
                version: version.clone(),
                reason,
            })?;
            if package.transport.is_none() {
                return Err(ServerJsonError::MissingTransport {
                    location,
                    index,
                    identifier: package.identifier.clone(),
                });
            }
            // A name the environment cannot hold would be cut or split at launch.
            for var in &package.environment_variables {
                let reason = if var.name.is_empty() {
                    Some("is empty")
                } else if var.name.contains('=') {
                    Some("has `=`")
                } else if var.name.contains('\0') {
                    Some("has a NUL character")
                } else {
                    None
                };
                if let Some(reason) = reason {
                    return Err(ServerJsonError::EnvName {
                        location,
                        index,
                        name: var.name.clone(),
                        reason,
                    });
                }
            }
            if let Some(sha) = &package.file_sha256
                && !(sha.len() == 64
                    && sha
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
            {
                return Err(ServerJsonError::Sha256 {
                    location,
                    index,
                    value: sha.clone(),
                });
            }
        }
        Ok(())
    }

    /// The settings a package's inputs become: each environment variable (keyed and passed
    /// by its name as written), the `{variables}` of its environment values, arguments and
    /// HTTP headers, and each argument the user must supply.
    pub fn package_settings(package: &Package) -> Vec<Setting> {
        let mut settings = Settings::default();
        for var in &package.environment_variables {
            // A fixed value is the publisher's, not the user's: only its variables are.
            if var.input.value.is_none() {
                settings.add(&var.name, &var.input, Some(&var.name));
            }
            settings.add_variables(&var.input);
        }
        for argument in package
            .runtime_arguments
            .iter()
            .chain(&package.package_arguments)
        {
            let input = argument.input();
            if input.value.is_none()
                && let Some(label) = argument_label(argument)
            {
                settings.add(label, input, None);
            }
            settings.add_variables(input);
        }
        if let Some(transport) = &package.transport {
            settings.add_transport(transport);
        }
        settings.0
    }

    /// The settings a remote's headers and URL `{variables}` become.
    pub fn remote_settings(remote: &Transport) -> Vec<Setting> {
        let mut settings = Settings::default();
        settings.add_transport(remote);
        settings.0
    }
}

/// Settings in declaration order, the first declaration of a key winning.
#[derive(Default)]
struct Settings(Vec<Setting>);

impl Settings {
    fn add(&mut self, raw: &str, input: &Input, env: Option<&str>) {
        let Some(key) = setting_key(raw) else {
            return;
        };
        // Keys that differ only in case would share an override variable.
        if self.0.iter().any(|s| s.key.eq_ignore_ascii_case(&key)) {
            return;
        }
        let mut setting = Setting::new(key);
        setting.description = input.description.clone();
        setting.kind = match input.format {
            None | Some(InputFormat::String) => SettingType::String,
            Some(InputFormat::Number) => SettingType::Number,
            Some(InputFormat::Boolean) => SettingType::Boolean,
            Some(InputFormat::Filepath) => SettingType::Path,
        };
        setting.secret = input.is_secret;
        setting.required = input.is_required;
        // agx keeps no default for a secret (it would sit in a plain file).
        setting.default = input.default.clone().filter(|_| !input.is_secret);
        setting.choices = input.choices.clone();
        setting.env = env.map(str::to_string);
        self.0.push(setting);
    }

    fn add_variables(&mut self, input: &Input) {
        for (name, variable) in &input.variables {
            self.add(name, variable, None);
        }
    }

    /// A header with a fixed value contributes only its `{variables}`; one without a value
    /// is itself a setting, keyed by the header name.
    fn add_transport(&mut self, transport: &Transport) {
        let (Transport::StreamableHttp {
            headers, variables, ..
        }
        | Transport::Sse {
            headers, variables, ..
        }) = transport
        else {
            return;
        };
        for (name, variable) in variables {
            self.add(name, variable, None);
        }
        for header in headers {
            if header.input.value.is_none() {
                self.add(&header.name, &header.input, None);
            }
            self.add_variables(&header.input);
        }
    }
}

/// The setting key an input's name becomes: the name as written when it is a valid key
/// (`WEATHER_API_KEY`, `units`), else made into one (`--max-results` → `max_results`).
pub fn setting_key(raw: &str) -> Option<String> {
    let bare = raw.trim_start_matches('-');
    if agx_model::settings::is_valid_key(bare) {
        Some(bare.to_string())
    } else {
        agx_model::settings::key_from(bare)
    }
}

/// The label of an argument the user supplies: its `valueHint` or its flag name.
pub fn argument_label(argument: &Argument) -> Option<&str> {
    match argument {
        Argument::Positional { value_hint, .. } => value_hint.as_deref(),
        Argument::Named { name, .. } => Some(name.as_str()),
    }
}

/// One exact version: not `latest`, not a range (`^1.2`, `~1.2`, `>=1`, `1.x`, `1.*`).
fn check_version(version: &str) -> Result<(), &'static str> {
    if version.is_empty() {
        return Err("empty");
    }
    if version.eq_ignore_ascii_case("latest") {
        return Err("not a version but a moving tag");
    }
    let range_start = version.starts_with(['^', '~', '>', '<', '=', '*']);
    let wildcard = version
        .split(['.', '-', '+'])
        .any(|part| matches!(part, "x" | "X" | "*"));
    if range_start || wildcard || version.contains("||") || version.contains(' ') {
        return Err("a version range");
    }
    Ok(())
}

pub use agx_core::name::is_server_name;

#[cfg(test)]
mod tests {
    use super::*;

    const WEATHER: &str = r#"{
      "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
      "name": "io.github.user/weather",
      "description": "Weather forecasts",
      "version": "1.2.0",
      "repository": {"url": "https://github.com/user/weather", "source": "github"},
      "packages": [{
        "registryType": "npm",
        "identifier": "@user/weather",
        "version": "1.2.0",
        "runtimeHint": "npx",
        "transport": {"type": "stdio"},
        "packageArguments": [
          {"type": "named", "name": "--units", "choices": ["metric", "imperial"], "default": "metric"},
          {"type": "positional", "value": "--root={root}", "variables": {"root": {"format": "filepath", "isRequired": true}}}
        ],
        "environmentVariables": [
          {"name": "WEATHER_API_KEY", "description": "API key", "isSecret": true, "isRequired": true},
          {"name": "RETRIES", "format": "number", "default": "3"}
        ]
      }],
      "remotes": [{
        "type": "streamable-http",
        "url": "https://weather.example.com/mcp",
        "headers": [{"name": "Authorization", "value": "Bearer {token}", "variables": {"token": {"isSecret": true, "isRequired": true}}}]
      }]
    }"#;

    #[test]
    fn parses_every_part() {
        let server = ServerJson::parse(WEATHER.as_bytes(), "weather.json").unwrap();
        assert_eq!(server.name, "io.github.user/weather");
        let package = &server.packages[0];
        assert_eq!(package.transport, Some(Transport::Stdio));
        assert!(matches!(
            &package.package_arguments[0],
            Argument::Named { name, input, .. } if name == "--units" && input.choices.len() == 2
        ));
        assert_eq!(server.remotes[0].kind(), "streamable-http");
        // A round trip keeps the document.
        let again: ServerJson =
            serde_json::from_str(&serde_json::to_string(&server).unwrap()).unwrap();
        assert_eq!(again, server);
    }

    #[test]
    fn inputs_become_settings_keyed_as_written() {
        let server = ServerJson::parse(WEATHER.as_bytes(), "weather.json").unwrap();
        let settings = ServerJson::package_settings(&server.packages[0]);
        let keys: Vec<&str> = settings.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["WEATHER_API_KEY", "RETRIES", "units", "root"]);
        let key = &settings[0];
        assert!(key.secret && key.required);
        assert_eq!(key.env.as_deref(), Some("WEATHER_API_KEY"));
        assert_eq!(settings[1].kind, SettingType::Number);
        assert_eq!(settings[1].default.as_deref(), Some("3"));
        assert_eq!(settings[2].choices, ["metric", "imperial"]);
        assert_eq!(settings[2].env, None);
        assert_eq!(settings[3].kind, SettingType::Path);
        let remote = ServerJson::remote_settings(&server.remotes[0]);
        assert_eq!(remote.len(), 1);
        assert_eq!(remote[0].key, "token");
        assert!(remote[0].secret);
    }

    fn with(field: &str, value: serde_json::Value) -> Result<ServerJson, ServerJsonError> {
        let mut doc: serde_json::Value = serde_json::from_str(WEATHER).unwrap();
        let mut target = &mut doc;
        let parts: Vec<&str> = field.split('.').collect();
        for part in &parts[..parts.len() - 1] {
            target = match part.parse::<usize>() {
                Ok(i) => &mut target[i],
                Err(_) => &mut target[*part],
            };
        }
        let last = parts[parts.len() - 1];
        if value.is_null() {
            target.as_object_mut().unwrap().remove(last);
        } else {
            target[last] = value;
        }
        ServerJson::parse(doc.to_string().as_bytes(), "bad.json")
    }

    #[test]
    fn refuses_what_the_schema_refuses() {
        let err = with("name", "weather".into()).unwrap_err();
        assert!(err.to_string().contains("has no `/`"), "{err}");
        let err = with("name", "io.github.user/wea ther".into()).unwrap_err();
        assert!(err.to_string().contains("has ` ` after its `/`"), "{err}");
        let err = with("packages.0.version", "latest".into()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad.json: packages[0].version is `latest`, not a version but a moving tag; give one exact version such as 1.0.2"
        );
        for range in ["^1.2.3", "~1.2", ">=1.0.0", "1.x", "1.*"] {
            let err = with("version", range.into()).unwrap_err();
            assert!(
                err.to_string().contains("a version range"),
                "{range}: {err}"
            );
        }
        // The schema requires a package's version (an example of its docs left it out).
        let err = with("packages.0.version", serde_json::Value::Null).unwrap_err();
        assert!(
            matches!(&err, ServerJsonError::MissingVersion { index: 0, identifier, .. } if identifier == "@user/weather"),
            "{err}"
        );
        let err = with("packages.0.transport", serde_json::Value::Null).unwrap_err();
        assert!(
            matches!(&err, ServerJsonError::MissingTransport { index: 0, identifier, .. } if identifier == "@user/weather"),
            "{err}"
        );
        let err = with("packages.0.fileSha256", "ABC".into()).unwrap_err();
        assert!(matches!(err, ServerJsonError::Sha256 { .. }), "{err}");
        let err = with("description", "".into()).unwrap_err();
        assert!(matches!(err, ServerJsonError::Length { .. }), "{err}");
        let err = ServerJson::parse(b"<html>", "x").unwrap_err();
        assert!(matches!(err, ServerJsonError::Parse { .. }), "{err}");
        assert!(with("version", "2.1.0-alpha".into()).is_ok());
    }

    #[test]
    fn images_and_bundles_need_their_version_too() {
        // As older examples of the registry's docs wrote them (the tag in the identifier,
        // the bundle's URL): the schema requires `version`, and the registry refuses them.
        let doc = r#"{"name": "io.github.user/weather", "description": "d", "version": "1.0.0",
          "packages": [
            {"registryType": "mcpb", "identifier": "https://example.com/weather.mcpb",
             "fileSha256": "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
             "transport": {"type": "stdio"}}
          ]}"#;
        let err = ServerJson::parse(doc.as_bytes(), "x").unwrap_err();
        assert!(
            err.to_string()
                .contains("packages[0] (https://example.com/weather.mcpb) has no version"),
            "{err}"
        );
    }

    #[test]
    fn environment_variable_names_the_environment_cannot_hold_are_refused() {
        for (name, reason) in [("", "is empty"), ("A=B", "has `=`"), ("A\0B", "has a NUL")] {
            let err = with(
                "packages.0.environmentVariables",
                serde_json::json!([{"name": name}]),
            )
            .unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("bad.json: packages[0].environmentVariables has the name"),
                "{err}"
            );
            assert!(err.to_string().contains(reason), "{err}");
        }
    }

    #[test]
    fn server_names_are_told_from_agx_names() {
        assert!(is_server_name("io.github.user/weather"));
        assert!(!is_server_name("acme/weather"));
        assert!(!is_server_name("io.github.user"));
        assert!(!is_server_name("./missing"));
        assert!(!is_server_name("../pkg"));
    }
}
