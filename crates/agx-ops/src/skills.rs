//! `agx install-skill` and `agx uninstall-skill`: copy an installed package's skill into the
//! skills folders of one client or all of them, or remove agx's copies, under the lock of
//! `clients-v1.toml`, which records each copy (docs/skills.md).

use std::path::{Path, PathBuf};

use super::{Context, OpsError, OpsResult};
use agx_clients::records::Records;
use agx_core::name::QualifiedName;
use agx_model::skills::copies::{self, CopyOutcome};
use agx_model::skills::folders::{self, FolderChoice, SKILL_CLIENTS};

/// Which skills folders: the clients, user or project, shared or own folders.
#[derive(Debug, Clone)]
pub struct SkillPlace<'a> {
    /// Client ids of [`SKILL_CLIENTS`], or `all`; at least one.
    pub clients: Vec<&'a str>,
    /// The project folder; `None` for the user's folders under the home folder.
    pub project: Option<&'a Path>,
    pub folder: FolderChoice,
}

/// One copy's change.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SkillChange {
    pub path: PathBuf,
    pub outcome: CopyOutcome,
    /// The clients that load skills from the copy's folder (docs/skills.md, "Where clients
    /// read skills"), so a copy is never reported as installed for a client that does not.
    pub read_by: Vec<&'static str>,
}

/// The clients that read skills from the folder `copy` is in.
fn read_by(copy: &Path) -> Vec<&'static str> {
    let home = agx_clients::HostEnv::current().map(|h| h.home);
    copy.parent()
        .map(|folder| folders::readers(folder, home.as_deref()))
        .unwrap_or_default()
        .into_iter()
        .map(|(client, _)| client)
        .collect()
}

impl SkillPlace<'_> {
    /// The clients named, `all` spelled out.
    fn clients(&self) -> OpsResult<Vec<&'static str>> {
        let mut clients: Vec<&'static str> = Vec::new();
        for &client in &self.clients {
            if client == "all" {
                clients.extend(SKILL_CLIENTS);
            } else if let Some(known) = SKILL_CLIENTS.iter().find(|c| **c == client) {
                clients.push(known);
            } else {
                return Err(OpsError::NoSkillClient {
                    client: client.to_string(),
                });
            }
        }
        Ok(clients)
    }

    /// The skills folders, in order, without repeats.
    fn folders(&self) -> OpsResult<Vec<PathBuf>> {
        let clients = self.clients()?;
        let base = match self.project {
            Some(project) => std::path::absolute(project).map_err(agx_store::StoreError::Io)?,
            None => {
                agx_clients::HostEnv::current()
                    .ok_or(agx_clients::ClientError::NoHome)?
                    .home
            }
        };
        Ok(folders::folders(
            &base,
            &clients,
            self.project.is_some(),
            self.folder,
        ))
    }
}

/// Copy the skill `skill` (`publisher/package/skill`) of an installed package into every
/// folder of `place`. Stops at the first folder it may not write; copies already made stay
/// recorded.
pub fn install_skill(
    ctx: &Context,
    place: &SkillPlace<'_>,
    skill: &str,
    force: bool,
) -> OpsResult<Vec<SkillChange>> {
    let skill = QualifiedName::parse(skill)?;
    let policy = super::policy::gate(ctx, place.project)?;
    let store = ctx.store();
    let installed =
        store
            .installed(&skill.package)?
            .ok_or_else(|| OpsError::SkillPackageMissing {
                package: skill.package.clone(),
            })?;
    let skills = &installed.receipt.extension.skills;
    if !skills.iter().any(|s| s.name == skill.item.as_str()) {
        return Err(OpsError::NoSuchSkill {
            package: format!("{} {}", skill.package, installed.version),
            skill: skill.item.to_string(),
            known: skills
                .iter()
                .map(|s| format!("{}/{}", skill.package, s.name))
                .collect(),
        });
    }
    let source = installed
        .dir
        .join(agx_model::manifest::load::SKILLS_FOLDER)
        .join(skill.item.as_str());
    gate_skill(ctx, &installed.dir, &skill)?;
    policy.check_installed(&store, &skill.package, &installed.version)?;
    for client in place.clients()? {
        policy.check_client(client)?;
    }
    let folders = place.folders()?;
    // Hashed once for every folder it is copied to.
    let hash =
        agx_model::skills::tree_hash::hash(&source).map_err(|e| copies::CopyError::Copy {
            path: source.clone(),
            source: e,
        })?;
    with_records(ctx, |records| {
        let mut changes = Vec::new();
        for folder in &folders {
            let dest = folder.join(skill.item.as_str());
            // A cloned repository cannot make agx write outside it through a link.
            if let Some(project) = place.project
                && let Err(e) = confined(project, &dest)
            {
                return (changes, Err(e));
            }
            let outcome = copies::install_hashed(
                &mut records.skills,
                &skill,
                &installed.version,
                (&source, &hash),
                &dest,
                force,
            );
            match outcome {
                Ok(outcome) => changes.push(SkillChange {
                    read_by: read_by(&dest),
                    path: dest,
                    outcome,
                }),
                Err(e) => return (changes, Err(e.into())),
            }
        }
        (changes, Ok(()))
    })
}

/// The poisoning scan of a skill about to be copied into a client's skills folder, where the
/// client reads it with no `agx serve` between: a high finding refuses the copy unless this
/// run accepts its code (`--accept-finding`), even if the package's install accepted it
/// (docs/security.md).
pub(crate) fn gate_skill(
    ctx: &Context,
    package_dir: &Path,
    skill: &QualifiedName,
) -> OpsResult<()> {
    let name = skill.item.as_str();
    let folder = format!("{}/{name}", agx_model::manifest::load::SKILLS_FOLDER);
    let findings = agx_model::scan::scan_skill(package_dir, &folder, name);
    let what = format!("the skill {skill}");
    Ok(agx_installer::scan_gate(
        &what,
        &findings,
        ctx.accept_findings,
        ctx.reporter,
    )?)
}

fn confined(project: &Path, dest: &Path) -> OpsResult<()> {
    let project = std::path::absolute(project).map_err(agx_store::StoreError::Io)?;
    Ok(agx_clients::check_confined_in(&project, dest)?)
}

/// Remove agx's copies of `skill` from every folder of `place`.
pub fn uninstall_skill(
    ctx: &Context,
    place: &SkillPlace<'_>,
    skill: &str,
    force: bool,
) -> OpsResult<Vec<SkillChange>> {
    let skill = QualifiedName::parse(skill)?;
    let folders = place.folders()?;
    with_records(ctx, |records| {
        let mut changes = Vec::new();
        for folder in &folders {
            let dest = folder.join(skill.item.as_str());
            // With `all` or several clients, a folder that never held the skill is simply
            // skipped.
            let several = place.clients.len() > 1 || place.clients.contains(&"all");
            let recorded = records.skills.iter().any(|c| c.path == dest);
            if several && !recorded && !dest.exists() {
                continue;
            }
            match copies::uninstall(&mut records.skills, &skill, &dest, force) {
                Ok(outcome) => changes.push(SkillChange {
                    read_by: read_by(&dest),
                    path: dest,
                    outcome,
                }),
                Err(e) => return (changes, Err(e.into())),
            }
        }
        (changes, Ok(()))
    })
}

/// Run `change` on the records under their lock and save them, also when it failed part
/// way: the copies it made are on disk and must stay recorded.
fn with_records(
    ctx: &Context,
    change: impl FnOnce(&mut Records) -> (Vec<SkillChange>, OpsResult<()>),
) -> OpsResult<Vec<SkillChange>> {
    let path = ctx.paths.clients_file();
    let _lock = Records::lock(&path)?;
    let mut records = Records::load(&path)?;
    let before = records.skills.clone();
    let (changes, result) = change(&mut records);
    if records.skills != before {
        records.save(&path)?;
    }
    result.map(|()| changes)
}

/// What [`remove_copies_of`] did.
#[derive(Debug, Default)]
pub struct UninstalledCopies {
    /// Copies removed (or already gone), with their records.
    pub removed: Vec<(copies::SkillCopy, CopyOutcome)>,
    /// Copies edited by hand: left in place and recorded, for the user to decide.
    pub kept: Vec<copies::SkillCopy>,
}

/// After `agx uninstall`: remove the copies `install-skill` made of the skills of
/// `packages` (a project's copies follow its lock, which still holds its version).
pub fn remove_copies_of(
    ctx: &Context,
    packages: &[agx_core::name::PackageName],
) -> OpsResult<UninstalledCopies> {
    let path = ctx.paths.clients_file();
    let mut done = UninstalledCopies::default();
    if !path.exists() {
        return Ok(done);
    }
    let _lock = Records::lock(&path)?;
    let mut records = Records::load(&path)?;
    let before = records.skills.clone();
    let mut result = Ok(());
    let ours: Vec<copies::SkillCopy> = records
        .skills
        .iter()
        .filter(|c| c.project.is_none() && packages.contains(&c.skill.package))
        .cloned()
        .collect();
    for copy in ours {
        match copies::uninstall(&mut records.skills, &copy.skill, &copy.path, false) {
            Ok(outcome) => done.removed.push((copy, outcome)),
            Err(copies::CopyError::HandEdited { .. }) => done.kept.push(copy),
            Err(e) => {
                result = Err(e.into());
                break;
            }
        }
    }
    if records.skills != before {
        records.save(&path)?;
    }
    result.map(|()| done)
}

/// A recorded copy and how it looks now (for `agx clients`).
#[derive(Debug, Clone)]
pub struct CopyStatus {
    pub copy: copies::SkillCopy,
    pub state: copies::CopyState,
    /// The skill's package is installed (for a project's copy: the version it copied).
    pub package_installed: bool,
}

/// Every skill copy agx recorded, in record order.
pub fn recorded_copies(paths: &agx_core::paths::AgxPaths) -> OpsResult<Vec<CopyStatus>> {
    let records = Records::load(&paths.clients_file())?;
    let store = agx_store::Store::open(paths);
    Ok(records
        .skills
        .into_iter()
        .map(|copy| CopyStatus {
            state: copies::state(&copy),
            // A project's copy comes from the version its lock holds.
            package_installed: match (&copy.folder, &copy.project) {
                // A project's skill of its own: its folder takes the package's place.
                (Some(folder), _) => folder.is_dir(),
                (None, Some(_)) => store.has_version(&copy.skill.package, &copy.version, None),
                (None, None) => matches!(store.installed(&copy.skill.package), Ok(Some(_))),
            },
            copy,
        })
        .collect())
}

/// After an update: bring every recorded copy whose package now has another version up to
/// that version, atomically per copy. An edited copy (or a file or link in its place) is
/// left as it is, and a copy that cannot be written is reported: each with a warning, and
/// the others are still refreshed.
pub fn refresh_copies(ctx: &Context) -> OpsResult<()> {
    let store = ctx.store();
    let path = ctx.paths.clients_file();
    if !path.exists() {
        return Ok(());
    }
    let changes = {
        let _lock = Records::lock(&path)?;
        let mut records = Records::load(&path)?;
        let mut changes = Vec::new();
        for i in 0..records.skills.len() {
            let copy = records.skills[i].clone();
            // A project's copy follows its lock: `agx sync` there moves it.
            if copy.project.is_some() {
                continue;
            }
            let Ok(Some(installed)) = store.installed(&copy.skill.package) else {
                continue;
            };
            let source = installed
                .dir
                .join(agx_model::manifest::load::SKILLS_FOLDER)
                .join(copy.skill.item.as_str());
            if installed.version == copy.version || !source.is_dir() {
                continue;
            }
            if copies::state(&copy) == copies::CopyState::HandEdited {
                ctx.reporter.warn(&format!(
                    "{} at {} was edited by hand; left at {} (`agx install-skill CLIENT {} --force` updates it)",
                    copy.skill,
                    copy.path.display(),
                    copy.version,
                    copy.skill
                ));
                continue;
            }
            match copies::install(
                &mut records.skills,
                &copy.skill,
                &installed.version,
                &source,
                &copy.path,
                false,
            ) {
                Ok(_) => changes.push(format!(
                    "{} {} in {}",
                    copy.skill,
                    installed.version,
                    copy.path.display()
                )),
                Err(e) => {
                    let why = agx_core::error::CliError::from_error(&e);
                    ctx.reporter.warn(&format!(
                        "{} at {} was not refreshed, left at {}: {}{}",
                        copy.skill,
                        copy.path.display(),
                        copy.version,
                        std::iter::once(why.message)
                            .chain(why.causes)
                            .collect::<Vec<_>>()
                            .join(": "),
                        agx_core::error::Hint::hint(&e)
                            .map(|h| format!(" ({h})"))
                            .unwrap_or_default()
                    ));
                }
            }
        }
        if !changes.is_empty() {
            records.save(&path)?;
        }
        changes
    };
    for change in changes {
        ctx.reporter.status("Refreshed", &change);
    }
    Ok(())
}
