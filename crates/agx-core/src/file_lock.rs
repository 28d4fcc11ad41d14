//! Blocking advisory locks between agx processes: the store, a registry being published to,
//! client config files and the record of client entries all serialise their writers here.
//!
//! Built on the standard library's `File::lock` (`flock` on Unix, `LockFileEx` on Windows),
//! stable since Rust 1.89: no crate is needed. The OS drops a lock when its process ends,
//! so a crash never leaves one held.

use std::fs::{self, File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    /// Readers: any number at once, never with a writer.
    Shared,
    /// A writer, alone.
    Exclusive,
}

/// A held lock, released when dropped.
#[derive(Debug)]
pub struct FileLock {
    /// Held for its lock; read only to check its identity (`is_at`, Unix).
    #[cfg_attr(not(unix), allow(dead_code))]
    file: File,
    mode: LockMode,
    /// A lock file that exists only while held, removed on release.
    remove_on_release: Option<PathBuf>,
}

impl FileLock {
    /// Lock an open file, waiting for other processes; `on_wait` runs once, before waiting,
    /// when another process holds it (to say why the command pauses).
    pub fn lock(file: File, mode: LockMode, on_wait: impl FnOnce()) -> io::Result<FileLock> {
        let attempt = match mode {
            LockMode::Shared => file.try_lock_shared(),
            LockMode::Exclusive => file.try_lock(),
        };
        match attempt {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                on_wait();
                match mode {
                    LockMode::Shared => file.lock_shared(),
                    LockMode::Exclusive => file.lock(),
                }?;
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
        Ok(FileLock {
            file,
            mode,
            remove_on_release: None,
        })
    }

    /// Lock the file at `path`, creating it when missing (its folder must exist). The file
    /// stays after release: for lock files in agx's own folders.
    pub fn acquire(path: &Path, mode: LockMode, on_wait: impl FnOnce()) -> io::Result<FileLock> {
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        FileLock::lock(file, mode, on_wait)
    }

    /// An exclusive lock on a file that exists only while held, for locks that sit in the
    /// user's folders (next to a client config) and must not stay behind.
    ///
    /// The holder removes the file before releasing it, so a waiter may wake up holding a
    /// file that is no longer at `path`; it then starts over with the file now there.
    pub fn acquire_transient(path: &Path, on_wait: impl FnOnce()) -> io::Result<FileLock> {
        let mut on_wait = Some(on_wait);
        loop {
            let mut lock = FileLock::acquire(path, LockMode::Exclusive, || {
                if let Some(say) = on_wait.take() {
                    say()
                }
            })?;
            if lock.is_at(path)? {
                lock.remove_on_release = cfg!(unix).then(|| path.to_path_buf());
                return Ok(lock);
            }
        }
    }

    /// Take the lock of a transient lock file at `path` without waiting, to learn whether
    /// its owner has ended (the OS released its lock): `None` while another process holds it.
    /// The taker then owns the file, and removes it on release as its owner would have. A
    /// missing file is a `NotFound` error.
    pub fn try_take_transient(path: &Path) -> io::Result<Option<FileLock>> {
        let file = fs::OpenOptions::new().read(true).write(true).open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(None),
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let mut lock = FileLock {
            file,
            mode: LockMode::Exclusive,
            remove_on_release: None,
        };
        // Removed and replaced between the open and the lock: the file there is not this one.
        if !lock.is_at(path)? {
            return Ok(None);
        }
        lock.remove_on_release = Some(path.to_path_buf());
        Ok(Some(lock))
    }

    pub fn mode(&self) -> LockMode {
        self.mode
    }

    /// Whether the locked file is still the one at `path`.
    #[cfg(unix)]
    fn is_at(&self, path: &Path) -> io::Result<bool> {
        use std::os::unix::fs::MetadataExt;
        let held = self.file.metadata()?;
        match fs::metadata(path) {
            Ok(now) => Ok(now.dev() == held.dev() && now.ino() == held.ino()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Windows cannot remove an open file, so transient lock files are never removed there
    /// and the file at `path` is always the locked one.
    #[cfg(not(unix))]
    fn is_at(&self, _path: &Path) -> io::Result<bool> {
        Ok(true)
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Removed while still locked (the file closes after this body): whoever opens the
        // path next gets a new file, and a waiter on this one sees that it moved.
        if let Some(path) = &self.remove_on_release {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(path: &Path) -> File {
        File::options().read(true).open(path).unwrap()
    }

    #[test]
    fn shared_locks_coexist_and_exclude_writers() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".lock");
        let a = FileLock::acquire(&path, LockMode::Shared, || panic!("free")).unwrap();
        let b = FileLock::acquire(&path, LockMode::Shared, || panic!("shared")).unwrap();
        assert_eq!(a.mode(), LockMode::Shared);
        assert!(matches!(
            probe(&path).try_lock(),
            Err(TryLockError::WouldBlock)
        ));
        drop((a, b));
        assert!(probe(&path).try_lock().is_ok());
        assert!(path.exists(), "a lock file in agx's folders stays");
    }

    #[test]
    fn a_waiter_is_told_before_it_blocks() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".lock");
        let held = FileLock::acquire(&path, LockMode::Exclusive, || {}).unwrap();
        let (told_tx, told_rx) = std::sync::mpsc::channel();
        let waiter = {
            let path = path.clone();
            std::thread::spawn(move || {
                FileLock::acquire(&path, LockMode::Exclusive, || told_tx.send(()).unwrap())
                    .map(|_| ())
            })
        };
        told_rx.recv().unwrap();
        drop(held);
        waiter.join().unwrap().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_transient_lock_is_taken_over_only_once_its_owner_lets_go() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("owner.lock");
        let mut owner = FileLock::acquire_transient(&path, || {}).unwrap();
        assert!(FileLock::try_take_transient(&path).unwrap().is_none());
        // An owner that ends without removing its file (a crash) leaves it free.
        owner.remove_on_release = None;
        drop(owner);
        assert!(path.exists());
        let taken = FileLock::try_take_transient(&path).unwrap().expect("free");
        drop(taken);
        assert!(!path.exists(), "the taker removes the file");
        let missing = FileLock::try_take_transient(&path).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn transient_locks_leave_no_file_and_hand_over_to_waiters() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("mcp.json.agx-lock");
        let held = FileLock::acquire_transient(&path, || {}).unwrap();
        let (told_tx, told_rx) = std::sync::mpsc::channel();
        let waiter = {
            let path = path.clone();
            std::thread::spawn(move || {
                let lock = FileLock::acquire_transient(&path, || told_tx.send(()).unwrap())?;
                // The waiter holds the file now at the path, not the one removed under it.
                let free = probe(&path).try_lock().is_ok();
                drop(lock);
                Ok::<_, io::Error>(free)
            })
        };
        told_rx.recv().unwrap();
        drop(held);
        assert!(
            !waiter.join().unwrap().unwrap(),
            "the waiter's lock is on the live file"
        );
        assert!(
            !path.exists(),
            "a transient lock file is removed on release"
        );
    }
}
