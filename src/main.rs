//! The `agx` binary: parse arguments, run the command, render errors. Nothing else.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = agx::cli::Cli::parse();
    agx::ui::configure(cli.global.color, cli.global.quiet, cli.global.verbose);
    match agx::commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if !err.silent {
                eprintln!("{}", agx::ui::render_error(&err));
            }
            ExitCode::from(u8::try_from(err.exit_code).unwrap_or(1))
        }
    }
}
