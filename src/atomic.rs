//! Replacing a file so that a reader sees either its old or its new content, never a part:
//! a temp file in the same folder, flushed to disk, renamed over the target, and the folder
//! synced. Every writer of agx's own files (receipts, index cache, registry files, client
//! configs) goes through here.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path`, creating missing folders. Errors name the path. `permissions`, when given, are set on
/// the new file before it replaces the old one.
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
/// (permissions, owner) before it replaces the old one. When anything fails, the old file
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
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    prepare(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
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
}
