//! `agx verify`: check installed packages against what their install recorded
//! (docs/security.md, "Provenance").

use super::Context;
use crate::cli::VerifyArgs;
use agx_core::error::{CliError, CliResult};
use agx_core::name::PackageName;
use agx_ops::verify::{self, FilesCheck, ProvenanceCheck};

pub fn run(ctx: &Context, args: &VerifyArgs) -> CliResult {
    let names = args
        .packages
        .iter()
        .map(|p| PackageName::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let checked = verify::verify(&ctx.ops()?, &names)?;
    if args.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&checked).expect("serializable"))?;
    } else {
        let mut out = String::new();
        for p in &checked {
            let files = match &p.files {
                FilesCheck::Unchanged => "files unchanged".to_string(),
                FilesCheck::Changed => "files CHANGED since install".to_string(),
                FilesCheck::NotRecorded => "files not recorded at install".to_string(),
                FilesCheck::Unreadable { problem } => format!("files UNREADABLE: {problem}"),
            };
            let provenance = match &p.provenance {
                ProvenanceCheck::Verified { signer } => format!("provenance verified: {signer}"),
                ProvenanceCheck::CheckedAtInstall { signer } => {
                    format!("signature verified at install (not kept): {signer}")
                }
                ProvenanceCheck::Unsigned => "unsigned".to_string(),
                ProvenanceCheck::NotChecked => "provenance not checked for its source".to_string(),
                ProvenanceCheck::Failed { problem } => format!("provenance FAILED: {problem}"),
            };
            out.push_str(&format!(
                "{} {}: {files}; {provenance}\n",
                p.name, p.version
            ));
        }
        ctx.printer.out(out)?;
    }
    let mismatched: Vec<String> = checked
        .iter()
        .filter(|p| p.is_mismatch())
        .map(|p| p.name.to_string())
        .collect();
    if !mismatched.is_empty() {
        let n = mismatched.len();
        return Err(CliError::new(format!(
            "{n} package{} differ{} from what was installed: {}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            mismatched.join(", ")
        ))
        .with_hint(format!(
            "something changed the store after the install: reinstall with `agx install --force {}` (and find out what changed it)",
            mismatched.join(" ")
        )));
    }
    if !args.json {
        ctx.printer.status(
            "Verified",
            &format!(
                "{} package{}",
                checked.len(),
                if checked.len() == 1 { "" } else { "s" }
            ),
        );
    }
    Ok(())
}
