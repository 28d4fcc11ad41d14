//! File-system steps the store's transactions are built from: atomic writes, atomic swaps
//! of folders, and unique names in the staging folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A name unique to this process and call, for files in staging or beside a target.
pub fn unique_name(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{prefix}-{}-{}-{nanos:08x}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Remove a file if it exists.
pub fn remove_file(path: &Path) -> std::io::Result<()> {
    match fs_err::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Remove a folder tree if it exists. An installed version is read-only
/// ([`make_read_only`]): when removal is refused, the tree is made writable and removed again.
pub fn remove_tree(path: &Path) -> std::io::Result<()> {
    match fs_err::remove_dir_all(path) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            make_writable(path)?;
            match fs_err::remove_dir_all(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Make every file and folder of the tree `root` read-only (links are left alone: they
/// may point anywhere). An installed version's folder is made so, so that a server writing
/// beside its code gets a permission error at once instead of keeping data there that the
/// next update deletes (docs/store.md, "Data folders").
pub fn make_read_only(root: &Path) -> std::io::Result<()> {
    set_tree_writable(root, false)
}

/// Undo [`make_read_only`] for the owner, so the tree can be changed or removed.
pub fn make_writable(root: &Path) -> std::io::Result<()> {
    set_tree_writable(root, true)
}

/// Folders are made writable before their entries and read-only after them, so the walk
/// never locks itself out.
fn set_tree_writable(root: &Path, writable: bool) -> std::io::Result<()> {
    let meta = match fs_err::symlink_metadata(root) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    if meta.is_dir() {
        if writable {
            set_writable(root, &meta, true)?;
        }
        for entry in fs_err::read_dir(root)? {
            set_tree_writable(&entry?.path(), writable)?;
        }
        if !writable {
            set_writable(root, &meta, false)?;
        }
        Ok(())
    } else {
        set_writable(root, &meta, writable)
    }
}

#[cfg(unix)]
fn set_writable(path: &Path, meta: &std::fs::Metadata, writable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode();
    // Owner write only when restoring: the store is the user's own, never shared.
    let wanted = if writable {
        mode | 0o200
    } else {
        mode & !0o222
    };
    if wanted != mode {
        fs_err::set_permissions(path, std::fs::Permissions::from_mode(wanted))?;
    }
    Ok(())
}

#[cfg(windows)]
fn set_writable(path: &Path, meta: &std::fs::Metadata, writable: bool) -> std::io::Result<()> {
    // A folder's read-only attribute means nothing to Windows (and marks it customised to
    // Explorer): only files get it.
    if meta.is_dir() {
        return Ok(());
    }
    let mut permissions = meta.permissions();
    if permissions.readonly() != writable {
        return Ok(());
    }
    #[allow(clippy::permissions_set_readonly_false)] // Windows: clears the attribute only.
    permissions.set_readonly(!writable);
    fs_err::set_permissions(path, permissions)?;
    Ok(())
}

/// Remove a folder tree by first renaming it into `trash_dir` (one atomic step that makes it
/// disappear from its place), then deleting it. Leftovers in the trash are cleaned later.
pub fn discard_tree(path: &Path, trash_dir: &Path) -> std::io::Result<()> {
    if !path.exists() {
        return Ok(());
    }
    fs_err::create_dir_all(trash_dir)?;
    let trash = trash_dir.join(unique_name("trash"));
    // Moving a folder to another parent rewrites its `..`: it must be writable (a
    // read-only installed version is not).
    make_writable(path)?;
    fs_err::rename(path, &trash)?;
    remove_tree(&trash)
}

/// Put the folder `new` in the place of `target`. When `target` exists it is atomically
/// exchanged with `new` (so `new` then holds the old content, for the caller to delete);
/// returns whether an exchange happened.
pub fn replace_dir(new: &Path, target: &Path) -> std::io::Result<bool> {
    if let Some(parent) = target.parent() {
        fs_err::create_dir_all(parent)?;
    }
    match fs_err::rename(new, target) {
        Ok(()) => Ok(false),
        Err(e) if target.is_dir() => {
            // Both folders change parents, so both must be writable (their `..`); an
            // installed version is read-only.
            if let Ok(meta) = fs_err::symlink_metadata(target) {
                set_writable(target, &meta, true)?;
            }
            // The rename's error names both paths; the exchange's own would name none.
            exchange(new, target).map_err(|_| e)?;
            Ok(true)
        }
        Err(e) => Err(e),
    }
}

/// Atomically swap two paths (Linux `renameat2(RENAME_EXCHANGE)`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths; the call has no other preconditions.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere: move the old folder aside, then the new one in (a short window without it).
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    let aside: PathBuf = b.with_extension(unique_name("old"));
    std::fs::rename(b, &aside)?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(&aside, b);
        return Err(e);
    }
    std::fs::rename(&aside, a)
}

/// Every entry of a folder (an empty list when it does not exist).
pub fn read_dir_paths(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    match fs_err::read_dir(dir) {
        Ok(entries) => Ok(entries
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Whether a file's mode lets anyone execute it. Windows has no execute bit: nothing is,
/// there (a script's mode is not part of its content, and a `*.py` is run by its interpreter).
#[cfg(unix)]
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

/// See the Unix [`is_executable`]: Windows has no execute bit.
#[cfg(not(unix))]
pub fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_dir_swaps_existing_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let new = tmp.path().join("new");
        let target = tmp.path().join("a/b/target");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join("f"), "one").unwrap();
        assert!(!replace_dir(&new, &target).unwrap());
        assert_eq!(std::fs::read_to_string(target.join("f")).unwrap(), "one");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join("f"), "two").unwrap();
        assert!(replace_dir(&new, &target).unwrap());
        assert_eq!(std::fs::read_to_string(target.join("f")).unwrap(), "two");
        assert_eq!(std::fs::read_to_string(new.join("f")).unwrap(), "one");
    }
}
