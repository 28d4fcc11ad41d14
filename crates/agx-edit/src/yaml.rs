//! YAML through yaml-edit's lossless syntax tree: other keys, comments and layout stay.
//! Goose keeps servers in a map; Continue keeps them in a list of items with a `name`.

use std::str::FromStr;

use serde_json::Value;
use yaml_edit::validator::{Severity, Validator};
use yaml_edit::{Document, Mapping, Sequence, YamlNode};

use super::{ConfigDoc, Container, EditError, FinalNewline, SyntaxError, line_column};

pub(crate) struct YamlDoc {
    doc: Document,
    empty: bool,
    trailing_newline: FinalNewline,
}

fn node_to_json(node: &YamlNode) -> Value {
    match node {
        YamlNode::Scalar(s) => {
            if s.is_quoted() {
                return s.unquoted_value().into();
            }
            if s.is_null() {
                Value::Null
            } else if let Some(b) = s.as_bool() {
                b.into()
            } else if let Some(i) = s.as_i64() {
                i.into()
            } else if let Some(f) = s.as_f64().and_then(serde_json::Number::from_f64) {
                Value::Number(f)
            } else {
                s.unquoted_value().into()
            }
        }
        YamlNode::Mapping(m) => mapping_to_json(m),
        YamlNode::Sequence(seq) => seq.values().map(|v| node_to_json(&v)).collect(),
        YamlNode::TaggedNode(_) | YamlNode::Alias(_) => Value::Null,
    }
}

fn key_string(node: &YamlNode) -> Option<String> {
    match node_to_json(node) {
        Value::String(s) => Some(s),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn mapping_to_json(m: &Mapping) -> Value {
    Value::Object(
        m.iter()
            .filter_map(|(k, v)| Some((key_string(&k)?, node_to_json(&v))))
            .collect(),
    )
}

/// Block-style YAML nodes for a JSON value.
fn set_json(mapping: &Mapping, key: &str, value: &Value) {
    match value {
        Value::Null => mapping.set(key, Option::<String>::None),
        Value::Bool(b) => mapping.set(key, *b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => mapping.set(key, i),
            None => mapping.set(key, n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => mapping.set(key, s.as_str()),
        Value::Array(a) => mapping.set(key, sequence(a)),
        Value::Object(o) => mapping.set(key, block_mapping(o)),
    }
}

fn block_mapping(o: &serde_json::Map<String, Value>) -> Mapping {
    let m = Mapping::new();
    for (k, v) in o {
        set_json(&m, k, v);
    }
    m
}

fn sequence(a: &[Value]) -> Sequence {
    let seq = if a.is_empty() {
        Sequence::new_flow()
    } else {
        Sequence::new()
    };
    for v in a {
        match v {
            Value::Null => seq.push(Option::<String>::None),
            Value::Bool(b) => seq.push(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => seq.push(i),
                None => seq.push(n.as_f64().unwrap_or_default()),
            },
            Value::String(s) => seq.push(s.as_str()),
            Value::Array(inner) => seq.push(sequence(inner)),
            Value::Object(o) => seq.push(block_mapping(o)),
        }
    }
    seq
}

/// Parse `text` strictly. yaml-edit's parser recovers from errors (a lossless editor must), so
/// its strict YAML 1.2 validator runs too: a file with duplicate keys or tab indentation, which
/// other parsers refuse or read differently, is refused here. Skills' front matter is read
/// this way too (crates/agx-model/src/skills/front_matter.rs).
pub fn parse_document(text: &str) -> Result<Document, SyntaxError> {
    let doc = Document::from_str(text).map_err(|e| match e {
        yaml_edit::YamlError::Parse {
            message,
            line,
            column,
        } => SyntaxError {
            line: line.unwrap_or(1),
            column: column.unwrap_or(1),
            message,
        },
        other => SyntaxError {
            line: 1,
            column: 1,
            message: other.to_string(),
        },
    })?;
    let violation = Validator::new()
        .validate(&doc)
        .into_iter()
        .find(|v| v.severity == Severity::Error);
    if let Some(v) = violation {
        let offset = v.text_range.map_or(0, |r| r.start as usize);
        let (line, column) = line_column(text, offset);
        return Err(SyntaxError {
            line,
            column,
            message: v.message,
        });
    }
    Ok(doc)
}

impl YamlDoc {
    /// Parse and check `text` ([`parse_document`]): a file the clients' own parsers would
    /// refuse or read differently is refused instead of edited.
    pub(crate) fn parse(text: &str) -> Result<Self, SyntaxError> {
        let doc = parse_document(text)?;
        Ok(YamlDoc {
            doc,
            empty: text.trim().is_empty(),
            trailing_newline: FinalNewline::of(text),
        })
    }

    fn container_node(&self, at: &Container) -> Option<YamlNode> {
        let mut m = self.doc.as_mapping()?;
        let (last, parents) = at.path.split_last()?;
        for segment in parents {
            m = m.get_mapping(segment.as_str())?;
        }
        m.get(last.as_str())
    }

    /// The index of the list item whose `name` is `key`.
    fn list_index(seq: &Sequence, key: &str) -> Option<usize> {
        seq.values().position(|item| {
            item.as_mapping()
                .and_then(|m| m.get("name"))
                .and_then(|n| key_string(&n))
                .as_deref()
                == Some(key)
        })
    }

    fn root_mapping(&mut self) -> Result<Mapping, EditError> {
        if let Some(m) = self.doc.as_mapping() {
            return Ok(m);
        }
        if self.empty {
            self.doc = Document::new_mapping();
            if let Some(m) = self.doc.as_mapping() {
                return Ok(m);
            }
        }
        Err(EditError::WrongType(
            "the file's top level".into(),
            "YAML mapping",
        ))
    }
}

impl ConfigDoc for YamlDoc {
    fn get(&self, at: &Container, key: &str) -> Option<Value> {
        let node = self.container_node(at)?;
        if at.list_by_name {
            let seq = node.as_sequence()?;
            return Some(node_to_json(&seq.get(Self::list_index(seq, key)?)?));
        }
        Some(node_to_json(&node.as_mapping()?.get(key)?))
    }

    fn entries(&self, at: &Container) -> Vec<(String, Value)> {
        let Some(node) = self.container_node(at) else {
            return Vec::new();
        };
        match (&node, at.list_by_name) {
            (YamlNode::Sequence(seq), true) => seq
                .values()
                .filter_map(|item| {
                    let v = node_to_json(&item);
                    Some((v.get("name")?.as_str()?.to_string(), v))
                })
                .collect(),
            (YamlNode::Mapping(m), false) => match mapping_to_json(m) {
                Value::Object(o) => o.into_iter().collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    fn set(&mut self, at: &Container, key: &str, value: &Value) -> Result<(), EditError> {
        let Some(obj) = value.as_object() else {
            return Err(EditError::WrongType(key.into(), "YAML mapping"));
        };
        let mut parent = self.root_mapping()?;
        let (last, parents) = at.path.split_last().expect("a container path");
        for (i, segment) in parents.iter().enumerate() {
            if !parent.contains_key(segment.as_str()) {
                parent.set(segment.as_str(), Mapping::new());
            }
            parent = parent
                .get_mapping(segment.as_str())
                .ok_or_else(|| EditError::WrongType(at.path[..=i].join("."), "YAML mapping"))?;
        }
        let wrong = || {
            EditError::WrongType(
                at.dotted(),
                if at.list_by_name {
                    "YAML list"
                } else {
                    "YAML mapping"
                },
            )
        };
        let absent = parent
            .get(last.as_str())
            .is_none_or(|n| n.as_scalar().is_some_and(|s| s.is_null()));
        if at.list_by_name {
            if absent {
                parent.set(last.as_str(), Sequence::new());
            }
            let seq = parent.get_sequence(last.as_str()).ok_or_else(wrong)?;
            let item = block_mapping(obj);
            match Self::list_index(&seq, key) {
                Some(i) => {
                    seq.set(i, &item);
                }
                None => seq.push(&item),
            }
        } else {
            if absent {
                parent.set(last.as_str(), Mapping::new());
            }
            let servers = parent.get_mapping(last.as_str()).ok_or_else(wrong)?;
            servers.set(key, block_mapping(obj));
        }
        Ok(())
    }

    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError> {
        let Some(node) = self.container_node(at) else {
            return Ok(false);
        };
        Ok(if at.list_by_name {
            let Some(seq) = node.as_sequence() else {
                return Ok(false);
            };
            match Self::list_index(seq, key) {
                Some(i) => seq.remove(i).is_some(),
                None => false,
            }
        } else {
            node.as_mapping().is_some_and(|m| m.remove(key).is_some())
        })
    }

    fn text(&self) -> String {
        self.trailing_newline.apply(self.doc.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `client_edit` fuzz target: a file without a final line break gained one
    /// when printed back unchanged.
    #[test]
    fn a_file_without_a_final_line_break_prints_back_unchanged() {
        for text in [
            "# Goose configuration\nGOOS\r# Goo",
            "extensions:\n  a:\n    cmd: x",
        ] {
            assert_eq!(YamlDoc::parse(text).unwrap().text(), text);
        }
    }
}
