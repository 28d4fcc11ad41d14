//! The one way validation (and its renderer) reads a file of a package: a regular file inside
//! the package folder, reached without following any link, at most [`MAX_FILE_BYTES`], as
//! UTF-8 text. A link can point anywhere (`/etc/shadow`), a FIFO blocks its reader forever
//! and a device such as `/dev/zero` never ends; `pack` refuses all three, so validation does
//! too (limits in docs/validate.md).

use std::path::Path;

pub use agx_core::regular_file::ReadProblem;
use agx_core::regular_file::{Links, open_non_blocking, read_opened};

/// The largest package file validation reads (agx.toml, a definition, a prompt's content
/// file). Real ones are a few KiB.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Read `<dir>/<rel>` (`rel` is `/`-separated and relative) as text, refusing links on the
/// way, anything but a regular file, and files over [`MAX_FILE_BYTES`].
pub fn read_text(dir: &Path, rel: &str) -> Result<String, ReadProblem> {
    let bytes = read_bytes(dir, rel, MAX_FILE_BYTES)?;
    String::from_utf8(bytes).map_err(|_| ReadProblem::NotUtf8)
}

/// Read `<dir>/<rel>` as bytes, with the same refusals as [`read_text`] and a limit of `cap`
/// bytes (`agx serve` reads file-backed resources this way).
pub fn read_bytes(dir: &Path, rel: &str, cap: u64) -> Result<Vec<u8>, ReadProblem> {
    let mut path = dir.to_path_buf();
    let mut walked = String::new();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        path.push(part);
        if !walked.is_empty() {
            walked.push('/');
        }
        walked.push_str(part);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(ReadProblem::Link { link: walked });
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ReadProblem::NotFound);
            }
            Err(e) => return Err(ReadProblem::Io(e)),
        }
    }
    read_opened(open_non_blocking(&path, Links::Refuse), cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_inside_the_package() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("agx")).unwrap();
        std::fs::write(dir.path().join("agx/a.toml"), "x = 1\n").unwrap();
        assert_eq!(read_text(dir.path(), "agx/a.toml").unwrap(), "x = 1\n");
        assert!(matches!(
            read_text(dir.path(), "agx/b.toml"),
            Err(ReadProblem::NotFound)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_link_to_a_file_or_on_the_path() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("agx.toml"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("agx")).unwrap();
        match read_text(dir.path(), "agx.toml") {
            Err(ReadProblem::Link { link }) => assert_eq!(link, "agx.toml"),
            other => panic!("{other:?}"),
        }
        match read_text(dir.path(), "agx/secret") {
            Err(ReadProblem::Link { link }) => assert_eq!(link, "agx"),
            other => panic!("{other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("agx.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(matches!(
            read_text(dir.path(), "agx.toml"),
            Err(ReadProblem::NotRegular { is_dir: false })
        ));
    }

    #[test]
    fn refuses_a_file_over_the_cap() {
        use std::fs::File;
        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("big.md")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        assert!(matches!(
            read_text(dir.path(), "big.md"),
            Err(ReadProblem::TooLarge { .. })
        ));
    }
}
