//! JSON and JSON-with-comments through jsonc-parser's concrete syntax tree: comments,
//! trailing commas, key order and formatting outside the edited entry stay as they are.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstObjectProp, CstRootNode};
use serde_json::Value;

use super::{ConfigDoc, Container, EditError, SyntaxError};

pub struct JsonDoc {
    root: CstRootNode,
    /// Whether the file already ends with a newline (new files get one).
    trailing_newline: bool,
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

/// serde_json appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

impl JsonDoc {
    pub fn parse(text: &str, comments: bool) -> Result<Self, SyntaxError> {
        // The CST parser keeps comments whatever its options say; strict files are checked
        // by serde_json first (Claude Code treats a file with comments as corrupt).
        if !comments && !text.trim().is_empty() {
            serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| SyntaxError {
                line: e.line(),
                column: e.column(),
                message: strip_position(&e.to_string()),
            })?;
        }
        let options = if comments {
            jsonc_options()
        } else {
            strict_options()
        };
        let root = CstRootNode::parse(text, &options).map_err(|e| SyntaxError {
            line: e.line_display(),
            column: e.column_display(),
            message: e.kind().to_string(),
        })?;
        Ok(JsonDoc {
            root,
            trailing_newline: text.trim().is_empty() || text.ends_with('\n'),
        })
    }

    fn container(&self, at: &Container) -> Option<CstObject> {
        let mut obj = self.root.object_value()?;
        for segment in &at.path {
            obj = last_prop(&obj, segment)?.value()?.as_object()?;
        }
        Some(obj)
    }

    fn container_or_create(&self, at: &Container) -> Result<CstObject, EditError> {
        let mut obj = self
            .root
            .object_value_or_create()
            .ok_or_else(|| EditError::WrongType("the file's top level".into(), "JSON object"))?;
        for (i, segment) in at.path.iter().enumerate() {
            let wrong = || EditError::WrongType(at.path[..=i].join("."), "JSON object");
            obj = match last_prop(&obj, segment) {
                Some(prop) => prop.value().and_then(|v| v.as_object()).ok_or_else(wrong)?,
                None => obj.object_value_or_create(segment).ok_or_else(wrong)?,
            };
        }
        Ok(obj)
    }
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
        let obj = self.container_or_create(at)?;
        match last_prop(&obj, key) {
            Some(prop) => prop.set_value(input(value)),
            None => {
                obj.append(key, input(value));
            }
        }
        Ok(())
    }

    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError> {
        let Some(obj) = self.container(at) else {
            return Ok(false);
        };
        let copies: Vec<CstObjectProp> = obj
            .properties()
            .into_iter()
            .filter(|p| p.decoded_name().as_deref() == Some(key))
            .collect();
        match copies.as_slice() {
            [] => Ok(false),
            [prop] => {
                prop.clone().remove();
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
        let mut text = self.root.to_string();
        if self.trailing_newline && !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }
}
