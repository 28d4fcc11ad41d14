//! `agx list`.

use super::Context;
use crate::cli::ListArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &ListArgs) -> CliResult {
    Err(CliError::not_implemented("list"))
}
