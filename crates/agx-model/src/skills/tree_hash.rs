//! The content hash of a skill folder: what agx records for each copy it writes, so that a
//! hand-edited copy is told from agx's own.

use std::path::Path;

use sha2::{Digest, Sha256};

/// sha256 over every entry of `dir`, in name order: its relative path, its kind, whether it
/// is executable (unix), and a file's bytes. Links and special files are hashed by kind only,
/// never followed. `None` when `dir` is not a folder.
pub fn hash(dir: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    walk(dir, "", &mut hasher)?;
    Ok(hex::encode(hasher.finalize()))
}

fn walk(dir: &Path, prefix: &str, hasher: &mut Sha256) -> std::io::Result<()> {
    let mut entries: Vec<_> = fs_err::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        let meta = fs_err::symlink_metadata(entry.path())?;
        let kind = if meta.is_dir() {
            "d"
        } else if meta.is_file() {
            if is_executable(&meta) { "x" } else { "f" }
        } else {
            "o"
        };
        hasher.update(kind.as_bytes());
        hasher.update(rel.as_bytes());
        hasher.update([0]);
        if meta.is_dir() {
            walk(&entry.path(), &format!("{rel}/"), hasher)?;
        } else if meta.is_file() {
            let bytes = fs_err::read(entry.path())?;
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    Ok(())
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    // Windows has no executable bit; a script's mode is not part of its content there.
    false
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
}
