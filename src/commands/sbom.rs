//! `agx sbom`: the installed packages or a project's lock as CycloneDX or SPDX JSON
//! (docs/organizations.md, "SBOM").

use super::Context;
use crate::cli::{SbomArgs, SbomFormatArg};
use agx_core::error::CliResult;
use agx_ops::sbom::{self, SbomFormat, SbomTarget};

pub fn run(ctx: &Context, args: &SbomArgs) -> CliResult {
    let target = match &args.project {
        Some(dir) => SbomTarget::Project(Some(dir.as_path())),
        None => SbomTarget::Installed,
    };
    let format = match args.format {
        SbomFormatArg::Cyclonedx => SbomFormat::CycloneDx,
        SbomFormatArg::Spdx => SbomFormat::Spdx,
    };
    let document = sbom::sbom(&ctx.ops()?, target, format)?;
    let text = serde_json::to_string_pretty(&document).expect("serializable") + "\n";
    match &args.output {
        Some(file) => {
            agx_core::atomic::write_file(file, text.as_bytes(), None).map_err(|e| {
                agx_core::error::CliError::new(format!("cannot write {}: {e}", file.display()))
            })?;
            ctx.printer.status(
                "Wrote",
                &format!("the bill of materials to {}", file.display()),
            );
            Ok(())
        }
        None => ctx.printer.out(text),
    }
}
