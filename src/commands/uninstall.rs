//! `agx uninstall`.

use super::Context;
use crate::cli::UninstallArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &UninstallArgs) -> CliResult {
    Err(CliError::not_implemented("uninstall"))
}
