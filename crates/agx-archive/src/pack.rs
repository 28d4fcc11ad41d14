//! Deterministic packing: the same folder always gives the same bytes, whatever the file
//! system's order, timestamps, owners or umask.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::{Compression, GzBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use sha2::{Digest, Sha256};

use super::{ArchiveError, PackedArchive};
use agx_core::io_context::at;
use agx_core::name::PackageName;

/// The modification time of every entry: 1980-01-01T00:00:00Z (a common reproducible-build
/// epoch; 0 makes some tools warn).
pub const PACK_MTIME: u64 = 315_532_800;

/// The optional file of gitignore patterns that a package folder may hold.
const IGNORE_FILE: &str = ".agxignore";
/// Prefix of the temporary file an archive is written to before its rename.
const TEMP_PREFIX: &str = ".agx-pack-";

/// `<publisher>-<name>-<version>.tar.gz` (`<name>-<version>.tar.gz` without publisher).
pub fn archive_file_name(name: &PackageName, version: &semver::Version) -> String {
    format!("{}-{version}.tar.gz", name.file_stem())
}

/// The one top folder inside an archive: `<name>-<version>`.
pub fn top_folder_name(name: &PackageName, version: &semver::Version) -> String {
    format!("{}-{version}", name.name())
}

/// Pack a package folder given its name and version (the caller has validated it).
///
/// Writes to a temporary file in `out_dir` (created if missing) and renames it into place, so
/// a reader never sees a half-written archive.
pub fn pack_dir(
    dir: &Path,
    name: &PackageName,
    version: &semver::Version,
    out_dir: &Path,
) -> Result<PackedArchive, ArchiveError> {
    let file_name = archive_file_name(name, version);
    let (dir, out_dir, entries) = entries_to_pack(dir, out_dir, format!("{}-", name.file_stem()))?;
    if !entries.iter().any(|e| e.rel == "agx.toml") {
        return Err(ArchiveError::ManifestIgnored { dir });
    }
    let top = top_folder_name(name, version);
    let (archive, _) = persist_archive(&out_dir, &file_name, Some(&top), &entries)?;
    Ok(archive)
}

/// A folder packed with its files at the archive's root: no top folder and no folder
/// entries, as the one layer of a ToolHive skill artifact holds a skill
/// (`SKILL.md` at the root). The same walk and refusals as [`pack_dir`]; deterministic.
#[derive(Debug)]
pub struct FlatArchive {
    pub archive: PackedArchive,
    /// Lowercase hex sha256 of the uncompressed tar (an OCI image's `diff_id`).
    pub tar_sha256: String,
    /// Every file packed, `/`-separated, in archive order.
    pub files: Vec<String>,
}

/// Pack `dir` flat (see [`FlatArchive`]) into `out_dir/file_name`.
pub fn pack_flat(dir: &Path, out_dir: &Path, file_name: &str) -> Result<FlatArchive, ArchiveError> {
    let (_, out_dir, mut entries) = entries_to_pack(dir, out_dir, file_name.to_string())?;
    entries.retain(|e| matches!(e.kind, EntryKind::File { .. }));
    let files = entries.iter().map(|e| e.rel.clone()).collect();
    let (archive, tar_sha256) = persist_archive(&out_dir, file_name, None, &entries)?;
    Ok(FlatArchive {
        archive,
        tar_sha256,
        files,
    })
}

/// What to pack of `dir` into `out_dir` (created): the walk's entries in byte order of their
/// `/`-separated paths (a folder always precedes its contents), or the first entry refused.
/// Returns the canonical folders too. `own_archive_prefix`: see [`Walker`].
fn entries_to_pack(
    dir: &Path,
    out_dir: &Path,
    own_archive_prefix: String,
) -> Result<(PathBuf, PathBuf, Vec<Entry>), ArchiveError> {
    fs::create_dir_all(out_dir).map_err(at("create the folder", out_dir))?;
    let out_dir = fs::canonicalize(out_dir).map_err(at("open the folder", out_dir))?;
    let dir = fs::canonicalize(dir).map_err(at("open the package folder", dir))?;
    let walker = Walker {
        root: &dir,
        ignore: load_ignore_file(&dir)?,
        out_dir: Some(&out_dir),
        own_archive_prefix,
    };
    let mut entries = Vec::new();
    let mut refused = Vec::new();
    walker.walk(&dir, "", &mut entries, &mut refused)?;
    if let Some(first) = refused.into_iter().next() {
        return Err(first.into_error());
    }
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok((dir, out_dir, entries))
}

/// Write `entries` to a temporary file in `out_dir` and rename it to `file_name`, so a
/// reader never sees a half-written archive. Returns the archive and its tar's sha256.
fn persist_archive(
    out_dir: &Path,
    file_name: &str,
    top: Option<&str>,
    entries: &[Entry],
) -> Result<(PackedArchive, String), ArchiveError> {
    let temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(".tmp")
        .tempfile_in(out_dir)
        .map_err(at("create a temporary file in", out_dir))?;
    let written = write_archive(temp.as_file(), top, entries, out_dir)?;
    set_archive_permissions(temp.as_file(), temp.path())?;
    let path = out_dir.join(file_name);
    temp.persist(&path)
        .map_err(|e| at("write the archive", &path)(e.error))?;
    Ok((
        PackedArchive {
            path,
            sha256: written.sha256,
            size: written.size,
        },
        written.tar_sha256,
    ))
}

/// What `pack` would refuse in a package folder, every entry and not only the first, so
/// `agx validate` can report the same: links, special files and names that are not UTF-8
/// (in folder-walk order), or an `.agxignore` that does not parse or excludes agx.toml
/// (the error).
pub fn refused_entries(dir: &Path) -> Result<Vec<Refused>, ArchiveError> {
    let dir = fs::canonicalize(dir).map_err(at("open the package folder", dir))?;
    let walker = Walker {
        root: &dir,
        ignore: load_ignore_file(&dir)?,
        out_dir: None,
        own_archive_prefix: String::new(),
    };
    let mut entries = Vec::new();
    let mut refused = Vec::new();
    walker.walk(&dir, "", &mut entries, &mut refused)?;
    if refused.is_empty() && !entries.iter().any(|e| e.rel == "agx.toml") {
        return Err(ArchiveError::ManifestIgnored { dir });
    }
    Ok(refused)
}

/// An entry `pack` refuses.
#[derive(Debug)]
pub struct Refused {
    /// Path below the package folder with `/` separators (lossy for a non-UTF-8 name).
    pub rel: String,
    pub abs: PathBuf,
    pub why: RefusedKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusedKind {
    Link,
    Special,
    NonUtf8Name,
}

impl Refused {
    fn into_error(self) -> ArchiveError {
        let path = self.abs;
        match self.why {
            RefusedKind::Link => ArchiveError::SymlinkInPackage { path },
            RefusedKind::Special => ArchiveError::SpecialFileInPackage { path },
            RefusedKind::NonUtf8Name => ArchiveError::NonUtf8Path { path },
        }
    }
}

/// One file or folder to pack.
struct Entry {
    /// Path below the package folder with `/` separators.
    rel: String,
    abs: PathBuf,
    kind: EntryKind,
}

enum EntryKind {
    Dir,
    File { executable: bool },
}

struct Walker<'a> {
    root: &'a Path,
    ignore: Gitignore,
    /// Where the archive goes, when packing.
    out_dir: Option<&'a Path>,
    /// Archives of this package (any version) in the output folder are never packed.
    own_archive_prefix: String,
}

impl Walker<'_> {
    /// Collect what to pack into `out` and what pack refuses into `refused`.
    fn walk(
        &self,
        dir: &Path,
        rel_dir: &str,
        out: &mut Vec<Entry>,
        refused: &mut Vec<Refused>,
    ) -> Result<(), ArchiveError> {
        let listing = fs::read_dir(dir).map_err(at("read the folder", dir))?;
        for item in listing {
            let item = item.map_err(at("read the folder", dir))?;
            let abs = item.path();
            let file_name = item.file_name();
            let join = |name: &str| {
                if rel_dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{rel_dir}/{name}")
                }
            };
            let Some(file_name) = file_name.to_str() else {
                refused.push(Refused {
                    rel: join(&file_name.to_string_lossy()),
                    abs,
                    why: RefusedKind::NonUtf8Name,
                });
                continue;
            };
            let rel = join(file_name);
            let meta = fs::symlink_metadata(&abs).map_err(at("read", &abs))?;
            let file_type = meta.file_type();
            if self.excluded(&rel, file_name, dir, file_type.is_dir()) {
                continue;
            }
            if file_type.is_symlink() {
                refused.push(Refused {
                    rel,
                    abs,
                    why: RefusedKind::Link,
                });
            } else if file_type.is_dir() {
                out.push(Entry {
                    rel: rel.clone(),
                    abs: abs.clone(),
                    kind: EntryKind::Dir,
                });
                self.walk(&abs, &rel, out, refused)?;
            } else if file_type.is_file() {
                out.push(Entry {
                    rel,
                    abs,
                    kind: EntryKind::File {
                        executable: agx_core::fsutil::is_executable(&meta),
                    },
                });
            } else {
                refused.push(Refused {
                    rel,
                    abs,
                    why: RefusedKind::Special,
                });
            }
        }
        Ok(())
    }

    /// `.git` anywhere, `target/` at the root, `.agxignore` patterns, and this package's own
    /// archives or leftover temporary files when the output folder is inside the package.
    fn excluded(&self, rel: &str, file_name: &str, parent: &Path, is_dir: bool) -> bool {
        if file_name == ".git" || (is_dir && rel == "target") {
            return true;
        }
        if Some(parent) == self.out_dir
            && !is_dir
            && ((file_name.starts_with(&self.own_archive_prefix) && file_name.ends_with(".tar.gz"))
                || file_name.starts_with(TEMP_PREFIX))
        {
            return true;
        }
        self.ignore.matched(self.root.join(rel), is_dir).is_ignore()
    }
}

fn load_ignore_file(dir: &Path) -> Result<Gitignore, ArchiveError> {
    let path = dir.join(IGNORE_FILE);
    let mut builder = GitignoreBuilder::new(dir);
    if path.is_file()
        && let Some(source) = builder.add(&path)
    {
        return Err(ArchiveError::IgnoreFile { path, source });
    }
    builder
        .build()
        .map_err(|source| ArchiveError::IgnoreFile { path, source })
}

/// What [`write_archive`] wrote.
struct Written {
    sha256: String,
    size: u64,
    tar_sha256: String,
}

/// Stream the tar through gzip into `file`, hashing the tar and the compressed bytes on the
/// way. Under `top` (every path prefixed, folders as entries), or flat without one.
fn write_archive(
    file: &File,
    top: Option<&str>,
    entries: &[Entry],
    out_dir: &Path,
) -> Result<Written, ArchiveError> {
    let write_err = |e| at("write the archive in", out_dir)(e);
    let hashing = HashingWriter {
        inner: BufWriter::new(file),
        hasher: Sha256::new(),
        bytes: 0,
    };
    // A fixed gzip header: no file name, mtime 0, fixed OS byte.
    let gzip = GzBuilder::new()
        .mtime(0)
        .write(hashing, Compression::default());
    let mut tar = tar::Builder::new(HashingWriter {
        inner: gzip,
        hasher: Sha256::new(),
        bytes: 0,
    });

    if let Some(top) = top {
        tar.append_data(&mut dir_header(), top, io::empty())
            .map_err(write_err)?;
    }
    for entry in entries {
        let path = match top {
            Some(top) => format!("{top}/{}", entry.rel),
            None => entry.rel.clone(),
        };
        match entry.kind {
            EntryKind::Dir => tar
                .append_data(&mut dir_header(), &path, io::empty())
                .map_err(write_err)?,
            EntryKind::File { executable } => {
                let source = File::open(&entry.abs).map_err(at("read", &entry.abs))?;
                let size = source.metadata().map_err(at("read", &entry.abs))?.len();
                let mut header = base_header(tar::EntryType::Regular);
                header.set_mode(if executable { 0o755 } else { 0o644 });
                header.set_size(size);
                let reader = ExactReader {
                    inner: source.take(size),
                    remaining: size,
                };
                tar.append_data(&mut header, &path, reader)
                    .map_err(at("pack", &entry.abs))?;
            }
        }
    }
    let tar_hashing = tar.into_inner().map_err(write_err)?;
    let tar_sha256 = hex::encode(tar_hashing.hasher.finalize());
    let mut hashing = tar_hashing.inner.finish().map_err(write_err)?;
    hashing.inner.flush().map_err(write_err)?;
    file.sync_all().map_err(write_err)?;
    Ok(Written {
        sha256: hex::encode(hashing.hasher.finalize()),
        size: hashing.bytes,
        tar_sha256,
    })
}

fn base_header(kind: tar::EntryType) -> tar::Header {
    // A GNU header has empty owner names; uid and gid are set to 0 explicitly.
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_mtime(PACK_MTIME);
    header.set_uid(0);
    header.set_gid(0);
    header.set_size(0);
    header
}

fn dir_header() -> tar::Header {
    let mut header = base_header(tar::EntryType::Directory);
    header.set_mode(0o755);
    header
}

/// Archives are published files: readable by everyone (a temp file starts as 0600).
#[cfg(unix)]
fn set_archive_permissions(file: &File, path: &Path) -> Result<(), ArchiveError> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o644))
        .map_err(at("set permissions of", path))?;
    Ok(())
}

#[cfg(not(unix))]
fn set_archive_permissions(_file: &File, _path: &Path) -> Result<(), ArchiveError> {
    Ok(())
}

/// Reads exactly `remaining` bytes, failing if the file shrank while being packed (a tar
/// entry's size is written before its data).
struct ExactReader<R> {
    inner: R,
    remaining: u64,
}

impl<R: Read> Read for ExactReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && self.remaining > 0 && !buf.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file changed size while it was being packed",
            ));
        }
        self.remaining -= n as u64;
        Ok(n)
    }
}

/// Counts and hashes what passes through to `inner`.
struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir.join("references")).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: review\n---\nBody\n").unwrap();
        fs::write(dir.join("references/guide.md"), "Guide\n").unwrap();
    }

    #[test]
    fn a_flat_pack_has_files_at_the_root_is_deterministic_and_unpacks_flat() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("review");
        skill(&dir);
        let first = pack_flat(&dir, &temp.path().join("a"), "skill.tar.gz").unwrap();
        let second = pack_flat(&dir, &temp.path().join("b"), "skill.tar.gz").unwrap();
        assert_eq!(first.archive.sha256, second.archive.sha256);
        assert_eq!(first.files, ["SKILL.md", "references/guide.md"]);

        let mut tar = Vec::new();
        GzDecoder::new(File::open(&first.archive.path).unwrap())
            .read_to_end(&mut tar)
            .unwrap();
        assert_eq!(first.tar_sha256, hex::encode(Sha256::digest(&tar)));
        let names: Vec<String> = tar::Archive::new(&tar[..])
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["SKILL.md", "references/guide.md"]);

        let out = temp.path().join("out");
        crate::unpack_flat(&first.archive.path, &out).unwrap();
        assert_eq!(
            fs::read_to_string(out.join("references/guide.md")).unwrap(),
            "Guide\n"
        );
        // The stripping unpack refuses it: its files have no top folder.
        assert!(crate::unpack(&first.archive.path, &temp.path().join("strip")).is_err());
    }

    #[test]
    fn a_flat_unpack_takes_dot_slash_paths_and_refuses_escapes() {
        let temp = tempfile::tempdir().unwrap();
        let write = |name: &str, entries: &[(&str, bool)]| {
            let path = temp.path().join(name);
            let gz = GzBuilder::new().write(File::create(&path).unwrap(), Compression::fast());
            let mut tar = tar::Builder::new(gz);
            for (entry, dir) in entries {
                let mut header = tar::Header::new_gnu();
                header.set_entry_type(if *dir {
                    tar::EntryType::Directory
                } else {
                    tar::EntryType::Regular
                });
                header.set_size(if *dir { 0 } else { 2 });
                header.set_mode(0o644);
                let data: &[u8] = if *dir { b"" } else { b"hi" };
                // `append_data` refuses `..`; write the raw name as a hostile tool would.
                header.as_old_mut().name[..entry.len()].copy_from_slice(entry.as_bytes());
                header.set_cksum();
                tar.append(&header, data).unwrap();
            }
            tar.into_inner().unwrap().finish().unwrap();
            path
        };
        let dotted = write("dotted.tar.gz", &[("./", true), ("./SKILL.md", false)]);
        crate::unpack_flat(&dotted, &temp.path().join("d")).unwrap();
        assert!(temp.path().join("d/SKILL.md").is_file());
        let escape = write("escape.tar.gz", &[("../SKILL.md", false)]);
        assert!(crate::unpack_flat(&escape, &temp.path().join("e")).is_err());
        assert!(!temp.path().join("e").exists() && !temp.path().join("SKILL.md").exists());
        let empty = write("empty.tar.gz", &[("./", true)]);
        assert!(crate::unpack_flat(&empty, &temp.path().join("f")).is_err());
    }
}
