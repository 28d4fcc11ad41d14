//! Safe unpacking: only regular files and folders under one top folder, nothing that could
//! write outside the destination, and a cap on how far an archive may expand.

use std::cell::Cell;
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::path::Path;
use std::rc::Rc;

use flate2::read::GzDecoder;

use super::{ArchiveError, UnsafeEntry};
use agx_core::io_context::at;

/// The smallest expansion cap: no archive is refused for expanding to less than this.
pub const MIN_EXPANSION_CAP: u64 = 512 * 1024 * 1024;
/// An archive may expand to this many times its compressed size (when that exceeds the
/// minimum cap).
const EXPANSION_RATIO: u64 = 20;

/// How many bytes an archive of `compressed_size` bytes may expand to:
/// max(512 MiB, 20 × compressed size).
pub fn expansion_cap(compressed_size: u64) -> u64 {
    MIN_EXPANSION_CAP.max(compressed_size.saturating_mul(EXPANSION_RATIO))
}

/// Unpack a verified `.tar.gz` into `dest` (which must not exist yet), stripping the one top
/// folder, rejecting anything unsafe. The expansion cap comes from the file's size. On any
/// error, whatever was written is removed.
pub fn unpack(archive: &Path, dest: &Path) -> Result<(), ArchiveError> {
    unpack_file(archive, dest, false)
}

/// Unpack a verified `.tar.gz` whose files sit at its root (no top folder to strip: the
/// layer of a ToolHive skill artifact) into `dest`, with the same refusals and cap as
/// [`unpack`]. On any error, whatever was written is removed.
pub fn unpack_flat(archive: &Path, dest: &Path) -> Result<(), ArchiveError> {
    unpack_file(archive, dest, true)
}

/// [`unpack`] (`flat`: [`unpack_flat`]) of the file `archive`, capped by its size.
fn unpack_file(archive: &Path, dest: &Path, flat: bool) -> Result<(), ArchiveError> {
    let file = File::open(archive).map_err(at("open the archive", archive))?;
    let size = file
        .metadata()
        .map_err(at("read the archive", archive))?
        .len();
    let label = archive.display().to_string();
    into_new_dir(dest, |dest| {
        let mut extraction = Extraction::new(&label, expansion_cap(size), dest);
        extraction.flat = flat;
        extraction.run(BufReader::new(file))
    })
}

/// Unpack a `.tar.gz` stream into `dest` (which must not exist yet). `label` names the archive
/// in errors (a path or URL); `cap` bounds the uncompressed size (see [`expansion_cap`]).
/// On any error, whatever was written is removed.
pub fn unpack_reader<R: Read>(
    reader: R,
    label: &str,
    cap: u64,
    dest: &Path,
) -> Result<(), ArchiveError> {
    into_new_dir(dest, |dest| Extraction::new(label, cap, dest).run(reader))
}

/// Create `dest` (which must not exist yet) and fill it with `fill`; on any error remove it
/// and the folders above it that this call created.
pub(super) fn into_new_dir(
    dest: &Path,
    fill: impl FnOnce(&Path) -> Result<(), ArchiveError>,
) -> Result<(), ArchiveError> {
    if dest.exists() {
        return Err(ArchiveError::DestinationExists {
            path: dest.to_path_buf(),
        });
    }
    // Folders above `dest` that this call creates, so that a failure removes them too.
    let created_parents: Vec<&Path> = dest
        .ancestors()
        .skip(1)
        .take_while(|p| !p.as_os_str().is_empty() && !p.exists())
        .collect();
    if let Some(parent) = dest.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(at("create the folder", parent))?;
    }
    let result = match fs::create_dir(dest) {
        Ok(()) => fill(dest),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            return Err(ArchiveError::DestinationExists {
                path: dest.to_path_buf(),
            });
        }
        Err(e) => Err(at("create the folder", dest)(e).into()),
    };
    if result.is_err() {
        // Best effort: the error being returned matters more than a failed cleanup.
        let _ = fs::remove_dir_all(dest);
        for parent in created_parents {
            // Only while empty: another process may have started using it meanwhile.
            if fs::remove_dir(parent).is_err() {
                break;
            }
        }
    }
    result
}

/// The largest `agx.toml` that [`read_manifest`] reads.
pub const MAX_MANIFEST_SIZE: u64 = 1024 * 1024;

/// Read the top folder's `agx.toml` out of a `.tar.gz` without unpacking anything (to learn a
/// package's name and version before staging it). Every entry before it gets the same checks
/// as in [`unpack`].
pub fn read_manifest(archive: &Path) -> Result<String, ArchiveError> {
    let file = File::open(archive).map_err(at("open the archive", archive))?;
    let size = file
        .metadata()
        .map_err(at("read the archive", archive))?
        .len();
    let label = archive.display().to_string();
    // Only checks entries; nothing is written, so there is no destination.
    let mut scan = Extraction::new(&label, expansion_cap(size), Path::new(""));
    let mut tar = scan.open(BufReader::new(file));
    let entries = tar.entries().map_err(|e| scan.read_error(e))?;
    for entry in entries {
        let entry = entry.map_err(|e| scan.read_error(e))?;
        if entry.header().entry_type() == tar::EntryType::XGlobalHeader {
            continue;
        }
        let (rel, kind) = scan.check(&entry).map_err(|problem| scan.refuse(problem))?;
        if rel != "agx.toml" || !matches!(kind, Kind::File { .. }) {
            continue;
        }
        if entry.size() > MAX_MANIFEST_SIZE {
            return Err(ArchiveError::ManifestTooLarge {
                archive: label.clone(),
                limit: MAX_MANIFEST_SIZE,
            });
        }
        let mut text = String::new();
        entry
            .take(MAX_MANIFEST_SIZE)
            .read_to_string(&mut text)
            .map_err(|e| scan.read_error(e))?;
        return Ok(text);
    }
    Err(ArchiveError::NoManifest { archive: label })
}

struct Extraction<'a> {
    label: &'a str,
    cap: u64,
    dest: &'a Path,
    /// The archive's top folder, once the first entry has named it.
    top: Option<String>,
    /// Paths below the top folder seen so far ("" is the top folder itself).
    seen: HashSet<String>,
    /// Sum of the sizes entries declare.
    declared: u64,
    /// Set by `CappedReader` when the uncompressed stream passes the cap.
    stream_exceeded: Rc<Cell<bool>>,
    /// Entries sit at the root: nothing is stripped.
    flat: bool,
}

/// What an accepted entry becomes.
enum Kind {
    File { executable: bool },
    Dir,
}

impl<'a> Extraction<'a> {
    fn new(label: &'a str, cap: u64, dest: &'a Path) -> Self {
        Extraction {
            label,
            cap,
            dest,
            top: None,
            seen: HashSet::new(),
            declared: 0,
            stream_exceeded: Rc::new(Cell::new(false)),
            flat: false,
        }
    }

    /// The tar stream inside the gzip stream, with the expansion cap applied.
    fn open<R: Read>(&self, reader: R) -> tar::Archive<CappedReader<GzDecoder<R>>> {
        tar::Archive::new(CappedReader {
            inner: GzDecoder::new(reader),
            remaining: self.cap,
            exceeded: self.stream_exceeded.clone(),
        })
    }

    fn run<R: Read>(mut self, reader: R) -> Result<(), ArchiveError> {
        let mut archive = self.open(reader);
        let entries = archive.entries().map_err(|e| self.read_error(e))?;
        for entry in entries {
            let mut entry = entry.map_err(|e| self.read_error(e))?;
            if entry.header().entry_type() == tar::EntryType::XGlobalHeader {
                continue; // pax global metadata (e.g. from `git archive`), not a file
            }
            let (rel, kind) = self.check(&entry).map_err(|problem| self.refuse(problem))?;
            let target = self.dest.join(&rel);
            match kind {
                Kind::Dir => {
                    fs::create_dir_all(&target).map_err(at("create the folder", &target))?
                }
                Kind::File { executable } => {
                    write_file(&mut entry, &target, executable, |e| self.read_error(e))?
                }
            }
        }
        if self.top.is_none() {
            return Err(self.refuse(UnsafeEntry::Empty));
        }
        // Read to the end of the gzip stream so that its checksum is verified and trailing
        // data counts against the cap.
        let mut rest = archive.into_inner();
        io::copy(&mut rest, &mut io::sink()).map_err(|e| self.read_error(e))?;
        Ok(())
    }

    /// Decide whether an entry is acceptable; returns its path below the top folder.
    fn check<R: Read>(&mut self, entry: &tar::Entry<R>) -> Result<(String, Kind), UnsafeEntry> {
        let raw = entry.path_bytes();
        let Ok(name) = std::str::from_utf8(&raw) else {
            return Err(UnsafeEntry::NonUtf8Name {
                entry: String::from_utf8_lossy(&raw).into_owned(),
            });
        };
        let entry_name = name.to_string();
        check_path_syntax(name)?;
        let kind = entry_kind(entry, &entry_name)?;

        let components: Vec<&str> = name
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        if self.flat {
            // `./` itself, as `tar -C DIR .` writes it.
            if components.is_empty() && matches!(kind, Kind::Dir) {
                return Ok((String::new(), kind));
            }
            self.top.get_or_insert_with(String::new);
            return self.accept(entry, entry_name, components.join("/"), kind);
        }
        let Some((first, below)) = components.split_first() else {
            return Err(UnsafeEntry::NoTopFolder { entry: entry_name });
        };
        if below.is_empty() && matches!(kind, Kind::File { .. }) {
            return Err(match &self.top {
                Some(top) => UnsafeEntry::OutsideTopFolder {
                    entry: entry_name,
                    top: top.clone(),
                },
                None => UnsafeEntry::NoTopFolder { entry: entry_name },
            });
        }
        match &self.top {
            None => self.top = Some(first.to_string()),
            Some(top) if top != first => {
                return Err(UnsafeEntry::MultipleTopFolders {
                    first: top.clone(),
                    second: first.to_string(),
                });
            }
            Some(_) => {}
        }

        self.accept(entry, entry_name, below.join("/"), kind)
    }

    /// An entry at `rel` (below the top folder), unless it repeats one or passes the cap.
    fn accept<R: Read>(
        &mut self,
        entry: &tar::Entry<R>,
        entry_name: String,
        rel: String,
        kind: Kind,
    ) -> Result<(String, Kind), UnsafeEntry> {
        if rel.is_empty() && matches!(kind, Kind::File { .. }) {
            return Err(UnsafeEntry::NoTopFolder { entry: entry_name });
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

    /// A read failure is either the cap being hit or a damaged archive.
    fn read_error(&self, source: io::Error) -> ArchiveError {
        if self.stream_exceeded.get() {
            self.refuse(UnsafeEntry::StreamTooLarge { cap: self.cap })
        } else {
            ArchiveError::Corrupt {
                archive: self.label.to_string(),
                source,
            }
        }
    }
}

/// Write one file of an archive (created new, never over an existing one), with the exec
/// bits the archive gives it; `read_error` turns a failed read into the archive's error.
pub(super) fn write_file<R: Read>(
    entry: &mut R,
    target: &Path,
    executable: bool,
    read_error: impl Fn(io::Error) -> ArchiveError,
) -> Result<(), ArchiveError> {
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(at("create the folder", parent))?;
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if executable { 0o755 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = executable;
    let mut file = options.open(target).map_err(at("create", target))?;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = entry.read(&mut buf).map_err(&read_error)?;
        if n == 0 {
            break;
        }
        file.write_all(&buf[..n]).map_err(at("write", target))?;
    }
    Ok(())
}

/// Absolute paths and `..` segments, judged on the raw name so that no platform's path
/// parsing can hide them (`\` counts as a separator too, as it does on Windows).
pub fn check_path_syntax(name: &str) -> Result<(), UnsafeEntry> {
    let has_drive =
        name.len() >= 2 && name.as_bytes()[1] == b':' && name.as_bytes()[0].is_ascii_alphabetic();
    if name.starts_with('/') || name.starts_with('\\') || has_drive {
        return Err(UnsafeEntry::AbsolutePath {
            entry: name.to_string(),
        });
    }
    if name.split(['/', '\\']).any(|c| c == "..") {
        return Err(UnsafeEntry::ParentDir {
            entry: name.to_string(),
        });
    }
    Ok(())
}

fn entry_kind<R: Read>(entry: &tar::Entry<R>, name: &str) -> Result<Kind, UnsafeEntry> {
    use tar::EntryType;
    let link_target = || {
        entry
            .link_name_bytes()
            .map(|t| String::from_utf8_lossy(&t).into_owned())
            .unwrap_or_default()
    };
    let special = |kind| UnsafeEntry::SpecialFile {
        entry: name.to_string(),
        kind,
    };
    match entry.header().entry_type() {
        EntryType::Regular | EntryType::Continuous => Ok(Kind::File {
            executable: entry.header().mode().is_ok_and(|m| m & 0o111 != 0),
        }),
        EntryType::Directory => Ok(Kind::Dir),
        EntryType::Symlink => Err(UnsafeEntry::Symlink {
            entry: name.to_string(),
            target: link_target(),
        }),
        EntryType::Link => Err(UnsafeEntry::Hardlink {
            entry: name.to_string(),
            target: link_target(),
        }),
        EntryType::Char => Err(special("character device")),
        EntryType::Block => Err(special("block device")),
        EntryType::Fifo => Err(special("fifo")),
        other => Err(UnsafeEntry::UnsupportedType {
            entry: name.to_string(),
            kind: format!("{other:?}"),
        }),
    }
}

/// Fails once more than `remaining` bytes would be read, and records that it did so.
pub(super) struct CappedReader<R> {
    pub(super) inner: R,
    pub(super) remaining: u64,
    pub(super) exceeded: Rc<Cell<bool>>,
}

impl<R: Read> Read for CappedReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.remaining == 0 {
            // At the cap: fine if the stream ends here, refused if there is more.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => {
                    self.exceeded.set(true);
                    Err(io::Error::other("the archive expands past the cap"))
                }
            };
        }
        let max = buf
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..max])?;
        self.remaining -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_syntax_catches_every_spelling_of_absolute_and_parent_paths() {
        for absolute in ["/etc/passwd", "\\windows\\system32", "C:/x", "c:\\x"] {
            assert!(
                matches!(
                    check_path_syntax(absolute),
                    Err(UnsafeEntry::AbsolutePath { .. })
                ),
                "{absolute}"
            );
        }
        for parent in ["..", "../x", "pkg/../../x", "pkg\\..\\x", "pkg/a/.."] {
            assert!(
                matches!(
                    check_path_syntax(parent),
                    Err(UnsafeEntry::ParentDir { .. })
                ),
                "{parent}"
            );
        }
        for fine in [
            "pkg/a.txt",
            "pkg/..a/b",
            "pkg/a../b",
            "./pkg/x",
            "pkg/.hidden",
        ] {
            assert!(check_path_syntax(fine).is_ok(), "{fine}");
        }
    }

    #[test]
    fn the_capped_reader_allows_exactly_the_cap() {
        let exceeded = Rc::new(Cell::new(false));
        let mut at_cap = CappedReader {
            inner: &[1u8; 10][..],
            remaining: 10,
            exceeded: exceeded.clone(),
        };
        let mut out = Vec::new();
        at_cap.read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), 10);
        assert!(!exceeded.get());

        let mut over = CappedReader {
            inner: &[1u8; 11][..],
            remaining: 10,
            exceeded: exceeded.clone(),
        };
        assert!(over.read_to_end(&mut Vec::new()).is_err());
        assert!(exceeded.get());
    }
}
