//! `agx doctor` for skill copies: a copy edited by hand, one whose package is no longer
//! installed, one that is missing. `--fix` restores a missing copy from the installed
//! package and removes an unedited copy of an uninstalled package; an edited copy is left
//! for the user to decide (docs/skills.md, "Doctor"). A copy in a user folder that no
//! client set up on this machine reads is noted (not a problem: the client may come later).

use serde::Serialize;

use crate::HostEnv;
use agx_core::paths::AgxPaths;
use agx_model::skills::copies::{self, CopyState, SkillCopy};
use agx_model::skills::folders::{self, FolderScope};

/// What is wrong with one recorded copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillProblem {
    /// The copy's content differs from what agx wrote.
    HandEdited,
    /// The copy's folder is gone.
    CopyMissing,
    /// The skill's package is not installed any more (or no longer has the skill).
    PackageMissing,
    /// A note, not a problem: no client set up on this machine reads the copy's folder
    /// (`~/.agents/skills` with only Claude Code here), so no agent will see the skill yet.
    NoReader,
}

impl SkillProblem {
    /// Whether the finding is a problem (`agx doctor` fails) rather than a note.
    pub fn is_problem(self) -> bool {
        !matches!(self, SkillProblem::NoReader)
    }
}

#[derive(Debug, Serialize)]
pub struct SkillFinding {
    pub path: String,
    pub skill: String,
    pub problem: SkillProblem,
    pub detail: String,
    /// What --fix did, or what the user should do.
    pub action: String,
    pub fixed: bool,
}

/// Where a copy comes from: the version its project's lock holds (a project's copy), else
/// the user's installed version; `None` when that is not in the store.
fn source_of(
    store: &agx_store::Store,
    copy: &SkillCopy,
) -> Option<(semver::Version, std::path::PathBuf)> {
    let skill_dir = |dir: std::path::PathBuf| {
        dir.join(agx_model::manifest::load::SKILLS_FOLDER)
            .join(copy.skill.item.as_str())
    };
    // A project's skill of its own is copied from the project's folder.
    if let Some(folder) = &copy.folder {
        return Some((copy.version.clone(), folder.clone()));
    }
    if copy.project.is_some() {
        let name = &copy.skill.package;
        return store.has_version(name, &copy.version, None).then(|| {
            (
                copy.version.clone(),
                skill_dir(store.package_dir(name, &copy.version)),
            )
        });
    }
    let installed = store.installed(&copy.skill.package).ok().flatten()?;
    Some((installed.version, skill_dir(installed.dir)))
}

/// Check every recorded copy; with `fix`, repair what is safe. Records of copies that were
/// removed are dropped from `recorded`.
pub(crate) fn check(
    paths: &AgxPaths,
    host: Option<&HostEnv>,
    recorded: &mut Vec<SkillCopy>,
    fix: bool,
) -> Vec<SkillFinding> {
    let store = agx_store::Store::open(paths);
    let mut findings = Vec::new();
    let mut keep = Vec::with_capacity(recorded.len());
    for copy in std::mem::take(recorded) {
        let state = copies::state(&copy);
        let source = source_of(&store, &copy).filter(|(_, dir)| dir.is_dir());
        let finding = |problem, detail: String, action: String| SkillFinding {
            path: copy.path.display().to_string(),
            skill: copy.skill.to_string(),
            problem,
            detail,
            action,
            fixed: false,
        };
        let uninstall = format!("agx uninstall-skill CLIENT {}", copy.skill);
        // A project's skill of its own has no package: its folder is named instead.
        let own_folder = copy.folder.as_ref().map(|folder| {
            let project = copy.project.as_deref().unwrap_or(folder.as_path());
            (folder.display().to_string(), project.display().to_string())
        });
        match (state, &source) {
            (CopyState::Ok, Some(_)) => keep.push(copy),
            (CopyState::HandEdited, _) => {
                findings.push(finding(
                    SkillProblem::HandEdited,
                    "the copy differs from what agx wrote".into(),
                    match &own_folder {
                        Some((folder, project)) => format!(
                            "left as it is; `agx sync --force` in {project} restores the copy of {folder}"
                        ),
                        None => format!(
                            "left as it is; `agx install-skill CLIENT {} --force` restores the package's copy",
                            copy.skill
                        ),
                    },
                ));
                keep.push(copy);
            }
            (CopyState::Missing, Some((version, dir))) => {
                let mut f = finding(
                    SkillProblem::CopyMissing,
                    "the copy's folder is gone".into(),
                    "copy the skill from the installed package again".into(),
                );
                let mut copy = copy.clone();
                if fix {
                    let mut one = Vec::new();
                    if copies::install(&mut one, &copy.skill, version, dir, &copy.path, false)
                        .is_ok()
                    {
                        // Still the project's copy, of the same source.
                        let restored = one.remove(0);
                        copy = SkillCopy {
                            project: copy.project.clone(),
                            folder: copy.folder.clone(),
                            ..restored
                        };
                        f.fixed = true;
                    }
                }
                findings.push(f);
                keep.push(copy);
            }
            (CopyState::Missing, None) => {
                let mut f = finding(
                    SkillProblem::PackageMissing,
                    match &own_folder {
                        Some((folder, _)) => {
                            format!("the project's skill folder {folder} and the copy are gone")
                        }
                        None => format!(
                            "package {} is not installed and the copy is gone",
                            copy.skill.package
                        ),
                    },
                    "forget the copy".into(),
                );
                if fix {
                    f.fixed = true;
                } else {
                    keep.push(copy);
                }
                findings.push(f);
            }
            (CopyState::Ok, None) => {
                let mut f = match &own_folder {
                    Some((folder, project)) => finding(
                        SkillProblem::PackageMissing,
                        format!("the project's skill folder {folder} is gone"),
                        format!(
                            "remove the copy, or restore the folder and run `agx sync` in {project}"
                        ),
                    ),
                    None => finding(
                        SkillProblem::PackageMissing,
                        format!(
                            "package {} is not installed (or has no skill `{}`)",
                            copy.skill.package, copy.skill.item
                        ),
                        format!(
                            "remove the copy, or `agx install {}` to keep it",
                            copy.skill.package
                        ),
                    ),
                };
                let mut one = vec![copy.clone()];
                if fix && copies::uninstall(&mut one, &copy.skill, &copy.path, false).is_ok() {
                    f.fixed = true;
                } else {
                    if fix {
                        f.action = format!("left as it is; run `{uninstall}`");
                    }
                    keep.push(copy);
                }
                findings.push(f);
            }
        }
    }
    if let Some(host) = host {
        findings.extend(recorded_without_reader(&keep, host));
    }
    *recorded = keep;
    findings
}

/// A note for each copy in a user's skills folder that no client set up here reads.
fn recorded_without_reader(copies: &[SkillCopy], host: &HostEnv) -> Vec<SkillFinding> {
    let set_up: Vec<&str> = folders::SKILL_CLIENTS
        .iter()
        .copied()
        .filter(|client| is_set_up(client, host))
        .collect();
    let mut notes = Vec::new();
    for copy in copies {
        let Some(folder) = copy.path.parent() else {
            continue;
        };
        let readers = folders::readers(folder, Some(&host.home));
        let user_folder = readers.iter().any(|(_, s)| *s == FolderScope::User);
        if !user_folder || readers.iter().any(|(c, _)| set_up.contains(c)) {
            continue;
        }
        let names: Vec<&str> = readers.iter().map(|(c, _)| display(c)).collect();
        let action = match set_up.first() {
            Some(client) => format!(
                "install it where a client you use reads it: `agx install-skill {client} {}`",
                copy.skill
            ),
            None => format!("set up {} to use it", names.join(" or ")),
        };
        notes.push(SkillFinding {
            path: copy.path.display().to_string(),
            skill: copy.skill.to_string(),
            problem: SkillProblem::NoReader,
            detail: format!(
                "no client set up on this machine reads {} ({} would)",
                folder.display(),
                names.join(", ")
            ),
            action,
            fixed: false,
        });
    }
    notes
}

/// Whether `client` has been used on this machine: its user file's folder exists (for
/// Claude Code, whose file is in the home folder itself, the file or `~/.claude`).
pub(crate) fn is_set_up(client: &str, host: &HostEnv) -> bool {
    let Some(spec) = crate::table::find(client) else {
        return false;
    };
    let file = (spec.user)(host);
    if client == "claude-code" {
        return file.is_file() || host.home.join(".claude").is_dir();
    }
    file.parent().is_some_and(std::path::Path::is_dir)
}

fn display(client: &str) -> &'static str {
    crate::table::find(client).map_or("a client", |c| c.display)
}
