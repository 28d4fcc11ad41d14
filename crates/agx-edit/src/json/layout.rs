//! Appending a property after an object's last one, and removing an object's last property,
//! as text splices that undo each other exactly: `install-server` then `uninstall-server` must
//! give a client's file back byte for byte, whatever its layout. jsonc-parser's own `append`
//! reflows the object (it trims blank lines at its edges, spreads a one-line object over
//! lines, moves a closing brace that shares the last entry's line), and its `remove` does not
//! undo that; so agx decides where the bytes go and uses the parser only to find positions.
//!
//! The layouts, by where the object's closing brace sits relative to its last property:
//! - on a later line: the new property gets lines of its own, inserted at the end of the last
//!   property's line (after its comma and any comment on that line);
//! - on the same line, the last property starting its line (`"a": {…} }`): the new property
//!   starts a line of its own and the brace stays after it;
//! - on the same line, in a one-line object (`{"a": 1}`): the new property joins that line.
//!
//! Whether the object ends with a trailing comma (JSONC) is kept either way.

use std::ops::Range;

use jsonc_parser::cst::{CstNode, CstObjectProp};
use serde_json::Value;

/// Replace `range` of the document's text with `text`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Splice {
    range: Range<usize>,
    text: String,
}

impl Splice {
    fn insert(at: usize, text: impl Into<String>) -> Self {
        Splice {
            range: at..at,
            text: text.into(),
        }
    }

    fn delete(range: Range<usize>) -> Self {
        Splice {
            range,
            text: String::new(),
        }
    }
}

/// `text` with every splice applied; the ranges refer to `text` as given and do not overlap.
/// Insertions at the same offset end up in the order given.
pub(super) fn apply(text: &str, mut splices: Vec<Splice>) -> String {
    // From the end, so that each range still points at the bytes it meant.
    splices.sort_by_key(|s| s.range.start);
    let mut out = text.to_string();
    for splice in splices.into_iter().rev() {
        out.replace_range(splice.range, &splice.text);
    }
    out
}

/// A property to append, in the two forms a layout may call for.
pub(super) struct NewProp {
    /// The indent of its first line when it starts a line.
    pub indent: String,
    /// `"name": value` spread over lines as jsonc-parser lays it out at that indent.
    pub multi_line: String,
    /// `"name": value` on one line.
    pub one_line: String,
}

/// The splices that append `prop` after `last`, the object's last property.
pub(super) fn append_after(last: &CstObjectProp, prop: &NewProp) -> Vec<Splice> {
    let last: CstNode = last.clone().into();
    let end = end_of(&last);
    let tail = until_closing_brace(&last);
    let has_comma_on_its_line = tail
        .iter()
        .take_while(|n| !n.is_newline())
        .any(|n| n.is_comma());
    match tail.iter().find(|n| n.is_newline()) {
        Some(line_end) => {
            // A comma already on the last property's line is a trailing one: the new
            // property, now last, carries one too.
            let (comma_before, comma_after) = if has_comma_on_its_line {
                (None, ",")
            } else {
                (Some(Splice::insert(end, ",")), "")
            };
            let lines = format!("{line_end}{}{}{comma_after}", prop.indent, prop.multi_line);
            comma_before
                .into_iter()
                .chain([Splice::insert(start_of(line_end), lines)])
                .collect()
        }
        None => {
            // Inserted before any trailing comma, which then follows the new property.
            let text = match line_break_before(&last) {
                Some(newline) => format!(",{newline}{}{}", prop.indent, prop.multi_line),
                None => format!(", {}", prop.one_line),
            };
            vec![Splice::insert(end, text)]
        }
    }
}

/// The splices that remove `last`, the object's last property, whose predecessor is
/// `previous`: the inverse of [`append_after`] for each layout.
pub(super) fn remove_last(last: &CstObjectProp, previous: &CstObjectProp) -> Vec<Splice> {
    let last_node: CstNode = last.clone().into();
    let previous_node: CstNode = previous.clone().into();
    let tail = until_closing_brace(&last_node);
    let line_start = line_break_node_before(&last_node);
    match (line_start, tail.iter().find(|n| n.is_newline())) {
        // On lines of its own: those lines go, with the comma and comment on its last line.
        (Some(line_start), Some(line_end)) => {
            let removes_a_comma = tail
                .iter()
                .take_while(|n| !n.is_newline())
                .any(|n| n.is_comma());
            let mut splices = vec![Splice::delete(start_of(&line_start)..start_of(line_end))];
            // Without its own trailing comma, the one before it would now trail.
            if !removes_a_comma && let Some(comma) = previous.trailing_comma() {
                let at = start_of(&comma.into());
                splices.push(Splice::delete(at..at + 1));
            }
            splices
        }
        // Sharing a line with the closing brace: from the end of the previous property to its
        // own end, so that a trailing comma after it stays, now after the previous one.
        _ => vec![Splice::delete(end_of(&previous_node)..end_of(&last_node))],
    }
}

/// `"name": value` on one line, spaced as people write it (`{"a": 1, "b": [2, 3]}`).
pub(super) fn one_line_prop(name: &str, value: &Value) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, OneLine);
    serde::Serialize::serialize(&serde_json::json!({ name: value }), &mut ser)
        .expect("a JSON value serialises into memory");
    let object = String::from_utf8(out).expect("serde_json writes UTF-8");
    // The one-property object minus its braces.
    object[1..object.len() - 1].to_string()
}

struct OneLine;

impl serde_json::ser::Formatter for OneLine {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.begin_array_value(writer, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// Byte offset of `node` in the document's text.
fn start_of(node: &CstNode) -> usize {
    let mut start = 0;
    let mut node = node.clone();
    while let Some(parent) = node.parent() {
        start += node
            .previous_siblings()
            .map(|s| s.to_string().len())
            .sum::<usize>();
        node = CstNode::Container(parent);
    }
    start
}

fn end_of(node: &CstNode) -> usize {
    start_of(node) + node.to_string().len()
}

/// What follows `node` inside its object, up to the closing brace.
fn until_closing_brace(node: &CstNode) -> Vec<CstNode> {
    node.next_siblings()
        .take_while(|n| n.token_char() != Some('}'))
        .collect()
}

/// The line break right before `node` when only indentation separates them.
fn line_break_node_before(node: &CstNode) -> Option<CstNode> {
    node.previous_siblings()
        .find(|n| !n.is_whitespace())
        .filter(|n| n.is_newline())
}

fn line_break_before(node: &CstNode) -> Option<String> {
    line_break_node_before(node).map(|n| n.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn one_line_props_are_spaced_and_escaped() {
        let value = json!({"command": "agx", "args": ["serve", "a\"b"], "env": {}});
        assert_eq!(
            one_line_prop("k\"ey", &value),
            r#""k\"ey": {"command": "agx", "args": ["serve", "a\"b"], "env": {}}"#
        );
    }

    #[test]
    fn splices_apply_from_the_end_so_offsets_stay_valid() {
        let spliced = apply(
            "abcdef",
            vec![
                Splice::insert(1, "X"),
                Splice::delete(2..4),
                Splice::insert(6, "Y"),
            ],
        );
        assert_eq!(spliced, "aXbefY");
        let same_offset = apply("ab", vec![Splice::insert(1, ","), Splice::insert(1, "\n")]);
        assert_eq!(same_offset, "a,\nb");
    }
}
