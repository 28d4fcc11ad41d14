//! The process-level store lock: readers share it, writers hold it alone. A command that
//! has to wait says so on stderr, naming the lock file. A reader of a store it cannot write
//! (one baked read-only into a container image) goes on without the lock: readers are
//! correct without it, since every change a writer makes is a rename.

use std::path::{Path, PathBuf};

use super::StoreError;
use agx_core::file_lock::FileLock;
pub use agx_core::file_lock::LockMode;

/// A held lock; released when dropped (the OS also releases it if the process dies).
#[derive(Debug)]
pub struct StoreLock {
    /// `None` for a reader that could not create or open the lock file.
    _lock: Option<FileLock>,
    pub mode: LockMode,
}

impl StoreLock {
    /// Take the lock on `path` (created when missing), waiting for other processes.
    /// A shared lock whose file cannot be created or opened for writing is skipped (a
    /// `-v` note says so); a writer needs the lock and fails.
    pub fn acquire(path: &Path, mode: LockMode) -> Result<StoreLock, StoreError> {
        match Self::acquire_file(path, mode) {
            Ok(lock) => Ok(StoreLock {
                _lock: Some(lock),
                mode,
            }),
            Err(e) if mode == LockMode::Shared => {
                tracing::debug!("reading the store without its lock: {e}");
                Ok(StoreLock { _lock: None, mode })
            }
            Err(e) => Err(e.into()),
        }
    }

    fn acquire_file(path: &Path, mode: LockMode) -> std::io::Result<FileLock> {
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent)?;
        }
        FileLock::acquire(path, mode, || {
            tracing::info!(
                verb = "Blocking",
                "waiting for another agx process to finish (lock: {})",
                path.display()
            )
        })
        .map_err(agx_core::io_context::at("lock", path))
    }
}

/// The lock file of a store folder.
pub(crate) fn lock_path(store_dir: &Path) -> PathBuf {
    store_dir.join(".lock")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_locks_coexist_and_exclude_writers() {
        let tmp = tempfile::tempdir().unwrap();
        let path = lock_path(tmp.path());
        let a = StoreLock::acquire(&path, LockMode::Shared).unwrap();
        let _b = StoreLock::acquire(&path, LockMode::Shared).unwrap();
        let probe = std::fs::File::options().write(true).open(&path).unwrap();
        assert!(matches!(
            probe.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(a);
        drop(_b);
        assert!(probe.try_lock().is_ok());
    }

    #[test]
    fn readers_go_on_without_a_lock_file_they_cannot_open_but_writers_fail() {
        let tmp = tempfile::tempdir().unwrap();
        let path = lock_path(tmp.path());
        // A folder in the lock file's place cannot be opened for writing, even by root.
        std::fs::create_dir(&path).unwrap();
        assert!(StoreLock::acquire(&path, LockMode::Shared).is_ok());
        let err = StoreLock::acquire(&path, LockMode::Exclusive).unwrap_err();
        assert!(err.to_string().contains(".lock"), "{err}");
    }
}
