//! Scan findings as the rest of agx shows them: `agx validate` findings (high ones errors,
//! the rest warnings) and the lines of an install's refusal or warnings.

use super::{ScanFinding, Severity};
use crate::manifest::diagnostics::{self, Finding};

/// The scan's findings as `agx validate` findings: at the match in the file (or the item's
/// definition when no literal holds the text), the field and the position in its text in the
/// message.
pub fn as_validate_findings(findings: &[ScanFinding]) -> Vec<Finding> {
    findings
        .iter()
        .map(|f| {
            let location = f.location.clone().unwrap_or_default();
            // A SKILL.md is scanned as the file it is: the location is the match itself.
            let whole_file = location.file.rsplit('/').next() == Some(f.field.as_str());
            let message = if whole_file {
                format!("{} ({}): {}", f.name, f.severity, f.detail)
            } else {
                format!(
                    "{} ({}) in {} {}, line {}, column {} of the text: {}",
                    f.name, f.severity, f.subject, f.field, f.line, f.column, f.detail
                )
            };
            let hint = if f.severity == Severity::High {
                format!(
                    "remove it; installing the package is refused unless the user passes `--accept-finding {}` (docs/security.md)",
                    f.code
                )
            } else {
                "check that it is intended (docs/security.md, \"The poisoning scan\")".into()
            };
            Finding {
                code: f.code,
                name: f.name,
                severity: match f.severity {
                    Severity::High => diagnostics::Severity::Error,
                    Severity::Medium | Severity::Low => diagnostics::Severity::Warning,
                },
                length: usize::from(whole_file),
                location,
                message,
                hint: Some(hint),
                more: f.occurrences - 1,
            }
        })
        .collect()
}

/// The findings, one a line, as an error or warning lists them.
pub fn render_list(findings: &[&ScanFinding]) -> String {
    findings
        .iter()
        .map(|f| format!("  {}", f.with_file_place()))
        .collect::<Vec<_>>()
        .join("\n")
}
