//! `agx outdated`.

use std::fmt::Write as _;

use super::Context;
use crate::cli::JsonArgs;
use agx_core::error::CliResult;
use agx_ops as ops;

pub fn run(ctx: &Context, args: &JsonArgs) -> CliResult {
    let outdated = ops::outdated::outdated(&ctx.ops()?)?;
    if args.json {
        return ctx
            .printer
            .outln(&serde_json::to_string(&outdated).expect("serializable"));
    }
    for (name, why) in &outdated.unchecked {
        ctx.printer.status("Note", &format!("{name}: {why}"));
    }
    if outdated.packages.is_empty() {
        ctx.printer.status(
            "Checked",
            &format!("{} package(s): all up to date", outdated.checked),
        );
        return Ok(());
    }
    let width = outdated
        .packages
        .iter()
        .map(|c| c.name.to_string().len())
        .max()
        .unwrap_or(0)
        .max("package".len());
    let mut out = format!(
        "{:width$}  {:10} {:10} latest\n",
        "package", "current", "wanted"
    );
    for c in &outdated.packages {
        let _ = writeln!(
            out,
            "{:width$}  {:10} {:10} {}",
            c.name.to_string(),
            c.current.to_string(),
            c.wanted.to_string(),
            c.latest
        );
    }
    ctx.printer.out(out)
}
