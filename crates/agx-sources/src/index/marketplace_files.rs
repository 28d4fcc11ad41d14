//! The one way agx reaches the files of a marketplace folder and of a plugin (docs/plugins.md,
//! docs/security.md): a path the catalog or a manifest gives stays inside its folder (only
//! plain names, no `..`, not absolute), no part of it is a symbolic link (a link can point
//! at `~/.ssh`), and every file is read or copied by the bounded regular-file reader (a FIFO
//! would hang agx, `/dev/zero` never ends), up to a cap.

use std::path::{Component, Path, PathBuf};

use agx_core::regular_file::{Links, ReadProblem, copy_opened, open_non_blocking};

/// The largest plugin file agx reads to learn what a plugin holds (`plugin.json`,
/// `.mcp.json`): real ones are a few KiB.
pub const MAX_PLUGIN_FILE_BYTES: u64 = agx_model::manifest::package_file::MAX_FILE_BYTES;

/// The most a plugin's files may add up to when copied from a folder, the cap an archive
/// has on how far it expands.
pub const MAX_PLUGIN_BYTES: u64 = agx_archive::MIN_EXPANSION_CAP;

/// A path or file of a marketplace agx refuses, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {problem}", path.display())]
pub struct Refused {
    pub path: PathBuf,
    /// Completes "`<path>` …".
    pub problem: String,
}

impl Refused {
    fn new(path: &Path, problem: impl Into<String>) -> Self {
        Refused {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}

/// `relative`'s parts when it is a plain relative path (`./plugins/x`, `a/b`); `None` when
/// it is absolute or has a `..`.
fn plain_parts(relative: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    for component in Path::new(relative).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    // `C:x` or `\x` on Windows, or a `\` that another system reads as a separator.
    (!relative.contains('\\') && !relative.contains(':')).then_some(parts)
}

/// Whether `relative` stays inside the folder it is taken from (checked before joining it
/// to anything, a folder or a base URL).
pub fn is_plain(relative: &str) -> bool {
    plain_parts(relative).is_some()
}

/// `root/relative`, when `relative` stays inside `root` and no part of it is a symbolic
/// link. Parts that do not exist end the walk: the caller reports the missing path.
pub fn contained(root: &Path, relative: &str) -> Result<PathBuf, Refused> {
    let parts = plain_parts(relative).ok_or_else(|| {
        Refused::new(
            &root.join(relative),
            format!("is outside {}: `{relative}` leaves it", root.display()),
        )
    })?;
    let mut path = root.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(Refused::new(
                    &root.join(relative),
                    format!(
                        "is reached through the symbolic link `{}`, which agx does not follow out of a marketplace",
                        parts[..=i].join("/")
                    ),
                ));
            }
            Ok(_) => {}
            Err(_) => {
                // The rest cannot be links either: they do not exist.
                for rest in &parts[i + 1..] {
                    path.push(rest);
                }
                break;
            }
        }
    }
    Ok(path)
}

/// The bytes of `root/relative`, a regular file inside `root` reached without links, of at
/// most `cap` bytes; `None` when it does not exist.
pub fn read(root: &Path, relative: &str, cap: u64) -> Result<Option<Vec<u8>>, Refused> {
    let path = contained(root, relative)?;
    match agx_core::regular_file::read_opened(open_non_blocking(&path, Links::Refuse), cap) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadProblem::NotFound) => Ok(None),
        Err(problem) => Err(Refused::new(&path, problem.describe())),
    }
}

/// Copy the file `from` (already known to be inside its folder) into the new file `to` with
/// the same refusals as [`read`]; returns its size.
pub fn copy_file(from: &Path, to: &Path, cap: u64) -> Result<u64, Refused> {
    copy_opened(open_non_blocking(from, Links::Refuse), to, cap)
        .map_err(|problem| Refused::new(from, problem.describe()))
}

/// Whether `path` is there, without following a link (for components agx only lists).
pub fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Whether `folder` is a skill folder: a real folder holding a regular `SKILL.md` (a link
/// is refused rather than followed).
pub fn is_skill(folder: &Path) -> Result<bool, Refused> {
    let kind = |path: &Path| std::fs::symlink_metadata(path).map(|m| m.file_type());
    match kind(folder) {
        Ok(kind) if kind.is_symlink() => Err(Refused::new(
            folder,
            "is a symbolic link, which agx does not follow out of a plugin",
        )),
        Ok(kind) if kind.is_dir() => match kind_of_skill_file(&folder.join("SKILL.md")) {
            Ok(found) => Ok(found),
            Err(problem) => Err(Refused::new(&folder.join("SKILL.md"), problem)),
        },
        _ => Ok(false),
    }
}

fn kind_of_skill_file(path: &Path) -> Result<bool, &'static str> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            Err("is a symbolic link, which agx does not follow out of a plugin")
        }
        Ok(meta) => Ok(meta.is_file()),
        Err(_) => Ok(false),
    }
}

/// Copy the folder `from` into `to` (created): regular files and folders only, no link
/// followed, `.git` left out, at most [`MAX_PLUGIN_BYTES`] in all.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), Refused> {
    let mut copy = TreeCopy {
        left: MAX_PLUGIN_BYTES,
        skipped_links: None,
    };
    copy.copy(from, to, "")
}

/// [`copy_tree`] for a whole plugin, where a symbolic link is left out rather than refused:
/// plugins hold links among files agx does not carry (`AGENTS.md -> CLAUDE.md`, a hook's
/// shim), and the importer decides what a missing one means. Returns the links left out,
/// as `/`-separated paths relative to `from`. No link is followed, inside the plugin or out.
pub fn copy_plugin_tree(from: &Path, to: &Path) -> Result<Vec<String>, Refused> {
    let mut copy = TreeCopy {
        left: MAX_PLUGIN_BYTES,
        skipped_links: Some(Vec::new()),
    };
    copy.copy(from, to, "")?;
    Ok(copy.skipped_links.unwrap_or_default())
}

/// A failed file system step on `path`, as a refusal naming it.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Refused + '_ {
    move |e| Refused::new(path, format!("cannot be copied: {e}"))
}

/// One tree copy: the bytes it may still copy, and (when links are left out rather than
/// refused) the links it left out.
struct TreeCopy {
    left: u64,
    skipped_links: Option<Vec<String>>,
}

impl TreeCopy {
    /// Copy `from` (at `relative` in the tree being copied) into `to`.
    fn copy(&mut self, from: &Path, to: &Path, relative: &str) -> Result<(), Refused> {
        std::fs::create_dir_all(to).map_err(io(to))?;
        let mut entries: Vec<_> = std::fs::read_dir(from)
            .map_err(io(from))?
            .collect::<Result<_, _>>()
            .map_err(io(from))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(Refused::new(&path, "has a name that is not UTF-8"));
            };
            if name == ".git" {
                continue;
            }
            let inner = if relative.is_empty() {
                name.to_string()
            } else {
                format!("{relative}/{name}")
            };
            let kind = std::fs::symlink_metadata(&path)
                .map_err(io(&path))?
                .file_type();
            if kind.is_symlink() {
                match &mut self.skipped_links {
                    Some(skipped) => skipped.push(inner),
                    None => {
                        return Err(Refused::new(
                            &path,
                            "is a symbolic link; a plugin holds regular files and folders only",
                        ));
                    }
                }
            } else if kind.is_dir() {
                self.copy(&path, &to.join(name), &inner)?;
            } else {
                let copied = copy_opened(
                    open_non_blocking(&path, Links::Refuse),
                    &to.join(name),
                    self.left,
                )
                .map_err(|problem| match problem {
                    ReadProblem::TooLarge { .. } => Refused::new(
                        &path,
                        format!(
                            "takes the plugin past {}, the most agx copies of one plugin",
                            agx_core::regular_file::human_size(MAX_PLUGIN_BYTES)
                        ),
                    ),
                    other => Refused::new(&path, other.describe()),
                })?;
                self.left -= copied;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn paths_leaving_the_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x", "a/../../x", "/etc/passwd", "a\\..\\x"] {
            assert!(!is_plain(bad), "{bad}");
            let err = contained(dir.path(), bad).unwrap_err();
            assert!(err.problem.contains("leaves it"), "{err}");
        }
        for ok in ["./plugins/x", "plugins/x", "x.tar.gz"] {
            assert!(is_plain(ok), "{ok}");
        }
        assert_eq!(
            contained(dir.path(), "./a/b").unwrap(),
            dir.path().join("a").join("b")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_on_the_way_is_refused_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        write(&outside.path().join("id_rsa"), "secret");
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("plugins")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("plugins/x")).unwrap();
        let err = contained(dir.path(), "./plugins/x").unwrap_err();
        assert!(err.problem.contains("symbolic link `plugins/x`"), "{err}");
        let err = read(dir.path(), "plugins/x/id_rsa", 100).unwrap_err();
        assert!(err.problem.contains("symbolic link"), "{err}");
        // A link inside a copied folder is refused too.
        std::fs::create_dir(dir.path().join("p")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("id_rsa"), dir.path().join("p/key"))
            .unwrap();
        let into = tempfile::tempdir().unwrap();
        let err = copy_tree(&dir.path().join("p"), &into.path().join("copy")).unwrap_err();
        assert!(err.problem.contains("symbolic link"), "{err}");
        // A whole plugin's copy leaves the link out, names it, and copies the rest.
        write(&dir.path().join("p/hooks/run.sh"), "echo");
        let skipped = copy_plugin_tree(&dir.path().join("p"), &into.path().join("plugin")).unwrap();
        assert_eq!(skipped, ["key"]);
        assert!(!exists(&into.path().join("plugin/key")));
        assert!(into.path().join("plugin/hooks/run.sh").is_file());
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("fifo.json"))
            .status()
            .unwrap();
        assert!(made.success());
        let err = read(dir.path(), "fifo.json", 100).unwrap_err();
        assert!(err.problem.contains("FIFO"), "{err}");
        let into = tempfile::tempdir().unwrap();
        let err = copy_tree(dir.path(), &into.path().join("copy")).unwrap_err();
        assert!(err.problem.contains("FIFO"), "{err}");
    }

    #[test]
    fn files_over_the_cap_are_refused_and_missing_ones_are_none() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("big.json"), "0123456789");
        let err = read(dir.path(), "big.json", 9).unwrap_err();
        assert!(err.problem.contains("10 bytes"), "{err}");
        assert_eq!(read(dir.path(), "big.json", 10).unwrap().unwrap().len(), 10);
        assert_eq!(read(dir.path(), "none.json", 10).unwrap(), None);
    }

    #[test]
    fn a_tree_is_copied_within_its_budget() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        write(&from.join("a/b.txt"), "0123456789");
        write(&from.join("c.txt"), "01234");
        write(&from.join(".git/HEAD"), "ref");
        copy_tree(&from, &dir.path().join("to")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("to/a/b.txt")).unwrap(),
            "0123456789"
        );
        assert!(!dir.path().join("to/.git").exists());
        let mut copy = TreeCopy {
            left: 12,
            skipped_links: None,
        };
        let err = copy.copy(&from, &dir.path().join("small"), "").unwrap_err();
        assert!(err.problem.contains("the most agx copies"), "{err}");
    }

    #[test]
    fn skills_are_real_folders_with_a_skill_md() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("s/SKILL.md"), "x");
        assert!(is_skill(&dir.path().join("s")).unwrap());
        assert!(!is_skill(&dir.path().join("none")).unwrap());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("s"), dir.path().join("l")).unwrap();
            assert!(is_skill(&dir.path().join("l")).is_err());
        }
    }
}
