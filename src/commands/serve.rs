//! `agx serve`.

use super::Context;
use crate::cli::ServeArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &ServeArgs) -> CliResult {
    Err(CliError::not_implemented("serve"))
}
