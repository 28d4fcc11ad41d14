//! `agx uninstall-server`.

use super::Context;
use crate::cli::UninstallServerArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &UninstallServerArgs) -> CliResult {
    Err(CliError::not_implemented("uninstall-server"))
}
