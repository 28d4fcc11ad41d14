//! Deterministic packing and safe unpacking of package archives (DESIGN §3, §4).

use std::path::{Path, PathBuf};

use crate::manifest::Package;

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{0}")]
    Unimplemented(&'static str),
}

impl crate::error::Hint for ArchiveError {}

/// A written archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedArchive {
    pub path: PathBuf,
    /// Lowercase hex sha256 of the file.
    pub sha256: String,
    pub size: u64,
}

/// Write `<publisher>-<name>-<version>.tar.gz` for a loaded (already validated) package into
/// `out_dir`, deterministically.
pub fn pack(package: &Package, out_dir: &Path) -> Result<PackedArchive, ArchiveError> {
    pack_dir(&package.dir, package.name(), package.version(), out_dir)
}

/// Pack a package folder given its name and version (the caller has validated it).
pub fn pack_dir(
    dir: &Path,
    name: &crate::name::PackageName,
    version: &semver::Version,
    out_dir: &Path,
) -> Result<PackedArchive, ArchiveError> {
    let _ = (dir, name, version, out_dir);
    Err(ArchiveError::Unimplemented("pack"))
}

/// Unpack a verified `.tar.gz` into `dest` (which must not exist yet), stripping the one top
/// folder, rejecting anything unsafe. `compressed_size` sets the expansion cap.
pub fn unpack(archive: &Path, dest: &Path) -> Result<(), ArchiveError> {
    let _ = (archive, dest);
    Err(ArchiveError::Unimplemented("unpack"))
}
