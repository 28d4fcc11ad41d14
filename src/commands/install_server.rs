//! `agx install-server`.

use super::Context;
use crate::cli::InstallServerArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &InstallServerArgs) -> CliResult {
    Err(CliError::not_implemented("install-server"))
}
