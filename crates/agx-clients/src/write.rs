//! Safe writes of client files: a temp file in the same folder, fsync, the original's
//! permissions, owner and group, an atomic rename, and a backup of the previous content
//! next to it. Symlinks are written through (the link stays), and a file with other hard
//! links is written in place, so that every name of it sees the change. Whatever fails,
//! the user's file is left byte for byte as it was.

use std::fs;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

/// The largest client file agx reads. Real ones are a few KiB (Claude Code's
/// `~/.claude.json`, which keeps every project's history, reaches a few MiB); a file past
/// this is refused, not read into memory (docs/security.md).
pub const MAX_CLIENT_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Read a client's file (`None` when it does not exist): the one reader of client files, for
/// sync, install-server, doctor and clients. Links are followed (dotfile managers link these
/// files), but only a regular file of at most [`MAX_CLIENT_FILE_BYTES`] is read: a link to
/// `/dev/zero` or a FIFO committed to a repository is refused, without waiting on it.
pub fn read_client_file(path: &Path) -> io::Result<Option<String>> {
    read_client_bytes(path)?
        .map(|bytes| {
            String::from_utf8(bytes)
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
        })
        .transpose()
}

fn read_client_bytes(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match agx_core::regular_file::read(path, MAX_CLIENT_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(agx_core::regular_file::ReadProblem::NotFound) => Ok(None),
        Err(problem) => Err(problem.into_io()),
    }
}

/// Whether the file agx would write for `path` (links followed) exists and is read-only: its
/// owner made it so on purpose, and renaming a new file over it would undo that.
pub fn is_read_only(path: &Path) -> io::Result<bool> {
    match fs::metadata(follow_links(path)?) {
        Ok(meta) => Ok(meta.permissions().readonly()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// The backup kept next to `path` (one, replaced by the next write).
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".agx-backup");
    path.with_file_name(name)
}

/// The file `path` finally names, following symlinks even when the last target does not
/// exist yet (a dotfile manager's link to a file no one created): agx writes there, and the
/// links stay links.
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    // The kernel's own limit (Linux's MAXSYMLINKS).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                // A relative target is relative to the link's folder; an absolute one
                // replaces the whole path when joined.
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row at {}",
        path.display()
    )))
}

/// Replace `path` with `text`. A new file gets `new_mode` (Unix permission bits; `None`:
/// what the umask gives); an existing one keeps its permissions, owner and group, and its old
/// content goes to the backup, whose path is returned.
pub fn write_atomic(
    path: &Path,
    text: &str,
    new_mode: Option<u32>,
    backup: bool,
) -> io::Result<Option<PathBuf>> {
    let path = follow_links(path)?;
    let old = match fs::metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            agx_core::atomic::write_file(&path, text.as_bytes(), new_mode.map(new_permissions))?;
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    // Read as it was read for planning; it cannot have vanished under the file's lock.
    let old_bytes = read_client_bytes(&path)?.ok_or(io::ErrorKind::NotFound)?;
    let mut backup_written = None;
    if backup {
        let b = backup_path(&path);
        let dir = b.parent().filter(|p| !p.as_os_str().is_empty());
        let mut tmp = tempfile::NamedTempFile::new_in(dir.unwrap_or(Path::new(".")))?;
        // Not fsynced: the backup is a courtesy copy, and each fsync costs milliseconds.
        tmp.write_all(&old_bytes)?;
        // The user's own backup, even when root wrote it; agx owns it when it may not
        // give it away.
        let _ = keep_owner(tmp.as_file(), &old);
        tmp.as_file().set_permissions(old.permissions())?;
        tmp.persist(&b).map_err(|e| e.error)?;
        backup_written = Some(b);
    }
    replace(&path, text.as_bytes(), &old_bytes, &old)?;
    Ok(backup_written)
}

/// Replace an existing file's content, keeping what makes it the user's file.
fn replace(path: &Path, new: &[u8], old_bytes: &[u8], old: &fs::Metadata) -> io::Result<()> {
    if has_other_links(old) {
        return overwrite_in_place(path, new, old_bytes);
    }
    let mut owner_refused = false;
    let renamed = agx_core::atomic::write_file_with(path, new, |tmp| {
        keep_owner(tmp, old).inspect_err(|e| {
            owner_refused = e.kind() == io::ErrorKind::PermissionDenied;
        })?;
        // After the owner: changing it may clear set-id bits.
        tmp.set_permissions(old.permissions())
    });
    match renamed {
        // Another user's file that we may write but not give back to them: a new file
        // would change its owner, so write over the old one.
        Err(_) if owner_refused => overwrite_in_place(path, new, old_bytes),
        other => other,
    }
}

/// Write over the file itself: its inode, and so its other names, owner and group, stay.
/// Not atomic, so on failure the old bytes are put back.
fn overwrite_in_place(path: &Path, new: &[u8], old_bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new().write(true).open(path)?;
    write_from_start(&mut file, new).inspect_err(|_| {
        let _ = write_from_start(&mut file, old_bytes);
    })
}

fn write_from_start(file: &mut fs::File, bytes: &[u8]) -> io::Result<()> {
    file.seek(io::SeekFrom::Start(0))?;
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    file.sync_all()
}

/// Give a new file the owner and group of the one it replaces.
#[cfg(unix)]
fn keep_owner(new: &fs::File, old: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let made = new.metadata()?;
    if (made.uid(), made.gid()) == (old.uid(), old.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(new, Some(old.uid()), Some(old.gid()))
}

#[cfg(not(unix))]
fn keep_owner(_new: &fs::File, _old: &fs::Metadata) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn has_other_links(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.nlink() > 1
}

#[cfg(not(unix))]
fn has_other_links(_meta: &fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn new_permissions(mode: u32) -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(mode)
}

#[cfg(not(unix))]
fn new_permissions(_mode: u32) -> fs::Permissions {
    let f = tempfile::tempfile().expect("temp file");
    f.metadata().expect("metadata").permissions()
}

/// A unified diff of a planned change, labelled with the file's path.
pub fn unified_diff(path: &Path, before: &str, after: &str) -> String {
    let label = path.display().to_string();
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&label, &label)
        .to_string()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn keeps_permissions_and_backs_up() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("c.json");
        fs::write(&f, "old").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o640)).unwrap();
        let b = write_atomic(&f, "new", Some(0o600), true).unwrap().unwrap();
        assert_eq!(fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(fs::read_to_string(&b).unwrap(), "old");
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(
            fs::metadata(&b).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[test]
    fn new_file_gets_mode_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a/b/.claude.json");
        assert!(write_atomic(&f, "{}", Some(0o600), true).unwrap().is_none());
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn writes_through_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, "new", Some(0o600), false).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }
}
