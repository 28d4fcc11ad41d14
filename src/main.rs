//! The `agx` binary: parse arguments, run the command, render errors. Nothing else.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // A client starting a server should not wait for the whole command line to be parsed.
    let args: Vec<_> = std::env::args_os().collect();
    agx::commands::serve::hand_off_early(&args);
    let cli = agx::cli::Cli::parse_from(args);
    agx::ui::configure(cli.global.color, cli.global.quiet, cli.global.verbose);
    agx::ui::exit_with(agx::commands::run(cli))
}
