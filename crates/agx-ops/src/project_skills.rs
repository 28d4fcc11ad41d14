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
use agx_project::{
    LOCK_FILE, LockError, LockFile, LockedPackage, LockedSkill, LockedSkillFolder, PackageSkill,
    Project, SkillDecl,
};

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
    let declared: Vec<(&String, &PackageSkill)> = (project.skills.iter())
        .filter_map(|(key, decl)| Some((key, decl.package()?)))
        .collect();
    if declared.is_empty() {
        return Ok(Vec::new());
    }
    crate::project_install::install_locked_packages(ctx, &project.dir, packages)?;
    let mut locked = Vec::new();
    for (key, decl) in declared {
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

/// Lock every `[skills]` key naming a folder of the project at the content hash of the
/// folder, once it holds a skill that checks. The folder must be the project's own: a link
/// on the way out of it is refused.
pub(crate) fn lock_skill_folders(project: &Project) -> ProjectResult<Vec<LockedSkillFolder>> {
    let mut locked = Vec::new();
    for (key, decl) in &project.skills {
        let SkillDecl::Folder { path } = decl else {
            continue;
        };
        let dir = project.dir.join(path);
        agx_clients::check_confined_in(&project.dir, &dir).map_err(OpsError::from)?;
        check_skill_folder(key, path, &dir)?;
        let content = content_of(&dir).map_err(agx_store::StoreError::Io)?;
        locked.push(LockedSkillFolder {
            key: key.clone(),
            path: path.clone(),
            content,
        });
    }
    Ok(locked)
}

/// A skill folder of the project holds one skill that checks, as `agx validate` sees it.
fn check_skill_folder(key: &str, path: &str, dir: &Path) -> ProjectResult<()> {
    use agx_model::skills::wrap::{self, SkillFolder};
    let problem = |detail: String| {
        ProjectOpError::from(OpsError::SkillFolder {
            key: key.to_string(),
            path: path.to_string(),
            detail,
        })
    };
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() || m.is_symlink()) {
        return Err(problem(format!("there is no folder {path}")));
    }
    let is_skill = std::fs::symlink_metadata(dir.join(agx_model::skills::check::SKILL_FILE))
        .is_ok_and(|m| m.is_file());
    if !is_skill {
        return Err(problem(format!(
            "{path}/{} is not there",
            agx_model::skills::check::SKILL_FILE
        )));
    }
    let report = wrap::check(dir, &SkillFolder::One).map_err(|e| problem(e.to_string()))?;
    match report.errors().next() {
        Some(f) => Err(problem(format!(
            "{path}/{}: {} ({} error(s); `agx validate {path}` shows each)",
            f.location,
            f.message,
            report.errors().count()
        ))),
        None => Ok(()),
    }
}

/// Whether the project's folder of a locked skill folder still hashes to its `content`.
pub(crate) fn folder_has_content(project: &Project, locked: &LockedSkillFolder) -> bool {
    let dir = project.dir.join(&locked.path);
    // A folder reached through a link out of the project is not read (the relock that
    // follows refuses it, naming the link).
    agx_clients::check_confined_in(&project.dir, &dir).is_ok()
        && content_of(&dir).is_ok_and(|c| c == locked.content)
}

/// How a project's own skill folder is recorded beside its copies: as the skill `NAME` of
/// the package `project`, at 0.0.0, with the folder it is copied from.
fn folder_skill_name(name: &str) -> Result<QualifiedName, agx_core::name::NameError> {
    QualifiedName::parse(&format!("project/{name}"))
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

/// [`skill_field`] for a `[[skill-folder]]`.
pub(crate) fn skill_folder_field(
    dir: &Path,
    key: &str,
    field: &'static str,
    detail: String,
) -> LockError {
    LockError::Disagrees {
        location: field_location(&dir.join(LOCK_FILE), "skill-folder", "key", key, field),
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
        .filter(|s| matches!(project.skills.get(&s.key), Some(SkillDecl::Package(_))))
        .collect()
}

/// The project's skill folders `sync` copies: the lock's that agx.toml still names, at the
/// path it names.
fn wanted_folders<'a>(project: &'a Project, lock: &'a LockFile) -> Vec<&'a LockedSkillFolder> {
    lock.skill_folders
        .iter()
        .filter(|s| {
            matches!(project.skills.get(&s.key), Some(SkillDecl::Folder { path }) if *path == s.path)
        })
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

/// One skill `sync` copies, checked against the lock: a package's (from the store) or the
/// project's own folder.
struct CopySource<'a> {
    key: &'a str,
    /// What messages call it: `skill` (`acme/dev/review`), or a folder's `path`.
    shown: &'a str,
    /// As recorded beside the copies.
    skill: QualifiedName,
    version: semver::Version,
    /// The lock's `sha256:` of the skill's folder.
    content: &'a str,
    dir: PathBuf,
    /// The project's folder it comes from, for a skill of the project's own.
    folder: Option<PathBuf>,
}

/// Write (or with --check compare) every wanted copy, and remove the copies an earlier sync
/// wrote for this project that are no longer wanted. A copy's source must hold exactly the
/// content the lock records, else nothing is written (a poisoned lock, or a folder of the
/// project edited since `agx.lock` under --locked/--frozen).
pub(crate) fn sync_skills(
    ctx: &Context,
    project: &Project,
    lock: &LockFile,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    let records_file = ctx.paths.clients_file();
    let wanted = wanted_skills(project, lock);
    let wanted_folders = wanted_folders(project, lock);
    if wanted.is_empty() && wanted_folders.is_empty() && !records_file.exists() {
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
        sources.push(CopySource {
            key: &s.key,
            shown: &s.skill,
            skill,
            version: s.version.clone(),
            content: &s.content,
            dir,
            folder: None,
        });
    }
    for s in &wanted_folders {
        let dir = project.dir.join(&s.path);
        let name = agx_project::manifest::skill_folder_name(&s.path);
        let skill = folder_skill_name(name).map_err(OpsError::from)?;
        if !options.check {
            agx_clients::check_confined_in(&project.dir, &dir).map_err(OpsError::from)?;
            // The project's folder is read now, not from a store: it must still be what the
            // lock holds (a plain sync relocked an edited one already).
            let content = content_of(&dir).ok();
            if content.as_deref() != Some(s.content.as_str()) {
                let found = match content {
                    Some(c) => format!("but the folder {} hashes to `{c}`", s.path),
                    None => format!("but the folder {} cannot be read", s.path),
                };
                return Err(ProjectOpError::Project(
                    skill_folder_field(
                        &project.dir,
                        &s.key,
                        "content",
                        format!("is `{}`, {found}; run `agx lock`", s.content),
                    )
                    .into(),
                ));
            }
            // Checked as `agx validate` checks a skill, unless a copy of this very content
            // was written (and so checked) before: most syncs change nothing.
            let hash = s.content.strip_prefix("sha256:").unwrap_or_default();
            let written = records.skills.iter().any(|c| {
                c.project.as_deref() == Some(project.dir.as_path())
                    && c.folder.as_deref() == Some(dir.as_path())
                    && c.sha256 == hash
            });
            if !written {
                check_skill_folder(&s.key, &s.path, &dir)?;
            }
        }
        sources.push(CopySource {
            key: &s.key,
            shown: &s.path,
            skill,
            version: semver::Version::new(0, 0, 0),
            content: &s.content,
            folder: Some(dir.clone()),
            dir,
        });
    }
    let folders = skill_folders(project);
    // Every copy the lock wants stays, also one whose package is missing (under --check).
    let mut keep: BTreeSet<PathBuf> = BTreeSet::new();
    for s in &wanted {
        let skill = QualifiedName::parse(&s.skill).map_err(OpsError::from)?;
        keep.extend(folders.iter().map(|f| f.join(skill.item.as_str())));
    }
    for s in &wanted_folders {
        let name = agx_project::manifest::skill_folder_name(&s.path);
        keep.extend(folders.iter().map(|f| f.join(name)));
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
    sources: &[CopySource<'_>],
    recorded: &mut Vec<SkillCopy>,
    options: SyncOptions,
    report: &mut SyncReport,
) -> ProjectResult<()> {
    for source in sources {
        for folder in folders {
            let dest = folder.join(source.skill.item.as_str());
            let change = |action| SkillSync {
                key: source.key.to_string(),
                skill: source.shown.to_string(),
                path: dest.clone(),
                action,
            };
            if options.check {
                if let Some(difference) = check_copy(recorded, source, &dest) {
                    report.differences.push(difference);
                    report.skills.push(change("updated"));
                }
                continue;
            }
            let hash = source.content.strip_prefix("sha256:").unwrap_or_default();
            // Most syncs change nothing: a recorded copy as the lock wants it, unedited.
            let in_place = recorded.iter().any(|c| {
                c.path == dest
                    && c.project.as_deref() == Some(project.dir.as_path())
                    && c.skill == source.skill
                    && c.version == source.version
                    && c.sha256 == hash
                    && copies::state(c) == CopyState::Ok
            });
            if in_place {
                continue;
            }
            // A cloned repository cannot make agx write outside it through a link.
            agx_clients::check_confined_in(&project.dir, &dest).map_err(OpsError::from)?;
            // The key moved to another source (a package's skill vendored into the
            // project's folder, or back): this project's unedited copy of the old one
            // makes way.
            let replaced = recorded.iter().find(|c| {
                c.path == dest
                    && c.project.as_deref() == Some(project.dir.as_path())
                    && c.skill != source.skill
                    && copies::state(c) == CopyState::Ok
            });
            if let Some(old) = replaced.cloned() {
                copies::uninstall(recorded, &old.skill, &dest, false).map_err(OpsError::from)?;
            }
            let outcome = copies::install_hashed(
                recorded,
                &source.skill,
                &source.version,
                (&source.dir, hash),
                &dest,
                options.force,
            )
            .map_err(OpsError::from)?;
            if let Some(copy) = recorded.iter_mut().find(|c| c.path == dest) {
                copy.project = Some(project.dir.clone());
                copy.folder = source.folder.clone();
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
        // A folder of the project is shown as agx.toml wrote it.
        let shown = match &copy.folder {
            Some(folder) => folder
                .strip_prefix(&project.dir)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| folder.display().to_string()),
            None => copy.skill.to_string(),
        };
        let change = |action| SkillSync {
            key: copy.skill.item.to_string(),
            skill: shown.clone(),
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
fn check_copy(recorded: &[SkillCopy], source: &CopySource<'_>, dest: &Path) -> Option<String> {
    let at = dest.display();
    let shown = source.shown;
    let Some(copy) = recorded.iter().find(|c| c.path == dest) else {
        return Some(if dest.exists() {
            format!("{at}: skill folder `{}` was not written by agx", source.key)
        } else {
            format!("{at}: skill copy of {shown} is missing")
        });
    };
    match copies::state(copy) {
        CopyState::Missing => Some(format!("{at}: skill copy of {shown} is missing")),
        CopyState::HandEdited => Some(format!("{at}: skill copy of {shown} was edited by hand")),
        CopyState::Ok
            if copy.skill != source.skill
                || format!("sha256:{}", copy.sha256) != source.content =>
        {
            Some(match &source.folder {
                None => format!(
                    "{at}: skill copy is {} {}, the lock wants {shown} {}",
                    copy.skill, copy.version, source.version
                ),
                Some(_) => format!("{at}: skill copy is not the folder {shown} as locked"),
            })
        }
        CopyState::Ok => None,
    }
}
