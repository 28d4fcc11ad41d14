//! The checked model of an installed package, saved as JSON beside its files.
//!
//! `agx serve` starts on every client launch and loads every package its server uses.
//! Parsing and checking the TOML definitions is most of that work, so `agx install` saves
//! the model it has just checked into the version folder (which nothing modifies after
//! install), and loading an installed package reads that instead. A missing snapshot, or
//! one written by another agx version, is ignored: the definitions are loaded as usual.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{LoadError, Package, load_package};

/// The snapshot's file name in a version folder. Install writes it after unpacking, so a
/// file of that name in an archive is replaced.
pub const SNAPSHOT_FILE: &str = ".agx-package.json";

/// The agx that wrote a snapshot: the model may change between versions, and a snapshot is
/// only read by the agx that wrote it.
const WRITER: &str = env!("CARGO_PKG_VERSION");

#[derive(Serialize)]
struct SnapshotOut<'a> {
    agx: &'a str,
    package: &'a Package,
}

#[derive(Deserialize)]
struct SnapshotIn {
    agx: String,
    package: Package,
}

/// Save `package`'s model into its folder.
pub fn write(package: &Package) -> std::io::Result<()> {
    let json = serde_json::to_vec(&SnapshotOut {
        agx: WRITER,
        package,
    })
    .map_err(std::io::Error::other)?;
    std::fs::write(package.dir.join(SNAPSHOT_FILE), json)
}

/// Load an installed package: its snapshot when this agx wrote one, else its definitions.
pub fn load_installed(dir: &Path) -> Result<Package, LoadError> {
    match read(dir) {
        Some(package) => Ok(package),
        None => load_package(dir),
    }
}

fn read(dir: &Path) -> Option<Package> {
    let bytes = std::fs::read(dir.join(SNAPSHOT_FILE)).ok()?;
    let snapshot: SnapshotIn = serde_json::from_slice(&bytes).ok()?;
    if snapshot.agx != WRITER {
        return None;
    }
    let mut package = snapshot.package;
    package.dir = dir.to_path_buf();
    Some(package)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::check_package;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("registry-fixtures/packages")
            .join(name)
    }

    fn copy_of(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        copy_tree(&fixture(name), &dir);
        (tmp, dir)
    }

    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_tree(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    #[test]
    fn a_snapshot_loads_the_same_model_as_the_definitions() {
        for name in [
            "acme-weather",
            "acme-research",
            "agx-edge",
            "agx-conformance",
        ] {
            let (_tmp, dir) = copy_of(name);
            let loaded = load_package(&dir).unwrap();
            write(&loaded).unwrap();
            let from_snapshot = read(&dir).expect("a fresh snapshot is read");
            // Debug output covers every field, including source locations.
            assert_eq!(
                format!("{from_snapshot:?}"),
                format!("{loaded:?}"),
                "{name}"
            );
        }
    }

    #[test]
    fn a_snapshot_is_preferred_and_ignored_when_stale_or_broken() {
        let (_tmp, dir) = copy_of("acme-weather");
        let mut package = load_package(&dir).unwrap();
        package.tools[0].description = Some("from the snapshot".into());
        write(&package).unwrap();
        let loaded = load_installed(&dir).unwrap();
        assert_eq!(
            loaded.tools[0].description.as_deref(),
            Some("from the snapshot")
        );

        let path = dir.join(SNAPSHOT_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        let other_agx = text.replacen(WRITER, "0.0.0-other", 1);
        for stale in [other_agx.as_str(), "{ not json", ""] {
            std::fs::write(&path, stale).unwrap();
            let loaded = load_installed(&dir).unwrap();
            assert_ne!(
                loaded.tools[0].description.as_deref(),
                Some("from the snapshot")
            );
        }
        assert!(!check_package(&dir).has_errors());
    }
}
