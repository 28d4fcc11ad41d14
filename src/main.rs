//! The `agx` binary: parse arguments, run the command, render errors. Nothing else.

use std::process::ExitCode;

// musl's allocator is slow at the many small allocations of a start, and hands freed memory
// back to the kernel at once, so the same pages fault in again: the static Linux binaries use
// mimalloc instead (built without transparent huge pages, which would make each region it
// touches a resident 2 MB page).
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

fn main() -> ExitCode {
    // A client starting a server should not wait for the whole command line to be parsed.
    let args: Vec<_> = std::env::args_os().collect();
    agx::commands::serve::hand_off_early(&args);
    let cli = agx::cli::Cli::parse_from(args);
    let printer = agx_printer::Printer::new(cli.global.color, cli.global.quiet, cli.global.verbose);
    // `agx serve` logs through the runtime's own logger (stderr and its log file).
    if !matches!(cli.command, agx::cli::Command::Serve(_)) {
        printer.install_logger();
    }
    printer.exit_with(agx::commands::run(cli, printer.clone()))
}
