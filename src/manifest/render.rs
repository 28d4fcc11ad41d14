//! Showing a validation report: rustc-style text for people, one stable JSON document for
//! programs (both documented in docs/validate.md).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::diagnostics::{Finding, Report, Severity};
use crate::style::{Style, paint};

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
        }),
        valid: !report.has_errors(),
        errors: report.errors().count(),
        warnings: report.warnings().count(),
        probed,
        findings: &report.findings,
    };
    serde_json::to_string_pretty(&doc).expect("the report serialises")
}

/// Every finding as rustc does it, then a summary line.
/// `color` turns on ANSI colours.
pub fn human(report: &Report, dir: &Path, color: bool) -> String {
    let mut sources: HashMap<String, Option<String>> = HashMap::new();
    let mut out = String::new();
    for finding in &report.findings {
        let text = sources
            .entry(finding.location.file.clone())
            .or_insert_with(|| std::fs::read_to_string(dir.join(&finding.location.file)).ok());
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
        let width = line.chars().count();
        let start = loc.column.saturating_sub(1).min(width);
        let length = f.length.max(1).min((width - start).max(1));
        let carets = paint(color, style, &"^".repeat(length));
        let _ = writeln!(out, "{gutter} {bar}");
        let _ = writeln!(out, "{number} {bar} {line}");
        let _ = writeln!(out, "{gutter} {bar} {}{carets}", " ".repeat(start));
    }
    if let Some(hint) = &f.hint {
        let _ = writeln!(
            out,
            "{gutter} {} hint: {hint}",
            paint(color, Style::Hint, "=")
        );
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn summary(report: &Report, dir: &Path, color: bool) -> String {
    let errors = report.errors().count();
    let warnings = report.warnings().count();
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
        Some(p) => format!(
            "{} {} ({}, {}, {})",
            p.name(),
            p.version(),
            plural(p.servers.len(), "server"),
            plural(p.tools.len(), "tool"),
            plural(p.prompts.len(), "prompt")
        ),
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
