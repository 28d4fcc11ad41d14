//! Checking the contents of one tool, server or prompt definition (DESIGN §2) and building
//! its model.

use std::ops::Range;
use std::path::Path;

use super::agx_toml::{Kind, is_inside_package};
use super::diagnostics::{self as codes, Findings};
use super::fields::Table;
use super::model::{
    DEFAULT_TOOL_TIMEOUT_SECS, InputMode, ParamType, Parameter, PromptArgument, PromptDef,
    PromptKind, ServerDef, SourceLocation, ToolAnnotations, ToolDef,
};
use super::spanned::{Node, SourceFile};
use super::template::{self, TemplateSource};
use crate::name::{ItemName, ItemRef};

/// One definition to check: where it is and what declared it.
pub struct DefinitionSource<'a> {
    pub package_dir: &'a Path,
    /// The definition root, relative to the package (`[extension] root`).
    pub root: &'a str,
    pub file: &'a SourceFile,
    pub node: &'a Node,
    /// Where to point for missing keys: the item's key in a combined file, else the file start.
    pub anchor: Range<usize>,
    pub declared: &'a ItemName,
    /// In a combined file the table key names the item, so `name` may be left out.
    pub combined: bool,
    pub location: SourceLocation,
}

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
const PARAMETER_KEYS: &[&str] = &[
    "name",
    "type",
    "description",
    "required",
    "enum",
    "default",
    "items",
];
const SERVER_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "version",
    "instructions",
    "tools",
    "prompts",
    "initialization",
    "command",
    "env",
    "cwd",
];
const PROMPT_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "type",
    "content",
    "content_file",
    "command",
    "arguments",
];
const ARGUMENT_KEYS: &[&str] = &["name", "description", "required"];

impl DefinitionSource<'_> {
    fn table(&self, f: &mut Findings, kind: Kind, allowed: &[&str]) -> Option<Table<'_>> {
        let what = format!("{} `{}`", kind.singular(), self.declared);
        Table::read(f, self.file, self.node, self.anchor.clone(), what, allowed)
    }

    /// The `name` inside must be the declared one.
    fn check_name(&self, f: &mut Findings, t: &Table<'_>, kind: Kind) -> bool {
        if !self.combined
            && t.require(f, "name", &format!("\"{}\"", self.declared))
                .is_none()
        {
            return false;
        }
        let Some((name, node)) = t.string(f, "name") else {
            return self.combined && !t.has("name");
        };
        if name != self.declared.as_str() {
            f.at(
                codes::NAME_MISMATCH,
                self.file,
                &node.span,
                format!(
                    "this {} is named `{name}` but is declared as `{}`",
                    kind.singular(),
                    self.declared
                ),
                Some(format!(
                    "make `name` and the declaration in agx.toml the same (`{}`)",
                    self.declared
                )),
            );
            return false;
        }
        true
    }

    /// A relative program (one with a `/`) must be a file in the package.
    fn check_program(&self, f: &mut Findings, key: &str, command: &[String], node: &Node) {
        let Some(program) = command.first() else {
            return;
        };
        if !program.contains('/') || Path::new(program).is_absolute() {
            return;
        }
        let span = node
            .as_array()
            .and_then(|a| a.first())
            .map_or(node.span.clone(), |n| n.span.clone());
        let problem = if !is_inside_package(program) {
            Some("points outside the package")
        } else if !self.package_dir.join(program).is_file() {
            Some("is not a file in the package")
        } else {
            None
        };
        if let Some(problem) = problem {
            f.at(
                codes::PROGRAM_MISSING,
                self.file,
                &span,
                format!("the program `{program}` of `{key}` {problem}"),
                Some(
                    "relative programs are relative to the package folder (where agx.toml is); \
                     a bare name such as `python3` is looked up on PATH"
                        .into(),
                ),
            );
        }
    }

    fn command(&self, f: &mut Findings, t: &Table<'_>, key: &str) -> Option<Vec<String>> {
        let (command, node) = t.command(f, key)?;
        self.check_program(f, key, &command, node);
        Some(command)
    }
}

pub fn check_tool(f: &mut Findings, src: &DefinitionSource<'_>) -> Option<ToolDef> {
    let before = f.error_count();
    let t = src.table(f, Kind::Tool, TOOL_KEYS)?;
    src.check_name(f, &t, Kind::Tool);
    let title = t.opt_string(f, "title");
    let description = t.opt_string(f, "description");
    t.require(f, "command", "[\"python3\", \"bin/tool.py\"]");
    let command = src.command(f, &t, "command");
    let input = match t.string(f, "input") {
        None => InputMode::Stdin,
        Some((s, node)) => match s.as_str() {
            "stdin" => InputMode::Stdin,
            "argv" => InputMode::Argv,
            _ => {
                invalid_value(f, src.file, node, "input", &s, "\"stdin\" or \"argv\"");
                InputMode::Stdin
            }
        },
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
    let initialization = src.command(f, &t, "initialization");
    let annotations = t
        .get("annotations")
        .and_then(|e| read_annotations(f, src.file, e))
        .unwrap_or_default();
    let parameters = match t.get("parameters") {
        Some(e) => read_parameters(f, src.file, &e.value, &src.declared.to_string()),
        None => Vec::new(),
    };
    let input_schema = t
        .get("input_schema")
        .and_then(|e| read_input_schema(f, src.file, &e.value, &src.declared.to_string()));
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
            format!(
                "tool `{}` has both `parameters` and `input_schema`",
                src.declared
            ),
            Some("keep one: `input_schema` replaces the schema built from `parameters`".into()),
        );
    }
    if f.error_count() > before {
        return None;
    }
    Some(ToolDef {
        name: src.declared.clone(),
        title,
        description,
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

fn invalid_value(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    key: &str,
    value: &str,
    allowed: &str,
) {
    f.at(
        codes::INVALID_VALUE,
        file,
        &node.span,
        format!("`{key}` cannot be `{value}`"),
        Some(format!("use {allowed}")),
    );
}

fn read_annotations(
    f: &mut Findings,
    file: &SourceFile,
    entry: &super::spanned::Entry,
) -> Option<ToolAnnotations> {
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

fn read_parameters(f: &mut Findings, file: &SourceFile, node: &Node, tool: &str) -> Vec<Parameter> {
    let Some(items) = node.as_array() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!(
                "`parameters` of tool `{tool}` must be an array of tables, found {}",
                node.type_name()
            ),
            Some("write one [[parameters]] table per parameter".into()),
        );
        return Vec::new();
    };
    let mut out: Vec<Parameter> = Vec::new();
    for item in items {
        let what = format!("a parameter of tool `{tool}`");
        let Some(t) = Table::read(f, file, item, item.span.clone(), what, PARAMETER_KEYS) else {
            continue;
        };
        t.require(f, "name", "\"name\"");
        t.require(f, "type", "\"string\"");
        let name = t.string(f, "name");
        let kind = t.string(f, "type").and_then(|(ty, node)| {
            let parsed = ParamType::parse(&ty);
            if parsed.is_none() {
                f.at(
                    codes::INVALID_PARAMETER_TYPE,
                    file,
                    &node.span,
                    format!("parameter type `{ty}` is not a JSON type"),
                    Some(format!(
                        "use one of {}{}",
                        ParamType::ALL.join(", "),
                        super::fields::did_you_mean(&ty, ParamType::ALL)
                            .map(|c| format!(" (did you mean `{c}`?)"))
                            .unwrap_or_default()
                    )),
                );
            }
            parsed
        });
        let description = t.opt_string(f, "description");
        let required = t.bool(f, "required").unwrap_or(false);
        let r#enum = t.get("enum").and_then(|e| match e.value.as_array() {
            Some(a) => Some(a.iter().map(Node::to_json).collect()),
            None => {
                f.at(
                    codes::WRONG_TYPE,
                    file,
                    &e.value.span,
                    format!(
                        "`enum` must be an array of allowed values, found {}",
                        e.value.type_name()
                    ),
                    None,
                );
                None
            }
        });
        let default = t.get("default").map(|e| e.value.to_json());
        let items_schema = t.get("items").and_then(|e| match e.value.as_table() {
            Some(_) => Some(e.value.to_json()),
            None => {
                f.at(
                    codes::WRONG_TYPE,
                    file,
                    &e.value.span,
                    format!(
                        "`items` must be a schema table such as {{ type = \"string\" }}, found {}",
                        e.value.type_name()
                    ),
                    None,
                );
                None
            }
        });
        let (Some((name, name_node)), Some(kind)) = (name, kind) else {
            continue;
        };
        if out.iter().any(|p| p.name == name) {
            f.at(
                codes::DUPLICATE_NAME,
                file,
                &name_node.span,
                format!("tool `{tool}` has two parameters named `{name}`"),
                Some("rename or remove one".into()),
            );
            continue;
        }
        out.push(Parameter {
            name,
            kind,
            description,
            required,
            r#enum,
            default,
            items: items_schema,
        });
    }
    out
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
                "`input_schema` of tool `{tool}` must be a table (a JSON Schema object), found {}",
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
            format!("`input_schema` of tool `{tool}` {problem}"),
            Some(
                "tool arguments are one JSON object: give `type = \"object\"` and `properties`"
                    .into(),
            ),
        );
        return None;
    }
    Some(schema)
}

/// A server definition; its references are parsed here and resolved later, once every
/// declaration is known.
pub fn check_server(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
) -> (Option<ServerDef>, Vec<Reference>) {
    let before = f.error_count();
    let Some(t) = src.table(f, Kind::Server, SERVER_KEYS) else {
        return (None, Vec::new());
    };
    src.check_name(f, &t, Kind::Server);
    let title = t.opt_string(f, "title");
    let description = t.opt_string(f, "description");
    let version = t.string(f, "version").and_then(|(v, node)| match semver::Version::parse(&v) {
        Ok(v) => Some(v),
        Err(e) => {
            f.at(
                codes::INVALID_VERSION,
                src.file,
                &node.span,
                format!("version `{v}` is not semver: {e}"),
                Some("write MAJOR.MINOR.PATCH, or leave `version` out to use the package version".into()),
            );
            None
        }
    });
    let instructions = t.opt_string(f, "instructions");
    let mut references = Vec::new();
    let tools = read_references(f, src, &t, Kind::Tool, &mut references);
    let prompts = read_references(f, src, &t, Kind::Prompt, &mut references);
    let initialization = src.command(f, &t, "initialization");
    let command = src.command(f, &t, "command");
    let env = t.string_map(f, "env").unwrap_or_default();
    let cwd = t.string(f, "cwd").and_then(|(cwd, node)| {
        if is_inside_package(&cwd) {
            Some(cwd)
        } else {
            invalid_value(
                f,
                src.file,
                node,
                "cwd",
                &cwd,
                "a folder inside the package (relative, no `..`)",
            );
            None
        }
    });
    if tools.is_empty() && prompts.is_empty() && !t.has("command") {
        f.at(
            codes::EMPTY_SERVER,
            src.file,
            &src.anchor,
            format!("server `{}` has no tools, no prompts and no command", src.declared),
            Some("list its `tools = [\"…\"]` and/or `prompts`, or wrap a server with `command = [\"…\"]`".into()),
        );
    }
    if f.error_count() > before {
        return (None, references);
    }
    let server = ServerDef {
        name: src.declared.clone(),
        title,
        description,
        version,
        instructions,
        tools,
        prompts,
        initialization,
        command,
        env,
        cwd,
        location: src.location.clone(),
    };
    (Some(server), references)
}

/// A server's reference to a tool or prompt, kept with its place for cross-checking.
pub struct Reference {
    pub kind: Kind,
    pub item: ItemRef,
    pub location: SourceLocation,
    pub length: usize,
}

fn read_references(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'_>,
    kind: Kind,
    out: &mut Vec<Reference>,
) -> Vec<ItemRef> {
    let mut refs = Vec::new();
    for (raw, node) in t.strings(f, kind.plural()).unwrap_or_default() {
        match ItemRef::parse(&raw) {
            Ok(item) => {
                refs.push(item.clone());
                let (location, length) = src.file.span_location(&node.span);
                out.push(Reference {
                    kind,
                    item,
                    location,
                    length,
                });
            }
            Err(e) => f.at(
                codes::INVALID_ITEM_NAME,
                src.file,
                &node.span,
                e.to_string(),
                Some(format!(
                    "a server lists {} by bare name (this package) or as {}",
                    kind.plural(),
                    crate::name::NameError::Qualified {
                        input: String::new(),
                        reason: String::new()
                    }
                    .expected_form()
                )),
            ),
        }
    }
    refs
}

pub fn check_prompt(f: &mut Findings, src: &DefinitionSource<'_>) -> Option<PromptDef> {
    let before = f.error_count();
    let t = src.table(f, Kind::Prompt, PROMPT_KEYS)?;
    src.check_name(f, &t, Kind::Prompt);
    let title = t.opt_string(f, "title");
    let description = t.opt_string(f, "description");
    let content = t.string(f, "content");
    let content_file = t.string(f, "content_file");
    let command = src.command(f, &t, "command");
    let arguments = match t.get("arguments") {
        Some(e) => read_arguments(f, src.file, &e.value, src.declared.as_str()),
        None => Vec::new(),
    };
    let explicit = t
        .string(f, "type")
        .and_then(|(ty, node)| match ty.as_str() {
            "text" => Some(PromptKind::Text),
            "command" => Some(PromptKind::Command),
            _ => {
                invalid_value(f, src.file, node, "type", &ty, "\"text\" or \"command\"");
                None
            }
        });
    let kind = explicit.unwrap_or(if t.has("content") || t.has("content_file") {
        PromptKind::Text
    } else if t.has("command") {
        PromptKind::Command
    } else {
        PromptKind::Text
    });
    if let (Some(_), Some(second)) = (t.get("content"), t.get("content_file")) {
        f.at(
            codes::CONFLICTING_KEYS,
            src.file,
            &second.key_span,
            format!(
                "prompt `{}` has both `content` and `content_file`",
                src.declared
            ),
            Some("keep one of them".into()),
        );
    }
    let has_body = match kind {
        PromptKind::Text => t.has("content") || t.has("content_file"),
        PromptKind::Command => t.has("command"),
    };
    if !has_body {
        let needs = match kind {
            PromptKind::Text => "a text prompt needs `content = \"…\"` or `content_file = \"…\"`",
            PromptKind::Command => "a command prompt needs `command = [\"…\"]`",
        };
        f.at(
            codes::PROMPT_WITHOUT_BODY,
            src.file,
            &src.anchor,
            format!("prompt `{}` has nothing to produce its text", src.declared),
            Some(needs.into()),
        );
    }
    let argument_names: Vec<String> = arguments.iter().map(|a| a.name.clone()).collect();
    let mut text = None;
    if kind == PromptKind::Text {
        if let Some((content, node)) = &content {
            let source = TemplateSource {
                file: src.file,
                span: node.span.clone(),
                text: content,
            };
            template::check(f, &source, src.declared.as_str(), &argument_names);
            text = Some(content.clone());
        } else if let Some((path, node)) = &content_file
            && let Some(file) = read_content_file(f, src, path, node)
        {
            let source = TemplateSource {
                file: &file,
                span: 0..file.text.len(),
                text: &file.text,
            };
            template::check(f, &source, src.declared.as_str(), &argument_names);
            text = Some(file.text.clone());
        }
    }
    if f.error_count() > before {
        return None;
    }
    Some(PromptDef {
        name: src.declared.clone(),
        title,
        description,
        kind,
        content: text,
        content_file: content_file.map(|(p, _)| p),
        command,
        arguments,
        location: src.location.clone(),
    })
}

/// `content_file` is relative to the definition root (`agx/` by default), like the
/// definition files themselves.
fn read_content_file(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    path: &str,
    node: &Node,
) -> Option<SourceFile> {
    let rel = format!("{}/{}", src.root, path);
    let problem = if !is_inside_package(path) {
        "points outside the package".to_string()
    } else {
        match std::fs::read(src.package_dir.join(&rel)) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => return Some(SourceFile::new(rel, text)),
                Err(_) => {
                    f.whole(
                        codes::UNREADABLE_FILE,
                        &rel,
                        format!("content file `{rel}` is not UTF-8 text"),
                        Some("save it as UTF-8".into()),
                    );
                    return None;
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("`{rel}` does not exist"),
            Err(e) => format!("`{rel}` cannot be read: {e}"),
        }
    };
    f.at(
        codes::CONTENT_FILE_MISSING,
        src.file,
        &node.span,
        format!("content_file of prompt `{}`: {problem}", src.declared),
        Some(format!(
            "content_file is relative to the definition root `{}/`",
            src.root
        )),
    );
    None
}

fn read_arguments(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    prompt: &str,
) -> Vec<PromptArgument> {
    let Some(items) = node.as_array() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!(
                "`arguments` of prompt `{prompt}` must be an array of tables, found {}",
                node.type_name()
            ),
            Some("write one [[arguments]] table per argument".into()),
        );
        return Vec::new();
    };
    let mut out: Vec<PromptArgument> = Vec::new();
    for item in items {
        let what = format!("an argument of prompt `{prompt}`");
        let Some(t) = Table::read(f, file, item, item.span.clone(), what, ARGUMENT_KEYS) else {
            continue;
        };
        t.require(f, "name", "\"name\"");
        let description = t.opt_string(f, "description");
        let required = t.bool(f, "required").unwrap_or(false);
        let Some((name, name_node)) = t.string(f, "name") else {
            continue;
        };
        if out.iter().any(|a| a.name == name) {
            f.at(
                codes::DUPLICATE_NAME,
                file,
                &name_node.span,
                format!("prompt `{prompt}` has two arguments named `{name}`"),
                Some("rename or remove one".into()),
            );
            continue;
        }
        out.push(PromptArgument {
            name,
            description,
            required,
        });
    }
    out
}
