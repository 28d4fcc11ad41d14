//! `agx audit`: scan what is installed for poisoning and list the findings (docs/security.md).

use super::Context;
use crate::cli::AuditArgs;
use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageName;
use agx_ops::audit::{self, AuditTarget};

pub fn run(ctx: &Context, args: &AuditArgs) -> CliResult {
    let name = args
        .package
        .as_deref()
        .map(PackageName::parse)
        .transpose()?;
    let target = match (&name, args.project) {
        (Some(name), _) => AuditTarget::Package(name),
        (None, true) => AuditTarget::Project(None),
        (None, false) => AuditTarget::Installed,
    };
    let result = audit::audit(&ctx.ops()?, target)?;
    if args.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&result).expect("serializable"))?;
    } else {
        let mut out = String::new();
        for p in &result.packages {
            for f in &p.findings {
                let accepted = if p.accepted.iter().any(|c| c == f.code) {
                    " (accepted at install)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{} {}: {}{accepted}\n",
                    p.name,
                    p.version,
                    f.with_file_place()
                ));
            }
        }
        ctx.printer.out(out)?;
        for missing in &result.missing {
            ctx.printer.warn(&format!(
                "{missing} is locked but not installed; `agx sync` installs it"
            ));
        }
        let findings: usize = result.packages.iter().map(|p| p.findings.len()).sum();
        ctx.printer.status(
            "Audited",
            &format!(
                "{} package{}: {findings} finding{}, {} high not accepted",
                result.packages.len(),
                if result.packages.len() == 1 { "" } else { "s" },
                if findings == 1 { "" } else { "s" },
                result.unaccepted()
            ),
        );
    }
    if result.unaccepted() > 0 {
        let n = result.unaccepted();
        return Err(CliError::new(format!(
            "{n} high finding{} of the poisoning scan {} not accepted by any install",
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" }
        ))
        .with_hint(
            "`agx serve` hides the items they are about; remove the package (`agx uninstall`), or if you trust it install it again with `--accept-finding CODE` (docs/security.md)",
        ));
    }
    Ok(())
}
