//! `agx validate`: check a package folder and show every finding (docs/validate.md).

use std::path::PathBuf;
use std::time::Duration;

use super::Context;
use crate::cli::{OutputFormat, ValidateArgs};
use agx_core::error::{CliError, CliResult};
use agx_model::manifest::{probe, render};
use agx_ops::author::{self, Validated};

pub fn run(ctx: &Context, args: &ValidateArgs) -> CliResult {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let probe = if args.probe {
        Some(probe_timeout()?)
    } else {
        None
    };
    let Validated { report, probed } = author::validate(&dir, probe, &ctx.printer);
    match args.format {
        // Findings are errors and warnings for people: stderr, like rustc and cargo.
        OutputFormat::Human => ctx
            .printer
            .err(&render::human(&report, &dir, ctx.printer.color())),
        OutputFormat::Json => ctx.printer.outln(&render::json(&report, &dir, probed))?,
    }
    let warned = report
        .findings
        .iter()
        .any(|f| f.severity == agx_model::manifest::diagnostics::Severity::Warning);
    if report.has_errors() || (args.strict && warned) {
        return Err(CliError::silent_failure());
    }
    Ok(())
}

/// 200 ms (docs/tool-protocol.md), or `AGX_PROBE_TIMEOUT_MS` for slow machines.
fn probe_timeout() -> CliResult<Duration> {
    match std::env::var("AGX_PROBE_TIMEOUT_MS") {
        Err(_) => Ok(probe::DEFAULT_PROBE_TIMEOUT),
        Ok(v) => v.trim().parse().map(Duration::from_millis).map_err(|_| {
            CliError::new(format!(
                "AGX_PROBE_TIMEOUT_MS is `{v}`, not a number of milliseconds"
            ))
            .with_hint("unset it to use the default of 200 ms")
        }),
    }
}
