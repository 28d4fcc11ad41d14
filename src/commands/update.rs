//! `agx update`.

use super::Context;
use crate::cli::UpdateArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &UpdateArgs) -> CliResult {
    Err(CliError::not_implemented("update"))
}
