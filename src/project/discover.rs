//! Finding the project: `--project DIR` or `AGX_PROJECT` when given, else the nearest folder
//! at or above the current one whose `agx.toml` has a `[project]` or `[servers]` table (as
//! cargo finds `Cargo.toml`). A package's own `agx.toml` (only `[package]`) is walked past,
//! so a package folder inside a project belongs to that project.

use std::path::{Path, PathBuf};

use super::{PROJECT_FILE, ProjectError};

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

/// The nearest folder at or above `start` holding a project file.
pub fn walk_up(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| is_project_file(&dir.join(PROJECT_FILE)))
        .map(Path::to_path_buf)
}

/// Whether `file` declares a project. A look at table headers, not a parse: `agx serve`
/// asks this on every start, and a broken file is reported by the commands that read it.
pub fn is_project_file(file: &Path) -> bool {
    let Some(text) = read_regular(file) else {
        return false;
    };
    text.lines().any(|line| {
        let line = line.trim_start();
        ["[project]", "[project.", "[servers]", "[servers."]
            .iter()
            .any(|h| line.starts_with(h))
            || line.starts_with("project =")
            || line.starts_with("servers =")
    })
}

/// The text of `file` when it is a regular file (not a link, FIFO or device: reading a FIFO
/// would wait forever, and `agx validate` never follows a linked manifest).
pub fn read_regular(file: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file() {
        return None;
    }
    std::fs::read_to_string(file).ok()
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
}
