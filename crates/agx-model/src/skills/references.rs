//! File references in the Markdown body of a SKILL.md: link targets (`[run](scripts/run.py)`,
//! and reference-style ones: `[run][1]` … `[1]: scripts/run.py`) and code spans that name a
//! file of the skill (`` `scripts/run.sh` ``). Each must stay
//! inside the skill's folder and name something that exists there.

use std::ops::Range;
use std::path::Path;

use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::spanned::SourceFile;

/// Folders of the specification: a code span starting with one of them is a reference.
const SKILL_FOLDERS: &[&str] = &["scripts/", "references/", "assets/"];

/// One reference: the path as written (decoded) and where it is in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub path: String,
    pub span: Range<usize>,
}

/// The references in `text[body]`, in order. Fenced code blocks are skipped: they hold
/// commands and examples, not links.
pub fn find(text: &str, body: &Range<usize>) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut offset = body.start;
    let mut fence: Option<&str> = None;
    for raw in text[body.clone()].split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => match definition(line) {
                Some((at, target)) => {
                    if let Some(path) = link_path(target) {
                        let start = offset + at;
                        out.push(Reference {
                            path,
                            span: start..start + target.len(),
                        });
                    }
                }
                None => scan_line(line, offset, &mut out),
            },
            _ => {}
        }
        offset += raw.len();
    }
    out
}

fn scan_line(line: &str, base: usize, out: &mut Vec<Reference>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                let ticks = line[i..].bytes().take_while(|b| *b == b'`').count();
                let open = i + ticks;
                let closer = "`".repeat(ticks);
                let Some(len) = line[open..].find(&closer) else {
                    return;
                };
                let content = &line[open..open + len];
                if let Some(path) = code_span_path(content.trim()) {
                    let start = base + open + content.find(path).unwrap_or(0);
                    out.push(Reference {
                        path: path.to_string(),
                        span: start..start + path.len(),
                    });
                }
                i = open + len + ticks;
            }
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                let open = i + 2;
                let Some(len) = line[open..].find(')') else {
                    return;
                };
                let inner = line[open..open + len].trim();
                // `[x](<path with spaces> "title")`
                let target = match inner.strip_prefix('<') {
                    Some(rest) => rest.split('>').next().unwrap_or(""),
                    None => inner.split_whitespace().next().unwrap_or(""),
                };
                if let Some(path) = link_path(target) {
                    let start = base + open + line[open..].find(target).unwrap_or(0);
                    out.push(Reference {
                        path,
                        span: start..start + target.len(),
                    });
                }
                i = open + len + 1;
            }
            _ => i += 1,
        }
    }
}

/// A link reference definition (CommonMark: `[label]: target`, at most three spaces in,
/// then nothing or a title in quotes or parentheses): where its target starts in the line,
/// and the target (`<…>` unwrapped). Footnotes (`[^1]: text`) are not definitions.
fn definition(line: &str) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line[indent..].strip_prefix('[').filter(|_| indent <= 3)?;
    let close = rest.find("]:")?;
    let label = &rest[..close];
    if label.trim().is_empty() || label.starts_with('^') || label.contains('[') {
        return None;
    }
    let after = &rest[close + 2..];
    let spaces = after.len() - after.trim_start().len();
    let after = after.trim_start();
    let (target, tail) = match after.strip_prefix('<') {
        Some(inner) => {
            let end = inner.find('>')?;
            (&inner[..end], &inner[end + 1..])
        }
        None => {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..end], &after[end..])
        }
    };
    let tail = tail.trim();
    let titled = tail.is_empty()
        || [('"', '"'), ('\'', '\''), ('(', ')')]
            .iter()
            .any(|(o, c)| tail.len() >= 2 && tail.starts_with(*o) && tail.ends_with(*c));
    if target.is_empty() || !titled {
        return None;
    }
    let bracket = usize::from(after.starts_with('<'));
    Some((indent + 1 + close + 2 + spaces + bracket, target))
}

/// A code span is a reference when it is one word naming a file of the skill's folders or
/// starting with `./` or `../`. A folder's bare name (`scripts/`) names the convention, not
/// a file.
fn code_span_path(content: &str) -> Option<&str> {
    let is_path = !content.is_empty()
        && !content.contains(char::is_whitespace)
        && (SKILL_FOLDERS
            .iter()
            .any(|f| content.starts_with(f) && content.len() > f.len())
            || content.starts_with("./")
            || content.starts_with("../"));
    is_path.then_some(content)
}

/// A link target is a reference when it has no scheme (`https:`, `mailto:`) and is not only
/// an anchor; its `#fragment` and `?query` are dropped and `%20` decoded.
fn link_path(target: &str) -> Option<String> {
    if target.is_empty() || target.starts_with('#') {
        return None;
    }
    let scheme_end = target.find(':');
    let has_scheme = scheme_end.is_some_and(|i| {
        i > 1 // `C:` is a drive letter, reported as outside below
            && target[..i]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if has_scheme {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or(target);
    Some(
        percent_encoding::percent_decode_str(path)
            .decode_utf8_lossy()
            .into_owned(),
    )
}

/// The path relative to the skill folder, or `None` when it is absolute or climbs out.
pub fn resolve(path: &str) -> Option<String> {
    if path.starts_with(['/', '\\']) || path.get(1..2) == Some(":") {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Check every reference of the body against the skill folder `<package>/<folder>`.
pub fn check(
    f: &mut Findings,
    file: &SourceFile,
    body: &Range<usize>,
    package: &Path,
    folder: &str,
) {
    for r in find(&file.text, body) {
        match resolve(&r.path) {
            None => f.at(
                codes::REFERENCE_OUTSIDE_SKILL,
                file,
                &r.span,
                format!("`{}` points outside the skill's folder `{folder}`", r.path),
                Some(
                    "a skill is copied into each client on its own: move the file into the skill's folder and refer to it relative to SKILL.md"
                        .into(),
                ),
            ),
            Some(rel) => {
                // `symlink_metadata`: a link exists (the folder walk reports it as a link).
                let target = package.join(folder).join(&rel);
                if std::fs::symlink_metadata(&target).is_err() {
                    f.at(
                        codes::REFERENCE_MISSING,
                        file,
                        &r.span,
                        format!("`{}` does not exist in the skill's folder `{folder}`", r.path),
                        Some(format!(
                            "create `{folder}/{rel}`, or correct the reference"
                        )),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(body: &str) -> Vec<String> {
        find(body, &(0..body.len()))
            .into_iter()
            .map(|r| {
                assert_eq!(&body[r.span.clone()], r.path.replace(' ', "%20"));
                r.path
            })
            .collect()
    }

    #[test]
    fn links_and_file_code_spans_are_references() {
        let body = "Run [the script](scripts/run.py) or `scripts/x.sh`.\n\
                    See [docs](https://example.com), [top](#usage), `git commit -m`, `./a.md`.\n\
                    Scripts go in `scripts/`.\n\
                    ![logo](assets/logo%20big.png \"Logo\")\n";
        assert_eq!(
            paths(body),
            [
                "scripts/run.py",
                "scripts/x.sh",
                "./a.md",
                "assets/logo big.png"
            ]
        );
    }

    #[test]
    fn reference_style_link_definitions_are_references() {
        let body = "Read [the key][1] and [notes][n].\n\
                    [1]: ../../etc/passwd\n\
                    \x20 [n]: <references/notes.md> \"Notes\"\n\
                    [web]: https://example.com\n\
                    [^1]: A footnote, not a link.\n\
                    [x]: not a definition at all\n";
        assert_eq!(paths(body), ["../../etc/passwd", "references/notes.md"]);
    }

    #[test]
    fn fenced_blocks_are_skipped() {
        let body = "```bash\npython `scripts/a.py` [x](../b)\n```\n`references/r.md`\n";
        assert_eq!(paths(body), ["references/r.md"]);
    }

    #[test]
    fn resolve_keeps_paths_inside_the_folder() {
        assert_eq!(resolve("scripts/../a.md").as_deref(), Some("a.md"));
        assert_eq!(
            resolve("./scripts/run.py").as_deref(),
            Some("scripts/run.py")
        );
        assert_eq!(resolve("../other/SKILL.md"), None);
        assert_eq!(resolve("scripts/../../x"), None);
        assert_eq!(resolve("/etc/passwd"), None);
        assert_eq!(resolve("C:/Windows"), None);
        assert_eq!(resolve("..\\x"), None);
    }
}
