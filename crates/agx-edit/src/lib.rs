//! Lossless editors for client config files. Each keeps every byte it does not need to
//! change; a file that does not parse is refused with its line and column.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

mod json;
mod toml;
mod yaml;

pub use toml::to_toml as json_to_toml;
pub use yaml::parse_document as parse_yaml_document;

use serde_json::Value;

/// Where the servers live inside a file: a key path from the root, and whether the
/// container is a map keyed by entry key or a list of items with a `name` (Continue).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    pub path: Vec<String>,
    pub list_by_name: bool,
}

impl Container {
    pub fn dotted(&self) -> String {
        self.path.join(".")
    }
}

/// A file that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// An edit that the file's structure does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("`{0}` holds something other than a {1}")]
    WrongType(String, &'static str),
    /// The client reads only the last copy; removing that one would bring an older one back.
    #[error("`{key}` appears {count} times in `{container}`")]
    DuplicateKey {
        container: String,
        key: String,
        count: usize,
    },
}

impl EditError {
    pub fn hint(&self) -> String {
        match self {
            EditError::WrongType(..) => {
                "fix that key by hand, or pass --config with another file".into()
            }
            EditError::DuplicateKey { key, .. } => {
                format!(
                    "keep one `{key}` entry (the client reads the last one), then run the command again"
                )
            }
        }
    }
}

/// A parsed config file that can be edited and written back.
pub trait ConfigDoc {
    /// The value at `key` inside the container, as JSON.
    fn get(&self, at: &Container, key: &str) -> Option<Value>;
    /// Every entry of the container, in file order.
    fn entries(&self, at: &Container) -> Vec<(String, Value)>;
    /// Insert or replace `key`, creating the container when missing.
    fn set(&mut self, at: &Container, key: &str, value: &Value) -> Result<(), EditError>;
    /// Remove `key`; false when it was not there.
    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError>;
    /// The whole file as text.
    fn text(&self) -> String;
}

/// The text format of a client's config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Strict JSON: comments would make the client treat the file as corrupt.
    Json,
    /// JSON with comments and trailing commas (kept as they are).
    Jsonc,
    Toml,
    Yaml,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Jsonc => "jsonc",
            Format::Toml => "toml",
            Format::Yaml => "yaml",
        }
    }
}

/// Parse `text` in `format`. An empty (or whitespace-only) text is an empty document.
/// A UTF-8 byte order mark (which some Windows editors write) is set aside and kept.
pub fn parse(format: Format, text: &str) -> Result<Box<dyn ConfigDoc>, SyntaxError> {
    if let Some(rest) = text.strip_prefix(BOM) {
        return Ok(Box::new(WithBom(parse(format, rest)?)));
    }
    let doc: Box<dyn ConfigDoc> = match format {
        Format::Json => Box::new(json::JsonDoc::parse(text, false)?),
        Format::Jsonc => Box::new(json::JsonDoc::parse(text, true)?),
        Format::Toml => Box::new(toml::TomlDoc::parse(text)?),
        Format::Yaml => Box::new(yaml::YamlDoc::parse(text)?),
    };
    // Every edit is lossless only if the untouched document prints back as read; a parser
    // that drops a byte somewhere (a lone carriage return in a YAML comment, found by the
    // client_edit fuzz target) would change the user's file, so such a file is refused.
    let printed = doc.text();
    if printed != text {
        return Err(not_kept(text, &printed));
    }
    Ok(doc)
}

/// Where `printed` first differs from `text`, as a refusal of the file.
fn not_kept(text: &str, printed: &str) -> SyntaxError {
    let at = text
        .char_indices()
        .zip(printed.chars())
        .find(|((_, a), b)| a != b)
        .map_or(text.len().min(printed.len()), |((i, _), _)| i);
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let found = match text[at..].chars().next() {
        Some('\r') => "a carriage return that does not end a line".to_string(),
        Some(c) if c.is_control() => format!("the control character U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
        None => "the end of the file".to_string(),
    };
    SyntaxError {
        line,
        column,
        message: format!(
            "agx could not edit this file without changing it here ({found}); remove or replace that character, then run the command again"
        ),
    }
}

const BOM: char = '\u{feff}';

/// A document whose file starts with a byte order mark: edited without it, written with it.
struct WithBom(Box<dyn ConfigDoc>);

impl ConfigDoc for WithBom {
    fn get(&self, at: &Container, key: &str) -> Option<Value> {
        self.0.get(at, key)
    }

    fn entries(&self, at: &Container) -> Vec<(String, Value)> {
        self.0.entries(at)
    }

    fn set(&mut self, at: &Container, key: &str, value: &Value) -> Result<(), EditError> {
        self.0.set(at, key, value)
    }

    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError> {
        self.0.remove(at, key)
    }

    fn text(&self) -> String {
        format!("{BOM}{}", self.0.text())
    }
}

/// Whether a file ends with a line break, so that printing it back keeps its last byte: a
/// file that ended with one (or a new, empty one, once it has content) ends with one; a file
/// that did not, and a file that is still blank, stays as it was.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FinalNewline(bool);

impl FinalNewline {
    pub(crate) fn of(text: &str) -> Self {
        FinalNewline(text.trim().is_empty() || text.ends_with('\n'))
    }

    pub(crate) fn apply(self, mut printed: String) -> String {
        if self.0 && !printed.trim().is_empty() && !printed.ends_with('\n') {
            printed.push('\n');
        }
        printed
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod lossless_tests {
    use super::*;

    #[test]
    fn a_file_the_editor_would_change_is_refused_with_its_place() {
        // The client_edit fuzz target's finding: a carriage return doubled before a line
        // feed, which a parser printed back as one. Any format must keep it or refuse it.
        let text = "# CodeCodexnodexn\r\r\n#";
        for format in [Format::Yaml, Format::Toml, Format::Json, Format::Jsonc] {
            if let Ok(doc) = parse(format, text) {
                assert_eq!(doc.text(), text, "{format:?}");
            }
        }
        // toml_edit reads it, and would print the comment's line end as one `\r\n`.
        let error = parse(Format::Toml, text).err().expect("refused");
        assert_eq!((error.line, error.column), (1, 19), "{error}");
        assert!(error.message.contains("carriage return"), "{error}");
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn servers() -> Container {
        Container {
            path: vec!["mcpServers".into()],
            list_by_name: false,
        }
    }

    fn refused(format: Format, text: &str) -> SyntaxError {
        match parse(format, text) {
            Ok(doc) => panic!("accepted, would write:\n{}", doc.text()),
            Err(e) => e,
        }
    }

    /// toml_edit prints every line ending as LF: a Windows user's CRLF file came back
    /// changed on every line (found by fuzz/ci.sh: `# Codexnfirs": {},\r\n#`).
    #[test]
    fn toml_with_crlf_line_endings_prints_back_and_edits_in_crlf() {
        let servers = Container {
            path: vec!["mcp_servers".into()],
            list_by_name: false,
        };
        for text in [
            "# Codexnfirs\": {},\r\n#",
            "# c\r\n[mcp_servers.a]\r\ncommand = \"x\"\r\n",
        ] {
            let mut doc = parse(Format::Toml, text).unwrap();
            assert_eq!(doc.text(), text);
            doc.set(&servers, "b", &json!({"command": "y"})).unwrap();
            let added = doc.text();
            assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
            let mut reparsed = parse(Format::Toml, &added).unwrap();
            assert_eq!(reparsed.get(&servers, "b"), Some(json!({"command": "y"})));
            assert_eq!(reparsed.remove(&servers, "b"), Ok(true));
            if text.contains("[mcp_servers.a]") {
                assert_eq!(reparsed.text(), text, "add then remove restores the file");
            }
        }
        // Mixed endings have no one form to print back: refused where the odd one is.
        let e = refused(Format::Toml, "a = 1\r\nb = 2\nc = 3\r\n");
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("CRLF"), "{e}");
    }

    /// yaml-edit's parser alone accepted both, and agx edited files the clients refuse.
    #[test]
    fn yaml_duplicate_keys_and_tab_indentation_are_refused_where_they_are() {
        let duplicate = "extensions:\n  a:\n    cmd: x\n  a:\n    cmd: y\n";
        let e = refused(Format::Yaml, duplicate);
        assert_eq!((e.line, e.column), (4, 3), "{e}");
        assert!(e.message.to_lowercase().contains("duplicate"), "{e}");

        let tabs = "extensions:\n\tdeveloper:\n\t\tenabled: true\n";
        let e = refused(Format::Yaml, tabs);
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.to_lowercase().contains("tab"), "{e}");
    }

    /// The clients keep the last of duplicate keys; agx used to edit the first copy.
    #[test]
    fn json_duplicate_keys_are_read_and_edited_as_the_clients_read_them() {
        let text = r#"{"mcpServers": {"a": 1}, "mcpServers": {"b": 2, "b": 3}}"#;
        let mut doc = parse(Format::Json, text).unwrap();
        assert_eq!(doc.get(&servers(), "b"), Some(json!(3)));
        assert_eq!(doc.get(&servers(), "a"), None);
        assert_eq!(doc.entries(&servers()), vec![("b".to_string(), json!(3))]);

        doc.set(&servers(), "c", &json!(4)).unwrap();
        doc.set(&servers(), "b", &json!(5)).unwrap();
        let after: Value = serde_json::from_str(&doc.text()).unwrap();
        assert_eq!(after["mcpServers"], json!({"b": 5, "c": 4}));
        assert!(doc.text().contains(r#"{"a": 1}"#), "{}", doc.text());

        // Removing the last copy would bring the older one back to life.
        assert!(matches!(
            doc.remove(&servers(), "b"),
            Err(EditError::DuplicateKey { count: 2, .. })
        ));
        assert!(doc.remove(&servers(), "c").unwrap());
    }

    /// Found by the `client_edit` fuzz target: an empty JSON file printed back as a line
    /// break. A blank file stays blank until it has content, which then ends with a line break.
    #[test]
    fn blank_files_print_back_unchanged_and_get_a_final_line_break_once_edited() {
        for format in [Format::Json, Format::Jsonc, Format::Toml, Format::Yaml] {
            for text in ["", "  ", "\n"] {
                let mut doc = parse(format, text).unwrap_or_else(|e| panic!("{format:?}: {e}"));
                assert_eq!(doc.text(), text, "{format:?}");
                doc.set(&servers(), "k", &json!({"command": "agx"}))
                    .unwrap();
                // toml_edit keeps the blank file's bytes after the new table.
                if format != Format::Toml {
                    assert!(doc.text().ends_with('\n'), "{format:?}: {:?}", doc.text());
                }
            }
        }
    }

    /// A byte order mark used to make JSON fail with "line 1, column 1: expected value".
    #[test]
    fn a_byte_order_mark_is_accepted_and_kept() {
        let entry = json!({"command": "agx"});
        for (format, text) in [
            (Format::Json, "\u{feff}{\"mcpServers\": {}}\n"),
            (Format::Jsonc, "\u{feff}// mine\n{\"mcpServers\": {}}\n"),
            (Format::Toml, "\u{feff}model = \"x\"\n"),
            (Format::Yaml, "\u{feff}mcpServers:\n  other:\n    cmd: x\n"),
        ] {
            let mut doc = parse(format, text).unwrap_or_else(|e| panic!("{format:?}: {e}"));
            doc.set(&servers(), "k", &entry).unwrap();
            assert!(doc.text().starts_with('\u{feff}'), "{format:?}");
            assert_eq!(doc.get(&servers(), "k"), Some(entry.clone()), "{format:?}");
            doc.remove(&servers(), "k").unwrap();
            assert_eq!(doc.text(), text, "{format:?}: not given back byte for byte");
        }
    }
}
