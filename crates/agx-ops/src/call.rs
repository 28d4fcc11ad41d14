//! `agx call`: run one installed tool as `agx serve` would, with arguments from `--arg` and
//! `--json`. Also what `agx prompt` shares with it: finding an installed package's item and
//! reading `NAME=VALUE` arguments.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value};

use super::Context;
use agx_core::name::{NameError, QualifiedName};
use agx_model::manifest::{Package, load_installed};
use agx_runtime::{AssembleError, ExposedTool, ServeError, StderrLine};

#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error(transparent)]
    Name(#[from] NameError),
    #[error(transparent)]
    Package(#[from] AssembleError),
    #[error("package {package} has no {kind} `{item}`")]
    NoItem {
        package: String,
        kind: &'static str,
        item: String,
        /// The package's items of that kind, qualified.
        known: Vec<String>,
    },
    #[error("`--arg {0}` is not NAME=VALUE")]
    NotAPair(String),
    #[error("`--arg {name}=…`: tool {tool} has no argument `{name}`")]
    UnknownArg {
        tool: String,
        name: String,
        /// The arguments its input schema lists.
        known: Vec<String>,
    },
    #[error("`--arg {name}={value}`: `{name}` takes {expected}, and `{value}` is not JSON")]
    NotJson {
        name: String,
        value: String,
        expected: String,
    },
    #[error("--json is not a JSON object: {0}")]
    BadJson(String),
    #[error(transparent)]
    Run(#[from] ServeError),
}

impl agx_core::error::Hint for CallError {
    fn hint(&self) -> Option<String> {
        match self {
            CallError::Name(e) => e.hint(),
            CallError::Package(e) => e.hint(),
            CallError::NoItem { kind, known, .. } if known.is_empty() => {
                Some(format!("this package defines no {kind}s"))
            }
            CallError::NoItem { kind, known, .. } => {
                Some(format!("its {kind}s: {}", known.join(", ")))
            }
            CallError::NotAPair(_) => Some("write `--arg city=Oslo`".into()),
            CallError::UnknownArg { known, .. } if known.is_empty() => {
                Some("it takes no arguments; call it without --arg".into())
            }
            CallError::UnknownArg { name, known, .. } => {
                let close = agx_model::manifest::fields::did_you_mean(
                    name,
                    known.iter().map(String::as_str),
                )
                .map(|c| format!("did you mean `{c}`? "))
                .unwrap_or_default();
                Some(format!("{close}its arguments: {}", known.join(", ")))
            }
            CallError::NotJson { name, .. } => Some(format!(
                "give a JSON value, quoted for the shell: `--arg '{name}=[1, 2]'`, or pass every \
                 argument with --json '{{\"{name}\": …}}'"
            )),
            CallError::BadJson(_) => {
                Some("quote it for the shell: --json '{\"city\": \"Oslo\"}'".into())
            }
            CallError::Run(e) => agx_core::error::Hint::hint(e),
        }
    }
}

/// Run `tool` (`publisher/package/tool`) once, as `agx serve` would. Its stderr lines and
/// progress and log messages go to `on_line` while it runs.
pub fn call(
    ctx: &Context,
    tool: &str,
    json: Option<&str>,
    pairs: &[String],
    on_line: impl FnMut(StderrLine),
) -> Result<CallToolResult, CallError> {
    let name = QualifiedName::parse(tool)?;
    let package = installed_package(ctx, &name)?;
    let Some(def) = package.tool(name.item.as_str()) else {
        return Err(no_item(
            &package,
            "tool",
            &name,
            package.tools.iter().map(|t| &t.name),
        ));
    };
    let exposed = ExposedTool {
        exposed: def.name.to_string(),
        qualified: name.clone(),
        def: def.clone(),
        package_dir: package.dir.clone(),
        settings: resolved_settings(ctx, &package, &format!("tool {name}"))?,
        sandbox: agx_sandbox::for_package(&package, None),
    };
    let schema = exposed.def.input_schema();
    refuse_unknown_names(&name, &schema, pairs)?;
    let args = arguments(&schema, json, pairs)?;
    Ok(agx_runtime::call_tool(
        exposed,
        &Value::Object(args),
        on_line,
    )?)
}

/// The package's settings, resolved as `agx serve` resolves them (`what` names the item in
/// the error when a required one is missing).
pub(super) fn resolved_settings(
    ctx: &Context,
    package: &Package,
    what: &str,
) -> Result<std::sync::Arc<agx_model::settings::PackageSettings>, CallError> {
    let declared = agx_runtime::declared_settings(package);
    Ok(agx_runtime::settings::resolve_one(
        ctx.paths, declared, what,
    )?)
}

/// The installed package of an item, read under the store's shared lock (so an install
/// cannot swap it half-way).
pub(super) fn installed_package(ctx: &Context, item: &QualifiedName) -> Result<Package, CallError> {
    let store = ctx.store();
    let _lock = store
        .lock_shared_if_present()
        .map_err(|e| store_error(item, e))?;
    let package = item.package.clone();
    let dir = store
        .installed_dir(&package)
        .map_err(|e| store_error(item, e))?
        .ok_or(AssembleError::NotInstalled {
            package: package.clone(),
            needed_by: None,
        })?;
    // What `agx serve` would refuse to start does not run here either (docs/policy.md).
    let policy = super::policy::gate(ctx, None)
        .map_err(|e| CallError::Run(ServeError::Policy(Box::new(e))))?;
    if let Some(version) = dir.file_name().and_then(|v| v.to_str()?.parse().ok()) {
        policy
            .check_installed(&store, &package, &version)
            .map_err(|e| CallError::Run(e.into()))?;
    }
    if let Err(e) = ctx.paths.ensure_package_data_dir(&package) {
        ctx.reporter.warn(&format!(
            "cannot create the data folder of {package}: {e} (the tool finds no folder at AGX_DATA_DIR)"
        ));
    }
    Ok(load_installed(&dir).map_err(|source| AssembleError::Broken { package, source })?)
}

fn store_error(item: &QualifiedName, e: agx_store::StoreError) -> CallError {
    CallError::Package(AssembleError::Store {
        package: item.package.clone(),
        reason: e.to_string(),
    })
}

pub(super) fn no_item<'a, N: std::fmt::Display + 'a>(
    package: &Package,
    kind: &'static str,
    wanted: &QualifiedName,
    names: impl Iterator<Item = &'a N>,
) -> CallError {
    CallError::NoItem {
        package: format!("{} {}", package.name(), package.version()),
        kind,
        item: wanted.item.to_string(),
        known: names.map(|n| format!("{}/{n}", package.name())).collect(),
    }
}

/// The call's arguments: the `--json` object, then each `NAME=VALUE` over it. A value is
/// text when the schema says the argument is a string (or says nothing), else JSON.
pub(super) fn arguments(
    schema: &Value,
    json: Option<&str>,
    pairs: &[String],
) -> Result<Map<String, Value>, CallError> {
    let mut args = match json {
        None => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => return Err(CallError::BadJson(format!("it is {other}"))),
            Err(e) => return Err(CallError::BadJson(e.to_string())),
        },
    };
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(CallError::NotAPair(pair.clone()));
        };
        let value = match declared_type(schema, name) {
            Some(expected) => serde_json::from_str(value).map_err(|_| CallError::NotJson {
                name: name.into(),
                value: value.into(),
                expected,
            })?,
            None => Value::String(value.into()),
        };
        args.insert(name.into(), value);
    }
    Ok(args)
}

/// Refuse a `--arg` whose name the tool's input schema does not list (a typo would otherwise
/// be sent, and ignored), unless the schema takes other names too (`additionalProperties`
/// true or a schema, or `patternProperties`).
fn refuse_unknown_names(
    tool: &QualifiedName,
    schema: &Value,
    pairs: &[String],
) -> Result<(), CallError> {
    let Some(schema) = schema.as_object() else {
        return Ok(());
    };
    let takes_others = schema.contains_key("patternProperties")
        || schema
            .get("additionalProperties")
            .is_some_and(|a| a != &Value::Bool(false));
    if takes_others {
        return Ok(());
    }
    let known: Vec<&String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    for pair in pairs {
        let Some((name, _)) = pair.split_once('=') else {
            continue;
        };
        if !known.iter().any(|k| k.as_str() == name) {
            return Err(CallError::UnknownArg {
                tool: tool.to_string(),
                name: name.into(),
                known: known.iter().map(|k| k.to_string()).collect(),
            });
        }
    }
    Ok(())
}

/// The JSON types an argument takes when a string is not one of them, as "a number".
fn declared_type(schema: &Value, name: &str) -> Option<String> {
    let declared = schema.get("properties")?.get(name)?.get("type")?;
    let types: Vec<&str> = match declared {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    if types.is_empty() || types.contains(&"string") {
        return None;
    }
    let described: Vec<String> = types
        .iter()
        .map(|t| match *t {
            "integer" => "an integer".to_string(),
            "array" | "object" => format!("an {t}"),
            other => format!("a {other}"),
        })
        .collect();
    Some(described.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({ "type": "object", "properties": {
            "city": { "type": "string" },
            "days": { "type": "integer" },
            "tags": { "type": ["array", "null"] }
        }})
    }

    #[test]
    fn values_follow_the_declared_type() {
        let args = arguments(
            &schema(),
            Some(r#"{"days": 1, "extra": true}"#),
            &[
                "city=Oslo=West".into(),
                "days=3".into(),
                "tags=[\"a\"]".into(),
            ],
        )
        .unwrap();
        assert_eq!(
            Value::Object(args),
            json!({ "days": 3, "extra": true, "city": "Oslo=West", "tags": ["a"] })
        );
    }

    #[test]
    fn names_the_schema_does_not_list_are_refused_unless_it_takes_others() {
        let tool = QualifiedName::parse("acme/weather/forecast").unwrap();
        let err = refuse_unknown_names(&tool, &schema(), &["city=Oslo".into(), "cty=Oslo".into()])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "`--arg cty=…`: tool acme/weather/forecast has no argument `cty`"
        );
        assert_eq!(
            agx_core::error::Hint::hint(&err).unwrap(),
            "did you mean `city`? its arguments: city, days, tags"
        );
        let mut open = schema();
        open["additionalProperties"] = json!({ "type": "string" });
        assert!(refuse_unknown_names(&tool, &open, &["free=7".into()]).is_ok());
        open["additionalProperties"] = json!(false);
        assert!(refuse_unknown_names(&tool, &open, &["free=7".into()]).is_err());
        // A prompt's arguments (no schema) are checked by the prompt.
        assert!(refuse_unknown_names(&tool, &Value::Null, &["free=7".into()]).is_ok());
    }

    #[test]
    fn bad_arguments_say_what_was_expected() {
        let err = arguments(&schema(), None, &["days=three".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`--arg days=three`: `days` takes an integer, and `three` is not JSON"
        );
        assert!(matches!(
            arguments(&schema(), None, &["city".into()]),
            Err(CallError::NotAPair(_))
        ));
        assert!(matches!(
            arguments(&schema(), Some("[1]"), &[]),
            Err(CallError::BadJson(_))
        ));
    }
}
