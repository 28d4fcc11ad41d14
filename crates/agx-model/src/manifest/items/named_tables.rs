//! Arrays of named tables inside a definition (a tool's `[[parameters]]`, a prompt's
//! `[[arguments]]`), read by one piece of code: the array, each table's keys, its required
//! `name`, and names that repeat. Each kind reads only the other keys of an entry.

use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::spanned::{Node, SourceFile};

/// One kind of list: the key holding it, how findings call an entry, its allowed keys.
pub(super) struct NamedTables {
    /// The key holding the array, also the plural in messages: `parameters`.
    pub key: &'static str,
    /// One entry: `parameter`.
    pub noun: &'static str,
    /// One entry with its article: `a parameter`.
    pub a_noun: &'static str,
    pub allowed_keys: &'static [&'static str],
}

/// An entry of a list; no two entries of one list share a name.
pub(super) trait Named {
    fn name(&self) -> &str;
}

impl NamedTables {
    /// Read the array `node` of `owner` (e.g. "tool `get_forecast`"). For each table whose keys
    /// were checked and whose `name` was required, `read_entry` reads the entry, returning it
    /// with the node of its name, or `None` when a part it needs is missing or wrong. An entry
    /// whose name an earlier one has is reported and left out.
    pub(super) fn read<'a, T: Named>(
        &self,
        f: &mut Findings,
        file: &'a SourceFile,
        node: &'a Node,
        owner: &str,
        mut read_entry: impl FnMut(&mut Findings, &Table<'a>) -> Option<(T, &'a Node)>,
    ) -> Vec<T> {
        let Some(tables) = node.as_array() else {
            f.at(
                codes::WRONG_TYPE,
                file,
                &node.span,
                format!(
                    "`{}` of {owner} must be an array of tables, found {}",
                    self.key,
                    node.type_name()
                ),
                Some(format!(
                    "write one [[{}]] table per {}",
                    self.key, self.noun
                )),
            );
            return Vec::new();
        };
        let mut out: Vec<T> = Vec::new();
        for table in tables {
            let what = format!("{} of {owner}", self.a_noun);
            let Some(t) = Table::read(f, file, table, table.span.clone(), what, self.allowed_keys)
            else {
                continue;
            };
            t.require(f, "name", "\"name\"");
            let Some((entry, name_node)) = read_entry(f, &t) else {
                continue;
            };
            if out.iter().any(|e| e.name() == entry.name()) {
                f.at(
                    codes::DUPLICATE_NAME,
                    file,
                    &name_node.span,
                    format!("{owner} has two {} named `{}`", self.key, entry.name()),
                    Some("rename or remove one".into()),
                );
                continue;
            }
            out.push(entry);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Entry(String);

    impl Named for Entry {
        fn name(&self) -> &str {
            &self.0
        }
    }

    const LIST: NamedTables = NamedTables {
        key: "things",
        noun: "thing",
        a_noun: "a thing",
        allowed_keys: &["name", "size"],
    };

    /// The entries read from `text` (the array under `things`), and the findings as
    /// (code, line, message).
    fn read(text: &str) -> (Vec<String>, Vec<(&'static str, usize, String)>) {
        let file = SourceFile::new("t.toml", text.into());
        let doc = file.parse().unwrap();
        let node = &doc.as_table().unwrap()[0].value;
        let mut f = Findings::default();
        let entries = LIST.read(&mut f, &file, node, "box `b`", |f, t| {
            t.integer(f, "size");
            let (name, node) = t.string(f, "name")?;
            Some((Entry(name), node))
        });
        let findings = f
            .list
            .into_iter()
            .map(|x| (x.code, x.location.line, x.message))
            .collect();
        (entries.into_iter().map(|e| e.0).collect(), findings)
    }

    #[test]
    fn entries_are_read_in_order_and_a_repeated_name_is_left_out() {
        let (entries, findings) = read(
            "[[things]]\nname = \"a\"\n[[things]]\nname = \"b\"\n[[things]]\nname = \"a\"\nsize = 2\n",
        );
        assert_eq!(entries, ["a", "b"]);
        assert_eq!(
            findings,
            [("E018", 6, "box `b` has two things named `a`".to_string())]
        );
    }

    #[test]
    fn each_table_is_checked_and_the_rest_still_read() {
        let (entries, findings) =
            read("things = [{ size = \"big\" }, 3, { name = \"c\", colour = 1 }]\n");
        assert_eq!(entries, ["c"]);
        let messages: Vec<&str> = findings.iter().map(|(_, _, m)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "a thing of box `b` has no `name`",
                "`size` in a thing of box `b` must be an integer, found a string",
                "a thing of box `b` must be a table, found an integer",
                "unknown key `colour` in a thing of box `b`",
            ]
        );
    }

    #[test]
    fn a_value_that_is_not_an_array_is_one_finding() {
        let (entries, findings) = read("things = { name = \"a\" }\n");
        assert!(entries.is_empty());
        assert_eq!(
            findings,
            [(
                "E005",
                1,
                "`things` of box `b` must be an array of tables, found a table".to_string()
            )]
        );
    }
}
