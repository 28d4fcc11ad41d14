//! TOML through toml_edit: everything outside the edited entry stays byte-for-byte, and an
//! entry that is updated keeps its place, its comments and the keys agx does not know.

use serde_json::Value;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike};

use super::{ConfigDoc, Container, EditError, SyntaxError, line_column};

pub(crate) struct TomlDoc {
    doc: DocumentMut,
    /// The file's lines end in CRLF (Windows): toml_edit prints every line ending as LF, so
    /// the text it reads has them as LF and the text it prints gets them back.
    crlf: bool,
}

/// A TOML value from JSON (nested objects become inline tables; null has no TOML form, so a
/// null, and a null inside an array or object, is left out).
pub fn to_toml(value: &Value) -> Option<toml_edit::Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64()?.into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(a) => {
            let mut arr = Array::new();
            for v in a.iter().filter_map(to_toml) {
                arr.push(v);
            }
            arr.into()
        }
        Value::Object(o) => {
            let mut t = InlineTable::new();
            for (k, v) in o {
                if let Some(v) = to_toml(v) {
                    t.insert(k, v);
                }
            }
            t.into()
        }
    })
}

fn value_to_json(v: &toml_edit::Value) -> Value {
    match v {
        toml_edit::Value::String(s) => s.value().clone().into(),
        toml_edit::Value::Integer(i) => (*i.value()).into(),
        toml_edit::Value::Float(f) => serde_json::Number::from_f64(*f.value())
            .map(Value::Number)
            .unwrap_or(Value::Null),
        toml_edit::Value::Boolean(b) => (*b.value()).into(),
        toml_edit::Value::Datetime(d) => d.value().to_string().into(),
        toml_edit::Value::Array(a) => a.iter().map(value_to_json).collect(),
        toml_edit::Value::InlineTable(t) => table_to_json(t),
    }
}

fn item_to_json(item: &Item) -> Option<Value> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(value_to_json(v)),
        Item::Table(t) => Some(table_to_json(t)),
        Item::ArrayOfTables(a) => Some(a.iter().map(|t| table_to_json(t)).collect()),
    }
}

fn table_to_json(t: &dyn TableLike) -> Value {
    Value::Object(
        t.iter()
            .filter_map(|(k, item)| Some((k.to_string(), item_to_json(item)?)))
            .collect(),
    )
}

impl TomlDoc {
    pub(crate) fn parse(text: &str) -> Result<Self, SyntaxError> {
        let crlf = text.contains("\r\n");
        let read = if crlf {
            if let Some(lf) = text.replace("\r\n", "\r\r").find('\n') {
                let (line, column) = line_column(text, lf);
                return Err(SyntaxError {
                    line,
                    column,
                    message: "this line ends in LF where the others end in CRLF; agx edits \
                              a file whose lines all end alike (convert it to one kind)"
                        .into(),
                });
            }
            std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let doc = read.parse::<DocumentMut>().map_err(|e| {
            // Line endings differ, not lines or columns: positions in `read` are the file's.
            let (line, column) = line_column(&read, e.span().map_or(0, |s| s.start));
            SyntaxError {
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        Ok(TomlDoc { doc, crlf })
    }

    fn container(&self, at: &Container) -> Option<&dyn TableLike> {
        let mut table: &dyn TableLike = self.doc.as_table();
        for segment in &at.path {
            table = table.get(segment)?.as_table_like()?;
        }
        Some(table)
    }

    fn container_mut(
        &mut self,
        at: &Container,
        create: bool,
    ) -> Result<Option<&mut Table>, EditError> {
        let mut table = self.doc.as_table_mut();
        for (i, segment) in at.path.iter().enumerate() {
            if !table.contains_key(segment) {
                if !create {
                    return Ok(None);
                }
                let mut fresh = Table::new();
                // `[mcp_servers.key]` alone, without an empty `[mcp_servers]` header.
                fresh.set_implicit(true);
                table.insert(segment, Item::Table(fresh));
            }
            table = table
                .get_mut(segment)
                .and_then(Item::as_table_mut)
                .ok_or_else(|| EditError::WrongType(at.path[..=i].join("."), "TOML table"))?;
        }
        Ok(Some(table))
    }
}

impl ConfigDoc for TomlDoc {
    fn get(&self, at: &Container, key: &str) -> Option<Value> {
        item_to_json(self.container(at)?.get(key)?)
    }

    fn entries(&self, at: &Container) -> Vec<(String, Value)> {
        let Some(t) = self.container(at) else {
            return Vec::new();
        };
        t.iter()
            .filter_map(|(k, item)| Some((k.to_string(), item_to_json(item)?)))
            .collect()
    }

    fn set(&mut self, at: &Container, key: &str, value: &Value) -> Result<(), EditError> {
        let Some(obj) = value.as_object() else {
            return Err(EditError::WrongType(key.into(), "TOML table"));
        };
        let container = self.container_mut(at, true)?.expect("created");
        match container.get_mut(key).and_then(Item::as_table_like_mut) {
            // Update in place: the table keeps its position, decor and unknown keys.
            Some(entry) => {
                let stale: Vec<String> = entry
                    .iter()
                    .map(|(k, _)| k.to_string())
                    .filter(|k| !obj.contains_key(k))
                    .collect();
                for k in stale {
                    entry.remove(&k);
                }
                for (k, v) in obj {
                    let unchanged = entry.get(k).and_then(item_to_json).as_ref() == Some(v);
                    if !unchanged {
                        match to_toml(v) {
                            Some(v) => {
                                entry.insert(k, Item::Value(v));
                            }
                            None => {
                                entry.remove(k);
                            }
                        }
                    }
                }
            }
            None => {
                let mut table = Table::new();
                for (k, v) in obj {
                    if let Some(v) = to_toml(v) {
                        table.insert(k, Item::Value(v));
                    }
                }
                container.insert(key, Item::Table(table));
            }
        }
        Ok(())
    }

    fn remove(&mut self, at: &Container, key: &str) -> Result<bool, EditError> {
        Ok(match self.container_mut(at, false) {
            Ok(Some(t)) => t.remove(key).is_some(),
            _ => false,
        })
    }

    fn text(&self) -> String {
        let text = self.doc.to_string();
        if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        }
    }
}
