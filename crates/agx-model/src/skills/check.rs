//! Checking one skill folder: its SKILL.md is read the way every package file is read (a
//! regular file, no links, at most 4 MiB, UTF-8), then its front matter and body.

use std::path::Path;

use super::front_matter::{self, SplitError};
use super::model::SkillDef;
use super::references;
use super::rules::{self, FrontMatter};
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::package_file::{self, ReadProblem};
use crate::manifest::spanned::SourceFile;

/// The file at the root of every skill folder.
pub const SKILL_FILE: &str = "SKILL.md";

/// Longer than this is a warning: the specification recommends moving detail into
/// `references/`, which clients read only when the skill needs it.
pub const RECOMMENDED_MAX_LINES: usize = 500;

/// Check the skill in `<package>/<folder>` (`folder` is `/`-separated, e.g. `skills/review`):
/// every finding goes to `f`; the skill when it has no error.
pub fn check_skill(f: &mut Findings, package: &Path, folder: &str) -> Option<SkillDef> {
    let rel = format!("{folder}/{SKILL_FILE}");
    let text = match package_file::read_text(package, &rel) {
        Ok(text) => text,
        Err(ReadProblem::NotFound) => {
            f.whole(
                codes::DEFINITION_MISSING,
                &rel,
                format!("the skill folder `{folder}` has no {SKILL_FILE}"),
                Some(format!(
                    "create `{rel}`: front matter with `name` and `description`, then the instructions (`agx new DIR --skill NAME` shows one)"
                )),
            );
            return None;
        }
        Err(problem) => {
            crate::manifest::load::report_unread(
                f,
                &rel,
                &problem,
                format!("{SKILL_FILE} is UTF-8 Markdown with YAML front matter"),
            );
            return None;
        }
    };
    let file = SourceFile::new(rel, text);
    let split = match front_matter::split(&file.text) {
        Ok(split) => split,
        Err(why) => {
            let (span, message) = match why {
                SplitError::NoOpening => (
                    0..0,
                    format!("`{}` does not start with a `---` line", file.rel),
                ),
                SplitError::NotClosed => (
                    0..3,
                    format!(
                        "the front matter of `{}` is not closed by a `---` line",
                        file.rel
                    ),
                ),
            };
            f.at(
                codes::FRONT_MATTER_MISSING,
                &file,
                &span,
                message,
                Some("start the file with `---`, the lines `name: …` and `description: …`, and `---`".into()),
            );
            return None;
        }
    };
    let node = match front_matter::parse(&file.text, &split.yaml) {
        Ok(node) => node,
        Err(e) => {
            f.at(
                codes::SYNTAX_ERROR,
                &file,
                &e.span,
                format!(
                    "the front matter of `{}` is not valid YAML: {}",
                    file.rel, e.message
                ),
                Some("fix the YAML syntax at this place (quote a value that holds `: `)".into()),
            );
            return None;
        }
    };
    let lines = file.text.lines().count();
    if lines > RECOMMENDED_MAX_LINES {
        f.whole(
            codes::SKILL_TOO_LONG,
            &file.rel,
            format!("`{}` has {lines} lines, more than the recommended {RECOMMENDED_MAX_LINES}", file.rel),
            Some("move details into `references/` files and link them from SKILL.md; clients load them only when needed".into()),
        );
    }
    let fm = FrontMatter {
        file: &file,
        node: &node,
        anchor: 0..3,
    };
    let skill = rules::check(f, &fm, folder);
    let errors_before = f.error_count();
    references::check(f, &file, &split.body, package, folder);
    skill.filter(|_| f.error_count() == errors_before)
}
