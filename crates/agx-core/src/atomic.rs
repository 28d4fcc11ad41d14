//! Replacing a file so that a reader sees either its old or its new content, never a part:
//! a temp file in the same folder, flushed to disk, renamed over the target, and the folder
//! synced. Every writer of agx's own files (receipts, index cache, registry files, client
//! configs) goes through here.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path`, creating missing folders. Errors name the path. `permissions`,
/// when given, are set on the new file before it replaces the old one; otherwise a file that
/// replaces another keeps its permissions (a 0600 file stays 0600), and a new one gets what
/// the umask leaves of 0666, as any program's new file does (0644 under umask 022), so that a
/// registry's files can be served and a project's files shared.
pub fn write_file(
    path: &Path,
    bytes: &[u8],
    permissions: Option<fs::Permissions>,
) -> std::io::Result<()> {
    write_file_with(path, bytes, |new| match permissions {
        Some(perms) => new.set_permissions(perms),
        None => Ok(()),
    })
}

/// Write `bytes` to `path` like `write_file`; `prepare` gives the new file its attributes
/// (permissions, owner) before it replaces the old one, after the defaults of `write_file`. When anything fails, the old file
/// is as it was and the temp file is gone.
pub fn write_file_with(
    path: &Path,
    bytes: &[u8],
    prepare: impl FnOnce(&fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_unnamed(path, bytes, prepare).map_err(crate::io_context::at("write", path))
}

fn write_unnamed(
    path: &Path,
    bytes: &[u8],
    prepare: impl FnOnce(&fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = new_temp_file(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    match fs::metadata(path) {
        Ok(old) => tmp.as_file().set_permissions(old.permissions())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    prepare(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// A temp file in `dir` created with mode 0666, which the kernel narrows by the umask
/// (`NamedTempFile` alone makes 0600, whatever the umask).
#[cfg(unix)]
fn new_temp_file(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
}

/// Elsewhere a new file gets the folder's default access.
#[cfg(not(unix))]
fn new_temp_file(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::NamedTempFile::new_in(dir)
}

/// Make a rename durable (best effort: not every platform can open a folder).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/file.toml");
        write_file(&path, b"one", None).unwrap();
        write_file(&path, b"two", None).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("file.toml")]);
    }

    /// New files were 0600 whatever the umask; now they follow it, and a file that was
    /// private stays private.
    #[cfg(unix)]
    #[test]
    fn a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        // What the umask leaves of 0666, as seen on a file made the ordinary way.
        let probe = dir.path().join("probe");
        fs::File::create(&probe).unwrap();
        let expected = mode(&probe);
        let path = dir.path().join("catalog.json");
        write_file(&path, b"{}", None).unwrap();
        assert_eq!(mode(&path), expected);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write_file(&path, b"{ }", None).unwrap();
        assert_eq!(mode(&path), 0o600);
        write_file(&path, b"{}", Some(fs::Permissions::from_mode(0o640))).unwrap();
        assert_eq!(mode(&path), 0o640);
    }
}
