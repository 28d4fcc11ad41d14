//! Shared test support: temporary homes, the agx command, the fixture HTTP server.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub mod http;

/// A temporary HOME with AGX_HOME inside it; dropped at the end of the test.
pub struct TestHome {
    pub dir: tempfile::TempDir,
}

impl TestHome {
    pub fn new() -> Self {
        TestHome {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn home(&self) -> &Path {
        self.dir.path()
    }

    pub fn agx_home(&self) -> PathBuf {
        self.dir.path().join("agx-home")
    }

    /// `agx` with HOME, AGX_HOME and XDG folders pointing into this temp dir, no colour,
    /// no progress bars, and no registry inherited from the environment.
    pub fn agx(&self) -> Command {
        let mut cmd = Command::cargo_bin("agx").expect("agx binary");
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("AGX_HOME", self.agx_home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("XDG_DATA_HOME", self.home().join(".local/share"))
            .env("XDG_CACHE_HOME", self.home().join(".cache"))
            .env("NO_COLOR", "1")
            .env("AGX_NO_PROGRESS", "1")
            .current_dir(self.home());
        cmd
    }
}

/// The repository's root (where Cargo.toml is).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `registry-fixtures/` in the repository.
pub fn fixtures() -> PathBuf {
    repo_root().join("registry-fixtures")
}

/// Copy a folder tree (files keep their permissions).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
