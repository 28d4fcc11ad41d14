//! `agx completions <shell>`.

use clap::CommandFactory;

use super::Context;
use crate::cli::{Cli, CompletionsArgs};
use agx_core::error::CliResult;

pub fn run(ctx: &Context, args: &CompletionsArgs) -> CliResult {
    let mut cmd = Cli::command();
    // Generated into memory first: clap_complete panics when its writer fails, and a
    // closed pipe (`agx completions bash | head`) must end quietly.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "agx", &mut script);
    ctx.printer.out(script)
}
