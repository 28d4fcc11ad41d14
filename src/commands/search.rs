//! `agx search`.

use super::Context;
use crate::cli::SearchArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &SearchArgs) -> CliResult {
    Err(CliError::not_implemented("search"))
}
