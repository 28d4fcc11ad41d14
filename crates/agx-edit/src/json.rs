//! JSON and JSON-with-comments through jsonc-parser's concrete syntax tree: comments,
//! trailing commas, key order and formatting outside the edited entry stay as they are, and
//! removing an entry agx appended gives the file back byte for byte (`layout`).

mod layout;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode};
use serde_json::Value;

use super::{ConfigDoc, Container, EditError, FinalNewline, SyntaxError};

pub(crate) struct JsonDoc {
    root: CstRootNode,
    /// JSONC: comments and trailing commas allowed.
    comments: bool,
    trailing_newline: FinalNewline,
}

fn strict_options() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn jsonc_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        ..strict_options()
    }
}

fn options(comments: bool) -> ParseOptions {
    if comments {
        jsonc_options()
    } else {
        strict_options()
    }
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

/// Nothing but JSON's own whitespace. Not `str::trim`: it also skips characters such as form
/// feed, which the CST parser tolerates but strict JSON (and so the client) refuses; a file
/// of them must be reported, not edited into one that no longer parses.
fn is_json_blank(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// serde_json appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

impl JsonDoc {
    pub(crate) fn parse(text: &str, comments: bool) -> Result<Self, SyntaxError> {
        // The CST parser keeps comments whatever its options say; strict files are checked
        // by serde_json first (Claude Code treats a file with comments as corrupt).
        if !comments && !is_json_blank(text) {
            serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| SyntaxError {
                line: e.line(),
                column: e.column(),
                message: strip_position(&e.to_string()),
            })?;
        }
        let root = CstRootNode::parse(text, &options(comments)).map_err(|e| SyntaxError {
            line: e.line_display(),
            column: e.column_display(),
            message: e.kind().to_string(),
        })?;
        Ok(JsonDoc {
            root,
            comments,
            trailing_newline: FinalNewline::of(text),
        })
    }

    fn container(&self, at: &Container) -> Option<CstObject> {
        object_at(&self.root, &at.path)
    }

    /// The deepest object of `at`'s path that exists, and how many segments it is deep.
    fn deepest_object(&self, at: &Container) -> Result<(CstObject, usize), EditError> {
        let mut obj = self
            .root
            .object_value_or_create()
            .ok_or_else(|| EditError::WrongType("the file's top level".into(), "JSON object"))?;
        for (depth, segment) in at.path.iter().enumerate() {
            let Some(prop) = last_prop(&obj, segment) else {
                return Ok((obj, depth));
            };
            obj = prop
                .value()
                .and_then(|v| v.as_object())
                .ok_or_else(|| EditError::WrongType(at.path[..=depth].join("."), "JSON object"))?;
        }
        Ok((obj, at.path.len()))
    }

    /// Append `name: value` to the object at `path`, which has properties, without touching a
    /// byte around it (see `layout`).
    fn append_keeping_layout(
        &mut self,
        path: &[String],
        last: &CstObjectProp,
        name: &str,
        value: &Value,
    ) {
        let text = self.root.to_string();
        // jsonc-parser lays the new property out (its indentation, line breaks) in a copy of
        // the document; agx places that text itself.
        let copy = self.reparse(&text);
        let prop = object_at(&copy, path)
            .expect("the copy has the object the document has")
            .append(name, input(value));
        let prop_node: CstNode = prop.clone().into();
        let indent = prop_node
            .previous_sibling()
            .filter(|n| n.is_whitespace())
            .map(|n| n.to_string())
            .unwrap_or_default();
        let new = layout::NewProp {
            indent,
            multi_line: prop.to_string(),
            one_line: layout::one_line_prop(name, value),
        };
        let edited = layout::apply(&text, layout::append_after(last, &new));
        self.root = self.reparse(&edited);
    }

    /// The tree of a text this document produced: its own text, or that text with an entry
    /// spliced in or out. Both parse by construction (the fuzz target `client_edit` checks it).
    fn reparse(&self, text: &str) -> CstRootNode {
        CstRootNode::parse(text, &options(self.comments))
            .unwrap_or_else(|e| panic!("agx's edit of a JSON file does not parse ({e}):\n{text}"))
    }
}

/// The object at `path` from the root, following the last copy of each key.
fn object_at(root: &CstRootNode, path: &[String]) -> Option<CstObject> {
    let mut obj = root.object_value()?;
    for segment in path {
        obj = last_prop(&obj, segment)?.value()?.as_object()?;
    }
    Some(obj)
}

/// `value` under `key`, nested in one object per segment of `missing` (the part of the
/// container's path that does not exist yet): the property to add, as (name, value).
fn nest(missing: &[String], key: &str, value: &Value) -> (String, Value) {
    missing.iter().rev().fold(
        (key.to_string(), value.clone()),
        |(name, value), segment| {
            (
                segment.clone(),
                Value::Object([(name, value)].into_iter().collect()),
            )
        },
    )
}

/// The last property named `name`. Of duplicate keys the clients' parsers keep the last
/// (JavaScript's `JSON.parse`, serde_json into a map), so agx reads and edits that one.
fn last_prop(obj: &CstObject, name: &str) -> Option<CstObjectProp> {
    obj.properties()
        .into_iter()
        .rfind(|p| p.decoded_name().as_deref() == Some(name))
}

impl ConfigDoc for JsonDoc {
    fn get(&self, at: &Container, key: &str) -> Option<Value> {
        last_prop(&self.container(at)?, key)?
            .value()?
            .to_serde_value()
    }

    fn entries(&self, at: &Container) -> Vec<(String, Value)> {
        let Some(obj) = self.container(at) else {
            return Vec::new();
        };
        let mut entries: Vec<(String, Value)> = Vec::new();
        for prop in obj.properties() {
            let (Some(key), Some(value)) = (
                prop.decoded_name(),
                prop.value().and_then(|v| v.to_serde_value()),
            ) else {
                continue;
            };
            // A later copy replaces an earlier one, where the earlier one stood.
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key, value)),
            }
        }
        entries
    }

    fn set(&mut self, at: &Container, key: &str, value: &Value) -> Result<(), EditError> {
        let (obj, depth) = self.deepest_object(at)?;
        if depth == at.path.len()
            && let Some(prop) = last_prop(&obj, key)
        {
            prop.set_value(input(value));
            return Ok(());
        }
        let (name, value) = nest(&at.path[depth..], key, value);
        match obj.properties().last() {
            Some(last) => self.append_keeping_layout(&at.path[..depth], last, &name, &value),
            // An empty object has no layout to keep; removing its only entry empties it again.
            None => {
                obj.append(&name, input(&value));
            }
        }
        Ok(())
    }

    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError> {
        let Some(obj) = self.container(at) else {
            return Ok(false);
        };
        let props = obj.properties();
        let copies: Vec<&CstObjectProp> = props
            .iter()
            .filter(|p| p.decoded_name().as_deref() == Some(key))
            .collect();
        match copies.as_slice() {
            [] => Ok(false),
            [prop] => {
                match props.as_slice() {
                    // The last of several, where agx appends: undo exactly what appending did.
                    [.., previous, last] if last.property_index() == prop.property_index() => {
                        let text = self.root.to_string();
                        let edited = layout::apply(&text, layout::remove_last(last, previous));
                        self.root = self.reparse(&edited);
                    }
                    _ => (*prop).clone().remove(),
                }
                Ok(true)
            }
            _ => Err(EditError::DuplicateKey {
                container: at.dotted(),
                key: key.into(),
                count: copies.len(),
            }),
        }
    }

    fn text(&self) -> String {
        self.trailing_newline.apply(self.root.to_string())
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

    fn entry() -> Value {
        json!({"command": "agx", "args": ["serve", "acme/weather"]})
    }

    /// Adds `k` to `text`, checks the result reads back, then removes `k` from the file as
    /// `uninstall-server` reads it anew and checks every byte came back. Returns the added text.
    fn add_then_remove(text: &str, comments: bool) -> String {
        let mut doc = JsonDoc::parse(text, comments).unwrap();
        let before = doc.entries(&servers());
        doc.set(&servers(), "k", &entry()).unwrap();
        let added = doc.text();
        let mut reread = JsonDoc::parse(&added, comments)
            .unwrap_or_else(|e| panic!("the edited file does not parse ({e}):\n{added}"));
        assert_eq!(reread.get(&servers(), "k"), Some(entry()), "{added}");
        let others: Vec<_> = reread
            .entries(&servers())
            .into_iter()
            .filter(|(k, _)| k != "k")
            .collect();
        assert_eq!(others, before, "{added}");
        assert_eq!(reread.remove(&servers(), "k"), Ok(true));
        assert_eq!(
            reread.text(),
            text,
            "not given back byte for byte; added:\n{added}"
        );
        added
    }

    #[test]
    fn an_empty_container_is_given_back_empty() {
        let added = add_then_remove("{\"mcpServers\": {}}\n", false);
        assert!(added.contains("\"k\": {\n"), "{added}");
    }

    #[test]
    fn a_multi_line_container_gets_lines_of_its_own() {
        let text =
            "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\"\n    }\n  }\n}\n";
        let added = add_then_remove(text, false);
        assert_eq!(
            added,
            "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\"\n    },\n    \"k\": {\n      \"command\": \"agx\",\n      \"args\": [\"serve\", \"acme/weather\"]\n    }\n  }\n}\n"
        );
    }

    /// The fuzz finding: the container's brace on the last entry's line used to move to a
    /// line of its own, and stay there after removal.
    #[test]
    fn a_closing_brace_on_the_last_entrys_line_stays_there() {
        let text =
            "{\n  \"mcpServers\": {\n    \"a\": { \"url\": \"https://example.org/mcp\" } }\n}\n";
        let added = add_then_remove(text, false);
        assert!(added.ends_with("\n    } }\n}\n"), "{added}");
        add_then_remove(
            &std::fs::read_to_string(concat!(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
                "/fuzz/seeds/client_edit/finding-closing-brace-on-last-line"
            ))
            .unwrap()[1..],
            true,
        );
    }

    #[test]
    fn a_one_line_container_stays_on_one_line() {
        let text = r#"{"mcpServers": {"a": {"command": "x"}}, "theme": "dark"}"#;
        let added = add_then_remove(text, false);
        assert_eq!(
            added,
            r#"{"mcpServers": {"a": {"command": "x"}, "k": {"command": "agx", "args": ["serve", "acme/weather"]}}, "theme": "dark"}"#
        );
    }

    #[test]
    fn trailing_commas_are_kept_in_every_layout() {
        let multi = "{\n  \"mcpServers\": {\n    \"a\": 1,\n  },\n}\n";
        let added = add_then_remove(multi, true);
        assert!(added.contains("\"a\": 1,\n    \"k\": {"), "{added}");
        assert!(added.contains("\n    },\n  },\n}"), "{added}");
        let one_line = "{\"mcpServers\": {\"a\": 1,}}\n";
        let added = add_then_remove(one_line, true);
        assert!(added.contains(r#""a": 1, "k": {"#), "{added}");
        assert!(added.contains("]},}}"), "{added}");
        // A comma on the line after the last entry.
        add_then_remove("{\"mcpServers\": {\n  \"a\": 1\n  ,\n}}\n", true);
    }

    #[test]
    fn comments_around_the_last_entry_stay_where_they_were() {
        for text in [
            "{\n  \"mcpServers\": {\n    \"a\": 1 // about a\n  }\n}\n",
            "{\n  \"mcpServers\": {\n    \"a\": 1,\n    // the end\n  }\n}\n",
            "{\n  \"mcpServers\": {\n    \"a\": 1 /* spans\n    lines */\n  }\n}\n",
            "{\n  // top\n  \"mcpServers\": { /* open */\n    \"a\": 1\n  } // close\n}\n",
        ] {
            let added = add_then_remove(text, true);
            for comment in [
                "// about a",
                "// the end",
                "/* spans\n    lines */",
                "// close",
            ] {
                assert_eq!(added.contains(comment), text.contains(comment), "{added}");
            }
        }
    }

    #[test]
    fn crlf_files_keep_their_line_breaks() {
        let text = "{\r\n  \"mcpServers\": {\r\n    \"a\": 1\r\n  }\r\n}\r\n";
        let added = add_then_remove(text, false);
        assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
        let brace_on_entry_line = "{\r\n  \"mcpServers\": {\r\n    \"a\": 1 }\r\n}\r\n";
        let added = add_then_remove(brace_on_entry_line, false);
        assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
    }

    #[test]
    fn blank_lines_at_the_containers_edges_are_kept() {
        add_then_remove("{\n  \"mcpServers\": {\n\n    \"a\": 1\n\n  }\n}\n", false);
        add_then_remove("{\n  \"mcpServers\": {\n    \"a\": 1\n\n\n  }\n}", false);
    }

    #[test]
    fn entries_before_the_last_are_removed_as_the_parser_does() {
        let text = "{\"mcpServers\": {\n  \"k\": 1,\n  \"b\": 2\n}}\n";
        let mut doc = JsonDoc::parse(text, false).unwrap();
        assert_eq!(doc.remove(&servers(), "k"), Ok(true));
        assert_eq!(doc.text(), "{\"mcpServers\": {\n  \"b\": 2\n}}\n");
    }

    /// A missing container is added after the file's last key without reflowing the file.
    #[test]
    fn a_missing_container_joins_the_files_layout() {
        let mut doc = JsonDoc::parse("{\"theme\": \"dark\"}", false).unwrap();
        doc.set(&servers(), "k", &json!(1)).unwrap();
        assert_eq!(doc.text(), r#"{"theme": "dark", "mcpServers": {"k": 1}}"#);

        let mut doc = JsonDoc::parse("{\n  \"theme\": \"dark\"\n}\n", false).unwrap();
        doc.set(&servers(), "k", &json!(1)).unwrap();
        assert_eq!(
            doc.text(),
            "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"k\": 1\n  }\n}\n"
        );
        // Removing the entry leaves the container, empty.
        let mut doc = JsonDoc::parse(&doc.text(), false).unwrap();
        assert_eq!(doc.remove(&servers(), "k"), Ok(true));
        assert_eq!(
            doc.text(),
            "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {}\n}\n"
        );
    }

    #[test]
    fn a_strict_file_of_form_feeds_is_a_syntax_error_not_a_blank_file() {
        // Found by fuzzing: it was taken as blank, and the edited file no longer parsed.
        let err = JsonDoc::parse("\u{c}\u{c}\u{c}", false)
            .err()
            .expect("refused");
        assert_eq!((err.line, err.column), (1, 1));
        assert!(
            JsonDoc::parse(" \t\r\n", false).is_ok(),
            "JSON whitespace is blank"
        );
    }
}
