//! `agx-serve`: the runtime that `agx serve` hands off to (see `agx::runtime::handoff`).
//! Only the serving code is linked in, so an idle server keeps less of agx resident.

use std::process::ExitCode;

use agx::cli::ColorChoice;
use agx::error::{CliError, CliResult, exit};
use agx::paths::AgxPaths;
use agx::runtime::handoff::Handoff;

fn main() -> ExitCode {
    agx::ui::exit_with(run())
}

fn run() -> CliResult {
    // Only a person gets here with other arguments: a usage error.
    let handoff = Handoff::parse(std::env::args_os().skip(1))
        .map_err(|e| CliError::from(e).with_exit_code(exit::USAGE))?;
    let color = if handoff.color {
        ColorChoice::Always
    } else {
        ColorChoice::Never
    };
    agx::ui::configure(color, false, 0);
    handoff.take_over(&AgxPaths::from_env()?)?;
    Ok(())
}
