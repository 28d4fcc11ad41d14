//! `agx-serve`: the runtime that `agx serve` hands off to (see `agx_runtime::handoff`).
//! Only the serving code is linked in, so an idle server keeps less of agx resident.

use std::process::ExitCode;

// musl's allocator is slow at the many small allocations of a start, and hands freed memory
// back to the kernel at once, so the same pages fault in again: the static Linux binaries use
// mimalloc instead (built without transparent huge pages, which would make each region it
// touches a resident 2 MB page).
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use agx_core::error::{CliError, exit};
use agx_core::paths::AgxPaths;
use agx_printer::{ColorChoice, Printer};
use agx_runtime::handoff::Handoff;

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
        .and_then(|paths| Ok(handoff.take_over(&paths, agx_runtime::handoff_build!())?));
    printer.exit_with(served)
}
