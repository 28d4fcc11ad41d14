//! `agx doctor`.

use super::Context;
use crate::cli::DoctorArgs;
use crate::error::{CliError, CliResult};

pub fn run(_ctx: &Context, _args: &DoctorArgs) -> CliResult {
    Err(CliError::not_implemented("doctor"))
}
