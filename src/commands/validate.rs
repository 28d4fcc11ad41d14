//! `agx validate`.

use super::Context;
use crate::cli::ValidateArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &ValidateArgs) -> CliResult {
    Err(CliError::not_implemented("validate"))
}
