//! `agx serve`: check the arguments, hand off to `agx-serve` when it sits beside `agx`
//! (see `runtime::handoff`), else serve the server from the store in this process.

use std::ffi::OsString;

use super::Context;
use crate::cli::{ColorChoice, ServeArgs};
use crate::error::CliResult;
use crate::name::QualifiedName;
use crate::runtime::{self, Listen, handoff};
use crate::ui;

pub fn run(ctx: &Context, args: &ServeArgs) -> CliResult {
    // Bad arguments are reported before the hand-off (the helper would report them alike).
    let server = QualifiedName::parse(&args.server)?;
    let listen = Listen::parse(args.http.as_deref())?;
    handoff::hand_off(&args.server, args.http.as_deref(), ui::color_enabled());
    runtime::serve_installed(ctx.paths()?, &server, listen)?;
    Ok(())
}

/// `agx serve SERVER [--http ADDR]` exactly, the form client entries use: hand off before
/// the full command line is parsed. Any other form (help, global flags, mistakes) is left
/// to clap and [`run`].
pub fn hand_off_early(args: &[OsString]) {
    if let Some((server, http)) = handoff::plain_serve_command(args) {
        ui::configure(ColorChoice::Auto, false, 0);
        handoff::hand_off(server, http, ui::color_enabled());
    }
}
