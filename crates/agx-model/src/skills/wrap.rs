//! Skills without a package: `agx install ./review` (a folder whose root has `SKILL.md`) and
//! `agx install ./my-skills` (a folder of skill folders, directly or under `skills/`) wrap
//! them in a generated package, as `npm:` and `pypi:` installs do, so the rest of agx treats
//! them like any package (docs/skills.md, "A skill without a package").

use std::path::{Path, PathBuf};

use super::check::SKILL_FILE;
use crate::manifest::Report;
use crate::manifest::load::{MANIFEST_FILE, SKILLS_FOLDER};
use agx_core::name::PackageName;

/// The version of a wrapped folder: it has none of its own.
pub const WRAPPED_VERSION: &str = "0.0.0";

#[derive(Debug, thiserror::Error)]
pub enum WrapError {
    #[error("the folder name `{folder}` cannot name a package: {source}")]
    PackageName {
        folder: String,
        source: agx_core::name::NameError,
    },
    #[error("{} is a symbolic link; a skill's files are copied, never followed", path.display())]
    Link { path: PathBuf },
    #[error("{} is not a regular file or folder (a FIFO, socket or device)", path.display())]
    Special { path: PathBuf },
    #[error("the name of {} is not UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl agx_core::error::Hint for WrapError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            WrapError::PackageName { .. } => {
                "rename the folder to lowercase letters, digits and `-`, or add an agx.toml that names the package".into()
            }
            WrapError::Link { .. } => {
                "replace the link with the file it points to: each client gets its own copy of the skill".into()
            }
            WrapError::Special { .. } | WrapError::NotUtf8 { .. } => {
                "remove it from the skill's folder, or rename it".into()
            }
            WrapError::Io(_) => return None,
        })
    }
}

/// What a folder without `agx.toml` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillFolder {
    /// The folder is one skill (`SKILL.md` at its root).
    One,
    /// Skill folders, relative to the folder (`review`, `skills/review`), by name.
    Many(Vec<String>),
}

/// What `dir` holds when it is skills without a package; `None` for a package (it has
/// `agx.toml`) or a folder without skills.
pub fn detect(dir: &Path) -> Option<SkillFolder> {
    if dir.join(MANIFEST_FILE).exists() {
        return None;
    }
    if is_file(&dir.join(SKILL_FILE)) {
        return Some(SkillFolder::One);
    }
    let mut found = Vec::new();
    let mut parents = vec![dir.to_path_buf(), dir.join(SKILLS_FOLDER)];
    // Groups of skills one level down: openai/skills keeps them in `skills/.curated/NAME`
    // and `skills/.experimental/NAME`.
    if let Ok(entries) = std::fs::read_dir(dir.join(SKILLS_FOLDER)) {
        let mut groups: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .filter(|p| !is_file(&p.join(SKILL_FILE)) && p.file_name() != Some(".git".as_ref()))
            .collect();
        groups.sort();
        parents.extend(groups);
    }
    for parent in parents {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) && is_file(&path.join(SKILL_FILE)) {
                let rel = path.strip_prefix(dir).unwrap_or(&path);
                found.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort_by(|a, b| name_of(a).cmp(name_of(b)).then(a.cmp(b)));
    (!found.is_empty()).then_some(SkillFolder::Many(found))
}

/// `symlink_metadata`: a link to a file is not the skill's file.
fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

fn name_of(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// Write a package for the skills in `dir` into the empty folder `into`: the skill folders
/// copied under `skills/`, and an `agx.toml` declaring them. The package is named after
/// `dir`'s folder. Validation of the result is the loader's job.
pub fn wrap(dir: &Path, what: &SkillFolder, into: &Path) -> Result<PackageName, WrapError> {
    let package = package_name(dir)?;
    wrap_as(dir, what, into, &package)?;
    Ok(package)
}

fn folder_name(dir: &Path) -> Result<String, WrapError> {
    Ok(std::path::absolute(dir)?
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default())
}

/// The generated package's name: the folder's.
fn package_name(dir: &Path) -> Result<PackageName, WrapError> {
    let folder = folder_name(dir)?;
    PackageName::parse(&folder).map_err(|source| WrapError::PackageName { folder, source })
}

/// [`wrap`] under a given package name.
fn wrap_as(
    dir: &Path,
    what: &SkillFolder,
    into: &Path,
    package: &PackageName,
) -> Result<(), WrapError> {
    let absolute = std::path::absolute(dir)?;
    let folder = folder_name(dir)?;
    let description = match what {
        SkillFolder::One => format!("The Agent Skill in {}", absolute.display()),
        SkillFolder::Many(_) => format!("The Agent Skills in {}", absolute.display()),
    };
    let wrapping = Wrapping {
        package,
        version: WRAPPED_VERSION,
        description: &description,
        origin: &format!("the skill folders of {}", absolute.display()),
    };
    write_wrapped(&absolute, what, &folder, into, &wrapping)
}

/// What the generated package says of itself.
struct Wrapping<'a> {
    package: &'a PackageName,
    version: &'a str,
    description: &'a str,
    /// Where the skills came from, for the generated file's comment.
    origin: &'a str,
}

/// Copy the skills of `dir` under `into/skills/` (a skill at `dir`'s root as `one_name`)
/// and write the `agx.toml` that declares them.
fn write_wrapped(
    dir: &Path,
    what: &SkillFolder,
    one_name: &str,
    into: &Path,
    wrapping: &Wrapping<'_>,
) -> Result<(), WrapError> {
    let skills: Vec<(String, PathBuf)> = match what {
        SkillFolder::One => vec![(one_name.to_string(), dir.to_path_buf())],
        SkillFolder::Many(rels) => rels
            .iter()
            .map(|rel| (name_of(rel).to_string(), dir.join(rel)))
            .collect(),
    };
    let mut names = Vec::with_capacity(skills.len());
    for (name, from) in &skills {
        copy_tree(from, &into.join(SKILLS_FOLDER).join(name))?;
        names.push(name.clone());
    }
    let manifest = toml::toml! {
        [package]
        name = (wrapping.package.to_string())
        version = (wrapping.version)
        description = (wrapping.description)

        [extension]
        skills = names
    };
    fs_err::write(
        into.join(MANIFEST_FILE),
        format!(
            "# Generated by agx from {}\n{}",
            wrapping.origin,
            toml::to_string(&manifest).expect("a table serialises")
        ),
    )?;
    Ok(())
}

/// Wrap the skill of a published skill artifact, unpacked into `dir` (its `SKILL.md` at the
/// root, or skill folders), into the empty folder `into` as the package `package`
/// `version`; a skill at the root is the folder `skill`. `origin` says where it was
/// published, for the generated file's comment.
pub fn wrap_published(
    dir: &Path,
    into: &Path,
    package: &PackageName,
    version: &semver::Version,
    skill: &str,
    description: &str,
    origin: &str,
) -> Result<(), WrapError> {
    let what = detect(dir).unwrap_or(SkillFolder::One);
    let version = version.to_string();
    let description = match description {
        "" => format!("The Agent Skill {skill}"),
        given => given.to_string(),
    };
    let wrapping = Wrapping {
        package,
        version: &version,
        description: &description,
        origin,
    };
    write_wrapped(dir, &what, skill, into, &wrapping)
}

/// Check the skills in `dir` as the package [`wrap`] makes of them, with every finding's
/// path relative to `dir` (so `agx validate ./review` points at `SKILL.md`, not at the
/// generated copy). The report's package, when there is one, is the generated one, whose
/// folder no longer exists: use it for its counts only.
pub fn check(dir: &Path, what: &SkillFolder) -> Result<Report, WrapError> {
    let temp = tempfile::tempdir()?;
    // The skills are what is checked: a folder name that cannot name the package (which
    // `agx install` reports) must not hide their findings.
    let placeholder = PackageName::parse("skills").expect("a valid package name");
    let package = package_name(dir).unwrap_or(placeholder);
    wrap_as(dir, what, temp.path(), &package)?;
    let mut report = crate::manifest::load::check(temp.path());
    // Every copied folder is declared; "undeclared" can only follow a declaration the
    // generated agx.toml could not make, which is reported already.
    report
        .findings
        .retain(|f| f.code != crate::manifest::diagnostics::UNDECLARED_DEFINITION.code);
    for finding in &mut report.findings {
        if finding.location.file == MANIFEST_FILE {
            // The generated agx.toml is not the user's: its findings (a folder name that
            // cannot name a skill) are about the folder.
            finding.location.file = ".".into();
            finding.location.line = 0;
            finding.location.column = 0;
            finding.length = 0;
        } else {
            let unwrapped = unwrapped_path(what, &finding.location.file);
            // A message that quotes the generated path quotes the user's.
            finding.message = finding.message.replace(
                &format!("`{}`", finding.location.file),
                &format!("`{unwrapped}`"),
            );
            finding.location.file = unwrapped;
        }
    }
    Ok(report)
}

/// A skill of a folder of skills left out of its install, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// The skill's folder, relative to the folder installed (`skills/review`).
    pub folder: String,
    /// Why: its first error (`SKILL.md:2:7: …`), or what stopped the copy.
    pub why: String,
}

/// [`check`] for an install: in a folder of several skills, the skills with an error (or a
/// link, a special file, a name another skill has) are left out and the rest checked
/// again, as clients load the skills they can. A single skill, an error that belongs to no
/// one skill, or a folder where no skill is left is returned as [`check`] has it.
pub fn check_each(
    dir: &Path,
    what: &SkillFolder,
) -> Result<(SkillFolder, Report, Vec<LeftOut>), WrapError> {
    let SkillFolder::Many(all) = what else {
        return Ok((what.clone(), check(dir, what)?, Vec::new()));
    };
    let mut left_out: Vec<LeftOut> = Vec::new();
    let mut kept: Vec<String> = Vec::new();
    for rel in all {
        match kept.iter().find(|k| name_of(k) == name_of(rel)) {
            Some(first) => left_out.push(LeftOut {
                folder: rel.clone(),
                why: format!("the skill in {first} has the name `{}`", name_of(rel)),
            }),
            None => kept.push(rel.clone()),
        }
    }
    let absolute = std::path::absolute(dir)?;
    let owner = |kept: &[String], file: &str| {
        kept.iter()
            .find(|rel| file == rel.as_str() || file.starts_with(&format!("{rel}/")))
            .cloned()
    };
    // Each pass leaves out at least one skill, so this ends.
    loop {
        let current = SkillFolder::Many(kept.clone());
        let report = match check(dir, &current) {
            Ok(report) => report,
            Err(
                e
                @ (WrapError::Link { .. } | WrapError::Special { .. } | WrapError::NotUtf8 { .. }),
            ) => {
                let path = match &e {
                    WrapError::Link { path }
                    | WrapError::Special { path }
                    | WrapError::NotUtf8 { path } => path.clone(),
                    _ => unreachable!("matched above"),
                };
                let rel = path
                    .strip_prefix(&absolute)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                match owner(&kept, &rel) {
                    Some(bad) if kept.len() > 1 => {
                        kept.retain(|k| k != &bad);
                        left_out.push(LeftOut {
                            folder: bad,
                            why: e.to_string(),
                        });
                        continue;
                    }
                    _ => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        if !report.has_errors() {
            return Ok((current, report, left_out));
        }
        let mut bad: Vec<(String, String)> = Vec::new();
        let mut whole = false;
        for finding in report.errors() {
            match owner(&kept, &finding.location.file) {
                Some(rel) if !bad.iter().any(|(b, _)| b == &rel) => {
                    bad.push((rel, format!("{}: {}", finding.location, finding.message)));
                }
                Some(_) => {}
                // Not one skill's: the folder as a whole cannot be installed.
                None => whole = true,
            }
        }
        if whole || bad.len() >= kept.len() {
            return Ok((current, report, left_out));
        }
        kept.retain(|k| !bad.iter().any(|(b, _)| b == k));
        left_out.extend(bad.into_iter().map(|(folder, why)| LeftOut { folder, why }));
    }
}

/// The skill folders a package of another ecosystem ships by the convention npm's skill
/// tools share (`skills/<name>/SKILL.md` at the package's top): `skills/<name>`, relative
/// to `dir`, sorted. A link is not a skill folder.
pub fn shipped_skills(dir: &Path) -> Vec<String> {
    let skills = dir.join(SKILLS_FOLDER);
    if !std::fs::symlink_metadata(&skills).is_ok_and(|m| m.is_dir()) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(&skills) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| is_file(&e.path().join(SKILL_FILE)))
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .map(|n| format!("{SKILLS_FOLDER}/{n}"))
        })
        .collect();
    found.sort();
    found
}

/// The skills a package of another ecosystem carries (`folders`, relative to `dir`),
/// copied under `into/skills/<name>` for the generated package to declare. The package is
/// installed for what it is (its server) and its skills come along: a skill that does not
/// check (an error, a link, a special file, a name an earlier one has) is left out, as
/// clients skip a skill they cannot load, and named with why. Returns the names copied
/// and the skills left out.
pub fn carry(
    dir: &Path,
    folders: Vec<String>,
    into: &Path,
) -> std::io::Result<(Vec<String>, Vec<LeftOut>)> {
    // A skill reached through a link (`skills` itself, or a folder above it) is not the
    // package's: left out before anything of it is read.
    // A folder named by another package's file list (a wheel's RECORD) may name anything:
    // only plain names under `dir` are read.
    let (folders, strange): (Vec<String>, Vec<String>) =
        folders.into_iter().partition(|rel| plain_relative(rel));
    let (folders, mut linked): (Vec<String>, Vec<String>) =
        folders.into_iter().partition(|rel| !through_link(dir, rel));
    linked.extend(strange);
    if folders.is_empty() {
        let left_out = linked.drain(..).map(|folder| LeftOut {
            why: format!("{folder} is reached through a symbolic link or leaves the package"),
            folder,
        });
        return Ok((Vec::new(), left_out.collect()));
    }
    let all_left_out = |folders: Vec<String>, why: &str| {
        folders
            .into_iter()
            .map(|folder| LeftOut {
                folder,
                why: why.to_string(),
            })
            .collect::<Vec<_>>()
    };
    let (kept, left_out) = match check_each(dir, &SkillFolder::Many(folders.clone())) {
        Ok((SkillFolder::Many(kept), report, left_out)) if !report.has_errors() => (kept, left_out),
        Ok((SkillFolder::Many(kept), report, mut left_out)) => {
            // Every skill left has an error (or one belongs to no skill): none is carried.
            for folder in kept {
                let why = report
                    .errors()
                    .find(|f| f.location.file.starts_with(&folder))
                    .or_else(|| report.errors().next())
                    .map(|f| format!("{}: {}", f.location, f.message))
                    .unwrap_or_default();
                left_out.push(LeftOut { folder, why });
            }
            (Vec::new(), left_out)
        }
        Ok((SkillFolder::One, ..)) => unreachable!("check_each keeps a folder of skills"),
        Err(WrapError::Io(e)) => return Err(e),
        Err(e) => (Vec::new(), all_left_out(folders, &e.to_string())),
    };
    let mut left_out = left_out;
    left_out.extend(linked.into_iter().map(|folder| LeftOut {
        why: format!("{folder} is reached through a symbolic link or leaves the package"),
        folder,
    }));
    let mut names = Vec::with_capacity(kept.len());
    for rel in &kept {
        let name = name_of(rel).to_string();
        match copy_tree(&dir.join(rel), &into.join(SKILLS_FOLDER).join(&name)) {
            Ok(()) => names.push(name),
            Err(WrapError::Io(e)) => return Err(e),
            // Checked above; changed since (the folder is the installer's own staging).
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        }
    }
    Ok((names, left_out))
}

/// Whether `rel` is `/`-separated plain names: none empty, `.` or `..`, none holding `\\` or
/// `:` (a Windows root, drive or stream), nothing absolute.
fn plain_relative(rel: &str) -> bool {
    rel.split('/').all(|part| {
        !part.is_empty()
            && part != "."
            && part != ".."
            && !part.contains(['\\', ':'])
            && Path::new(part)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
    })
}

/// Whether a part of `rel` (a `/`-separated folder under `dir`) is a symbolic link.
fn through_link(dir: &Path, rel: &str) -> bool {
    let mut path = dir.to_path_buf();
    rel.split('/').any(|part| {
        path.push(part);
        std::fs::symlink_metadata(&path).map_or(true, |m| m.file_type().is_symlink())
    })
}

/// `skills/<name>/rest` of the generated package, as a path relative to the wrapped folder.
/// Where a path of the package made of a folder of skills (`skills/review/SKILL.md`) is in
/// that folder.
pub fn unwrapped_path(what: &SkillFolder, wrapped: &str) -> String {
    let Some(inside) = wrapped.strip_prefix(&format!("{SKILLS_FOLDER}/")) else {
        return wrapped.to_string();
    };
    let (name, rest) = inside.split_once('/').unwrap_or((inside, ""));
    let folder = match what {
        SkillFolder::One => {
            return if rest.is_empty() {
                ".".into()
            } else {
                rest.into()
            };
        }
        SkillFolder::Many(rels) => rels
            .iter()
            .find(|rel| name_of(rel) == name)
            .map_or(name, String::as_str),
    };
    if rest.is_empty() {
        folder.to_string()
    } else {
        format!("{folder}/{rest}")
    }
}

/// Copy a skill folder: regular files (with their permissions, so scripts stay executable,
/// but writable: installed versions are read-only and a copy is the user's) and folders; a
/// link or a special file is an error, never followed. `.git` and `__pycache__` are left
/// out at any depth ([`super::tree_hash::NOT_COPIED`]), as the hash of a copy leaves them.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), WrapError> {
    fs_err::create_dir_all(to)?;
    let mut entries: Vec<_> = fs_err::read_dir(from)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(WrapError::NotUtf8 { path });
        };
        if super::tree_hash::NOT_COPIED.contains(&name) {
            continue;
        }
        let kind = fs_err::symlink_metadata(&path)?.file_type();
        if kind.is_symlink() {
            return Err(WrapError::Link { path });
        } else if kind.is_dir() {
            copy_tree(&path, &to.join(name))?;
        } else if kind.is_file() {
            let copy = to.join(name);
            fs_err::copy(&path, &copy)?;
            agx_core::fsutil::make_writable(&copy)?;
        } else {
            return Err(WrapError::Special { path });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, text).unwrap();
    }

    #[test]
    fn detect_tells_a_skill_a_collection_and_a_package_apart() {
        let root = tempfile::tempdir().unwrap();
        let one = root.path().join("review");
        write(&one, "SKILL.md", "x");
        assert_eq!(detect(&one), Some(SkillFolder::One));

        let many = root.path().join("mine");
        write(&many, "b/SKILL.md", "x");
        write(&many, "skills/a/SKILL.md", "x");
        write(&many, "notes/README.md", "x");
        assert_eq!(
            detect(&many),
            Some(SkillFolder::Many(vec!["skills/a".into(), "b".into()]))
        );

        write(&many, "agx.toml", "");
        assert_eq!(detect(&many), None);
        assert_eq!(detect(&root.path().join("missing")), None);
    }

    #[test]
    fn carry_copies_the_skills_that_check_and_leaves_out_the_rest() {
        let root = tempfile::tempdir().unwrap();
        let package = root.path().join("pkg");
        let skill = |name: &str| {
            format!("---\nname: {name}\ndescription: The {name} skill.\n---\n\nBody.\n")
        };
        write(&package, "skills/review/SKILL.md", &skill("review"));
        write(&package, "skills/review/notes.md", "notes");
        write(&package, "skills/misnamed/SKILL.md", &skill("other"));
        write(&package, "skills/not-a-skill/README.md", "x");
        let folders = shipped_skills(&package);
        assert_eq!(folders, ["skills/misnamed", "skills/review"]);
        let into = root.path().join("out");
        let (names, left_out) = carry(&package, folders, &into).unwrap();
        assert_eq!(names, ["review"]);
        assert_eq!(left_out.len(), 1);
        assert_eq!(left_out[0].folder, "skills/misnamed");
        assert!(left_out[0].why.contains("other"), "{:?}", left_out[0]);
        assert_eq!(
            fs_err::read_to_string(into.join("skills/review/notes.md")).unwrap(),
            "notes"
        );
        assert!(!into.join("skills/misnamed").exists());

        // Names a file list may hold that are no folder of the package.
        for strange in [
            "//skills/x",
            "/etc/skills/x",
            "a\\..\\..\\x/skills/y",
            "../skills/x",
            "C:/skills/x",
        ] {
            let (names, left_out) =
                carry(&package, vec![strange.into()], &root.path().join("o4")).unwrap();
            assert!(names.is_empty(), "{strange}");
            assert!(
                left_out[0].why.contains("leaves the package"),
                "{strange}: {left_out:?}"
            );
        }

        // Every skill broken: none carried, each named.
        let (names, left_out) = carry(
            &package,
            vec!["skills/misnamed".into()],
            &root.path().join("o2"),
        )
        .unwrap();
        assert!(names.is_empty());
        assert_eq!(left_out.len(), 1);
        assert_eq!(
            carry(&package, Vec::new(), &into).unwrap(),
            (vec![], vec![])
        );
    }

    #[cfg(unix)]
    #[test]
    fn carry_leaves_out_a_skill_holding_a_link() {
        let root = tempfile::tempdir().unwrap();
        let package = root.path().join("pkg");
        let skill = |name: &str| {
            format!("---\nname: {name}\ndescription: The {name} skill.\n---\n\nBody.\n")
        };
        write(&package, "skills/review/SKILL.md", &skill("review"));
        write(&package, "skills/linked/SKILL.md", &skill("linked"));
        std::os::unix::fs::symlink("/etc/passwd", package.join("skills/linked/passwd")).unwrap();
        let into = root.path().join("out");
        let (names, left_out) = carry(&package, shipped_skills(&package), &into).unwrap();
        assert_eq!(names, ["review"]);
        assert_eq!(left_out[0].folder, "skills/linked");
        assert!(
            left_out[0].why.contains("symbolic link"),
            "{:?}",
            left_out[0]
        );
        assert!(!into.join("skills/linked").exists());
    }

    #[test]
    fn wrap_copies_the_skills_and_declares_them() {
        let root = tempfile::tempdir().unwrap();
        let many = root.path().join("my-skills");
        write(&many, "review/SKILL.md", "review");
        write(&many, "review/scripts/run.sh", "#!/bin/sh\n");
        write(&many, "review/.git/HEAD", "x");
        let into = root.path().join("out");
        let what = detect(&many).unwrap();
        let package = wrap(&many, &what, &into).unwrap();
        assert_eq!(package.to_string(), "my-skills");
        assert_eq!(
            fs_err::read_to_string(into.join("skills/review/scripts/run.sh")).unwrap(),
            "#!/bin/sh\n"
        );
        assert!(!into.join("skills/review/.git").exists());
        let manifest = fs_err::read_to_string(into.join("agx.toml")).unwrap();
        assert!(manifest.contains("skills = [\"review\"]"), "{manifest}");
    }

    #[test]
    fn a_folder_name_that_is_no_package_name_is_a_clear_error() {
        let root = tempfile::tempdir().unwrap();
        let one = root.path().join("My Skill");
        write(&one, "SKILL.md", "x");
        let err = wrap(&one, &SkillFolder::One, &root.path().join("out")).unwrap_err();
        assert!(matches!(err, WrapError::PackageName { .. }), "{err}");
        // Validation still reports the skill's own findings.
        let report = check(&one, &SkillFolder::One).unwrap();
        let codes: Vec<&str> = report.findings.iter().map(|f| f.code).collect();
        assert!(codes.contains(&"E010"), "{codes:?}");
        assert!(!codes.contains(&"E034"), "{codes:?}");
        assert!(
            report
                .findings
                .iter()
                .all(|f| f.location.file != "agx.toml")
        );
    }

    #[test]
    fn findings_point_into_the_original_folder() {
        let root = tempfile::tempdir().unwrap();
        let many = root.path().join("mine");
        write(
            &many,
            "skills/a/SKILL.md",
            "---\nname: b\ndescription: d\n---\n",
        );
        let what = detect(&many).unwrap();
        let report = check(&many, &what).unwrap();
        let files: Vec<&str> = report
            .findings
            .iter()
            .map(|f| f.location.file.as_str())
            .collect();
        assert_eq!(files, ["skills/a/SKILL.md"]);
        assert_eq!(report.findings[0].code, "E014");

        let one = many.join("skills/a");
        let report = check(&one, &SkillFolder::One).unwrap();
        assert_eq!(report.findings[0].location.file, "SKILL.md");
        assert_eq!(unwrapped_path(&SkillFolder::One, "skills/a"), ".");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_inside_a_skill_is_refused_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let one = root.path().join("review");
        write(&one, "SKILL.md", "x");
        std::os::unix::fs::symlink("/etc/hostname", one.join("secret")).unwrap();
        let err = wrap(&one, &SkillFolder::One, &root.path().join("out")).unwrap_err();
        assert!(matches!(err, WrapError::Link { .. }), "{err}");
    }
}

#[cfg(test)]
mod partial_tests {
    use super::*;

    fn skill(dir: &Path, rel: &str, front: &str) {
        let path = dir.join(rel).join(SKILL_FILE);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, format!("---\n{front}\n---\nBody.\n")).unwrap();
    }

    #[test]
    fn grouped_skills_are_found_and_the_broken_ones_left_out() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("skills-repo");
        skill(
            &dir,
            "skills/.curated/review",
            "name: review\ndescription: d",
        );
        skill(&dir, "skills/.curated/notes", "name: notes\ndescription: d");
        skill(
            &dir,
            "skills/.experimental/review",
            "name: review\ndescription: e",
        );
        skill(&dir, "skills/.experimental/broken", "name: broken");
        let what = detect(&dir).unwrap();
        let (kept, report, left_out) = check_each(&dir, &what).unwrap();
        assert!(!report.has_errors(), "{:?}", report.findings);
        assert_eq!(
            kept,
            SkillFolder::Many(vec![
                "skills/.curated/notes".into(),
                "skills/.curated/review".into()
            ])
        );
        let folders: Vec<&str> = left_out.iter().map(|l| l.folder.as_str()).collect();
        assert_eq!(
            folders,
            ["skills/.experimental/review", "skills/.experimental/broken"]
        );
        assert!(
            left_out[0].why.contains("has the name `review`"),
            "{left_out:?}"
        );
        assert!(left_out[1].why.contains("SKILL.md"), "{left_out:?}");
    }

    #[test]
    fn a_folder_where_every_skill_is_broken_keeps_its_errors() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("all-bad");
        skill(&dir, "a", "name: a");
        skill(&dir, "b", "name: b");
        let what = detect(&dir).unwrap();
        let (_, report, _) = check_each(&dir, &what).unwrap();
        assert!(report.has_errors());
    }
}
