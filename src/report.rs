//! How library operations tell a person what is happening while they run, without printing:
//! the command passes a [`Reporter`] down (the CLI's printer implements it; tests and the
//! runtime pass [`Silent`]). Detail for `-v` goes through `tracing::debug!`, and warnings
//! raised deep in the library, where no reporter reaches, through `tracing::warn!`.

use crate::name::PackageName;

/// What happened to one package during an install or update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Installed,
    Replaced { previous: semver::Version },
    Reinstalled,
    AlreadyInstalled,
}

/// Receives the events of a running operation. Every method has a do-nothing default so an
/// implementation shows only what it cares about.
pub trait Reporter {
    /// A step worth a line of its own, cargo style: `verb` (`Installing`, `Removed`, …) and
    /// what it applies to.
    fn status(&self, _verb: &str, _message: &str) {}

    /// Something the person should know; the operation goes on.
    fn warn(&self, _message: &str) {}

    /// A download of `size` bytes starts; [`Reporter::downloaded`] follows with running byte
    /// counts until [`Reporter::finish_download`].
    fn start_download(&self, _name: &PackageName, _version: &semver::Version, _size: u64) {}

    fn downloaded(&self, _bytes: u64) {}

    fn finish_download(&self) {}

    /// One package of an install or update is done.
    fn package_done(&self, _name: &PackageName, _version: &semver::Version, _outcome: &Outcome) {}
}

/// Reports nothing.
pub struct Silent;

impl Reporter for Silent {}
