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

/// Passes every event on to `inner` and keeps the packages an operation installed,
/// reinstalled or updated (not those already installed), in the order they were done: what
/// `agx install` shows the permissions of.
pub struct Recorder<'a> {
    inner: &'a dyn Reporter,
    done: std::sync::Mutex<Vec<(PackageName, semver::Version)>>,
}

impl<'a> Recorder<'a> {
    pub fn new(inner: &'a dyn Reporter) -> Self {
        Recorder {
            inner,
            done: std::sync::Mutex::default(),
        }
    }

    /// The packages put in place so far, each once.
    pub fn done(&self) -> Vec<(PackageName, semver::Version)> {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut seen = std::collections::HashSet::new();
        done.retain(|(name, _)| seen.insert(name.clone()));
        done
    }
}

impl Reporter for Recorder<'_> {
    fn status(&self, verb: &str, message: &str) {
        self.inner.status(verb, message);
    }

    fn warn(&self, message: &str) {
        self.inner.warn(message);
    }

    fn start_download(&self, name: &PackageName, version: &semver::Version, size: u64) {
        self.inner.start_download(name, version, size);
    }

    fn downloaded(&self, bytes: u64) {
        self.inner.downloaded(bytes);
    }

    fn finish_download(&self) {
        self.inner.finish_download();
    }

    fn package_done(&self, name: &PackageName, version: &semver::Version, outcome: &Outcome) {
        if *outcome != Outcome::AlreadyInstalled {
            self.done
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((name.clone(), version.clone()));
        }
        self.inner.package_done(name, version, outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorder_keeps_what_was_put_in_place_once_each() {
        let recorder = Recorder::new(&Silent);
        let a: PackageName = "acme/a".parse().unwrap();
        let b: PackageName = "acme/b".parse().unwrap();
        let v = semver::Version::new(1, 0, 0);
        recorder.package_done(&a, &v, &Outcome::Installed);
        recorder.package_done(&b, &v, &Outcome::AlreadyInstalled);
        recorder.package_done(&a, &v, &Outcome::Reinstalled);
        assert_eq!(recorder.done(), [(a, v)]);
    }
}
