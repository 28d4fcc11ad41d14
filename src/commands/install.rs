//! `agx install`.

use super::Context;
use crate::cli::InstallArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &InstallArgs) -> CliResult {
    Err(CliError::not_implemented("install"))
}
