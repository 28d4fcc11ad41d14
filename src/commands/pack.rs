//! `agx pack`: validate a package folder, then write its deterministic archive.

use std::io::Write;
use std::path::PathBuf;

use super::Context;
use crate::cli::PackArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, args: &PackArgs) -> CliResult {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let out_dir = args.output.clone().unwrap_or_else(|| PathBuf::from("."));
    let package = crate::manifest::load_package(&dir)?;
    let packed = crate::archive::pack(&package, &out_dir)?;
    crate::ui::status(
        "Packed",
        &format!("{} v{}", package.name(), package.version()),
    );
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "path:   {}\nsha256: {}\nsize:   {}",
        packed.path.display(),
        packed.sha256,
        packed.size
    )
    .map_err(|e| CliError::new(format!("cannot write to stdout: {e}")))?;
    Ok(())
}
