//! A description far longer than its neighbours: room for instructions a reviewer skims
//! past. Compared with the median of the package's other item descriptions, so a package
//! whose every description is thorough is not flagged.

use super::{LONG_DESCRIPTION, ScanFinding, Subject};
use crate::manifest::SourceLocation;

/// How many times the median a description must exceed.
pub(super) const RATIO: usize = 4;
/// Below this many characters no description is flagged, however short the others are.
pub(super) const FLOOR: usize = 1000;

/// One finding for each description over [`RATIO`] × the median of the others and over
/// [`FLOOR`] characters. A package with one description has nothing to compare it with.
pub(super) fn outliers(
    descriptions: &[(Subject, Option<SourceLocation>, String)],
) -> Vec<ScanFinding> {
    let lengths: Vec<usize> = descriptions
        .iter()
        .map(|(_, _, d)| d.chars().count())
        .collect();
    let mut out = Vec::new();
    for (i, (subject, location, _)) in descriptions.iter().enumerate() {
        let mut others: Vec<usize> = lengths
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &n)| n)
            .collect();
        if others.is_empty() {
            continue;
        }
        others.sort_unstable();
        let median = others[others.len() / 2];
        let length = lengths[i];
        if length <= FLOOR || length <= RATIO * median {
            continue;
        }
        out.push(ScanFinding {
            code: LONG_DESCRIPTION.code,
            name: LONG_DESCRIPTION.name,
            severity: LONG_DESCRIPTION.severity,
            subject: subject.clone(),
            field: "description".into(),
            location: location.clone(),
            line: 1,
            column: 1,
            code_point: None,
            detail: format!(
                "{length} characters, {}× the median of the package's other {} descriptions ({median})",
                length / median.max(1),
                others.len()
            ),
            occurrences: 1,
        });
    }
    out
}
