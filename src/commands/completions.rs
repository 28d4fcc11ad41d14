//! `agx completions <shell>`.

use clap::CommandFactory;

use super::Context;
use crate::cli::{Cli, CompletionsArgs};
use crate::error::CliResult;

pub fn run(_ctx: &Context, args: &CompletionsArgs) -> CliResult {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "agx", &mut std::io::stdout());
    Ok(())
}
