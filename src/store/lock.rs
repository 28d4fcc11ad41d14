//! The process-level store lock: readers share it, writers hold it alone. A command that
//! has to wait says so on stderr, naming the lock file.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use super::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

/// A held lock; released when dropped (the OS also releases it if the process dies).
#[derive(Debug)]
pub struct StoreLock {
    _file: File,
    pub mode: LockMode,
}

impl StoreLock {
    /// Take the lock on `path` (created when missing), waiting for other processes.
    pub fn acquire(path: &Path, mode: LockMode) -> Result<StoreLock, StoreError> {
        let err = |e| StoreError::from(crate::io_context::at("lock", path)(e));
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent)?;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(err)?;
        let attempt = match mode {
            LockMode::Shared => file.try_lock_shared(),
            LockMode::Exclusive => file.try_lock(),
        };
        match attempt {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                tracing::info!(
                    verb = "Blocking",
                    "waiting for another agx process to finish (lock: {})",
                    path.display()
                );
                match mode {
                    LockMode::Shared => file.lock_shared(),
                    LockMode::Exclusive => file.lock(),
                }
                .map_err(err)?;
            }
            Err(TryLockError::Error(e)) => return Err(err(e)),
        }
        Ok(StoreLock { _file: file, mode })
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
        let probe = File::options().write(true).open(&path).unwrap();
        assert!(matches!(probe.try_lock(), Err(TryLockError::WouldBlock)));
        drop(a);
        drop(_b);
        assert!(probe.try_lock().is_ok());
    }
}
