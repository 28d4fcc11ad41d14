//! `prompts/get`: rendering text prompts with minijinja, running command prompts.
//!
//! A render runs on a blocking thread within its budget (`manifest::template::render`), so
//! the server keeps answering while it runs and a cancelled request returns at once.

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, Prompt};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::assemble::ExposedPrompt;
use super::process::{self, Ending, RunSpec};
use agx_model::manifest::template::{self, RENDER_OUTPUT_CAP};
use agx_model::manifest::{DEFAULT_TOOL_TIMEOUT_SECS, PromptKind, resolve_program};

/// The `prompts/list` entry of a prompt.
pub(crate) fn list_entry(p: &ExposedPrompt) -> Prompt {
    let mut v = json!({ "name": p.exposed });
    if let Some(t) = &p.def.title {
        v["title"] = t.clone().into();
    }
    if let Some(d) = &p.def.description {
        v["description"] = d.clone().into();
    }
    if !p.def.arguments.is_empty() {
        // Name, description and required only: completion sources are agx's business.
        let arguments: Vec<Value> = p
            .def
            .arguments
            .iter()
            .map(|a| {
                let mut entry = json!({ "name": a.name, "required": a.required });
                if let Some(d) = &a.description {
                    entry["description"] = d.clone().into();
                }
                entry
            })
            .collect();
        v["arguments"] = arguments.into();
    }
    serde_json::from_value(v).expect("a well-formed Prompt")
}

/// Check the arguments, then render or run the prompt, until done or `cancel`led.
pub(crate) async fn get(
    p: &ExposedPrompt,
    arguments: Option<Map<String, Value>>,
    cancel: CancellationToken,
) -> Result<GetPromptResult, ErrorData> {
    let mut args = arguments.unwrap_or_default();
    let missing: Vec<&str> = p
        .def
        .arguments
        .iter()
        .filter(|a| a.required && args.get(&a.name).is_none_or(Value::is_null))
        .map(|a| a.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(ErrorData::invalid_params(
            format!(
                "prompt `{}` needs the argument{} {}",
                p.exposed,
                if missing.len() == 1 { "" } else { "s" },
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None,
        ));
    }
    for a in &p.def.arguments {
        args.entry(a.name.clone()).or_insert_with(|| "".into());
    }
    let fail =
        |msg: String| ErrorData::internal_error(format!("prompt `{}`: {msg}", p.exposed), None);
    match p.def.kind {
        PromptKind::Text => {
            let content = p.def.content.clone().unwrap_or_default();
            let settings = p.settings.template_values();
            let rendering = tokio::task::spawn_blocking(move || render(&content, &args, &settings));
            let text = tokio::select! {
                rendered = rendering => rendered
                    .map_err(|e| fail(format!("rendering stopped: {e}")))?
                    .map_err(|e| fail(e.to_string()))?,
                // The render stops at its budget; nobody waits for it.
                _ = cancel.cancelled() => return Err(fail("cancelled".into())),
            };
            Ok(text_messages(text, p.def.description.clone()))
        }
        PromptKind::Command => run_command(p, &args, cancel).await,
    }
}

/// Render a template; an argument that was not given is empty text. The package's
/// settings are `settings.<key>`.
fn render(
    template: &str,
    args: &Map<String, Value>,
    settings: &[(String, String)],
) -> Result<String, template::RenderError> {
    let settings = minijinja::Value::from_pairs(
        settings
            .iter()
            .map(|(k, v)| (k.as_str(), minijinja::Value::from(v.as_str()))),
    );
    let ctx = minijinja::Value::from_pairs(
        args.iter()
            .map(|(k, v)| (k.as_str(), to_jinja(v)))
            .chain([(template::SETTINGS_VARIABLE, settings)]),
    );
    template::render(template, ctx)
}

/// JSON to a template value (minijinja is built without its serde feature).
fn to_jinja(v: &Value) -> minijinja::Value {
    match v {
        Value::Null => minijinja::Value::from(()),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into(),
            (None, Some(f)) => f.into(),
            _ => n.to_string().into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(a) => a.iter().map(to_jinja).collect::<Vec<_>>().into(),
        Value::Object(o) => {
            minijinja::Value::from_pairs(o.iter().map(|(k, v)| (k.as_str(), to_jinja(v))))
        }
    }
}

fn text_messages(text: String, description: Option<String>) -> GetPromptResult {
    let mut v = json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": text } }]
    });
    if let Some(d) = description {
        v["description"] = d.into();
    }
    complete(serde_json::from_value(v).expect("a well-formed GetPromptResult"))
}

/// Mark a result final (protocol 2026-07-28 requires `resultType`; see `output::complete`).
fn complete(mut result: GetPromptResult) -> GetPromptResult {
    result
        .result_type
        .get_or_insert(rmcp::model::ResultType::COMPLETE);
    result
}

async fn run_command(
    p: &ExposedPrompt,
    args: &Map<String, Value>,
    cancel: CancellationToken,
) -> Result<GetPromptResult, ErrorData> {
    let fail =
        |msg: String| ErrorData::internal_error(format!("prompt `{}`: {msg}", p.exposed), None);
    let command = p.def.command.as_deref().unwrap_or_default();
    let Some((program, rest)) = command.split_first() else {
        return Err(fail("it has no command".into()));
    };
    let mut input = serde_json::to_vec(args).expect("arguments serialize");
    input.push(b'\n');
    let spec = RunSpec {
        program: resolve_program(&p.package_dir, program),
        args: rest.to_vec(),
        cwd: p.package_dir.clone(),
        env: p.command_env(),
        stdin: Some(input),
        timeout: Duration::from_secs(DEFAULT_TOOL_TIMEOUT_SECS),
        output_cap: RENDER_OUTPUT_CAP,
        sandbox: p.sandbox.clone(),
    };
    let outcome = process::run(&spec, None, cancel.cancelled())
        .await
        .map_err(|e| fail(format!("could not start `{program}`: {e}")))?;
    match outcome.ending {
        Ending::Exited(s) if s.success() => {}
        Ending::Exited(s) => {
            return Err(fail(format!(
                "its command exited with {s}; stderr:\n{}",
                outcome.stderr_tail.trim_end()
            )));
        }
        Ending::TimedOut => return Err(fail("its command did not finish in time".into())),
        Ending::Cancelled => return Err(fail("cancelled".into())),
    }
    if outcome.truncated() {
        return Err(fail(format!(
            "its command printed more than {} bytes",
            outcome.stdout.len()
        )));
    }
    match serde_json::from_slice::<Value>(&outcome.stdout) {
        Ok(Value::Object(obj)) if obj.contains_key("messages") => {
            let description = obj
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| p.def.description.clone());
            let mut v = json!({ "messages": obj["messages"] });
            if let Some(d) = description {
                v["description"] = d.into();
            }
            serde_json::from_value(v).map(complete).map_err(|e| {
                fail(format!(
                    "its command printed messages that are not valid MCP prompt messages: {e}"
                ))
            })
        }
        _ => Ok(text_messages(
            String::from_utf8_lossy(&outcome.stdout).into_owned(),
            p.def.description.clone(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_given_and_missing_optional_arguments() {
        let mut args = Map::new();
        args.insert("query".into(), "rust".into());
        args.insert("lang".into(), "".into());
        assert_eq!(
            render(
                "Q: {{ query }}{% if lang %} in {{ lang }}{% endif %}",
                &args,
                &[]
            )
            .unwrap(),
            "Q: rust"
        );
    }

    #[test]
    fn template_errors_are_reported() {
        assert!(render("{% if %}", &Map::new(), &[]).is_err());
    }

    #[test]
    fn settings_are_a_template_variable() {
        let settings = [("units".to_string(), "metric".to_string())];
        assert_eq!(
            render("in {{ settings.units }}", &Map::new(), &settings).unwrap(),
            "in metric"
        );
    }
}
