//! A value tree that remembers where every key and value came from, built from TOML
//! (`toml::de::DeTable`) or JSON-with-comments (`jsonc_parser`'s AST), so that validation can
//! point at file, line and column.

use std::ops::Range;

use super::model::SourceLocation;

/// Deeper nesting than this is refused before parsing: no definition needs it, and the
/// parsers and destructors recurse.
pub const MAX_NESTING: usize = 128;

/// A value and the byte range it spans in its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Range<usize>,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    String(String),
    Integer(i64),
    Float(f64),
    Bool(bool),
    /// A TOML datetime, kept as written.
    Datetime(String),
    Null,
    Array(Vec<Node>),
    /// Entries in source order.
    Table(Vec<Entry>),
}

/// One key of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
}

impl Node {
    /// A short description of the value's type, for "expected …, found …" messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Datetime(_) => "a datetime",
            Value::Null => "null",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_table(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Table(t) => Some(t),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The node at a JSON pointer (`/properties/city/type`), for pointing into schemas.
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        let mut node = self;
        for raw in pointer.split('/').skip(1) {
            let segment = raw.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Table(t) => &t.iter().find(|e| e.key == segment)?.value,
                Value::Array(a) => a.get(segment.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The value as JSON (for schemas, enums and defaults).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::String(s) | Value::Datetime(s) => s.clone().into(),
            Value::Integer(i) => (*i).into(),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Value::Bool(b) => (*b).into(),
            Value::Null => serde_json::Value::Null,
            Value::Array(a) => a.iter().map(Node::to_json).collect(),
            Value::Table(t) => t
                .iter()
                .map(|e| (e.key.clone(), e.value.to_json()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}

/// A syntax error: message and where.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub message: String,
    pub span: Range<usize>,
}

/// The text of one file, with its path relative to the package, and a line index to turn
/// byte offsets into 1-based lines and columns.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub rel: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(rel: impl Into<String>, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            rel: rel.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset; offsets past the end or
    /// inside a character are clamped.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        (line, self.text[start..end].chars().count() + 1)
    }

    /// The byte offset of a 1-based line and column (the inverse of [`SourceFile::line_col`]).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len());
        let rest = &self.text[start..];
        start
            + rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(i, _)| i)
    }

    pub fn location(&self, offset: usize) -> SourceLocation {
        let (line, column) = self.line_col(offset);
        SourceLocation {
            file: self.rel.clone(),
            line,
            column,
        }
    }

    /// Where a span starts, and how many characters of it lie on its first line.
    pub fn span_location(&self, span: &Range<usize>) -> (SourceLocation, usize) {
        let location = self.location(span.start);
        let start = span.start.min(self.text.len());
        let end = span.end.clamp(start, self.text.len());
        let text = self.text.get(start..end).unwrap_or("");
        let length = text.lines().next().unwrap_or("").chars().count();
        (location, length)
    }

    pub fn is_json(&self) -> bool {
        self.rel.ends_with(".json")
    }

    /// Parse as TOML or JSON, by the file's extension.
    pub fn parse(&self) -> Result<Node, SyntaxError> {
        if self.is_json() {
            parse_json(&self.text)
        } else {
            parse_toml(&self.text)
        }
    }
}

/// The deepest bracket nesting in a text, counted roughly (strings are not skipped, which only
/// over-counts): a guard against inputs that would exhaust the stack.
fn rough_nesting(text: &str) -> (usize, usize) {
    let (mut depth, mut max, mut at) = (0usize, 0usize, 0usize);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    max = depth;
                    at = i;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (max, at)
}

fn check_nesting(text: &str) -> Result<(), SyntaxError> {
    let (depth, at) = rough_nesting(text);
    if depth > MAX_NESTING {
        return Err(SyntaxError {
            message: format!("nesting is deeper than {MAX_NESTING} levels"),
            span: at..at + 1,
        });
    }
    Ok(())
}

pub fn parse_toml(text: &str) -> Result<Node, SyntaxError> {
    check_nesting(text)?;
    let table = toml::de::DeTable::parse(text).map_err(|e| SyntaxError {
        message: e.message().trim_end().to_string(),
        span: e.span().unwrap_or(0..0),
    })?;
    let span = table.span();
    Ok(Node {
        span,
        value: Value::Table(toml_table(table.get_ref())),
    })
}

fn toml_table(table: &toml::de::DeTable<'_>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = table
        .iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            key_span: k.span(),
            value: toml_node(v),
        })
        .collect();
    // The map is sorted by key; findings read better in source order.
    entries.sort_by_key(|e| e.key_span.start);
    entries
}

fn toml_node(v: &toml::Spanned<toml::de::DeValue<'_>>) -> Node {
    use toml::de::DeValue;
    let value = match v.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            match i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()) {
                Ok(n) => Value::Integer(n),
                // Out of range for i64: keep it as a float so checks can still say "too big".
                Err(_) => Value::Float(f64::INFINITY),
            }
        }
        DeValue::Float(f) => Value::Float(match f.as_str().replace('_', "").as_str() {
            "inf" | "+inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" | "+nan" | "-nan" => f64::NAN,
            s => s.parse().unwrap_or(f64::NAN),
        }),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::Datetime(d.to_string()),
        DeValue::Array(a) => Value::Array(a.iter().map(toml_node).collect()),
        DeValue::Table(t) => Value::Table(toml_table(t)),
    };
    Node {
        span: v.span(),
        value,
    }
}

pub fn parse_json(text: &str) -> Result<Node, SyntaxError> {
    check_nesting(text)?;
    let options = jsonc_parser::ParseOptions {
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
        ..Default::default()
    };
    let parsed = jsonc_parser::parse_to_ast(text, &Default::default(), &options).map_err(|e| {
        let range = e.range();
        SyntaxError {
            message: e.kind().to_string(),
            span: range.start..range.end,
        }
    })?;
    match parsed.value {
        Some(v) => Ok(json_node(&v)),
        None => Err(SyntaxError {
            message: "the file holds no JSON value".into(),
            span: 0..0,
        }),
    }
}

fn json_node(v: &jsonc_parser::ast::Value<'_>) -> Node {
    use jsonc_parser::ast::{ObjectPropName, Value as J};
    let (range, value) = match v {
        J::StringLit(s) => (s.range, Value::String(s.value.to_string())),
        J::NumberLit(n) => (
            n.range,
            match n.value.parse::<i64>() {
                Ok(i) => Value::Integer(i),
                Err(_) => Value::Float(n.value.parse().unwrap_or(f64::NAN)),
            },
        ),
        J::BooleanLit(b) => (b.range, Value::Bool(b.value)),
        J::NullKeyword(n) => (n.range, Value::Null),
        J::Array(a) => (
            a.range,
            Value::Array(a.elements.iter().map(json_node).collect()),
        ),
        J::Object(o) => (
            o.range,
            Value::Table(
                o.properties
                    .iter()
                    .map(|p| {
                        let (key, key_range) = match &p.name {
                            ObjectPropName::String(s) => (s.value.to_string(), s.range),
                            ObjectPropName::Word(w) => (w.value.to_string(), w.range),
                        };
                        Entry {
                            key,
                            key_span: key_range.start..key_range.end,
                            value: json_node(&p.value),
                        }
                    })
                    .collect(),
            ),
        ),
    };
    Node {
        span: range.start..range.end,
        value,
    }
}

/// A JSON key as the snake_case key of docs/package-format.md: `Name` → `name`, `InputSchema` →
/// `input_schema`, `readOnly` → `read_only`.
pub fn normalize_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_spans_point_at_keys_and_values() {
        let file = SourceFile::new("a.toml", "[package]\nname = \"x\"\nversion = 1\n".into());
        let root = file.parse().unwrap();
        let package = &root.as_table().unwrap()[0];
        assert_eq!(package.key, "package");
        let entries = package.value.as_table().unwrap();
        assert_eq!(entries[0].key, "name");
        assert_eq!(file.location(entries[0].key_span.start).line, 2);
        let (loc, len) = file.span_location(&entries[1].value.span);
        assert_eq!((loc.line, loc.column, len), (3, 11, 1));
        assert_eq!(entries[1].value.value, Value::Integer(1));
    }

    #[test]
    fn json_spans_and_values() {
        let file = SourceFile::new(
            "a.json",
            "{\n  \"Name\": \"x\",\n  \"n\": [1, 2.5, null]\n}".into(),
        );
        let root = file.parse().unwrap();
        let entries = root.as_table().unwrap();
        assert_eq!(file.location(entries[0].key_span.start).column, 3);
        assert_eq!(
            entries[1].value.to_json(),
            serde_json::json!([1, 2.5, null])
        );
        assert_eq!(root.pointer("/n/1").unwrap().value, Value::Float(2.5));
        assert!(root.pointer("/n/9").is_none());
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse_toml("a = \n").unwrap_err();
        assert!(!err.message.is_empty());
        let err = parse_json("{\"a\": }").unwrap_err();
        assert!(err.span.start > 0);
        let deep = "a = ".to_string() + &"[".repeat(100_000);
        assert!(parse_toml(&deep).unwrap_err().message.contains("nesting"));
    }

    #[test]
    fn deep_nesting_is_parsed_or_refused_without_panicking() {
        for n in [50, MAX_NESTING - 1, MAX_NESTING + 1, 100_000] {
            let toml_arrays = format!("a = {}{}", "[".repeat(n), "]".repeat(n));
            let toml_tables = format!("a = {}1{}", "{b = ".repeat(n), "}".repeat(n));
            let json = format!("{}1{}", "{\"a\": ".repeat(n), "}".repeat(n));
            let results = [
                parse_toml(&toml_arrays),
                parse_toml(&toml_tables),
                parse_json(&json),
            ];
            for result in results {
                match result {
                    Ok(_) => assert!(n <= MAX_NESTING),
                    Err(e) => assert!(n > 50 && !e.message.is_empty()),
                }
            }
        }
    }

    #[test]
    fn columns_count_characters() {
        let file = SourceFile::new("a", "é = 1\nxy".into());
        assert_eq!(file.line_col(4), (1, 4));
        assert_eq!(file.line_col(7), (2, 1));
        assert_eq!(file.line_col(999), (2, 3));
    }

    #[test]
    fn keys_normalize_to_snake_case() {
        assert_eq!(normalize_key("Name"), "name");
        assert_eq!(normalize_key("InputSchema"), "input_schema");
        assert_eq!(normalize_key("readOnly"), "read_only");
        assert_eq!(normalize_key("content_file"), "content_file");
    }
}
