//! `agx registry`.

use super::Context;
use crate::cli::RegistryCommand;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &RegistryCommand) -> CliResult {
    Err(CliError::not_implemented("registry"))
}
