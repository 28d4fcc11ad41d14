//! `agx policy show`: the effective policy, each rule with the file and line it comes from
//! (docs/policy.md).

use super::Context;
use crate::cli::PolicyCommand;
use agx_core::error::CliResult;

pub fn run(ctx: &Context, command: &PolicyCommand) -> CliResult {
    let PolicyCommand::Show(args) = command;
    let view = agx_ops::policy::show(&ctx.ops()?, args.project.as_deref())?;
    if args.json {
        return ctx
            .printer
            .outln(&serde_json::to_string_pretty(&view).expect("serializable"));
    }
    let mut text = String::new();
    for file in &view.files {
        let state = if file.present { "" } else { " (none)" };
        text.push_str(&format!("{:<8} {}{state}\n", file.layer, file.path));
    }
    if view.rules.is_empty() {
        text.push_str("\nNo rules: agx installs and serves anything you ask for.\n");
        return ctx.printer.out(text);
    }
    text.push('\n');
    let width = view.rules.iter().map(|r| r.rule.len()).max().unwrap_or(0);
    for rule in &view.rules {
        text.push_str(&format!(
            "{:<width$}  {}\n{:<width$}  from {} ({})\n",
            rule.rule, rule.value, "", rule.at, rule.layer
        ));
    }
    text.push_str("\nEvery layer holds: a package must pass each rule of each file.\n");
    ctx.printer.out(text)
}
