//! `agx export FORMAT OUT_DIR PACKAGE…`: write packages as plugin bundles (docs/plugins.md).

use super::Context;
use crate::cli::{ExportArgs, ExportFormat};
use agx_core::error::CliResult;
use agx_ops::export::{self, ExportRequest};
use agx_sources::plugins::Format;

pub fn run(ctx: &Context, args: &ExportArgs) -> CliResult {
    let format = match args.format {
        ExportFormat::ClaudeMarketplace => Format::ClaudeMarketplace,
        ExportFormat::AgentPlugin => Format::AgentPlugin,
        ExportFormat::GeminiExtension => Format::GeminiExtension,
        ExportFormat::CodexMarketplace => Format::CodexMarketplace,
        ExportFormat::CursorMarketplace => Format::CursorMarketplace,
    };
    let exported = export::export(
        &ctx.ops()?,
        &ExportRequest {
            format,
            out_dir: &args.out_dir,
            packages: &args.packages,
            marketplace_name: args.name.as_deref(),
        },
    )?;
    if args.json {
        return ctx
            .printer
            .outln(&serde_json::to_string(&exported).unwrap_or_default());
    }
    for plugin in &exported.plugins {
        ctx.printer.status(
            "Exported",
            &format!(
                "{} {} as {} `{}`",
                plugin.package,
                plugin.version,
                format.as_str(),
                plugin.name
            ),
        );
        ctx.printer.outln(&plugin.path.display().to_string())?;
    }
    Ok(())
}
