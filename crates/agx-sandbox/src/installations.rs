//! The folders a confined program needs besides its permissions: the installation its
//! interpreter comes from, and those of the programs on `PATH` (Linux and macOS rules both
//! grant them read-only).

use std::path::{Path, PathBuf};

/// The installations of the programs on PATH (`<prefix>/bin` gives `<prefix>`): a tool's
/// script may start any of them (`python3` under pyenv, `node` under nvm). A prefix that is
/// the home folder itself (`~/bin`), or above it, is left out: that would open the home.
pub(crate) fn on_path() -> Vec<PathBuf> {
    let home = directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf());
    let Some(path) = std::env::var_os("PATH") else {
        return Vec::new();
    };
    std::env::split_paths(&path)
        .filter_map(|dir| std::fs::canonicalize(dir).ok())
        .filter_map(|dir| dir.parent().map(PathBuf::from))
        .filter(|prefix| {
            prefix.parent().is_some() && !home.as_ref().is_some_and(|h| h.starts_with(prefix))
        })
        .collect()
}

/// The installation `program` runs from (a venv's `python` links to one outside the store,
/// `node` lives under its prefix): `<prefix>` of `<prefix>/bin/<program>`.
pub(crate) fn of_program(program: &Path) -> Option<PathBuf> {
    let found = if program.components().count() > 1 {
        program.to_path_buf()
    } else {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())?
    };
    let real = std::fs::canonicalize(found).ok()?;
    Some(real.parent()?.parent()?.to_path_buf())
}
