//! `agx clients`.

use super::Context;
use crate::cli::JsonArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &JsonArgs) -> CliResult {
    Err(CliError::not_implemented("clients"))
}
