//! Typed reading of spanned tables: unknown keys (with "did you mean"), missing keys and
//! wrong types become findings; callers get plain values or `None`.

use std::collections::BTreeMap;
use std::ops::Range;

use super::diagnostics::{self as codes, Findings};
use super::spanned::{Entry, Node, SourceFile, Value, normalize_key};

/// A table being read, its keys checked against the allowed ones.
pub struct Table<'a> {
    pub file: &'a SourceFile,
    /// What the table is, for messages (e.g. "[package]", "tool `x`").
    pub what: String,
    /// Where to point when a key is missing (the table's header key, or the file start).
    pub anchor: Range<usize>,
    entries: Vec<(String, &'a Entry)>,
}

/// The closest allowed word, when it is close enough to be a likely typo.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

impl<'a> Table<'a> {
    /// Read `node` as a table whose keys must be in `allowed`. JSON keys are normalised to
    /// snake_case first. Reports a wrong type (and returns `None`) or each unknown key.
    pub fn read(
        f: &mut Findings,
        file: &'a SourceFile,
        node: &'a Node,
        anchor: Range<usize>,
        what: impl Into<String>,
        allowed: &[&str],
    ) -> Option<Self> {
        let what = what.into();
        let Some(raw) = node.as_table() else {
            f.at(
                codes::WRONG_TYPE,
                file,
                &node.span,
                format!("{what} must be a table, found {}", node.type_name()),
                None,
            );
            return None;
        };
        let mut entries = Vec::with_capacity(raw.len());
        for entry in raw {
            let key = if file.is_json() {
                normalize_key(&entry.key)
            } else {
                entry.key.clone()
            };
            if !allowed.contains(&key.as_str()) {
                let hint = match did_you_mean(&key, allowed.iter().copied()) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("allowed keys: {}", allowed.join(", ")),
                };
                f.at(
                    codes::UNKNOWN_KEY,
                    file,
                    &entry.key_span,
                    format!("unknown key `{}` in {what}", entry.key),
                    Some(hint),
                );
                continue;
            }
            entries.push((key, entry));
        }
        Some(Table {
            file,
            what,
            anchor,
            entries,
        })
    }

    pub fn get(&self, key: &str) -> Option<&'a Entry> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, e)| *e)
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entry, or a missing-key finding.
    pub fn require(&self, f: &mut Findings, key: &str, example: &str) -> Option<&'a Entry> {
        let entry = self.get(key);
        if entry.is_none() {
            f.at(
                codes::MISSING_KEY,
                self.file,
                &self.anchor,
                format!("{} has no `{key}`", self.what),
                Some(format!("add `{key} = {example}`")),
            );
        }
        entry
    }

    fn wrong_type(&self, f: &mut Findings, key: &str, node: &Node, expected: &str) {
        f.at(
            codes::WRONG_TYPE,
            self.file,
            &node.span,
            format!(
                "`{key}` in {} must be {expected}, found {}",
                self.what,
                node.type_name()
            ),
            None,
        );
    }

    /// A string value (with its node), reporting a wrong type.
    pub fn string(&self, f: &mut Findings, key: &str) -> Option<(String, &'a Node)> {
        let entry = self.get(key)?;
        match entry.value.as_str() {
            Some(s) => Some((s.to_string(), &entry.value)),
            None => {
                self.wrong_type(f, key, &entry.value, "a string");
                None
            }
        }
    }

    pub fn opt_string(&self, f: &mut Findings, key: &str) -> Option<String> {
        self.string(f, key).map(|(s, _)| s)
    }

    pub fn bool(&self, f: &mut Findings, key: &str) -> Option<bool> {
        let entry = self.get(key)?;
        match entry.value.value {
            Value::Bool(b) => Some(b),
            _ => {
                self.wrong_type(f, key, &entry.value, "true or false");
                None
            }
        }
    }

    pub fn integer(&self, f: &mut Findings, key: &str) -> Option<(i64, &'a Node)> {
        let entry = self.get(key)?;
        match entry.value.value {
            Value::Integer(i) => Some((i, &entry.value)),
            _ => {
                self.wrong_type(f, key, &entry.value, "an integer");
                None
            }
        }
    }

    /// An array of strings, each with its node.
    pub fn strings(&self, f: &mut Findings, key: &str) -> Option<Vec<(String, &'a Node)>> {
        let entry = self.get(key)?;
        let Some(items) = entry.value.as_array() else {
            self.wrong_type(f, key, &entry.value, "an array of strings");
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            match item.as_str() {
                Some(s) => out.push((s.to_string(), item)),
                None => {
                    self.wrong_type(f, key, item, "an array of strings");
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// A command: a non-empty array of strings (argv, no shell).
    pub fn command(&self, f: &mut Findings, key: &str) -> Option<(Vec<String>, &'a Node)> {
        let entry = self.get(key)?;
        if entry.value.as_str().is_some() {
            self.wrong_type(f, key, &entry.value, "an array of strings (argv, no shell)");
            return None;
        }
        let items = self.strings(f, key)?;
        if items.is_empty() {
            f.at(
                codes::EMPTY_COMMAND,
                self.file,
                &entry.value.span,
                format!("`{key}` in {} is empty", self.what),
                Some(format!(
                    "give the program and its arguments, e.g. `{key} = [\"python3\", \"bin/tool.py\"]`"
                )),
            );
            return None;
        }
        Some((items.into_iter().map(|(s, _)| s).collect(), &entry.value))
    }

    /// A table of string values (e.g. `env`).
    pub fn string_map(&self, f: &mut Findings, key: &str) -> Option<BTreeMap<String, String>> {
        let entry = self.get(key)?;
        let Some(items) = entry.value.as_table() else {
            self.wrong_type(f, key, &entry.value, "a table of strings");
            return None;
        };
        let mut out = BTreeMap::new();
        let mut ok = true;
        for item in items {
            match item.value.as_str() {
                Some(s) => {
                    out.insert(item.key.clone(), s.to_string());
                }
                None => {
                    f.at(
                        codes::WRONG_TYPE,
                        self.file,
                        &item.value.span,
                        format!(
                            "`{key}.{}` in {} must be a string, found {}",
                            item.key,
                            self.what,
                            item.value.type_name()
                        ),
                        Some("quote the value".into()),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_words_are_suggested() {
        assert_eq!(
            did_you_mean("descripton", ["description", "name"]),
            Some("description")
        );
        assert_eq!(did_you_mean("comand", ["command", "name"]), Some("command"));
        assert_eq!(did_you_mean("zzz", ["command", "name"]), None);
    }

    #[test]
    fn unknown_and_mistyped_keys_are_found() {
        let file = SourceFile::new("t.toml", "nme = 1\ncommand = \"x\"\n".into());
        let node = file.parse().unwrap();
        let mut f = Findings::default();
        let t = Table::read(&mut f, &file, &node, 0..0, "tool", &["name", "command"]).unwrap();
        assert!(t.require(&mut f, "name", "\"x\"").is_none());
        assert!(t.command(&mut f, "command").is_none());
        let codes: Vec<_> = f.list.iter().map(|x| x.code).collect();
        assert_eq!(codes, ["E003", "E004", "E005"]);
        assert_eq!(f.list[0].hint.as_deref(), Some("did you mean `name`?"));
    }
}
