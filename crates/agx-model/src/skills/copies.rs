//! Copies of skills in clients' skills folders: written as real copies (links break in git
//! checkouts and on Windows), beside the destination and renamed into place, recorded in
//! `clients-v1.toml` with their content hash. A folder agx did not write, or one edited by
//! hand since, is never overwritten or removed without `--force` (docs/skills.md,
//! "Ownership").

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::tree_hash;
use agx_core::name::QualifiedName;

/// One copy agx wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillCopy {
    /// The copy's folder (`~/.claude/skills/review`).
    pub path: PathBuf,
    /// The skill, `publisher/package/skill`.
    #[serde(with = "qualified")]
    pub skill: QualifiedName,
    pub version: semver::Version,
    /// [`tree_hash::hash`] of the copy as agx wrote it.
    pub sha256: String,
    /// The project whose `agx sync` wrote it (its agx.toml's `[skills]`): sync removes it
    /// when it leaves the project, and its version follows that project's lock, not the
    /// user's install. `None` for a copy `install-skill` wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// For a project's skill of its own (`[skills]` with `path`): the folder of the project
    /// it is copied from, which takes the place of a package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<PathBuf>,
}

mod qualified {
    use serde::{Deserialize, Deserializer, Serializer};

    use agx_core::name::QualifiedName;

    pub(super) fn serialize<S: Serializer>(name: &QualifiedName, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(name)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<QualifiedName, D::Error> {
        let text = String::deserialize(d)?;
        QualifiedName::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{} exists and agx did not write it", path.display())]
    Foreign { path: PathBuf },
    #[error("{} was edited since agx wrote it", path.display())]
    HandEdited { path: PathBuf },
    #[error("{} holds {other}, not {skill}: two skills have one name", path.display())]
    Clash {
        path: PathBuf,
        /// Both `publisher/package/skill`.
        skill: String,
        other: String,
    },
    #[error("{} is not a skill agx installed", path.display())]
    NotInstalled { path: PathBuf },
    #[error("cannot copy the skill to {}", path.display())]
    Copy {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl agx_core::error::Hint for CopyError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            CopyError::Foreign { .. } => {
                "move or rename that folder, or pass --force to let agx replace it".into()
            }
            CopyError::HandEdited { .. } => {
                "keep your edits elsewhere first, or pass --force to replace them with the package's copy".into()
            }
            CopyError::Clash { other, .. } => format!(
                "uninstall the other skill first (`agx uninstall-skill CLIENT {other}`), install into another folder (--folder own), or pass --force to replace it"
            ),
            CopyError::NotInstalled { .. } => "`agx clients` lists the skill copies agx wrote".into(),
            CopyError::Copy { .. } => return None,
        })
    }
}

/// What happened to one copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CopyOutcome {
    /// A new copy was written.
    Written,
    /// An older copy agx wrote was replaced.
    Replaced,
    /// The copy already matches the package's.
    Unchanged,
    /// The copy was removed.
    Removed,
    /// The copy was already gone; its record was dropped.
    Forgotten,
}

/// The state of a recorded copy (for `agx clients` and `doctor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CopyState {
    Ok,
    HandEdited,
    Missing,
}

/// How a recorded copy looks on disk now.
pub fn state(copy: &SkillCopy) -> CopyState {
    match tree_hash::hash(&copy.path) {
        Ok(hash) if hash == copy.sha256 => CopyState::Ok,
        Ok(_) => CopyState::HandEdited,
        // Replaced by a file or a link, or grown past what agx copies: not agx's copy.
        Err(_) if exists(&copy.path) => CopyState::HandEdited,
        Err(_) => CopyState::Missing,
    }
}

fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// A sibling of `dest` for staging (`.review.agx-new-1234`): same folder, so the rename is
/// atomic, and hidden, so no client loads it as a skill.
fn sibling(dest: &Path, what: &str) -> PathBuf {
    let name = dest.file_name().unwrap_or_default().to_string_lossy();
    dest.with_file_name(format!(".{name}.agx-{what}-{}", std::process::id()))
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> CopyError + '_ {
    move |source| CopyError::Copy {
        path: path.to_path_buf(),
        source,
    }
}

/// Write the skill folder `source` (of `skill` at `version`) to `dest`, recording it in
/// `copies`.
pub fn install(
    copies: &mut Vec<SkillCopy>,
    skill: &QualifiedName,
    version: &semver::Version,
    source: &Path,
    dest: &Path,
    force: bool,
) -> Result<CopyOutcome, CopyError> {
    let wanted = tree_hash::hash(source).map_err(io(source))?;
    install_hashed(copies, skill, version, (source, &wanted), dest, force)
}

/// [`install`] of a source whose [`tree_hash::hash`] the caller knows (`agx sync` has it
/// from the lock, checked against the store).
pub fn install_hashed(
    copies: &mut Vec<SkillCopy>,
    skill: &QualifiedName,
    version: &semver::Version,
    (source, wanted): (&Path, &str),
    dest: &Path,
    force: bool,
) -> Result<CopyOutcome, CopyError> {
    let index = copies.iter().position(|c| c.path == dest);
    let present = exists(dest);
    if present && !force {
        // Ownership first: a folder agx did not write is refused before it is read.
        match index.map(|i| &copies[i]) {
            None => return Err(CopyError::Foreign { path: dest.into() }),
            Some(c) if c.skill != *skill => {
                return Err(CopyError::Clash {
                    path: dest.into(),
                    skill: skill.to_string(),
                    other: c.skill.to_string(),
                });
            }
            Some(_) => {}
        }
    }
    // Hashed once: both the hand-edit check and the "already there" check need it. A link
    // or a file in the copy's place has no hash: it is never followed.
    let current = if present {
        tree_hash::hash(dest).ok()
    } else {
        None
    };
    if present
        && !force
        && let Some(c) = index.map(|i| &copies[i])
        && current.as_deref() != Some(c.sha256.as_str())
    {
        return Err(CopyError::HandEdited { path: dest.into() });
    }
    let record = SkillCopy {
        path: dest.to_path_buf(),
        skill: skill.clone(),
        version: version.clone(),
        sha256: wanted.to_string(),
        project: index.and_then(|i| copies[i].project.clone()),
        folder: index.and_then(|i| copies[i].folder.clone()),
    };
    if current.as_deref() == Some(wanted) {
        let outcome = match index {
            Some(i) if copies[i] == record => CopyOutcome::Unchanged,
            _ => CopyOutcome::Replaced,
        };
        upsert(copies, index, record);
        return Ok(outcome);
    }
    replace_with_copy(source, dest, present)?;
    upsert(copies, index, record);
    Ok(if present {
        CopyOutcome::Replaced
    } else {
        CopyOutcome::Written
    })
}

fn upsert(copies: &mut Vec<SkillCopy>, index: Option<usize>, record: SkillCopy) {
    match index {
        Some(i) => copies[i] = record,
        None => copies.push(record),
    }
}

/// Copy beside `dest`, then swap it in: the old folder (when `present`) is moved aside
/// first and put back if the new one cannot take its place.
fn replace_with_copy(source: &Path, dest: &Path, present: bool) -> Result<(), CopyError> {
    let parent = dest.parent().unwrap_or(Path::new("."));
    fs_err::create_dir_all(parent).map_err(io(dest))?;
    let staged = sibling(dest, "new");
    let _ = remove_any(&staged);
    if let Err(e) = super::wrap::copy_tree(source, &staged) {
        let _ = remove_any(&staged);
        return Err(CopyError::Copy {
            path: dest.into(),
            source: std::io::Error::other(e.to_string()),
        });
    }
    let old = sibling(dest, "old");
    if present {
        let _ = remove_any(&old);
        if let Err(e) = fs_err::rename(dest, &old) {
            let _ = remove_any(&staged);
            return Err(io(dest)(e));
        }
    }
    if let Err(e) = fs_err::rename(&staged, dest) {
        if present {
            let _ = fs_err::rename(&old, dest);
        }
        let _ = remove_any(&staged);
        return Err(io(dest)(e));
    }
    if present {
        remove_any(&old).map_err(io(dest))?;
    }
    Ok(())
}

/// Remove a folder, file or link (a link itself, never what it points to).
fn remove_any(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs_err::remove_dir_all(path),
        Ok(_) => fs_err::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Remove the copy of `skill` at `dest`, only if agx wrote it (and, without `force`, nobody
/// edited it since).
pub fn uninstall(
    copies: &mut Vec<SkillCopy>,
    skill: &QualifiedName,
    dest: &Path,
    force: bool,
) -> Result<CopyOutcome, CopyError> {
    let Some(index) = copies.iter().position(|c| c.path == dest) else {
        return Err(if exists(dest) {
            CopyError::Foreign { path: dest.into() }
        } else {
            CopyError::NotInstalled { path: dest.into() }
        });
    };
    let copy = &copies[index];
    if copy.skill != *skill {
        return Err(CopyError::Clash {
            path: dest.into(),
            skill: skill.to_string(),
            other: copy.skill.to_string(),
        });
    }
    let outcome = match state(copy) {
        CopyState::Missing => CopyOutcome::Forgotten,
        CopyState::HandEdited if !force => {
            return Err(CopyError::HandEdited { path: dest.into() });
        }
        _ => {
            // Moved aside first, so a half-removed folder is never left under the skill's name.
            let old = sibling(dest, "old");
            fs_err::rename(dest, &old).map_err(io(dest))?;
            remove_any(&old).map_err(io(dest))?;
            CopyOutcome::Removed
        }
    };
    copies.remove(index);
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str) -> QualifiedName {
        QualifiedName::parse(name).unwrap()
    }

    fn source(root: &Path, text: &str) -> PathBuf {
        let dir = root.join(format!("src-{}", text.len()));
        fs_err::create_dir_all(dir.join("scripts")).unwrap();
        fs_err::write(dir.join("SKILL.md"), text).unwrap();
        fs_err::write(dir.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        dir
    }

    #[test]
    fn install_twice_then_update_then_uninstall() {
        let root = tempfile::tempdir().unwrap();
        let v1 = semver::Version::new(1, 0, 0);
        let src = source(root.path(), "one");
        let dest = root.path().join("skills/review");
        let mut copies = Vec::new();
        let s = skill("acme/dev/review");
        assert_eq!(
            install(&mut copies, &s, &v1, &src, &dest, false).unwrap(),
            CopyOutcome::Written
        );
        assert_eq!(fs_err::read(dest.join("SKILL.md")).unwrap(), b"one");
        assert_eq!(
            install(&mut copies, &s, &v1, &src, &dest, false).unwrap(),
            CopyOutcome::Unchanged
        );

        let src2 = source(root.path(), "two!");
        let v2 = semver::Version::new(1, 1, 0);
        assert_eq!(
            install(&mut copies, &s, &v2, &src2, &dest, false).unwrap(),
            CopyOutcome::Replaced
        );
        assert_eq!(fs_err::read(dest.join("SKILL.md")).unwrap(), b"two!");
        assert_eq!(copies.len(), 1);
        // Nothing staged is left beside it.
        let names: Vec<_> = fs_err::read_dir(dest.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["review"]);

        assert_eq!(
            uninstall(&mut copies, &s, &dest, false).unwrap(),
            CopyOutcome::Removed
        );
        assert!(!dest.exists());
        assert!(copies.is_empty());
    }

    #[test]
    fn a_foreign_folder_is_never_replaced_or_removed_without_force() {
        let root = tempfile::tempdir().unwrap();
        let src = source(root.path(), "one");
        let dest = root.path().join("skills/review");
        fs_err::create_dir_all(&dest).unwrap();
        fs_err::write(dest.join("SKILL.md"), "mine").unwrap();
        let mut copies = Vec::new();
        let s = skill("acme/dev/review");
        let v = semver::Version::new(1, 0, 0);
        let err = install(&mut copies, &s, &v, &src, &dest, false).unwrap_err();
        assert!(matches!(err, CopyError::Foreign { .. }), "{err}");
        let err = uninstall(&mut copies, &s, &dest, false).unwrap_err();
        assert!(matches!(err, CopyError::Foreign { .. }), "{err}");
        assert_eq!(fs_err::read(dest.join("SKILL.md")).unwrap(), b"mine");
        assert_eq!(
            install(&mut copies, &s, &v, &src, &dest, true).unwrap(),
            CopyOutcome::Replaced
        );
        assert_eq!(fs_err::read(dest.join("SKILL.md")).unwrap(), b"one");
    }

    #[test]
    fn a_hand_edited_copy_and_a_name_clash_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let src = source(root.path(), "one");
        let dest = root.path().join("skills/review");
        let mut copies = Vec::new();
        let s = skill("acme/dev/review");
        let v = semver::Version::new(1, 0, 0);
        install(&mut copies, &s, &v, &src, &dest, false).unwrap();

        let other = skill("contoso/tools/review");
        let err = install(&mut copies, &other, &v, &src, &dest, false).unwrap_err();
        assert!(matches!(err, CopyError::Clash { .. }), "{err}");

        fs_err::write(dest.join("SKILL.md"), "edited").unwrap();
        assert_eq!(state(&copies[0]), CopyState::HandEdited);
        let err = install(&mut copies, &s, &v, &src, &dest, false).unwrap_err();
        assert!(matches!(err, CopyError::HandEdited { .. }), "{err}");
        let err = uninstall(&mut copies, &s, &dest, false).unwrap_err();
        assert!(matches!(err, CopyError::HandEdited { .. }), "{err}");
        assert_eq!(fs_err::read(dest.join("SKILL.md")).unwrap(), b"edited");

        fs_err::remove_dir_all(&dest).unwrap();
        assert_eq!(state(&copies[0]), CopyState::Missing);
        assert_eq!(
            uninstall(&mut copies, &s, &dest, false).unwrap(),
            CopyOutcome::Forgotten
        );
    }
}
