//! `agx update`.

use super::Context;
use crate::cli::UpdateArgs;
use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageName;
use agx_ops as ops;

pub fn run(ctx: &Context, args: &UpdateArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let recorder = agx_core::report::Recorder::new(&ctx.printer);
    let ops = ops::Context {
        reporter: &recorder,
        signer_changes: args.signer.changes(),
        ..ctx.ops()?
    };
    let held = ops::update::update(&ops, &names, args.accept_permissions)?;
    for h in &held {
        ctx.printer.warn(&format!(
            "kept {} v{}: v{} asks for more permissions: {}",
            h.name,
            h.current,
            h.wanted,
            h.grown.join("; ")
        ));
    }
    // Something moved: the held-back packages are warnings, as cargo's are. Nothing moved
    // because of them: the update asked for did not happen.
    if held.is_empty() || !recorder.done().is_empty() {
        return Ok(());
    }
    let names: Vec<String> = held.iter().map(|h| h.name.to_string()).collect();
    Err(CliError::new(format!(
        "nothing updated: the newer version of {} asks for more permissions",
        names.join(", ")
    ))
    .with_hint(format!(
        "read what grew above (and `agx info` once installed); `agx update --accept-permissions {}` takes it, as does `agx install {}@VERSION`",
        names.join(" "),
        names[0]
    )))
}
