//! `agx doctor`: drift between clients-v1.toml, client files and the store.

use std::fmt::Write;

use super::Context;
use crate::cli::DoctorArgs;
use agx_core::error::{CliError, CliResult};

pub fn run(ctx: &Context, args: &DoctorArgs) -> CliResult {
    let report = agx_ops::doctor::run(&ctx.ops()?, args.fix)?;
    let mut out = String::new();
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report).expect("serializable")
        );
    } else {
        for f in &report.findings {
            let what = format!(
                "{} {} `{}` ({}) in {}: {}",
                f.client, f.scope, f.key, f.server, f.file, f.detail
            );
            finding(&mut out, &what, f.fixed, args.fix, &f.action);
        }
        for f in &report.skill_findings {
            let what = format!("skill {} at {}: {}", f.skill, f.path, f.detail);
            if f.problem.is_problem() {
                finding(&mut out, &what, f.fixed, args.fix, &f.action);
            } else {
                let _ = writeln!(out, "note: {what}\n  fix: {}", f.action);
            }
        }
    }
    ctx.printer.out(out)?;
    if !args.json {
        ctx.printer
            .status("Sandbox", &agx_sandbox::machine_summary());
    }
    let open = report.findings.iter().filter(|f| !f.fixed).count()
        + report
            .skill_findings
            .iter()
            .filter(|f| !f.fixed && f.problem.is_problem())
            .count();
    if open == 0 {
        ctx.printer.status(
            "Checked",
            &format!(
                "{} client entr{}: no problems left (`agx clients` shows what each client here loads)",
                report.checked,
                if report.checked == 1 { "y" } else { "ies" }
            ),
        );
        return Ok(());
    }
    let hint = if args.fix {
        "the problems left need a decision; follow the suggestions above"
    } else {
        "`agx doctor --fix` repairs what it safely can"
    };
    let problems = if open == 1 { "problem" } else { "problems" };
    Err(CliError::new(format!("{open} {problems} with client entries")).with_hint(hint))
}

/// One finding: what is wrong (or was fixed), then what was or can be done about it.
fn finding(out: &mut String, what: &str, fixed: bool, fixing: bool, action: &str) {
    let mark = if fixed { "fixed" } else { "problem" };
    let _ = writeln!(out, "{mark}: {what}");
    let done = if fixed {
        "done"
    } else if fixing {
        "left"
    } else {
        "fix"
    };
    let _ = writeln!(out, "  {done}: {action}");
}
