//! `agx pack`.

use super::Context;
use crate::cli::PackArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &PackArgs) -> CliResult {
    Err(CliError::not_implemented("pack"))
}
