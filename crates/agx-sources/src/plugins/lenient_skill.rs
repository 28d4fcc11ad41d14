//! A plugin's skill that Claude Code loads but the Agent Skills rules refuse (docs/plugins.md,
//! "Skills Claude Code loads"): its front matter rewritten so every client reads it. The
//! name becomes the folder's, keys no client reads are left out, an over-long description
//! is shortened, a missing one taken from the first paragraph (as Claude Code does). Only the
//! staged copy is rewritten; the body is kept byte for byte.

use agx_model::manifest::spanned::{Node, Value};
use agx_model::skills::front_matter::{self, SplitError};
use agx_model::skills::{keys, rules};

/// A rewritten `SKILL.md` and what changed, for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Adapted {
    pub text: String,
    /// `name `Foo Bar` → `foo-bar``, `left out `version`, `tools``, …
    pub changes: Vec<String>,
}

/// `text` (a `SKILL.md`) with front matter naming the skill `name`; `None` when it cannot
/// be rewritten (invalid YAML, a front matter that is not a block mapping): the skill is then
/// not carried, for the reason validation gives.
pub(crate) fn adapt(text: &str, name: &str) -> Option<Adapted> {
    let (yaml, fence_and_body, body) = match front_matter::split(text) {
        Ok(split) => (
            split.yaml.clone(),
            &text[split.yaml.end..],
            &text[split.body.clone()],
        ),
        // Claude Code loads a SKILL.md without front matter: its name is the folder's.
        Err(SplitError::NoOpening) => (0..0, "", text),
        Err(SplitError::NotClosed) => return None,
    };
    let entries = if fence_and_body.is_empty() {
        Vec::new()
    } else {
        match front_matter::parse(text, &yaml).ok()?.value {
            Value::Table(entries) => entries,
            Value::Null => Vec::new(),
            _ => return None,
        }
    };
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let starts: Vec<usize> = entries
        .iter()
        .map(|e| line_start(e.key_span.start))
        .collect();
    // A flow mapping (`{name: x, description: y}`) has several keys on one line.
    if starts.windows(2).any(|w| w[0] >= w[1]) || starts.first().is_some_and(|s| *s < yaml.start) {
        return None;
    }

    let mut changes = Vec::new();
    let mut kept = String::new();
    let mut left_out = Vec::new();
    let mut description = None;
    let mut old_name = None;
    let known = keys::known_keys();
    for (i, entry) in entries.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(yaml.end);
        let raw = &text[starts[i]..end];
        match entry.key.as_str() {
            "name" => old_name = Some(scalar(&entry.value)),
            "description" => description = Some((scalar(&entry.value), raw)),
            key if known.contains(&key) => kept.push_str(raw),
            key => left_out.push(format!("`{key}`")),
        }
    }
    match old_name {
        Some(Some(old)) if old == name => {}
        Some(Some(old)) => changes.push(format!("name `{old}` → `{name}`, after its folder")),
        _ => changes.push(format!("name `{name}`, after its folder")),
    }
    let description_line = match description {
        Some((Some(text), _)) if text.chars().count() > rules::MAX_DESCRIPTION_CHARS => {
            changes.push(format!(
                "description shortened from {} to {} characters",
                text.chars().count(),
                rules::MAX_DESCRIPTION_CHARS
            ));
            quoted_line("description", &shorten(&text))
        }
        Some((Some(text), raw)) if !text.trim().is_empty() => with_newline(raw),
        _ => {
            let first = first_paragraph(body)?;
            changes.push("description taken from its first paragraph".into());
            quoted_line("description", &shorten(&first))
        }
    };
    if !left_out.is_empty() {
        changes.push(format!(
            "left out {} (keys the Agent Skills rules do not define)",
            left_out.join(", ")
        ));
    }
    let mut out = String::from("---\n");
    out.push_str(&text[yaml.start..starts.first().copied().unwrap_or(yaml.end)]);
    out.push_str(&quoted_line("name", name));
    out.push_str(&description_line);
    out.push_str(&with_newline(&kept));
    if fence_and_body.is_empty() {
        out.push_str("---\n");
        out.push_str(body);
    } else {
        out.push_str(fence_and_body);
    }
    Some(Adapted { text: out, changes })
}

/// A scalar's text; `None` for a mapping, list or nothing.
fn scalar(node: &Node) -> Option<String> {
    match &node.value {
        Value::String(s) => Some(s.clone()),
        Value::Integer(n) => Some(n.to_string()),
        Value::Float(x) => Some(x.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `key: "value"`: a JSON string is a YAML double-quoted scalar.
fn quoted_line(key: &str, value: &str) -> String {
    format!("{key}: {}\n", serde_json::Value::from(value))
}

fn with_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// At most [`rules::MAX_DESCRIPTION_CHARS`] characters, ending with `…` when cut.
fn shorten(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= rules::MAX_DESCRIPTION_CHARS {
        return text.to_string();
    }
    let cut: String = text
        .chars()
        .take(rules::MAX_DESCRIPTION_CHARS - 1)
        .collect();
    format!("{}…", cut.trim_end())
}

/// The body's first paragraph that is not a heading, its lines joined.
fn first_paragraph(body: &str) -> Option<String> {
    let mut lines = Vec::new();
    for line in body.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            if !lines.is_empty() {
                break;
            }
            continue;
        }
        lines.push(line);
    }
    (!lines.is_empty()).then(|| lines.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_no_client_reads_are_left_out_and_the_name_is_the_folders() {
        let text = "---\nname: Meeting Notes\nversion: 1.0\ndescription: >\n  Takes notes.\n  Twice.\ntools: [Read]\nallowed-tools: Read\n---\n# Notes\nBody `x`\n";
        let adapted = adapt(text, "meeting-notes").unwrap();
        assert_eq!(
            adapted.text,
            "---\nname: \"meeting-notes\"\ndescription: >\n  Takes notes.\n  Twice.\nversion: 1.0\nallowed-tools: Read\n---\n# Notes\nBody `x`\n"
        );
        assert_eq!(
            adapted.changes,
            [
                "name `Meeting Notes` → `meeting-notes`, after its folder",
                "left out `tools` (keys the Agent Skills rules do not define)"
            ]
        );
    }

    #[test]
    fn an_over_long_description_is_shortened_and_a_missing_one_taken_from_the_body() {
        let long = "word ".repeat(400);
        let adapted = adapt(
            &format!("---\nname: x\ndescription: {long}\n---\nBody\n"),
            "x",
        )
        .unwrap();
        let node = front_matter::split(&adapted.text).unwrap();
        let parsed = front_matter::parse(&adapted.text, &node.yaml).unwrap();
        let Value::Table(entries) = parsed.value else {
            panic!()
        };
        let description = scalar(&entries[1].value).unwrap();
        assert_eq!(description.chars().count(), rules::MAX_DESCRIPTION_CHARS);
        assert!(description.ends_with('…'));
        assert!(
            adapted.changes[0].contains("shortened from 1999 to 1024"),
            "{:?}",
            adapted.changes
        );

        let adapted = adapt(
            "# Title\n\nSummarises a \"thread\".\nShort.\n\nMore.\n",
            "sum",
        )
        .unwrap();
        assert_eq!(
            adapted.text,
            "---\nname: \"sum\"\ndescription: \"Summarises a \\\"thread\\\". Short.\"\n---\n# Title\n\nSummarises a \"thread\".\nShort.\n\nMore.\n"
        );
    }

    #[test]
    fn front_matter_agx_cannot_rewrite_is_left_to_validation() {
        assert_eq!(adapt("---\nname: x\n", "x"), None);
        assert_eq!(adapt("---\n{name: x, description: y}\n---\n", "x"), None);
        assert_eq!(adapt("---\nname: [\n---\n", "x"), None);
        // Nothing to describe the skill with.
        assert_eq!(adapt("---\nname: x\n---\n", "x"), None);
    }
}
