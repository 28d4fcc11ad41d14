//! The poisoning scan (docs/security.md, "The poisoning scan"): one rule set that looks for
//! what a person reviewing a package would not see but a model would read — hidden
//! characters, terminal escapes, text that tells the model to fetch secrets, call other tools
//! or keep things from the user, and descriptions padded far beyond their neighbours. It
//! reads text only; `agx validate`, `install`, `install-skill`, `sync`, `serve` and `audit`
//! decide what a finding does.

mod hidden;
mod items;
mod length;
mod phrases;
mod report;
mod sources;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::manifest::SourceLocation;
use crate::manifest::spanned::SourceFile;

pub use items::{
    Subject, SubjectKind, scan_checked, scan_listed, scan_package, scan_prompt, scan_resource,
    scan_server, scan_skill, scan_tool,
};
pub use report::{as_validate_findings, render_list};

/// How bad a finding is: a `High` one blocks installs and hides the item at serve unless
/// accepted; the others are warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        })
    }
}

/// A kind of finding: its stable code, short name, severity and what it means (the table in
/// docs/security.md lists the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ScanCode {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! scan_codes {
    ($($ident:ident = $code:literal $name:literal $sev:ident $summary:literal;)*) => {
        $(pub const $ident: ScanCode = ScanCode {
            code: $code,
            name: $name,
            severity: Severity::$sev,
            summary: $summary,
        };)*
        /// Every code, in order.
        pub const ALL_SCAN_CODES: &[ScanCode] = &[$($ident),*];
    };
}

scan_codes! {
    HIDDEN_TEXT = "S001" "hidden-text" High "Unicode tag characters (U+E0000–E007F) or a run of variation selectors: text a model reads and a person cannot see";
    BIDI_CONTROL = "S002" "bidi-control" High "a bidirectional override or isolate (U+202A–202E, U+2066–2069) that reorders what a person sees";
    ZERO_WIDTH = "S003" "zero-width" Medium "a zero-width or invisible format character (U+200B–200D, U+2060–2064, U+FEFF, U+180E, …) outside the scripts and emoji that need it";
    INVISIBLE_FILLER = "S004" "invisible-filler" Low "a blank-looking filler character (Hangul fillers, braille blank outside braille)";
    TERMINAL_ESCAPE = "S005" "terminal-escape" High "an ANSI escape (ESC) or C1 control character that can rewrite what a terminal shows";
    CONTROL_CHARACTER = "S006" "control-character" Medium "another control character (backspace, bell, DEL, …) besides tab and line ends";
    SECRET_ACCESS = "S101" "secret-access" High "text telling the model to read or send secrets (SSH keys, .env, credentials, tokens, API keys)";
    HIDE_FROM_USER = "S102" "hide-from-user" High "text telling the model to keep something from the user";
    OVERRIDE_INSTRUCTIONS = "S103" "override-instructions" High "text telling the model to ignore its previous instructions";
    MODEL_TAG = "S104" "model-tag" High "markup that poses as a higher-priority message to the model (`<IMPORTANT>`, `<system>`, `[INST]`, …)";
    TOOL_REDIRECTION = "S105" "tool-redirection" Medium "text that steers how the model uses other tools (`when this tool is available…`, `instead of using…`)";
    SECRET_PATH = "S106" "secret-path" Medium "a secret's file (SSH keys, .env, credential files) named beside a verb that reads or sends it";
    ADDRESSED_TO_MODEL = "S107" "addressed-to-model" Low "text addressed to the model rather than describing the item (`note to the AI`, `you are now`)";
    LONG_DESCRIPTION = "S201" "long-description" Medium "a description more than 4 times the median length of the package's other descriptions (and over 1,000 characters)";
}

impl ScanCode {
    pub fn lookup(code: &str) -> Option<ScanCode> {
        ALL_SCAN_CODES
            .iter()
            .copied()
            .find(|c| c.code.eq_ignore_ascii_case(code))
    }
}

/// What kind of text a field holds, which decides the rules that apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A description or title the client shows the model to choose an item: every rule.
    Description,
    /// Text that instructs the model by design (server instructions, a SKILL.md): every rule
    /// but the length comparison.
    Instructions,
    /// Content a person asks for (a prompt's template): hidden characters and escapes only,
    /// as instructions are what a prompt is for.
    Content,
}

/// One rule's match in one text: where it starts (a byte offset) and what it found.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub code: ScanCode,
    pub offset: usize,
    /// Set for hidden characters and escapes: the first one's code point.
    pub code_point: Option<u32>,
    /// What was found, for people: the characters (`57 tag characters`), the hidden text they
    /// spell, or the phrase matched.
    pub detail: String,
}

/// Every rule's matches in `text`, in order of position.
pub fn scan_text(text: &str, kind: TextKind) -> Vec<Hit> {
    let mut hits = Vec::new();
    hidden::scan(text, &mut hits);
    if kind != TextKind::Content {
        phrases::scan(text, &mut hits);
    }
    hits.sort_by_key(|h| h.offset);
    hits
}

/// A finding of the scan: the rule, the item and field of the text, where in that text it
/// starts, and how many times the rule matched in the field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScanFinding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub subject: Subject,
    /// The field the text came from: `description`, `input_schema.properties.path.description`,
    /// `SKILL.md`, …
    pub field: String,
    /// Where the match is written in the package's files (a SKILL.md, or the string literal
    /// of a definition that holds the text); where the item is defined when no definition
    /// file holds the text (a prompt's `content_file`); `None` for an item of an MCP list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    /// 1-based line and column (in characters) of the first match within the field's text.
    pub line: usize,
    pub column: usize,
    /// `U+E0041` style, for hidden characters and escapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_point: Option<String>,
    pub detail: String,
    /// Matches of this rule in this field, this one included.
    pub occurrences: usize,
}

impl ScanFinding {
    /// Where, for people: `tool `fetch`, description, line 1, column 41`.
    pub fn place(&self) -> String {
        format!(
            "{} {}, line {}, column {}",
            self.subject, self.field, self.line, self.column
        )
    }

    /// The rule and what it found: `S001 hidden-text (high): 57 tag characters …`.
    pub fn headline(&self) -> String {
        let more = match self.occurrences {
            1 => String::new(),
            n => format!(" ({n} in this field)"),
        };
        format!(
            "{} {} ({}): {}{more}",
            self.code, self.name, self.severity, self.detail
        )
    }

    /// As displayed, then where the match is in the package's files when that is known:
    /// `… description, line 1, column 18 (agx/tools/add.toml:2:33)`.
    pub fn with_file_place(&self) -> String {
        match &self.location {
            Some(at) => format!("{self} ({at})"),
            None => self.to_string(),
        }
    }
}

impl std::fmt::Display for ScanFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}", self.headline(), self.place())
    }
}

/// Where a scanned text comes from.
#[derive(Debug, Clone, Copy)]
pub enum Origin<'a> {
    /// A field of an item defined at this place.
    Definition(&'a SourceLocation),
    /// A whole file of the package (`skills/review/SKILL.md`).
    File(&'a str),
    /// An item of an MCP list: no file.
    Listed,
}

/// The findings of `text` as one field of `subject`: one per rule, at its first match.
pub fn findings_of(
    text: &str,
    kind: TextKind,
    subject: &Subject,
    field: &str,
    origin: Origin<'_>,
) -> Vec<ScanFinding> {
    findings_placed(text, kind, subject, field, origin, |_| None)
}

/// [`findings_of`], with `written` saying where in the package's files the character at a
/// byte offset of a definition's `text` is written; a finding it has no place for stays at
/// the item's definition.
pub(super) fn findings_placed(
    text: &str,
    kind: TextKind,
    subject: &Subject,
    field: &str,
    origin: Origin<'_>,
    mut written: impl FnMut(usize) -> Option<SourceLocation>,
) -> Vec<ScanFinding> {
    let hits = scan_text(text, kind);
    if hits.is_empty() {
        return Vec::new();
    }
    let lines = SourceFile::new("", text.to_string());
    let mut out: Vec<ScanFinding> = Vec::new();
    for hit in hits {
        if let Some(seen) = out.iter_mut().find(|f| f.code == hit.code.code) {
            seen.occurrences += 1;
            continue;
        }
        let (line, column) = lines.line_col(hit.offset);
        out.push(ScanFinding {
            code: hit.code.code,
            name: hit.code.name,
            severity: hit.code.severity,
            subject: subject.clone(),
            field: field.to_string(),
            location: match origin {
                Origin::Definition(at) => Some(written(hit.offset).unwrap_or_else(|| at.clone())),
                Origin::File(rel) => Some(SourceLocation {
                    file: rel.to_string(),
                    line,
                    column,
                }),
                Origin::Listed => None,
            },
            line,
            column,
            code_point: hit.code_point.map(|c| format!("U+{c:04X}")),
            detail: hit.detail,
            occurrences: 1,
        });
    }
    out
}

/// The high findings whose code is not in `accepted` (codes compare case-insensitively).
pub fn unaccepted<'a>(
    findings: &'a [ScanFinding],
    accepted: &'a [String],
) -> impl Iterator<Item = &'a ScanFinding> {
    findings.iter().filter(|f| {
        f.severity == Severity::High && !accepted.iter().any(|a| a.eq_ignore_ascii_case(f.code))
    })
}

/// The codes of the high findings, sorted, without repeats: what an install that accepted
/// them records (`accepted_findings` of the receipt).
pub fn high_codes(findings: &[ScanFinding]) -> Vec<String> {
    let mut codes: Vec<String> = findings
        .iter()
        .filter(|f| f.severity == Severity::High)
        .map(|f| f.code.to_string())
        .collect();
    codes.sort();
    codes.dedup();
    codes
}
