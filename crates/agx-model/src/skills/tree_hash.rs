//! The content hash of a skill folder: what agx records for each copy it writes, so that a
//! hand-edited copy is told from agx's own.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// The most bytes of file content hashed: no skill agx copies is larger, so a folder past
/// it is not agx's copy (and hashing it would take minutes).
pub const MAX_TREE_BYTES: u64 = 1024 * 1024 * 1024;

/// What a skill's copy never holds, at any depth: a repository's `.git`, and the bytecode
/// Python writes beside a script when it runs (in a copy too), which is no part of a skill.
pub const NOT_COPIED: &[&str] = &[".git", "__pycache__"];

/// The hash of a skill folder as its copies hold it: sha256 over every entry of `dir` but
/// [`NOT_COPIED`], in name order: its relative path, its kind, whether it is executable
/// (unix), and a file's bytes, read in pieces. Links and special files are hashed by kind
/// only, never followed. An error when `dir` is not a folder (a link to one is not: it is
/// never followed), or its files hold more than [`MAX_TREE_BYTES`].
pub fn hash(dir: &Path) -> std::io::Result<String> {
    hash_tree(dir, &[], NOT_COPIED)
}

/// sha256 over every entry of `dir` as [`hash`] does, leaving out only the entries of `dir`
/// itself named in `skip` (files another program keeps beside the ones hashed).
pub fn hash_except(dir: &Path, skip: &[&str]) -> std::io::Result<String> {
    hash_tree(dir, skip, &[])
}

fn hash_tree(dir: &Path, skip: &[&str], everywhere: &[&str]) -> std::io::Result<String> {
    if !fs_err::symlink_metadata(dir)?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a folder (a link or a file)", dir.display()),
        ));
    }
    let mut hasher = Sha256::new();
    let mut budget = MAX_TREE_BYTES;
    walk(dir, "", (skip, everywhere), &mut hasher, &mut budget)?;
    Ok(hex::encode(hasher.finalize()))
}

/// `skip` leaves out entries of `dir` itself, `everywhere` entries at any depth.
fn walk(
    dir: &Path,
    prefix: &str,
    (skip, everywhere): (&[&str], &[&str]),
    hasher: &mut Sha256,
    budget: &mut u64,
) -> std::io::Result<()> {
    let mut entries: Vec<_> = fs_err::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.retain(|e| !skip.iter().chain(everywhere).any(|s| e.file_name() == **s));
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        let meta = fs_err::symlink_metadata(entry.path())?;
        let kind = if meta.is_dir() {
            "d"
        } else if meta.is_file() {
            if agx_core::fsutil::is_executable(&meta) {
                "x"
            } else {
                "f"
            }
        } else {
            "o"
        };
        hasher.update(kind.as_bytes());
        hasher.update(rel.as_bytes());
        hasher.update([0]);
        if meta.is_dir() {
            walk(
                &entry.path(),
                &format!("{rel}/"),
                (&[], everywhere),
                hasher,
                budget,
            )?;
        } else if meta.is_file() {
            let len = meta.len();
            if len > *budget {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::FileTooLarge,
                    format!(
                        "{} holds more than {} MiB of files",
                        dir.display(),
                        MAX_TREE_BYTES >> 20
                    ),
                ));
            }
            *budget -= len;
            hasher.update(len.to_le_bytes());
            let mut file = fs_err::File::open(entry.path())?.take(len);
            let mut buffer = vec![0; 64 * 1024];
            let mut copied = 0;
            loop {
                let n = file.read(&mut buffer)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buffer[..n]);
                copied += n as u64;
            }
            if copied != len {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!("{} changed while it was read", entry.path().display()),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_a_new_file_or_a_rename_changes_the_hash() {
        let dir = tempfile::tempdir().unwrap();
        fs_err::create_dir_all(dir.path().join("scripts")).unwrap();
        fs_err::write(dir.path().join("SKILL.md"), "a").unwrap();
        fs_err::write(dir.path().join("scripts/run.sh"), "b").unwrap();
        let first = hash(dir.path()).unwrap();
        assert_eq!(hash(dir.path()).unwrap(), first);
        fs_err::write(dir.path().join("SKILL.md"), "A").unwrap();
        let edited = hash(dir.path()).unwrap();
        assert_ne!(edited, first);
        fs_err::rename(
            dir.path().join("scripts/run.sh"),
            dir.path().join("scripts/go.sh"),
        )
        .unwrap();
        assert_ne!(hash(dir.path()).unwrap(), edited);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_followed_and_a_huge_folder_is_refused_without_reading_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs_err::create_dir_all(&real).unwrap();
        fs_err::write(real.join("SKILL.md"), "a").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let err = hash(&link).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
        // A sparse file past the cap: refused from its size, nothing allocated for it.
        let huge = fs_err::File::create(real.join("huge.bin")).unwrap();
        huge.set_len(MAX_TREE_BYTES + 1).unwrap();
        let err = hash(&real).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge, "{err}");
    }
}
