//! `agx info`.

use super::Context;
use crate::cli::InfoArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &InfoArgs) -> CliResult {
    Err(CliError::not_implemented("info"))
}
