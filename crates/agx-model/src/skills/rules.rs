//! The front-matter rules of the Agent Skills specification, each a finding at the key or
//! the character that breaks it (codes in docs/skills.md, "Validation").

use std::collections::BTreeMap;
use std::ops::Range;

use icu_normalizer::ComposingNormalizerBorrowed;

use super::keys;
use super::model::SkillDef;
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::spanned::{Entry, Node, SourceFile, Value};

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

pub const NAME_FORM: &str =
    "1–64 lowercase letters `a-z`, digits and single `-`, not starting or ending with `-`";

/// Whether `name` is a skill name agx accepts (what [`check`] reports one finding per rule
/// for).
pub fn is_valid_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The part of a SKILL.md being checked: its file and where its front matter opens.
pub struct FrontMatter<'a> {
    pub file: &'a SourceFile,
    pub node: &'a Node,
    /// The opening `---`, where a missing key is reported.
    pub anchor: Range<usize>,
}

/// Check the front matter of the skill in folder `folder` (`skills/review`): every rule, every
/// finding. The skill when nothing was an error.
pub fn check(f: &mut Findings, fm: &FrontMatter<'_>, folder: &str) -> Option<SkillDef> {
    let errors_before = f.error_count();
    let file = fm.file;
    let what = format!("the front matter of `{}`", file.rel);
    let known = keys::known_keys();
    let table = Table::read(f, file, fm.node, fm.anchor.clone(), &what, &known)?;
    if let Some(raw) = fm.node.as_table() {
        report_client_keys(f, file, raw);
    }

    let folder_name = folder.rsplit('/').next().unwrap_or(folder);
    let name = required_string(f, fm, &table, "name", folder_name);
    if let Some((name, node)) = &name {
        check_name(f, file, node, name, folder_name);
    }
    let description = required_string(
        f,
        fm,
        &table,
        "description",
        "what the skill does and when to use it",
    );
    if let Some((description, node)) = &description {
        check_length(
            f,
            file,
            node,
            "description",
            description,
            MAX_DESCRIPTION_CHARS,
        );
    }
    let compatibility = optional_string(f, file, &table, "compatibility");
    if let Some((text, node)) = &compatibility {
        check_length(
            f,
            file,
            node,
            "compatibility",
            text,
            MAX_COMPATIBILITY_CHARS,
        );
    }
    let license = optional_string(f, file, &table, "license");
    let metadata = metadata(f, file, &table);
    let allowed_tools = allowed_tools(f, file, &table);

    if f.error_count() > errors_before {
        return None;
    }
    Some(SkillDef {
        name: name?.0,
        description: description?.0,
        folder: folder.to_string(),
        license: license.map(|(s, _)| s),
        compatibility: compatibility.map(|(s, _)| s),
        metadata,
        allowed_tools,
    })
}

fn report_client_keys(f: &mut Findings, file: &SourceFile, raw: &[Entry]) {
    for entry in raw {
        if let Some(clients) = keys::clients_reading(&entry.key) {
            f.at(
                codes::CLIENT_SPECIFIC_KEY,
                file,
                &entry.key_span,
                format!(
                    "`{}` is read by {}; other clients ignore it",
                    entry.key,
                    keys::readers_phrase(clients)
                ),
                Some(
                    "keep it if the skill is meant for those clients; the other clients load the skill without it"
                        .into(),
                ),
            );
        }
    }
}

fn wrong_type(f: &mut Findings, file: &SourceFile, key: &str, node: &Node, expected: &str) {
    let found = match node.value {
        Value::Table(_) => "a mapping",
        Value::Array(_) => "a list",
        Value::Null => "nothing",
        Value::String(_) => "text",
        _ => "a tag or alias",
    };
    let hint = if expected.starts_with("a mapping") {
        format!("write `{key}:` on its own line, then one indented `name: text` line per entry")
    } else {
        format!("write `{key}: ` followed by the text on the same line")
    };
    f.at(
        codes::WRONG_TYPE,
        file,
        &node.span,
        format!("`{key}` must be {expected}, found {found}"),
        Some(hint),
    );
}

/// A string-valued key: `None` (with a finding) when it is of another type.
fn optional_string<'a>(
    f: &mut Findings,
    file: &SourceFile,
    table: &Table<'a>,
    key: &str,
) -> Option<(String, &'a Node)> {
    let entry = table.get(key)?;
    match &entry.value.value {
        Value::String(s) => Some((s.clone(), &entry.value)),
        _ => {
            wrong_type(f, file, key, &entry.value, "text");
            None
        }
    }
}

/// A required non-empty string: missing, of another type, or blank are findings.
fn required_string<'a>(
    f: &mut Findings,
    fm: &FrontMatter<'_>,
    table: &Table<'a>,
    key: &str,
    example: &str,
) -> Option<(String, &'a Node)> {
    let Some(entry) = table.get(key) else {
        f.at(
            codes::MISSING_KEY,
            fm.file,
            &fm.anchor,
            format!("the front matter of `{}` has no `{key}`", fm.file.rel),
            Some(format!(
                "add the line `{key}: {example}` between the `---` lines"
            )),
        );
        return None;
    };
    if entry.value.value == Value::Null {
        f.at(
            codes::INVALID_VALUE,
            fm.file,
            &entry.key_span,
            format!("`{key}` is empty"),
            Some(format!("write it after the colon: `{key}: {example}`")),
        );
        return None;
    }
    let (text, node) = optional_string(f, fm.file, table, key)?;
    if text.trim().is_empty() {
        f.at(
            codes::INVALID_VALUE,
            fm.file,
            &node.span,
            format!("`{key}` is blank"),
            Some(format!("write it after the colon: `{key}: {example}`")),
        );
        return None;
    }
    Some((text, node))
}

/// The bytes of character `index` of `value` in the file, when the value is written as it
/// reads (plain or quoted without escapes); else the whole value.
fn char_span(file: &SourceFile, node: &Node, value: &str, index: usize) -> Range<usize> {
    let raw = file.text.get(node.span.clone()).unwrap_or("");
    match raw.find(value) {
        Some(at) => {
            let (offset, ch) = value
                .char_indices()
                .nth(index)
                .unwrap_or((value.len(), ' '));
            let start = node.span.start + at + offset;
            start..start + ch.len_utf8()
        }
        None => node.span.clone(),
    }
}

fn nfkc(s: &str) -> String {
    ComposingNormalizerBorrowed::new_nfkc()
        .normalize(s)
        .into_owned()
}

/// Each rule of the name is its own finding, as the reference validator reports them.
fn check_name(f: &mut Findings, file: &SourceFile, node: &Node, name: &str, folder_name: &str) {
    let bad = |f: &mut Findings, span: Range<usize>, message: String, hint: String| {
        f.at(codes::INVALID_ITEM_NAME, file, &span, message, Some(hint));
    };
    let errors_before = f.error_count();
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        bad(
            f,
            node.span.clone(),
            format!("skill name `{name}` has {count} characters, more than {MAX_NAME_CHARS}"),
            format!("shorten it (and its folder) to {MAX_NAME_CHARS} characters at most"),
        );
    }
    if let Some(i) = name.chars().position(char::is_uppercase) {
        bad(
            f,
            char_span(file, node, name, i),
            format!("skill name `{name}` must be lowercase"),
            if name.to_lowercase() == folder_name {
                format!("write `{folder_name}`")
            } else {
                format!(
                    "write `{}`, and rename the folder to match",
                    name.to_lowercase()
                )
            },
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        let i = if name.starts_with('-') { 0 } else { count - 1 };
        bad(
            f,
            char_span(file, node, name, i),
            format!("skill name `{name}` starts or ends with `-`"),
            format!("write `{}`", name.trim_matches('-')),
        );
    }
    if let Some(at) = name.find("--") {
        let i = name[..at].chars().count();
        bad(
            f,
            char_span(file, node, name, i),
            format!("skill name `{name}` has `--`"),
            "use single `-` between words".into(),
        );
    }
    let invalid = name.chars().position(|c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c.is_uppercase())
    });
    if let Some(i) = invalid {
        let c = name.chars().nth(i).unwrap_or(' ');
        // A combining mark or a look-alike reads better with its code point.
        let shown = if c.is_ascii_graphic() {
            format!("`{c}`")
        } else {
            format!("U+{:04X} (`{c}`)", u32::from(c))
        };
        let normal = nfkc(name);
        let hint = if normal != name
            && normal
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            format!("write it as `{normal}` (the same name in plain ASCII)")
        } else {
            format!(
                "a skill name is {NAME_FORM}; agx keeps names ASCII so that a skill's folder has one spelling on every file system"
            )
        };
        bad(
            f,
            char_span(file, node, name, i),
            format!(
                "skill name `{name}` has the character {shown}, which a skill name cannot have"
            ),
            hint,
        );
    }
    // Compared as the reference validator compares them: after NFKC normalisation, so a
    // composed and a decomposed `é` are one name (the character check above still refuses it).
    if nfkc(name) != nfkc(folder_name) {
        // Renaming the folder helps only when the name itself is well formed.
        let rename = if f.error_count() == errors_before {
            format!(", or rename the folder to `{name}`")
        } else {
            String::new()
        };
        f.at(
            codes::NAME_MISMATCH,
            file,
            &node.span,
            format!("skill name `{name}` differs from its folder's name `{folder_name}`"),
            Some(format!(
                "the name must equal the folder's name: write `name: {folder_name}`{rename}"
            )),
        );
    }
}

fn check_length(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    key: &str,
    text: &str,
    max: usize,
) {
    let count = text.chars().count();
    if count > max {
        f.at(
            codes::INVALID_VALUE,
            file,
            &node.span,
            format!("`{key}` has {count} characters, more than {max}"),
            Some(format!(
                "shorten it to {max} characters; longer text belongs in the body of SKILL.md"
            )),
        );
    }
}

/// `metadata`: a mapping of string to string.
fn metadata(f: &mut Findings, file: &SourceFile, table: &Table<'_>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(entry) = table.get("metadata") else {
        return out;
    };
    let Some(entries) = entry.value.as_table() else {
        wrong_type(
            f,
            file,
            "metadata",
            &entry.value,
            "a mapping of names to text",
        );
        return out;
    };
    for e in entries {
        match &e.value.value {
            Value::String(s) => {
                out.insert(e.key.clone(), s.clone());
            }
            _ => wrong_type(f, file, &format!("metadata.{}", e.key), &e.value, "text"),
        }
    }
    out
}

/// `allowed-tools`: space-separated text; a YAML list of strings is accepted too (the
/// reference validator accepts both) and joined with spaces.
fn allowed_tools(f: &mut Findings, file: &SourceFile, table: &Table<'_>) -> Option<String> {
    let entry = table.get("allowed-tools")?;
    match &entry.value.value {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let mut tools = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str() {
                    Some(s) => tools.push(s.to_string()),
                    None => wrong_type(f, file, "allowed-tools", item, "a tool name"),
                }
            }
            Some(tools.join(" "))
        }
        _ => {
            wrong_type(
                f,
                file,
                "allowed-tools",
                &entry.value,
                "space-separated tool names",
            );
            None
        }
    }
}
