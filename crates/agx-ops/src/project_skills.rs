//! A project's skills (docs/projects.md, "Skills"): agx.toml's `[skills]` are locked with
//! their package version and the content hash of the skill's folder, and `agx sync` copies
//! each into the skills folders of the project's clients (`.claude/skills/<name>`,
//! `.agents/skills/<name>`), with the copy and ownership rules of `install-skill`
//! (crates/agx-model/src/skills/copies.rs): a folder agx did not write, or one edited by hand, is never
//! replaced or removed without `--force`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::project::{ProjectOpError, ProjectResult, SyncOptions, SyncReport};
use super::{Context, OpsError};
use agx_clients::records::Records;
use agx_core::name::{PackageName, QualifiedName};
use agx_model::skills::copies::{self, CopyError, CopyOutcome, CopyState, SkillCopy};
use agx_model::skills::folders::{self, FolderChoice, SKILL_CLIENTS};
use agx_model::skills::tree_hash;
use agx_project::lock::field_location;
use agx_project::{LOCK_FILE, LockError, LockFile, LockedPackage, LockedSkill, Project};

/// One skill copy `sync` wrote, removed, kept or (with --check) found different.
#[derive(Debug, Clone, Serialize)]
pub struct SkillSync {
    pub key: String,
    /// `publisher/package/skill`.
    pub skill: String,
    pub path: PathBuf,
    /// `added`, `updated`, `removed`, or `kept` (edited by hand, so no longer agx's: left
    /// where it is when its key left the project).
    pub action: &'static str,
}

/// The folder of `skill` in the store's copy of `name` `version`.
fn source_dir(
    ctx: &Context,
    name: &PackageName,
    version: &semver::Version,
    skill: &str,
) -> PathBuf {
    ctx.store()
        .package_dir(name, version)
        .join(agx_model::manifest::load::SKILLS_FOLDER)
        .join(skill)
}

/// The lock's `content` of a skill folder.
fn content_of(dir: &Path) -> std::io::Result<String> {
    Ok(format!("sha256:{}", tree_hash::hash(dir)?))
}

/// Lock every `[skills]` key at the version its package resolved to (in `packages`), with
/// the content hash of the skill's folder. The packages are installed (held by the
/// project's root, as `sync` would) to read it.
pub(crate) fn lock_skills(
    ctx: &Context,
    project: &Project,
    packages: &[LockedPackage],
) -> ProjectResult<Vec<LockedSkill>> {
    if project.skills.is_empty() {
        return Ok(Vec::new());
    }
    crate::project_install::install_locked_packages(ctx, &project.dir, packages)?;
    let mut locked = Vec::new();
    for (key, decl) in &project.skills {
        let name = &decl.skill.package;
        let package = packages
            .iter()
            .find(|p| &p.name == name)
            .ok_or_else(|| OpsError::Unknown { name: name.clone() })?;
        let dir = source_dir(ctx, name, &package.version, decl.skill.item.as_str());
        if !dir.is_dir() {
            return Err(no_such_skill(ctx, &decl.skill, &package.version).into());
        }
        let content = content_of(&dir).map_err(agx_store::StoreError::Io)?;
        locked.push(LockedSkill {
            key: key.clone(),
            skill: decl.skill.to_string(),
            requirement: decl.version.clone(),
            package: name.clone(),
            version: package.version.clone(),
            content,
        });
    }
    Ok(locked)
}

fn no_such_skill(ctx: &Context, skill: &QualifiedName, version: &semver::Version) -> OpsError {
    let known = ctx
        .store()
        .version_receipt(&skill.package, version)
        .map(|r| {
            r.extension
                .skills
                .iter()
                .map(|s| format!("{}/{}", skill.package, s.name))
                .collect()
        })
        .unwrap_or_default();
    OpsError::NoSuchSkill {
        package: format!("{} {version}", skill.package),
        skill: skill.item.to_string(),
        known,
    }
}

/// A field of skill `key` that disagrees, placed in the lock file of `dir`.
pub(crate) fn skill_field(dir: &Path, key: &str, field: &'static str, detail: String) -> LockError {
    LockError::Disagrees {
        location: field_location(&dir.join(LOCK_FILE), "skill", "key", key, field),
        what: format!("skill `{key}`"),
        field,
        detail,
    }
}

/// The skills `sync` copies: the lock's keys that agx.toml still has (all of them under a
/// stale lock with --check, which reports the staleness).
fn wanted_skills<'a>(project: &'a Project, lock: &'a LockFile) -> Vec<&'a LockedSkill> {
    lock.skills
        .iter()
        .filter(|s| project.skills.contains_key(&s.key))
        .collect()
}

/// The skills folders of the project's clients: `.claude/skills` and `.agents/skills` for
/// the usual set.
fn skill_folders(project: &Project) -> Vec<PathBuf> {
    let clients: Vec<&str> = project
        .all_clients()
        .map(|c| c.id)
        .filter(|id| SKILL_CLIENTS.contains(id))
        .collect();
    folders::folders(&project.dir, &clients, true, FolderChoice::Shared)
}

/// Write (or with --check compare) every wanted copy, and remove the copies an earlier sync
/// wrote for this project that are no longer wanted. A copy's package must hold exactly the
/// content the lock records, else nothing is written (a poisoned lock).
pub(crate) fn sync_skills(
    ctx: &Context,
    project: &Project,
    lock: &LockFile,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    let records_file = ctx.paths.clients_file();
    let wanted = wanted_skills(project, lock);
    if wanted.is_empty() && !records_file.exists() {
        return Ok(());
    }
    let _lock = Records::lock(&records_file).map_err(OpsError::from)?;
    let mut records = Records::load(&records_file).map_err(OpsError::from)?;
    // The sources, each checked against the lock (an installed package only: with --check a
    // missing package is already reported).
    let mut sources = Vec::new();
    for s in &wanted {
        let skill = QualifiedName::parse(&s.skill).map_err(OpsError::from)?;
        let dir = source_dir(ctx, &s.package, &s.version, skill.item.as_str());
        let archive = lock.package(&s.package).map(|p| p.sha256.as_str());
        if !ctx.store().has_version(&s.package, &s.version, archive) {
            continue;
        }
        let hash = s.content.strip_prefix("sha256:").unwrap_or_default();
        // A copy this project holds was hashed from this very folder of the store (which
        // never changes once complete) when it was written: no need to read it again.
        let known = records.skills.iter().any(|c| {
            c.project.as_deref() == Some(project.dir.as_path())
                && c.skill == skill
                && c.version == s.version
                && c.sha256 == hash
        });
        if !known {
            let content = content_of(&dir).ok();
            if content.as_deref() != Some(s.content.as_str()) {
                let found = match content {
                    Some(c) => format!(
                        "but the skill's folder in {} {} hashes to `{c}`",
                        s.package, s.version
                    ),
                    None => format!(
                        "but {} {} has no skill `{}`",
                        s.package, s.version, skill.item
                    ),
                };
                return Err(ProjectOpError::Project(
                    skill_field(
                        &project.dir,
                        &s.key,
                        "content",
                        format!("is `{}`, {found}", s.content),
                    )
                    .into(),
                ));
            }
        }
        if !options.check {
            let package_dir = ctx.store().package_dir(&s.package, &s.version);
            super::skills::gate_skill(ctx, &package_dir, &skill)?;
        }
        sources.push((*s, skill, dir));
    }
    let folders = skill_folders(project);
    // Every copy the lock wants stays, also one whose package is missing (under --check).
    let mut keep: BTreeSet<PathBuf> = BTreeSet::new();
    for s in &wanted {
        let skill = QualifiedName::parse(&s.skill).map_err(OpsError::from)?;
        keep.extend(folders.iter().map(|f| f.join(skill.item.as_str())));
    }
    let before = records.skills.clone();
    let result = sync_copies(
        project,
        (&folders, keep),
        &sources,
        &mut records.skills,
        options,
        report,
    );
    if !options.check && records.skills != before {
        records.save(&records_file).map_err(OpsError::from)?;
    }
    result
}

/// Write (or compare) the copies of `sources` in `folders`, then remove the project's
/// recorded copies that are not in `keep`.
fn sync_copies(
    project: &Project,
    (folders, keep): (&[PathBuf], BTreeSet<PathBuf>),
    sources: &[(&LockedSkill, QualifiedName, PathBuf)],
    recorded: &mut Vec<SkillCopy>,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    for (locked, skill, source) in sources {
        for folder in folders {
            let dest = folder.join(skill.item.as_str());
            let change = |action| SkillSync {
                key: locked.key.clone(),
                skill: locked.skill.clone(),
                path: dest.clone(),
                action,
            };
            if options.check {
                if let Some(difference) = check_copy(recorded, locked, &dest) {
                    report.differences.push(difference);
                    report.skills.push(change("updated"));
                }
                continue;
            }
            let hash = locked.content.strip_prefix("sha256:").unwrap_or_default();
            // Most syncs change nothing: a recorded copy as the lock wants it, unedited.
            let in_place = recorded.iter().any(|c| {
                c.path == dest
                    && c.project.as_deref() == Some(project.dir.as_path())
                    && c.skill == *skill
                    && c.version == locked.version
                    && c.sha256 == hash
                    && copies::state(c) == CopyState::Ok
            });
            if in_place {
                continue;
            }
            // A cloned repository cannot make agx write outside it through a link.
            agx_clients::check_confined_in(&project.dir, &dest).map_err(OpsError::from)?;
            let outcome = copies::install_hashed(
                recorded,
                skill,
                &locked.version,
                (source, hash),
                &dest,
                options.force,
            )
            .map_err(OpsError::from)?;
            if let Some(copy) = recorded.iter_mut().find(|c| c.path == dest) {
                copy.project = Some(project.dir.clone());
            }
            match outcome {
                CopyOutcome::Written => report.skills.push(change("added")),
                CopyOutcome::Replaced => report.skills.push(change("updated")),
                _ => {}
            }
        }
    }
    // Copies an earlier sync wrote that the project no longer wants.
    let gone: Vec<SkillCopy> = recorded
        .iter()
        .filter(|c| c.project.as_deref() == Some(project.dir.as_path()) && !keep.contains(&c.path))
        .cloned()
        .collect();
    for copy in gone {
        let change = |action| SkillSync {
            key: copy.skill.item.to_string(),
            skill: copy.skill.to_string(),
            path: copy.path.clone(),
            action,
        };
        if options.check {
            if copies::state(&copy) != CopyState::Missing {
                report.differences.push(format!(
                    "{}: skill copy of {} is no longer in the project",
                    copy.path.display(),
                    copy.skill
                ));
                report.skills.push(change("removed"));
            }
            continue;
        }
        match copies::uninstall(recorded, &copy.skill, &copy.path, false) {
            Ok(CopyOutcome::Removed) => report.skills.push(change("removed")),
            Ok(_) => {}
            // Edited by hand: the user's now. Left in place and no longer recorded.
            Err(CopyError::HandEdited { .. }) => {
                recorded.retain(|c| c.path != copy.path);
                report.skills.push(change("kept"));
            }
            Err(e) => return Err(OpsError::from(e).into()),
        }
    }
    Ok(())
}

/// What `sync --check` says of one wanted copy, `None` when it is as the lock wants.
fn check_copy(recorded: &[SkillCopy], locked: &LockedSkill, dest: &Path) -> Option<String> {
    let at = dest.display();
    let Some(copy) = recorded.iter().find(|c| c.path == dest) else {
        return Some(if dest.exists() {
            format!("{at}: skill folder `{}` was not written by agx", locked.key)
        } else {
            format!("{at}: skill copy of {} is missing", locked.skill)
        });
    };
    match copies::state(copy) {
        CopyState::Missing => Some(format!("{at}: skill copy of {} is missing", locked.skill)),
        CopyState::HandEdited => Some(format!(
            "{at}: skill copy of {} was edited by hand",
            locked.skill
        )),
        CopyState::Ok
            if copy.skill.to_string() != locked.skill
                || format!("sha256:{}", copy.sha256) != locked.content =>
        {
            Some(format!(
                "{at}: skill copy is {} {}, the lock wants {} {}",
                copy.skill, copy.version, locked.skill, locked.version
            ))
        }
        CopyState::Ok => None,
    }
}
