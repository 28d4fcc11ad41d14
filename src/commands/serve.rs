//! `agx serve`: check the arguments, hand off to `agx-serve` when it sits beside `agx`
//! (see `runtime::handoff`), else serve the server from the store in this process.

use std::ffi::OsString;

use super::Context;
use crate::cli::ServeArgs;
use agx_core::error::CliResult;
use agx_printer::{ColorChoice, use_color};
use agx_runtime::{self as runtime, Listen, handoff};

pub fn run(ctx: &Context, args: &ServeArgs) -> CliResult {
    // Bad arguments are reported before the hand-off (the helper would report them alike).
    let served = runtime::Served::parse(&args.server)?;
    let listen = Listen::parse(args.http.as_deref())?;
    if args.no_sandbox {
        // SAFETY: agx has started no other thread yet; the variable reaches the helper that
        // `hand_off` starts and every program of the server.
        unsafe { std::env::set_var(agx_sandbox::OFF_ENV, "off") };
    }
    handoff::hand_off(
        &args.server,
        args.http.as_deref(),
        &args.args,
        ctx.printer.color(),
        agx_runtime::handoff_build!(),
    );
    let agx = agx_clients::agx_binary().map_err(agx_ops::OpsError::NoBinary)?;
    runtime::serve(ctx.paths()?, &served, listen, &args.args, &agx)?;
    Ok(())
}

/// `agx serve SERVER [--http ADDR] [-- ARG…]` exactly, the form client entries use: hand
/// off before the full command line is parsed. Any other form (help, global flags,
/// mistakes) is left to clap and [`run`].
pub fn hand_off_early(args: &[OsString]) {
    if let Some((server, http, server_args)) = handoff::plain_serve_command(args) {
        let server_args: Vec<String> = server_args.into_iter().map(str::to_string).collect();
        handoff::hand_off(
            server,
            http,
            &server_args,
            use_color(ColorChoice::Auto),
            agx_runtime::handoff_build!(),
        );
    }
}
