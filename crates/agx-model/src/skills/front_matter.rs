//! Splitting `SKILL.md` into its YAML front matter and Markdown body, and reading the front
//! matter into the spanned value tree validation uses for every other file, so that each
//! finding points at the file's own line and column.

use std::ops::Range;

use yaml_edit::YamlNode;

use crate::manifest::spanned::{Entry, Node, SyntaxError, Value};

/// The delimiter line that opens and closes the front matter.
const FENCE: &str = "---";

/// Where the parts of a `SKILL.md` lie, as byte ranges of the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML between the two fences.
    pub yaml: Range<usize>,
    /// Everything after the closing fence's line.
    pub body: Range<usize>,
}

/// Why a `SKILL.md` has no front matter to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// The first line is not `---`.
    NoOpening,
    /// No `---` line closes the block opened on line 1.
    NotClosed,
}

/// Lines of `text` with the byte range each covers, line break included.
fn lines_with_ranges(text: &str) -> impl Iterator<Item = (&str, Range<usize>)> {
    let mut start = 0;
    text.split_inclusive('\n').map(move |raw| {
        let range = start..start + raw.len();
        start = range.end;
        (raw.trim_end_matches(['\n', '\r']), range)
    })
}

/// Find the front matter: a first line `---`, then YAML, then a line `---`. Trailing blanks on
/// a fence line are allowed, as the clients' parsers allow them.
pub fn split(text: &str) -> Result<Split, SplitError> {
    let mut lines = lines_with_ranges(text);
    match lines.next() {
        Some((first, _)) if first.trim_end() == FENCE => {}
        _ => return Err(SplitError::NoOpening),
    }
    let yaml_start = text.find('\n').map_or(text.len(), |i| i + 1);
    for (line, range) in lines {
        if line.trim_end() == FENCE {
            return Ok(Split {
                yaml: yaml_start..range.start,
                body: range.end..text.len(),
            });
        }
    }
    Err(SplitError::NotClosed)
}

/// The byte offset of a 1-based line and column (in characters) of `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = lines_with_ranges(text)
        .nth(line.saturating_sub(1))
        .map_or(text.len(), |(_, r)| r.start);
    let rest = &text[line_start..];
    let into_line = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    line_start + into_line
}

/// Parse the front matter (`text[yaml]`) into a spanned tree whose spans are offsets of the
/// whole file. Every scalar is read as a string, as the reference validator reads them
/// (`version: 1.0` is the text `1.0`); an empty value or `~` is `Null`.
pub fn parse(text: &str, yaml: &Range<usize>) -> Result<Node, SyntaxError> {
    let source = &text[yaml.clone()];
    let doc = agx_edit::parse_yaml_document(source).map_err(|e| {
        let at = yaml.start + offset_of(source, e.line, e.column);
        SyntaxError {
            message: e.message,
            span: at..at + 1,
        }
    })?;
    let whole = yaml.start..yaml.end;
    match doc.as_mapping() {
        Some(mapping) => Ok(to_node(&YamlNode::Mapping(mapping), yaml.start)),
        // An empty front matter is an empty mapping: the missing keys are reported as such.
        None if source.trim().is_empty() => Ok(Node {
            span: whole,
            value: Value::Table(Vec::new()),
        }),
        None => {
            let node = doc
                .as_sequence()
                .map(|s| YamlNode::Sequence(s).byte_range())
                .map_or(whole.clone(), |r| {
                    yaml.start + r.start as usize..yaml.start + r.end as usize
                });
            Ok(Node {
                span: node,
                value: Value::String(source.trim().to_string()),
            })
        }
    }
}

fn span_of(node: &YamlNode, base: usize) -> Range<usize> {
    let r = node.byte_range();
    base + r.start as usize..base + r.end as usize
}

fn to_node(node: &YamlNode, base: usize) -> Node {
    let span = span_of(node, base);
    let value = match node {
        YamlNode::Scalar(s) if s.is_null() && !s.is_quoted() => Value::Null,
        YamlNode::Scalar(s) => Value::String(s.as_string()),
        YamlNode::Mapping(m) => Value::Table(
            m.entries()
                .filter_map(|entry| {
                    let key = entry.key_node()?;
                    let key_span = span_of(&key, base);
                    let key_text = match &key {
                        YamlNode::Scalar(s) => s.as_string(),
                        other => other.to_string(),
                    };
                    let value = match entry.value_node() {
                        Some(v) => to_node(&v, base),
                        None => Node {
                            span: key_span.end..key_span.end,
                            value: Value::Null,
                        },
                    };
                    Some(Entry {
                        key: key_text,
                        key_span,
                        value,
                    })
                })
                .collect(),
        ),
        YamlNode::Sequence(seq) => Value::Array(seq.values().map(|v| to_node(&v, base)).collect()),
        // Tags and aliases have no place in a skill's front matter: kept as their text, so
        // a check that wants a plain value reports them.
        YamlNode::TaggedNode(_) | YamlNode::Alias(_) => Value::Datetime(node.to_string()),
    };
    Node { span, value }
}

/// A top-level string of `SKILL.md`'s front matter (`version: 1.2.0`, which ToolHive reads),
/// `None` when absent, not a string, or the front matter does not parse.
pub fn top_level(text: &str, key: &str) -> Option<String> {
    let split = split(text).ok()?;
    let node = parse(text, &split.yaml).ok()?;
    let Value::Table(entries) = node.value else {
        return None;
    };
    entries
        .into_iter()
        .find(|e| e.key == key)
        .and_then(|e| e.value.as_str().map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_the_yaml_and_the_body() {
        let text = "---\nname: a\n---\n# Body\n";
        let s = split(text).unwrap();
        assert_eq!(&text[s.yaml.clone()], "name: a\n");
        assert_eq!(&text[s.body], "# Body\n");
    }

    #[test]
    fn split_accepts_crlf_and_trailing_blanks_on_fences() {
        let text = "--- \r\nname: a\r\n---\r\nbody";
        let s = split(text).unwrap();
        assert_eq!(&text[s.yaml], "name: a\r\n");
        assert_eq!(&text[s.body], "body");
    }

    #[test]
    fn split_refuses_a_missing_or_unclosed_block() {
        assert_eq!(split("# Title\n---\n"), Err(SplitError::NoOpening));
        assert_eq!(split(""), Err(SplitError::NoOpening));
        assert_eq!(split("---\nname: a\n"), Err(SplitError::NotClosed));
        // `----` is not a fence.
        assert_eq!(split("---\nname: a\n----\n"), Err(SplitError::NotClosed));
    }

    #[test]
    fn spans_are_offsets_of_the_whole_file() {
        let text =
            "---\nname: my-skill\ndescription: \"Quoted: yes\"\nmetadata:\n  version: 1.0\n---\n";
        let s = split(text).unwrap();
        let node = parse(text, &s.yaml).unwrap();
        let table = node.as_table().unwrap();
        assert_eq!(table[0].key, "name");
        assert_eq!(&text[table[0].key_span.clone()], "name");
        assert_eq!(table[0].value.as_str(), Some("my-skill"));
        assert_eq!(&text[table[0].value.span.clone()], "my-skill");
        assert_eq!(table[1].value.as_str(), Some("Quoted: yes"));
        let meta = table[2].value.as_table().unwrap();
        assert_eq!(meta[0].value.as_str(), Some("1.0"));
    }

    #[test]
    fn block_scalars_and_empty_values_read_as_yaml_means_them() {
        let text = "---\ndescription: >\n  one\n  two\nlicense:\n---\n";
        let node = parse(text, &split(text).unwrap().yaml).unwrap();
        let table = node.as_table().unwrap();
        assert_eq!(table[0].value.as_str(), Some("one two\n"));
        assert_eq!(table[1].value.value, Value::Null);
    }

    #[test]
    fn a_syntax_error_points_into_the_file() {
        let text = "---\nname: a\nname: b\n---\n";
        let e = parse(text, &split(text).unwrap().yaml).unwrap_err();
        assert!(e.span.start >= 4, "{e:?}");
        assert!(e.message.to_lowercase().contains("duplicate"), "{e:?}");
    }

    #[test]
    fn a_top_level_string_is_read() {
        let text = "---\nname: review\nversion: 1.2.0\nmetadata:\n  version: 9.9.9\n---\nBody\n";
        assert_eq!(top_level(text, "version").as_deref(), Some("1.2.0"));
        assert_eq!(top_level(text, "license"), None);
        assert_eq!(top_level("no front matter", "version"), None);
    }
}
