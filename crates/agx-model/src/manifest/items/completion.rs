//! Completion sources of a prompt argument or a template variable: `enum = [...]` (values
//! offered by prefix) or `complete = [...]` (a command that prints candidates), read the same
//! way for both.

use super::source::DefinitionSource;
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::model::CompletionSource;

/// The keys an entry gains by offering completions.
pub(super) const COMPLETION_KEYS: [&str; 2] = ["enum", "complete"];

/// The completion source of one `[[arguments]]` or `[[variables]]` entry, if it offers one.
pub(super) fn read_completion(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'_>,
) -> Option<CompletionSource> {
    let values = t.strings(f, "enum");
    let command = src.command(f, t, "complete");
    if let (Some(_), Some(second)) = (t.get("enum"), t.get("complete")) {
        f.at(
            codes::CONFLICTING_KEYS,
            src.file,
            &second.key_span,
            format!("{} has both `enum` and `complete`", t.what),
            Some("keep one: `enum` lists the values, `complete` computes them".into()),
        );
        return None;
    }
    if let Some(values) = values {
        if values.is_empty() {
            let entry = t.get("enum").expect("read above");
            f.at(
                codes::INVALID_VALUE,
                src.file,
                &entry.value.span,
                format!("`enum` of {} is empty", t.what),
                Some("list the values to offer, or remove `enum`".into()),
            );
            return None;
        }
        return Some(CompletionSource::Enum(
            values.into_iter().map(|(v, _)| v).collect(),
        ));
    }
    command.map(CompletionSource::Command)
}
