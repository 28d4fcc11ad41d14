//! `agx-serve`: the runtime that `agx serve` hands off to (see `agx::runtime::handoff`).
//! Only the serving code is linked in, so an idle server keeps less of agx resident.

use std::process::ExitCode;

use agx::error::{CliError, exit};
use agx::paths::AgxPaths;
use agx::printer::{ColorChoice, Printer};
use agx::runtime::handoff::Handoff;

fn main() -> ExitCode {
    // Only a person gets here with other arguments: a usage error.
    let handoff = match Handoff::parse(std::env::args_os().skip(1)) {
        Ok(handoff) => handoff,
        Err(e) => {
            let printer = Printer::new(ColorChoice::Auto, false, 0);
            return printer.exit_with(Err(CliError::from(e).with_exit_code(exit::USAGE)));
        }
    };
    // Errors in the colours `agx` chose.
    let color = if handoff.color {
        ColorChoice::Always
    } else {
        ColorChoice::Never
    };
    let printer = Printer::new(color, false, 0);
    let served = AgxPaths::from_env()
        .map_err(CliError::from)
        .and_then(|paths| Ok(handoff.take_over(&paths)?));
    printer.exit_with(served)
}
