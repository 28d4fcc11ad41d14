//! The one bounded reader for files agx did not write itself: package files (see
//! `manifest::package_file`), the MCP clients' config files, agx.toml and the settings
//! files. Only a regular file is read, checked on the opened handle (no racy look first),
//! opened without blocking so that a FIFO cannot hang the open, and at most a cap of bytes:
//! a link to `/dev/zero` never ends and a FIFO blocks its reader forever, and a cloned
//! repository can commit either (limits in docs/security.md).

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadProblem {
    NotFound,
    /// `link` (relative to the package folder, `/`-separated) is a symbolic link: the file
    /// itself or a folder on its path (only readers that refuse links report it).
    Link {
        link: String,
    },
    /// A folder, FIFO, socket or device.
    NotRegular {
        is_dir: bool,
    },
    TooLarge {
        bytes: u64,
        /// The limit it went over.
        cap: u64,
    },
    NotUtf8,
    Io(io::Error),
}

impl ReadProblem {
    /// What is wrong, completing "`<file>` …".
    pub fn describe(&self) -> String {
        match self {
            ReadProblem::NotFound => "does not exist".into(),
            ReadProblem::Link { link } => format!("is reached through the symbolic link `{link}`"),
            ReadProblem::NotRegular { is_dir: true } => "is a folder, not a file".into(),
            ReadProblem::NotRegular { is_dir: false } => {
                "is not a regular file (a FIFO, socket or device)".into()
            }
            ReadProblem::TooLarge { bytes, cap } => format!(
                "is {} bytes; such files are read up to {} ({cap} bytes)",
                bytes,
                human_size(*cap)
            ),
            ReadProblem::NotUtf8 => "is not UTF-8 text".into(),
            ReadProblem::Io(e) => format!("cannot be read: {e}"),
        }
    }

    /// As an I/O error for callers that report those: a missing file stays `NotFound`, an
    /// I/O error stays itself, and a refusal becomes `InvalidData` saying what is wrong.
    pub fn into_io(self) -> io::Error {
        match self {
            ReadProblem::NotFound => io::ErrorKind::NotFound.into(),
            ReadProblem::Io(e) => e,
            other => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("it {}", other.describe()),
            ),
        }
    }
}

/// Read `path` as text, following links, when it ends at a regular file of at most `cap`
/// bytes.
pub fn read_text(path: &Path, cap: u64) -> Result<String, ReadProblem> {
    String::from_utf8(read(path, cap)?).map_err(|_| ReadProblem::NotUtf8)
}

/// Read `path`, following links, when it ends at a regular file of at most `cap` bytes.
pub fn read(path: &Path, cap: u64) -> Result<Vec<u8>, ReadProblem> {
    read_opened(open_non_blocking(path, Links::Follow), cap)
}

/// Whether the last part of a path may be a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Follow,
    Refuse,
}

/// An opened file with its metadata, when it is a regular file of at most `cap` bytes (the
/// type checked on the handle).
fn regular_within(
    opened: io::Result<File>,
    cap: u64,
) -> Result<(File, std::fs::Metadata), ReadProblem> {
    let file = opened.map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => ReadProblem::NotFound,
        _ => ReadProblem::Io(e),
    })?;
    let meta = file.metadata().map_err(ReadProblem::Io)?;
    if !meta.is_file() {
        return Err(ReadProblem::NotRegular {
            is_dir: meta.is_dir(),
        });
    }
    if meta.len() > cap {
        return Err(ReadProblem::TooLarge {
            bytes: meta.len(),
            cap,
        });
    }
    Ok((file, meta))
}

/// Read an opened file when it is regular and at most `cap` bytes; the type is checked on the
/// handle, so a file swapped after any earlier look is caught too.
pub fn read_opened(opened: io::Result<File>, cap: u64) -> Result<Vec<u8>, ReadProblem> {
    let (file, meta) = regular_within(opened, cap)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while read still stops at the cap.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadProblem::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadProblem::TooLarge {
            bytes: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// Copy an opened file into the new file `to` when it is regular and at most `cap` bytes,
/// streaming (plugin folders can hold large files); returns the bytes copied. The type is
/// checked on the handle, as [`read_opened`] does, and a partial copy is removed.
pub fn copy_opened(opened: io::Result<File>, to: &Path, cap: u64) -> Result<u64, ReadProblem> {
    let (file, _) = regular_within(opened, cap)?;
    let mut out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)
        .map_err(ReadProblem::Io)?;
    // A file that grows while copied still stops at the cap.
    let refused = match io::copy(&mut file.take(cap + 1), &mut out) {
        Ok(bytes) if bytes > cap => ReadProblem::TooLarge { bytes, cap },
        Ok(bytes) => return Ok(bytes),
        Err(e) => ReadProblem::Io(e),
    };
    drop(out);
    let _ = std::fs::remove_file(to);
    Err(refused)
}

/// Open for reading without blocking on a FIFO (its type is checked right after; the flag
/// does not change reads of a regular file), following a final link or refusing it.
#[cfg(unix)]
pub fn open_non_blocking(path: &Path, links: Links) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let no_follow = match links {
        Links::Follow => 0,
        Links::Refuse => libc::O_NOFOLLOW,
    };
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | no_follow)
        .open(path)
}

/// Windows has no FIFOs in the file system; links are refused by the callers' walk.
#[cfg(not(unix))]
pub fn open_non_blocking(path: &Path, _links: Links) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

/// `1.5 MiB`-style sizes for messages.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_through_a_link_and_refuses_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.json");
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(read_text(&file, 16).unwrap(), "{}");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert_eq!(read_text(&link, 16).unwrap(), "{}");
        }
        assert!(matches!(
            read(dir.path(), 16),
            Err(ReadProblem::NotRegular { is_dir: true })
        ));
        assert!(matches!(
            read(&dir.path().join("none"), 16),
            Err(ReadProblem::NotFound)
        ));
        assert_eq!(
            read(&dir.path().join("none"), 16)
                .unwrap_err()
                .into_io()
                .kind(),
            io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_device_or_a_fifo_is_refused_without_reading_or_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(
            read(&zero, 1024),
            Err(ReadProblem::NotRegular { is_dir: false })
        ));
        let fifo = dir.path().join("fifo.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let refused = read(&fifo, 1024).unwrap_err();
        assert!(matches!(refused, ReadProblem::NotRegular { is_dir: false }));
        let io = refused.into_io();
        assert_eq!(io.kind(), io::ErrorKind::InvalidData);
        assert!(io.to_string().contains("FIFO"), "{io}");
    }

    #[test]
    fn a_copy_is_of_a_regular_file_within_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("a.bin");
        std::fs::write(&from, "0123456789").unwrap();
        let open = |p: &Path| open_non_blocking(p, Links::Refuse);
        let to = dir.path().join("copy.bin");
        assert_eq!(copy_opened(open(&from), &to, 10).unwrap(), 10);
        assert_eq!(std::fs::read(&to).unwrap(), b"0123456789");
        let over = dir.path().join("over.bin");
        assert!(matches!(
            copy_opened(open(&from), &over, 9),
            Err(ReadProblem::TooLarge { bytes: 10, cap: 9 })
        ));
        assert!(!over.exists(), "nothing is left of a refused copy");
        assert!(matches!(
            copy_opened(open(dir.path()), &over, 9),
            Err(ReadProblem::NotRegular { is_dir: true })
        ));
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap();
            assert!(made.success());
            assert!(matches!(
                copy_opened(open(&fifo), &over, 9),
                Err(ReadProblem::NotRegular { is_dir: false })
            ));
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&from, &link).unwrap();
            assert!(copy_opened(open(&link), &over, 10).is_err());
        }
    }

    #[test]
    fn a_file_over_the_cap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        File::create(&path).unwrap().set_len(17).unwrap();
        assert!(matches!(
            read(&path, 16),
            Err(ReadProblem::TooLarge { bytes: 17, cap: 16 })
        ));
        assert_eq!(read(&path, 17).unwrap().len(), 17);
    }
}
