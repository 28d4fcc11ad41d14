//! `agx-serve`: the runtime that `agx serve` hands off to (see `agx::commands::serve::helper`).
//! Only the serving code is linked in, so an idle server keeps less of agx resident.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args = std::env::args_os().skip(1);
    agx::commands::serve::helper::helper_main(args)
}
