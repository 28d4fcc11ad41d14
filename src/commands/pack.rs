//! `agx pack`: validate a package folder, then write its deterministic archive.

use std::path::PathBuf;

use super::Context;
use crate::cli::PackArgs;
use agx_core::error::{CliError, CliResult};
use agx_model::manifest::render;
use agx_ops::author::{self, Packed};

pub fn run(ctx: &Context, args: &PackArgs) -> CliResult {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let out_dir = args.output.clone().unwrap_or_else(|| PathBuf::from("."));
    let Packed { report, archive } = author::pack(&dir, &out_dir);
    // Findings go to stderr (stdout carries only the archive's details), errors and
    // warnings alike, in `agx validate`'s format.
    if !report.findings.is_empty() {
        ctx.printer
            .err(&render::human(&report, &dir, ctx.printer.color()));
    }
    let (Some(package), Some(packed)) = (&report.package, archive?) else {
        return Err(CliError::silent_failure());
    };
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
