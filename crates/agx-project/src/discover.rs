//! Finding the project: `--project DIR` or `AGX_PROJECT` when given, else the nearest folder
//! at or above the current one whose `agx.toml` has a `[project]`, `[servers]` or `[skills]` table (as
//! cargo finds `Cargo.toml`). A package's own `agx.toml` (only `[package]`) is walked past,
//! so a package folder inside a project belongs to that project.

use std::path::{Path, PathBuf};

use super::{PROJECT_FILE, ProjectError};
use agx_core::regular_file::{Links, ReadProblem, open_non_blocking, read_opened};
use agx_model::manifest::package_file::MAX_FILE_BYTES;

/// The project folder, absolute.
pub fn find_project(explicit: Option<&Path>) -> Result<PathBuf, ProjectError> {
    let cwd = std::env::current_dir().map_err(|source| ProjectError::Read {
        path: PathBuf::from("."),
        source,
    })?;
    match explicit {
        Some(dir) => {
            let dir = cwd.join(dir);
            let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
            if dir.join(PROJECT_FILE).is_file() {
                Ok(dir)
            } else {
                Err(ProjectError::NotFound { start: dir })
            }
        }
        None => walk_up(&cwd).ok_or(ProjectError::NotFound { start: cwd }),
    }
}

/// The nearest folder at or above `start` holding a project file, or an agx.toml that
/// cannot be read or parsed: the walk stops at it, so that loading it reports its error
/// (with line and column) instead of acting on a project further up.
pub fn walk_up(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| stops_discovery(&dir.join(PROJECT_FILE)))
        .map(Path::to_path_buf)
}

fn stops_discovery(file: &Path) -> bool {
    match read_project_text(file) {
        Ok(text) => {
            declares_project(&text) || agx_model::manifest::spanned::parse_toml(&text).is_err()
        }
        Err(ReadProblem::NotFound | ReadProblem::Link { .. }) => false,
        Err(_) => true,
    }
}

/// Whether `file` declares a project. A look at table headers, not a parse: `agx serve`
/// asks this on every start, and a broken file is reported by the commands that read it.
pub fn is_project_file(file: &Path) -> bool {
    read_regular(file).is_some_and(|text| declares_project(&text))
}

fn declares_project(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        [
            "[project]",
            "[project.",
            "[servers]",
            "[servers.",
            "[skills]",
            "[skills.",
        ]
        .iter()
        .any(|h| line.starts_with(h))
            || line.starts_with("project =")
            || line.starts_with("servers =")
            || line.starts_with("skills =")
    })
}

/// The text of `file` when it is a regular file (not a link, FIFO or device: reading a FIFO
/// would wait forever, and `agx validate` never follows a linked manifest).
pub fn read_regular(file: &Path) -> Option<String> {
    read_project_text(file).ok()
}

/// Read a project file found by walking: a link is not followed (reported as `Link`), and
/// only a regular file of at most the package-file cap is read.
fn read_project_text(file: &Path) -> Result<String, ReadProblem> {
    let opened = open_non_blocking(file, Links::Refuse);
    if opened.is_err() && std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(ReadProblem::Link {
            link: PROJECT_FILE.into(),
        });
    }
    let bytes = read_opened(opened, MAX_FILE_BYTES)?;
    String::from_utf8(bytes).map_err(|_| ReadProblem::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_manifest_is_walked_past_and_a_project_found_above() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("repo");
        let package = project.join("packages/tool");
        std::fs::create_dir_all(&package).unwrap();
        std::fs::write(
            project.join(PROJECT_FILE),
            "# team servers\n[servers]\nweather = { server = \"acme/weather/forecast\" }\n",
        )
        .unwrap();
        std::fs::write(
            package.join(PROJECT_FILE),
            "[package]\nname = \"acme/tool\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        assert_eq!(walk_up(&package), Some(project.clone()));
        assert_eq!(walk_up(root.path()), None);
    }

    #[test]
    fn an_agx_toml_that_does_not_parse_stops_the_walk() {
        let root = tempfile::tempdir().unwrap();
        let inner = root.path().join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(root.path().join(PROJECT_FILE), "[servers]\n").unwrap();
        std::fs::write(inner.join(PROJECT_FILE), "[servers\nweather = 1\n").unwrap();
        assert_eq!(walk_up(&inner), Some(inner.clone()));
        // A package's manifest that parses is still walked past.
        std::fs::write(inner.join(PROJECT_FILE), "[package]\nname = \"a/b\"\n").unwrap();
        assert_eq!(walk_up(&inner), Some(root.path().to_path_buf()));
    }
}
