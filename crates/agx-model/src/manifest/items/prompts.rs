//! A prompt definition (`prompts/<name>.toml`): its text (a template given inline or in a
//! `content_file`) or a command that produces it, and its `[[arguments]]`.

use super::completion::read_completion;
use super::named_tables::{Named, NamedTables};
use super::source::{DefinitionSource, invalid_value};
use crate::manifest::agx_toml::{Kind, is_inside_package};
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::load::report_unread;
use crate::manifest::model::{PromptArgument, PromptDef, PromptKind};
use crate::manifest::package_file::{self, ReadProblem};
use crate::manifest::spanned::{Node, SourceFile};
use crate::manifest::template::{self, TemplateSource};

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
const ARGUMENTS: NamedTables = NamedTables {
    key: "arguments",
    noun: "argument",
    a_noun: "an argument",
    allowed_keys: &["name", "description", "required", "enum", "complete"],
};

pub fn check_prompt(f: &mut Findings, src: &DefinitionSource<'_>) -> Option<PromptDef> {
    let head = src.head(f, Kind::Prompt, PROMPT_KEYS)?;
    let t = &head.table;
    let content = t.string(f, "content");
    let content_file = t.string(f, "content_file");
    let command = src.command(f, t, "command");
    let arguments = match t.get("arguments") {
        Some(e) => ARGUMENTS.read(
            f,
            src.file,
            &e.value,
            &src.describe(Kind::Prompt),
            |f, t| read_argument(f, src, t),
        ),
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
    let setting_keys: Vec<String> = src.settings.iter().map(|s| s.key.clone()).collect();
    let mut text = None;
    if kind == PromptKind::Text {
        if let Some((content, node)) = &content {
            let source = TemplateSource {
                file: src.file,
                span: node.span.clone(),
                text: content,
            };
            template::check(
                f,
                &source,
                src.declared.as_str(),
                &argument_names,
                &setting_keys,
            );
            text = Some(content.clone());
        } else if let Some((path, node)) = &content_file
            && let Some(file) = read_content_file(f, src, path, node)
        {
            let source = TemplateSource {
                file: &file,
                span: 0..file.text.len(),
                text: &file.text,
            };
            template::check(
                f,
                &source,
                src.declared.as_str(),
                &argument_names,
                &setting_keys,
            );
            text = Some(file.text.clone());
        }
    }
    if head.found_errors(f) {
        return None;
    }
    Some(PromptDef {
        name: src.declared.clone(),
        title: head.title,
        description: head.description,
        kind,
        content: text,
        content_file: content_file.map(|(p, _)| p),
        command,
        arguments,
        location: src.location.clone(),
    })
}

impl Named for PromptArgument {
    fn name(&self) -> &str {
        &self.name
    }
}

/// The keys of one `[[arguments]]` table other than the checks every entry gets.
fn read_argument<'a>(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'a>,
) -> Option<(PromptArgument, &'a Node)> {
    let description = t.opt_string(f, "description");
    let required = t.bool(f, "required").unwrap_or(false);
    let complete = read_completion(f, src, t);
    let (name, name_node) = t.string(f, "name")?;
    let argument = PromptArgument {
        name,
        description,
        required,
        complete,
    };
    Some((argument, name_node))
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
    let hint = format!(
        "content_file is relative to the definition root `{}/`",
        src.root
    );
    let problem = if !is_inside_package(path) {
        "points outside the package".to_string()
    } else {
        match package_file::read_text(src.package_dir, &rel) {
            Ok(text) => return Some(SourceFile::new(rel, text)),
            Err(ReadProblem::NotFound) => format!("`{rel}` does not exist"),
            Err(ReadProblem::Io(e)) => format!("`{rel}` cannot be read: {e}"),
            Err(problem) => {
                report_unread(f, &rel, &problem, "save it as UTF-8 text".into());
                return None;
            }
        }
    };
    f.at(
        codes::CONTENT_FILE_MISSING,
        src.file,
        &node.span,
        format!("content_file of prompt `{}`: {problem}", src.declared),
        Some(hint),
    );
    None
}
