//! What package authors run before publishing: validation (with an optional self-test of
//! every tool) and packing. Both return the validation report for the command to render.

use std::path::Path;
use std::time::Duration;

use agx_archive::{ArchiveError, PackedArchive};
use agx_core::report::Reporter;
use agx_model::manifest::{Report, check_package, probe};

/// The findings of `agx validate`.
pub struct Validated {
    pub report: Report,
    /// Whether the tools' self-tests ran (they run only on a package without errors).
    pub probed: bool,
}

/// Check the package in `dir`; with `probe`, also run each tool's self-test under that
/// timeout (this runs package code).
pub fn validate(dir: &Path, probe: Option<Duration>, reporter: &dyn Reporter) -> Validated {
    let mut report = check(dir);
    if let Some(package) = &report.package {
        let scanned = agx_model::scan::scan_checked(dir, package);
        let findings = agx_model::scan::as_validate_findings(&scanned);
        report.findings.extend(findings);
    }
    let mut probed = false;
    if let Some(timeout) = probe {
        match &report.package {
            Some(package) => {
                let findings = probe::probe_package(package, timeout);
                report.findings.extend(findings);
                probed = true;
            }
            None => reporter.warn("--probe skipped: the package has errors; fix them first"),
        }
    }
    Validated { report, probed }
}

/// Every finding of a folder: its package, and its project tables when agx.toml declares a
/// project (a project-only agx.toml is not a package).
fn check(dir: &Path) -> Report {
    // A project file is checked for its project tables; the package checker runs when the
    // file is (also) a package's manifest.
    let project = agx_project::manifest::project_tables(dir);
    let mut report = match project {
        Some(false) => Report::default(),
        _ => check_package(dir),
    };
    if project.is_some() {
        // A server of the package in the same file is checked against its declarations.
        let own = report.package.clone();
        let declared = |name: &agx_core::name::PackageName| match &own {
            Some(p) if p.name() == name => Some(p.manifest.extension.settings.clone()),
            _ => installed_settings(dir, name),
        };
        let findings = agx_project::manifest::check_dir(dir, &declared);
        report.findings.extend(findings);
    }
    report
}

/// The declared settings of an installed package, for checking a project's values (`None`
/// when it is not installed, or agx's home cannot be found: those checks are then skipped).
fn installed_settings(
    project: &Path,
    name: &agx_core::name::PackageName,
) -> Option<Vec<agx_model::settings::Setting>> {
    let paths = agx_core::paths::AgxPaths::from_env().ok()?;
    let project = agx_clients::absolute_dir(project).ok();
    agx_project::manifest::installed_settings(
        &agx_store::Store::open(&paths),
        project.as_deref(),
        name,
    )
}

/// The result of `agx pack`: the validation report, and the archive when the package had no
/// errors (or why writing it failed).
pub struct Packed {
    pub report: Report,
    pub archive: Result<Option<PackedArchive>, ArchiveError>,
}

/// Validate the package in `dir` and, when it has no errors, write its archive into
/// `out_dir`.
pub fn pack(dir: &Path, out_dir: &Path) -> Packed {
    // The project tables travel in the archive's agx.toml: they must be valid too.
    let report = check(dir);
    let archive = match &report.package {
        Some(package) if !report.has_errors() => {
            agx_archive::pack_dir(&package.dir, package.name(), package.version(), out_dir)
                .map(Some)
        }
        _ => Ok(None),
    };
    Packed { report, archive }
}
