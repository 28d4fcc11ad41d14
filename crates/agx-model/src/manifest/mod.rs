//! `agx.toml` and definition files: model, loading, validation (docs/validate.md).

pub mod agx_toml;
pub mod diagnostics;
pub mod fields;
pub mod items;
pub(crate) mod literal;
pub mod load;
pub mod model;
pub mod package_file;
pub mod probe;
pub mod render;
pub mod snapshot;
pub mod spanned;
pub mod template;
pub mod uri_template;

use std::path::{Path, PathBuf};

pub use diagnostics::{ALL_CODES, Code, Finding, Report, Severity};
pub use model::*;
pub use snapshot::load_installed;

/// The interpreter of a PyPI package's venv, relative to the package folder: how agx lays
/// out what it provisions from PyPI, and how the runtime recognises such a server.
pub const VENV_PYTHON: &str = "venv/bin/python";

/// A package that failed to load: its folder and every error finding.
#[derive(Debug, thiserror::Error)]
#[error("package at {} is not valid ({} error{})", dir.display(), findings.len(), if findings.len() == 1 { "" } else { "s" })]
pub struct LoadError {
    pub dir: PathBuf,
    pub findings: Vec<Finding>,
}

impl agx_core::error::Hint for LoadError {
    fn hint(&self) -> Option<String> {
        Some(format!(
            "run `agx validate {}` for the details",
            self.dir.display()
        ))
    }
}

/// Check a package folder: every stage, every finding (inspection only; runs nothing). A
/// folder of skills without agx.toml is checked as the package `agx install` makes of it
/// (crates/agx-model/src/skills/wrap.rs).
pub fn check_package(dir: &Path) -> Report {
    let Some(what) = crate::skills::wrap::detect(dir) else {
        return load::check(dir);
    };
    crate::skills::wrap::check(dir, &what).unwrap_or_else(|e| {
        use crate::skills::wrap::WrapError;
        let (code, path) = match &e {
            WrapError::Link { path } => (diagnostics::LINK_IN_PACKAGE, Some(path)),
            WrapError::Special { path } | WrapError::NotUtf8 { path } => {
                (diagnostics::NOT_PACKABLE, Some(path))
            }
            _ => (diagnostics::NOT_PACKABLE, None),
        };
        // The finding is at the file it is about, relative to the folder checked.
        let root = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let file = path
            .and_then(|p| p.strip_prefix(&root).ok())
            .map(|rel| rel.to_string_lossy().replace('\\', "/"))
            .filter(|rel| !rel.is_empty())
            .unwrap_or_else(|| ".".into());
        let mut f = diagnostics::Findings::default();
        f.whole(code, &file, e.to_string(), agx_core::error::Hint::hint(&e));
        Report {
            findings: f.list,
            package: None,
        }
    })
}

/// Load a package that must be valid (warnings allowed). Skills without agx.toml are not a
/// package here: only `agx install` wraps them.
pub fn load_package(dir: &Path) -> Result<Package, LoadError> {
    let report = load::check(dir);
    match report.package {
        Some(p) if !report.has_errors() => Ok(p),
        _ => Err(LoadError {
            dir: dir.to_path_buf(),
            findings: report.errors().cloned().collect(),
        }),
    }
}

#[cfg(test)]
mod robustness_tests;
