//! `agx install-skill` and `agx uninstall-skill`: parse the place, call the one library op,
//! say what happened to each copy.

use super::Context;
use crate::cli::{SkillArgs, SkillFolder, SkillScope};
use agx_core::error::CliResult;
use agx_model::skills::copies::CopyOutcome;
use agx_model::skills::folders::FolderChoice;
use agx_ops::skills::{self, SkillPlace};

pub enum Action<'a> {
    /// With the poisoning scan's codes to accept.
    Install(&'a [String]),
    Uninstall,
}

pub fn run(ctx: &Context, args: &SkillArgs, action: Action<'_>) -> CliResult {
    let cwd;
    let project = match (args.scope, &args.project) {
        (SkillScope::User, None) => None,
        (_, Some(dir)) => Some(dir.as_path()),
        (SkillScope::Project, None) => {
            cwd = std::env::current_dir().map_err(agx_store::StoreError::Io)?;
            Some(cwd.as_path())
        }
    };
    let (clients, skill) =
        super::clients_and_target(&args.targets, &args.clients, "acme/dev/review")?;
    let place = SkillPlace {
        clients,
        project,
        folder: match args.folder {
            SkillFolder::Shared => FolderChoice::Shared,
            SkillFolder::Own => FolderChoice::Own,
        },
    };
    let accept = match action {
        Action::Install(codes) => codes,
        Action::Uninstall => &[],
    };
    let ops = agx_ops::Context {
        accept_findings: accept,
        ..ctx.ops()?
    };
    let changes = match action {
        Action::Install(_) => skills::install_skill(&ops, &place, skill, args.force)?,
        Action::Uninstall => skills::uninstall_skill(&ops, &place, skill, args.force)?,
    };
    if changes.is_empty() {
        ctx.printer
            .status("Skipped", &format!("no copy of {} to remove", skill));
    }
    for change in changes {
        let (verb, what) = match change.outcome {
            CopyOutcome::Written => ("Installed", "into"),
            CopyOutcome::Replaced => ("Replaced", "in"),
            CopyOutcome::Unchanged => ("Unchanged", "in"),
            CopyOutcome::Removed => ("Removed", "from"),
            CopyOutcome::Forgotten => ("Forgot", "already gone from"),
        };
        // Where a copy is, and who loads it from there: "installed" only means something
        // for the clients that read that folder.
        let readers = match (&action, change.read_by.is_empty()) {
            (Action::Uninstall, _) => String::new(),
            (Action::Install(_), true) => " (no client reads this folder)".into(),
            (Action::Install(_), false) => format!(" (read by {})", change.read_by.join(", ")),
        };
        ctx.printer.status(
            verb,
            &format!("{} {what} {}{readers}", skill, change.path.display()),
        );
    }
    Ok(())
}
