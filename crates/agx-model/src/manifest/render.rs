//! Showing a validation report: rustc-style text for people, one stable JSON document for
//! programs (both documented in docs/validate.md).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::diagnostics::{Finding, Report, Severity};
use super::package_file;
use agx_core::style::{Style, paint};

/// Version of the JSON document's shape; bumped only on incompatible changes.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// The `--format json` document.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub format: u32,
    /// The package folder as given.
    pub dir: String,
    /// Name and version, when `agx.toml` gave valid ones and nothing else failed.
    pub package: Option<JsonPackage>,
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    /// Whether tools were run (`--probe`).
    pub probed: bool,
    pub findings: &'a [Finding],
}

#[derive(Debug, Serialize)]
pub struct JsonPackage {
    pub name: String,
    pub version: String,
    pub servers: usize,
    pub tools: usize,
    pub prompts: usize,
    pub resources: usize,
    pub skills: usize,
}

pub fn json(report: &Report, dir: &Path, probed: bool) -> String {
    let doc = JsonReport {
        format: JSON_FORMAT_VERSION,
        dir: dir.display().to_string(),
        package: report.package.as_ref().map(|p| JsonPackage {
            name: p.name().to_string(),
            version: p.version().to_string(),
            servers: p.servers.len(),
            tools: p.tools.len(),
            prompts: p.prompts.len(),
            resources: p.resources.len(),
            skills: p.skills.len(),
        }),
        valid: !report.has_errors(),
        errors: report.error_count(),
        warnings: report.warning_count(),
        probed,
        findings: &report.findings,
    };
    serde_json::to_string_pretty(&doc).expect("the report serialises")
}

/// Characters of a source line shown in a snippet; a longer line is cut around the span.
pub const SNIPPET_WIDTH: usize = 100;

/// Every finding as rustc does it, then a summary line.
/// `color` turns on ANSI colours. Snippets are read like every package file (no links,
/// regular files only, capped), so nothing outside the package is ever shown.
pub fn human(report: &Report, dir: &Path, color: bool) -> String {
    let mut sources: HashMap<String, Option<String>> = HashMap::new();
    let mut out = String::new();
    for finding in &report.findings {
        let text = sources
            .entry(finding.location.file.clone())
            .or_insert_with(|| package_file::read_text(dir, &finding.location.file).ok());
        render_finding(&mut out, finding, text.as_deref(), color);
        out.push('\n');
    }
    out.push_str(&summary(report, dir, color));
    out.push('\n');
    out
}

fn render_finding(out: &mut String, f: &Finding, source: Option<&str>, color: bool) {
    let (label, style) = match f.severity {
        Severity::Error => ("error", Style::Error),
        Severity::Warning => ("warning", Style::Warning),
    };
    let _ = writeln!(
        out,
        "{}{}",
        paint(color, style, &format!("{label}[{}]", f.code)),
        paint(color, Style::Bold, &format!(": {}", f.message))
    );
    let loc = &f.location;
    let line_text = (loc.line > 0)
        .then(|| source.and_then(|s| s.lines().nth(loc.line - 1)))
        .flatten();
    let gutter = " ".repeat(if loc.line > 0 {
        loc.line.to_string().len()
    } else {
        1
    });
    let arrow = paint(color, Style::Hint, "-->");
    if loc.line == 0 {
        let _ = writeln!(out, "{gutter}{arrow} {}", loc.file);
    } else {
        let _ = writeln!(out, "{gutter}{arrow} {loc}");
    }
    let bar = paint(color, Style::Hint, "|");
    if let Some(line) = line_text {
        let line = line.replace('\t', " ");
        let number = paint(color, Style::Hint, &loc.line.to_string());
        let snippet = Snippet::around(&line, loc.column.saturating_sub(1), f.length.max(1));
        let carets = paint(color, style, &"^".repeat(snippet.length));
        let _ = writeln!(out, "{gutter} {bar}");
        let _ = writeln!(out, "{number} {bar} {}", snippet.text);
        let _ = writeln!(out, "{gutter} {bar} {}{carets}", " ".repeat(snippet.start));
    }
    if let Some(hint) = &f.hint {
        let _ = writeln!(
            out,
            "{gutter} {} hint: {hint}",
            paint(color, Style::Hint, "=")
        );
    }
    if f.more > 0 {
        let _ = writeln!(
            out,
            "{gutter} {} note: and {} more like this in {}",
            paint(color, Style::Hint, "="),
            group_digits(f.more),
            loc.file
        );
    }
}

/// The part of a source line shown under a finding, with the span's place in it.
struct Snippet {
    text: String,
    /// Characters before the carets.
    start: usize,
    /// Carets.
    length: usize,
}

impl Snippet {
    /// At most [`SNIPPET_WIDTH`] characters of `line` around the span (from character
    /// `start`, `length` long), with `…` where the line is cut.
    fn around(line: &str, start: usize, length: usize) -> Snippet {
        let width = line.chars().count();
        let start = start.min(width);
        let length = length.min((width - start).max(1));
        if width <= SNIPPET_WIDTH {
            return Snippet {
                text: line.to_string(),
                start,
                length,
            };
        }
        // Some context before the span, then as much of it as fits.
        let from = start.saturating_sub(SNIPPET_WIDTH / 4);
        let to = (from + SNIPPET_WIDTH).min(width);
        let from = to.saturating_sub(SNIPPET_WIDTH).min(from);
        let mut text: String = if from > 0 {
            "…".into()
        } else {
            String::new()
        };
        let lead = text.chars().count();
        text.extend(line.chars().skip(from).take(to - from));
        if to < width {
            text.push('…');
        }
        Snippet {
            text,
            start: lead + start - from,
            length: length.min(to - start).max(1),
        }
    }
}

/// `9998` → `9,998`.
fn group_digits(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    format!(
        "{} {word}{}",
        group_digits(n),
        if n == 1 { "" } else { "s" }
    )
}

fn summary(report: &Report, dir: &Path, color: bool) -> String {
    let errors = report.error_count();
    let warnings = report.warning_count();
    if errors > 0 {
        let mut s = format!(
            "{}: `{}` is not a valid package: {}",
            paint(color, Style::Error, "error"),
            dir.display(),
            plural(errors, "error")
        );
        if warnings > 0 {
            s.push_str(&format!(", {}", plural(warnings, "warning")));
        }
        return s;
    }
    let what = match &report.package {
        Some(p) => {
            // Resources are named only when there are some, so older summaries read the same.
            let resources = if p.resources.is_empty() {
                String::new()
            } else {
                format!(", {}", plural(p.resources.len(), "resource"))
            };
            let skills = if p.skills.is_empty() {
                String::new()
            } else {
                format!(", {}", plural(p.skills.len(), "skill"))
            };
            format!(
                "{} {} ({}, {}, {}{resources}{skills})",
                p.name(),
                p.version(),
                plural(p.servers.len(), "server"),
                plural(p.tools.len(), "tool"),
                plural(p.prompts.len(), "prompt")
            )
        }
        None => format!("`{}`", dir.display()),
    };
    let tail = if warnings > 0 {
        format!(", {}", plural(warnings, "warning"))
    } else {
        String::new()
    };
    format!(
        "{}: {what} is valid{tail}",
        paint(color, Style::Status, "ok")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_shown_whole() {
        let s = Snippet::around("name = 1", 0, 4);
        assert_eq!((s.text.as_str(), s.start, s.length), ("name = 1", 0, 4));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let line = format!("{}BAD{}", "a".repeat(5000), "b".repeat(5000));
        let s = Snippet::around(&line, 5000, 3);
        assert!(s.text.chars().count() <= SNIPPET_WIDTH + 2, "{}", s.text);
        assert!(s.text.starts_with('…') && s.text.ends_with('…'));
        let under: String = s.text.chars().skip(s.start).take(s.length).collect();
        assert_eq!(under, "BAD");
    }

    #[test]
    fn a_span_at_the_end_of_a_long_line_keeps_its_carets() {
        let line = format!("{}END", "a".repeat(500));
        let s = Snippet::around(&line, 500, 3);
        let under: String = s.text.chars().skip(s.start).take(s.length).collect();
        assert_eq!(under, "END");
        assert!(!s.text.ends_with('…'));
    }

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(7), "7");
        assert_eq!(group_digits(9998), "9,998");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }
}
