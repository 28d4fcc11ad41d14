//! A tool definition (`tools/<name>.toml`): its command, how it takes its input, and the
//! schema of its arguments, from `[[parameters]]` or an explicit `input_schema`.

use super::named_tables::{Named, NamedTables};
use super::source::{DefinitionSource, invalid_value};
use crate::manifest::agx_toml::Kind;
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::{Table, did_you_mean};
use crate::manifest::model::{
    DEFAULT_TOOL_TIMEOUT_SECS, InputMode, ParamType, Parameter, ToolAnnotations, ToolDef,
};
use crate::manifest::spanned::{Entry, Node, SourceFile};

const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "command",
    "input",
    "timeout",
    "env",
    "initialization",
    "annotations",
    "parameters",
    "input_schema",
];
const ANNOTATION_KEYS: &[&str] = &[
    "title",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
];
const PARAMETERS: NamedTables = NamedTables {
    key: "parameters",
    noun: "parameter",
    a_noun: "a parameter",
    allowed_keys: &[
        "name",
        "type",
        "description",
        "required",
        "enum",
        "default",
        "items",
    ],
};

pub fn check_tool(f: &mut Findings, src: &DefinitionSource<'_>) -> Option<ToolDef> {
    let head = src.head(f, Kind::Tool, TOOL_KEYS)?;
    let t = &head.table;
    t.require(f, "command", "[\"python3\", \"bin/tool.py\"]");
    let command = src.command(f, t, "command");
    let input = match t.string(f, "input") {
        None => InputMode::Stdin,
        Some((s, node)) => InputMode::parse(&s).unwrap_or_else(|| {
            invalid_value(f, src.file, node, "input", &s, InputMode::SPELLINGS);
            InputMode::Stdin
        }),
    };
    let timeout_secs = match t.integer(f, "timeout") {
        None => DEFAULT_TOOL_TIMEOUT_SECS,
        Some((n, _)) if n > 0 => n as u64,
        Some((n, node)) => {
            invalid_value(
                f,
                src.file,
                node,
                "timeout",
                &n.to_string(),
                "a positive number of seconds",
            );
            DEFAULT_TOOL_TIMEOUT_SECS
        }
    };
    let env = t.string_map(f, "env").unwrap_or_default();
    let initialization = src.command(f, t, "initialization");
    let annotations = t
        .get("annotations")
        .and_then(|e| read_annotations(f, src.file, e))
        .unwrap_or_default();
    let tool = src.describe(Kind::Tool);
    let parameters = match t.get("parameters") {
        Some(e) => PARAMETERS.read(f, src.file, &e.value, &tool, read_parameter),
        None => Vec::new(),
    };
    let input_schema = t
        .get("input_schema")
        .and_then(|e| read_input_schema(f, src.file, &e.value, &tool));
    if let (Some(p), Some(s)) = (t.get("parameters"), t.get("input_schema")) {
        let later = if p.key_span.start > s.key_span.start {
            p
        } else {
            s
        };
        f.at(
            codes::CONFLICTING_KEYS,
            src.file,
            &later.key_span,
            format!("{tool} has both `parameters` and `input_schema`"),
            Some("keep one: `input_schema` replaces the schema built from `parameters`".into()),
        );
    }
    if head.found_errors(f) {
        return None;
    }
    Some(ToolDef {
        name: src.declared.clone(),
        title: head.title,
        description: head.description,
        command: command?,
        input,
        timeout_secs,
        env,
        initialization,
        annotations,
        parameters,
        input_schema,
        location: src.location.clone(),
    })
}

fn read_annotations(f: &mut Findings, file: &SourceFile, entry: &Entry) -> Option<ToolAnnotations> {
    let t = Table::read(
        f,
        file,
        &entry.value,
        entry.key_span.clone(),
        "annotations",
        ANNOTATION_KEYS,
    )?;
    Some(ToolAnnotations {
        title: t.opt_string(f, "title"),
        read_only: t.bool(f, "read_only"),
        destructive: t.bool(f, "destructive"),
        idempotent: t.bool(f, "idempotent"),
        open_world: t.bool(f, "open_world"),
    })
}

impl Named for Parameter {
    fn name(&self) -> &str {
        &self.name
    }
}

/// The keys of one `[[parameters]]` table other than the checks every entry gets.
fn read_parameter<'a>(f: &mut Findings, t: &Table<'a>) -> Option<(Parameter, &'a Node)> {
    t.require(f, "type", "\"string\"");
    let name = t.string(f, "name");
    let kind = read_parameter_type(f, t);
    let description = t.opt_string(f, "description");
    let required = t.bool(f, "required").unwrap_or(false);
    let r#enum = schema_part(f, t, "enum", "an array of allowed values", |n| {
        n.as_array()
            .map(|values| values.iter().map(Node::to_json).collect())
    });
    let default = t.get("default").map(|e| e.value.to_json());
    let items = schema_part(
        f,
        t,
        "items",
        "a schema table such as { type = \"string\" }",
        |n| n.as_table().map(|_| n.to_json()),
    );
    let ((name, name_node), kind) = (name?, kind?);
    let parameter = Parameter {
        name,
        kind,
        description,
        required,
        r#enum,
        default,
        items,
    };
    Some((parameter, name_node))
}

/// A parameter key that goes into the schema, read by `convert`; a value it does not accept
/// is reported as the wrong type, `expected` saying what it should be.
fn schema_part<T>(
    f: &mut Findings,
    t: &Table<'_>,
    key: &str,
    expected: &str,
    convert: impl FnOnce(&Node) -> Option<T>,
) -> Option<T> {
    let value = &t.get(key)?.value;
    let converted = convert(value);
    if converted.is_none() {
        f.at(
            codes::WRONG_TYPE,
            t.file,
            &value.span,
            format!("`{key}` must be {expected}, found {}", value.type_name()),
            None,
        );
    }
    converted
}

fn read_parameter_type(f: &mut Findings, t: &Table<'_>) -> Option<ParamType> {
    let (ty, node) = t.string(f, "type")?;
    let parsed = ParamType::parse(&ty);
    if parsed.is_none() {
        f.at(
            codes::INVALID_PARAMETER_TYPE,
            t.file,
            &node.span,
            format!("parameter type `{ty}` is not a JSON type"),
            Some(format!(
                "use one of {}{}",
                ParamType::ALL.join(", "),
                did_you_mean(&ty, ParamType::ALL)
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default()
            )),
        );
    }
    parsed
}

fn read_input_schema(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    tool: &str,
) -> Option<serde_json::Value> {
    if node.as_table().is_none() {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!(
                "`input_schema` of {tool} must be a table (a JSON Schema object), found {}",
                node.type_name()
            ),
            None,
        );
        return None;
    }
    let schema = node.to_json();
    let (problem, at) = match jsonschema::meta::validate(&schema) {
        Err(e) => (
            Some(format!("is not a valid JSON Schema: {e}")),
            node.pointer(e.instance_path().as_str()).unwrap_or(node),
        ),
        Ok(()) if schema.get("type").and_then(|t| t.as_str()) != Some("object") => (
            Some("must describe an object (`type = \"object\"`)".to_string()),
            node.pointer("/type").unwrap_or(node),
        ),
        Ok(()) => (None, node),
    };
    if let Some(problem) = problem {
        f.at(
            codes::INVALID_INPUT_SCHEMA,
            file,
            &at.span,
            format!("`input_schema` of {tool} {problem}"),
            Some(
                "tool arguments are one JSON object: give `type = \"object\"` and `properties`"
                    .into(),
            ),
        );
        return None;
    }
    Some(schema)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::*;
    use agx_core::name::ItemName;

    /// Check `text` as the tool file `tools/t.toml`: the tool, and each finding as
    /// "code line:column message".
    fn check(text: &str) -> (Option<ToolDef>, Vec<String>) {
        let file = SourceFile::new("agx/tools/t.toml", text.into());
        let node = file.parse().unwrap();
        let declared = ItemName::parse("t").unwrap();
        let src = DefinitionSource {
            package_dir: Path::new("."),
            root: "agx",
            file: &file,
            node: &node,
            anchor: 0..0,
            declared: &declared,
            settings: &[],
            combined: false,
            location: file.location(0),
        };
        let mut f = Findings::default();
        let tool = check_tool(&mut f, &src);
        let findings = f
            .list
            .iter()
            .map(|x| {
                format!(
                    "{} {}:{} {}",
                    x.code, x.location.line, x.location.column, x.message
                )
            })
            .collect();
        (tool, findings)
    }

    #[test]
    fn parameters_build_the_input_schema() {
        let (tool, findings) = check(
            r#"name = "t"
command = ["python3", "t.py"]
[[parameters]]
name = "units"
type = "string"
description = "Units"
required = true
enum = ["metric", "imperial"]
default = "metric"
[[parameters]]
name = "fields"
type = "array"
items = { type = "string" }
"#,
        );
        assert_eq!(findings, Vec::<String>::new());
        assert_eq!(
            tool.unwrap().input_schema(),
            json!({
                "type": "object",
                "properties": {
                    "units": {
                        "type": "string",
                        "description": "Units",
                        "enum": ["metric", "imperial"],
                        "default": "metric",
                    },
                    "fields": { "type": "array", "items": { "type": "string" } },
                },
                "required": ["units"],
            })
        );
    }

    #[test]
    fn a_wrong_enum_or_items_is_reported_where_it_is() {
        let (tool, findings) = check(
            r#"name = "t"
command = ["python3", "t.py"]
[[parameters]]
name = "a"
type = "array"
enum = "x"
items = 3
"#,
        );
        assert!(tool.is_none());
        assert_eq!(
            findings,
            [
                "E005 6:8 `enum` must be an array of allowed values, found a string",
                "E005 7:9 `items` must be a schema table such as { type = \"string\" }, found an integer",
            ]
        );
    }
}
