//! Rule paths resolved without following a link a confined program could have planted
//! (docs/sandbox.md, "Links"). A program may create symbolic links wherever it may write;
//! were the rules of its next run built by following them, `{data}/cfg → ~/.ssh` planted in
//! one run would grant `~/.ssh` from then on. So agx resolves every path of the rules itself,
//! one component at a time: links are followed as usual until the walk reaches an *anchor*
//! — a folder the program may write (its write paths, `{data}`, `{tmp}`) or the project
//! folder (a cloned repository's content) — and below an anchor a link leaves the path out.
//! A path through `/proc` is left out too: its links lead to agx's own files
//! (`/proc/self/cwd`), and the system rules grant what it holds.
//!
//! The result is a real path (no link left in it). Linux opens it with `openat2` and
//! `RESOLVE_NO_SYMLINKS` (see `linux.rs`), so a link swapped in after the walk makes the
//! open fail instead of being followed; macOS's profile names the real path, which the
//! kernel compares with the real path of every access.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::Resolved;

/// How many links one walk follows before it gives up (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// The folders below which no link is followed, by device and inode (so that a folder
/// reached through a link of the system's, `/tmp` → `/private/tmp`, is still known).
#[derive(Debug, Default, Clone)]
pub(crate) struct Anchors(Vec<(u64, u64)>);

impl Anchors {
    /// The anchors of a program confined to `resolved`: its write paths (`{data}` and
    /// `{tmp}` among them), the system's temporary folder and the project folder. The root
    /// folder is never one (a program granted `/` may write everywhere anyway).
    pub(crate) fn of(resolved: &Resolved) -> Anchors {
        let mut folders: Vec<PathBuf> = resolved.write.clone();
        folders.push(std::env::temp_dir());
        folders.extend(agx_project::discover::find_project(None).ok());
        Anchors::from_folders(&folders)
    }

    pub(crate) fn from_folders(folders: &[PathBuf]) -> Anchors {
        Anchors(
            folders
                .iter()
                .filter(|f| f.parent().is_some())
                .filter_map(|f| std::fs::metadata(f).ok())
                .map(|m| (m.dev(), m.ino()))
                .collect(),
        )
    }

    fn holds(&self, meta: &std::fs::Metadata) -> bool {
        self.0.contains(&(meta.dev(), meta.ino()))
    }
}

/// Why a path is left out of the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// A component below an anchor is a symbolic link (the link's own path).
    Link(PathBuf),
    /// The path leads into `/proc`.
    Proc,
}

impl Refused {
    /// Why `path` is left out, for the log.
    fn reason(&self, path: &Path) -> String {
        let place =
            "in a folder the program may write or in the project (docs/sandbox.md, \"Links\")";
        match self {
            Refused::Link(link) if link == path => format!("it is a symbolic link {place}"),
            Refused::Link(link) => {
                format!("{} on its way is a symbolic link {place}", link.display())
            }
            Refused::Proc => "it leads into /proc".into(),
        }
    }
}

/// The real path of `path` with links followed only above `anchors` (see the module's
/// comment): `Ok(None)` when it does not exist (or is relative, or climbs with `..` below an
/// anchor), `Err` when it must be left out whatever exists.
pub(crate) fn real_path(path: &Path, anchors: &Anchors) -> Result<Option<PathBuf>, Refused> {
    if !path.is_absolute() {
        return Ok(None);
    }
    // Components still to walk, the next one last.
    let mut rest: Vec<OsString> = Vec::new();
    push_components(&mut rest, path);
    let mut real = PathBuf::from("/");
    let mut below = false;
    let mut links = 0;
    while let Some(name) = rest.pop() {
        if name == ".." {
            if below {
                return Ok(None);
            }
            real.pop();
            continue;
        }
        let next = real.join(&name);
        if next == Path::new("/proc") {
            return Err(Refused::Proc);
        }
        let Ok(meta) = std::fs::symlink_metadata(&next) else {
            return Ok(None);
        };
        if meta.file_type().is_symlink() {
            if below {
                return Err(Refused::Link(next));
            }
            links += 1;
            let Ok(target) = std::fs::read_link(&next) else {
                return Ok(None);
            };
            if links > MAX_LINKS {
                return Ok(None);
            }
            if target.is_absolute() {
                real = PathBuf::from("/");
            }
            push_components(&mut rest, &target);
            continue;
        }
        if !rest.is_empty() && !meta.is_dir() {
            return Ok(None);
        }
        below = below || anchors.holds(&meta);
        real = next;
    }
    Ok(Some(real))
}

/// Push the components of `path` on `rest` so that its first component is popped first
/// (`.` and the root dropped, `..` kept as a name).
fn push_components(rest: &mut Vec<OsString>, path: &Path) {
    let names: Vec<OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.to_owned()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect();
    rest.extend(names.into_iter().rev());
}

/// Paths refused once already, so that a refusal is logged once per process and path, not
/// at every start of a program.
static LOGGED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// [`real_path`] of each of `paths`, the missing and refused ones left out (a refusal is
/// logged once, with its reason).
pub(crate) fn real_paths(paths: &[PathBuf], anchors: &Anchors) -> Vec<PathBuf> {
    paths
        .iter()
        .filter_map(|p| match real_path(p, anchors) {
            Ok(real) => real,
            Err(why) => {
                let mut logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
                if !logged.contains(p) {
                    logged.push(p.clone());
                    tracing::warn!("sandbox: left out {}: {}", p.display(), why.reason(p));
                }
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for d in ["data", "home/.ssh", "home/.config/tool", "other"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("home/.ssh/id_rsa"), "key").unwrap();
        (dir, root)
    }

    #[test]
    fn a_link_below_an_anchor_leaves_the_path_out() {
        let (_dir, root) = tree();
        symlink(root.join("home/.ssh"), root.join("data/cfg")).unwrap();
        let anchors = Anchors::from_folders(&[root.join("data")]);
        assert_eq!(
            real_path(&root.join("data/cfg"), &anchors),
            Err(Refused::Link(root.join("data/cfg")))
        );
        assert_eq!(
            real_path(&root.join("data/cfg/id_rsa"), &anchors),
            Err(Refused::Link(root.join("data/cfg")))
        );
        // Not an anchor: the same link is followed.
        assert_eq!(
            real_path(&root.join("data/cfg/id_rsa"), &Anchors::default()),
            Ok(Some(root.join("home/.ssh/id_rsa")))
        );
    }

    #[test]
    fn links_above_the_anchors_are_followed_into_them_and_checked_below() {
        let (_dir, root) = tree();
        // `other/d` → `data`: reached through a link, `data` is still the anchor.
        symlink(root.join("data"), root.join("other/d")).unwrap();
        symlink(root.join("home"), root.join("data/h")).unwrap();
        let anchors = Anchors::from_folders(&[root.join("data")]);
        assert_eq!(
            real_path(&root.join("other/d"), &anchors),
            Ok(Some(root.join("data")))
        );
        assert_eq!(
            real_path(&root.join("other/d/h/.ssh"), &anchors),
            Err(Refused::Link(root.join("data/h")))
        );
        // A relative link whose target passes through the anchor is checked there too.
        symlink("../data/h/.ssh", root.join("other/rel")).unwrap();
        assert_eq!(
            real_path(&root.join("other/rel"), &anchors),
            Err(Refused::Link(root.join("data/h")))
        );
    }

    #[test]
    fn missing_relative_and_proc_paths() {
        let (_dir, root) = tree();
        let anchors = Anchors::from_folders(&[root.join("data")]);
        assert_eq!(real_path(&root.join("data/missing"), &anchors), Ok(None));
        assert_eq!(real_path(Path::new("data"), &anchors), Ok(None));
        assert_eq!(real_path(&root.join("data/../home"), &anchors), Ok(None));
        assert_eq!(
            real_path(&root.join("home/.config/tool"), &anchors),
            Ok(Some(root.join("home/.config/tool")))
        );
        if Path::new("/proc/self").exists() {
            assert_eq!(
                real_path(Path::new("/proc/self/cwd"), &anchors),
                Err(Refused::Proc)
            );
            symlink("/proc/self/root", root.join("other/r")).unwrap();
            assert_eq!(
                real_path(&root.join("other/r"), &anchors),
                Err(Refused::Proc)
            );
        }
    }

    #[test]
    fn a_link_loop_ends() {
        let (_dir, root) = tree();
        symlink(root.join("other/b"), root.join("other/a")).unwrap();
        symlink(root.join("other/a"), root.join("other/b")).unwrap();
        assert_eq!(
            real_path(&root.join("other/a"), &Anchors::default()),
            Ok(None)
        );
    }
}
