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
    fs_err::write(package.dir.join(SNAPSHOT_FILE), json)
}

/// Load an installed package: its snapshot when this agx wrote one, else its definitions.
pub fn load_installed(dir: &Path) -> Result<Package, LoadError> {
    match read(dir) {
        Some(package) => Ok(package),
        None => load_package(dir),
    }
}

/// The package from its snapshot, when there is a current one.
pub fn read(dir: &Path) -> Option<Package> {
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

    fn fixture(name: &str) -> Package {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("registry-fixtures/packages")
            .join(name);
        load_package(&dir).unwrap()
    }

    /// `package` with its snapshot written into a fresh folder (and `dir` pointing there).
    fn snapshot_in_temp(mut package: Package) -> (tempfile::TempDir, Package) {
        let tmp = tempfile::tempdir().unwrap();
        package.dir = tmp.path().to_path_buf();
        write(&package).unwrap();
        (tmp, package)
    }

    #[test]
    fn a_snapshot_loads_the_same_model_as_the_definitions() {
        for name in [
            "acme-weather",
            "acme-research",
            "agx-edge",
            "agx-conformance",
        ] {
            let (tmp, loaded) = snapshot_in_temp(fixture(name));
            let from_snapshot = load_installed(tmp.path()).unwrap();
            // Debug output covers every field, including source locations.
            assert_eq!(
                format!("{from_snapshot:?}"),
                format!("{loaded:?}"),
                "{name}"
            );
        }
    }

    #[test]
    fn a_stale_or_broken_snapshot_is_ignored() {
        let (tmp, _) = snapshot_in_temp(fixture("acme-weather"));
        let path = tmp.path().join(SNAPSHOT_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        let other_agx = text.replacen(WRITER, "0.0.0-other", 1);
        for stale in [other_agx.as_str(), "{ not json", ""] {
            std::fs::write(&path, stale).unwrap();
            // The folder holds no definitions, so loading them fails: the snapshot was not used.
            let err = load_installed(tmp.path()).unwrap_err();
            assert_eq!(err.dir, tmp.path());
        }
    }
}
