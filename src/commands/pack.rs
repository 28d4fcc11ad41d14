//! `agx pack`: validate a package folder, then write its deterministic archive.

use std::path::PathBuf;

use super::Context;
use crate::cli::PackArgs;
use crate::error::{CliError, CliResult};
use crate::manifest::{check_package, render};

pub fn run(ctx: &Context, args: &PackArgs) -> CliResult {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let out_dir = args.output.clone().unwrap_or_else(|| PathBuf::from("."));
    let report = check_package(&dir);
    // Findings go to stderr (stdout carries only the archive's details), errors and
    // warnings alike, in `agx validate`'s format.
    if !report.findings.is_empty() {
        ctx.printer
            .err(&render::human(&report, &dir, ctx.printer.color()));
    }
    let package = match report.package {
        Some(package) if !report.has_errors() => package,
        _ => return Err(CliError::silent_failure()),
    };
    let packed = crate::archive::pack(&package, &out_dir)?;
    ctx.printer.status(
        "Packed",
        &format!("{} v{}", package.name(), package.version()),
    );
    ctx.printer.outln(&format!(
        "path:   {}\nsha256: {}\nsize:   {}",
        packed.path.display(),
        packed.sha256,
        packed.size
    ))
}
