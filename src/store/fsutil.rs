//! File-system steps the store's transactions are built from: atomic writes, atomic swaps
//! of folders, and unique names in the staging folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::StoreError;

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
pub fn remove_file(path: &Path) -> Result<(), StoreError> {
    match fs_err::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

/// Remove a folder tree if it exists.
pub fn remove_tree(path: &Path) -> Result<(), StoreError> {
    match fs_err::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

/// Remove a folder tree by first renaming it into `trash_dir` (one atomic step that makes it
/// disappear from its place), then deleting it. Leftovers in the trash are cleaned later.
pub fn discard_tree(path: &Path, trash_dir: &Path) -> Result<(), StoreError> {
    if !path.exists() {
        return Ok(());
    }
    fs_err::create_dir_all(trash_dir)?;
    let trash = trash_dir.join(unique_name("trash"));
    fs_err::rename(path, &trash)?;
    remove_tree(&trash)
}

/// Put the folder `new` in the place of `target`. When `target` exists it is atomically
/// exchanged with `new` (so `new` then holds the old content, for the caller to delete);
/// returns whether an exchange happened.
pub fn replace_dir(new: &Path, target: &Path) -> Result<bool, StoreError> {
    if let Some(parent) = target.parent() {
        fs_err::create_dir_all(parent)?;
    }
    match fs_err::rename(new, target) {
        Ok(()) => Ok(false),
        Err(e) if target.is_dir() => {
            // The rename's error names both paths; the exchange's own would name none.
            exchange(new, target).map_err(|_| e)?;
            Ok(true)
        }
        Err(e) => Err(e.into()),
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
pub fn read_dir_paths(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    match fs_err::read_dir(dir) {
        Ok(entries) => Ok(entries
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
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
