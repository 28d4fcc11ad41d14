//! The process-level store lock: readers share it, writers hold it alone. A command that
//! has to wait says so on stderr, naming the lock file.

use std::path::{Path, PathBuf};

use super::StoreError;
use crate::file_lock::FileLock;
pub use crate::file_lock::LockMode;

/// A held lock; released when dropped (the OS also releases it if the process dies).
#[derive(Debug)]
pub struct StoreLock {
    _lock: FileLock,
    pub mode: LockMode,
}

impl StoreLock {
    /// Take the lock on `path` (created when missing), waiting for other processes.
    pub fn acquire(path: &Path, mode: LockMode) -> Result<StoreLock, StoreError> {
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent)?;
        }
        let lock = FileLock::acquire(path, mode, || {
            tracing::info!(
                verb = "Blocking",
                "waiting for another agx process to finish (lock: {})",
                path.display()
            )
        })
        .map_err(crate::io_context::at("lock", path))?;
        Ok(StoreLock { _lock: lock, mode })
    }
}

/// The lock file of a store folder.
pub fn lock_path(store_dir: &Path) -> PathBuf {
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
}
