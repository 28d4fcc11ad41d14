//! Safe writes of client files: temp file in the same folder, fsync, the original's
//! permissions, atomic rename, and a backup of the previous content next to it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The backup kept next to `path` (one, replaced by the next write).
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".agx-backup");
    path.with_file_name(name)
}

/// The real file behind a symlink (dotfile managers link config files; replace the target,
/// not the link).
fn resolve_link(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).unwrap_or(path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

/// Replace `path` with `text`. A new file gets `new_mode` (Unix permission bits); an
/// existing one keeps its permissions and its old content goes to the backup, whose path is
/// returned.
pub fn write_atomic(
    path: &Path,
    text: &str,
    new_mode: u32,
    backup: bool,
) -> std::io::Result<Option<PathBuf>> {
    let path = resolve_link(path);
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let old = match fs::metadata(&path) {
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let mut backup_written = None;
    if let (Some(perms), true) = (&old, backup) {
        let b = backup_path(&path);
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        // Not fsynced: the backup is a courtesy copy, and each fsync costs milliseconds.
        tmp.write_all(&fs::read(&path)?)?;
        fs::set_permissions(tmp.path(), perms.clone())?;
        tmp.persist(&b).map_err(|e| e.error)?;
        backup_written = Some(b);
    }
    let perms = old.unwrap_or_else(|| new_permissions(new_mode));
    crate::atomic::write_file(&path, text.as_bytes(), Some(perms))?;
    Ok(backup_written)
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
        let b = write_atomic(&f, "new", 0o600, true).unwrap().unwrap();
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
        assert!(write_atomic(&f, "{}", 0o600, true).unwrap().is_none());
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
        write_atomic(&link, "new", 0o600, false).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }
}
