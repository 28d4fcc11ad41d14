//! Staging: where a writer downloads, unpacks and checks packages before it takes the store
//! lock, so that a slow registry never blocks the readers of the store.
//!
//! Each process stages in a folder of its own, `.staging/<unique>/`, and owns it through a
//! transient lock file beside it, `.staging/<unique>.lock`, locked for as long as the
//! process lives. A writer cleaning leftovers (under the exclusive store lock) removes only
//! folders whose lock it can take, that is, whose process has ended; the OS releases a lock
//! when its process dies, so a crash never leaves a folder that looks owned.

use std::path::{Path, PathBuf};

use super::StoreError;
use agx_core::file_lock::FileLock;
use agx_core::fsutil;

/// This process's staging folder; removed, with its lock file, when dropped.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    /// Dropped after `dir` is removed (fields drop after `Drop::drop`).
    _owner: FileLock,
}

impl Staging {
    /// A new staging folder under `root` (`store-v1/.staging`).
    pub(super) fn create(root: &Path) -> Result<Staging, StoreError> {
        fs_err::create_dir_all(root)?;
        let name = fsutil::unique_name("stage");
        // Locked before the folder exists: a cleaner never sees the folder unowned.
        let lock_path = owner_lock(&root.join(&name));
        let owner = FileLock::acquire_transient(&lock_path, || {})
            .map_err(agx_core::io_context::at("lock", &lock_path))?;
        let dir = root.join(name);
        fs_err::create_dir(&dir)?;
        Ok(Staging { dir, _owner: owner })
    }

    /// A new empty folder inside, for one package.
    pub fn new_dir(&self, prefix: &str) -> Result<PathBuf, StoreError> {
        let dir = self.dir.join(fsutil::unique_name(prefix));
        fs_err::create_dir(&dir)?;
        Ok(dir)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fsutil::remove_tree(&self.dir);
    }
}

/// The lock file that owns the staging folder `dir`.
fn owner_lock(dir: &Path) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Remove from `root` what ended processes left: staging folders whose owner is gone, and
/// anything else there that no live process owns (a writer's trash, an older agx's staging).
/// Call only while holding the exclusive store lock.
pub(super) fn clean(root: &Path) -> Result<(), StoreError> {
    for path in fsutil::read_dir_paths(root)? {
        if path.extension().is_some_and(|e| e == "lock") {
            // A lock file without its folder: its owner ended between removing the two.
            if !path.with_extension("").exists() {
                release_if_ownerless(&path)?;
            }
            continue;
        }
        let owner = match FileLock::try_take_transient(&owner_lock(&path)) {
            Ok(Some(owner)) => Some(owner),
            Ok(None) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(agx_core::io_context::at("lock", owner_lock(&path))(e).into()),
        };
        if path.is_dir() {
            fsutil::remove_tree(&path)?;
        } else {
            fsutil::remove_file(&path)?;
        }
        // Removes the lock file, now that the folder it owned is gone.
        drop(owner);
    }
    Ok(())
}

/// What [`clean`] would remove: the entries of `root` that no live process owns (lock
/// files aside). Changes nothing: an owner lock is only tried, and released at once.
pub(super) fn leftovers(root: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let mut found = Vec::new();
    for path in fsutil::read_dir_paths(root)? {
        if path.extension().is_some_and(|e| e == "lock") {
            continue;
        }
        let lock = owner_lock(&path);
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&lock)
        {
            Ok(file) => match file.try_lock() {
                Ok(()) => found.push(path),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(agx_core::io_context::at("lock", &lock)(e).into());
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => found.push(path),
            Err(e) => return Err(agx_core::io_context::at("lock", &lock)(e).into()),
        }
    }
    found.sort();
    Ok(found)
}

fn release_if_ownerless(lock: &Path) -> Result<(), StoreError> {
    match FileLock::try_take_transient(lock) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(agx_core::io_context::at("lock", lock)(e).into()),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fsutil::read_dir_paths(dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_live_staging_folder_survives_cleaning_and_goes_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join(".staging");
        let staging = Staging::create(&root).unwrap();
        let package = staging.new_dir("install").unwrap();
        std::fs::write(package.join("package.tar.gz"), "bytes").unwrap();
        clean(&root).unwrap();
        assert!(package.join("package.tar.gz").is_file());
        drop(staging);
        assert!(names(&root).is_empty(), "{:?}", names(&root));
    }

    #[test]
    fn what_ended_processes_left_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join(".staging");
        std::fs::create_dir_all(root.join("stage-1-0-0/install-1/package")).unwrap();
        // Its owner ended without removing its lock file: the lock is free.
        std::fs::write(root.join("stage-1-0-0.lock"), "").unwrap();
        // A writer's trash and an older agx's staging have no lock file at all.
        std::fs::create_dir_all(root.join("trash-2-0-0/x")).unwrap();
        std::fs::write(root.join("stray"), "").unwrap();
        // A lock file whose folder is gone.
        std::fs::write(root.join("stage-3-0-0.lock"), "").unwrap();
        let live = Staging::create(&root).unwrap();
        assert_eq!(leftovers(&root).unwrap().len(), 3);
        clean(&root).unwrap();
        let left = names(&root);
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(live.dir.is_dir());
        assert!(owner_lock(&live.dir).is_file());
    }
}
