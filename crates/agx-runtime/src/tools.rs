//! A tool ready to serve: its `tools/list` entry, argument validation, and the command run.

use std::borrow::Cow;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use serde_json::Value;
use tokio::sync::mpsc::Sender;
use tokio_util::sync::CancellationToken;

use super::assemble::{ExposedTool, tool_env};
use super::channel::{self, Client};
use super::output::{text_result, tool_result};
use super::process::{self, OUTPUT_CAP, RunSpec};
use super::stderr_protocol::StderrLine;
use agx_model::manifest::{InputMode, resolve_program};

pub struct ServedTool {
    pub exposed: ExposedTool,
    pub schema: Value,
    /// Compiled on first call, so a server with many tools starts fast.
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl ServedTool {
    pub fn new(exposed: ExposedTool) -> ServedTool {
        let schema = exposed.def.input_schema();
        ServedTool {
            exposed,
            schema,
            validator: OnceLock::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.exposed.exposed
    }

    /// The `tools/list` entry, built directly (not through a JSON round trip): a server
    /// builds one per tool before it answers `initialize`.
    pub fn list_entry(&self) -> Tool {
        let def = &self.exposed.def;
        // An input_schema that is not an object cannot be listed as-is; list an open object
        // so the listing stays valid (the definition check reports such schemas).
        let schema = match &self.schema {
            Value::Object(schema) => schema.clone(),
            _ => JsonObject::from_iter([("type".to_string(), Value::from("object"))]),
        };
        let mut tool = Tool::new_with_raw(
            self.exposed.exposed.clone(),
            def.description.clone().map(Cow::Owned),
            Arc::new(schema),
        );
        if let Some(title) = &def.title {
            tool = tool.with_title(title.clone());
        }
        let a = &def.annotations;
        let annotations = ToolAnnotations::from_raw(
            a.title.clone(),
            a.read_only,
            a.destructive,
            a.idempotent,
            a.open_world,
        );
        if annotations != ToolAnnotations::default() {
            tool = tool.with_annotations(annotations);
        }
        tool
    }

    /// Check arguments against the schema. The error names each bad argument.
    pub fn validate(&self, args: &Value) -> Result<(), String> {
        let validator = self
            .validator
            .get_or_init(|| compile(&self.schema).map_err(|e| e.to_string()));
        let validator = match validator {
            Ok(v) => v,
            Err(e) => {
                return Err(format!(
                    "tool `{}` has an invalid input schema ({e}); the package needs fixing",
                    self.name()
                ));
            }
        };
        let problems: Vec<String> = validator
            .iter_errors(args)
            .map(|e| {
                let path = e
                    .instance_path()
                    .as_str()
                    .trim_start_matches('/')
                    .to_string();
                if path.is_empty() {
                    format!("- {e}")
                } else {
                    format!("- argument `{path}`: {e}")
                }
            })
            .collect();
        if problems.is_empty() {
            return Ok(());
        }
        Err(format!(
            "invalid arguments for tool `{}`:\n{}\nexpected arguments (JSON Schema): {}",
            self.name(),
            problems.join("\n"),
            self.schema
        ))
    }

    /// One call, as `agx serve` makes it: check the arguments, run the command with its
    /// channel to `client`, and shape its output into the result. Progress and log lines
    /// (from stderr or the channel) go to `events`; `cancel` resolving ends the call.
    pub async fn call(
        &self,
        args: &Value,
        client: Client,
        events: Option<Sender<StderrLine>>,
        cancel: impl Future<Output = ()>,
    ) -> CallToolResult {
        if let Err(message) = self.validate(args) {
            return text_result(message, true);
        }
        let spec = match self.run_spec(args) {
            Ok(s) => s,
            Err(message) => return text_result(message, true),
        };
        let cannot_start = |e: std::io::Error| {
            text_result(
                format!(
                    "could not start tool `{}` ({}): {e}",
                    self.name(),
                    spec.program.display()
                ),
                true,
            )
        };
        let (tool_end, agx_end) = match channel::open() {
            Ok(ends) => ends,
            Err(e) => return cannot_start(e),
        };
        let done = CancellationToken::new();
        let stderr_events = events.clone();
        let running = async {
            let outcome =
                process::run_with_channel(&spec, stderr_events, cancel, Some(tool_end)).await;
            done.cancel();
            outcome
        };
        let serving = channel::serve(agx_end, client, events, self.name(), done.clone());
        let (outcome, ()) = tokio::join!(running, serving);
        match outcome {
            Ok(outcome) => tool_result(self.name(), self.exposed.def.timeout_secs, &outcome),
            Err(e) => cannot_start(e),
        }
    }

    /// How to run the tool for one call with these (validated) arguments.
    pub fn run_spec(&self, args: &Value) -> Result<RunSpec, String> {
        let t = &self.exposed;
        let Some((program, rest)) = t.def.command.split_first() else {
            return Err(format!("tool `{}` has an empty command", self.name()));
        };
        let json = args.to_string();
        let mut argv = rest.to_vec();
        let stdin = match t.def.input {
            InputMode::Stdin => Some(format!("{json}\n").into_bytes()),
            InputMode::Argv => {
                argv.push(json);
                None
            }
            InputMode::ArgvFlags => {
                argv.extend(flags_of(args));
                None
            }
        };
        Ok(RunSpec {
            program: resolve_program(&t.package_dir, program),
            args: argv,
            cwd: t.package_dir.clone(),
            env: [
                tool_env(&t.package_dir, &t.qualified, &t.def.env),
                t.settings.env_vars(),
            ]
            .concat(),
            stdin,
            timeout: Duration::from_secs(t.def.timeout_secs),
            output_cap: OUTPUT_CAP,
            sandbox: t.sandbox.clone(),
        })
    }
}

/// The arguments as command-line flags (`input = "argv-flags"`, docs/package-format.md):
/// `--name value` per argument in the order the client sent them, `true` as a bare flag,
/// `false` and `null` left out, an array as one flag per element; strings as they are,
/// other values as JSON text. Names are passed as spelled, so a parameter is named as its
/// flag is.
fn flags_of(args: &Value) -> Vec<String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut flags = Vec::new();
    for (name, value) in args.as_object().into_iter().flatten() {
        let flag = format!("--{name}");
        match value {
            Value::Bool(true) => flags.push(flag),
            Value::Bool(false) | Value::Null => {}
            Value::Array(items) => {
                for item in items {
                    flags.extend([flag.clone(), text(item)]);
                }
            }
            other => flags.extend([flag, text(other)]),
        }
    }
    flags
}

/// Keywords that draft 7 and 2020-12 (MCP's default dialect) define alike. `format` is left
/// out: draft 7 asserts it, 2020-12 only annotates.
const DRAFT_NEUTRAL_KEYWORDS: [&str; 25] = [
    "type",
    "properties",
    "required",
    "items",
    "additionalProperties",
    "enum",
    "const",
    "default",
    "description",
    "title",
    "examples",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "propertyNames",
];

/// Compile a tool's input schema. A schema without `$schema` that uses only keywords both
/// drafts define alike gets the same verdicts as draft 7, and is compiled as such: checking
/// it against draft 7's meta-schema takes a quarter of the time and memory of 2020-12's
/// (a set of vocabularies), which a server pays on its first call.
fn compile(schema: &Value) -> Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    if draft_neutral(schema) {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .build(schema)
    } else {
        jsonschema::validator_for(schema)
    }
}

fn draft_neutral(schema: &Value) -> bool {
    let subschemas_neutral = |value: &Value| match value {
        Value::Object(map) => map.values().all(draft_neutral),
        _ => false,
    };
    match schema {
        Value::Bool(_) => true,
        Value::Object(map) => map.iter().all(|(keyword, value)| match keyword.as_str() {
            "properties" => subschemas_neutral(value),
            // The array form of `items` is a tuple in draft 7 and invalid in 2020-12.
            "items" | "additionalProperties" | "propertyNames" => draft_neutral(value),
            other => DRAFT_NEUTRAL_KEYWORDS.contains(&other),
        }),
        _ => false,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use agx_core::name::{ItemName, QualifiedName};
    use agx_model::manifest::{ParamType, Parameter, SourceLocation, ToolAnnotations, ToolDef};
    use serde_json::json;

    pub(crate) fn tool(name: &str, command: &[&str], input: InputMode) -> ExposedTool {
        ExposedTool {
            exposed: name.into(),
            qualified: QualifiedName::parse(&format!("acme/demo/{name}")).unwrap(),
            def: ToolDef {
                name: ItemName::parse(name).unwrap(),
                title: Some("Demo".into()),
                description: Some("A demo tool".into()),
                command: command.iter().map(|s| s.to_string()).collect(),
                input,
                timeout_secs: 5,
                env: [("UNITS".to_string(), "metric".to_string())].into(),
                initialization: None,
                annotations: ToolAnnotations {
                    read_only: Some(true),
                    ..Default::default()
                },
                parameters: vec![Parameter {
                    name: "lat".into(),
                    kind: ParamType::Number,
                    description: Some("Latitude".into()),
                    required: true,
                    r#enum: None,
                    default: None,
                    items: None,
                }],
                input_schema: None,
                location: SourceLocation::default(),
            },
            package_dir: std::env::temp_dir(),
            settings: std::sync::Arc::new(agx_model::settings::PackageSettings::declared(
                agx_core::name::PackageName::parse("acme/demo").unwrap(),
                &[],
            )),
            sandbox: None,
        }
    }

    #[test]
    fn list_entry_has_schema_and_annotations() {
        let t = ServedTool::new(tool("get", &["true"], InputMode::Stdin));
        let v = serde_json::to_value(t.list_entry()).unwrap();
        assert_eq!(v["inputSchema"]["properties"]["lat"]["type"], "number");
        assert_eq!(v["inputSchema"]["required"][0], "lat");
        assert_eq!(v["annotations"]["readOnlyHint"], true);
        assert_eq!(v["title"], "Demo");
    }

    #[test]
    fn validation_names_the_argument() {
        let t = ServedTool::new(tool("get", &["true"], InputMode::Stdin));
        assert!(t.validate(&json!({ "lat": 1.5 })).is_ok());
        let err = t.validate(&json!({ "lat": "north" })).unwrap_err();
        assert!(err.contains("argument `lat`"), "{err}");
        let err = t.validate(&json!({})).unwrap_err();
        assert!(err.contains("\"lat\" is a required property"), "{err}");
    }

    #[test]
    fn only_schemas_both_drafts_read_alike_are_compiled_as_draft_7() {
        let neutral = json!({
            "type": "object",
            "properties": {
                "tags": { "type": "array", "items": { "type": "string", "minLength": 1 } },
                "mode": { "enum": ["a", "b"], "default": "a" },
                "extra": { "type": "object", "additionalProperties": false }
            },
            "required": ["tags"]
        });
        assert!(draft_neutral(&neutral));
        for differs in [
            json!({ "$schema": "https://json-schema.org/draft/2020-12/schema" }),
            json!({ "type": "array", "items": [{ "type": "string" }] }),
            json!({ "type": "array", "prefixItems": [{ "type": "string" }] }),
            json!({ "properties": { "when": { "type": "string", "format": "date" } } }),
            json!({ "properties": { "x": { "$ref": "#/$defs/x" } }, "$defs": { "x": {} } }),
        ] {
            assert!(!draft_neutral(&differs), "{differs}");
        }

        // Same verdicts as the 2020-12 validator.
        let draft_2020 = jsonschema::validator_for(&neutral).unwrap();
        let compiled = compile(&neutral).unwrap();
        for instance in [
            json!({ "tags": ["x"] }),
            json!({ "tags": [""] }),
            json!({ "tags": "x" }),
            json!({ "tags": [], "mode": "c" }),
            json!({ "tags": [], "extra": { "no": 1 } }),
            json!({}),
        ] {
            assert_eq!(
                compiled.is_valid(&instance),
                draft_2020.is_valid(&instance),
                "{instance}"
            );
        }
    }

    fn text(result: &CallToolResult) -> String {
        serde_json::to_value(result).unwrap()["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[tokio::test]
    async fn a_call_gets_its_channel_on_descriptor_3() {
        let script = r#"test "$AGX_CHANNEL_FD" = 3 || exit 9
            printf '%s\n' '{"method":"notifications/progress","params":{"progress":1}}' >&3
            printf '%s\n' '{"id":5,"method":"sampling/createMessage","params":{}}' >&3
            IFS= read -r reply <&3; printf '%s' "$reply""#;
        let mut exposed = tool("ask", &["sh", "-c", script], InputMode::Stdin);
        exposed.def.parameters.clear();
        let t = ServedTool::new(exposed);
        let (tx, mut rx) = tokio::sync::mpsc::channel(8);
        let result = t
            .call(&json!({}), Client::Absent, Some(tx), std::future::pending())
            .await;
        // The answer printed is an object with an `error` key: an error result with its text.
        let answer: Value = serde_json::from_str(&text(&result)).unwrap();
        assert_eq!(answer["code"], -32601, "{answer}");
        assert!(matches!(rx.recv().await, Some(StderrLine::Progress(_))));
    }

    #[tokio::test]
    async fn a_missing_program_still_cannot_start() {
        let mut exposed = tool("gone", &["/nonexistent/agx-tool"], InputMode::Stdin);
        exposed.def.parameters.clear();
        let result = ServedTool::new(exposed)
            .call(&json!({}), Client::Absent, None, std::future::pending())
            .await;
        assert!(
            text(&result).starts_with("could not start tool `gone`"),
            "{}",
            text(&result)
        );
    }

    #[test]
    fn flags_follow_the_arguments_in_order() {
        let args = json!({"lat": 48.8, "city": "Paris", "verbose": true, "dry": false,
            "tag": ["a", "b c"], "none": null, "opts": {"k": 1}});
        assert_eq!(
            flags_of(&args),
            [
                "--lat",
                "48.8",
                "--city",
                "Paris",
                "--verbose",
                "--tag",
                "a",
                "--tag",
                "b c",
                "--opts",
                r#"{"k":1}"#
            ]
        );
        let t = ServedTool::new(tool("get", &["bin/get"], InputMode::ArgvFlags));
        let spec = t.run_spec(&json!({"n": 2})).unwrap();
        assert_eq!(spec.args, ["--n", "2"]);
        assert!(spec.stdin.is_none());
    }

    #[test]
    fn run_spec_follows_the_input_mode() {
        let args = json!({ "lat": 1 });
        let t = ServedTool::new(tool("get", &["bin/get", "-v"], InputMode::Argv));
        let spec = t.run_spec(&args).unwrap();
        assert_eq!(
            spec.args,
            vec!["-v".to_string(), r#"{"lat":1}"#.to_string()]
        );
        assert!(spec.stdin.is_none());
        assert_eq!(spec.program, std::env::temp_dir().join("bin/get"));
        assert!(spec.env.contains(&("AGX_TOOL".into(), "get".into())));
        assert!(spec.env.contains(&("UNITS".into(), "metric".into())));
        let t = ServedTool::new(tool("get", &["python3"], InputMode::Stdin));
        let spec = t.run_spec(&args).unwrap();
        assert_eq!(spec.stdin.as_deref(), Some(&b"{\"lat\":1}\n"[..]));
        assert_eq!(spec.program, std::path::PathBuf::from("python3"));
    }
}
