//! Safe unpacking of zip files (MCPB bundles) with the rules tar archives follow: regular
//! files and folders only, nothing outside the destination, no name twice, and the same
//! expansion cap, counted on the bytes actually inflated rather than on what entries claim.
//! Unlike a package archive, a zip has no top folder: its entries land in `dest` as named.

use std::cell::Cell;
use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek};
use std::path::Path;
use std::rc::Rc;

use super::unpack::{CappedReader, check_path_syntax, into_new_dir, write_file};
use super::{ArchiveError, UnsafeEntry, expansion_cap};
use agx_core::io_context::at;

/// The file type bits of a unix mode, as zip's "external attributes" carry them.
const S_IFMT: u32 = 0o170000;
const S_IFREG: u32 = 0o100000;
const S_IFDIR: u32 = 0o040000;
const S_IFLNK: u32 = 0o120000;

/// Unpack the zip file `archive` into `dest` (which must not exist yet), refusing anything
/// unsafe. On any error, whatever was written is removed.
pub fn unpack_zip(archive: &Path, dest: &Path) -> Result<(), ArchiveError> {
    let file = File::open(archive).map_err(at("open the archive", archive))?;
    let size = file
        .metadata()
        .map_err(at("read the archive", archive))?
        .len();
    let label = archive.display().to_string();
    into_new_dir(dest, |dest| {
        ZipExtraction::new(&label, expansion_cap(size)).run(BufReader::new(file), dest)
    })
}

/// Read one file at the top of a zip (a bundle's `manifest.json`), at most `limit` bytes,
/// after checking every entry as [`unpack_zip`] would. `None` when there is no such file.
pub fn read_zip_file(
    archive: &Path,
    wanted: &str,
    limit: u64,
) -> Result<Option<Vec<u8>>, ArchiveError> {
    let file = File::open(archive).map_err(at("open the archive", archive))?;
    let size = file
        .metadata()
        .map_err(at("read the archive", archive))?
        .len();
    let label = archive.display().to_string();
    let mut scan = ZipExtraction::new(&label, expansion_cap(size));
    let mut zip = scan.open(BufReader::new(file))?;
    let mut found = None;
    for index in 0..zip.len() {
        let entry = zip.by_index(index).map_err(|e| scan.zip_error(e))?;
        let (rel, kind) = scan.check(&entry).map_err(|p| scan.refuse(p))?;
        if rel == wanted && matches!(kind, Kind::File { .. }) {
            if entry.size() > limit {
                return Err(ArchiveError::FileTooLarge {
                    archive: label.clone(),
                    file: wanted.to_string(),
                    limit,
                });
            }
            let mut bytes = Vec::new();
            entry
                .take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| scan.read_error(e))?;
            found = Some(bytes);
        }
    }
    Ok(found)
}

enum Kind {
    File { executable: bool },
    Dir,
}

struct ZipExtraction<'a> {
    label: &'a str,
    cap: u64,
    /// Entry paths seen so far, without a trailing `/`.
    seen: HashSet<String>,
    /// Sum of the sizes entries declare.
    declared: u64,
    /// Bytes left under the cap for what is really inflated (shared by every entry).
    remaining: Rc<Cell<u64>>,
    exceeded: Rc<Cell<bool>>,
}

impl<'a> ZipExtraction<'a> {
    fn new(label: &'a str, cap: u64) -> Self {
        ZipExtraction {
            label,
            cap,
            seen: HashSet::new(),
            declared: 0,
            remaining: Rc::new(Cell::new(cap)),
            exceeded: Rc::new(Cell::new(false)),
        }
    }

    /// Open the archive, refusing one whose central directory lists a name twice: the zip
    /// reader keeps only one entry per name, so the check cannot wait for [`Self::check`].
    fn open<R: Read + Seek>(&self, reader: R) -> Result<zip::ZipArchive<R>, ArchiveError> {
        let zip = zip::ZipArchive::new(reader).map_err(|e| self.zip_error(e))?;
        if !zip.has_duplicate_names() {
            return Ok(zip);
        }
        let start = zip.central_directory_start();
        let entry = repeated_name(zip.into_inner(), start)
            .ok()
            .flatten()
            .unwrap_or_else(|| "(a name its central directory lists twice)".into());
        Err(self.refuse(UnsafeEntry::Duplicate { entry }))
    }

    fn run<R: Read + Seek>(mut self, reader: R, dest: &Path) -> Result<(), ArchiveError> {
        let mut zip = self.open(reader)?;
        if zip.is_empty() {
            return Err(self.refuse(UnsafeEntry::Empty));
        }
        for index in 0..zip.len() {
            let entry = zip.by_index(index).map_err(|e| self.zip_error(e))?;
            let (rel, kind) = self.check(&entry).map_err(|p| self.refuse(p))?;
            let target = dest.join(&rel);
            match kind {
                Kind::Dir => {
                    fs::create_dir_all(&target).map_err(at("create the folder", &target))?
                }
                Kind::File { executable } => {
                    let mut capped = CappedReader {
                        inner: entry,
                        remaining: self.remaining.get(),
                        exceeded: self.exceeded.clone(),
                    };
                    write_file(&mut capped, &target, executable, |e| self.read_error(e))?;
                    self.remaining.set(capped.remaining);
                }
            }
        }
        Ok(())
    }

    /// Decide whether an entry is acceptable; returns its path in the destination.
    fn check<R: Read>(
        &mut self,
        entry: &zip::read::ZipFile<'_, R>,
    ) -> Result<(String, Kind), UnsafeEntry> {
        let raw = entry.name_raw();
        let Ok(name) = std::str::from_utf8(raw) else {
            return Err(UnsafeEntry::NonUtf8Name {
                entry: String::from_utf8_lossy(raw).into_owned(),
            });
        };
        check_path_syntax(name)?;
        let entry_name = name.to_string();
        let kind = entry_kind(entry, name)?;
        let rel = name
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect::<Vec<_>>()
            .join("/");
        if rel.is_empty() {
            return Err(UnsafeEntry::UnsupportedType {
                entry: entry_name,
                kind: "an entry without a name".into(),
            });
        }
        if !self.seen.insert(rel.clone()) {
            return Err(UnsafeEntry::Duplicate { entry: entry_name });
        }
        self.declared = self.declared.saturating_add(entry.size());
        if self.declared > self.cap {
            return Err(UnsafeEntry::TooLarge {
                entry: entry_name,
                cap: self.cap,
            });
        }
        Ok((rel, kind))
    }

    fn refuse(&self, problem: UnsafeEntry) -> ArchiveError {
        ArchiveError::Unsafe {
            archive: self.label.to_string(),
            problem,
        }
    }

    fn read_error(&self, source: io::Error) -> ArchiveError {
        if self.exceeded.get() {
            self.refuse(UnsafeEntry::StreamTooLarge { cap: self.cap })
        } else {
            ArchiveError::Corrupt {
                archive: self.label.to_string(),
                source,
            }
        }
    }

    fn zip_error(&self, error: zip::result::ZipError) -> ArchiveError {
        match error {
            zip::result::ZipError::Io(e) => self.read_error(e),
            other => ArchiveError::Corrupt {
                archive: self.label.to_string(),
                source: io::Error::other(other.to_string()),
            },
        }
    }
}

/// The first name the central directory at `start` lists a second time.
fn repeated_name<R: Read + Seek>(mut reader: R, start: u64) -> io::Result<Option<String>> {
    /// A central directory record: its signature, then fixed fields up to the name.
    const SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x01, 0x02];
    const FIXED: usize = 46;
    reader.seek(io::SeekFrom::Start(start))?;
    let mut names = HashSet::new();
    let mut header = [0u8; FIXED];
    loop {
        if reader.read_exact(&mut header).is_err() || header[..4] != SIGNATURE {
            return Ok(None);
        }
        let field = |at: usize| u16::from_le_bytes([header[at], header[at + 1]]);
        let (name_len, extra_len, comment_len) = (field(28), field(30), field(32));
        let mut name = vec![0u8; usize::from(name_len)];
        reader.read_exact(&mut name)?;
        let name = String::from_utf8_lossy(&name).into_owned();
        if !names.insert(name.clone()) {
            return Ok(Some(name));
        }
        reader.seek(io::SeekFrom::Current(
            i64::from(extra_len) + i64::from(comment_len),
        ))?;
    }
}

/// A zip entry is a folder (name ending in `/`), or a file; its unix mode, when the zip was
/// made on unix, says which kind of file and whether it is executable.
fn entry_kind<R: Read>(entry: &zip::read::ZipFile<'_, R>, name: &str) -> Result<Kind, UnsafeEntry> {
    let mode = entry.unix_mode().unwrap_or(0);
    let file_type = mode & S_IFMT;
    if file_type == S_IFLNK || entry.is_symlink() {
        return Err(UnsafeEntry::Symlink {
            entry: name.to_string(),
            target: String::from("(a link target stored in the zip)"),
        });
    }
    if entry.is_dir() {
        return Ok(Kind::Dir);
    }
    match file_type {
        0 | S_IFREG => Ok(Kind::File {
            executable: mode & 0o111 != 0,
        }),
        S_IFDIR => Ok(Kind::Dir),
        0o020000 => Err(UnsafeEntry::SpecialFile {
            entry: name.to_string(),
            kind: "character device",
        }),
        0o060000 => Err(UnsafeEntry::SpecialFile {
            entry: name.to_string(),
            kind: "block device",
        }),
        0o010000 => Err(UnsafeEntry::SpecialFile {
            entry: name.to_string(),
            kind: "fifo",
        }),
        other => Err(UnsafeEntry::UnsupportedType {
            entry: name.to_string(),
            kind: format!("unix mode {other:o}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    /// A zip in `dir/name` built by `build`.
    fn zip_file(
        dir: &Path,
        build: impl FnOnce(&mut zip::ZipWriter<File>) -> zip::result::ZipResult<()>,
    ) -> std::path::PathBuf {
        let path = dir.join("test.zip");
        let mut writer = zip::ZipWriter::new(File::create(&path).unwrap());
        build(&mut writer).unwrap();
        writer.finish().unwrap();
        path
    }

    fn unpack_err(path: &Path, dest: &Path) -> String {
        let err = unpack_zip(path, dest).unwrap_err();
        assert!(!dest.exists(), "nothing is left behind");
        match err {
            ArchiveError::Unsafe { problem, .. } => problem.to_string(),
            other => other.to_string(),
        }
    }

    #[test]
    fn files_folders_and_exec_bits_are_unpacked() {
        let tmp = tempfile::tempdir().unwrap();
        let path = zip_file(tmp.path(), |w| {
            w.add_directory("server/", SimpleFileOptions::default())?;
            w.start_file(
                "server/run",
                SimpleFileOptions::default().unix_permissions(0o755),
            )?;
            w.write_all(b"#!/bin/sh\n")?;
            w.start_file("manifest.json", SimpleFileOptions::default())?;
            w.write_all(b"{}")?;
            Ok(())
        });
        let dest = tmp.path().join("out");
        unpack_zip(&path, &dest).unwrap();
        assert_eq!(fs::read(dest.join("manifest.json")).unwrap(), b"{}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dest.join("server/run"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o111, 0o111);
            let mode = fs::metadata(dest.join("manifest.json"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o111, 0);
        }
        assert_eq!(
            read_zip_file(&path, "manifest.json", 10)
                .unwrap()
                .as_deref(),
            Some(&b"{}"[..])
        );
        assert_eq!(read_zip_file(&path, "nope.json", 10).unwrap(), None);
    }

    #[test]
    fn zip_slip_absolute_paths_and_links_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("out");
        let slip = zip_file(tmp.path(), |w| {
            w.start_file("../evil.txt", SimpleFileOptions::default())?;
            Ok(w.write_all(b"x")?)
        });
        assert_eq!(
            unpack_err(&slip, &dest),
            "entry `../evil.txt` climbs out of its folder with `..`"
        );
        let absolute = zip_file(tmp.path(), |w| {
            w.start_file("/etc/evil", SimpleFileOptions::default())?;
            Ok(w.write_all(b"x")?)
        });
        assert_eq!(
            unpack_err(&absolute, &dest),
            "entry `/etc/evil` has an absolute path"
        );
        let link = zip_file(tmp.path(), |w| {
            w.add_symlink("link", "/etc/passwd", SimpleFileOptions::default())
        });
        assert!(unpack_err(&link, &dest).starts_with("entry `link` is a symbolic link"));
        assert!(!tmp.path().join("evil.txt").exists());
    }

    #[test]
    fn a_bomb_is_stopped_at_the_cap() {
        let tmp = tempfile::tempdir().unwrap();
        // Highly compressible data, declared honestly: the declared total trips the cap.
        let path = zip_file(tmp.path(), |w| {
            let options = SimpleFileOptions::default().large_file(true);
            let chunk = vec![0u8; 1024 * 1024];
            for i in 0..2 {
                w.start_file(format!("zeros{i}"), options)?;
                for _ in 0..300 {
                    w.write_all(&chunk)?;
                }
            }
            Ok(())
        });
        let message = unpack_err(&path, &tmp.path().join("out"));
        assert!(
            message.starts_with("the archive expands past the limit of 512 MiB"),
            "{message}"
        );
    }

    #[test]
    fn a_name_twice_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        // The writer refuses a repeated name, so write two names of one length and make
        // the second the first in the bytes (local header and central directory alike).
        let path = zip_file(tmp.path(), |w| {
            w.start_file("manifest.json", SimpleFileOptions::default())?;
            w.write_all(b"{\"a\": 1}")?;
            w.start_file("manifesX.json", SimpleFileOptions::default())?;
            Ok(w.write_all(b"{\"a\": 2}")?)
        });
        let bytes = fs::read(&path).unwrap();
        let patched: Vec<u8> = bytes
            .windows(13)
            .enumerate()
            .filter(|(_, w)| *w == b"manifesX.json")
            .map(|(i, _)| i)
            .fold(bytes.clone(), |mut out, i| {
                out[i..i + 13].copy_from_slice(b"manifest.json");
                out
            });
        fs::write(&path, patched).unwrap();
        assert_eq!(
            unpack_err(&path, &tmp.path().join("out")),
            "entry `manifest.json` appears more than once"
        );
        let err = read_zip_file(&path, "manifest.json", 100).unwrap_err();
        assert!(err.to_string().starts_with("refusing to unpack"), "{err}");
    }

    #[test]
    fn not_a_zip_is_corrupt() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("x.mcpb");
        fs::write(&path, b"not a zip").unwrap();
        let err = unpack_zip(&path, &tmp.path().join("out")).unwrap_err();
        assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
    }
}
